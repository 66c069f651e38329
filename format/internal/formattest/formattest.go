// Package formattest holds what the writers' tests in format/pa and
// format/gobench share: hand-made tables of benchmark runs, reading files
// back through ingest.ReadFiles, and rows listed in a comparable form.
package formattest

import (
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/apache/arrow/go/v15/arrow/memory"

	"github.com/benchtrim/benchtrim/format/all"
	"github.com/benchtrim/benchtrim/ingest"
	"github.com/benchtrim/benchtrim/table"
)

// ReadFiles reads paths with format detection, failing the test on error;
// the table is released when the test ends.
func ReadFiles(t testing.TB, paths ...string) *table.Table {
	t.Helper()
	tab, _, _, err := ingest.ReadFiles(paths, ingest.ReadOptions{Formats: all.Formats(), Allocator: memory.DefaultAllocator})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(tab.Release)
	return tab
}

// Obs is one primary observation: the run's key (benchmark|params|mode|version),
// ns/op, count and, when asked for, fork and iteration.
type Obs struct {
	Key        string
	Ns         float64
	Count      int64
	fork, iter int32
}

// Observations lists every primary row of tab, sorted, with fork and
// iteration when withLevels.
func Observations(tab *table.Table, withLevels bool) []Obs {
	var out []Obs
	for _, s := range tab.Collect(table.Filter{}) {
		for i := 0; i < s.Len(); i++ {
			o := Obs{Key: s.Benchmark + "|" + s.Params + "|" + s.Mode + "|" + s.Version, Ns: s.NsPerOp[i], Count: s.Count[i]}
			if withLevels {
				o.fork, o.iter = s.Levels[table.LevelFork][i], s.Levels[table.LevelIteration][i]
			}
			out = append(out, o)
		}
	}
	sortObs(out)
	return out
}

