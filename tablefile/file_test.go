package tablefile

import (
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/apache/arrow/go/v15/parquet"
	"github.com/apache/arrow/go/v15/parquet/compress"
	"github.com/apache/arrow/go/v15/parquet/pqarrow"
	"github.com/benchtrim/benchtrim/table"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/memory"
)

// sampleRows covers every column, non-finite values, a histogram iteration,
// rows out of level order, timestamps and pair labels.
func sampleRows() []table.Row {
	return []table.Row{
		{Project: "p", Version: "v1", Benchmark: "b.A", Params: "n=1", Mode: "avgt", Unit: "us/op", Value: 1.5, NsPerOp: 1500, Count: 1, Fork: 2, Iteration: 1, Source: "f.json:$[0]", Line: 40},
		{Project: "p", Version: "v1", Benchmark: "b.A", Params: "n=1", Mode: "avgt", Unit: "us/op", Value: 1.25, NsPerOp: 1250, Count: 1, Fork: 1, Iteration: 2, Source: "f.json:$[0]", Line: 38},
		{Project: "p", Version: "v1", Benchmark: "b.A", Params: "n=1", Mode: "avgt", Unit: "us/op", Value: math.Inf(1), NsPerOp: math.Inf(1), Count: 1, Fork: 1, Iteration: 1, Source: "f.json:$[0]", Line: 37},
		{Project: "p", Version: "v1", Benchmark: "b.A", Params: "n=1", Mode: "avgt", Metric: "gc.alloc.rate", Unit: "MB/sec", Value: 12, NsPerOp: math.NaN(), Count: 1, Fork: 1, Iteration: 1},
		{Project: "p", Version: "v1", Benchmark: "b.S", Mode: "sample", Unit: "ms/op", Value: 0.017824, NsPerOp: 17824, Count: 12, Iteration: 1, Warmup: false, StartNs: 10, EndNs: 20, HasTime: true, Pair: "A"},
		{Project: "p", Version: "v1", Benchmark: "b.S", Mode: "sample", Unit: "ms/op", Value: 0.017856, NsPerOp: 17856, Count: 3, Iteration: 1, StartNs: 10, EndNs: 20, HasTime: true, Pair: "A"},
		{Project: "p", Version: "v1", Benchmark: "b.S", Mode: "sample", Unit: "ms/op", Value: 0.02, NsPerOp: 20000, Count: 1, Iteration: 2, Pair: "B", Warmup: true},
	}
}

func buildSample(t *testing.T, mem memory.Allocator, batch int) *table.Table {
	t.Helper()
	b := table.NewBuilder(mem, batch)
	defer b.Release()
	for _, r := range sampleRows() {
		r := r
		b.Append(&r)
	}
	if err := b.AddSetup(table.Setup{Key: table.Key{Project: "p", Version: "v1", Benchmark: "b.A", Params: "n=1", Mode: "avgt"}, Tool: "jmh", ToolVersion: "1.37", Forks: 2, WarmupIterations: 5, WarmupTimeNs: 1e9, Env: map[string]string{"jvm": "/usr/bin/java"}, Source: "f.json:$[0]"}); err != nil {
		t.Fatal(err)
	}
	if err := b.AddSetup(table.Setup{Key: table.Key{Project: "p", Version: "v1", Benchmark: "b.A", Params: "n=1", Mode: "avgt"}, MeasurementIterations: 2, Source: "f.json:$[0]"}); err != nil {
		t.Fatalf("compatible setup rejected: %v", err)
	}
	if err := b.AddSetup(table.Setup{Key: table.Key{Project: "p", Version: "v1", Benchmark: "b.A", Params: "n=1", Mode: "avgt"}, Forks: 3, Source: "g.json:$[4]"}); err == nil || !strings.Contains(err.Error(), "forks 2 vs 3") {
		t.Errorf("conflicting setup: err = %v, want mixed setups forks 2 vs 3", err)
	}
	// A go test name whose key=value part moved into params keeps its
	// printed form; another printed name for the same key conflicts.
	if err := b.AddSetup(table.Setup{Key: table.Key{Project: "p", Version: "v1", Benchmark: "b.S", Params: "", Mode: "sample"}, Name: "b.S/n=2/x,y", Tool: "go", Source: "g.txt:3"}); err != nil {
		t.Fatal(err)
	}
	if err := b.AddSetup(table.Setup{Key: table.Key{Project: "p", Version: "v1", Benchmark: "b.S", Params: "", Mode: "sample"}, Name: "b.S/x,y/n=2", Source: "g.txt:9"}); err == nil || !strings.Contains(err.Error(), "name b.S/n=2/x,y vs b.S/x,y/n=2") {
		t.Errorf("conflicting name: err = %v, want mixed setups name … vs …", err)
	}
	return b.Finish()
}

