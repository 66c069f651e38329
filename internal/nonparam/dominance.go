package nonparam

import "github.com/benchtrim/benchtrim/estimate"

// dominance counts, over all n·m pairs (x_i, y_j) of two samples, how often
// the x value is larger, smaller or equal. It is the common core of the U
// statistic, Cliff's δ and the Vargha-Delaney Â12.
type dominance struct {
	Greater int64 // #{(i, j) : x_i > y_j}
	Less    int64 // #{(i, j) : x_i < y_j}
	Equal   int64 // #{(i, j) : x_i = y_j}
	N, M    int   // sample sizes of x and y
}

// pairs returns the number of pairs n·m.
func (d dominance) pairs() int64 { return int64(d.N) * int64(d.M) }

// countDominance returns the pair counts of x against y. x and y are not
// modified. It returns an error if either sample is empty or holds a NaN.
// It sorts copies of both samples (as order-preserving integer keys, radix
// sorted when large) and merges them, so it runs in O(n + m) time for large samples, and at worst
// O(n log n + m log m), rather than comparing all n·m pairs.
func countDominance(x, y []float64) (dominance, error) {
	if err := checkSample("x", x); err != nil {
		return dominance{}, err
	}
	if err := checkSample("y", y); err != nil {
		return dominance{}, err
	}
	xs, ys := sortedPair(x, y)
	d, _ := mergeCount(xs, ys)
	return d, nil
}

// sortedPair returns the sorted order keys (see floatKey) of x and y, in
// one allocation.
func sortedPair(x, y []float64) (xs, ys []uint64) {
	n, m := len(x), len(y)
	buf := make([]uint64, n+m+max(n, m))
	xs, ys, tmp := buf[:n:n], buf[n:n+m:n+m], buf[n+m:]
	sortedKeys(xs, tmp, x)
	sortedKeys(ys, tmp, y)
	return xs, ys
}

// mergeCount walks the sorted order keys xs and ys of two samples once and
// returns
// their pair counts and the tie term Σ_g (t_g³ − t_g) of the pooled sample,
// where t_g is the size of the g-th group of equal pooled values.
func mergeCount(xs, ys []uint64) (d dominance, tieSum float64) {
	d.N, d.M = len(xs), len(ys)
	i, j := 0, 0
	for i < len(xs) || j < len(ys) {
		var v uint64
		if j == len(ys) || (i < len(xs) && xs[i] <= ys[j]) {
			v = xs[i]
		} else {
			v = ys[j]
		}
		below := int64(j) // # y values smaller than v
		a := 0
		for i < len(xs) && xs[i] == v {
			a++
			i++
		}
		b := 0
		for j < len(ys) && ys[j] == v {
			b++
			j++
		}
		d.Greater += int64(a) * below
		d.Equal += int64(a) * int64(b)
		t := float64(a + b)
		tieSum += t*t*t - t
	}
	d.Less = d.pairs() - d.Greater - d.Equal
	return d, tieSum
}

// CliffsDelta returns Cliff's δ of x against y,
//
//	δ = (#{(i, j) : x_i > y_j} − #{(i, j) : x_i < y_j}) / (n·m)
//
// which lies in [−1, 1]: positive when x tends to be larger than y, 0 under
// stochastic equality. It equals 2·Â12 − 1 and 2·U/(n·m) − 1 for the
// Mann-Whitney U of x. x and y are not modified. It returns an error if
// either sample is empty or holds a NaN. It runs in O((n+m) log(n+m)) time.
//
// Reference: N. Cliff, "Dominance statistics: Ordinal analyses to answer
// ordinal questions", Psychological Bulletin 114(3), 1993.
func CliffsDelta(x, y []float64) (float64, error) {
	d, err := countDominance(x, y)
	if err != nil {
		return 0, err
	}
	return d.cliffsDelta(), nil
}

// cliffsDelta returns (Greater − Less) / (N·M); see the function CliffsDelta.
func (d dominance) cliffsDelta() float64 {
	return float64(d.Greater-d.Less) / float64(d.pairs())
}

// a12 returns (Greater + Equal/2) / (N·M); see VarghaDelaneyA12.
func (d dominance) a12() float64 {
	return (float64(d.Greater) + 0.5*float64(d.Equal)) / float64(d.pairs())
}

// Thresholds of Romano et al. (2006) on |δ|, used by CliffMagnitude.
const (
	cliffSmall  = 0.147
	cliffMedium = 0.33
	cliffLarge  = 0.474
)

// CliffMagnitude labels Cliff's δ with the thresholds of Romano et al.:
//
//	negligible  |δ| < 0.147 ≤ small < 0.33 ≤ medium < 0.474 ≤ large
//
// A NaN δ is labelled Negligible.
//
// Reference: J. Romano, J. D. Kromrey, J. Coraggio, J. Skowronek,
// "Appropriate statistics for ordinal level data: Should we really be using
// t-test and Cohen's d for evaluating group differences on the NSSE and
// other surveys?", Annual meeting of the Florida Association of
// Institutional Research, 2006.
func CliffMagnitude(delta float64) estimate.Magnitude {
	if delta < 0 {
		delta = -delta
	}
	switch {
	case delta >= cliffLarge:
		return estimate.Large
	case delta >= cliffMedium:
		return estimate.Medium
	case delta >= cliffSmall:
		return estimate.Small
	}
	return estimate.Negligible
}

// VarghaDelaneyA12 returns the Vargha-Delaney measure of stochastic
// superiority of x over y,
//
//	Â12 = (#{(i, j) : x_i > y_j} + 0.5·#{(i, j) : x_i = y_j}) / (n·m)
//
// an estimate of P(X > Y) + 0.5·P(X = Y) in [0, 1]: 0.5 under stochastic
// equality, above 0.5 when x tends to be larger. Â12 = (δ + 1)/2 for Cliff's
// δ, and Â12 = U/(n·m) for the Mann-Whitney U of x. x and y are not
// modified. It returns an error if either sample is empty or holds a NaN. It
// runs in O((n+m) log(n+m)) time.
//
// Reference: A. Vargha, H. D. Delaney, "A critique and improvement of the CL
// common language effect size statistics of McGraw and Wong", Journal of
// Educational and Behavioral Statistics 25(2), 2000.
func VarghaDelaneyA12(x, y []float64) (float64, error) {
	d, err := countDominance(x, y)
	if err != nil {
		return 0, err
	}
	return d.a12(), nil
}

// A12Magnitude labels Â12 with the thresholds of Vargha & Delaney (2000),
// mirrored around 0.5 so that both directions are labelled alike:
//
//	large       Â12 ≥ 0.71  or Â12 ≤ 0.29
//	medium      Â12 ≥ 0.64  or Â12 ≤ 0.36
//	small       Â12 ≥ 0.56  or Â12 ≤ 0.44
//	negligible  otherwise (0.44 < Â12 < 0.56)
//
// (equivalently 0.06, 0.14 and 0.21 on |Â12 − 0.5|; comparing Â12 itself
// avoids rounding at the boundaries). A NaN is labelled Negligible.
func A12Magnitude(a12 float64) estimate.Magnitude {
	switch {
	case a12 >= 0.71 || a12 <= 0.29:
		return estimate.Large
	case a12 >= 0.64 || a12 <= 0.36:
		return estimate.Medium
	case a12 >= 0.56 || a12 <= 0.44:
		return estimate.Small
	}
	return estimate.Negligible
}
