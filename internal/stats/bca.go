package stats

import (
	"math"

	"github.com/benchtrim/benchtrim/estimate"
)

// BCaInterval is a bias-corrected and accelerated bootstrap interval with
// the quantities that produced it.
type BCaInterval struct {
	estimate.Interval
	// z0 is the bias correction ẑ0 and Accel the acceleration â.
	z0, accel float64
	// alpha1 and alpha2 are the levels of the replicate quantiles taken as
	// the lower and upper bound.
	alpha1, alpha2 float64
	// stdErr is the standard deviation of the replicates (n − 1 denominator),
	// scipy's standard_error.
	stdErr float64
}

// normalCDF is the standard normal distribution function,
//
//	Φ(z) = erfc(−z/√2) / 2.
func normalCDF(z float64) float64 { return 0.5 * math.Erfc(-z/math.Sqrt2) }

// NormalQuantile is the standard normal quantile function,
//
//	Φ⁻¹(p) = −√2 · erfcinv(2p),
//
// −Inf at p = 0, +Inf at p = 1 and NaN outside [0, 1] (scipy's ndtri).
func NormalQuantile(p float64) float64 { return -math.Sqrt2 * math.Erfcinv(2*p) }

// BootstrapMeanBCa returns the mean of x with its bias-corrected and
// accelerated (BCa) bootstrap confidence interval (Efron, "Better bootstrap
// confidence intervals", JASA 82(397), 1987; Efron and Tibshirani, "An
// Introduction to the Bootstrap", 1993, §14.3 and eq. 14.15), computed as
// scipy.stats.bootstrap(method="BCa") does in scipy ≥ 1.9.
//
// With θ̂ = mean(x), n = len(x), B = opt.Resamples resample means θ*_1 … θ*_B
// (each of n values drawn from x uniformly with replacement) and
// α = (1 − opt.Confidence)/2:
//
//	ẑ0 = Φ⁻¹( (#{θ*_b < θ̂} + #{θ*_b ≤ θ̂}) / 2B )          (scipy ≥ 1.9, "mean" percentile of score)
//	â  = Σ (θ̄_(·) − θ_(i))³ / (6 · (Σ (θ̄_(·) − θ_(i))²)^{3/2})   (jackknife; θ_(i) = mean without x_i)
//	α1 = Φ( ẑ0 + (ẑ0 + z_α) / (1 − â(ẑ0 + z_α)) )
//	α2 = Φ( ẑ0 + (ẑ0 − z_α) / (1 − â(ẑ0 − z_α)) ),  z_α = Φ⁻¹(α)
//	[Lower, Upper] = [ Q(α1), Q(α2) ]  of θ*_1 … θ*_B
//
// Q is the type-7 quantile (numpy's default percentile). For the mean,
// θ̄_(·) − θ_(i) = (x_i − x̄)/(n − 1), so â is computed in O(n) from the
// centred values: â = Σ(x_i − x̄)³ / (6 (Σ(x_i − x̄)²)^{3/2}).
//
// Degenerate data give NaN bounds, as scipy does (where it warns with a
// DegenerateDataWarning): when x has one value or all its values are equal
// (â is 0/0), and when α1 or α2 is NaN (ẑ0 infinite with â ≠ 0). The
// estimate and stdErr are still set.
//
// x is not modified; rng supplies the draws (the resampling loop does not
// allocate); ws may be nil. It returns an error for invalid options, empty
// x or a non-finite value. Cost: O(B·n) draws and O(B) for the quantiles.
func BootstrapMeanBCa(x []float64, opt estimate.BootstrapOptions, rng *Stream, ws *Workspace) (BCaInterval, error) {
	if err := checkSample("BootstrapMeanBCa", x, opt); err != nil {
		return BCaInterval{}, err
	}
	if ws == nil {
		ws = new(Workspace)
	}
	ws.replicates = grow(ws.replicates, opt.Resamples)
	reps := ws.replicates
	resampleMeans(x, reps, rng)

	n := float64(len(x))
	var sum float64
	for _, v := range x {
		sum += v
	}
	theta := sum / n
	out := BCaInterval{Interval: estimate.Interval{Estimate: theta}}

	var less, lessEq int
	var rs float64
	for _, v := range reps {
		rs += v
		if v < theta {
			less++
		}
		if v <= theta {
			lessEq++
		}
	}
	rm := rs / float64(len(reps))
	var ss float64
	for _, v := range reps {
		ss += (v - rm) * (v - rm)
	}
	out.stdErr = math.Sqrt(ss / float64(len(reps)-1))
	out.z0 = NormalQuantile(float64(less+lessEq) / float64(2*len(reps)))

	if len(x) < 2 || constant(x) {
		out.accel = math.NaN()
	} else {
		var s2, s3 float64
		for _, v := range x {
			d := v - theta
			s2 += d * d
			s3 += d * d * d
		}
		out.accel = s3 / (6 * math.Pow(s2, 1.5))
	}

	za := NormalQuantile((1 - opt.Confidence) / 2)
	z0, a := out.z0, out.accel
	n1 := z0 + za
	n2 := z0 - za
	out.alpha1 = normalCDF(z0 + n1/(1-a*n1))
	out.alpha2 = normalCDF(z0 + n2/(1-a*n2))
	out.Lower, out.Upper = math.NaN(), math.NaN()
	if !math.IsNaN(out.alpha1) {
		out.Lower = selectQuantile(reps, out.alpha1)
	}
	if !math.IsNaN(out.alpha2) {
		out.Upper = selectQuantile(reps, out.alpha2)
	}
	return out, nil
}
