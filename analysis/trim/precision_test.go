package trim

import (
	"math"
	"slices"
	"testing"

	"github.com/benchtrim/benchtrim/estimate"
	"github.com/benchtrim/benchtrim/internal/nonparam"
	"github.com/benchtrim/benchtrim/internal/stats"
)

// TestPrecisionCoverage checks that the stated CI of a reduced run is
// honest out of sample: on generated recordings with known variance
// components (20 forks × 40 iterations, fork and iteration standard
// deviations from 0.5 to 3 %), the forks are split in halves; the 99 %
// precision h(k) of a configuration k is stated on the first half alone
// (sampler.precision: the half's cluster bootstrap CI and where runs of k
// drawn from it land), a run of k is taken from the second half, and h(k)
// must cover the true mean: |m_run − μ| ≤ h(k)·μ in 99 % ± 2 % of 500
// trials, for every configuration of 1 to 10 forks and 3 to 40
// iterations.
func TestPrecisionCoverage(t *testing.T) {
	const trials = 500
	rng := stats.NewStream(3, "coverage", 0)
	configs := []config{{1, 3}, {1, 40}, {2, 10}, {5, 5}, {10, 3}, {10, 40}}
	covered := make([]int, len(configs))
	for trial := 0; trial < trials; trial++ {
		sdF, sdI := 0.005+0.025*rng.Float64(), 0.005+0.025*rng.Float64()
		d := twoLevel(20, 40, sdF, sdI, rng)
		perm := make([]int, 20)
		for i := range perm {
			perm[i] = i
		}
		for i := 19; i > 0; i-- {
			j := rng.IntN(i + 1)
			perm[i], perm[j] = perm[j], perm[i]
		}
		h1, h2 := slices.Clone(perm[:10]), slices.Clone(perm[10:])
		slices.Sort(h1)
		slices.Sort(h2)
		d1, d2 := d.subset(h1), d.subset(h2)
		s1 := newSampler(d1)
		se := s1.standardError(rng)
		s2 := newSampler(d2)
		for c, k := range configs {
			h := s1.precision(k, se, 0.99, rng)
			run := s2.run(nil, k, rng)
			if math.Abs(mean(run)-100) <= h*100 {
				covered[c]++
			}
		}
	}
	for c, k := range configs {
		rate := float64(covered[c]) / trials
		t.Logf("%d forks × %d iterations: covered %.1f %%", k[0], k[1], 100*rate)
		if rate < 0.97 || rate > 1 {
			t.Errorf("%d forks × %d iterations: the stated 99 %% CI covers the true mean in %.1f %% of trials, want 99 ± 2 %%", k[0], k[1], 100*rate)
		}
	}
}

// TestDetectableIsCalibrated checks the detectable slowdown of the U test
// against new samples: on a recording of 400 go test lines (normal, 1 %
// standard deviation), the slowdown detector finds for runs of 10 lines is
// found by the U test (nonparam.BenchstatU, p ≤ 0.05, the shifted side's
// median above) in 80 % ± 5 % of 2,000 pairs of fresh runs of 10 lines
// drawn from the same distribution.
func TestDetectableIsCalibrated(t *testing.T) {
	rng := stats.NewStream(5, "calibrated", 0)
	var levels [][3]int32
	var values []float64
	for i := 0; i < 400; i++ {
		levels = append(levels, [3]int32{1, int32(i + 1), 1})
		values = append(values, 100*(1+0.01*normal(rng)))
	}
	d := newDesign(seriesOf(levels, values), 0)
	det := newDetector(newSampler(d), estimate.TestU, 0.05, 2000, func() *stats.Stream { return stats.NewStream(5, "det", 1) })
	mds := det.detectable(config{10})
	hits := 0
	const pairs = 2000
	a, b := make([]float64, 10), make([]float64, 10)
	for p := 0; p < pairs; p++ {
		for i := range a {
			a[i] = 100 * (1 + 0.01*normal(rng))
			b[i] = 100 * (1 + 0.01*normal(rng)) * (1 + mds)
		}
		if nonparam.BenchstatU(a, b) <= 0.05 && medianOf(b) > medianOf(a) {
			hits++
		}
	}
	power := float64(hits) / pairs
	t.Logf("detectable slowdown %.3f %%: power on fresh runs %.1f %%", 100*mds, 100*power)
	if power < 0.75 || power > 0.85 {
		t.Errorf("detectable slowdown %.4f: the U test finds it in %.1f %% of fresh pairs, want 80 ± 5 %%", mds, 100*power)
	}
}

func medianOf(x []float64) float64 { return stats.Median(x, nil) }
