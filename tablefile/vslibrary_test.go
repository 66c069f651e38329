package tablefile_test

// Benchmarks of each hand-written replacement of something Arrow Go or
// its Parquet package does, against the library doing the same job, on
// the typical input: the canonical table of `benchtrim -q generate
// --preset sample --benchmarks 20` (a 35 MB JMH SampleTime file, the
// ingest task of testdata/procbench/run.sh), built once outside the
// timer. Each benchmark runs the benchtrim path and the library path in
// turn in every iteration (which goes first alternates), after a garbage
// collection each, and reports the mean of each (benchtrim-ms,
// library-ms), their ratio and the bytes each allocated
// (benchtrim-MB-alloc, library-MB-alloc: runtime.MemStats.TotalAlloc
// around the call). Before timing, it checks that the two outputs read
// back to the same rows (writers) or values (readers).

import (
	"context"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/ipc"
	"github.com/apache/arrow/go/v15/arrow/memory"
	"github.com/apache/arrow/go/v15/parquet"
	"github.com/apache/arrow/go/v15/parquet/compress"
	"github.com/apache/arrow/go/v15/parquet/file"
	"github.com/apache/arrow/go/v15/parquet/pqarrow"

	"github.com/benchtrim/benchtrim/format/all"
	"github.com/benchtrim/benchtrim/ingest"
	"github.com/benchtrim/benchtrim/internal/atomicfile"
	"github.com/benchtrim/benchtrim/synth"
	"github.com/benchtrim/benchtrim/table"
	"github.com/benchtrim/benchtrim/tablefile"
	"github.com/benchtrim/benchtrim/tablefile/internal/parquetio"
)

// sample is the typical input, read once per process.
var sample struct {
	once   sync.Once
	recs   []arrow.Record
	setups []table.Setup
	err    error
}

// sampleTable returns the records and setups ingest streams from the
// generated sample file (what `benchtrim ingest` hands tablefile.Stream).
func sampleTable(b *testing.B) ([]arrow.Record, []table.Setup) {
	b.Helper()
	sample.once.Do(func() {
		dir, err := os.MkdirTemp("", "benchtrim-vslibrary-")
		if err != nil {
			sample.err = err
			return
		}
		defer os.RemoveAll(dir)
		path := filepath.Join(dir, "sample.json")
		r := synth.Request{Preset: "sample", Benchmarks: 20, Seed: 1, Output: path}
		format, err := r.ResolveFormat()
		if err == nil {
			err = atomicfile.Write(path, func(w io.Writer) error { return r.Write(w, format) })
		}
		if err != nil {
			sample.err = err
			return
		}
		st, err := ingest.Stream([]string{path}, ingest.ReadOptions{Formats: all.Formats(), RunsAs: ingest.RunsPooled}, func(rec arrow.Record) error {
			rec.Retain()
			sample.recs = append(sample.recs, rec)
			return nil
		})
		if err != nil {
			sample.err = err
			return
		}
		sample.setups = st.Setups
	})
	if sample.err != nil {
		b.Fatal(sample.err)
	}
	return sample.recs, sample.setups
}

// fillFrom is the fill function of tablefile.Stream that writes recs and
// returns setups, as ingest.StreamFile does.
func fillFrom(recs []arrow.Record, setups []table.Setup) func(write func(arrow.Record) error) ([]table.Setup, error) {
	return func(write func(arrow.Record) error) ([]table.Setup, error) {
		for _, r := range recs {
			if err := write(r); err != nil {
				return nil, err
			}
		}
		return setups, nil
	}
}

// alternate times benchtrim and library, each once per iteration in
// alternating order after a garbage collection, and reports their means,
// ratio and allocated bytes.
func alternate(b *testing.B, benchtrim, library func() error) {
	b.Helper()
	var ns, alloc [2]float64
	var ms runtime.MemStats
	run := func(k int, f func() error) {
		b.StopTimer()
		runtime.GC()
		runtime.ReadMemStats(&ms)
		a0 := ms.TotalAlloc
		b.StartTimer()
		t0 := time.Now()
		err := f()
		ns[k] += float64(time.Since(t0))
		b.StopTimer()
		runtime.ReadMemStats(&ms)
		alloc[k] += float64(ms.TotalAlloc - a0)
		b.StartTimer()
		if err != nil {
			b.Fatal(err)
		}
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if i%2 == 0 {
			run(0, benchtrim)
			run(1, library)
		} else {
			run(1, library)
			run(0, benchtrim)
		}
	}
	n := float64(b.N)
	b.ReportMetric(ns[0]/n/1e6, "benchtrim-ms")
	b.ReportMetric(ns[1]/n/1e6, "library-ms")
	b.ReportMetric(ns[0]/ns[1], "ratio")
	b.ReportMetric(alloc[0]/n/1e6, "benchtrim-MB-alloc")
	b.ReportMetric(alloc[1]/n/1e6, "library-MB-alloc")
}

