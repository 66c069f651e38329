package parquetio

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"io"
	"slices"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/ipc"
	"github.com/benchtrim/benchtrim/tablefile/internal/parquetenc"
)

// Write writes records as one zstd-compressed Parquet file; the
// Arrow schema (with its metadata) is stored in the file so readers get the
// same types back.
func Write(w io.Writer, schema *arrow.Schema, records []arrow.Record) error {
	pw, err := NewWriter(w, schema, Options{})
	if err != nil {
		return err
	}
	for _, r := range records {
		if err := pw.Write(r); err != nil {
			pw.Close()
			return err
		}
	}
	return pw.Close()
}

// parquetRowGroupRows is the number of rows per Parquet row group that
// Writer aims at: it holds one row group (about 100 bytes a row for
// the canonical table) until it is written, which bounds its memory
// whatever the file's size. 2¹⁷ rows (DuckDB writes 122,880) against the
// earlier 2¹⁹, measured when pqarrow encoded the pages: on the 35 MB
// sample-mode JMH input the same CPU (medians 0.53 and 0.55 s of 7
// alternated runs), a fifth less wall time (encoding overlaps parsing in
// smaller steps) and 108 MB peak RSS instead of 174; the file is 0.6 %
// larger.
const parquetRowGroupRows = 1 << 17

// Options tune NewWriter.
type Options struct {
	// Delta names int64 columns written DELTA_BINARY_PACKED: the
	// differences between neighbouring values, bit-packed in blocks
	// (Parquet format, Encodings.md). For counters and line numbers that
	// rise in small steps or repeat, this is much smaller than PLAIN.
	Delta []string
	// Runs names int32 columns without nulls, of few distinct values
	// that come in runs (repetition indices), written dictionary-encoded
	// from dictionaries the writer builds as the string columns' are: a
	// value equal to the one before costs one comparison.
	Runs []string
	// Codec compresses the pages: zstd ("" or "zstd"), Snappy or
	// "none".
	Codec string
}

// Snappy is the Parquet page codec that keeps no state.
const Snappy = "snappy"

// codecs maps Options.Codec to parquetenc's codecs.
var codecs = map[string]parquetenc.Codec{
	"": parquetenc.Zstd, "zstd": parquetenc.Zstd, Snappy: parquetenc.Snappy, "none": parquetenc.Uncompressed,
}

// Writer writes records to a Parquet file as they come, in row
// groups of about parquetRowGroupRows rows, and stores the Arrow schema in
// the file so readers get the same types back.
//
// The file is encoded by package parquetenc. String columns without nulls are
// dictionary-encoded without hashing every value: as records arrive, each
// is turned into runs of indices into a dictionary of the row group's
// values (a value equal to the one before costs one comparison; a record
// whose column is dictionary-encoded costs one lookup per value of its
// dictionary), which parquetenc writes as the dictionary page and runs of
// indices. The stored Arrow schema keeps the column's type, so every
// reader sees strings.
type Writer struct {
	schema *arrow.Schema // as given
	rows   int64
	chunks [][]arrow.Array // per column not in dicts or ints: the row group's arrays
	groups int             // row groups written

	enc   *parquetenc.Writer
	dicts []*dictColumn    // per string column without nulls, nil for others
	ints  []*intDictColumn // per Runs column, nil for others
	delta []bool           // per column: DELTA_BINARY_PACKED
}

// dictColumn is one string column of the row group being collected: its
// dictionary, which holds the values the row group refers to, and its
// rows as runs of indices into it.
type dictColumn struct {
	dict StringDict
	runs []parquetenc.Run
}

// intDictColumn is one Runs column of the row group being collected, as
// dictColumn is.
type intDictColumn struct {
	memo   map[int32]int32
	values []int32
	runs   []parquetenc.Run
}

// stringDict is the type of dictionary-encoded strings: int32 indices into
// UTF-8 values.
var stringDict = &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int32, ValueType: arrow.BinaryTypes.String}

// parquetencTypes maps the Arrow types of flat columns to parquetenc's.
var parquetencTypes = map[arrow.Type]parquetenc.Type{
	arrow.STRING: parquetenc.String, arrow.INT32: parquetenc.Int32, arrow.INT64: parquetenc.Int64,
	arrow.FLOAT64: parquetenc.Double, arrow.BOOL: parquetenc.Boolean,
}

