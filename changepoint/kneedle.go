package changepoint

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
)

// curve is the shape of the curve Kneedle looks at.
type curve int

const (
	// convex curves have elbows (kneed curve="convex").
	convex curve = iota
	// concave curves have knees (kneed curve="concave").
	concave
)

// direction is whether the curve increases or decreases with x.
type direction int

const (
	// decreasing curves (kneed direction="decreasing").
	decreasing direction = iota
	// increasing curves (kneed direction="increasing").
	increasing
)

// kneedVersion selects which release of the Python kneed package Kneedle
// reproduces. The two differ only in when the scan of the difference
// curve stops.
type kneedVersion int

const (
	// kneed086 is kneed 0.8.6 (the current release): the scan stops at the
	// last index.
	kneed086 kneedVersion = iota
	// kneed070 is kneed 0.7.0, the version pinned by Traini et al.: the
	// scan stops where the normalised x equals 1.0, and reaching the last
	// index without a knee raises IndexError (ErrKneedIndex).
	kneed070
)

// errKneedIndex reports that kneed 0.7.0 would raise IndexError: it ran
// off the end of the difference curve without finding a knee.
var errKneedIndex = errors.New("changepoint: kneed 0.7.0 raises IndexError (scan ran past the last point)")

// errKneedleTooFewPoints is returned for curves of fewer than 2 points
// (scipy's interp1d refuses them).
var errKneedleTooFewPoints = errors.New("changepoint: Kneedle needs at least 2 points")

// kneedleOptions configures Kneedle.
type kneedleOptions struct {
	// S is the sensitivity: how many mean x-steps the difference curve must
	// drop below a local maximum before that maximum is declared a knee.
	S         float64
	Curve     curve
	Direction direction
	// Online keeps scanning after the first knee and reports the last one
	// (kneed online=True); offline (false) returns the first knee.
	Online  bool
	Version kneedVersion
}

// defaultKneedleOptions is the setting Traini et al. use on the CROPS
// curve: S = 1, convex, decreasing, offline, kneed 0.8.6 (interp1d, the
// only interpolation implemented here).
var defaultKneedleOptions = kneedleOptions{S: 1, Curve: convex, Direction: decreasing}

// KneedleResult holds the knee and kneed's intermediate arrays, named as
// in kneed.
type KneedleResult struct {
	// Found reports whether a knee was detected. Knee is its x value,
	// KneeY the first y whose x equals Knee, NormKnee the normalised x of
	// the difference-curve maximum it came from, and KneeIndex the index
	// into x of Knee.
	Found     bool
	Knee      float64
	KneeY     float64
	NormKnee  float64
	KneeIndex int
	// AllKnees lists every distinct knee in detection order (more than one
	// only in online mode).
	AllKnees []float64

	XNormalized []float64
	// YNormalized is the normalised y after kneed's transform_y (kneed's
	// y_normalized attribute).
	YNormalized   []float64
	YDifference   []float64
	MaximaIndices []int
	MinimaIndices []int
	Tmx           []float64
}

