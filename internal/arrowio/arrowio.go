// Package arrowio writes Arrow records as Arrow IPC files and Parquet files
// on any io.Writer; the canonical table (package table) and report frames
// (package reports) both use it.
package arrowio

import (
	"bytes"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"slices"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/ipc"
	"github.com/apache/arrow/go/v15/arrow/memory"
	"github.com/apache/arrow/go/v15/parquet"
	"github.com/apache/arrow/go/v15/parquet/compress"
	"github.com/apache/arrow/go/v15/parquet/pqarrow"
	"github.com/benchtrim/benchtrim/internal/parquetenc"
)

// IPC buffer compression codecs for NewIPCFileWriter.
const (
	// noCompression writes plain buffers, which every Arrow implementation
	// reads (the JavaScript library, for one, has no codecs built in).
	noCompression = "none"
	Zstd          = "zstd"
	lZ4           = "lz4"
)

// Codecs lists the IPC compression codecs NewIPCFileWriter accepts.
var Codecs = []string{noCompression, Zstd, lZ4}

// Snappy is the Parquet page codec that keeps no state (see
// ParquetOptions.Codec).
const Snappy = "snappy"

// ParquetCodecs lists the page codecs ParquetOptions.Codec accepts.
var ParquetCodecs = []string{Snappy, Zstd, noCompression}

// parquetCodecs maps ParquetOptions.Codec to pqarrow's codecs.
var parquetCodecs = map[string]compress.Compression{
	"": compress.Codecs.Zstd, Zstd: compress.Codecs.Zstd, Snappy: compress.Codecs.Snappy, noCompression: compress.Codecs.Uncompressed,
}

// WriteIPC writes records as one uncompressed Arrow IPC file with schema
// (whose metadata is kept). Records whose schema differs from schema only
// in metadata are rewrapped.
func WriteIPC(w io.Writer, schema *arrow.Schema, records []arrow.Record) error {
	fw, err := NewIPCFileWriter(w, schema, noCompression)
	if err != nil {
		return err
	}
	for _, r := range records {
		if err := fw.Write(r); err != nil {
			fw.Close()
			return err
		}
	}
	return fw.Close()
}

// IPCFileWriter writes records to an Arrow IPC file.
type IPCFileWriter struct {
	fw     *ipc.FileWriter
	schema *arrow.Schema
}

// NewIPCFileWriter starts an Arrow IPC file with schema (its metadata
// included) on w, its buffers compressed with codec ("" or none, zstd, lz4).
func NewIPCFileWriter(w io.Writer, schema *arrow.Schema, codec string) (*IPCFileWriter, error) {
	opts := []ipc.Option{ipc.WithSchema(schema)}
	switch codec {
	case "", noCompression:
	case Zstd:
		opts = append(opts, ipc.WithZstd())
	case lZ4:
		opts = append(opts, ipc.WithLZ4())
	default:
		return nil, fmt.Errorf("arrowio: unknown IPC compression %q (want none, zstd or lz4)", codec)
	}
	fw, err := ipc.NewFileWriter(&positionWriter{w: w}, opts...)
	if err != nil {
		return nil, err
	}
	return &IPCFileWriter{fw: fw, schema: schema}, nil
}

// Write writes r's columns under the file's schema (r's metadata may
// differ); the caller keeps ownership of r.
func (f *IPCFileWriter) Write(r arrow.Record) error {
	rec := array.NewRecord(f.schema, r.Columns(), r.NumRows())
	defer rec.Release()
	return f.fw.Write(rec)
}

// Close writes the footer.
func (f *IPCFileWriter) Close() error { return f.fw.Close() }

