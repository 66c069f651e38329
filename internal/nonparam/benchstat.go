package nonparam

import (
	"fmt"
	"math"
	"sync"

	moremath "github.com/aclements/go-moremath/stats"
)

// BenchstatU is the p-value of the two-sided Mann-Whitney U test of x
// against y exactly as benchstat computes it: golang.org/x/perf's
// benchmath.AssumeNothing.Compare calls go-moremath's
// stats.MannWhitneyUTest(x, y, LocationDiffers), and so does this
// function, with the same go-moremath version as x/perf (go.mod). That
// test uses the exact distribution of U when both samples have at most 50
// values and no ties, or at most 25 with ties (the distribution with ties
// of Klotz 1966 and Cheung & Klotz 1997), and the normal approximation
// with tie and continuity correction otherwise.
//
// Where the test cannot run (an empty sample, or every value equal)
// benchstat reports p = 1, and so does BenchstatU. A verdict is
// significant when p ≤ α (benchmath's Comparison.FormatDelta: "~" only
// for P > Alpha).
//
// It is kept apart from MannWhitneyU, which follows scipy's defaults
// (exact only without ties and for min(n, m) ≤ 8): the two differ by up
// to 0.013 on tied samples of 10 to 25 values, enough to flip a verdict
// at α = 0.05, and benchtrim's verdicts are benchstat's.
//
// Untied samples of at most 50 values take the exact distribution through
// mwuCDF (the Gaussian binomial expansion, O(min(n, m)·U) instead of
// go-moremath's O(n·m·U) recursion; the same p to 1e-12, TestBenchstatU):
// 20× faster at 20 + 20 values, where trim's checks run thousands.
func BenchstatU(x, y []float64) float64 {
	n, m := len(x), len(y)
	if n > 0 && m > 0 && n <= moremath.MannWhitneyExactLimit && m <= moremath.MannWhitneyExactLimit {
		d, tieSum := mergeCount(sortedPair(x, y))
		if tieSum == 0 {
			u1 := float64(d.Greater) + 0.5*float64(d.Equal) // x over y
			u2 := float64(n*m) - u1
			if u1 == u2 {
				return 1
			}
			p, err := mwuCDF(n, m, int64(min(u1, u2)))
			if err == nil {
				return 2 * p
			}
		}
	}
	res, err := moremath.MannWhitneyUTest(x, y, moremath.LocationDiffers)
	if err != nil {
		return 1
	}
	return res.P
}

// UMinSamples is the fewest values per side, with both sides of one
// size n, at which the two-sided U test can reach p ≤ alpha at all: the
// smallest n with 2/C(2n, n) ≤ alpha, the p-value of two samples that do
// not overlap (benchmath's uTestMinP table: 4 at α = 0.05, 5 at 0.01).
// Below it the test never reports a change, whatever the data.
func UMinSamples(alpha float64) int {
	for n := 1; n < 64; n++ {
		if uMinP(n, n) <= alpha {
			return n
		}
	}
	return 64
}

// uMinP is the smallest two-sided p-value of the exact U test of samples
// of sizes n and m without ties: 2/C(n+m, n), at most 1.
func uMinP(n, m int) float64 {
	lc := 0.0 // log C(n+m, n)
	for i := 1; i <= n; i++ {
		lc += math.Log(float64(m+i)) - math.Log(float64(i))
	}
	return min(1, 2*math.Exp(-lc))
}

// UCritical is the smallest U statistic of one sample (of size m, against
// the other of size n) at which the two-sided U test of untied samples
// has p ≤ alpha, as BenchstatU computes p: the exact distribution when
// n, m ≤ 50 (p = 2·P(U' ≤ nm − U) for U above nm/2), else the normal
// approximation with continuity correction, p ≤ alpha ⟺
//
//	U ≥ nm/2 + 1/2 + z_{1−α/2}·√(nm(n+m+1)/12).
//
// It is n·m + 1 when no U reaches alpha (too few values). Results are
// cached per (n, m, alpha).
func UCritical(n, m int, alpha float64) int {
	key := uCritKey{n, m, alpha}
	if v, ok := uCritCache.Load(key); ok {
		return v.(int)
	}
	c := uCritical(n, m, alpha)
	uCritCache.Store(key, c)
	return c
}

type uCritKey struct {
	n, m  int
	alpha float64
}

var uCritCache sync.Map

