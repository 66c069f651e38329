// Package parquetenc writes Parquet files of columns of booleans, int32,
// int64, doubles and UTF-8 strings (required or optional) and of lists of
// them, from dictionaries and runs of indices the caller has already
// built and from Arrow arrays, encoding every page itself: the Parquet
// writer of package tablefile/internal/parquetio collects the canonical
// table's string and repetition-level columns as dictionaries and runs
// while the rows come, so that no value is hashed, and no index stored or
// encoded, one row at a time.
//
// The file layout and encodings are parquet-format's (README.md,
// Encodings.md, parquet.thrift): "PAR1", column chunks of data pages v1
// (a dictionary page first for dictionary-encoded chunks), the footer (a
// Thrift compact-protocol FileMetaData), its length and "PAR1".
package parquetenc

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"math/bits"
	"runtime/debug"
	"strings"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"
	"github.com/benchtrim/benchtrim/tablefile/internal/thrift"
	"github.com/golang/snappy"
	"github.com/klauspost/compress/zstd"
)

// Type is a column's type.
type Type int

// The column types: Parquet's physical types, strings being BYTE_ARRAY
// annotated UTF8.
const (
	Boolean Type = iota
	Int32
	Int64
	Double
	String
)

// physical is the parquet.thrift Type of each Type.
var physical = [...]int32{Boolean: 0, Int32: 1, Int64: 2, Double: 5, String: 6}

// Column describes one column of the file.
type Column struct {
	Name     string
	Type     Type // of the values, or of a list's elements
	Optional bool // nulls allowed: definition levels are written
	// List makes the column a list of Type (Parquet's three-level LIST:
	// the column, a repeated group "list", its field "element"), written
	// from Arrow list arrays; ElemOptional allows null elements.
	List         bool
	ElemOptional bool
}

// path is the column's path in the schema (ColumnMetaData.path_in_schema).
func (c Column) path() []string {
	if c.List {
		return []string{c.Name, "list", "element"}
	}
	return []string{c.Name}
}

// Codec is a page compression codec.
type Codec int

// The codecs (parquet.thrift CompressionCodec values).
const (
	Uncompressed Codec = 0
	Snappy       Codec = 1
	Zstd         Codec = 6
)

// Parquet encodings (parquet.thrift Encoding).
const (
	encPlain          = 0
	encRLE            = 3
	encDeltaBinary    = 5
	encRLEDictionary  = 8
	pageData          = 0
	pageDictionary    = 2
	maxPageRows       = 1 << 18 // values in a data page
	maxPageBytes      = 8 << 20 // bytes of plain strings in a data page
	maxStatisticBytes = 4096    // longer string minimums and maximums are left out
)

// Writer writes a Parquet file. Row groups are written column by column:
// BeginRowGroup, then one Write call per column in the schema's order,
// then EndRowGroup. Close writes the footer.
type Writer struct {
	w         io.Writer
	pos       int64
	cols      []Column
	codecs    []Codec
	kv        [][2]string
	groups    []rowGroup
	group     *rowGroup
	zstd      *zstd.Encoder
	body      []byte // the page being encoded
	out       []byte // the compressed page (its buffer is reused)
	closed    bool
	err       error
	createdBy string
	pb        pageBuilder
	pageRuns  []Run
	hybrid    hybridEncoder
}

// rowGroup is the footer's record of a row group.
type rowGroup struct {
	rows   int64
	chunks []chunk
}

// chunk is the footer's record of a column chunk (ColumnMetaData).
type chunk struct {
	encodings          []int32
	codec              Codec
	values             int64
	uncompressed, size int64
	dataOffset         int64
	dictOffset         int64 // -1: no dictionary page
	stats              stats
}

// stats are a chunk's statistics: min and max PLAIN-encoded (byte
// arrays without their length), ok when there are any.
type stats struct {
	min, max []byte
	ok       bool
	nulls    int64
	none     bool // no statistics at all (list columns)
}

