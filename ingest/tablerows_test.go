package ingest_test

import (
	"math"
	"path/filepath"
	"testing"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/memory"

	"github.com/benchtrim/benchtrim/ingest"
	"github.com/benchtrim/benchtrim/ingest/ingesttest"
	"github.com/benchtrim/benchtrim/table"
	"github.com/benchtrim/benchtrim/tablefile/tabletest"
)

// badValueTable is one avgt benchmark of 3 forks × 40 iterations whose
// rows 3, 50 and 100 hold NaN, +Inf and a negative time, row 101 a zero
// time, plus a sample-mode benchmark with a zero sample (valid: a coarse
// timer) and a secondary metric row whose value is NaN.
func badValueTable(t *testing.T) *table.Table {
	t.Helper()
	b := table.NewBuilder(memory.NewGoAllocator(), 50)
	defer b.Release()
	add := func(r table.Row) {
		if err := b.Append(&r); err != nil {
			t.Fatal(err)
		}
	}
	for i := 0; i < 120; i++ {
		ns := 100 + float64(i%7)
		switch i + 1 {
		case 3:
			ns = math.NaN()
		case 50:
			ns = math.Inf(1)
		case 100:
			ns = -5
		case 101:
			ns = 0
		}
		add(table.Row{Project: "p", Version: "v1", Benchmark: "b.A", Mode: "avgt", Unit: "ns/op", Value: ns, NsPerOp: ns, Count: 1,
			Instance: 1, Trial: 1, Fork: int32(i/40 + 1), Iteration: int32(i%40 + 1), Slice: 1, Source: "r.json:$[0]", Line: int64(i + 10)})
	}
	add(table.Row{Project: "p", Version: "v1", Benchmark: "b.A", Mode: "avgt", Metric: "gc.alloc.rate", Unit: "MB/sec", Value: math.NaN(), NsPerOp: math.NaN(), Count: 1,
		Instance: 1, Trial: 1, Fork: 1, Iteration: 1, Slice: 1})
	for i := 0; i < 4; i++ {
		add(table.Row{Project: "p", Version: "v1", Benchmark: "b.S", Mode: "sample", Unit: "ns/op", Value: float64(i), NsPerOp: float64(i), Count: 1,
			Instance: 1, Trial: 1, Fork: 1, Iteration: 1, Slice: 1})
	}
	for _, k := range []table.Key{{Project: "p", Version: "v1", Benchmark: "b.A", Mode: "avgt"}, {Project: "p", Version: "v1", Benchmark: "b.S", Mode: "sample"}} {
		if err := b.AddSetup(table.Setup{Key: k, Tool: "jmh", Forks: 3, MeasurementIterations: 40}); err != nil {
			t.Fatal(err)
		}
	}
	return b.Finish()
}

// TestTableFilesScreenBadValues: a canonical table file (.csv, .arrow,
// .parquet) whose rows hold NaN, infinite, negative or zero times reaches
// the analyzers as a result file with those values would: the rows are
// left out and counted by kind, each example naming the file and the row
// (and where the row came from), both when the table is read whole
// (ReadFiles) and when it streams (Stream). Before, they passed as
// "nothing suspicious" and optimize silently used 117 of 120 observations.
func TestTableFilesScreenBadValues(t *testing.T) {
	tab := badValueTable(t)
	defer tab.Release()
	want := []struct{ kind, example string }{
		{"NaN value", ": row 3 (r.json:$[0], line 12): NaN value: ns_per_op NaN"},
		{"infinite value (an iteration with zero operations?)", ": row 50 (r.json:$[0], line 59): infinite value (an iteration with zero operations?): ns_per_op +Inf"},
		{"negative time", ": row 100 (r.json:$[0], line 109): negative time: ns_per_op -5"},
		{"zero time", ": row 101 (r.json:$[0], line 110): zero time: ns_per_op 0"},
		{ingest.KindNonFiniteSecondary, ": row 121: non-finite secondary value: gc.alloc.rate NaN"},
	}
	for _, ext := range []string{".csv", ".arrow", ".parquet"} {
		path := filepath.Join(t.TempDir(), "t"+ext)
		if err := tabletest.WriteFile(path, tab); err != nil {
			t.Fatal(err)
		}
		check := func(mode string, rep *ingest.Summary, rows int64, primary []float64) {
			t.Helper()
			for _, w := range want {
				if got := rep.Count(w.kind); got != 1 {
					t.Errorf("%s %s: %d rows of kind %q, want 1", ext, mode, got, w.kind)
				}
				if ex := ingesttest.Examples(rep, w.kind); ex != path+w.example {
					t.Errorf("%s %s: example %q, want %q", ext, mode, ex, path+w.example)
				}
			}
			if rep.SkippedRows() != len(want) {
				t.Errorf("%s %s: %d rows skipped, want %d:\n%s", ext, mode, rep.SkippedRows(), len(want), ingesttest.ReportText(rep))
			}
			if rows != 120+1+4-5 {
				t.Errorf("%s %s: %d rows, want 120", ext, mode, rows)
			}
			for _, v := range primary {
				if !(v > 0) && v != 0 {
					t.Errorf("%s %s: ns_per_op %v passed", ext, mode, v)
				}
			}
			if len(primary) != 116+4 {
				t.Errorf("%s %s: %d primary rows, want 116 + 4 samples", ext, mode, len(primary))
			}
		}
		mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
		got, rep, _, err := ingest.ReadFiles([]string{path}, ingest.ReadOptions{Allocator: mem})
		if err != nil {
			t.Fatalf("%s: %v", ext, err)
		}
		var primary []float64
		got.Rows(func(r *table.Row) error {
			if r.Metric == table.Primary {
				primary = append(primary, r.NsPerOp)
			}
			return nil
		})
		check("ReadFiles", rep, got.NumRows(), primary)
		got.Release()
		mem.AssertSize(t, 0)

		primary = primary[:0]
		var rows int64
		st, err := ingest.Stream([]string{path}, ingest.ReadOptions{Allocator: memory.NewGoAllocator()}, func(rec arrow.Record) error {
			one := &table.Table{Records: []arrow.Record{rec}}
			return one.Rows(func(r *table.Row) error {
				rows++
				if r.Metric == table.Primary {
					primary = append(primary, r.NsPerOp)
				}
				return nil
			})
		})
		if err != nil {
			t.Fatalf("%s stream: %v", ext, err)
		}
		check("Stream", st.Report, rows, primary)
		if st.Stats.Rows != rows {
			t.Errorf("%s stream: stats count %d rows, the sink saw %d", ext, st.Stats.Rows, rows)
		}
	}
}