// TestSetupsSidecarWithoutName: a setups sidecar written before
// Setup.Name (no name column) still reads, with the names empty; one with
// the column reads its names.
func TestSetupsSidecarWithoutName(t *testing.T) {
	v1 := strings.Join(setupsHeaderV1, ",") + "\n" + "p,v1,b.A,n=1,avgt,jmh,1.37,2,5,1000000000,0,0,false,0,0,0,0,0,0,jvm=/usr/bin/java,f.json:$[0]\n"
	got, err := readSetupsCSV(strings.NewReader(v1), "old.setups.csv")
	if err != nil {
		t.Fatal(err)
	}
	want := []table.Setup{{Key: table.Key{Project: "p", Version: "v1", Benchmark: "b.A", Params: "n=1", Mode: "avgt"}, Tool: "jmh", ToolVersion: "1.37", Forks: 2, WarmupIterations: 5, WarmupTimeNs: 1e9,
		Env: map[string]string{"jvm": "/usr/bin/java"}, Source: "f.json:$[0]"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("old sidecar: %+v, want %+v", got, want)
	}
	v2 := strings.Join(setupsHeader, ",") + "\n" + "p,v1,BenchmarkSum/slow,n=1000,go,go,,1,0,0,0,0,false,0,0,0,0,0,0,,g.txt:4,BenchmarkSum/n=1000/slow\n"
	if got, err = readSetupsCSV(strings.NewReader(v2), "new.setups.csv"); err != nil || len(got) != 1 || got[0].Name != "BenchmarkSum/n=1000/slow" {
		t.Errorf("sidecar with names: %+v, %v", got, err)
	}
	bad := "project,version\n"
	if _, err := readSetupsCSV(strings.NewReader(bad), "bad.setups.csv"); err == nil || !strings.Contains(err.Error(), "bad.setups.csv:1: header is") {
		t.Errorf("bad header: %v", err)
	}
}

func rowsOf(t *testing.T, tab *table.Table) []table.Row {
	t.Helper()
	var out []table.Row
	tab.Rows(func(r *table.Row) error { out = append(out, *r); return nil })
	return out
}

// sameRows compares rows treating NaN as equal to NaN.
func sameRows(a, b []table.Row) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		x, y := a[i], b[i]
		if x.Metric == "" {
			x.Metric = table.Primary
		}
		if y.Metric == "" {
			y.Metric = table.Primary
		}
		if math.IsNaN(x.NsPerOp) && math.IsNaN(y.NsPerOp) {
			x.NsPerOp, y.NsPerOp = 0, 0
		}
		if x.Instance == 0 {
			x.Instance, x.Trial, x.Slice = 1, 1, 1
		}
		if y.Instance == 0 {
			y.Instance, y.Trial, y.Slice = 1, 1, 1
		}
		if x.Iteration == 0 {
			x.Iteration = 1
		}
		if x.Fork == 0 {
			x.Fork = 1
		}
		if !reflect.DeepEqual(x, y) {
			return false
		}
	}
	return true
}