// WriteParquet writes records as one zstd-compressed Parquet file; the
// Arrow schema (with its metadata) is stored in the file so readers get the
// same types back.
func WriteParquet(w io.Writer, schema *arrow.Schema, records []arrow.Record) error {
	pw, err := newParquetWriter(w, schema)
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
// ParquetWriter aims at: it holds one row group (about 100 bytes a row for
// the canonical table) until it is written, which bounds its memory
// whatever the file's size. 2¹⁷ rows (DuckDB writes 122,880) against the
// earlier 2¹⁹: on the 35 MB sample-mode JMH input the same CPU (medians
// 0.53 and 0.55 s of 7 alternated runs), a fifth less wall time (encoding
// overlaps parsing in smaller steps) and 108 MB peak RSS instead of 174;
// the file is 0.6 % larger.
const parquetRowGroupRows = 1 << 17

// ParquetWriter writes records to a Parquet file (zstd-compressed unless
// ParquetOptions say otherwise) as they come, in row groups of about parquetRowGroupRows rows, and stores the
// Arrow schema in the file so readers get the same types back.
//
// String columns are written dictionary-encoded without hashing every
// value: as records arrive, each string column is turned into indices into
// a dictionary shared by the row group (consecutive equal values, the
// common case in long tables, cost one comparison), and pqarrow writes
// that dictionary as the column chunk's dictionary page followed by the
// indices. The stored Arrow schema keeps the plain string type, so every
// reader sees strings.
type ParquetWriter struct {
	fw     *pqarrow.FileWriter // nil when enc writes the file
	enc    *parquetenc.Writer
	delta  []bool        // per column, for enc: DELTA_BINARY_PACKED
	schema *arrow.Schema // as given
	mem    memory.Allocator

	rows   int64
	zero   []int32          // read-only zeros: the indices of one-value columns
	chunks [][]arrow.Array  // per column, the row group's arrays (strings: nil)
	dicts  []*dictColumn    // per string column, nil for others
	ints   []*intDictColumn // per Runs column, nil for others
	groups int              // row groups written
}

// dictColumn is one string column of the row group being collected: its
// dictionary and the row group's indices into it (ends: where each
// record's end).
//
// The row group's indices go to pqarrow as one dictionary array, not one
// per record: pqarrow updates a column's min/max statistics from the
// dictionary values a chunk refers to, and when a chunk refers to fewer
// than the whole dictionary it gathers them with compute.Take, whose
// string output grows 64 bytes at a time (arrow v15), a copy of the output
// so far each time: quadratic in the distinct values of the chunk (20 GB
// of copies for a record of 65,536 benchmark names). The row group's
// dictionary holds exactly the values its rows refer to, so the one chunk
// refers to all of it and nothing is gathered.
type dictColumn struct {
	dict    StringDict
	indices []int32
	ends    []int
	// zeros counts the rows of a row group whose indices are all 0 so
	// far (a column of one value, as project or mode mostly are), which
	// indices does not hold: they are written from the writer's shared
	// zeros, and put into indices only when another value comes.
	zeros int
}

// newParquetWriter starts a Parquet file with schema on w. Dictionary
// encoding is off for the columns named in plain (values that rarely
// repeat, such as measurements and line numbers: hashing them is wasted).
func newParquetWriter(w io.Writer, schema *arrow.Schema, plain ...string) (*ParquetWriter, error) {
	return NewParquetWriterWith(w, schema, ParquetOptions{Plain: plain})
}

// ParquetOptions tune NewParquetWriterWith.
type ParquetOptions struct {
	// Plain names the columns written without dictionary encoding.
	Plain []string
	// Delta names integer columns written DELTA_BINARY_PACKED instead of
	// dictionary-encoded: the differences between neighbouring values,
	// bit-packed in blocks (Parquet format, Encodings.md). For counters
	// and line numbers that rise in small steps or repeat, this is smaller
	// than a dictionary and cheaper to write, as it hashes no value.
	Delta []string
	// NoStats names the columns written without min/max statistics. For a
	// dictionary-encoded column pqarrow finds the dictionary values each
	// record uses by hashing every index (compute.UniqueArray) to update
	// the statistics; leaving them out of columns that nobody filters on
	// saves that.
	NoStats []string
	// Runs names int32 columns without nulls, of few distinct values
	// that come in runs (repetition indices), written dictionary-encoded
	// from dictionaries the writer builds as the string columns' are: a
	// value equal to the one before costs one comparison, where pqarrow's
	// dictionary encoder hashes every value and DELTA_BINARY_PACKED reads
	// each through reflection.
	Runs []string
	// Codec compresses the pages: zstd ("" or Zstd), Snappy or
	// noCompression.
	Codec string
	// Snappy names columns compressed with Snappy whatever Codec says.
	// pqarrow (v15) builds a fresh zstd encoder for every page it
	// compresses, with a history buffer the size of zstd's window (8 MiB,
	// zeroed): for small pages that costs more than the bytes zstd saves
	// over Snappy, which keeps no state.
	Snappy []string
}

// NewParquetWriterWith is newParquetWriter with options. A schema of
// flat columns (strings, int32, int64, float64, booleans) is written by
// package parquetenc, from the dictionaries and indices the writer
// collects; one with list columns (report frames) by pqarrow.
func NewParquetWriterWith(w io.Writer, schema *arrow.Schema, o ParquetOptions) (*ParquetWriter, error) {
	codec, ok := parquetCodecs[o.Codec]
	if !ok {
		return nil, fmt.Errorf("arrowio: unknown Parquet compression %q (want snappy, zstd or none)", o.Codec)
	}
	if flat(schema) {
		return newOwnParquetWriter(w, schema, o)
	}
	opts := []parquet.WriterProperty{parquet.WithCompression(codec), parquet.WithDictionaryDefault(true),
		parquet.WithMaxRowGroupLength(2 * parquetRowGroupRows), parquet.WithDataPageSize(8 << 20)}
	for _, c := range o.Plain {
		opts = append(opts, parquet.WithDictionaryFor(c, false))
	}
	for _, c := range o.Delta {
		opts = append(opts, parquet.WithDictionaryFor(c, false), parquet.WithEncodingFor(c, parquet.Encodings.DeltaBinaryPacked))
	}
	for _, c := range o.Snappy {
		opts = append(opts, parquet.WithCompressionFor(c, compress.Codecs.Snappy))
	}
	for _, c := range o.NoStats {
		opts = append(opts, parquet.WithStatsFor(c, false))
	}
	// pqarrow's encoders and page buffers come from a pool that reuses
	// them column after column.
	mem := newPool()
	opts = append(opts, parquet.WithAllocator(mem))
	props := parquet.NewWriterProperties(opts...)
	fields := schema.Fields()
	runs := make([]bool, len(fields))
	for i, f := range fields {
		switch {
		case isStringish(f.Type):
			fields[i].Type = stringDict
		case slices.Contains(o.Runs, f.Name):
			if f.Type.ID() != arrow.INT32 {
				return nil, fmt.Errorf("arrowio: column %s is %s, not int32", f.Name, f.Type)
			}
			fields[i].Type = int32Dict
			runs[i] = true
		}
	}
	md := schema.Metadata()
	fw, err := pqarrow.NewFileWriter(arrow.NewSchema(fields, &md), w, props, pqarrow.NewArrowWriterProperties(pqarrow.WithAllocator(mem)))
	if err != nil {
		return nil, err
	}
	// What pqarrow.WithStoreSchema would store, but of the plain schema.
	var buf bytes.Buffer
	iw := ipc.NewWriter(&buf, ipc.WithSchema(schema))
	if err := iw.Close(); err != nil {
		return nil, err
	}
	if err := fw.AppendKeyValueMetadata("ARROW:schema", base64.StdEncoding.EncodeToString(buf.Bytes())); err != nil {
		return nil, err
	}
	p := &ParquetWriter{fw: fw, schema: schema, mem: memory.DefaultAllocator,
		chunks: make([][]arrow.Array, len(fields)), dicts: make([]*dictColumn, len(fields)), ints: make([]*intDictColumn, len(fields))}
	for i, f := range schema.Fields() {
		if isStringish(f.Type) {
			p.dicts[i] = &dictColumn{}
		}
		if runs[i] {
			p.ints[i] = &intDictColumn{}
		}
	}
	return p, nil
}

// stringDict is the type of dictionary-encoded strings: int32 indices into
// UTF-8 values.
var stringDict = &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int32, ValueType: arrow.BinaryTypes.String}

