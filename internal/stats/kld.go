package stats

import (
	"fmt"
	"math"
	"slices"
	"sort"
)

// kdeCutoff is the distance, in bandwidths, beyond which a data point's
// Gaussian kernel is not evaluated: exp(−39²/2) = e^−760.5 underflows to zero
// in float64, so the cutoff drops nothing that float64 could represent.
const kdeCutoff = 39

// bandwidthRule selects a rule-of-thumb bandwidth for Gaussian kernel
// density estimation.
type bandwidthRule int

const (
	// bandwidthNRD is the normal reference rule with a robust spread,
	//
	//	h = 1.06 · min(s, IQR/1.34) · n^(−1/5)
	//
	// (Silverman, "Density Estimation for Statistics and Data Analysis",
	// 1986, eq. 3.30 with Scott's constant 1.06; R's bw.nrd). It is the
	// default of Smile's KernelDensity, which the dynamic reconfiguration
	// implementation of Laaber et al. (ESEC/FSE 2020; repository sealuzh/jmh,
	// reconfigure/statistics/divergence/ProbabilityDensityFunction.java)
	// uses for its KLD criterion.
	bandwidthNRD bandwidthRule = iota
	// bandwidthNRD0 is Silverman's rule of thumb (1986, eq. 3.31; R's
	// bw.nrd0): h = 0.9 · min(s, IQR/1.34) · n^(−1/5).
	bandwidthNRD0
)

// bandwidth returns the rule's bandwidth for x with frequency weights.
//
// s is the sample standard deviation (StdDev), IQR the difference of the
// type-7 quartiles (Quantile) and n = Σ w_i. When IQR is zero (more than
// half the values tied) s is used alone, as R's bw.nrd0 does; the result is
// zero only when all values are equal. (Smile computes the IQR as
// x[3n/4] − x[n/4] of the sorted data, without interpolation; the
// difference is below one spacing of the data.) x is not modified.
func (r bandwidthRule) bandwidth(x, weights []float64) float64 {
	checkWeights("bandwidth", x, weights)
	var xs, ws []float64
	if weights == nil {
		xs = slices.Sorted(slices.Values(x))
	} else {
		xs, ws = sortedPairs(x, weights)
	}
	return r.bandwidthSorted(xs, ws)
}

// bandwidthSorted is Bandwidth for x sorted ascending.
func (r bandwidthRule) bandwidthSorted(x, weights []float64) float64 {
	c := 1.06
	switch r {
	case bandwidthNRD:
	case bandwidthNRD0:
		c = 0.9
	default:
		panic("stats: unknown BandwidthRule")
	}
	n := float64(len(x))
	if weights != nil {
		n = 0
		for _, w := range weights {
			n += w
		}
	}
	if n < 2 {
		return 0
	}
	s := StdDev(x, weights)
	spread := s
	if iqr := QuantileSorted(x, 0.75, weights) - QuantileSorted(x, 0.25, weights); iqr > 0 && iqr/1.34 < s {
		spread = iqr / 1.34
	}
	return c * spread * math.Pow(n, -0.2)
}

// kde is a Gaussian kernel density estimate of a weighted sample:
//
//	f(t) = 1/(W·h·√(2π)) · Σ_j w_j · exp(−(t − x_j)² / (2h²)),   W = Σ_j w_j
//
// Kernels are evaluated within 39 bandwidths of t (farther, they underflow to
// zero). It equals scipy.stats.gaussian_kde with bandwidth h up to rounding.
type kde struct {
	x, w  []float64 // distinct values ascending, summed weights
	total float64
	h     float64
}

// newKDE returns the Gaussian KDE of x with frequency weights (nil = 1) and
// bandwidth h > 0. It copies x. It panics if h <= 0 or weights do not match x,
// and returns nil for empty x or zero total weight.
func newKDE(x, weights []float64, h float64) *kde {
	if !(h > 0) || math.IsInf(h, 0) {
		panic("stats: newKDE: bandwidth must be positive and finite")
	}
	checkWeights("newKDE", x, weights)
	var xs, ws []float64
	if weights == nil {
		xs = slices.Sorted(slices.Values(x))
	} else {
		xs, ws = sortedPairs(x, weights)
	}
	return newKDESorted(xs, ws, h)
}