// parquetColumn is the parquetenc column of field f: strings (plain or
// dictionary-encoded), int32, int64, float64 and booleans, and lists of
// int32, int64, float64 and strings.
func parquetColumn(f arrow.Field) (parquetenc.Column, error) {
	c := parquetenc.Column{Name: f.Name, Optional: f.Nullable}
	t := f.Type
	if l, ok := t.(*arrow.ListType); ok {
		c.List, c.ElemOptional = true, l.ElemField().Nullable
		t = l.Elem()
	}
	if arrow.TypeEqual(t, stringDict) {
		c.Type = parquetenc.String
		return c, nil
	}
	pt, ok := parquetencTypes[t.ID()]
	if !ok || c.List && pt == parquetenc.Boolean {
		return c, fmt.Errorf("parquetio: column %s: Parquet files of %s columns are not written", f.Name, f.Type)
	}
	c.Type = pt
	return c, nil
}

// NewWriter starts a Parquet file with schema on w, written
// as o says. A flat schema's string columns without nulls and its Runs
// columns are dictionary-encoded, its Delta columns DELTA_BINARY_PACKED,
// the others PLAIN; every column has min/max statistics. The footer's
// key-value metadata holds the schema's metadata, then ARROW:schema (the
// schema as an Arrow IPC message, base64, as pqarrow stores it), then
// what SetMetadata adds.
func NewWriter(w io.Writer, schema *arrow.Schema, o Options) (*Writer, error) {
	codec, ok := codecs[o.Codec]
	if !ok {
		return nil, fmt.Errorf("parquetio: unknown Parquet compression %q (want snappy, zstd or none)", o.Codec)
	}
	fields := schema.Fields()
	p := &Writer{schema: schema, chunks: make([][]arrow.Array, len(fields)),
		dicts: make([]*dictColumn, len(fields)), ints: make([]*intDictColumn, len(fields)), delta: make([]bool, len(fields))}
	cols := make([]parquetenc.Column, len(fields))
	for i, f := range fields {
		c, err := parquetColumn(f)
		if err != nil {
			return nil, err
		}
		cols[i] = c
		switch {
		case c.List:
		case c.Type == parquetenc.String && !f.Nullable:
			p.dicts[i] = &dictColumn{}
		case c.Type == parquetenc.String && f.Type.ID() != arrow.STRING:
			return nil, fmt.Errorf("parquetio: column %s: a nullable dictionary-encoded column", f.Name)
		case slices.Contains(o.Runs, f.Name):
			if c.Type != parquetenc.Int32 || f.Nullable {
				return nil, fmt.Errorf("parquetio: column %s is %s, not int32 without nulls", f.Name, f.Type)
			}
			p.ints[i] = &intDictColumn{}
		case slices.Contains(o.Delta, f.Name):
			if c.Type != parquetenc.Int64 {
				return nil, fmt.Errorf("parquetio: column %s is %s, not int64", f.Name, f.Type)
			}
			p.delta[i] = true
		}
	}
	var kv [][2]string
	md := schema.Metadata()
	for i, k := range md.Keys() {
		kv = append(kv, [2]string{k, md.Values()[i]})
	}
	var buf bytes.Buffer
	iw := ipc.NewWriter(&buf, ipc.WithSchema(schema))
	if err := iw.Close(); err != nil {
		return nil, err
	}
	kv = append(kv, [2]string{StoredSchemaKey, base64.StdEncoding.EncodeToString(buf.Bytes())})
	enc, err := parquetenc.NewWriter(w, cols, []parquetenc.Codec{codec}, kv)
	if err != nil {
		return nil, err
	}
	p.enc = enc
	return p, nil
}

