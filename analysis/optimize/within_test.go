package optimize

import (
	"testing"

	"github.com/benchtrim/benchtrim/table"
)

// TestWithinCounts: enumerate's dominance counts equal countWithin for
// every configuration, on whole and ragged grids, with and without
// discarded warmup and fixed levels.
func TestWithinCounts(t *testing.T) {
	dropIt := func(ix [table.NumLevels]int32) bool {
		return ix[table.LevelInstance] == 2 && ix[table.LevelTrial] == 1 && ix[table.LevelIteration] == 2
	}
	dropFirst := func(ix [table.NumLevels]int32) bool {
		return ix[table.LevelInstance] == 1 && ix[table.LevelTrial] == 1 && ix[table.LevelIteration] == 1 && ix[table.LevelSlice] <= 2
	}
	jmh := grid{instances: 1, trials: 1, forks: 4, iterations: 30, slices: 1}
	series := build(t,
		spec{project: "p", version: "v1", name: "BenchmarkRagged", grid: goGrid, mean: 100, noise: 0.003, drop: dropIt, seed: 1},
		spec{project: "p", version: "v1", name: "BenchmarkRagged2", grid: goGrid, mean: 100, noise: 0.003, drop: dropFirst, seed: 1},
		spec{project: "p", version: "v1", name: "BenchmarkWhole", grid: goGrid, mean: 100, noise: 0.003, seed: 1},
		spec{project: "p", version: "v1", name: "BenchmarkForks", grid: jmh, mean: 100, noise: 0.003, drop: dropIt, seed: 2},
	)
	for _, o := range []Options{fastOptions(), func() Options { o := fastOptions(); o.DiscardWarmup = 2; return o }(),
		func() Options { o := fastOptions(); o.Fixed = []table.Level{table.LevelTrial}; return o }()} {
		for _, s := range series {
			p, skip := prepare(s, &o)
			if skip != nil {
				t.Fatal(skip.Reason)
			}
			p.enumerate()
			checked := 0
			for _, e := range p.configs {
				if int(e.reps) != countWithin(p.rep[:], e.c) || int(e.n) != countWithin(p.idx[:], e.c) {
					t.Fatalf("%s %v: reps %d n %d, countWithin %d %d", s.Benchmark, e.c, e.reps, e.n, countWithin(p.rep[:], e.c), countWithin(p.idx[:], e.c))
				}
				checked++
			}
			if checked != len(p.configs) || checked < 2 {
				t.Fatalf("%s: %d configurations", s.Benchmark, checked)
			}
		}
	}
}