// NewWriter starts a file of cols on w, every column's pages compressed
// with codecs[i] (one codec: all columns), with the key-value metadata kv
// (more can be added with SetMetadata until Close).
func NewWriter(w io.Writer, cols []Column, codecs []Codec, kv [][2]string) (*Writer, error) {
	if len(cols) == 0 {
		return nil, errors.New("parquetenc: no columns")
	}
	switch len(codecs) {
	case 1:
		one := codecs[0]
		codecs = make([]Codec, len(cols))
		for i := range codecs {
			codecs[i] = one
		}
	case len(cols):
	default:
		return nil, fmt.Errorf("parquetenc: %d codecs for %d columns", len(codecs), len(cols))
	}
	p := &Writer{w: w, cols: cols, codecs: codecs, kv: kv, createdBy: createdBy()}
	for _, c := range codecs {
		switch c {
		case Uncompressed, Snappy:
		case Zstd:
			if p.zstd == nil {
				enc, err := zstd.NewWriter(nil, zstd.WithEncoderConcurrency(1))
				if err != nil {
					return nil, err
				}
				p.zstd = enc
			}
		default:
			return nil, fmt.Errorf("parquetenc: unknown codec %d", c)
		}
	}
	if err := p.write([]byte("PAR1")); err != nil {
		return nil, err
	}
	return p, nil
}

// createdBy is the footer's created_by: "benchtrim version V", V the
// module's version ("devel" for a build from a work tree). parquet-java
// (CorruptStatistics.shouldIgnoreStatistics, PARQUET-251) ignores the
// statistics of byte-array columns when created_by does not parse as
// "APP version VERSION [(build HASH)]" (VersionParser.FORMAT), so Spark,
// Hive and Trino would not skip row groups by benchmark name otherwise.
func createdBy() string {
	v := "devel"
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		v = strings.Map(func(r rune) rune {
			if r == '(' || r == ')' {
				return -1
			}
			return r
		}, bi.Main.Version)
	}
	return "benchtrim version " + v
}

// write writes b to the file.
func (p *Writer) write(b []byte) error {
	if p.err != nil {
		return p.err
	}
	n, err := p.w.Write(b)
	p.pos += int64(n)
	if err != nil {
		p.err = err
	}
	return err
}

// SetMetadata adds a key-value pair to the footer's metadata.
func (p *Writer) SetMetadata(key, value string) {
	p.kv = append(p.kv, [2]string{key, value})
}

// BeginRowGroup starts a row group of rows rows.
func (p *Writer) BeginRowGroup(rows int64) error {
	if p.group != nil {
		return errors.New("parquetenc: row group not ended")
	}
	p.groups = append(p.groups, rowGroup{rows: rows})
	p.group = &p.groups[len(p.groups)-1]
	return nil
}

// next returns the column the next Write call writes, checking that it
// has type t.
func (p *Writer) next(t Type) (int, error) {
	if p.group == nil {
		return 0, errors.New("parquetenc: no row group begun")
	}
	i := len(p.group.chunks)
	if i == len(p.cols) {
		return 0, errors.New("parquetenc: more columns than the schema's")
	}
	if p.cols[i].Type != t || p.cols[i].List {
		return 0, fmt.Errorf("parquetenc: column %s written as type %d, not %d", p.cols[i].Name, t, p.cols[i].Type)
	}
	return i, nil
}

// EndRowGroup checks that every column was written.
func (p *Writer) EndRowGroup() error {
	if p.group == nil || len(p.group.chunks) != len(p.cols) {
		return errors.New("parquetenc: row group ended before its last column")
	}
	p.group = nil
	return p.err
}

// Run is a run of rows of one dictionary index.
type Run struct {
	Index int32
	Len   int32
}

// WriteStringDict writes the next column, of type String, dictionary
// encoded: values is the dictionary, runs the row group's rows as runs of
// indices into it. Its statistics are the least and greatest of the
// values the runs refer to.
func (p *Writer) WriteStringDict(values []string, runs []Run) error {
	return writeDict(p, String, values, runs, func(b []byte, v string) []byte {
		b = binary.LittleEndian.AppendUint32(b, uint32(len(v)))
		return append(b, v...)
	}, func(v string) []byte { return []byte(v) })
}

// WriteInt32Dict writes the next column, of type Int32, dictionary
// encoded as WriteStringDict does.
func (p *Writer) WriteInt32Dict(values []int32, runs []Run) error {
	plain := func(b []byte, v int32) []byte { return binary.LittleEndian.AppendUint32(b, uint32(v)) }
	return writeDict(p, Int32, values, runs, plain, func(v int32) []byte { return plain(nil, v) })
}