// int32Dict is the type of dictionary-encoded int32 values.
var int32Dict = &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int32, ValueType: arrow.PrimitiveTypes.Int32}

// isStringish reports whether t is a string or dictionary-encoded string type.
func isStringish(t arrow.DataType) bool {
	return t.ID() == arrow.STRING || arrow.TypeEqual(t, stringDict)
}

// Write adds r's rows (r's columns must have the writer's types; its
// schema metadata may differ). The caller keeps ownership of r.
func (p *ParquetWriter) Write(r arrow.Record) error {
	if r.NumCols() != int64(len(p.schema.Fields())) {
		return fmt.Errorf("arrowio: record with %d columns, want %d", r.NumCols(), len(p.schema.Fields()))
	}
	for i, c := range r.Columns() {
		if !arrow.TypeEqual(c.DataType(), p.schema.Field(i).Type) {
			return fmt.Errorf("arrowio: column %s is %s, want %s", p.schema.Field(i).Name, c.DataType(), p.schema.Field(i).Type)
		}
		if p.ints[i] != nil && c.NullN() > 0 {
			return fmt.Errorf("arrowio: column %s: nulls in a Runs column", p.schema.Field(i).Name)
		}
	}
	for i, c := range r.Columns() {
		if d := p.ints[i]; d != nil {
			d.add(c.(*array.Int32).Int32Values())
			continue
		}
		if d := p.dicts[i]; d != nil {
			if s, ok := c.(*array.Dictionary); ok {
				if s.NullN() > 0 || s.Dictionary().NullN() > 0 {
					return fmt.Errorf("arrowio: column %s: nulls in a dictionary-encoded column", p.schema.Field(i).Name)
				}
				idx := s.Indices().(*array.Int32).Int32Values()
				dict := s.Dictionary().(*array.String)
				if len(d.indices) == 0 && allEqual(idx) && d.dict.Index(dict.Value(int(idx[0]))) == 0 {
					d.zeros += len(idx)
					d.ends = append(d.ends, d.zeros)
					continue
				}
				d.materialize()
				d.indices = d.dict.transposeAppend(growFor(d.indices, len(idx)), idx, dict)
				d.ends = append(d.ends, len(d.indices))
				continue
			}
			if s := c.(*array.String); s.NullN() == 0 {
				d.add(s)
				continue
			}
			// Nulls: keep the strings as they are.
			if err := p.plainString(i); err != nil {
				return err
			}
		}
		c.Retain()
		p.chunks[i] = append(p.chunks[i], c)
	}
	p.rows += r.NumRows()
	if p.rows >= parquetRowGroupRows || p.manyDistinct() {
		return p.flush()
	}
	return nil
}