// newKDESorted is newKDE for x sorted ascending (weights in the same order);
// it keeps neither slice.
func newKDESorted(x, weights []float64, h float64) *kde {
	k := &kde{h: h}
	for i, v := range x {
		w := 1.0
		if weights != nil {
			w = weights[i]
		}
		if w == 0 {
			continue
		}
		k.total += w
		if n := len(k.x); n > 0 && k.x[n-1] == v {
			k.w[n-1] += w
			continue
		}
		k.x = append(k.x, v)
		k.w = append(k.w, w)
	}
	if k.total == 0 {
		return nil
	}
	return k
}

// density returns f(t).
func (k *kde) density(t float64) float64 {
	lo := sort.SearchFloat64s(k.x, t-kdeCutoff*k.h)
	var s float64
	for j := lo; j < len(k.x) && k.x[j] <= t+kdeCutoff*k.h; j++ {
		z := (t - k.x[j]) / k.h
		s += k.w[j] * math.Exp(-0.5*z*z)
	}
	return s / (k.total * k.h * math.Sqrt(2*math.Pi))
}

// densityGrid sets dst[i] = f(lo + i·step) for every i < len(dst) and returns
// dst; step must be positive.
//
// With δ = step/h, a data point x whose nearest grid point is c, at
// standardized offset u = (x − t_c)/h, adds at grid point c + k the kernel
// factored as
//
//	exp(−(kδ − u)²/2) = exp(−u²/2) · exp(−k²δ²/2) · E^k,   E = exp(δu),
//
// with the middle factor tabulated once and E^k a running product, so a data
// point costs three exponentials instead of one per grid point; the products
// stay in range and accurate (relative error below 10⁻¹³ over 1,000 points)
// because E^k shrinks away from the data point or, inside the grid, stays
// below e^20. For grids coarser than the bandwidth (δ > 1) the few kernels
// that do not underflow are evaluated directly.
func (k *kde) densityGrid(dst []float64, lo, step float64) []float64 {
	if !(step > 0) {
		panic("stats: kde.densityGrid: step must be positive")
	}
	clear(dst)
	G := len(dst)
	if G == 0 {
		return dst
	}
	delta := step / k.h
	// Kernels farther than kdeCutoff bandwidths underflow: at most K steps.
	K := G - 1
	if reach := math.Ceil(kdeCutoff/delta) + 1; reach < float64(K) {
		K = int(reach)
	}
	direct := delta > 1
	var A []float64
	if !direct {
		A = make([]float64, K+1)
		for j := range A {
			z := float64(j) * delta
			A[j] = math.Exp(-0.5 * z * z)
		}
	}
	for j, xj := range k.x {
		c := int(math.Round((xj - lo) / step))
		c = max(0, min(G-1, c))
		u := (xj - (lo + float64(c)*step)) / k.h
		if math.Abs(u) > kdeCutoff {
			continue // the kernel underflows on the whole grid
		}
		w := k.w[j]
		up, down := min(K, G-1-c), min(K, c) // steps from c that are on the grid
		if direct {
			for kk := -down; kk <= up; kk++ {
				z := float64(kk)*delta - u
				dst[c+kk] += w * math.Exp(-0.5*z*z)
			}
			continue
		}
		wu := w * math.Exp(-0.5*u*u)
		E := math.Exp(delta * u)
		p := wu
		for kk := 0; kk <= up; kk++ {
			dst[c+kk] += p * A[kk]
			p *= E
		}
		p = wu / E
		Einv := 1 / E
		for kk := 1; kk <= down; kk++ {
			dst[c-kk] += p * A[kk]
			p *= Einv
		}
	}
	norm := 1 / (k.total * k.h * math.Sqrt(2*math.Pi))
	for i := range dst {
		dst[i] *= norm
	}
	return dst
}