// writeDict writes the next column, of type t, from the dictionary values
// (appendPlain encodes a value PLAIN, stat as a statistic) and runs of
// indices into it.
func writeDict[T string | int32](p *Writer, t Type, values []T, runs []Run, appendPlain func([]byte, T) []byte, stat func(T) []byte) error {
	i, err := p.next(t)
	if err != nil {
		return err
	}
	used, err := p.usedValues(i, len(values), runs)
	if err != nil {
		return err
	}
	dict := p.body[:0]
	for _, v := range values {
		dict = appendPlain(dict, v)
	}
	var st stats
	if len(used) > 0 {
		lo, hi := values[used[0]], values[used[0]]
		for _, j := range used[1:] {
			lo, hi = min(lo, values[j]), max(hi, values[j])
		}
		st = stats{ok: true, min: stat(lo), max: stat(hi)}
		if len(st.min) > maxStatisticBytes || len(st.max) > maxStatisticBytes {
			st = stats{}
		}
	}
	return p.writeDictChunk(i, dict, len(values), runs, st)
}

// usedValues checks that runs are column i's rows of the row group, each
// of at least one row and into a dictionary of n values, and returns the
// dictionary indices they refer to, each once, in increasing order.
func (p *Writer) usedValues(i, n int, runs []Run) ([]int, error) {
	seen := make([]bool, n)
	var rows int64
	for _, r := range runs {
		if uint32(r.Index) >= uint32(n) {
			return nil, fmt.Errorf("parquetenc: column %s: index %d outside a dictionary of %d values", p.cols[i].Name, r.Index, n)
		}
		if r.Len <= 0 {
			return nil, fmt.Errorf("parquetenc: column %s: a run of %d rows", p.cols[i].Name, r.Len)
		}
		seen[r.Index] = true
		rows += int64(r.Len)
	}
	if rows != p.group.rows {
		return nil, fmt.Errorf("parquetenc: column %s: %d rows in a row group of %d", p.cols[i].Name, rows, p.group.rows)
	}
	var used []int
	for j, s := range seen {
		if s {
			used = append(used, j)
		}
	}
	return used, nil
}

// writeDictChunk writes column i's chunk: the dictionary page (dict, PLAIN,
// of n values), then the data pages of the runs (RLE_DICTIONARY: the bit
// width, then the indices in the hybrid encoding), each with definition
// levels all 1 when the column is optional.
func (p *Writer) writeDictChunk(i int, dict []byte, n int, runs []Run, st stats) error {
	c := chunk{encodings: []int32{encPlain, encRLE, encRLEDictionary}, codec: p.codecs[i], values: p.group.rows, stats: st}
	c.dictOffset = p.pos
	if err := p.page(&c, pageDictionary, dict, n, encPlain); err != nil {
		return err
	}
	c.dataOffset = p.pos
	width := bitWidth(n)
	k, off := 0, int32(0) // the next run, and its rows already written
	for first := true; first || k < len(runs); first = false {
		// The runs of the page: maxPageRows rows at most, the last one
		// cut where it reaches past.
		page, rows := p.pageRuns[:0], 0
		for k < len(runs) && rows < maxPageRows {
			r := runs[k]
			r.Len -= off
			if room := int32(maxPageRows - rows); r.Len > room {
				r.Len = room
				off += room
			} else {
				k, off = k+1, 0
			}
			page = append(page, r)
			rows += int(r.Len)
		}
		p.pageRuns = page
		body := p.body[:0]
		if p.cols[i].Optional {
			body = appendAllDefined(body, rows)
		}
		body = append(body, byte(width))
		body = p.hybrid.appendRuns(body, page, width)
		p.body = body
		if err := p.page(&c, pageData, body, rows, encRLEDictionary); err != nil {
			return err
		}
	}
	p.group.chunks = append(p.group.chunks, c)
	return p.err
}

// appendAllDefined appends the definition levels of n values none of
// which is null: a 4-byte length, then one run of n ones.
func appendAllDefined(b []byte, n int) []byte {
	at := len(b)
	b = append(b, 0, 0, 0, 0)
	b = appendRun(b, n, 1, 1)
	binary.LittleEndian.PutUint32(b[at:], uint32(len(b)-at-4))
	return b
}

// page compresses body and writes it with its header (a data page v1
// of n values in encoding enc, or the dictionary page of n values),
// adding its sizes to c.
func (p *Writer) page(c *chunk, kind int32, body []byte, n int, enc int32) error {
	if len(body) > math.MaxInt32 {
		return fmt.Errorf("parquetenc: a page of %d bytes", len(body))
	}
	comp := body
	switch c.codec {
	case Snappy:
		comp = snappy.Encode(p.out[:cap(p.out)], body)
		p.out = comp[:0]
	case Zstd:
		comp = p.zstd.EncodeAll(body, p.out[:0])
		p.out = comp[:0]
	}
	t := thrift.Writer{B: make([]byte, 0, 64)}
	t.I32(1, kind)
	t.I32(2, int32(len(body)))
	t.I32(3, int32(len(comp)))
	if kind == pageDictionary {
		t.Begin(7)
		t.I32(1, int32(n))
		t.I32(2, enc)
		t.End()
	} else {
		t.Begin(5)
		t.I32(1, int32(n))
		t.I32(2, enc)
		t.I32(3, encRLE)
		t.I32(4, encRLE)
		t.End()
	}
	t.B = append(t.B, 0)
	c.uncompressed += int64(len(t.B) + len(body))
	c.size += int64(len(t.B) + len(comp))
	if err := p.write(t.B); err != nil {
		return err
	}
	return p.write(comp)
}