// parquetRowGroupValues ends a row group early, after the record with
// which a string column's dictionary reaches this many distinct values.
// Writing a dictionary costs pqarrow about 1 KB a value (its own hash
// table, the statistics' hash table, the page buffers): 0.6 GB for a row
// group of parquetRowGroupRows distinct benchmark names, and columns with
// so many distinct values gain little from a dictionary.
const parquetRowGroupValues = 1 << 16

// manyDistinct reports whether a string column's dictionary holds
// parquetRowGroupValues values.
func (p *ParquetWriter) manyDistinct() bool {
	for _, d := range p.dicts {
		if d != nil && d.dict.Len() >= parquetRowGroupValues {
			return true
		}
	}
	return false
}

// growFor returns s with room for n more values. The first record
// makes room for a row group of eight such records, so that a row group's
// indices fill one slice instead of a series of ever larger ones (each a
// fresh allocation, whose pages the system supplies afresh); the next row
// group reuses it.
func growFor(s []int32, n int) []int32 {
	if len(s)+n <= cap(s) {
		return s
	}
	if cap(s) == 0 {
		return make([]int32, 0, min(parquetRowGroupRows, 8*n)+n)
	}
	return slices.Grow(s, n)
}

// allEqual reports whether v holds one value (at least once).
func allEqual(v []int32) bool {
	if len(v) == 0 {
		return false
	}
	for _, x := range v[1:] {
		if x != v[0] {
			return false
		}
	}
	return true
}

// materialize puts the rows counted in zeros into indices.
func (d *dictColumn) materialize() {
	d.indices = materializeZeros(d.indices, &d.zeros)
}

func materializeZeros(indices []int32, zeros *int) []int32 {
	if *zeros == 0 {
		return indices
	}
	indices = growFor(indices, *zeros)[:*zeros]
	clear(indices)
	*zeros = 0
	return indices
}

// zeros returns n zero indices that no one writes to.
func (p *ParquetWriter) zeros(n int) []int32 {
	if len(p.zero) < n {
		p.zero = make([]int32, n)
	}
	return p.zero[:n]
}

// add appends s's values to d as indices (a value equal to the one
// before costs one comparison).
func (d *dictColumn) add(s *array.String) {
	d.materialize()
	d.indices = growFor(d.indices, s.Len())
	for i := 0; i < s.Len(); i++ {
		if i > 0 && s.Value(i) == s.Value(i-1) {
			d.indices = append(d.indices, d.indices[len(d.indices)-1])
			continue
		}
		d.indices = append(d.indices, d.dict.Index(s.Value(i)))
	}
	d.ends = append(d.ends, len(d.indices))
}

// intDictColumn is one Runs column of the row group being collected: its
// dictionary and the row group's indices into it (ends: where each
// record's end).
type intDictColumn struct {
	memo    map[int32]int32
	values  []int32
	indices []int32
	ends    []int
	zeros   int // as dictColumn's
}

// add appends v as indices (a value equal to the one before costs one
// comparison).
func (d *intDictColumn) add(v []int32) {
	if d.memo == nil {
		d.memo = map[int32]int32{}
	}
	if len(d.indices) == 0 && allEqual(v) && (len(d.values) == 0 || d.values[0] == v[0]) {
		if len(d.values) == 0 {
			d.memo[v[0]] = 0
			d.values = append(d.values, v[0])
		}
		d.zeros += len(v)
		d.ends = append(d.ends, d.zeros)
		return
	}
	d.indices = materializeZeros(d.indices, &d.zeros)
	from := len(d.indices)
	d.indices = growFor(d.indices, len(v))[:from+len(v)]
	idx := d.indices[from:]
	for i, x := range v {
		if i > 0 && x == v[i-1] {
			idx[i] = idx[i-1]
			continue
		}
		j, ok := d.memo[x]
		if !ok {
			j = int32(len(d.values))
			d.memo[x] = j
			d.values = append(d.values, x)
		}
		idx[i] = j
	}
	d.ends = append(d.ends, len(d.indices))
}

