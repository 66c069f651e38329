package trim

import (
	"math"

	"github.com/benchtrim/benchtrim/internal/stats"
)

// maxDrawObservations bounds the observations of one resampled run in
// detectableSlowdown.
const maxDrawObservations = 5000

// detectPower is the share of A/B runs that must detect a slowdown for it
// to count as detectable (the usual 80 % power).
const detectPower = 0.8

// detectableSlowdown is the minimal detectable slowdown of configuration k
// with predicted precision h (the relative CI half-width of one run's
// mean), found by injecting a slowdown into resampled data as the duet
// analysis and µOpTime's forward detection do.
//
// Each of draws trials draws two runs A and B of configuration k from the
// recorded data by the hierarchical bootstrap (k_0 top units with
// replacement, then k_j children of each with replacement, down to the
// observations) and takes their means of means m_A, m_B. B slowed by δ is
// told apart from A when its ratio leaves the A/B interval,
// (1+δ)·m_B/m_A − 1 > √2·h (two independent means of precision h each), so
// the trial detects every δ above
//
//	δ* = (1 + √2·h) · m_A / m_B − 1.
//
// The minimal detectable slowdown is the detectPower quantile of δ* over
// the trials (common random numbers: the same draws serve every δ): the
// smallest slowdown detected in at least 80 % of runs of k. It is at least
// 0 (a run that never varies detects any slowdown).
//
// A run of more than maxDrawObservations observations is not resampled
// (1,000 runs of 30,000 iterations would cost more than the analysis);
// its means are close to normal, and the same quantile is
//
//	δ* ≈ √2·h + z_{0.8}·√(2·V(k)) / mean
//
// (the normal approximation of m_A/m_B − 1 to first order).
func (d *design) detectableSlowdown(k []float64, h float64, draws int, rng *stats.Stream) float64 {
	v := d.variance(k)
	if v == 0 {
		return 0
	}
	n := 1.0
	for _, x := range k {
		n *= x
	}
	if n > maxDrawObservations {
		return max(0, math.Sqrt2*h+stats.NormalQuantile(detectPower)*math.Sqrt(2*v)/math.Abs(d.mean))
	}
	run := d.resampler(k, rng)
	ds := make([]float64, draws)
	for t := range ds {
		a, b := run(), run()
		ds[t] = (1+math.Sqrt2*h)*a/b - 1
	}
	return max(0, stats.Quantile(ds, detectPower, nil))
}

// resampler returns a function that draws one run of configuration k from
// the data by the hierarchical bootstrap (k_0 top units with replacement,
// then k_j children of each with replacement, down to the observations)
// and returns its mean of means.
func (d *design) resampler(k []float64, rng *stats.Stream) func() float64 {
	first := d.children()
	var draw func(j int, u int32) float64
	draw = func(j int, u int32) float64 {
		if j == len(d.levels)-1 {
			return d.obs[u]
		}
		a, b := first[j][u], first[j][u+1]
		n := int(k[j+1])
		s := 0.0
		for i := 0; i < n; i++ {
			s += draw(j+1, a+int32(rng.IntN(int(b-a))))
		}
		return s / float64(n)
	}
	return func() float64 {
		n := int(k[0])
		s := 0.0
		for i := 0; i < n; i++ {
			s += draw(0, int32(rng.IntN(d.units[0])))
		}
		return s / float64(n)
	}
}