// WriteArrays writes the next column from arrays (together the row
// group's rows) of the column's type: Arrow Boolean, Int32, Int64,
// Float64 or String arrays. Values are PLAIN-encoded, or
// DELTA_BINARY_PACKED when delta is set (Int64 columns only); nulls
// (optional columns only) are definition levels 0 and take no value.
// Statistics: the least and greatest value (doubles leave NaN out, and
// write a zero minimum -0 and a zero maximum +0, as parquet.thrift asks)
// and the null count.
func (p *Writer) WriteArrays(arrays []arrow.Array, delta bool) error {
	if p.group == nil || len(p.group.chunks) == len(p.cols) {
		_, err := p.next(String)
		return err
	}
	i := len(p.group.chunks)
	col := p.cols[i]
	if col.List {
		return p.writeList(i, arrays)
	}
	if delta && col.Type != Int64 {
		return fmt.Errorf("parquetenc: column %s: DELTA_BINARY_PACKED is for int64 columns", col.Name)
	}
	rows := 0
	for _, a := range arrays {
		if !typeMatches(col.Type, a) {
			return fmt.Errorf("parquetenc: column %s (%s): %s array", col.Name, typeNames[col.Type], a.DataType())
		}
		if a.NullN() > 0 && !col.Optional {
			return fmt.Errorf("parquetenc: column %s: nulls in a required column", col.Name)
		}
		rows += a.Len()
	}
	if int64(rows) != p.group.rows {
		return fmt.Errorf("parquetenc: column %s: %d rows in a row group of %d", col.Name, rows, p.group.rows)
	}
	enc := int32(encPlain)
	if delta {
		enc = encDeltaBinary
	}
	c := chunk{encodings: []int32{enc, encRLE}, codec: p.codecs[i], values: int64(rows), dictOffset: -1, dataOffset: p.pos}
	pg := &p.pb
	pg.reset(col, delta)
	for _, a := range arrays {
		if !col.Optional && a.Len() > 0 {
			// A fixed-width array without nulls is its own pages,
			// compressed from its buffer without a copy.
			if _, ok := pg.rawPage(a, 0, 0); ok {
				if pg.rows > 0 {
					if err := p.flushPage(&c, pg); err != nil {
						return err
					}
				}
				for from := 0; from < a.Len(); from += maxPageRows {
					to := min(a.Len(), from+maxPageRows)
					body, _ := pg.rawPage(a, from, to)
					if err := p.page(&c, pageData, body, to-from, encPlain); err != nil {
						return err
					}
				}
				continue
			}
		}
		for from := 0; from < a.Len(); {
			n := pg.add(a, from, min(a.Len()-from, maxPageRows-pg.rows))
			from += n
			if pg.rows >= maxPageRows || len(pg.values) >= maxPageBytes {
				if err := p.flushPage(&c, pg); err != nil {
					return err
				}
			}
		}
	}
	if pg.rows > 0 || c.size == 0 {
		if err := p.flushPage(&c, pg); err != nil {
			return err
		}
	}
	c.stats = pg.stats()
	p.group.chunks = append(p.group.chunks, c)
	return p.err
}

// flushPage writes the values collected in pg as a data page.
func (p *Writer) flushPage(c *chunk, pg *pageBuilder) error {
	body := p.body[:0]
	if pg.col.Optional {
		if pg.pageNulls == 0 {
			body = appendAllDefined(body, pg.rows)
		} else {
			at := len(body)
			body = append(body, 0, 0, 0, 0)
			body = p.hybrid.appendRuns(body, pg.levels, 1)
			binary.LittleEndian.PutUint32(body[at:], uint32(len(body)-at-4))
		}
	}
	switch {
	case pg.delta:
		body = appendDelta(body, pg.ints)
	case pg.col.Type == Boolean:
		body = append(body, pg.bools...)
	default:
		body = append(body, pg.values...)
	}
	p.body = body
	enc := int32(encPlain)
	if pg.delta {
		enc = encDeltaBinary
	}
	err := p.page(c, pageData, body, pg.rows, enc)
	pg.next()
	return err
}

