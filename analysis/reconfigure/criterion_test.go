package reconfigure

import (
	"fmt"
	"math"
	"testing"

	"github.com/benchtrim/benchtrim/table"
)

// TestCriteriaStableFlatNotDrifting checks each criterion's warmup decision
// on constructed single-fork series, avgt and sample mode: a flat series
// (1 % iteration noise) becomes stable before wi_max; a drifting one never
// does and is capped at wi_max.
//
// The drifts differ by criterion because the criteria judge cumulative
// sets, in which iteration n weighs 1/n: for a linear drift the CV and RCIW
// of M_n converge, and all three criteria call it stable after 25–50
// iterations. CV and RCIW get a geometric drift (+20 % per iteration), for
// which the CV grows like √n and the RCIW stays large and noisy. KLD
// ignores that one, by design: its strips cover only the 1.5·IQR fences
// of the data, so ever larger values fall outside them and the densities
// inside barely change (p → 1). KLD gets the linear drift (+10 % per
// iteration) and wi_max 20, within which it is not stable.
func TestCriteriaStableFlatNotDrifting(t *testing.T) {
	opt := DefaultOptions
	opt.Config.ForksMin, opt.Config.ForksMax = 1, 1
	opt.Baseline = Baseline{Warmup: 10, Measurement: 10, Forks: 1}
	geometric := func(k int) float64 { return math.Pow(1.2, float64(k)) }
	linear := func(k int) float64 { return 1 + 0.1*float64(k) }
	for _, invocations := range []int{0, 200} {
		for _, c := range AllCriteria {
			for _, tc := range []struct {
				name   string
				curve  func(int) float64
				stable bool
			}{{"flat", nil, true}, {"drift", geometric, false}} {
				if c == CriterionKLD && tc.curve != nil {
					tc.curve = linear
				}
				name := fmt.Sprintf("%s/%s/invocations=%d", c, tc.name, invocations)
				t.Run(name, func(t *testing.T) {
					key := table.Key{Project: "p", Benchmark: name}
					s := genSeries(key, genSpec{forks: 1, iters: 60, mean: 5000, noise: 0.01, curve: tc.curve,
						invocations: invocations, invNoise: 0.05}, 7)
					o := opt
					o.Criteria = []Criterion{c}
					if c == CriterionKLD {
						o.Config.WarmupMax = 20
					}
					res, err := replaySeries(s, o)
					if err != nil {
						t.Fatal(err)
					}
					if res.Skipped != "" {
						t.Fatal(res.Skipped)
					}
					f := res.Criteria[0].Forks[0]
					if f.WarmupStable != tc.stable {
						t.Fatalf("warmup stable = %v after %d iterations (value %.4g), want %v", f.WarmupStable, f.WarmupIterations, f.Value, tc.stable)
					}
					thr := o.Thresholds.of(c)
					if tc.stable {
						if f.WarmupIterations >= o.Config.WarmupMax || f.WarmupIterations < o.Config.WarmupMin {
							t.Errorf("stopped after %d iterations, want within [%d, %d)", f.WarmupIterations, o.Config.WarmupMin, o.Config.WarmupMax)
						}
						if c == CriterionKLD && !(f.Value > thr) || c != CriterionKLD && !(f.Value <= thr) {
							t.Errorf("value at stop %.4g does not pass threshold %g", f.Value, thr)
						}
					} else {
						if f.WarmupIterations != o.Config.WarmupMax {
							t.Errorf("capped after %d iterations, want wi_max %d", f.WarmupIterations, o.Config.WarmupMax)
						}
						if c == CriterionKLD && f.Value > thr || c != CriterionKLD && f.Value <= thr {
							t.Errorf("value at cap %.4g passes threshold %g", f.Value, thr)
						}
					}
					t.Logf("warmup %d, value %.4g", f.WarmupIterations, f.Value)
				})
			}
		}
	}
}
