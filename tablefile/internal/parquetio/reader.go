package parquetio

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"unsafe"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/bitutil"
	"github.com/apache/arrow/go/v15/arrow/ipc"
	"github.com/apache/arrow/go/v15/arrow/memory"
	"github.com/apache/arrow/go/v15/parquet"
	"github.com/apache/arrow/go/v15/parquet/file"
	"github.com/apache/arrow/go/v15/parquet/schema"
)

// This file reads Parquet files into Arrow arrays on the column readers of
// package parquet/file, for the types benchtrim writes: booleans, int32,
// int64, doubles, UTF-8 strings (plain or dictionary-encoded in Arrow), each
// required or optional, and three-level lists of int64 or strings. Arrow's
// own pqarrow reads any file, but it brings arrow/compute, arrow/flight and
// gRPC into the binary, whose package initialisers cost every command a
// third of its start-up.

// StoredSchemaKey is the key of the footer's key-value metadata under which
// Arrow writers (pqarrow, and NewWriter) store the Arrow schema,
// an IPC schema message in base64.
const StoredSchemaKey = "ARROW:schema"

// Schema returns the Arrow schema of pf's columns, as pqarrow gives
// it: each top-level field of the Parquet schema becomes a field of the
// Arrow type its physical and logical types imply (UTF-8 strings, signed
// integers of their width, dates, timestamps, doubles, booleans; a
// three-level LIST a list of its element), nullable when the field is
// optional. When the footer holds a stored Arrow schema (StoredSchemaKey)
// of as many fields, a string field stored as a dictionary of strings with
// int32 indices reads as such, and the schema's metadata is the stored
// schema's; otherwise it is the footer's key-value metadata, without the
// stored schema.
func Schema(pf *file.Reader) (*arrow.Schema, error) {
	sc := pf.MetaData().Schema
	root := sc.Root()
	if root.NumFields() != sc.NumColumns() {
		return nil, fmt.Errorf("parquet: %d fields and %d leaf columns: nested fields other than lists are not read", root.NumFields(), sc.NumColumns())
	}
	fields := make([]arrow.Field, root.NumFields())
	for i := range fields {
		n := root.Field(i)
		t, err := fieldType(n)
		if err != nil {
			return nil, fmt.Errorf("parquet: column %s: %w", n.Name(), err)
		}
		fields[i] = arrow.Field{Name: n.Name(), Type: t, Nullable: n.RepetitionType() == parquet.Repetitions.Optional}
	}
	kv := pf.MetaData().KeyValueMetadata()
	stored, err := storedSchema(kv)
	if err != nil {
		return nil, err
	}
	if stored != nil && len(stored.Fields()) == len(fields) {
		for i, f := range stored.Fields() {
			if d, ok := f.Type.(*arrow.DictionaryType); ok && fields[i].Type.ID() == arrow.STRING &&
				d.IndexType.ID() == arrow.INT32 && d.ValueType.ID() == arrow.STRING {
				fields[i].Type = d
			}
		}
		md := stored.Metadata()
		return arrow.NewSchema(fields, &md), nil
	}
	var keys, values []string
	for _, e := range kv {
		if e != nil && e.Key != StoredSchemaKey {
			keys = append(keys, e.Key)
			v := ""
			if e.Value != nil {
				v = *e.Value
			}
			values = append(values, v)
		}
	}
	md := arrow.NewMetadata(keys, values)
	return arrow.NewSchema(fields, &md), nil
}

// storedSchema decodes the Arrow schema stored in the key-value metadata
// kv (standard base64, else unpadded, as pqarrow decodes it), or returns
// nil when there is none.
func storedSchema(kv interface{ FindValue(string) *string }) (*arrow.Schema, error) {
	v := kv.FindValue(StoredSchemaKey)
	if v == nil {
		return nil, nil
	}
	msg, err := base64.StdEncoding.DecodeString(*v)
	if len(msg) == 0 || err != nil {
		msg, err = base64.RawStdEncoding.DecodeString(*v)
	}
	if err != nil {
		return nil, fmt.Errorf("parquet: %s: %w", StoredSchemaKey, err)
	}
	r, err := ipc.NewReader(bytes.NewReader(msg))
	if err != nil {
		return nil, fmt.Errorf("parquet: %s: %w", StoredSchemaKey, err)
	}
	defer r.Release()
	return r.Schema(), nil
}

