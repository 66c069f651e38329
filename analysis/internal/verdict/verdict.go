// Package verdict decides A/B verdicts on flat samples the way the user's
// test does (estimate.Test): benchstat's U test and JMH's interval
// overlap, for analysis/compare and analysis/trim, so that trim's choices
// and checks use the test compare reports. The ratio test needs the
// repetition levels and stays with its callers (stats.HierarchicalRatioCI).
package verdict

import (
	"math"
	"slices"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/benchtrim/benchtrim/estimate"
	"github.com/benchtrim/benchtrim/internal/nonparam"
)

// Outcome is one verdict: Change is +1 (test slower, larger values), −1
// (faster) or 0 (no change); Ratio is the test's statistic of test over
// base (medians for TestU, means for TestOverlap); P the U test's p-value
// (NaN for TestOverlap).
type Outcome struct {
	Change int
	Ratio  float64
	P      float64
}

// Flat decides t at level alpha on the values of base and test (t is
// TestU or TestOverlap):
//
//   - TestU: p = nonparam.BenchstatU(base, test); a change when p ≤ alpha,
//     its direction the sign of median(test) − median(base), as benchstat
//     prints it (benchmath Comparison.FormatDelta).
//   - TestOverlap: each side's mean x̄ ± t_{1−α/2, n−1}·s/√n (JMH's score
//     error: Student t over all iterations of all forks); a change when
//     the intervals are disjoint (test's lower bound above base's upper:
//     slower). A side of one value has an infinite interval.
//
// It panics for TestRatio.
func Flat(t estimate.Test, alpha float64, base, test []float64) Outcome {
	switch t {
	case estimate.TestU:
		mb, mt := Median(base), Median(test)
		o := Outcome{Ratio: mt / mb, P: nonparam.BenchstatU(base, test)}
		if o.P <= alpha {
			switch {
			case mt > mb:
				o.Change = 1
			case mt < mb:
				o.Change = -1
			}
		}
		return o
	case estimate.TestOverlap:
		mb, eb := MeanError(base, alpha)
		mt, et := MeanError(test, alpha)
		o := Outcome{Ratio: mt / mb, P: math.NaN()}
		switch {
		case mt-et > mb+eb:
			o.Change = 1
		case mt+et < mb-eb:
			o.Change = -1
		}
		return o
	}
	panic("verdict: Flat cannot decide " + t.String())
}

// MeanError is the mean of x and the half-width t_{1−α/2, n−1}·s/√n of
// its Student t interval (JMH's score error at confidence 1 − α); the
// half-width is +Inf for fewer than two values.
func MeanError(x []float64, alpha float64) (mean, halfWidth float64) {
	n := float64(len(x))
	for _, v := range x {
		mean += v
	}
	mean /= n
	if len(x) < 2 {
		return mean, math.Inf(1)
	}
	var ss float64
	for _, v := range x {
		ss += (v - mean) * (v - mean)
	}
	return mean, TQuantile(1-alpha/2, len(x)-1) * math.Sqrt(ss/(n-1)/n)
}

// TQuantile is the p quantile of Student's t distribution with df degrees
// of freedom (gonum distuv.StudentsT).
func TQuantile(p float64, df int) float64 {
	return distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(df)}.Quantile(p)
}

// Median is the sample median (the mean of the two middle values for an
// even count), as benchstat's summary.
func Median(x []float64) float64 {
	s := slices.Clone(x)
	slices.Sort(s)
	n := len(s)
	if n == 0 {
		return math.NaN()
	}
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// MinSamples is the fewest values per side at which t can report a
// change at level alpha: nonparam.UMinSamples for TestU (4 at α = 0.05),
// 2 for TestOverlap (a t interval needs two values) and for TestRatio.
func MinSamples(t estimate.Test, alpha float64) int {
	if t == estimate.TestU {
		return nonparam.UMinSamples(alpha)
	}
	return 2
}