// plainString stops dictionary-encoding string column i for the rest of
// the file: its collected indices become string arrays again.
func (p *ParquetWriter) plainString(i int) error {
	d := p.dicts[i]
	p.dicts[i] = nil
	d.materialize()
	start := 0
	for _, end := range d.ends {
		b := array.NewStringBuilder(p.mem)
		for _, j := range d.indices[start:end] {
			b.Append(d.dict.value(j))
		}
		start = end
		p.chunks[i] = append(p.chunks[i], b.NewArray())
		b.Release()
	}
	return nil
}

// flush writes the collected rows as one row group.
func (p *ParquetWriter) flush() error {
	if p.rows == 0 {
		return nil
	}
	defer func() {
		for i, cs := range p.chunks {
			for _, c := range cs {
				c.Release()
			}
			p.chunks[i] = nil
		}
		p.rows = 0
	}()
	if p.enc != nil {
		return p.flushOwn()
	}
	for i, d := range p.dicts {
		if d == nil {
			continue
		}
		dict := d.dict.Array(p.mem)
		src := d.indices
		if d.zeros > 0 {
			src = p.zeros(d.zeros)
		}
		ind := Int32Array(src)
		p.chunks[i] = append(p.chunks[i], array.NewDictionaryArray(stringDict, ind, dict))
		ind.Release()
		dict.Release()
		// pqarrow copies the indices as it writes them: the next row
		// group reuses their memory.
		p.dicts[i] = &dictColumn{indices: d.indices[:0]}
	}
	for i, d := range p.ints {
		if d == nil {
			continue
		}
		dict := Int32Array(d.values)
		src := d.indices
		if d.zeros > 0 {
			src = p.zeros(d.zeros)
		}
		start := 0
		for _, end := range d.ends {
			ind := Int32Array(src[start:end])
			p.chunks[i] = append(p.chunks[i], array.NewDictionaryArray(int32Dict, ind, dict))
			ind.Release()
			start = end
		}
		dict.Release()
		p.ints[i] = &intDictColumn{indices: d.indices[:0]}
	}
	p.fw.NewRowGroup()
	p.groups++
	for i, cs := range p.chunks {
		ch := arrow.NewChunked(cs[0].DataType(), cs)
		err := p.fw.WriteColumnChunked(ch, 0, int64(ch.Len()))
		ch.Release()
		if err != nil {
			return fmt.Errorf("arrowio: column %s: %w", p.schema.Field(i).Name, err)
		}
	}
	return nil
}

// EndRowGroup writes the rows collected so far as a row group of their
// own (nothing when there are none) and returns the number of row groups
// written: a caller that orders the rows (by a key) ends a row group where
// its readers are to be able to skip to.
func (p *ParquetWriter) EndRowGroup() (int, error) {
	err := p.flush()
	return p.groups, err
}

// SetMetadata adds a key-value pair to the file's metadata, which Parquet
// writes in the footer at Close: for values known only once every row is
// written.
func (p *ParquetWriter) SetMetadata(key, value string) error {
	if p.enc != nil {
		p.enc.SetMetadata(key, value)
		return nil
	}
	return p.fw.AppendKeyValueMetadata(key, value)
}

// Close writes the last row group and the footer.
func (p *ParquetWriter) Close() error {
	if err := p.flush(); err != nil {
		if p.fw != nil {
			p.fw.Close()
		}
		return err
	}
	if p.enc != nil {
		return p.enc.Close()
	}
	return p.fw.Close()
}

// positionWriter adapts an io.Writer to the io.WriteSeeker that
// ipc.NewFileWriter asks for; the IPC writer only ever asks for the current
// position (Seek(0, io.SeekCurrent)).
type positionWriter struct {
	w   io.Writer
	pos int64
}

func (p *positionWriter) Write(b []byte) (int, error) {
	n, err := p.w.Write(b)
	p.pos += int64(n)
	return n, err
}

func (p *positionWriter) Seek(offset int64, whence int) (int64, error) {
	if offset == 0 && whence == io.SeekCurrent {
		return p.pos, nil
	}
	return 0, errors.New("arrowio: the IPC writer may only ask for the current position")
}