// kldOptions configures kldStability.
type kldOptions struct {
	// strips is the number of equally spaced evaluation points G (at least 2).
	strips int
	// iqrFactor k sets each sample's range to [Q1 − k·IQR, Q3 + k·IQR].
	iqrFactor float64
	// bandwidth is the KDE bandwidth rule.
	bandwidth bandwidthRule
	// epsilon is the floor of a strip probability, in (0, 1): strips where a
	// density vanishes (underflows) count as Epsilon, so that the divergence
	// stays finite.
	epsilon float64
	// nonNegative clamps the lower end of the range at zero (execution times
	// are non-negative), as Laaber et al.'s implementation does.
	nonNegative bool
}

// defaultKLD, KLDStability's options, follows He et al. (PT4Cloud) and Laaber et al. (ESEC/FSE 2020):
// 1,000 strips over the 1.5·IQR fences, bandwidth rule nrd, a range clamped
// at zero, and a probability floor of 10⁻¹².
var defaultKLD = kldOptions{strips: 1000, iqrFactor: 1.5, bandwidth: bandwidthNRD, epsilon: 1e-12, nonNegative: true}

// validate reports whether o is usable.
func (o kldOptions) validate() error {
	if o.strips < 2 {
		return fmt.Errorf("stats: KLD strips must be at least 2, got %d", o.strips)
	}
	if !(o.iqrFactor >= 0) || math.IsInf(o.iqrFactor, 0) {
		return fmt.Errorf("stats: KLD IQR factor must be finite and >= 0, got %v", o.iqrFactor)
	}
	if !(o.epsilon > 0 && o.epsilon < 1) {
		return fmt.Errorf("stats: KLD epsilon must be in (0, 1), got %v", o.epsilon)
	}
	if o.bandwidth != bandwidthNRD && o.bandwidth != bandwidthNRD0 {
		return fmt.Errorf("stats: unknown KLD bandwidth rule %d", int(o.bandwidth))
	}
	return nil
}

// KLDStability returns the probability that samples x and y (frequency
// weights xw, yw; nil = 1) come from the same distribution, by the
// Kullback-Leibler divergence of their kernel density estimates (He, Manns,
// Saunders, Wang, Pollock, Soffa, "A statistics-based performance testing
// methodology for cloud applications" (PT4Cloud), ESEC/FSE 2019), as used for
// the KLD stability criterion of dynamic reconfiguration (Laaber, Würsten,
// Gall, Leitner, ESEC/FSE 2020).
//
// With f and g the Gaussian KDEs of x and y (bandwidths by rule nrd), the
// range [lo, hi] the union of both samples' [Q1 − k·IQR, Q3 + k·IQR]
// (type-7 quartiles, k = 1.5; lo clamped at 0), G = 1,000 points t_i = lo + i·Δ, Δ = (hi − lo)/(G − 1), i = 0 … G−1, and
//
//	p_i = max(f(t_i)·Δ, ε),  q_i = max(g(t_i)·Δ, ε)      (ε = 10⁻¹²)
//	D(P‖Q) = Σ_i p_i · ln(p_i / q_i)
//	L(P‖Q) = 2^(−D(P‖Q))
//	p      = L(P‖Q) · L(Q‖P)
//
// This is the computation of Laaber et al.'s implementation (sealuzh/jmh,
// reconfigure/statistics/divergence: Divergence.java, KullbackLeibler-
// Divergence.java): a Riemann sum of the densities on the G points with the
// natural logarithm, not renormalized. It differs in two documented ways:
// strips where a density is (numerically) zero count as ε instead of being
// skipped, so that disjoint samples give p ≈ 0 rather than a divergence over
// the overlap only (ε = 10⁻¹² gives D ≈ 27.6 per unit of non-overlapping
// mass); and the kernels are not truncated at 5 bandwidths as Smile's are (see kde).
// Since D(P‖Q) + D(Q‖P) = Σ (p_i − q_i)·ln(p_i/q_i) >= 0, p is in [0, 1].
//
// Degenerate cases: when the range is a single point (both samples have
// zero spread around the same quartiles) p = 1, as in Laaber et al.'s code; a
// sample whose bandwidth is zero (all values equal) is a point mass that puts
// probability 1 on the strip nearest its value.
//
// The options are defaultKLD's. x and y are not modified. It returns an
// error for empty samples, non-finite values, and for a range that is empty
// after clamping at zero (all values negative).
func KLDStability(x, xw, y, yw []float64) (float64, error) {
	return kldStability(x, xw, y, yw, defaultKLD)
}