func typeMatches(t Type, a arrow.Array) bool {
	switch a.(type) {
	case *array.Boolean:
		return t == Boolean
	case *array.Int32:
		return t == Int32
	case *array.Int64:
		return t == Int64
	case *array.Float64:
		return t == Double
	case *array.String:
		return t == String
	}
	return false
}

// Close writes the footer. It does not close the underlying writer.
func (p *Writer) Close() error {
	if p.closed {
		return p.err
	}
	p.closed = true
	if p.group != nil {
		return errors.New("parquetenc: closed inside a row group")
	}
	footer := p.footer()
	footer = binary.LittleEndian.AppendUint32(footer, uint32(len(footer)))
	footer = append(footer, "PAR1"...)
	return p.write(footer)
}

// writeList writes column i, a list column, from Arrow list arrays: one
// data page of repetition levels (0 starts a row, 1 continues its list),
// definition levels (with o = 1 for an optional column, 0 otherwise: 0 a
// null list, o an empty one, o+1 a null element, o+1+e a value, e = 1 when
// elements may be null) and the PLAIN values, without statistics.
func (p *Writer) writeList(i int, arrays []arrow.Array) error {
	col := p.cols[i]
	o, e := int32(0), int32(0)
	if col.Optional {
		o = 1
	}
	if col.ElemOptional {
		e = 1
	}
	maxDef := o + 1 + e
	var rep, def []Run
	values := p.pb.values[:0]
	levels, rows := 0, 0
	for _, a := range arrays {
		l, ok := a.(*array.List)
		if !ok || !typeMatches(col.Type, l.ListValues()) {
			return fmt.Errorf("parquetenc: column %s (list of %s): %s array", col.Name, typeNames[col.Type], a.DataType())
		}
		child := l.ListValues()
		rows += l.Len()
		for r := 0; r < l.Len(); r++ {
			if l.IsNull(r) {
				if !col.Optional {
					return fmt.Errorf("parquetenc: column %s: a null list in a required column", col.Name)
				}
				rep, def = appendLevels(rep, 0, 1), appendLevels(def, 0, 1)
				levels++
				continue
			}
			s, end := l.ValueOffsets(r)
			if s == end {
				rep, def = appendLevels(rep, 0, 1), appendLevels(def, o, 1)
				levels++
				continue
			}
			for k := int(s); k < int(end); k++ {
				rep = appendLevels(rep, int32(min(1, k-int(s))), 1)
				levels++
				if child.IsNull(k) {
					if !col.ElemOptional {
						return fmt.Errorf("parquetenc: column %s: a null element in a list of required elements", col.Name)
					}
					def = appendLevels(def, o+1, 1)
					continue
				}
				def = appendLevels(def, maxDef, 1)
				switch c := child.(type) {
				case *array.Int64:
					values = binary.LittleEndian.AppendUint64(values, uint64(c.Value(k)))
				case *array.Int32:
					values = binary.LittleEndian.AppendUint32(values, uint32(c.Value(k)))
				case *array.Float64:
					values = binary.LittleEndian.AppendUint64(values, math.Float64bits(c.Value(k)))
				case *array.String:
					v := c.Value(k)
					values = binary.LittleEndian.AppendUint32(values, uint32(len(v)))
					values = append(values, v...)
				default:
					return fmt.Errorf("parquetenc: column %s: lists of %s", col.Name, child.DataType())
				}
			}
		}
	}
	p.pb.values = values
	if int64(rows) != p.group.rows {
		return fmt.Errorf("parquetenc: column %s: %d rows in a row group of %d", col.Name, rows, p.group.rows)
	}
	body := p.body[:0]
	for _, lv := range []struct {
		runs  []Run
		width uint
	}{{rep, 1}, {def, uint(bits.Len32(uint32(maxDef)))}} {
		at := len(body)
		body = append(body, 0, 0, 0, 0)
		body = p.hybrid.appendRuns(body, lv.runs, lv.width)
		binary.LittleEndian.PutUint32(body[at:], uint32(len(body)-at-4))
	}
	body = append(body, values...)
	p.body = body
	c := chunk{encodings: []int32{encPlain, encRLE}, codec: p.codecs[i], values: int64(levels), dictOffset: -1, dataOffset: p.pos, stats: stats{none: true}}
	if err := p.page(&c, pageData, body, levels, encPlain); err != nil {
		return err
	}
	p.group.chunks = append(p.group.chunks, c)
	return p.err
}