// kneedle finds the knee (or elbow) of the curve (x, y) with the Kneedle
// algorithm of Satopää, Albrecht, Irwin and Raghavan, "Finding a 'Kneedle'
// in a haystack: detecting knee points in system behavior", ICDCS
// Workshops 2011, exactly as kneed's KneeLocator computes it with
// interp_method="interp1d":
//
//	ŷ        = linear interpolation of (x, y) at x (y itself, up to ties in x)
//	x_n      = (x - min x) / (max x - min x),  y_n likewise from ŷ
//	y_n      := max y_n - y_n (convex, decreasing) / flip(y_n) (concave,
//	            decreasing) / flip(max y_n - y_n) (convex, increasing)
//	d        = y_n - x_n                       (difference curve)
//	maxima   = {i : d_i >= d_{i±1}},  minima = {i : d_i <= d_{i±1}}
//	            (ends compared with themselves, as argrelextrema's clip mode)
//	T_k      = d_{max_k} - S·|mean(diff(x_n))|
//
// Scanning from the first maximum, the threshold is T_k after maximum k and
// 0 after a minimum; the first i with d_{i+1} < threshold declares the last
// maximum a knee. The x order is the caller's (Traini et al. pass
// penalties in decreasing order). Floating-point operations follow numpy
// (including its pairwise summation in the mean), so the normalised arrays
// and Tmx match kneed bit for bit.
//
// x and y must have the same length (else it panics); it returns
// errKneedleTooFewPoints for fewer than 2 points, an error for non-finite
// values, and, with Version kneed070, the result together with
// ErrKneedIndex when kneed 0.7.0 would raise IndexError. A constant y gives
// NaN normalised values and no knee, as in kneed.
func kneedle(x, y []float64, opt kneedleOptions) (*KneedleResult, error) {
	if len(x) != len(y) {
		panic(fmt.Sprintf("changepoint: Kneedle: len(x) = %d != len(y) = %d", len(x), len(y)))
	}
	n := len(x)
	if n < 2 {
		return nil, errKneedleTooFewPoints
	}
	if err := checkFinite(x); err != nil {
		return nil, fmt.Errorf("Kneedle x: %w", err)
	}
	if err := checkFinite(y); err != nil {
		return nil, fmt.Errorf("Kneedle y: %w", err)
	}

	r := &KneedleResult{}
	// Step 1: scipy interp1d (linear, delegated to numpy.interp) evaluated
	// at x: x sorted stably, and each x takes the y of the last sorted
	// point not greater than it.
	ds := interpAtSamples(x, y)
	// Step 2: normalise.
	r.XNormalized = minMaxNormalize(x)
	yn := minMaxNormalize(ds)
	// Step 3: transform to a concave increasing curve; difference curve.
	yn = transformY(yn, opt.Direction, opt.Curve)
	r.YNormalized = yn
	r.YDifference = make([]float64, n)
	for i := range yn {
		r.YDifference[i] = yn[i] - r.XNormalized[i]
	}
	// Step 4: local maxima and minima (scipy argrelextrema, order 1, clip).
	r.MaximaIndices = relExtrema(r.YDifference, func(a, b float64) bool { return a >= b })
	r.MinimaIndices = relExtrema(r.YDifference, func(a, b float64) bool { return a <= b })
	// Step 5: thresholds.
	diffs := make([]float64, n-1)
	for i := range diffs {
		diffs[i] = r.XNormalized[i+1] - r.XNormalized[i]
	}
	step := opt.S * math.Abs(numpyPairwiseSum(diffs)/float64(len(diffs)))
	r.Tmx = make([]float64, len(r.MaximaIndices))
	for k, i := range r.MaximaIndices {
		r.Tmx[k] = r.YDifference[i] - step
	}
	// Step 6: find the knee.
	err := r.findKnee(x, opt)
	// Step 7: y at the knee.
	if r.Found {
		for i := range x {
			if x[i] == r.Knee {
				r.KneeY = y[i]
				break
			}
		}
	}
	return r, err
}

func (r *KneedleResult) findKnee(x []float64, opt kneedleOptions) error {
	n := len(x)
	if len(r.MaximaIndices) == 0 {
		return nil
	}
	isMax := make([]bool, n)
	for _, i := range r.MaximaIndices {
		isMax[i] = true
	}
	isMin := make([]bool, n)
	for _, i := range r.MinimaIndices {
		isMin[i] = true
	}
	maxK := 0
	var threshold float64
	thresholdIndex := 0
	for i := r.MaximaIndices[0]; i < n; i++ {
		j := i + 1
		switch opt.Version {
		case kneed070:
			if r.XNormalized[i] == 1.0 {
				return nil
			}
			if i == n-1 {
				// kneed 0.7.0 reads y_difference[j] below: IndexError,
				// unless a knee was already found (online mode only gets
				// here then).
				if len(r.AllKnees) > 0 {
					return nil
				}
				return errKneedIndex
			}
		default:
			if i == n-1 {
				return nil
			}
		}
		if isMax[i] {
			threshold = r.Tmx[maxK]
			thresholdIndex = i
			maxK++
		}
		if isMin[i] {
			threshold = 0.0
		}
		if r.YDifference[j] < threshold {
			// convex+decreasing and concave+increasing index x directly;
			// the other two count from the end (kneed's x[-(i+1)]).
			ki := thresholdIndex
			if (opt.Curve == convex) != (opt.Direction == decreasing) {
				ki = n - 1 - thresholdIndex
			}
			knee := x[ki]
			r.Found = true
			r.Knee = knee
			r.NormKnee = r.XNormalized[thresholdIndex]
			r.KneeIndex = ki
			if !slices.Contains(r.AllKnees, knee) {
				r.AllKnees = append(r.AllKnees, knee)
			}
			if !opt.Online {
				return nil
			}
		}
	}
	return nil
}