func uCritical(n, m int, alpha float64) int {
	nm := n * m
	if n < 1 || m < 1 {
		return nm + 1
	}
	if n > moremath.MannWhitneyExactLimit || m > moremath.MannWhitneyExactLimit {
		sigma := math.Sqrt(float64(nm) * float64(n+m+1) / 12)
		z := -normalQuantile(alpha / 2)
		u := int(math.Ceil(float64(nm)/2 + 0.5 + z*sigma))
		return min(u, nm+1)
	}
	// The exact two-sided p of U > nm/2 is 2·P(U' ≤ nm − U): find the
	// largest k = nm − U with 2·P(U' ≤ k) ≤ alpha. P(U' ≤ k) rises with
	// k; k < nm/2 (U1 == U2 gives p = 1).
	lo, hi := -1, (nm+1)/2 // P(≤ lo) passes (lo = −1: P = 0); U = nm − hi ≤ nm/2 has p ≥ 1
	for hi-lo > 1 {
		mid := (lo + hi) / 2
		p, err := mwuCDF(n, m, int64(mid))
		if err == nil && 2*p <= alpha {
			lo = mid
		} else {
			hi = mid
		}
	}
	if lo < 0 {
		return nm + 1
	}
	return nm - lo
}

// normalQuantile is the standard normal quantile Φ⁻¹(p) = −√2·erfcinv(2p).
func normalQuantile(p float64) float64 { return -math.Sqrt2 * math.Erfcinv(2*p) }

// BenchstatMedian is benchstat's summary of a sample
// (golang.org/x/perf benchmath.AssumeNothing.Summary, with go-moremath as
// x/perf): the median (go-moremath's Sample.Quantile(0.5), R's type 8,
// which is the middle value or the mean of the two middle ones) and its
// distribution-free confidence interval at level confidence, between the
// order statistics X(lo) and X(hi) that go-moremath's QuantileCI(n, 0.5,
// confidence) chooses from the binomial distribution Bin(n, ½) of the
// number of values below the median (Conover, Practical Nonparametric
// Statistics, 3rd ed., §3.2). An order statistic outside the sample (too
// few values for that confidence, MedianCISamples) makes its bound
// −Inf or +Inf, which benchstat prints as "± ∞". An empty x gives NaNs.
func BenchstatMedian(x []float64, confidence float64) (median, lo, hi float64) {
	if len(x) == 0 {
		nan := math.NaN()
		return nan, nan, nan
	}
	s := moremath.Sample{Xs: append([]float64(nil), x...)}
	s.Sort()
	return medianCI(len(x), confidence).SampleCI(s)
}

// medianCI caches go-moremath's QuantileCI of the median per (n,
// confidence), as benchmath does.
func medianCI(n int, confidence float64) moremath.QuantileCIResult {
	key := medianKey{n, confidence}
	if v, ok := medianCache.Load(key); ok {
		return v.(moremath.QuantileCIResult)
	}
	ci := moremath.QuantileCI(n, 0.5, confidence)
	medianCache.Store(key, ci)
	return ci
}

type medianKey struct {
	n          int
	confidence float64
}

var medianCache sync.Map

// MedianCISamples is the fewest values with which BenchstatMedian's
// interval at confidence is finite, as benchmath's medianSamples finds it:
// (">=", n) for the smallest n ≤ 50 whose QuantileCI lies within the
// sample, else (">", 50). benchstat's warning under a "± ∞" reads "need
// OP N samples for confidence interval at level CONFIDENCE"
// (MedianCIWarning).
func MedianCISamples(confidence float64) (op string, n int) {
	const limit = 50
	for n = 2; n <= limit; n++ {
		ci := medianCI(n, confidence)
		if 0 < ci.LoOrder && ci.HiOrder <= n {
			return ">=", n
		}
	}
	return ">", limit
}

// MedianCIWarning is benchstat's footnote for a median whose interval at
// confidence is infinite: "need >= 6 samples for confidence interval at
// level 0.95".
func MedianCIWarning(confidence float64) string {
	op, n := MedianCISamples(confidence)
	return fmt.Sprintf("need %s %d samples for confidence interval at level %v", op, n, confidence)
}

// BenchstatUWarning is benchstat's footnote for its U test of samples of
// n and m values (benchmath.AssumeNothing.Compare), "" when it has none:
// the test's error when it cannot run ("all samples are equal", "sample is
// too small"; p is then 1), else, when p > alpha and both samples are
// smaller than the size at which two samples of one size can reach alpha
// at all (UMinSamples, from benchmath's table of sizes 1 to 9), "need >= 4
// samples to detect a difference at alpha level 0.05" (or "need > 10
// samples" beyond the table).
func BenchstatUWarning(x, y []float64, p, alpha float64) string {
	if len(x) == 0 || len(y) == 0 {
		return moremath.ErrSampleSize.Error()
	}
	if allEqual(x, x[0]) && allEqual(y, x[0]) {
		return moremath.ErrSamplesEqual.Error()
	}
	if p <= alpha {
		return ""
	}
	op, need := ">=", UMinSamples(alpha)
	if need > 9 { // benchmath's uTestMinP lists sizes 1 to 9
		op, need = ">", 10
	}
	if len(x) < need && len(y) < need {
		return fmt.Sprintf("need %s %d samples to detect a difference at alpha level %v", op, need, alpha)
	}
	return ""
}

// allEqual reports whether every value of x is v.
func allEqual(x []float64, v float64) bool {
	for _, y := range x {
		if y != v {
			return false
		}
	}
	return true
}