// sameRows fails unless the table files a and b read back to the same
// rows and setups.
func sameRows(b *testing.B, a, c string) {
	b.Helper()
	ta, err := tablefile.ReadFile(a, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer ta.Release()
	tc, err := tablefile.ReadFile(c, nil)
	if err != nil {
		b.Fatalf("the library's file: %v", err)
	}
	defer tc.Release()
	if fmt.Sprint(ta.Setups) != fmt.Sprint(tc.Setups) {
		b.Fatalf("%s and %s hold different setups", a, c)
	}
	var rows []table.Row
	ta.Rows(func(r *table.Row) error { rows = append(rows, *r); return nil })
	if len(rows) < 100000 {
		b.Fatalf("%d rows, want the sample's", len(rows))
	}
	i := 0
	err = tc.Rows(func(r *table.Row) error {
		if i >= len(rows) || !sameRow(rows[i], *r) {
			return fmt.Errorf("row %d differs", i)
		}
		i++
		return nil
	})
	if err == nil && i != len(rows) {
		err = fmt.Errorf("%d rows, want %d", i, len(rows))
	}
	if err != nil {
		b.Fatalf("%s against %s: %v", c, a, err)
	}
}

// sameRow reports whether x and y are equal, NaNs equal to NaNs.
func sameRow(x, y table.Row) bool {
	if math.Float64bits(x.Value) != math.Float64bits(y.Value) || math.Float64bits(x.NsPerOp) != math.Float64bits(y.NsPerOp) {
		return false
	}
	x.Value, x.NsPerOp, y.Value, y.NsPerOp = 0, 0, 0, 0
	return x == y
}

// BenchmarkVsLibraryIPCWrite: `benchtrim ingest -o x.arrow`'s writer,
// tablefile.Stream (coder, then directIPC: one pass into the file behind a
// region the schema fills at the end), against Arrow alone: the records
// held, their dictionaries unified by array.UnifyTableDicts, and written
// by ipc.FileWriter with the schema of the setups.
func BenchmarkVsLibraryIPCWrite(b *testing.B) {
	recs, setups := sampleTable(b)
	if coded, _, direct := codedBytes(recs); coded <= direct {
		b.Fatalf("%d bytes of coded records: Stream writes them without directIPC (from %d)", coded, direct)
	}
	dir := b.TempDir()
	bt, lib := filepath.Join(dir, "benchtrim.arrow"), filepath.Join(dir, "library.arrow")
	benchtrim := func() error { return tablefile.Stream(bt, tablefile.WriteOptions{}, fillFrom(recs, setups)) }
	library := func() error {
		return atomicfile.Write(lib, func(w io.Writer) error { return libraryIPC(w, recs, setups) })
	}
	for _, f := range []func() error{benchtrim, library} {
		if err := f(); err != nil {
			b.Fatal(err)
		}
	}
	sameRows(b, bt, lib)
	alternate(b, benchtrim, library)
}

// codedBytes is the size of recs coded (the records an .arrow Stream
// holds or spools), and Stream's arrowHoldBytes and directHoldBytes.
func codedBytes(recs []arrow.Record) (coded, hold, direct int64) {
	var c tablefile.Coder
	for _, r := range recs {
		x := c.Encode(r)
		coded += tablefile.RecordBytes(x)
		x.Release()
	}
	for _, d := range c.Dictionaries() {
		d.Release()
	}
	hold, direct = tablefile.HoldBytes()
	return coded, hold, direct
}

// libraryIPC writes recs and setups as an Arrow IPC table file with
// Arrow's own calls: array.UnifyTableDicts gives every string column one
// dictionary (the file format allows no other), ipc.FileWriter writes.
func libraryIPC(w io.Writer, recs []arrow.Record, setups []table.Setup) error {
	schema, err := tablefile.SchemaWithSetups(setups)
	if err != nil {
		return err
	}
	tbl := array.NewTableFromRecords(recs[0].Schema(), recs)
	defer tbl.Release()
	u, err := array.UnifyTableDicts(memory.DefaultAllocator, tbl)
	if err != nil {
		return err
	}
	defer u.Release()
	fw, err := ipc.NewFileWriter(&seekWriter{w: w}, ipc.WithSchema(schema))
	if err != nil {
		return err
	}
	cols := make([]arrow.Array, u.NumCols())
	for j := range u.Column(0).Data().Chunks() {
		for i := range cols {
			cols[i] = u.Column(i).Data().Chunk(j)
		}
		rec := array.NewRecord(schema, cols, int64(cols[0].Len()))
		err := fw.Write(rec)
		rec.Release()
		if err != nil {
			fw.Close()
			return err
		}
	}
	return fw.Close()
}

// seekWriter gives ipc.NewFileWriter the io.WriteSeeker it asks for on
// atomicfile.Write's writer (as tablefile does): it only ever asks for
// the current position.
type seekWriter struct {
	w   io.Writer
	pos int64
}

func (s *seekWriter) Write(p []byte) (int, error) {
	n, err := s.w.Write(p)
	s.pos += int64(n)
	return n, err
}

func (s *seekWriter) Seek(offset int64, whence int) (int64, error) {
	if offset != 0 || whence != io.SeekCurrent {
		return 0, fmt.Errorf("seekWriter: Seek(%d, %d)", offset, whence)
	}
	return s.pos, nil
}

// BenchmarkVsLibraryIPCCompressed: a zstd-compressed .arrow table too
// large to hold (arrowHoldBytes set to 0, so that the typical input takes
// this path): tablefile.Stream keeps the coded records in rawSpool's
// scratch file of raw buffers, against the same coder and final writer
// with the scratch file an Arrow IPC file of ipc.FileWriter, read back by
// ipc.FileReader.
func BenchmarkVsLibraryIPCCompressed(b *testing.B) {
	recs, setups := sampleTable(b)
	if coded, hold, _ := codedBytes(recs); coded <= hold {
		b.Logf("%d bytes of coded records, under arrowHoldBytes (%d): without the override Stream holds them in memory and writes them with ipc.FileWriter", coded, hold)
	}
	dir := b.TempDir()
	bt, lib := filepath.Join(dir, "benchtrim.arrow"), filepath.Join(dir, "library.arrow")
	opt := tablefile.WriteOptions{ArrowCompression: "zstd"}
	benchtrim := func() error {
		old := tablefile.SetArrowHoldBytes(0)
		defer tablefile.SetArrowHoldBytes(old)
		return tablefile.Stream(bt, opt, fillFrom(recs, setups))
	}
	library := func() error {
		return atomicfile.Write(lib, func(w io.Writer) error { return libraryCompressed(w, dir, recs, setups) })
	}
	for _, f := range []func() error{benchtrim, library} {
		if err := f(); err != nil {
			b.Fatal(err)
		}
	}
	sameRows(b, bt, lib)
	alternate(b, benchtrim, library)
}

// libraryCompressed writes recs and setups as a zstd-compressed Arrow
// IPC table file through a scratch IPC file in dir: coded records
// written by ipc.FileWriter, read back by ipc.FileReader once the setups
// are known.
func libraryCompressed(w io.Writer, dir string, recs []arrow.Record, setups []table.Setup) error {
	f, err := os.CreateTemp(dir, "scratch-*.arrow")
	if err != nil {
		return err
	}
	defer os.Remove(f.Name())
	defer f.Close()
	fw, err := ipc.NewFileWriter(f, ipc.WithSchema(tablefile.CodedSchema()))
	if err != nil {
		return err
	}
	var c tablefile.Coder
	for _, r := range recs {
		x := c.Encode(r)
		err := fw.Write(x)
		x.Release()
		if err != nil {
			return err
		}
	}
	if err := fw.Close(); err != nil {
		return err
	}
	fr, err := ipc.NewFileReader(f)
	if err != nil {
		return err
	}
	defer fr.Close()
	schema, err := tablefile.SchemaWithSetups(setups)
	if err != nil {
		return err
	}
	return tablefile.WriteCodedIPC(w, schema, c.Dictionaries(), "zstd", func(yield func(arrow.Record) error) error {
		for i := 0; i < fr.NumRecords(); i++ {
			rec, err := fr.RecordAt(i)
			if err != nil {
				return err
			}
			err = yield(rec)
			rec.Release()
			if err != nil {
				return err
			}
		}
		return nil
	})
}

// BenchmarkVsLibraryParquetWrite: `benchtrim ingest -o x.parquet`'s
// encoder, parquetio.Writer with Stream's options (row groups of 2¹⁷
// rows, Snappy, strings and the repetition indices dictionary-encoded,
// count and line DELTA_BINARY_PACKED, the rest PLAIN; the setups in the
// footer), against pqarrow.FileWriter set alike as far as its
// properties allow (see libraryParquetProps), the records written as one
// table (WriteTable, row groups of 2¹⁷ rows) after
// array.UnifyTableDicts. Without it, every record after the first in a
// column chunk has another dictionary, which pqarrow turns into plain
// strings by compute.Take, whose output buffer grows by copying at each
// value (arrow/go v15.0.2): 23 s for the second record of 61,000 rows,
// three minutes for the sample.
func BenchmarkVsLibraryParquetWrite(b *testing.B) {
	recs, setups := sampleTable(b)
	schema, opt, kv, err := tablefile.ParquetSchema(setups)
	if err != nil {
		b.Fatal(err)
	}
	dir := b.TempDir()
	bt, lib := filepath.Join(dir, "benchtrim.parquet"), filepath.Join(dir, "library.parquet")
	benchtrim := func() error {
		return atomicfile.Write(bt, func(w io.Writer) error {
			pw, err := parquetio.NewWriter(w, schema, opt)
			if err != nil {
				return err
			}
			for _, r := range recs {
				if err := pw.Write(r); err != nil {
					pw.Close()
					return err
				}
			}
			if err := pw.SetMetadata(kv[0], kv[1]); err != nil {
				pw.Close()
				return err
			}
			return pw.Close()
		})
	}
	library := func() error {
		return atomicfile.Write(lib, func(w io.Writer) error {
			fw, err := pqarrow.NewFileWriter(schema, w, libraryParquetProps(schema, opt), pqarrow.NewArrowWriterProperties(pqarrow.WithStoreSchema()))
			if err != nil {
				return err
			}
			tbl := array.NewTableFromRecords(schema, recs)
			defer tbl.Release()
			u, err := array.UnifyTableDicts(memory.DefaultAllocator, tbl)
			if err != nil {
				fw.Close()
				return err
			}
			defer u.Release()
			if err := fw.WriteTable(u, 1<<17); err != nil {
				fw.Close()
				return err
			}
			if err := fw.AppendKeyValueMetadata(kv[0], kv[1]); err != nil {
				fw.Close()
				return err
			}
			return fw.Close()
		})
	}
	for _, f := range []func() error{benchtrim, library} {
		if err := f(); err != nil {
			b.Fatal(err)
		}
	}
	sameRows(b, bt, lib)
	for _, p := range []string{bt, lib} {
		if st, err := os.Stat(p); err == nil {
			b.Logf("%s: %d bytes", filepath.Base(p), st.Size())
		}
	}
	alternate(b, benchtrim, library)
}

// libraryParquetProps are pqarrow's writer properties closest to opt:
// row groups of at most 2¹⁷ rows (parquetio's hold at least that many,
// up to a record more), opt's codec (Snappy), dictionary encoding for
// the string and opt.Runs columns only, DELTA_BINARY_PACKED for
// opt.Delta, PLAIN for the rest, data pages v1, statistics on (as
// parquetenc writes them).
func libraryParquetProps(schema *arrow.Schema, opt parquetio.Options) *parquet.WriterProperties {
	codec := map[string]compress.Compression{"snappy": compress.Codecs.Snappy, "zstd": compress.Codecs.Zstd, "none": compress.Codecs.Uncompressed}[opt.Codec]
	props := []parquet.WriterProperty{
		parquet.WithMaxRowGroupLength(1 << 17), parquet.WithCompression(codec),
		parquet.WithDictionaryDefault(false), parquet.WithDataPageVersion(parquet.DataPageV1), parquet.WithStats(true),
	}
	for _, f := range schema.Fields() {
		if f.Type.ID() == arrow.DICTIONARY {
			props = append(props, parquet.WithDictionaryFor(f.Name, true))
		}
	}
	for _, name := range opt.Runs {
		props = append(props, parquet.WithDictionaryFor(name, true))
	}
	for _, name := range opt.Delta {
		props = append(props, parquet.WithEncodingFor(name, parquet.Encodings.DeltaBinaryPacked))
	}
	return parquet.NewWriterProperties(props...)
}

// BenchmarkVsLibraryParquetRead: reading every column of the typical
// table's Parquet file (as tablefile.Stream writes it) into Arrow arrays
// in batches of table.DefaultBatchRows rows, on one goroutine:
// parquetio's Schema and Column (on parquet/file's column readers),
// as tablefile.ReadFile reads before it checks the records, against
// pqarrow.FileReader's record reader (ArrowReadProperties{BatchSize},
// Parallel off). Both on file.NewParquetReader with Go allocators.
func BenchmarkVsLibraryParquetRead(b *testing.B) {
	recs, setups := sampleTable(b)
	path := filepath.Join(b.TempDir(), "sample.parquet")
	if err := tablefile.Stream(path, tablefile.WriteOptions{}, fillFrom(recs, setups)); err != nil {
		b.Fatal(err)
	}
	var got [2][][]arrow.Array // per path: batches of columns, kept for the check
	read := func(k int, keep bool, each func(pf *file.Reader, emit func([]arrow.Array)) error) func() error {
		return func() error {
			fh, err := os.Open(path)
			if err != nil {
				return err
			}
			defer fh.Close()
			pf, err := file.NewParquetReader(fh, file.WithReadProps(parquet.NewReaderProperties(memory.NewGoAllocator())))
			if err != nil {
				return err
			}
			defer pf.Close()
			return each(pf, func(cols []arrow.Array) {
				if keep {
					got[k] = append(got[k], cols)
					return
				}
				for _, c := range cols {
					c.Release()
				}
			})
		}
	}
	benchtrim := func(keep bool) func() error {
		return read(0, keep, func(pf *file.Reader, emit func([]arrow.Array)) error {
			schema, err := parquetio.Schema(pf)
			if err != nil {
				return err
			}
			groups := make([]int, pf.NumRowGroups())
			for i := range groups {
				groups[i] = i
			}
			readers := make([]*parquetio.Column, len(schema.Fields()))
			for i, f := range schema.Fields() {
				if readers[i], err = parquetio.NewColumn(pf, i, f.Type, groups); err != nil {
					return err
				}
			}
			for {
				cols := make([]arrow.Array, len(readers))
				for i, r := range readers {
					if cols[i], err = r.Next(table.DefaultBatchRows); err != nil {
						return err
					}
				}
				if cols[0] == nil {
					return nil
				}
				emit(cols)
			}
		})
	}
	library := func(keep bool) func() error {
		return read(1, keep, func(pf *file.Reader, emit func([]arrow.Array)) error {
			fr, err := pqarrow.NewFileReader(pf, pqarrow.ArrowReadProperties{BatchSize: table.DefaultBatchRows}, memory.NewGoAllocator())
			if err != nil {
				return err
			}
			rr, err := fr.GetRecordReader(context.Background(), nil, nil)
			if err != nil {
				return err
			}
			defer rr.Release()
			for rr.Next() {
				rec := rr.Record()
				cols := rec.Columns()
				for _, c := range cols {
					c.Retain()
				}
				emit(append([]arrow.Array(nil), cols...))
			}
			if err := rr.Err(); err != io.EOF {
				return err // nil or a failure (the reader ends with io.EOF)
			}
			return nil
		})
	}
	for _, f := range []func() error{benchtrim(true), library(true)} {
		if err := f(); err != nil {
			b.Fatal(err)
		}
	}
	sameValues(b, got[0], got[1])
	alternate(b, benchtrim(false), library(false))
}

// sameValues fails unless the batches x and y (of columns) hold the same
// values, column by column (ValueStr; a dictionary's value, not its
// index), whatever the batch boundaries; it releases them.
func sameValues(b *testing.B, x, y [][]arrow.Array) {
	b.Helper()
	flat := func(batches [][]arrow.Array, col int) []string {
		var out []string
		for _, cols := range batches {
			for i := 0; i < cols[col].Len(); i++ {
				out = append(out, cols[col].ValueStr(i))
			}
		}
		return out
	}
	if len(x) == 0 || len(y) == 0 || len(x[0]) != len(y[0]) {
		b.Fatalf("%d and %d batches", len(x), len(y))
	}
	for col := range x[0] {
		if tx, ty := x[0][col].DataType(), y[0][col].DataType(); !arrow.TypeEqual(tx, ty) {
			b.Fatalf("column %d: %s, pqarrow %s", col, tx, ty)
		}
		a, c := flat(x, col), flat(y, col)
		if len(a) != len(c) || len(a) < 100000 {
			b.Fatalf("column %d: %d values, pqarrow %d", col, len(a), len(c))
		}
		for i := range a {
			if a[i] != c[i] {
				b.Fatalf("column %d row %d: %q, pqarrow %q", col, i, a[i], c[i])
			}
		}
	}
	for _, batches := range [][][]arrow.Array{x, y} {
		for _, cols := range batches {
			for _, c := range cols {
				c.Release()
			}
		}
	}
}
