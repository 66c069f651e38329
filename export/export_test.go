package export

import (
	"bytes"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/apache/arrow/go/v15/arrow/memory"

	"github.com/benchtrim/benchtrim/ingest"
	_ "github.com/benchtrim/benchtrim/ingest/formats"
	"github.com/benchtrim/benchtrim/internal/testenv"
	"github.com/benchtrim/benchtrim/table"
)

// sharedData returns ../shared/data/<sub> or skips the test.
func sharedData(t *testing.T, sub string) string {
	t.Helper()
	return testenv.Shared(t, "data", sub)
}

type obs struct {
	key        string
	ns         float64
	count      int64
	fork, iter int32
}

// observations lists every primary row as (key, ns/op, count), sorted, and
// with levels when withLevels.
func observations(tab *table.Table, withLevels bool) []obs {
	var out []obs
	for _, s := range table.Collect(tab, table.Filter{}) {
		for i := 0; i < s.Len(); i++ {
			o := obs{key: s.Benchmark + "|" + s.Params + "|" + s.Mode + "|" + s.Version, ns: s.NsPerOp[i], count: s.Count[i]}
			if withLevels {
				o.fork, o.iter = s.Levels[table.LevelFork][i], s.Levels[table.LevelIteration][i]
			}
			out = append(out, o)
		}
	}
	sortObs(out)
	return out
}

// iterationObs lists every primary iteration as (key, ns/op, count) the way
// pa and gobench export them: the slices of an iteration merged into one
// observation with count Σ count and the count-weighted mean ns/op.
func iterationObs(tab *table.Table, withLevels bool) []obs {
	var out []obs
	for _, s := range table.Collect(tab, table.Filter{}) {
		for _, sp := range s.Units(table.LevelIteration) {
			o := obs{key: s.Benchmark + "|" + s.Params + "|" + s.Mode + "|" + s.Version}
			var sum float64
			for i := sp.Start; i < sp.End; i++ {
				sum += s.NsPerOp[i] * float64(s.Count[i])
				o.count += s.Count[i]
			}
			o.ns = sum / float64(o.count)
			if sp.End-sp.Start == 1 {
				o.ns = s.NsPerOp[sp.Start]
			}
			if withLevels {
				o.fork, o.iter = s.Levels[table.LevelFork][sp.Start], s.Levels[table.LevelIteration][sp.Start]
			}
			out = append(out, o)
		}
	}
	sortObs(out)
	return out
}

func sortObs(out []obs) {
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.key != b.key {
			return a.key < b.key
		}
		if a.fork != b.fork || a.iter != b.iter {
			return a.fork < b.fork || a.fork == b.fork && a.iter < b.iter
		}
		if a.ns != b.ns {
			return a.ns < b.ns
		}
		return a.count < b.count
	})
}

func read(t *testing.T, paths ...string) *table.Table {
	t.Helper()
	tab, _, _, err := ingest.ReadFiles(paths, ingest.ReadOptions{Allocator: memory.DefaultAllocator})
	if err != nil {
		t.Fatal(err)
	}
	return tab
}

func sameObs(t *testing.T, what string, want, got []obs, relTol float64) {
	t.Helper()
	if len(want) != len(got) {
		t.Fatalf("%s: %d rows after the round trip, want %d", what, len(got), len(want))
	}
	for i := range want {
		w, g := want[i], got[i]
		if w.key != g.key || w.count != g.count || w.fork != g.fork || w.iter != g.iter || (g.ns-w.ns) > relTol*w.ns || (w.ns-g.ns) > relTol*w.ns {
			t.Fatalf("%s: row %d = %+v, want %+v", what, i, g, w)
		}
	}
}

// TestPARoundTripOfRealJMH converts the real JMH files to pa CSV, as bencher
// does, and reads them back with the pa reader: every primary row returns
// with its levels, count and value.
func TestPARoundTripOfRealJMH(t *testing.T) {
	dir := sharedData(t, "jmh")
	files, _ := filepath.Glob(filepath.Join(dir, "*.json"))
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			tab := read(t, f)
			defer tab.Release()
			var buf bytes.Buffer
			if err := WritePA(&buf, tab); err != nil {
				if strings.Contains(err.Error(), "pa cannot read") {
					t.Skip(err)
				}
				t.Fatal(err)
			}
			out := filepath.Join(t.TempDir(), "x.csv")
			os.WriteFile(out, buf.Bytes(), 0o644)
			back := read(t, out)
			defer back.Release()
			want := observations(tab, true)
			if len(want) == 0 {
				t.Fatal("no rows")
			}
			// pa has no thread count: throughput runs with threads > 1 normalise differently.
			if s := tab.Setups; len(s) > 0 && s[0].Threads > 1 && s[0].Mode == "thrpt" {
				t.Skip("throughput with threads > 1: pa does not record threads")
			}
			sameObs(t, "pa", want, observations(back, true), 1e-12)
		})
	}
}