// interpAtSamples is numpy.interp(x, xs, ys) with (xs, ys) = (x, y)
// sorted stably by x (scipy interp1d, assume_sorted=False): every x takes
// the y of the last sorted sample equal to it.
func interpAtSamples(x, y []float64) []float64 {
	n := len(x)
	idx := make([]int, n)
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return x[idx[a]] < x[idx[b]] })
	xs := make([]float64, n)
	for k, i := range idx {
		xs[k] = x[i]
	}
	out := make([]float64, n)
	for i, v := range x {
		j := sort.Search(n, func(k int) bool { return xs[k] > v }) - 1
		out[i] = y[idx[j]]
	}
	return out
}

// minMaxNormalize is kneed's (a - min(a)) / (max(a) - min(a)).
func minMaxNormalize(a []float64) []float64 {
	lo, hi := a[0], a[0]
	for _, v := range a {
		lo = min(lo, v)
		hi = max(hi, v)
	}
	out := make([]float64, len(a))
	for i, v := range a {
		out[i] = (v - lo) / (hi - lo)
	}
	return out
}

// transformY is kneed's transform_y (NaN propagates through max, as in
// numpy).
func transformY(y []float64, d direction, c curve) []float64 {
	out := slices.Clone(y)
	mx := func() float64 {
		m := y[0]
		for _, v := range y {
			if math.IsNaN(v) {
				return math.NaN()
			}
			m = max(m, v)
		}
		return m
	}
	switch {
	case d == decreasing && c == concave:
		slices.Reverse(out)
	case d == decreasing && c == convex:
		m := mx()
		for i, v := range y {
			out[i] = m - v
		}
	case d == increasing && c == convex:
		m := mx()
		for i, v := range y {
			out[i] = m - v
		}
		slices.Reverse(out)
	}
	return out
}

// relExtrema is scipy.signal.argrelextrema(d, cmp, order=1, mode="clip").
func relExtrema(d []float64, cmp func(a, b float64) bool) []int {
	n := len(d)
	out := []int{}
	for i := range d {
		if cmp(d[i], d[min(i+1, n-1)]) && cmp(d[i], d[max(i-1, 0)]) {
			out = append(out, i)
		}
	}
	return out
}

// numpyPairwiseSum is numpy's pairwise summation of float64
// (pairwise_sum_DOUBLE): blocks of at most 128 summed with 8 accumulators,
// larger arrays split in halves at a multiple of 8.
func numpyPairwiseSum(a []float64) float64 {
	n := len(a)
	switch {
	case n < 8:
		res := 0.0
		for _, v := range a {
			res += v
		}
		return res
	case n <= 128:
		var r [8]float64
		copy(r[:], a[:8])
		i := 8
		for ; i < n-n%8; i += 8 {
			for k := 0; k < 8; k++ {
				r[k] += a[i+k]
			}
		}
		res := ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]))
		for ; i < n; i++ {
			res += a[i]
		}
		return res
	default:
		n2 := n / 2
		n2 -= n2 % 8
		return numpyPairwiseSum(a[:n2]) + numpyPairwiseSum(a[n2:])
	}
}