// fieldType is the Arrow type of the top-level Parquet field n.
func fieldType(n schema.Node) (arrow.DataType, error) {
	switch n := n.(type) {
	case *schema.PrimitiveNode:
		if n.RepetitionType() == parquet.Repetitions.Repeated {
			return nil, fmt.Errorf("a repeated field (two-level list) is not read")
		}
		return primitiveType(n), nil
	case *schema.GroupNode:
		if elem := listElement(n); elem != nil {
			return arrow.ListOfField(arrow.Field{Name: "element", Type: primitiveType(elem),
				Nullable: elem.RepetitionType() == parquet.Repetitions.Optional}), nil
		}
		return nil, fmt.Errorf("a group other than a three-level LIST is not read")
	}
	return nil, fmt.Errorf("unknown node %T", n)
}

// listElement returns the element of the three-level LIST n (a group
// annotated LIST holding one repeated group holding one primitive
// field), or nil.
func listElement(n *schema.GroupNode) *schema.PrimitiveNode {
	_, isList := n.LogicalType().(*schema.ListLogicalType)
	if !isList && n.ConvertedType() != schema.ConvertedTypes.List || n.NumFields() != 1 ||
		n.RepetitionType() == parquet.Repetitions.Repeated {
		return nil
	}
	rep, ok := n.Field(0).(*schema.GroupNode)
	if !ok || rep.RepetitionType() != parquet.Repetitions.Repeated || rep.NumFields() != 1 {
		return nil
	}
	elem, ok := rep.Field(0).(*schema.PrimitiveNode)
	if !ok || elem.RepetitionType() == parquet.Repetitions.Repeated {
		return nil
	}
	return elem
}

// primitiveType is the Arrow type of a Parquet primitive field's values.
func primitiveType(n *schema.PrimitiveNode) arrow.DataType {
	lt := n.LogicalType()
	switch n.PhysicalType() {
	case parquet.Types.Boolean:
		return arrow.FixedWidthTypes.Boolean
	case parquet.Types.Int32:
		switch lt := lt.(type) {
		case *schema.IntLogicalType:
			return intType(int(lt.BitWidth()), lt.IsSigned())
		case schema.DateLogicalType:
			return arrow.FixedWidthTypes.Date32
		}
		return arrow.PrimitiveTypes.Int32
	case parquet.Types.Int64:
		switch lt := lt.(type) {
		case *schema.IntLogicalType:
			return intType(int(lt.BitWidth()), lt.IsSigned())
		case *schema.TimestampLogicalType:
			unit := map[schema.TimeUnitType]arrow.TimeUnit{schema.TimeUnitMillis: arrow.Millisecond, schema.TimeUnitMicros: arrow.Microsecond}[lt.TimeUnit()]
			if lt.TimeUnit() == schema.TimeUnitNanos {
				unit = arrow.Nanosecond
			}
			return &arrow.TimestampType{Unit: unit}
		}
		return arrow.PrimitiveTypes.Int64
	case parquet.Types.Int96:
		return arrow.FixedWidthTypes.Timestamp_ns
	case parquet.Types.Float:
		return arrow.PrimitiveTypes.Float32
	case parquet.Types.Double:
		return arrow.PrimitiveTypes.Float64
	case parquet.Types.ByteArray:
		switch lt.(type) {
		case schema.StringLogicalType, schema.EnumLogicalType, schema.JSONLogicalType:
			return arrow.BinaryTypes.String
		}
		if n.ConvertedType() == schema.ConvertedTypes.UTF8 {
			return arrow.BinaryTypes.String
		}
		return arrow.BinaryTypes.Binary
	case parquet.Types.FixedLenByteArray:
		return &arrow.FixedSizeBinaryType{ByteWidth: n.TypeLength()}
	}
	return arrow.Null
}

