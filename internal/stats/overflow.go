package stats

import (
	"fmt"
	"math"
)

// overflowError says that sums an estimator forms from a benchmark's values
// leave the float64 range, so that its result would be ±Inf or NaN.
type overflowError struct {
	// N bounds how many (weighted) values one sum adds (see CheckSums).
	N float64
	// Largest is the largest |x|, Spread the largest − the smallest value.
	Largest, Spread float64
	// Squares is true when the squared deviations overflow, not the values.
	Squares bool
}

func (e *overflowError) Error() string {
	if e.Squares {
		return fmt.Sprintf("values %.3g apart overflow float64 in a sum of up to %.3g squared deviations", e.Spread, e.N)
	}
	return fmt.Sprintf("values up to %.3g overflow float64 in a sum of up to %.3g of them", e.Largest, e.N)
}

// CheckSums returns an *OverflowError when a mean or a variance of values
// drawn from x, weighted by weights (nil: 1 each), can be ±Inf or NaN
// although every value is finite: when
//
//	N·max|x| > MaxFloat64          (a sum of values)
//	N·(max x − min x)² > MaxFloat64 (a sum of squared deviations)
//
// with N = n²·max(1, max w) for n = len(x): a bootstrap resample, flat or
// hierarchical, draws at most n units of at most n values, each weighted
// by at most max w. Values near 1.8e308 fail the first test, values more
// than 1.3e154/n apart the second; times of real benchmarks pass both by
// hundreds of orders of magnitude. Non-finite values are the caller's to
// skip or reject; CheckSums ignores them.
func CheckSums(x, weights []float64) error {
	checkWeights("CheckSums", x, weights)
	n := float64(len(x))
	maxW := 1.0
	for _, w := range weights {
		maxW = max(maxW, w)
	}
	lo, hi, largest := math.Inf(1), math.Inf(-1), 0.0
	for _, v := range x {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			continue
		}
		lo, hi, largest = min(lo, v), max(hi, v), max(largest, math.Abs(v))
	}
	if lo > hi {
		return nil
	}
	N := n * n * maxW
	switch spread := hi - lo; {
	case largest > math.MaxFloat64/N:
		return &overflowError{N: N, Largest: largest, Spread: spread}
	case spread > math.Sqrt(math.MaxFloat64/N):
		return &overflowError{N: N, Largest: largest, Spread: spread, Squares: true}
	}
	return nil
}

// CheckCountedSums is CheckSums of values recorded with operation or
// histogram counts (a table.Series' NsPerOp and Count): the counts weigh
// the values, a count below 1 (unknown) as 1, as count-weighted means do.
func CheckCountedSums(x []float64, counts []int64) error {
	if len(counts) != len(x) {
		panic("stats: CheckCountedSums: len(counts) != len(x)")
	}
	w := make([]float64, len(counts))
	for i, c := range counts {
		w[i] = max(float64(c), 1)
	}
	return CheckSums(x, w)
}
