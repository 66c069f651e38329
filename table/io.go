package table

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/ipc"
	"github.com/apache/arrow/go/v15/arrow/memory"
	"github.com/apache/arrow/go/v15/parquet/file"
	"github.com/apache/arrow/go/v15/parquet/pqarrow"

	"github.com/benchtrim/benchtrim/internal/arrowio"
	"github.com/benchtrim/benchtrim/internal/atomicfile"
)

// FileFormat is an on-disk representation of the table.
type FileFormat int

const (
	FormatArrow FileFormat = iota + 1
	FormatParquet
	FormatCSV
)

// FormatOf picks the file format from path's extension: .arrow, .ipc or
// .feather for Arrow IPC, .parquet or .pq for Parquet, .csv for CSV.
func FormatOf(path string) (FileFormat, error) {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".arrow", ".ipc", ".feather":
		return FormatArrow, nil
	case ".parquet", ".pq":
		return FormatParquet, nil
	case ".csv":
		return FormatCSV, nil
	}
	return 0, fmt.Errorf("%s: unknown table extension %q (want .arrow, .parquet or .csv)", path, filepath.Ext(path))
}

// SetupsSidecar is the path of the setups file written next to a CSV table.
func SetupsSidecar(csvPath string) string {
	return strings.TrimSuffix(csvPath, filepath.Ext(csvPath)) + ".setups.csv"
}

func (t *Table) schemaWithMetadata() (*arrow.Schema, error) {
	js, err := json.Marshal(t.Setups)
	if err != nil {
		return nil, err
	}
	md := arrow.NewMetadata([]string{MetadataVersion, MetadataSetups}, []string{FormatVersion, string(js)})
	return arrow.NewSchema(Schema.Fields(), &md), nil
}

// WriteOptions tune WriteFileWith.
type WriteOptions struct {
	// ArrowCompression compresses Arrow IPC buffers: "" or "none"
	// (readable by every Arrow implementation), "zstd" or "lz4".
	ArrowCompression string
}

// WriteFile writes t to path atomically in the format chosen by its
// extension (see FormatOf). A CSV table gets its setups in SetupsSidecar(path).
// Arrow IPC files are uncompressed; see WriteFileWith.
func WriteFile(path string, t *Table) error { return WriteFileWith(path, t, WriteOptions{}) }

// WriteFileWith is WriteFile with options.
func WriteFileWith(path string, t *Table, opt WriteOptions) error {
	f, err := FormatOf(path)
	if err != nil {
		return err
	}
	switch f {
	case FormatArrow:
		return atomicfile.Write(path, func(w io.Writer) error { return t.writeIPC(w, opt.ArrowCompression) })
	case FormatParquet:
		return atomicfile.Write(path, t.WriteParquet)
	default:
		if err := atomicfile.Write(path, t.WriteCSV); err != nil {
			return err
		}
		return atomicfile.Write(SetupsSidecar(path), t.WriteSetupsCSV)
	}
}

// WriteIPC writes t as an uncompressed Arrow IPC file with the setups in
// the schema metadata.
func (t *Table) WriteIPC(w io.Writer) error { return t.writeIPC(w, "") }

func (t *Table) writeIPC(w io.Writer, codec string) error {
	schema, err := t.schemaWithMetadata()
	if err != nil {
		return err
	}
	return arrowio.WriteIPCCompressed(w, schema, t.Records, codec)
}

// WriteParquet writes t as Parquet (zstd) with the setups in the key-value
// metadata (through the stored Arrow schema).
func (t *Table) WriteParquet(w io.Writer) error {
	schema, err := t.schemaWithMetadata()
	if err != nil {
		return err
	}
	return arrowio.WriteParquet(w, schema, t.Records)
}

func arrayRecord(s *arrow.Schema, r arrow.Record) arrow.Record {
	return array.NewRecord(s, r.Columns(), r.NumRows())
}

// csvHeader is the canonical table's CSV header: the column names.
func csvHeader() []string {
	h := make([]string, numColumns)
	for i, f := range Schema.Fields() {
		h[i] = f.Name
	}
	return h
}

func formatFloat(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// WriteCSV writes the rows as RFC 4180 CSV with a header of column names.
// Floats use the shortest representation that parses back to the same
// double ("NaN", "+Inf", "-Inf" for non-finite values); unknown timestamps
// are empty fields.
func (t *Table) WriteCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(csvHeader()); err != nil {
		return err
	}
	rec := make([]string, numColumns)
	err := t.Rows(func(r *Row) error {
		rec[idxProject], rec[idxVersion], rec[idxBenchmark] = r.Project, r.Version, r.Benchmark
		rec[idxParams], rec[idxMode], rec[idxMetric], rec[idxUnit] = r.Params, r.Mode, r.Metric, r.Unit
		rec[idxValue], rec[idxNsPerOp] = formatFloat(r.Value), formatFloat(r.NsPerOp)
		rec[idxCount] = strconv.FormatInt(r.Count, 10)
		rec[idxInstance] = strconv.Itoa(int(r.Instance))
		rec[idxTrial] = strconv.Itoa(int(r.Trial))
		rec[idxFork] = strconv.Itoa(int(r.Fork))
		rec[idxIteration] = strconv.Itoa(int(r.Iteration))
		rec[idxSlice] = strconv.Itoa(int(r.Slice))
		rec[idxWarmup] = strconv.FormatBool(r.Warmup)
		rec[idxStartNs], rec[idxEndNs] = "", ""
		if r.HasTime {
			rec[idxStartNs] = strconv.FormatInt(r.StartNs, 10)
			rec[idxEndNs] = strconv.FormatInt(r.EndNs, 10)
		}
		rec[idxPair], rec[idxSource] = r.Pair, r.Source
		rec[idxLine] = strconv.FormatInt(r.Line, 10)
		return cw.Write(rec)
	})
	if err != nil {
		return err
	}
	cw.Flush()
	return cw.Error()
}