// intType is the Arrow integer type of bits bits, signed or not.
func intType(bits int, signed bool) arrow.DataType {
	switch {
	case bits == 8 && signed:
		return arrow.PrimitiveTypes.Int8
	case bits == 8:
		return arrow.PrimitiveTypes.Uint8
	case bits == 16 && signed:
		return arrow.PrimitiveTypes.Int16
	case bits == 16:
		return arrow.PrimitiveTypes.Uint16
	case bits == 32 && signed:
		return arrow.PrimitiveTypes.Int32
	case bits == 32:
		return arrow.PrimitiveTypes.Uint32
	case signed:
		return arrow.PrimitiveTypes.Int64
	}
	return arrow.PrimitiveTypes.Uint64
}

// Column reads one column of a Parquet file as Arrow arrays, a
// batch of rows at a time, through the row groups it was given in their
// order. Its arrays are Go memory; each holds only its own batch's values
// (a dictionary array the distinct strings of its batch, in the order of
// their first row).
type Column struct {
	pf       *file.Reader
	col      int
	name     string
	typ      arrow.DataType
	groups   []int
	next     int // index into groups of the next row group
	cr       file.ColumnChunkReader
	maxDef   int16
	maxRep   int16
	listDef  int16 // definition level of an empty list
	elemNull bool  // the list element is optional

	defs, reps []int16
	dense      any   // []T of the values read, without nulls
	group      int   // the row group of cr
	groupRows  int64 // levels read from cr (rows, for a flat column)
}

// NewColumn returns the reader of leaf column col of pf (a
// top-level field, Schema's field col) as arrays of type t, from
// row groups groups. t is one of boolean, int32, int64, float64, utf8, a
// dictionary of utf8 with int32 indices (for a BYTE_ARRAY column), or a
// list of int64 or utf8 (for a three-level LIST).
func NewColumn(pf *file.Reader, col int, t arrow.DataType, groups []int) (*Column, error) {
	sc := pf.MetaData().Schema
	if col < 0 || col >= sc.NumColumns() {
		return nil, fmt.Errorf("parquet: no column %d", col+1)
	}
	descr := sc.Column(col)
	c := &Column{pf: pf, col: col, name: descr.Path(), typ: t, groups: groups,
		maxDef: descr.MaxDefinitionLevel(), maxRep: descr.MaxRepetitionLevel()}
	want := t
	if l, ok := t.(*arrow.ListType); ok {
		want = l.Elem()
		elem, _ := descr.SchemaNode().(*schema.PrimitiveNode)
		var list *schema.GroupNode
		if elem != nil && elem.Parent() != nil && elem.Parent().Parent() != nil {
			list, _ = elem.Parent().Parent().(*schema.GroupNode)
		}
		if list == nil || listElement(list) != elem || c.maxRep != 1 {
			return nil, fmt.Errorf("parquet: column %s: not a three-level LIST, cannot read as %s", c.name, t)
		}
		c.elemNull = elem.RepetitionType() == parquet.Repetitions.Optional
		c.listDef = c.maxDef - 1
		if c.elemNull {
			c.listDef--
		}
	} else if c.maxRep != 0 {
		return nil, fmt.Errorf("parquet: column %s: a repeated column cannot be read as %s", c.name, t)
	}
	if d, ok := want.(*arrow.DictionaryType); ok && d.IndexType.ID() == arrow.INT32 {
		want = d.ValueType
	}
	phys := descr.PhysicalType()
	ok := false
	switch want.ID() {
	case arrow.BOOL:
		ok = phys == parquet.Types.Boolean
	case arrow.INT32:
		ok = phys == parquet.Types.Int32
	case arrow.INT64:
		ok = phys == parquet.Types.Int64
	case arrow.FLOAT64:
		ok = phys == parquet.Types.Double
	case arrow.STRING:
		ok = phys == parquet.Types.ByteArray
	}
	if !ok {
		return nil, fmt.Errorf("parquet: column %s of %s values cannot be read as %s", c.name, phys, t)
	}
	return c, nil
}