// IterationObs lists every primary iteration of tab the way pa and gobench
// write them: the slices of an iteration merged into one observation with
// count Σ count and the count-weighted mean ns/op (computed here, not with
// format.MergeSpan, so the writers are checked against an independent sum).
func IterationObs(tab *table.Table, withLevels bool) []Obs {
	var out []Obs
	for _, s := range tab.Collect(table.Filter{}) {
		for _, sp := range s.Units(table.LevelIteration) {
			o := Obs{Key: s.Benchmark + "|" + s.Params + "|" + s.Mode + "|" + s.Version}
			var sum float64
			for i := sp.Start; i < sp.End; i++ {
				sum += s.NsPerOp[i] * float64(s.Count[i])
				o.Count += s.Count[i]
			}
			o.Ns = sum / float64(o.Count)
			if sp.End-sp.Start == 1 {
				o.Ns = s.NsPerOp[sp.Start]
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

func sortObs(out []Obs) {
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Key != b.Key {
			return a.Key < b.Key
		}
		if a.fork != b.fork || a.iter != b.iter {
			return a.fork < b.fork || a.fork == b.fork && a.iter < b.iter
		}
		if a.Ns != b.Ns {
			return a.Ns < b.Ns
		}
		return a.Count < b.Count
	})
}

// SameObs fails the test unless got holds the observations of want, ns/op
// equal within relTol relative to want's.
func SameObs(t testing.TB, what string, want, got []Obs, relTol float64) {
	t.Helper()
	if len(want) != len(got) {
		t.Fatalf("%s: %d rows after the round trip, want %d", what, len(got), len(want))
	}
	for i := range want {
		w, g := want[i], got[i]
		if w.Key != g.Key || w.Count != g.Count || w.fork != g.fork || w.iter != g.iter || (g.Ns-w.Ns) > relTol*w.Ns || (w.Ns-g.Ns) > relTol*w.Ns {
			t.Fatalf("%s: row %d = %+v, want %+v", what, i, g, w)
		}
	}
}

// Run describes one benchmark run of a hand-made table (BuildRuns).
type Run struct {
	Project, Version, Bench, Params, Mode string
	// Procs is Setup.Env["gomaxprocs"]; "" adds no setup.
	Procs string
}

// key is the run's table key.
func (r Run) key() table.Key {
	return table.Key{Project: r.Project, Version: r.Version, Benchmark: r.Bench, Params: r.Params, Mode: r.Mode}
}

// BuildRuns builds a table of the runs, each two instances × two
// iterations with values 10.25, 11.25, 20.25, 21.25 and counts 100, 100,
// 200, 200, in ns/op for mode "go" and us/op otherwise. The table is
// released, and the allocator checked for leaks, when the test ends.
func BuildRuns(t testing.TB, runs []Run) *table.Table {
	t.Helper()
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	b := table.NewBuilder(mem, 7)
	defer b.Release()
	for _, r := range runs {
		unit := "ns/op"
		if r.Mode != "go" {
			unit = "us/op"
		}
		for inst := int32(1); inst <= 2; inst++ {
			for it := int32(1); it <= 2; it++ {
				v := float64(10*inst+it-1) + 0.25
				ns := v
				if unit == "us/op" {
					ns = v * 1000
				}
				b.Append(&table.Row{Project: r.Project, Version: r.Version, Benchmark: r.Bench, Params: r.Params, Mode: r.Mode,
					Metric: table.Primary, Unit: unit, Value: v, NsPerOp: ns, Count: int64(100 * inst),
					Instance: inst, Trial: 1, Fork: 1, Iteration: it, Slice: 1})
			}
		}
		if r.Procs != "" {
			if err := b.AddSetup(table.Setup{Key: r.key(), Tool: "go", Env: map[string]string{"gomaxprocs": r.Procs}}); err != nil {
				t.Fatal(err)
			}
		}
	}
	tab := b.Finish()
	t.Cleanup(func() { tab.Release(); mem.AssertSize(t, 0) })
	return tab
}

// Params returns the canonical params of key, value pairs.
func Params(kv ...string) string {
	m := map[string]string{}
	for i := 0; i < len(kv); i += 2 {
		m[kv[i]] = kv[i+1]
	}
	return table.CanonicalParams(m)
}

// RowList lists the rows of metric ("" for the primary metric) as
// comparable strings: benchmark, params, mode, version, the unit for a
// secondary metric, the levels (instance, trial, fork, iteration) when
// withLevels, count and value; sorted.
func RowList(tab *table.Table, metric string, withLevels bool) []string {
	var out []string
	for _, s := range tab.Collect(table.Filter{Metric: metric}) {
		unit := ""
		if metric != "" {
			unit = fmt.Sprintf(" %q", s.Unit)
		}
		for i := 0; i < s.Len(); i++ {
			lv := ""
			if withLevels {
				lv = fmt.Sprintf(" i%d t%d f%d it%d", s.Levels[table.LevelInstance][i], s.Levels[table.LevelTrial][i],
					s.Levels[table.LevelFork][i], s.Levels[table.LevelIteration][i])
			}
			out = append(out, fmt.Sprintf("%q %q %q %q%s%s n=%d v=%v", s.Benchmark, s.Params, s.Mode, s.Version, unit, lv, s.Count[i], s.Value[i]))
		}
	}
	sort.Strings(out)
	return out
}

// SameRowLists fails the test unless want and got are equal.
func SameRowLists(t testing.TB, what string, want, got []string) {
	t.Helper()
	if !reflect.DeepEqual(want, got) {
		t.Errorf("%s: rows after the round trip differ\nwant %d:\n  %s\ngot %d:\n  %s", what, len(want), strings.Join(want, "\n  "), len(got), strings.Join(got, "\n  "))
	}
}

// Suite describes a seeded random table for the writers' round-trip tests
// (Random): every version × benchmark × params combination is one run of
// Instances × Trials × Forks × Iterations rows, each with a count in
// [1, 10⁶] and a value in [1, 10⁴) drawn with all 53 bits, so that any
// rounding by a writer shows.
type Suite struct {
	Seed                                 uint64
	Project                              string
	Versions, Benchmarks, Params         []string
	Modes                                []string // one per benchmark, cycled
	Instances, Trials, Forks, Iterations int32
	// Secondary, when set, adds a row of that metric (its unit is the
	// metric name, its ns_per_op NaN) to every primary row.
	Secondary string
}

// units of the modes Random writes, and ns_per_op of a value in them.
var modeUnits = map[string]struct {
	unit string
	ns   func(v float64) float64
}{
	"go":     {"ns/op", func(v float64) float64 { return v }},
	"avgt":   {"us/op", func(v float64) float64 { return v * 1e3 }},
	"sample": {"ms/op", func(v float64) float64 { return v * 1e6 }},
	"ss":     {"s/op", func(v float64) float64 { return v * 1e9 }},
	"thrpt":  {"ops/ms", func(v float64) float64 { return 1e6 / v }},
}

// Random builds the table s describes from a PCG stream seeded with
// (s.Seed, 0). The table is released, and its allocator checked for leaks,
// when the test ends.
func Random(t testing.TB, s Suite) *table.Table {
	t.Helper()
	rng := rand.New(rand.NewPCG(s.Seed, 0))
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	b := table.NewBuilder(mem, 64)
	defer b.Release()
	for _, v := range s.Versions {
		for bi, bench := range s.Benchmarks {
			mode := s.Modes[bi%len(s.Modes)]
			mu, ok := modeUnits[mode]
			if !ok {
				t.Fatalf("formattest.Random: no unit for mode %q", mode)
			}
			for _, params := range s.Params {
				for inst := int32(1); inst <= s.Instances; inst++ {
					for trial := int32(1); trial <= s.Trials; trial++ {
						for fork := int32(1); fork <= s.Forks; fork++ {
							for it := int32(1); it <= s.Iterations; it++ {
								value := 1 + rng.Float64()*9999
								r := table.Row{Project: s.Project, Version: v, Benchmark: bench, Params: params, Mode: mode,
									Metric: table.Primary, Unit: mu.unit, Value: value, NsPerOp: mu.ns(value), Count: 1 + rng.Int64N(1e6),
									Instance: inst, Trial: trial, Fork: fork, Iteration: it, Slice: 1}
								if err := b.Append(&r); err != nil {
									t.Fatal(err)
								}
								if s.Secondary != "" {
									r.Metric, r.Unit, r.Value, r.NsPerOp = s.Secondary, s.Secondary, float64(rng.IntN(1<<20)), math.NaN()
									if err := b.Append(&r); err != nil {
										t.Fatal(err)
									}
								}
							}
						}
					}
				}
			}
		}
	}
	tab := b.Finish()
	t.Cleanup(func() { tab.Release(); mem.AssertSize(t, 0) })
	return tab
}
