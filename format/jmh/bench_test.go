package jmh

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/apache/arrow/go/v15/arrow/memory"

	"github.com/benchtrim/benchtrim/ingest"
	"github.com/benchtrim/benchtrim/internal/testenv"
	"github.com/benchtrim/benchtrim/synth"
	"github.com/benchtrim/benchtrim/table"
)

// sampleSize is one generated sample-mode file for the benchmarks.
type sampleSize struct {
	name                  string
	benchmarks, paramVals int
	minBytes              int64
}

// sampleSizes: ~1 MB, ~20 MB and ≥ 200 MB of JMH SampleTime JSON
// (3 forks × 100 iterations, up to 1000 samples per iteration).
var sampleSizes = []sampleSize{
	{"1MB", 1, 0, 0},
	{"20MB", 3, 2, 0},
	{"200MB", 56, 2, 200e6},
}

func sampleConfig(sz sampleSize) synth.SuiteConfig {
	cfg := synth.DefaultSuiteConfig()
	cfg.Mode = "sample"
	cfg.Unit = "us/op"
	cfg.Benchmarks = sz.benchmarks
	cfg.Forks = 3
	cfg.Iterations = 100
	if sz.paramVals == 0 {
		cfg.Params = nil
		cfg.Iterations = 50
	} else {
		cfg.Params = []synth.ParamAxis{{Name: "size", Values: []string{"16", "1024", "65536"}[:sz.paramVals]}}
	}
	cfg.Seed = 7
	return cfg
}

var benchFiles struct {
	sync.Mutex
	dir   string
	paths map[string]string
}

func TestMain(m *testing.M) {
	code := m.Run()
	if benchFiles.dir != "" {
		os.RemoveAll(benchFiles.dir)
	}
	os.Exit(code)
}

// sampleFile writes the file of sz once per process (into a temporary
// directory removed by TestMain) and returns its path and size. It runs
// only inside the benchmark that needs it, so the 200 MB file is only
// generated when that benchmark is selected.
func sampleFile(b *testing.B, sz sampleSize) (string, int64) {
	b.Helper()
	benchFiles.Lock()
	defer benchFiles.Unlock()
	if benchFiles.dir == "" {
		dir, err := os.MkdirTemp("", "benchtrim-jmh-bench-")
		if err != nil {
			b.Fatal(err)
		}
		benchFiles.dir, benchFiles.paths = dir, map[string]string{}
	}
	path, ok := benchFiles.paths[sz.name]
	if !ok {
		path = filepath.Join(benchFiles.dir, "sample-"+sz.name+".json")
		f, err := os.Create(path)
		if err != nil {
			b.Fatal(err)
		}
		w := bufio.NewWriterSize(f, 1<<20)
		s, err := synth.NewSuite(sampleConfig(sz))
		if err != nil {
			b.Fatal(err)
		}
		if err := s.WriteJMH(w); err != nil {
			b.Fatal(err)
		}
		if err := w.Flush(); err != nil {
			b.Fatal(err)
		}
		if err := f.Close(); err != nil {
			b.Fatal(err)
		}
		benchFiles.paths[sz.name] = path
	}
	fi, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	if fi.Size() < sz.minBytes {
		b.Fatalf("%s is %d bytes, want ≥ %d", path, fi.Size(), sz.minBytes)
	}
	return path, fi.Size()
}

// heapSampler records the peak of the Go heap's object bytes (live and not
// yet swept, i.e. runtime.MemStats.HeapAlloc) above a baseline, polling
// runtime/metrics (no stop-the-world) every 500 µs.
type heapSampler struct {
	base, peak atomic.Uint64
	stop       chan struct{}
	done       sync.WaitGroup
}

const heapObjects = "/memory/classes/heap/objects:bytes"

