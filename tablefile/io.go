package tablefile

import (
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/benchtrim/benchtrim/table"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/ipc"
	"github.com/apache/arrow/go/v15/arrow/memory"
	"github.com/apache/arrow/go/v15/parquet"
	"github.com/apache/arrow/go/v15/parquet/file"

	"github.com/benchtrim/benchtrim/tablefile/internal/parquetio"
)

// fileFormat is an on-disk representation of the table.
type fileFormat int

const (
	formatArrow fileFormat = iota + 1
	formatParquet
	formatCSV
)

// formatOf picks the file format from path's extension: .arrow, .ipc or
// .feather for Arrow IPC, .parquet or .pq for Parquet, .csv for CSV.
func formatOf(path string) (fileFormat, error) {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".arrow", ".ipc", ".feather":
		return formatArrow, nil
	case ".parquet", ".pq":
		return formatParquet, nil
	case ".csv":
		return formatCSV, nil
	}
	return 0, fmt.Errorf("%s: unknown table extension %q (want .arrow, .parquet or .csv)", path, filepath.Ext(path))
}

// SetupsSidecar is the path of the setups file written next to a CSV table.
func SetupsSidecar(csvPath string) string {
	return strings.TrimSuffix(csvPath, filepath.Ext(csvPath)) + ".setups.csv"
}

func schemaWithMetadata(t *table.Table) (*arrow.Schema, error) {
	js, err := json.Marshal(t.Setups)
	if err != nil {
		return nil, err
	}
	md := arrow.NewMetadata([]string{metadataVersion, metadataSetups}, []string{formatVersion, string(js)})
	return arrow.NewSchema(schema.Fields(), &md), nil
}

// ArrowCodecs lists the IPC buffer compressions WriteOptions.ArrowCompression
// accepts: none (plain buffers, which every Arrow implementation reads; the
// JavaScript library, for one, has no codecs built in), zstd and lz4.
var ArrowCodecs = []string{"none", "zstd", "lz4"}

// ParquetCodecs lists the page compressions WriteOptions.ParquetCompression
// accepts.
var ParquetCodecs = []string{parquetio.Snappy, "zstd", "none"}

// WriteOptions tune Stream.
type WriteOptions struct {
	// ArrowCompression compresses Arrow IPC buffers: "" or "none"
	// (readable by every Arrow implementation), "zstd" or "lz4".
	ArrowCompression string
	// ParquetCompression compresses Parquet pages: "" or "snappy" (the
	// default of DuckDB and pyarrow too), "zstd" (files about 0.6× the
	// size, for about 1.15× the CPU time) or "none".
	ParquetCompression string
	// ByShard writes a Parquet table a batch of rows at a time
	// (shardBatcher), each batch ordered by the key hash Key.Shard splits
	// by, in row groups of whole benchmark groups (groupOf) of the batch
	// whose hash ranges the footer's key-value metadata records, so that
	// a sharded read (ScanFileShard) reads only the row groups that meet
	// its shard's range. Other formats refuse it.
	ByShard bool
}

// writeCodedIPC writes the coded records each calls yield with (see coder)
// as an IPC file with schema, decoded with dicts, which it releases. With
// check, decode checks every code against its dictionary (for records read
// back from a file); without, the records are coder.encode's own.
func writeCodedIPC(w io.Writer, schema *arrow.Schema, dicts []arrow.Array, codec string, check bool, each func(yield func(arrow.Record) error) error) error {
	defer releaseAll(dicts)
	fw, err := newIPCFileWriter(w, schema, codec)
	if err != nil {
		return err
	}
	err = each(func(coded arrow.Record) error {
		rec, err := decode(coded, dicts, check)
		if err != nil {
			return err
		}
		defer rec.Release()
		return fw.Write(rec)
	})
	if err != nil {
		fw.Close()
		return err
	}
	return fw.Close()
}

// releaseAll releases each of xs.
func releaseAll[T interface{ Release() }](xs []T) {
	for _, x := range xs {
		x.Release()
	}
}