// Next returns the next up to n rows of the column (a list column: every
// row left, whatever n), or nil at the end of the row groups.
func (c *Column) Next(n int) (arrow.Array, error) {
	if _, ok := c.typ.(*arrow.ListType); ok {
		return c.nextList()
	}
	if n <= 0 {
		return nil, fmt.Errorf("parquet: column %s: a batch of %d rows", c.name, n)
	}
	var out arrow.Array
	var err error
	switch c.typ.ID() {
	case arrow.BOOL:
		out, err = nextFixed[bool](c, n)
	case arrow.INT32:
		out, err = nextFixed[int32](c, n)
	case arrow.INT64:
		out, err = nextFixed[int64](c, n)
	case arrow.FLOAT64:
		out, err = nextFixed[float64](c, n)
	case arrow.STRING, arrow.DICTIONARY:
		out, err = nextStrings(c, n)
	}
	if err != nil {
		return nil, fmt.Errorf("parquet: column %s: %w", c.name, err)
	}
	return out, nil
}

// batchReader is a typed column chunk reader of package file.
type batchReader[T any] interface {
	ReadBatch(batchSize int64, values []T, defLvls, repLvls []int16) (int64, int, error)
}

// read reads up to n levels (rows, for a flat column) of the column into
// c.defs (when it has definition levels), c.reps (when repeated) and
// dense values, across row groups; it returns the number of levels and of
// values read (fewer than n only at the end).
func read[T any](c *Column, n int) (levels, values int, err error) {
	if c.maxDef > 0 {
		c.defs = grow(c.defs, n)
	}
	if c.maxRep > 0 {
		c.reps = grow(c.reps, n)
	}
	dense, _ := c.dense.([]T)
	dense = grow(dense, n)
	c.dense = dense
	for levels < n {
		if c.cr == nil || !c.cr.HasNext() {
			if err := c.cr0(); err != nil {
				return levels, values, err
			}
			if c.cr == nil {
				return levels, values, nil
			}
			continue
		}
		r, ok := c.cr.(batchReader[T])
		if !ok {
			return levels, values, fmt.Errorf("reader %T", c.cr)
		}
		var defs, reps []int16
		if c.maxDef > 0 {
			defs = c.defs[levels:n]
		}
		if c.maxRep > 0 {
			reps = c.reps[levels:n]
		}
		nl, nv, err := r.ReadBatch(int64(n-levels), dense[values:n], defs, reps)
		if err != nil {
			return levels, values, err
		}
		if nl == 0 {
			if err := c.cr.Err(); err != nil {
				return levels, values, err
			}
			if err := c.cr0(); err != nil { // the chunk ends early
				return levels, values, err
			}
			if c.cr == nil {
				return levels, values, nil
			}
			continue
		}
		levels += int(nl)
		values += nv
		c.groupRows += nl
	}
	return levels, values, nil
}

// cr0 moves to the next row group's column chunk (c.cr nil after the last).
func (c *Column) cr0() error {
	if c.cr != nil && c.maxRep == 0 {
		if want := c.pf.MetaData().RowGroup(c.group).NumRows(); c.groupRows != want {
			return fmt.Errorf("row group %d: %d of its %d rows", c.group+1, c.groupRows, want)
		}
	}
	c.cr, c.groupRows = nil, 0
	if c.next >= len(c.groups) {
		return nil
	}
	g := c.groups[c.next]
	c.next++
	if g < 0 || g >= c.pf.NumRowGroups() {
		return fmt.Errorf("no row group %d", g+1)
	}
	cr, err := c.pf.RowGroup(g).Column(c.col)
	if err != nil {
		return err
	}
	c.cr, c.group = cr, g
	return nil
}

// validity returns the validity bitmap of the k levels read and their
// null count (nil and 0 when every row is defined), checking that the
// values read match the defined rows.
func (c *Column) validity(k, values int) ([]byte, int, error) {
	if c.maxDef == 0 {
		if values != k {
			return nil, 0, fmt.Errorf("%d values for %d rows", values, k)
		}
		return nil, 0, nil
	}
	defined := 0
	for _, d := range c.defs[:k] {
		if d == c.maxDef {
			defined++
		}
	}
	if defined != values {
		return nil, 0, fmt.Errorf("%d values for %d defined rows", values, defined)
	}
	if defined == k {
		return nil, 0, nil
	}
	bits := make([]byte, bitutil.BytesForBits(int64(k)))
	for i, d := range c.defs[:k] {
		if d == c.maxDef {
			bitutil.SetBit(bits, i)
		}
	}
	return bits, k - defined, nil
}