func heapNow() uint64 {
	s := []metrics.Sample{{Name: heapObjects}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

func startHeapSampler() *heapSampler {
	runtime.GC()
	h := &heapSampler{stop: make(chan struct{})}
	h.base.Store(heapNow())
	h.peak.Store(h.base.Load())
	h.done.Add(1)
	go func() {
		defer h.done.Done()
		t := time.NewTicker(500 * time.Microsecond)
		defer t.Stop()
		for {
			select {
			case <-h.stop:
				return
			case <-t.C:
				if v := heapNow(); v > h.peak.Load() {
					h.peak.Store(v)
				}
			}
		}
	}()
	return h
}

// stopMB stops sampling and returns the peak above the baseline in MB.
func (h *heapSampler) stopMB() float64 {
	if v := heapNow(); v > h.peak.Load() {
		h.peak.Store(v)
	}
	close(h.stop)
	h.done.Wait()
	return float64(h.peak.Load()-h.base.Load()) / 1e6
}

// arrowBytes is the size of the table's Arrow buffers (sum of buffer lengths).
func arrowBytes(t *table.Table) int64 {
	var n int64
	for _, rec := range t.Records {
		for _, col := range rec.Columns() {
			for _, buf := range col.Data().Buffers() {
				if buf != nil {
					n += int64(buf.Len())
				}
			}
		}
	}
	return n
}

// BenchmarkReadSampleJSON measures Format.Read on generated sample-mode
// JMH JSON (synth) read from a file: MB/s (b.SetBytes, wall
// clock), cpu-MB/s (bytes per second of process CPU time, user + system,
// GC included: steadier than wall time on a shared machine), rows/s, the
// peak heap above the baseline during one read (peak-heap-MB, which
// includes the table, since Arrow's Go allocator uses the Go heap), the
// Arrow table's buffer bytes (arrow-MB) and their ratio.
//
//	go test -run '^$' -bench ReadSampleJSON -benchtime 3x ./format/jmh/
func BenchmarkReadSampleJSON(b *testing.B) { benchmarkSample(b, true) }

// BenchmarkParseSampleJSON is BenchmarkReadSampleJSON with rows counted
// instead of appended to a table.Builder: the cost of parsing alone.
func BenchmarkParseSampleJSON(b *testing.B) { benchmarkSample(b, false) }

func benchmarkSample(b *testing.B, build bool) {
	for _, sz := range sampleSizes {
		b.Run(sz.name, func(b *testing.B) {
			path, size := sampleFile(b, sz)
			b.SetBytes(size)
			b.ReportAllocs()
			var rows, arrow int64
			peak, cpu := 0.0, 0.0
			b.ResetTimer()
			b.StopTimer()
			for i := 0; i < b.N; i++ {
				f, err := os.Open(path)
				if err != nil {
					b.Fatal(err)
				}
				h := startHeapSampler()
				cpu0 := testenv.CPUSeconds()
				b.StartTimer()
				bld := table.NewBuilder(memory.NewGoAllocator(), 0)
				rep := &ingest.Summary{}
				src := ingest.Source{File: path, Project: "bench", Version: "v1"}
				var counted int64
				if build {
					err = format{}.Read(f, src, bld, rep)
				} else {
					err = readJMH(f, src, bld, (*rowCounter)(&counted), rep)
				}
				tb := bld.Finish()
				b.StopTimer()
				cpu += testenv.CPUSeconds() - cpu0
				peak = max(peak, h.stopMB())
				f.Close()
				if err != nil {
					b.Fatal(err)
				}
				rows, arrow = tb.NumRows()+counted, arrowBytes(tb)
				tb.Release()
				bld.Release()
			}
			b.ReportMetric(float64(size)*float64(b.N)/cpu/1e6, "cpu-MB/s")
			b.ReportMetric(float64(rows)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
			b.ReportMetric(peak, "peak-heap-MB")
			b.ReportMetric(float64(size)/float64(rows), "json-B/row")
			if build {
				b.ReportMetric(float64(arrow)/1e6, "arrow-MB")
				b.ReportMetric(peak/(float64(arrow)/1e6), "heap/arrow")
			}
		})
	}
}

// BenchmarkEncodingJSONTree is the baseline: encoding/json decoding the same
// files into a generic tree ([]any), with the same heap measurement.
//
//	go test -run '^$' -bench EncodingJSONTree -benchtime 3x ./format/jmh/
func BenchmarkEncodingJSONTree(b *testing.B) {
	for _, sz := range sampleSizes {
		b.Run(sz.name, func(b *testing.B) {
			path, size := sampleFile(b, sz)
			b.SetBytes(size)
			b.ReportAllocs()
			peak, cpu := 0.0, 0.0
			b.ResetTimer()
			b.StopTimer()
			for i := 0; i < b.N; i++ {
				f, err := os.Open(path)
				if err != nil {
					b.Fatal(err)
				}
				h := startHeapSampler()
				cpu0 := testenv.CPUSeconds()
				b.StartTimer()
				var tree []any
				err = json.NewDecoder(bufio.NewReaderSize(f, 1<<20)).Decode(&tree)
				b.StopTimer()
				cpu += testenv.CPUSeconds() - cpu0
				peak = max(peak, h.stopMB())
				f.Close()
				if err != nil || len(tree) == 0 {
					b.Fatal(err, len(tree))
				}
				runtime.KeepAlive(tree)
			}
			b.ReportMetric(float64(size)*float64(b.N)/cpu/1e6, "cpu-MB/s")
			b.ReportMetric(peak, "peak-heap-MB")
		})
	}
}

// TestSynthFiles ingests synthetic sample and avgt files (with params and
// -prof gc secondaries) and compares them with the independent count.
func TestSynthFiles(t *testing.T) {
	for _, mode := range []string{"sample", "avgt", "thrpt"} {
		t.Run(mode, func(t *testing.T) {
			cfg := synth.DefaultSuiteConfig()
			cfg.Mode = mode
			cfg.Unit = ""
			cfg.Benchmarks = 2
			cfg.Iterations = 12
			cfg.Threads = 2
			cfg.Seed = 3
			s, err := synth.NewSuite(cfg)
			if err != nil {
				t.Fatal(err)
			}
			var buf bytes.Buffer
			if err := s.WriteJMH(&buf); err != nil {
				t.Fatal(err)
			}
			data := buf.Bytes()
			res := read(t, "synth.json", bytes.NewReader(data))
			if res.err != nil {
				t.Fatal(res.err)
			}
			tree := treeOf(t, data)
			if len(tree) != 4 {
				t.Fatalf("%d records, want 4 (2 methods × 2 params)", len(tree))
			}
			checkAgainstTree(t, res, tree)
			if res.rep.SkippedRows() != 0 {
				t.Errorf("skipped rows:\n%s", reportString(res.rep))
			}
			for _, s := range res.setups {
				if s.Forks != cfg.Forks || s.MeasurementIterations != cfg.Iterations || s.Threads != 2 || s.ToolVersion != cfg.JMHVersion {
					t.Errorf("setup %+v, want forks %d, %d iterations, threads 2", s, cfg.Forks, cfg.Iterations)
				}
			}
		})
	}
}

// ExampleFormat shows the rows of a small file read with Format().Read.
func ExampleFormat() {
	doc := `[ {
        "benchmark" : "org.example.Bench.parse",
        "mode" : "thrpt",
        "threads" : 2,
        "forks" : 1,
        "primaryMetric" : { "scoreUnit" : "ops/ms", "rawData" : [ [ 2000.0, "NaN", 4.0E3 ] ] },
        "secondaryMetrics" : { }
    } ]`
	b := table.NewBuilder(memory.NewGoAllocator(), 0)
	defer b.Release()
	rep := &ingest.Summary{}
	if err := Format().Read(bytes.NewReader([]byte(doc)), ingest.Source{File: "x.json"}, b, rep); err != nil {
		fmt.Println(err)
		return
	}
	tb := b.Finish()
	defer tb.Release()
	tb.Rows(func(r *table.Row) error {
		fmt.Printf("fork %d iteration %d: %v %s = %v ns/op (line %d)\n", r.Fork, r.Iteration, r.Value, r.Unit, r.NsPerOp, r.Line)
		return nil
	})
	rep.WriteTo(os.Stdout)
	// Output:
	// fork 1 iteration 1: 2000 ops/ms = 1000 ns/op (line 6)
	// fork 1 iteration 3: 4000 ops/ms = 500 ns/op (line 6)
	// skipped 1: NaN value
	//     x.json:6: $[0].primaryMetric.rawData[0][1]: NaN value: NaN ops/ms
}

// rowCounter counts the rows it is given instead of building a table.
type rowCounter int64

func (c *rowCounter) AppendValues(_ *table.Row, v *table.Values) (int, error) {
	*c += rowCounter(v.Len())
	return -1, nil
}
