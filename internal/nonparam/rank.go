package nonparam

import (
	"errors"
	"fmt"
	"math"
	"slices"
)

// errEmpty is wrapped by the errors returned for a sample without values.
var errEmpty = errors.New("empty sample")

// errNaN is wrapped by the errors returned for a sample holding a NaN.
var errNaN = errors.New("NaN value")

// checkSample returns an error naming the sample when x is empty or holds a
// NaN.
func checkSample(name string, x []float64) error {
	if len(x) == 0 {
		return fmt.Errorf("nonparam: sample %s: %w", name, errEmpty)
	}
	for i, v := range x {
		if math.IsNaN(v) {
			return fmt.Errorf("nonparam: sample %s[%d]: %w", name, i, errNaN)
		}
	}
	return nil
}

// rank returns the ranks of x, 1-based, giving tied values the average of
// the ranks they span (scipy.stats.rankdata(x, method="average")):
//
//	rank(x_i) = #{j : x_j < x_i} + (#{j : x_j = x_i} + 1) / 2
//
// The ranks are written to dst, which is allocated when nil and must
// otherwise have len(x); Rank panics if it has not. x is not modified.
// rank returns an error if x is empty or holds a NaN. It runs in
// O(n log n) time.
func rank(dst, x []float64) ([]float64, error) {
	if dst == nil {
		dst = make([]float64, len(x))
	}
	if len(dst) != len(x) {
		panic("nonparam: Rank: len(dst) != len(x)")
	}
	if err := checkSample("x", x); err != nil {
		return nil, err
	}
	rankInto(dst, x)
	return dst, nil
}

// rankInto writes the average-tie ranks of the NaN-free x to dst and returns
// the tie term Σ_g (t_g³ − t_g) over the groups of equal values.
func rankInto(dst, x []float64) (tieSum float64) {
	type item struct {
		v float64
		i int
	}
	items := make([]item, len(x))
	for i, v := range x {
		items[i] = item{v, i}
	}
	slices.SortFunc(items, func(a, b item) int {
		switch {
		case a.v < b.v:
			return -1
		case a.v > b.v:
			return 1
		}
		return 0
	})
	for i := 0; i < len(items); {
		j := i + 1
		for j < len(items) && items[j].v == items[i].v {
			j++
		}
		// Positions i..j-1 (0-based) hold ranks i+1..j; their mean is (i+1+j)/2.
		r := float64(i+1+j) / 2
		for _, it := range items[i:j] {
			dst[it.i] = r
		}
		t := float64(j - i)
		tieSum += t*t*t - t
		i = j
	}
	return tieSum
}

// tieCorrection returns the tie-correction factor of the rank-based tests
// (scipy.stats.tiecorrect):
//
//	C = 1 − Σ_g (t_g³ − t_g) / (n³ − n)
//
// where t_g is the size of the g-th group of equal values among the n values
// of x (x may hold data or their ranks: ties are the same). C = 1 when there
// are no ties or n < 2, and C = 0 when all values are equal. Each NaN counts
// as a value tied with nothing. x is not modified.
//
// Reference: Siegel & Castellan, Nonparametric Statistics for the Behavioral
// Sciences, 2nd ed., McGraw-Hill 1988 (Kruskal-Wallis with ties).
func tieCorrection(x []float64) float64 {
	n := float64(len(x))
	if len(x) < 2 {
		return 1
	}
	s := slices.Clone(x)
	slices.Sort(s)
	return 1 - tieSumSorted(s)/(n*n*n-n)
}

// tieSumSorted returns Σ_g (t_g³ − t_g) over the groups of equal values of
// the sorted slice s.
func tieSumSorted(s []float64) float64 {
	var sum float64
	for i := 0; i < len(s); {
		j := i + 1
		for j < len(s) && s[j] == s[i] {
			j++
		}
		t := float64(j - i)
		sum += t*t*t - t
		i = j
	}
	return sum
}