// TestGoBenchRoundTripOfRealUOpTime converts the real µOpTime CSVs to go
// test -bench text (each iteration one result line, its one-second slices
// merged: N = Σ n, ns/op the n-weighted mean) and reads them back: every
// iteration returns with that N and ns/op.
func TestGoBenchRoundTripOfRealUOpTime(t *testing.T) {
	dir := sharedData(t, "uoptime-go")
	files, _ := filepath.Glob(filepath.Join(dir, "*.csv"))
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			tab := read(t, f)
			defer tab.Release()
			var buf bytes.Buffer
			if err := WriteGoBench(&buf, tab); err != nil {
				t.Fatal(err)
			}
			out := filepath.Join(t.TempDir(), strings.TrimSuffix(filepath.Base(f), ".csv")+".txt")
			os.WriteFile(out, buf.Bytes(), 0o644)
			back := read(t, out)
			defer back.Release()
			sameObs(t, "gobench", iterationObs(tab, false), observations(back, false), 1e-12)
			// 3 instances × 3 suite runs become 9 runs of the test binary: forks 1..9.
			for _, s := range table.Collect(back, table.Filter{}) {
				if got := s.Sizes()[table.LevelFork]; got != 9 {
					t.Fatalf("%s: %d forks, want 9", s.Benchmark, got)
				}
			}
		})
	}
}

func TestRoundTripOfGeneratedFiles(t *testing.T) {
	tab := read(t, filepath.Join("..", "testdata", "jmh", "small_sample.json"), filepath.Join("..", "testdata", "uoptime", "small_ragged.csv"))
	defer tab.Release()
	var pa, gb bytes.Buffer
	if err := WritePA(&pa, tab); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(pa.String(), PAHeader+"\n") {
		t.Fatalf("pa header: %q", pa.String()[:80])
	}
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "x.csv"), pa.Bytes(), 0o644)
	back := read(t, filepath.Join(dir, "x.csv"))
	defer back.Release()
	var jmhOnly []obs
	for _, o := range observations(tab, true) {
		if !strings.HasPrefix(o.key, "Benchmark") {
			jmhOnly = append(jmhOnly, o)
		}
	}
	var backJMH, backGo []obs
	for _, o := range observations(back, true) {
		if strings.HasPrefix(o.key, "Benchmark") {
			backGo = append(backGo, o)
		} else {
			backJMH = append(backJMH, o)
		}
	}
	sameObs(t, "pa", jmhOnly, backJMH, 1e-12)
	// The µOpTime slices come back as one row per iteration holding Σ n and
	// the n-weighted mean: total time Σ n·ns/op is unchanged.
	var iterations int
	var timeBefore, timeAfter float64
	for _, s := range table.Collect(tab, table.Filter{}) {
		if strings.HasPrefix(s.Benchmark, "Benchmark") {
			iterations += len(s.Units(table.LevelIteration))
			for i := range s.NsPerOp {
				timeBefore += s.NsPerOp[i] * float64(s.Count[i])
			}
		}
	}
	for _, o := range backGo {
		timeAfter += o.ns * float64(o.count)
	}
	if len(backGo) != iterations || (timeAfter-timeBefore) > 1e-9*timeBefore || (timeBefore-timeAfter) > 1e-9*timeBefore {
		t.Errorf("µOpTime via pa: %d rows (want %d iterations), total time %v (want %v)", len(backGo), iterations, timeAfter, timeBefore)
	}

	if err := WriteGoBench(&gb, tab); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(gb.String(), "org.example") {
		t.Error("JMH benchmarks written as Go benchmark lines")
	}
	os.WriteFile(filepath.Join(dir, "x.txt"), gb.Bytes(), 0o644)
	goBack := read(t, filepath.Join(dir, "x.txt"))
	defer goBack.Release()
	var goOnly []obs
	for _, o := range iterationObs(tab, false) {
		if strings.HasPrefix(o.key, "Benchmark") {
			goOnly = append(goOnly, o)
		}
	}
	sameObs(t, "gobench", goOnly, observations(goBack, false), 1e-12)
}
