package duet

import (
	"fmt"
	"math"

	"github.com/benchtrim/benchtrim/internal/stats"
)

// genConfig describes a seeded synthetic duet data set (test-only; the
// shared generator is synth's duet preset).
type genConfig struct {
	Benchmarks, Runs, Iterations int
	Types                        []string
	Env                          string
	// Slower makes B's iterations (1 + Slower) times A's (0: A/A data).
	Slower float64
	// BScale multiplies B's iteration times per benchmark i by
	// BScale[i % len(BScale)] (to make B's iterations shorter or longer
	// than A's, so that one iteration spans several of the other pair).
	BScale []float64
	// NoiseCV is the per-iteration noise (log-normal sd); the run-level
	// noise is half of it.
	NoiseCV float64
	Seed    uint64
}

// genGroups builds the groups of a synthetic data set: Renaissance-like
// benchmarks (0-based iterations, warm-up decaying over the first
// iterations), one environment and instance, and for each type and run
// timestamps as the type lays them out: seqn runs A then B, syncduet
// starts both pairs' iterations together, duet runs them independently
// from a random offset.
func genGroups(c genConfig) []group {
	var out []group
	for i := 0; i < c.Benchmarks; i++ {
		base := 5e7 * float64(1+i%7)
		scale := 1.0
		if len(c.BScale) > 0 {
			scale = c.BScale[i%len(c.BScale)]
		}
		for _, typ := range c.Types {
			k := Key{Suite: "renaissance", Benchmark: fmt.Sprintf("bench%03d", i), Type: typ, Env: c.Env}
			rng := stats.NewRand(c.Seed, k.String(), 0)
			recs := make([]Record, 0, 2*c.Runs*c.Iterations)
			t0 := int64(1.6e18)
			dur := func(pairBase, runEffect float64, it int) float64 {
				warm := 1 + 0.5*math.Exp(-float64(it)/3)
				return math.Round(pairBase * runEffect * warm * math.Exp(c.NoiseCV*rng.NormFloat64()))
			}
			for r := 0; r < c.Runs; r++ {
				eff := math.Exp(c.NoiseCV / 2 * rng.NormFloat64())
				bases := [2]float64{base, base * scale * (1 + c.Slower)}
				starts := [2]int64{t0, t0 + int64(rng.Float64()*base)}
				end := t0
				for it := 0; it < c.Iterations; it++ {
					for p := 0; p < 2; p++ {
						if typ == typeSeqn && p == 1 {
							continue
						}
						d := dur(bases[p], eff, it)
						if typ == typeSyncDuet {
							starts[p] = starts[0]
						}
						recs = append(recs, Record{Run: int32(r), Iteration: int32(it), Pair: 'A' + byte(p),
							StartNs: starts[p], EndNs: starts[p] + int64(d), TimeNs: d})
						starts[p] += int64(d) + 1e6
						end = max(end, starts[p])
					}
					if typ == typeSyncDuet {
						starts[0] = end
					}
				}
				if typ == typeSeqn {
					s := end + 1e9
					for it := 0; it < c.Iterations; it++ {
						d := dur(bases[1], eff, it)
						recs = append(recs, Record{Run: int32(r), Iteration: int32(it), Pair: 'B', StartNs: s, EndNs: s + int64(d), TimeNs: d})
						s += int64(d) + 1e6
						end = s
					}
				}
				t0 = end + 5e9
			}
			sortRecords(recs)
			out = append(out, group{key: k, records: recs})
		}
	}
	return out
}