var setupsHeader = []string{
	"project", "version", "benchmark", "params", "mode", "tool", "tool_version", "forks",
	"warmup_iterations", "warmup_time_ns", "measurement_iterations", "measurement_time_ns",
	"single_shot", "threads", "batch_size", "instances", "trials", "slices", "slice_time_ns",
	"env", "source",
}

// WriteSetupsCSV writes the setups as CSV (columns setupsHeader; env as
// canonical k=v pairs).
func (t *Table) WriteSetupsCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	cw.Write(setupsHeader)
	i := strconv.Itoa
	l := func(v int64) string { return strconv.FormatInt(v, 10) }
	for _, s := range t.Setups {
		cw.Write([]string{s.Project, s.Version, s.Benchmark, s.Params, s.Mode, s.Tool, s.ToolVersion,
			i(s.Forks), i(s.WarmupIterations), l(s.WarmupTimeNs), i(s.MeasurementIterations), l(s.MeasurementTimeNs),
			strconv.FormatBool(s.SingleShot), i(s.Threads), i(s.BatchSize), i(s.Instances), i(s.Trials), i(s.Slices),
			l(s.SliceTimeNs), CanonicalParams(s.Env), s.Source})
	}
	cw.Flush()
	return cw.Error()
}

// ReadFile reads a table written by WriteFile (format by extension).
func ReadFile(path string, mem memory.Allocator) (*Table, error) {
	f, err := FormatOf(path)
	if err != nil {
		return nil, err
	}
	fh, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	var t *Table
	switch f {
	case FormatArrow:
		t, err = readIPC(fh, mem)
	case FormatParquet:
		t, err = readParquet(fh, mem)
	default:
		t, err = ReadCSV(fh, path, mem)
		if err == nil {
			err = readSetupsSidecar(SetupsSidecar(path), t)
		}
	}
	if err != nil {
		if t != nil {
			t.Release()
		}
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return t, nil
}

func setupsFromMetadata(s *arrow.Schema) ([]Setup, error) {
	md := s.Metadata()
	if v := md.FindKey(MetadataVersion); v >= 0 && md.Values()[v] != FormatVersion {
		return nil, fmt.Errorf("table format version %s, this benchtrim reads %s", md.Values()[v], FormatVersion)
	}
	i := md.FindKey(MetadataSetups)
	if i < 0 {
		return nil, nil
	}
	var setups []Setup
	if err := json.Unmarshal([]byte(md.Values()[i]), &setups); err != nil {
		return nil, fmt.Errorf("setups metadata: %w", err)
	}
	return setups, nil
}

func readIPC(fh *os.File, mem memory.Allocator) (*Table, error) {
	r, err := ipc.NewFileReader(fh, ipc.WithAllocator(mem))
	if err != nil {
		return nil, err
	}
	defer r.Close()
	if err := checkSchema(r.Schema()); err != nil {
		return nil, err
	}
	t := &Table{}
	if t.Setups, err = setupsFromMetadata(r.Schema()); err != nil {
		return nil, err
	}
	for i := 0; i < r.NumRecords(); i++ {
		rec, err := r.RecordAt(i)
		if err != nil {
			t.Release()
			return nil, err
		}
		t.Records = append(t.Records, stripMetadata(rec))
	}
	return t, nil
}

// stripMetadata returns rec with the plain Schema, taking ownership of rec.
func stripMetadata(rec arrow.Record) arrow.Record {
	out := arrayRecord(Schema, rec)
	rec.Release()
	return out
}

func readParquet(fh *os.File, mem memory.Allocator) (*Table, error) {
	pf, err := file.NewParquetReader(fh)
	if err != nil {
		return nil, err
	}
	defer pf.Close()
	fr, err := pqarrow.NewFileReader(pf, pqarrow.ArrowReadProperties{BatchSize: DefaultBatchRows}, mem)
	if err != nil {
		return nil, err
	}
	schema, err := fr.Schema()
	if err != nil {
		return nil, err
	}
	if err := checkSchema(schema); err != nil {
		return nil, err
	}
	t := &Table{}
	if t.Setups, err = setupsFromMetadata(schema); err != nil {
		return nil, err
	}
	rr, err := fr.GetRecordReader(context.Background(), nil, nil)
	if err != nil {
		return nil, err
	}
	defer rr.Release()
	for rr.Next() {
		rec := rr.Record()
		rec.Retain()
		t.Records = append(t.Records, stripMetadata(rec))
	}
	if err := rr.Err(); err != nil && !errors.Is(err, io.EOF) {
		t.Release()
		return nil, err
	}
	return t, nil
}

// ReadCSV reads rows written by WriteCSV. name is used in error messages,
// which give the line: "name:12: column count: …".
func ReadCSV(r io.Reader, name string, mem memory.Allocator) (*Table, error) {
	cr := csv.NewReader(r)
	cr.ReuseRecord = true
	head, err := cr.Read()
	if err != nil {
		return nil, fmt.Errorf("%s:1: reading header: %w", name, err)
	}
	want := csvHeader()
	if strings.Join(head, ",") != strings.Join(want, ",") {
		return nil, fmt.Errorf("%s:1: header is %q, want %q", name, strings.Join(head, ","), strings.Join(want, ","))
	}
	b := NewBuilder(mem, 0)
	defer b.Release()
	var row Row
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			break
		}
		line, _ := cr.FieldPos(0)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %w", name, line, err)
		}
		if err := parseCSVRow(rec, &row); err != nil {
			return nil, fmt.Errorf("%s:%d: %w", name, line, err)
		}
		b.Append(&row)
	}
	return b.Finish(), nil
}

