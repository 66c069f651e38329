package stats

import (
	"cmp"
	"math"
	"slices"
)

// checkWeights panics unless weights is nil or as long as x with no negative
// or NaN entry.
func checkWeights(fn string, x, weights []float64) {
	if weights == nil {
		return
	}
	if len(weights) != len(x) {
		panic("stats: " + fn + ": len(weights) != len(x)")
	}
	for _, w := range weights {
		if !(w >= 0) {
			panic("stats: " + fn + ": negative or NaN weight")
		}
	}
}

// Mean returns the weighted arithmetic mean of x.
//
//	mean = Σ w_i·x_i / Σ w_i        (w_i = 1 when weights is nil)
//
// It returns NaN when x is empty or the weights sum to zero. It panics if
// weights is not nil and len(weights) != len(x), or a weight is negative.
func Mean(x, weights []float64) float64 {
	checkWeights("Mean", x, weights)
	if weights == nil {
		if len(x) == 0 {
			return math.NaN()
		}
		var s float64
		for _, v := range x {
			s += v
		}
		return s / float64(len(x))
	}
	var s, sw float64
	for i, v := range x {
		s += weights[i] * v
		sw += weights[i]
	}
	if sw == 0 {
		return math.NaN()
	}
	return s / sw
}

// popStdDev returns the population (biased) standard deviation of x with
// frequency weights.
//
//	sd = sqrt( Σ w_i·(x_i − mean)² / Σ w_i )
//
// This is numpy's np.std(x) (ddof = 0). It returns NaN for empty x.
func popStdDev(x, weights []float64) float64 {
	m := Mean(x, weights)
	if math.IsNaN(m) {
		return m
	}
	var ss, sw float64
	for i, v := range x {
		w := 1.0
		if weights != nil {
			w = weights[i]
		}
		d := v - m
		ss += w * d * d
		sw += w
	}
	return math.Sqrt(ss / sw)
}

// StdDev returns the sample standard deviation of x with frequency weights
// (Bessel's correction on the expanded sample).
//
//	sd = sqrt( Σ w_i·(x_i − mean)² / (Σ w_i − 1) )
//
// This is numpy's np.std(x, ddof=1) of the expanded sample. It returns NaN
// when Σ w_i <= 1.
func StdDev(x, weights []float64) float64 {
	m := Mean(x, weights)
	if math.IsNaN(m) {
		return m
	}
	var ss, sw float64
	for i, v := range x {
		w := 1.0
		if weights != nil {
			w = weights[i]
		}
		d := v - m
		ss += w * d * d
		sw += w
	}
	if sw <= 1 {
		return math.NaN()
	}
	return math.Sqrt(ss / (sw - 1))
}

// CV returns the coefficient of variation of x: the population standard
// deviation divided by the mean.
//
//	CV = PopStdDev(x) / Mean(x)
//
// This is the CV stability metric of µOpTime (Japke, Grambow, Laaber,
// Bermbach, TOSEM 2025), whose replication package computes
// sqrt(1/n·Σ(x−m)²)/m (stat_functions.py, function cv). It returns NaN for
// empty x and ±Inf or NaN when the mean is zero.
func CV(x, weights []float64) float64 {
	return popStdDev(x, weights) / Mean(x, weights)
}

// Quantile returns the p-quantile of x with frequency weights, by linear
// interpolation between order statistics (Hyndman and Fan 1996 type 7, the
// default of numpy.quantile and R's quantile).
//
// Without weights, with x sorted ascending as x_(0) ≤ … ≤ x_(n−1):
//
//	h = (n − 1)·p,  j = ⌊h⌋
//	Q(p) = x_(j) + (h − j)·(x_(j+1) − x_(j))
//
// With weights w_i (counts), Q(p) is the type-7 quantile of the expanded
// sample in which x_i occurs w_i times, computed without expanding: with
// N = Σ w_i and the order statistic at expanded position k taken as the x_(i)
// whose cumulative weight range [C_(i−1), C_i) contains k, the formula above
// applies with n replaced by N. For non-integer weights the same rule is
// used (it reduces to the expanded sample when weights are whole numbers).
//
// x is not modified (it is copied before sorting). Quantile returns NaN when x
// is empty or the weights sum to zero; it panics if p is outside [0, 1] or
// weights do not match x. x must not contain NaN.
func Quantile(x []float64, p float64, weights []float64) float64 {
	checkWeights("Quantile", x, weights)
	if weights == nil {
		s := slices.Clone(x)
		slices.Sort(s)
		return QuantileSorted(s, p, nil)
	}
	s, w := sortedPairs(x, weights)
	return QuantileSorted(s, p, w)
}