// csvHeader is the canonical table's CSV header: the column names.
func csvHeader() []string {
	h := make([]string, numColumns)
	for i, f := range schema.Fields() {
		h[i] = f.Name
	}
	return h
}

// formatFloat is v in the shortest form that reads back exactly; ±Inf as
// "inf" and "-inf", the spelling DuckDB's CSV sniffer reads as a double
// (it types a column holding strconv's "+Inf" as VARCHAR), as pandas, R
// and strconv.ParseFloat do.
func formatFloat(v float64) string {
	switch {
	case math.IsInf(v, 1):
		return "inf"
	case math.IsInf(v, -1):
		return "-inf"
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

var setupsHeader = []string{
	"project", "version", "benchmark", "params", "mode", "tool", "tool_version", "forks",
	"warmup_iterations", "warmup_time_ns", "measurement_iterations", "measurement_time_ns",
	"single_shot", "threads", "batch_size", "instances", "trials", "slices", "slice_time_ns",
	"env", "source", "name",
}

// setupsHeaderV1 is the sidecar's header before the name column
// (benchtrim before Setup.Name); such files still read.
var setupsHeaderV1 = setupsHeader[:len(setupsHeader)-1]

// writeSetupsCSV writes the setups as CSV (columns setupsHeader; env as
// canonical k=v pairs).
func writeSetupsCSV(t *table.Table, w io.Writer) error {
	cw := csv.NewWriter(w)
	cw.Write(setupsHeader)
	i := strconv.Itoa
	l := func(v int64) string { return strconv.FormatInt(v, 10) }
	for _, s := range t.Setups {
		cw.Write([]string{s.Project, s.Version, s.Benchmark, s.Params, s.Mode, s.Tool, s.ToolVersion,
			i(s.Forks), i(s.WarmupIterations), l(s.WarmupTimeNs), i(s.MeasurementIterations), l(s.MeasurementTimeNs),
			strconv.FormatBool(s.SingleShot), i(s.Threads), i(s.BatchSize), i(s.Instances), i(s.Trials), i(s.Slices),
			l(s.SliceTimeNs), table.CanonicalParams(s.Env), s.Source, s.Name})
	}
	cw.Flush()
	return cw.Error()
}

// ReadFile reads a table written by Stream (format by extension) and
// checks it against the rules of the table (see Check). The bytes are
// untrusted: a file that does not decode, decodes to malformed Arrow
// arrays, or holds values that break the rules gives an error naming the
// file, never a panic:
//
//	t.parquet: corrupt table file: …
//	t.parquet: row 17: fork 0 (levels are 1-based)
//	t.csv:17: fork 0 (levels are 1-based)
//
// mem nil is memory.DefaultAllocator.
func ReadFile(path string, mem memory.Allocator) (*table.Table, error) {
	if mem == nil {
		mem = memory.DefaultAllocator
	}
	f, err := formatOf(path)
	if err != nil {
		return nil, err
	}
	fh, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	if f == formatCSV {
		t, err := readCSVGuarded(fh, path, mem)
		if err != nil {
			return nil, err
		}
		if err := readSetupsSidecar(SetupsSidecar(path), t); err != nil {
			t.Release()
			return nil, err
		}
		return t, nil
	}
	return decodeBinary(fh, f, path, mem)
}

// readerAtSeeker is what the Arrow IPC and Parquet readers read from.
type readerAtSeeker interface {
	io.Reader
	io.ReaderAt
	io.Seeker
}

// decodeBinary reads an Arrow IPC or Parquet table (f) from r and checks
// it, as ReadFile does; name is the file's name in errors.
func decodeBinary(r readerAtSeeker, f fileFormat, name string, mem memory.Allocator) (*table.Table, error) {
	read := readAll(scanIPC)
	if f == formatParquet {
		read = readAll(scanParquet)
	}
	t, err := guardedRead(mem, func(mem memory.Allocator) (*table.Table, error) { return read(r, mem) })
	if err != nil {
		var nt notTableError
		if errors.As(err, &nt) {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		return nil, fmt.Errorf("%s: corrupt table file: %w", name, err)
	}
	if err := t.Check(); err != nil {
		t.Release()
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return t, nil
}

// notTableError is a file that decodes but is not a benchtrim table of
// this format version.
type notTableError struct{ error }

func (e notTableError) Unwrap() error { return e.error }

func setupsFromMetadata(s *arrow.Schema) ([]table.Setup, error) {
	md := s.Metadata()
	if v := md.FindKey(metadataVersion); v >= 0 && md.Values()[v] != formatVersion && md.Values()[v] != "1" {
		return nil, notTableError{fmt.Errorf("table format version %.20q, this benchtrim reads 1 and %s", md.Values()[v], formatVersion)}
	}
	i := md.FindKey(metadataSetups)
	if i < 0 {
		return nil, nil
	}
	var setups []table.Setup
	if err := json.Unmarshal([]byte(md.Values()[i]), &setups); err != nil {
		return nil, fmt.Errorf("setups metadata: %w", err)
	}
	return setups, nil
}

// readAll turns a scan function (scanIPC, scanParquet) into one that
// reads the whole table.
func readAll(scan func(readerAtSeeker, memory.Allocator, func(arrow.Record) error) ([]table.Setup, error)) func(readerAtSeeker, memory.Allocator) (*table.Table, error) {
	return func(fh readerAtSeeker, mem memory.Allocator) (*table.Table, error) {
		t := &table.Table{}
		setups, err := scan(fh, mem, func(rec arrow.Record) error {
			t.Records = append(t.Records, rec)
			return nil
		})
		t.Setups = setups
		return t, err
	}
}

// scanIPC decodes an Arrow IPC table file record by record, handing each
// validated record to emit (which takes ownership), and returns the
// setups. It does not allocate from the allocator it is given (see below).
func scanIPC(fh readerAtSeeker, _ memory.Allocator, emit func(arrow.Record) error) ([]table.Setup, error) {
	if err := checkIPCFooter(fh); err != nil {
		return nil, err
	}
	// arrow v15's FileReader never frees the buffers of the dictionaries
	// it reads (their messages, and its reference to each dictionary), so
	// it allocates from the Go heap, each buffer bounded as guardedRead
	// bounds them (checkAllocation): the garbage collector frees what it
	// leaves.
	r, err := ipc.NewFileReader(fh, ipc.WithAllocator(boundedGoAllocator{memory.NewGoAllocator()}))
	if err != nil {
		return nil, err
	}
	defer r.Close()
	if err := checkSchema(r.Schema()); err != nil {
		return nil, notTableError{err}
	}
	setups, err := setupsFromMetadata(r.Schema())
	if err != nil {
		return nil, err
	}
	for i := 0; i < r.NumRecords(); i++ {
		rec, err := r.RecordAt(i)
		if err != nil {
			return setups, err
		}
		if err := validateRecord(rec); err != nil {
			rec.Release()
			return setups, fmt.Errorf("record %d: %w", i+1, err)
		}
		if err := emit(canonicalRecord(rec)); err != nil {
			return setups, err
		}
	}
	return setups, nil
}

// scanParquet decodes a Parquet table in records of up to
// DefaultBatchRows rows, handing each validated record to emit (which
// takes ownership), and returns the setups. Like scanIPC it does not
// allocate from the allocator it is given. Its column readers
// (parquetio.Column, on package parquet/file) run in the caller's
// goroutine, so that a decoder panic on a damaged file happens where
// guardedRead recovers it.
func scanParquet(fh readerAtSeeker, mem memory.Allocator, emit func(arrow.Record) error) ([]table.Setup, error) {
	return scanParquetPart(fh, mem, emit, nil)
}

// scanParquetPart is scanParquet reading only the row groups that may
// hold part's shard (ShardPart.pickRowGroups; every row group when part
// is nil), their rows checked against the recorded hash ranges.
func scanParquetPart(fh readerAtSeeker, _ memory.Allocator, emit func(arrow.Record) error, part *ShardPart) ([]table.Setup, error) {
	size, err := fh.Seek(0, io.SeekEnd)
	if err != nil {
		return nil, err
	}
	// The parquet library sizes allocations by the footer's counts before
	// anything checks them (a fatal out-of-memory, not a panic).
	if err := checkParquetFooter(fh, size, nil); err != nil {
		return nil, err
	}
	// The parquet library (v15) never frees the buffer of bit widths each
	// DELTA_BINARY_PACKED decoder allocates, so, as scanIPC does, it
	// allocates from the Go heap, each buffer bounded (the page buffers'
	// lengths are read from the file); the garbage collector frees what
	// it leaves.
	mem := boundedGoAllocator{memory.NewGoAllocator()}
	pf, err := file.NewParquetReader(fh, file.WithReadProps(parquet.NewReaderProperties(mem)))
	if err != nil {
		return nil, err
	}
	defer pf.Close()
	if err := checkParquet(pf, size); err != nil {
		return nil, err
	}
	schema, err := parquetio.Schema(pf)
	if err != nil {
		return nil, err
	}
	if err := checkSchema(schema); err != nil {
		return nil, notTableError{err}
	}
	setups, err := setupsFromMetadata(schema)
	if err != nil {
		return nil, err
	}
	// Files written whole hold the setups in the stored Arrow schema too;
	// files written by Stream only in the key-value metadata of the footer.
	if schema.Metadata().FindKey(metadataSetups) < 0 {
		if v := pf.MetaData().KeyValueMetadata().FindValue(metadataSetups); v != nil {
			md := arrow.NewMetadata([]string{metadataSetups}, []string{*v})
			if setups, err = setupsFromMetadata(arrow.NewSchema(nil, &md)); err != nil {
				return nil, err
			}
		}
	}
	rowGroups, err := part.pickRowGroups(pf, schema)
	if err != nil {
		return nil, err
	}
	readers := make([]*parquetio.Column, numColumns)
	for i := range readers {
		if readers[i], err = parquetio.NewColumn(pf, i, schema.Field(i).Type, rowGroups); err != nil {
			return nil, err
		}
	}
	// Batches as large as the file (by its metadata) when it is small: the
	// readers reserve a whole batch per column.
	batch := min(max(pf.NumRows(), 1), table.DefaultBatchRows)
	for n := 1; ; n++ {
		rec, err := nextParquetRecord(readers, int(batch))
		if err != nil {
			return setups, err
		}
		if rec == nil {
			return setups, nil
		}
		if err := validateRecord(rec); err != nil {
			rec.Release()
			return setups, fmt.Errorf("record %d: %w", n, err)
		}
		rec = canonicalRecord(rec)
		if err := part.checkRows(rec); err != nil {
			rec.Release()
			return setups, fmt.Errorf("record %d: %w", n, err)
		}
		if err := emit(rec); err != nil {
			return setups, err
		}
	}
}

// nextParquetRecord reads the next batch of up to batch rows of every column
// into a record with schema, or returns nil at the end of the data.
func nextParquetRecord(readers []*parquetio.Column, batch int) (arrow.Record, error) {
	cols := make([]arrow.Array, len(readers))
	defer func() {
		for _, c := range cols {
			if c != nil {
				c.Release()
			}
		}
	}()
	ended := 0
	for i, r := range readers {
		a, err := r.Next(batch)
		if err != nil {
			return nil, err
		}
		if a == nil {
			ended++
			continue
		}
		cols[i] = a
	}
	switch {
	case ended == len(readers):
		return nil, nil
	case ended > 0:
		return nil, fmt.Errorf("%d of %d columns end before the others", ended, len(readers))
	}
	rows := cols[0].Len()
	schema := schema
	if _, ok := cols[idxProject].(*array.String); ok {
		schema = schemaV1 // a version 1 file
	}
	for i, c := range cols {
		if !arrow.TypeEqual(c.DataType(), schema.Field(i).Type) {
			return nil, fmt.Errorf("column %s: type %s, want %s", schema.Field(i).Name, c.DataType(), schema.Field(i).Type)
		}
		if c.Len() != rows {
			return nil, fmt.Errorf("column %s: %d values, column %s %d", schema.Field(i).Name, c.Len(), schema.Field(0).Name, rows)
		}
	}
	return array.NewRecord(schema, cols, int64(rows)), nil
}

// ScanFileShard reads a table file like ReadFile, checked alike and with
// the same errors, but hands its records to fn one at a time instead of
// keeping them (fn does not keep a record unless it retains it), so a
// table larger than memory can be read: a Parquet file a batch of a row
// group at a time, an Arrow IPC file a record at a time, a CSV table a
// batch of rows at a time. It returns the setups. The rule that needs
// every row of a run (maxLevelIndex) is checked at the end, after fn saw
// the rows; an error then still fails the read. Buffers a damaged file
// leaves behind are left to the garbage collector (mem should be a Go
// allocator), as the records already handed on may still be in use.
//
// For a sharded analysis, of a Parquet table written by shard
// (WriteOptions.ByShard) it reads only the row groups whose key hash
// range meets part's shard, and notes the benchmark runs of the others in
// part (see ShardPart.Runs) from their key columns. The rows read still
// include other shards' (the row groups at the shard's edges): the caller
// filters rows by shard as before. Other files, and every file when part
// is nil, are read whole.
func ScanFileShard(path string, mem memory.Allocator, part *ShardPart, fn func(arrow.Record) error) ([]table.Setup, error) {
	f, err := formatOf(path)
	if err != nil {
		return nil, err
	}
	fh, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	var ch table.Checker
	var fnErr error
	emit := func(rec arrow.Record) error {
		defer rec.Release()
		if err := ch.Add(rec); err != nil {
			return checkFailed{err}
		}
		if fnErr = fn(rec); fnErr != nil {
			return fnErr
		}
		return nil
	}
	if f == formatCSV {
		// readCSV checks every rule itself (as ReadFile's CSV path does).
		sink := func(rec arrow.Record) error {
			fnErr = fn(rec)
			return fnErr
		}
		_, err := guardedRead(mem, func(mem memory.Allocator) (*table.Table, error) { return readCSV(fh, path, mem, sink) })
		switch {
		case err != nil && fnErr != nil && errors.Is(err, fnErr):
			return nil, fnErr
		case err != nil:
			if !strings.HasPrefix(err.Error(), path+":") {
				err = fmt.Errorf("%s: %w", path, err)
			}
			return nil, err
		}
		t := &table.Table{}
		if err := readSetupsSidecar(SetupsSidecar(path), t); err != nil {
			return nil, err
		}
		return t.Setups, nil
	}
	scan := scanIPC
	if f == formatParquet {
		scan = func(fh readerAtSeeker, mem memory.Allocator, emit func(arrow.Record) error) ([]table.Setup, error) {
			return scanParquetPart(fh, mem, emit, part)
		}
	}
	var setups []table.Setup
	_, err = guardedScan(mem, func(mem memory.Allocator) error {
		var err error
		setups, err = scan(fh, mem, emit)
		return err
	})
	var cf checkFailed
	var nt notTableError
	switch {
	case err == nil:
	case fnErr != nil && errors.Is(err, fnErr):
		return nil, fnErr
	case errors.As(err, &cf):
		return nil, fmt.Errorf("%s: %w", path, cf.error)
	case errors.As(err, &nt):
		return nil, fmt.Errorf("%s: %w", path, err)
	default:
		return nil, fmt.Errorf("%s: corrupt table file: %w", path, err)
	}
	if err := ch.Finish(); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return setups, nil
}

// checkFailed is a checker error met while scanning.
type checkFailed struct{ error }

func (e checkFailed) Unwrap() error { return e.error }