func parseCSVRow(rec []string, r *Row) error {
	var err error
	fl := func(col int) float64 {
		if err != nil {
			return 0
		}
		var v float64
		v, err = strconv.ParseFloat(rec[col], 64)
		if err != nil {
			err = fmt.Errorf("column %s: %w", Schema.Field(col).Name, err)
		}
		return v
	}
	in := func(col int, bits int) int64 {
		if err != nil {
			return 0
		}
		var v int64
		v, err = strconv.ParseInt(rec[col], 10, bits)
		if err != nil {
			err = fmt.Errorf("column %s: %w", Schema.Field(col).Name, err)
		}
		return v
	}
	*r = Row{Project: rec[idxProject], Version: rec[idxVersion], Benchmark: rec[idxBenchmark],
		Params: rec[idxParams], Mode: rec[idxMode], Metric: rec[idxMetric], Unit: rec[idxUnit],
		Pair: rec[idxPair], Source: rec[idxSource]}
	r.Value, r.NsPerOp = fl(idxValue), fl(idxNsPerOp)
	r.Count = in(idxCount, 64)
	r.Instance, r.Trial, r.Fork = int32(in(idxInstance, 32)), int32(in(idxTrial, 32)), int32(in(idxFork, 32))
	r.Iteration, r.Slice = int32(in(idxIteration, 32)), int32(in(idxSlice, 32))
	r.Line = in(idxLine, 64)
	if err != nil {
		return err
	}
	if r.Warmup, err = strconv.ParseBool(rec[idxWarmup]); err != nil {
		return fmt.Errorf("column warmup: %w", err)
	}
	if rec[idxStartNs] != "" || rec[idxEndNs] != "" {
		r.StartNs, r.EndNs, r.HasTime = in(idxStartNs, 64), in(idxEndNs, 64), true
	}
	return err
}

func readSetupsSidecar(path string, t *Table) error {
	fh, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	defer fh.Close()
	cr := csv.NewReader(fh)
	head, err := cr.Read()
	if err != nil {
		return fmt.Errorf("%s:1: %w", path, err)
	}
	if strings.Join(head, ",") != strings.Join(setupsHeader, ",") {
		return fmt.Errorf("%s:1: header is %q, want %q", path, strings.Join(head, ","), strings.Join(setupsHeader, ","))
	}
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			break
		}
		line, _ := cr.FieldPos(0)
		if err != nil {
			return fmt.Errorf("%s:%d: %w", path, line, err)
		}
		var perr error
		n := func(i int) int64 {
			v, err := strconv.ParseInt(rec[i], 10, 64)
			if err != nil && perr == nil {
				perr = fmt.Errorf("column %s: %w", setupsHeader[i], err)
			}
			return v
		}
		s := Setup{Key: Key{rec[0], rec[1], rec[2], rec[3], rec[4]}, Tool: rec[5], ToolVersion: rec[6],
			Forks: int(n(7)), WarmupIterations: int(n(8)), WarmupTimeNs: n(9), MeasurementIterations: int(n(10)),
			MeasurementTimeNs: n(11), Threads: int(n(13)), BatchSize: int(n(14)), Instances: int(n(15)),
			Trials: int(n(16)), Slices: int(n(17)), SliceTimeNs: n(18), Source: rec[20]}
		s.SingleShot, _ = strconv.ParseBool(rec[12])
		if rec[19] != "" {
			env, err := ParseParams(rec[19])
			if err != nil && perr == nil {
				perr = err
			}
			s.Env = env
		}
		if perr != nil {
			return fmt.Errorf("%s:%d: %w", path, line, perr)
		}
		t.Setups = append(t.Setups, s)
	}
	return nil
}
