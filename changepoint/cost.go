package changepoint

import (
	"fmt"
	"math"
)

// Cost selects the segment cost, i.e. the twice negative maximised Normal
// log-likelihood of one segment (R changepoint's cost_func).
type Cost int

const (
	// MeanVar is R's "meanvar.norm" cost (cpt.meanvar, test.stat="Normal"):
	// a change in mean and variance. For a segment (s, t] of length
	// L = t-s with sums X = Σy and X2 = Σy²,
	//
	//	σ² = (X2 - X²/L) / L,  σ² := 1e-11 if σ² <= 0
	//	C  = L·(log(2π) + log σ² + 1)
	//
	// The clamp is absolute, not relative, so apart from it the cost is
	// scale invariant (scaling y by c adds 2n·log c to the total).
	MeanVar Cost = iota
	// Mean is R's "mean.norm" cost (cpt.mean, test.stat="Normal"): a change
	// in mean with the variance assumed to be 1, i.e. the residual sum of
	// squares
	//
	//	C = X2 - X²/L
	//
	// It is not scale invariant: choose the penalty with the data's scale
	// in mind (at 15·log n it finds nothing on small-scale series).
	Mean
)

// varianceClamp is the absolute lower bound R's mll_meanvar puts on σ².
const varianceClamp = 1e-11

// log2Pi is log(2π) correctly rounded, the value gcc folds log(2*M_PI) to.
const log2Pi = 0x1.d67f1c864beb4p+0 // 1.8378770664093453

// String returns the R name of the cost ("meanvar.norm" or "mean.norm").
func (c Cost) String() string {
	switch c {
	case MeanVar:
		return "meanvar.norm"
	case Mean:
		return "mean.norm"
	}
	return fmt.Sprintf("Cost(%d)", int(c))
}

// ParseCost accepts "meanvar" / "meanvar.norm" and "mean" / "mean.norm".
func ParseCost(s string) (Cost, error) {
	switch s {
	case "meanvar", "meanvar.norm":
		return MeanVar, nil
	case "mean", "mean.norm":
		return Mean, nil
	}
	return 0, fmt.Errorf("changepoint: unknown cost %q (want meanvar or mean)", s)
}

// defaultMinSegLen is R's default minimum segment length for the cost:
// 2 for MeanVar (cpt.meanvar forces minseglen >= 2 for the Normal
// distribution), 1 for Mean.
func (c Cost) defaultMinSegLen() int {
	if c == MeanVar {
		return 2
	}
	return 1
}

func (c Cost) valid() bool { return c == MeanVar || c == Mean }

// segmentCost is the cost of a segment of length L with sums x and x2,
// evaluated with the same operation order as R's C code so that it rounds
// identically (up to the last bit of log).
func segmentCost(c Cost, x, x2 float64, L int) float64 {
	l := float64(L)
	if c == Mean {
		return x2 - float64(x*x)/l
	}
	return l * ((log2Pi + fastLog(varianceR(l, x, x2))) + 1)
}

// varianceR is the MLE variance of a segment of length l with sums x and
// x2 as R changepoint's mll.meanvar computes it, σ̂² = (x2 - x²/l)/l with
// its operations and roundings, clamped to varianceClamp where it is <= 0.
func varianceR(l, x, x2 float64) float64 {
	sig := (x2 - float64(x*x)/l) / l
	if sig <= 0 {
		sig = varianceClamp
	}
	return sig
}

// sumMode selects how the cumulative sums (the sufficient statistics) are
// accumulated.
type sumMode int

const (
	// extendedSum emulates R's cumsum(), which accumulates in 80-bit long
	// double and rounds each partial sum to double. This is the default and
	// reproduces R bit for bit.
	extendedSum sumMode = iota
	// doubleSum accumulates in float64. It matches what R computes with
	// double-accumulated sums (the reference's double_cumsum_F_n).
	doubleSum
)

// sumStats holds R's sumstat columns 1 and 2: S1[i] = Σ_{k<i} y[k] and
// S2[i] = Σ_{k<i} y[k]², i = 0..n. (Column 3, Σ(y-ȳ)², is used only by the
// variance-only cost, which this package does not provide.)
type sumStats struct {
	s1, s2 []float64
}

func newSumStats(x []float64, mode sumMode) sumStats {
	s := sumStats{s1: make([]float64, len(x)+1), s2: make([]float64, len(x)+1)}
	if mode == doubleSum {
		cumsumDouble(s.s1, x, false)
		cumsumDouble(s.s2, x, true)
	} else {
		cumsumExtended(s.s1, x, false)
		cumsumExtended(s.s2, x, true)
	}
	return s
}

// cost returns the cost of the segment (s, t] (0-based points s..t-1).
func (st sumStats) cost(c Cost, s, t int) float64 {
	return segmentCost(c, st.s1[t]-st.s1[s], st.s2[t]-st.s2[s], t-s)
}

// checkFinite returns an error naming the first non-finite value.
func checkFinite(x []float64) error {
	for i, v := range x {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("changepoint: value %d (0-based) is %v; the series must be finite", i, v)
		}
	}
	return nil
}