// nextFixed reads the next up to n rows of a flat column of T.
func nextFixed[T bool | int32 | int64 | float64](c *Column, n int) (arrow.Array, error) {
	k, values, err := read[T](c, n)
	if err != nil || k == 0 {
		return nil, err
	}
	bits, nulls, err := c.validity(k, values)
	if err != nil {
		return nil, err
	}
	dense := c.dense.([]T)[:values]
	var buf []byte
	if bools, ok := any(dense).([]bool); ok {
		buf = make([]byte, bitutil.BytesForBits(int64(k)))
		j := 0
		for i := 0; i < k; i++ {
			if bits == nil || bitutil.BitIsSet(bits, i) {
				if bools[j] {
					bitutil.SetBit(buf, i)
				}
				j++
			}
		}
	} else {
		out := make([]T, k)
		if bits == nil {
			copy(out, dense)
		} else {
			j := 0
			for i := range out {
				if bitutil.BitIsSet(bits, i) {
					out[i] = dense[j]
					j++
				}
			}
		}
		var zero T
		buf = unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(out))), k*int(unsafe.Sizeof(zero)))
	}
	var valid *memory.Buffer
	if bits != nil {
		valid = memory.NewBufferBytes(bits)
	}
	data := array.NewData(c.typ, k, []*memory.Buffer{valid, memory.NewBufferBytes(buf)}, nil, nulls, 0)
	defer data.Release()
	return array.MakeFromData(data), nil
}

// nextStrings reads the next up to n rows of a flat column of strings, as
// utf8 or as a dictionary of the distinct strings with int32 indices.
func nextStrings(c *Column, n int) (arrow.Array, error) {
	k, values, err := read[parquet.ByteArray](c, n)
	if err != nil || k == 0 {
		return nil, err
	}
	bits, nulls, err := c.validity(k, values)
	if err != nil {
		return nil, err
	}
	var valid *memory.Buffer
	if bits != nil {
		valid = memory.NewBufferBytes(bits)
	}
	dense := c.dense.([]parquet.ByteArray)[:values]
	value := func(i int, j *int) (parquet.ByteArray, bool) {
		if bits != nil && !bitutil.BitIsSet(bits, i) {
			return nil, false
		}
		*j++
		return dense[*j-1], true
	}
	if c.typ.ID() == arrow.STRING {
		offsets := make([]int32, k+1)
		size := 0
		for _, v := range dense {
			size += len(v)
		}
		if size > 1<<31-1 {
			return nil, fmt.Errorf("%d bytes of strings in a batch of %d rows", size, k)
		}
		text := make([]byte, 0, size)
		j := 0
		for i := 0; i < k; i++ {
			if v, ok := value(i, &j); ok {
				text = append(text, v...)
			}
			offsets[i+1] = int32(len(text))
		}
		data := array.NewData(c.typ, k, []*memory.Buffer{valid, memory.NewBufferBytes(arrow.Int32Traits.CastToBytes(offsets)), memory.NewBufferBytes(text)}, nil, nulls, 0)
		defer data.Release()
		return array.MakeFromData(data), nil
	}
	// A dictionary of the batch's distinct strings; rows are ordered, so a
	// string is mostly its predecessor's.
	idx := make([]int32, k)
	memo := map[string]int32{}
	dictOffsets := []int32{0}
	var dictText []byte
	last, lastIdx := []byte(nil), int32(-1)
	j := 0
	for i := range idx {
		v, ok := value(i, &j)
		switch {
		case !ok:
			continue
		case lastIdx >= 0 && bytes.Equal(v, last):
			idx[i] = lastIdx
			continue
		}
		d, seen := memo[string(v)]
		if !seen {
			d = int32(len(dictOffsets) - 1)
			dictText = append(dictText, v...)
			dictOffsets = append(dictOffsets, int32(len(dictText)))
			memo[string(v)] = d
		}
		idx[i], last, lastIdx = d, v, d
	}
	dictData := array.NewData(arrow.BinaryTypes.String, len(dictOffsets)-1,
		[]*memory.Buffer{nil, memory.NewBufferBytes(arrow.Int32Traits.CastToBytes(dictOffsets)), memory.NewBufferBytes(dictText)}, nil, 0, 0)
	defer dictData.Release()
	data := array.NewData(c.typ, k, []*memory.Buffer{valid, memory.NewBufferBytes(arrow.Int32Traits.CastToBytes(idx))}, nil, nulls, 0)
	data.SetDictionary(dictData)
	defer data.Release()
	return array.MakeFromData(data), nil
}

