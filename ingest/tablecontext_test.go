package ingest_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/memory"

	"github.com/benchtrim/benchtrim/ingest"
	"github.com/benchtrim/benchtrim/ingest/ingesttest"
	"github.com/benchtrim/benchtrim/table"
	"github.com/benchtrim/benchtrim/tablefile"
	"github.com/benchtrim/benchtrim/tablefile/tabletest"
)

// contextTable is two avgt benchmark runs of 2 forks × 5 iterations in
// us/op, with their setups unless noSetups, plus the rows extra.
func contextTable(t *testing.T, noSetups bool, extra ...table.Row) *table.Table {
	t.Helper()
	b := table.NewBuilder(memory.NewGoAllocator(), 8)
	defer b.Release()
	for _, name := range []string{"b.A", "b.B"} {
		for i := 0; i < 10; i++ {
			r := table.Row{Project: "p", Version: "v1", Benchmark: name, Mode: "avgt", Unit: "us/op", Value: 2 + float64(i%3),
				Count: 1, Instance: 1, Trial: 1, Fork: int32(i/5 + 1), Iteration: int32(i%5 + 1), Slice: 1, Source: "r.json:$[0]", Line: int64(i + 1)}
			r.NsPerOp = r.Value * 1e3
			if err := b.Append(&r); err != nil {
				t.Fatal(err)
			}
		}
		if !noSetups {
			k := table.Key{Project: "p", Version: "v1", Benchmark: name, Mode: "avgt"}
			if err := b.AddSetup(table.Setup{Key: k, Tool: "jmh", Forks: 2, MeasurementIterations: 5, MeasurementTimeNs: 1e9, Threads: 1}); err != nil {
				t.Fatal(err)
			}
		}
	}
	for _, r := range extra {
		if err := b.Append(&r); err != nil {
			t.Fatal(err)
		}
	}
	return b.Finish()
}

// readBoth reads path with ReadFiles and with Stream and returns both
// reports and errors.
func readBoth(t *testing.T, path string) (reps [2]*ingest.Summary, errs [2]error) {
	t.Helper()
	got, rep, _, err := ingest.ReadFiles([]string{path}, ingest.ReadOptions{Allocator: memory.NewGoAllocator()})
	if got != nil {
		got.Release()
	}
	reps[0], errs[0] = rep, err
	st, err := ingest.Stream([]string{path}, ingest.ReadOptions{Allocator: memory.NewGoAllocator()}, func(arrow.Record) error { return nil })
	if st != nil {
		reps[1] = st.Report
	}
	errs[1] = err
	return reps, errs
}

// TestTableWithoutSetups reads canonical tables that lost their setups: a
// .csv without its sidecar, and .csv, .parquet and .arrow files written
// without setups (a Parquet file whose key-value metadata was stripped):
// each is an error naming the file and where the setups belong, whole and
// streamed (issue 47, class 3: they were analysed with every run's time
// per iteration assumed).
func TestTableWithoutSetups(t *testing.T) {
	dir := t.TempDir()
	with, without := contextTable(t, false), contextTable(t, true)
	defer with.Release()
	defer without.Release()
	csvPath := filepath.Join(dir, "t.csv")
	if err := tabletest.WriteFile(csvPath, with); err != nil {
		t.Fatal(err)
	}
	if _, errs := readBoth(t, csvPath); errs[0] != nil || errs[1] != nil {
		t.Fatalf("with its sidecar: %v", errs)
	}
	if err := os.Remove(tablefile.SetupsSidecar(csvPath)); err != nil {
		t.Fatal(err)
	}
	cases := map[string]string{csvPath: "its sidecar " + tablefile.SetupsSidecar(csvPath) + ", which is missing"}
	for _, ext := range []string{".parquet", ".arrow"} {
		p := filepath.Join(dir, "stripped"+ext)
		if err := tabletest.WriteFile(p, without); err != nil {
			t.Fatal(err)
		}
		cases[p] = "metadata benchtrim.setups"
	}
	for p, where := range cases {
		_, errs := readBoth(t, p)
		for i, err := range errs {
			if err == nil || !strings.HasPrefix(err.Error(), p+": none of its 2 benchmark runs has a setup") || !strings.Contains(err.Error(), where) {
				t.Errorf("%s (%s): error %v, want one naming the file and %q", p, []string{"ReadFiles", "Stream"}[i], err, where)
			}
		}
	}
	// A sidecar of another table: the runs of this one have none.
	other := contextTable(t, false)
	other.Setups = other.Setups[:1]
	part := filepath.Join(dir, "part.parquet")
	if err := tabletest.WriteFile(part, other); err != nil {
		t.Fatal(err)
	}
	other.Release()
	if _, errs := readBoth(t, part); errs[0] == nil || !strings.Contains(errs[0].Error(), "1 of 2 benchmark runs have no setup (the first: p@v1 b.B (avgt))") {
		t.Errorf("one setup of two: %v", errs[0])
	}
}