// kldStability is KLDStability with the options opt; it also returns an
// error for invalid options.
func kldStability(x, xw, y, yw []float64, opt kldOptions) (float64, error) {
	if err := opt.validate(); err != nil {
		return math.NaN(), err
	}
	checkWeights("KLDStability", x, xw)
	checkWeights("KLDStability", y, yw)
	for _, s := range []struct {
		name string
		v, w []float64
	}{{"x", x, xw}, {"y", y, yw}} {
		var total float64
		for i, v := range s.v {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return math.NaN(), fmt.Errorf("stats: KLDStability: %s[%d] is %v", s.name, i, v)
			}
			if s.w == nil {
				total++
			} else {
				total += s.w[i]
			}
		}
		if total == 0 {
			return math.NaN(), fmt.Errorf("stats: KLDStability: sample %s: %w", s.name, errNoData)
		}
	}
	px, py := sortSample(x, xw), sortSample(y, yw)
	lo1, hi1 := px.fences(opt.iqrFactor)
	lo2, hi2 := py.fences(opt.iqrFactor)
	lo, hi := math.Min(lo1, lo2), math.Max(hi1, hi2)
	if opt.nonNegative && lo < 0 {
		lo = 0
	}
	if hi < lo {
		return math.NaN(), fmt.Errorf("stats: KLDStability: range [%v, %v] is empty after clamping at zero", lo, hi)
	}
	if hi == lo {
		return 1, nil
	}
	G := opt.strips
	step := (hi - lo) / float64(G-1)
	p := px.stripProbabilities(opt, lo, step, G)
	q := py.stripProbabilities(opt, lo, step, G)
	d := klDivergence(p, q) + klDivergence(q, p)
	return math.Exp2(-d), nil
}

// sortedSample is a sample sorted ascending with its weights (nil = 1).
type sortedSample struct{ x, w []float64 }

func sortSample(x, w []float64) sortedSample {
	if w == nil {
		return sortedSample{x: slices.Sorted(slices.Values(x))}
	}
	xs, ws := sortedPairs(x, w)
	return sortedSample{xs, ws}
}

// fences returns [Q1 − k·IQR, Q3 + k·IQR].
func (s sortedSample) fences(k float64) (lo, hi float64) {
	q1, q3 := QuantileSorted(s.x, 0.25, s.w), QuantileSorted(s.x, 0.75, s.w)
	iqr := q3 - q1
	return q1 - k*iqr, q3 + k*iqr
}

// stripProbabilities returns max(f(lo + i·step)·step, ε) for the KDE f.
func (s sortedSample) stripProbabilities(opt kldOptions, lo, step float64, G int) []float64 {
	p := make([]float64, G)
	h := opt.bandwidth.bandwidthSorted(s.x, s.w)
	if h > 0 {
		newKDESorted(s.x, s.w, h).densityGrid(p, lo, step)
		for i := range p {
			p[i] = math.Max(p[i]*step, opt.epsilon)
		}
		return p
	}
	// Point mass: every value equal (zero weights aside).
	var v float64
	for i := range s.x {
		if s.w == nil || s.w[i] > 0 {
			v = s.x[i]
			break
		}
	}
	c := int(math.Round((v - lo) / step))
	c = max(0, min(G-1, c))
	for i := range p {
		p[i] = opt.epsilon
	}
	p[c] = 1
	return p
}

// klDivergence returns Σ p_i·ln(p_i/q_i) for positive p and q.
func klDivergence(p, q []float64) float64 {
	var d float64
	for i := range p {
		d += p[i] * math.Log(p[i]/q[i])
	}
	return d
}