// nextList reads every row left of a list column.
func (c *Column) nextList() (arrow.Array, error) {
	elem := c.typ.(*arrow.ListType).Elem()
	var levels, values int
	var err error
	for n := 1 << 12; ; n *= 2 {
		switch elem.ID() {
		case arrow.INT64:
			levels, values, err = read[int64](c, n)
		case arrow.STRING:
			levels, values, err = read[parquet.ByteArray](c, n)
		default:
			return nil, fmt.Errorf("parquet: column %s: lists of %s are not read", c.name, elem)
		}
		if err != nil {
			return nil, fmt.Errorf("parquet: column %s: %w", c.name, err)
		}
		if levels < n {
			break
		}
		// Start again with room for more: rewind to the first row group.
		c.next, c.cr = 0, nil
	}
	if levels == 0 {
		return nil, nil
	}
	var offsets []int32
	var valid []byte
	nulls, items := 0, 0
	for i := 0; i < levels; i++ {
		def, rep := c.defs[i], c.reps[i]
		if rep == 0 {
			rows := len(offsets)
			offsets = append(offsets, int32(items))
			if valid == nil && def < c.listDef {
				valid = make([]byte, bitutil.BytesForBits(int64(levels)))
				bitutil.SetBitsTo(valid, 0, int64(rows), true)
			}
			switch {
			case def < c.listDef:
				nulls++
			case valid != nil:
				bitutil.SetBit(valid, rows)
			}
		} else if i == 0 {
			return nil, fmt.Errorf("parquet: column %s: the first level continues a row", c.name)
		}
		switch {
		case def == c.maxDef:
			items++
		case def > c.listDef:
			return nil, fmt.Errorf("parquet: column %s: a null list element (row %d)", c.name, len(offsets))
		case rep != 0:
			return nil, fmt.Errorf("parquet: column %s: an empty or null list continues a row (row %d)", c.name, len(offsets))
		}
	}
	if items != values {
		return nil, fmt.Errorf("parquet: column %s: %d values for %d list elements", c.name, values, items)
	}
	rows := len(offsets)
	offsets = append(offsets, int32(items))
	var child arrow.ArrayData
	switch elem.ID() {
	case arrow.INT64:
		vals := append([]int64(nil), c.dense.([]int64)[:values]...)
		child = array.NewData(elem, values, []*memory.Buffer{nil, memory.NewBufferBytes(arrow.Int64Traits.CastToBytes(vals))}, nil, 0, 0)
	case arrow.STRING:
		dense := c.dense.([]parquet.ByteArray)[:values]
		offs := make([]int32, values+1)
		var text []byte
		for i, v := range dense {
			text = append(text, v...)
			offs[i+1] = int32(len(text))
		}
		child = array.NewData(elem, values, []*memory.Buffer{nil, memory.NewBufferBytes(arrow.Int32Traits.CastToBytes(offs)), memory.NewBufferBytes(text)}, nil, 0, 0)
	}
	defer child.Release()
	var vb *memory.Buffer
	if valid != nil {
		vb = memory.NewBufferBytes(valid)
	}
	data := array.NewData(c.typ, rows, []*memory.Buffer{vb, memory.NewBufferBytes(arrow.Int32Traits.CastToBytes(offsets))}, []arrow.ArrayData{child}, nulls, 0)
	defer data.Release()
	return array.MakeFromData(data), nil
}

// grow returns s with length at least n, its first elements kept.
func grow[T any](s []T, n int) []T {
	if cap(s) >= n {
		return s[:n]
	}
	return append(s[:cap(s)], make([]T, n-cap(s))...)
}