// TestTableRowsNoReaderWrites reads table files holding a second row at
// an earlier row's position with another value, an exact copy of a row,
// and primary rows whose ns_per_op is not value × unit (a time per op, and
// a throughput with 1.5 threads): each is left out and counted with its
// row, whole and streamed (issue 47, class 3: such rows were used
// silently). Sample mode's rows at one position, a histogram, pass
// (TestTableFilesScreenBadValues).
func TestTableRowsNoReaderWrites(t *testing.T) {
	row := func(name string, fork, it int32, value, ns float64, unit string) table.Row {
		return table.Row{Project: "p", Version: "v1", Benchmark: name, Mode: "avgt", Unit: unit, Value: value, NsPerOp: ns,
			Count: 1, Instance: 1, Trial: 1, Fork: fork, Iteration: it, Slice: 1}
	}
	thr := row("b.T", 1, 1, 4, 1e9/4, "ops/s")
	thr.Mode = "thrpt"
	thrBad := row("b.T", 1, 2, 4, 1.5*1e9/4, "ops/s")
	thrBad.Mode = "thrpt"
	tab := contextTable(t, false,
		row("b.A", 2, 3, 7, 7000, "us/op"), // row 21: b.A fork 2 iteration 3 again, another value
		row("b.B", 1, 1, 2, 2000, "us/op"), // row 22: a copy of b.B's first row
		row("b.B", 2, 6, 3, 3500, "us/op"), // row 23: 3 us/op is 3000 ns
		thr, thrBad)                        // rows 24, 25
	defer tab.Release()
	tab.Setups = append(tab.Setups, table.Setup{Key: table.Key{Project: "p", Version: "v1", Benchmark: "b.T", Mode: "thrpt"}, Tool: "jmh"})
	want := map[string][]string{
		ingest.KindDuplicateTableRow: {": row 21: duplicate row in a table file: p@v1 b.A (avgt) metric primary instance 1 trial 1 fork 2 iteration 3 slice 1 is already in the file",
			": row 22: duplicate row in a table file: p@v1 b.B (avgt) metric primary instance 1 trial 1 fork 1 iteration 1 slice 1 is already in the file"},
		ingest.KindNsPerOpMismatch: {": row 23: ns_per_op disagrees with value and unit: ns_per_op 3500, value 3 us/op",
			": row 25: ns_per_op disagrees with value and unit: ns_per_op 3.75e+08, value 4 ops/s"},
	}
	for _, ext := range []string{".csv", ".parquet", ".arrow"} {
		path := filepath.Join(t.TempDir(), "t"+ext)
		if err := tabletest.WriteFile(path, tab); err != nil {
			t.Fatal(err)
		}
		reps, errs := readBoth(t, path)
		for i, rep := range reps {
			mode := []string{"ReadFiles", "Stream"}[i]
			if errs[i] != nil {
				t.Fatalf("%s %s: %v", ext, mode, errs[i])
			}
			for kind, examples := range want {
				if got := rep.Count(kind); got != len(examples) {
					t.Errorf("%s %s: %d rows of kind %q, want %d\n%s", ext, mode, got, kind, len(examples), ingesttest.ReportText(rep))
				}
				ex := ingesttest.Examples(rep, kind)
				for _, e := range examples {
					if !strings.Contains(ex, path+e) {
						t.Errorf("%s %s: examples lack %q:\n%s", ext, mode, path+e, ex)
					}
				}
			}
			if rep.SkippedRows() != 4 {
				t.Errorf("%s %s: %d rows skipped, want 4", ext, mode, rep.SkippedRows())
			}
		}
	}
}