// sortOrder returns the permutation that sorts x ascending.
func sortOrder(x []float64) []int32 {
	idx := make([]int32, len(x))
	for i := range idx {
		idx[i] = int32(i)
	}
	slices.SortFunc(idx, func(a, b int32) int { return cmp.Compare(x[a], x[b]) })
	return idx
}

// sortedPairs returns copies of x and weights sorted by x.
func sortedPairs(x, weights []float64) ([]float64, []float64) {
	idx := sortOrder(x)
	s := make([]float64, len(x))
	w := make([]float64, len(x))
	for k, i := range idx {
		s[k] = x[i]
		w[k] = weights[i]
	}
	return s, w
}

// QuantileSorted is Quantile for x already sorted ascending; it neither
// copies nor checks the order.
func QuantileSorted(x []float64, p float64, weights []float64) float64 {
	if !(p >= 0 && p <= 1) {
		panic("stats: Quantile: p outside [0, 1]")
	}
	checkWeights("QuantileSorted", x, weights)
	if len(x) == 0 {
		return math.NaN()
	}
	if weights == nil {
		h := float64(len(x)-1) * p
		j := int(h)
		if j >= len(x)-1 {
			return x[len(x)-1]
		}
		return lerp(x[j], x[j+1], h-float64(j))
	}
	var total float64
	for _, w := range weights {
		total += w
	}
	if total == 0 {
		return math.NaN()
	}
	h := (total - 1) * p
	if h < 0 { // total weight below one: only the first order statistic exists
		h = 0
	}
	j := math.Floor(h)
	// The order statistic at expanded position k is the first x_i whose
	// cumulative weight C_i exceeds k.
	i, cum := 0, 0.0
	for ; i < len(x); i++ {
		cum += weights[i]
		if cum > j {
			break
		}
	}
	if i == len(x) { // rounding put j at the very end
		return lastPositive(x, weights)
	}
	lo := x[i]
	frac := h - j
	if frac == 0 || cum > j+1 {
		return lo
	}
	for i++; i < len(x); i++ {
		cum += weights[i]
		if cum > j+1 {
			return lerp(lo, x[i], frac)
		}
	}
	return lo // position j+1 does not exist (rounding at p = 1)
}

// lastPositive returns the last x with positive weight.
func lastPositive(x, weights []float64) float64 {
	for i := len(x) - 1; i >= 0; i-- {
		if weights[i] > 0 {
			return x[i]
		}
	}
	return math.NaN()
}

// lerp interpolates between a ≤ b at fraction t in [0, 1] the way numpy's
// quantile does (a + (b−a)·t for t < 0.5, b − (b−a)·(1−t) otherwise), so the
// results match numpy bit for bit in the common case; an infinite bound
// gives an infinite result.
func lerp(a, b, t float64) float64 {
	if t == 0 || a == b {
		return a
	}
	if math.IsInf(a, 0) || math.IsInf(b, 0) {
		return (1-t)*a + t*b
	}
	d := b - a
	if t < 0.5 {
		return a + d*t
	}
	return b - d*(1-t)
}

// Median returns the weighted median of x, Quantile(x, 0.5, weights): the
// middle order statistic, or the mean of the two middle ones when the
// (expanded) sample size is even. x is not modified.
func Median(x, weights []float64) float64 {
	return Quantile(x, 0.5, weights)
}

// mad returns the median absolute deviation of x from its median, unscaled
// (no 1.4826 consistency factor), with frequency weights.
//
//	MAD = median_i |x_i − median(x)|
//
// The deviations carry the same weights as x. µOpTime uses the unscaled form:
// its replication package computes np.median(np.absolute(data − m)) with
// m = np.median(data) (njapke/uoptime-replication-package,
// stat_functions.py, function rmad); scipy's equivalent is
// scipy.stats.median_abs_deviation(x, scale=1.0). x is not modified.
func mad(x, weights []float64) float64 {
	checkWeights("mad", x, weights)
	m := Median(x, weights)
	d := make([]float64, len(x))
	for i, v := range x {
		d[i] = math.Abs(v - m)
	}
	return Median(d, weights)
}

// RMAD returns the relative median absolute deviation of x, the RMAD
// stability metric of µOpTime (Japke et al., TOSEM 2025).
//
//	RMAD = mad(x) / median(x)        (MAD unscaled, see MAD)
//
// x is not modified.
func RMAD(x, weights []float64) float64 {
	return mad(x, weights) / Median(x, weights)
}