func TestRoundTrip(t *testing.T) {
	for _, tc := range []struct {
		ext string
		opt WriteOptions
	}{
		{".arrow", WriteOptions{}}, {".arrow", WriteOptions{ArrowCompression: "zstd"}},
		{".parquet", WriteOptions{}}, {".parquet", WriteOptions{ParquetCompression: "zstd"}}, {".parquet", WriteOptions{ParquetCompression: "none"}},
		{".csv", WriteOptions{}},
	} {
		ext := tc.ext
		t.Run(ext+tc.opt.ArrowCompression+tc.opt.ParquetCompression, func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			defer mem.AssertSize(t, 0)
			tab := buildSample(t, mem, 3) // several batches
			defer tab.Release()
			if len(tab.Records) != 3 {
				t.Errorf("records = %d, want 3 batches of <= 3 rows", len(tab.Records))
			}
			path := filepath.Join(t.TempDir(), "out"+ext)
			if err := writeTable(path, tab, tc.opt); err != nil {
				t.Fatal(err)
			}
			if ext == ".csv" {
				// +Inf as inf, the spelling DuckDB's sniffer reads as a double.
				if b, err := os.ReadFile(path); err != nil || !strings.Contains(string(b), ",inf,inf,") || strings.Contains(string(b), "Inf") {
					t.Errorf("the CSV should spell +Inf inf (err %v):\n%s", err, b)
				}
			}
			back, err := ReadFile(path, mem)
			if err != nil {
				t.Fatal(err)
			}
			defer back.Release()
			want, got := rowsOf(t, tab), rowsOf(t, back)
			if !sameRows(want, got) {
				t.Errorf("rows differ after round trip\nwant %+v\ngot  %+v", want, got)
			}
			if !reflect.DeepEqual(tab.Setups, back.Setups) {
				t.Errorf("setups differ\nwant %+v\ngot  %+v", tab.Setups, back.Setups)
			}
			// ScanFileShard hands on the same rows, record by record, and
			// the same setups; it leaks nothing.
			var scanned table.Table
			setups, err := ScanFileShard(path, mem, nil, func(rec arrow.Record) error {
				rec.Retain()
				scanned.Records = append(scanned.Records, rec)
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			if got := rowsOf(t, &scanned); !sameRows(want, got) || !reflect.DeepEqual(setups, back.Setups) {
				t.Errorf("ScanFile: rows or setups differ from ReadFile's\nwant %+v\ngot  %+v", want, got)
			}
			scanned.Release()
			s := back.Setup(table.Key{Project: "p", Version: "v1", Benchmark: "b.A", Params: "n=1", Mode: "avgt"})
			if s == nil || s.Forks != 2 || s.MeasurementIterations != 2 || s.Env["jvm"] != "/usr/bin/java" {
				t.Errorf("merged setup = %+v", s)
			}
		})
	}
}

func TestReadCSVErrorsNameTheLine(t *testing.T) {
	mem := memory.NewGoAllocator()
	tab := buildSample(t, mem, 0)
	defer tab.Release()
	path := filepath.Join(t.TempDir(), "t.csv")
	if err := writeTable(path, tab, WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(path)
	lines := strings.Split(string(data), "\n")
	lines[2] = strings.Replace(lines[2], ",1.25,", ",one,", 1)
	os.WriteFile(path, []byte(strings.Join(lines, "\n")), 0o644)
	_, err := ReadFile(path, mem)
	if err == nil || !strings.Contains(err.Error(), "t.csv:3: column value") {
		t.Errorf("err = %v, want t.csv:3: column value …", err)
	}
}

// TestReadParquetOfOtherWriters writes a table with Arrow's pqarrow writer
// (the stored Arrow schema, its metadata and the setups, as a tool that
// rewrote a benchtrim table with Arrow would) in layouts benchtrim's own
// writer does not use: plain and dictionary pages, data pages v2, small
// pages, several row groups, each codec. ReadFile (parquetio.Column)
// must give the rows and setups of the table.
func TestReadParquetOfOtherWriters(t *testing.T) {
	mem := memory.NewGoAllocator()
	tab := buildSample(t, mem, 4)
	defer tab.Release()
	sch, err := schemaWithMetadata(tab)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		props []parquet.WriterProperty
	}{
		{"dictionary", nil},
		{"plain-v2-zstd", []parquet.WriterProperty{parquet.WithDictionaryDefault(false), parquet.WithDataPageVersion(parquet.DataPageV2), parquet.WithCompression(compress.Codecs.Zstd)}},
		{"small-pages-snappy", []parquet.WriterProperty{parquet.WithDataPageSize(64), parquet.WithMaxRowGroupLength(3), parquet.WithCompression(compress.Codecs.Snappy)}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "t.parquet")
			f, err := os.Create(path)
			if err != nil {
				t.Fatal(err)
			}
			w, err := pqarrow.NewFileWriter(sch, f, parquet.NewWriterProperties(tc.props...), pqarrow.NewArrowWriterProperties(pqarrow.WithStoreSchema()))
			if err != nil {
				t.Fatal(err)
			}
			for _, rec := range tab.Records {
				if err := w.Write(rec); err != nil {
					t.Fatal(err)
				}
			}
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
			back, err := ReadFile(path, mem)
			if err != nil {
				t.Fatal(err)
			}
			defer back.Release()
			if want, got := rowsOf(t, tab), rowsOf(t, back); !sameRows(want, got) {
				t.Errorf("rows differ\nwant %+v\ngot  %+v", want, got)
			}
			if !reflect.DeepEqual(tab.Setups, back.Setups) {
				t.Errorf("setups %+v, want %+v", back.Setups, tab.Setups)
			}
		})
	}
}

// writeTable writes t to path through Stream with opt: the one path that
// writes table files (the CLI's ingest streams its records the same way).
func writeTable(path string, t *table.Table, opt WriteOptions) error {
	return Stream(path, opt, func(write func(arrow.Record) error) ([]table.Setup, error) {
		for _, r := range t.Records {
			if err := write(r); err != nil {
				return nil, err
			}
		}
		return t.Setups, nil
	})
}

// tableBytes is the file writeTable writes of t as ext (".arrow",
// ".parquet", ".csv") in dir, and for .csv its setups sidecar.
func tableBytes(dir string, t *table.Table, ext string) (file, setups []byte, err error) {
	path := filepath.Join(dir, "t"+ext)
	if err := writeTable(path, t, WriteOptions{}); err != nil {
		return nil, nil, err
	}
	if file, err = os.ReadFile(path); err != nil || ext != ".csv" {
		return file, nil, err
	}
	setups, err = os.ReadFile(SetupsSidecar(path))
	return file, setups, err
}