// Write adds r's rows (r's columns must have the writer's types; its
// schema metadata may differ). The caller keeps ownership of r.
func (p *Writer) Write(r arrow.Record) error {
	if r.NumCols() != int64(len(p.schema.Fields())) {
		return fmt.Errorf("parquetio: record with %d columns, want %d", r.NumCols(), len(p.schema.Fields()))
	}
	for i, c := range r.Columns() {
		f := p.schema.Field(i)
		if !arrow.TypeEqual(c.DataType(), f.Type) {
			return fmt.Errorf("parquetio: column %s is %s, want %s", f.Name, c.DataType(), f.Type)
		}
		if c.NullN() > 0 && !f.Nullable {
			return fmt.Errorf("parquetio: column %s: nulls in a column without nulls", f.Name)
		}
		if s, ok := c.(*array.Dictionary); ok && s.Dictionary().NullN() > 0 {
			return fmt.Errorf("parquetio: column %s: nulls in a dictionary", f.Name)
		}
	}
	for i, c := range r.Columns() {
		switch {
		case p.dicts[i] != nil:
			p.dicts[i].add(c)
		case p.ints[i] != nil:
			p.ints[i].add(c.(*array.Int32).Int32Values())
		default:
			c.Retain()
			p.chunks[i] = append(p.chunks[i], c)
		}
	}
	p.rows += r.NumRows()
	if p.rows >= parquetRowGroupRows {
		return p.flush()
	}
	return nil
}

// add appends c's values (a string or dictionary-encoded string array)
// to d's runs.
func (d *dictColumn) add(c arrow.Array) {
	if s, ok := c.(*array.Dictionary); ok {
		d.runs = d.dict.transposeRuns(d.runs, s.Indices().(*array.Int32).Int32Values(), s.Dictionary().(*array.String))
		return
	}
	s := c.(*array.String)
	for i := 0; i < s.Len(); i++ {
		if n := len(d.runs); n > 0 && i > 0 && s.Value(i) == s.Value(i-1) {
			d.runs[n-1].Len++
			continue
		}
		d.runs = appendRun(d.runs, d.dict.Index(s.Value(i)), 1)
	}
}

// add appends v to d's runs.
func (d *intDictColumn) add(v []int32) {
	if d.memo == nil {
		d.memo = map[int32]int32{}
	}
	for i := 0; i < len(v); {
		x := v[i]
		j := runEnd(v, i)
		k, ok := d.memo[x]
		if !ok {
			k = int32(len(d.values))
			d.memo[x] = k
			d.values = append(d.values, x)
		}
		d.runs = appendRun(d.runs, k, j-i)
		i = j
	}
}

// appendRun appends n rows of index j to runs (extending the last run
// when it is of j).
func appendRun(runs []parquetenc.Run, j int32, n int) []parquetenc.Run {
	if k := len(runs); k > 0 && runs[k-1].Index == j {
		runs[k-1].Len += int32(n)
		return runs
	}
	return append(runs, parquetenc.Run{Index: j, Len: int32(n)})
}

// flush writes the collected rows as one row group.
func (p *Writer) flush() error {
	if p.rows == 0 {
		return nil
	}
	defer func() {
		for i, cs := range p.chunks {
			for _, c := range cs {
				c.Release()
			}
			clear(cs) // the next row group's rows do not keep these alive
			p.chunks[i] = cs[:0]
		}
		p.rows = 0
	}()
	p.groups++
	if err := p.enc.BeginRowGroup(p.rows); err != nil {
		return err
	}
	for i := range p.schema.Fields() {
		var err error
		switch d, n := p.dicts[i], p.ints[i]; {
		case d != nil:
			err = p.enc.WriteStringDict(d.dict.values, d.runs)
			*d = dictColumn{runs: d.runs[:0]}
		case n != nil:
			err = p.enc.WriteInt32Dict(n.values, n.runs)
			*n = intDictColumn{runs: n.runs[:0]}
		default:
			err = p.enc.WriteArrays(p.chunks[i], p.delta[i])
		}
		if err != nil {
			return fmt.Errorf("parquetio: column %s: %w", p.schema.Field(i).Name, err)
		}
	}
	return p.enc.EndRowGroup()
}

// EndRowGroup writes the rows collected so far as a row group of their
// own (nothing when there are none) and returns the number of row groups
// written: a caller that orders the rows (by a key) ends a row group where
// its readers are to be able to skip to.
func (p *Writer) EndRowGroup() (int, error) {
	err := p.flush()
	return p.groups, err
}

// SetMetadata adds a key-value pair to the file's metadata, which Parquet
// writes in the footer at Close: for values known only once every row is
// written.
func (p *Writer) SetMetadata(key, value string) error {
	p.enc.SetMetadata(key, value)
	return nil
}

// Close writes the last row group and the footer.
func (p *Writer) Close() error {
	if err := p.flush(); err != nil {
		return err
	}
	return p.enc.Close()
}
