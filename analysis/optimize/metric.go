package optimize

import (
	"math"
	"slices"

	"github.com/benchtrim/benchtrim/estimate"
	"github.com/benchtrim/benchtrim/internal/stats"
)

// workspace is the per-goroutine scratch memory of the optimiser: a
// bootstrap workspace and two value buffers, reused for every configuration
// so that the search does not allocate per configuration.
type workspace struct {
	boot   stats.Workspace
	values []float64
	sorted []float64
	devs   []float64
}

// metricValue computes the stability metric m of x and, when the metric
// needs one or withCI is set, the bootstrap CI of m's estimator:
//
//	cv           PopStdDev(x) / Mean(x)                 CI: percentile bootstrap of the mean
//	rmad         median|x − median(x)| / median(x)      CI: percentile bootstrap of the median
//	rciw-mean    (U − L) / mean   of the percentile bootstrap CI of the mean
//	rciw-mean-t  (U − L) / mean   of the studentized bootstrap CI of the mean
//	rciw-median  (U − L) / median of the percentile bootstrap CI of the median
//
// Quantiles (medians and CI bounds) are type 7, linear interpolation between
// order statistics as numpy's default. The average is the metric's
// estimator (mean or median of x); lower and upper are NaN when no CI was
// computed. A bootstrap that cannot be computed (fewer than two values for
// the t interval) gives a NaN metric, which is never stable. x is not
// modified.
func metricValue(m Metric, x []float64, withCI bool, opt estimate.BootstrapOptions, rng *stats.Stream, ws *workspace) (value, average, lower, upper float64) {
	lower, upper = math.NaN(), math.NaN()
	if len(x) == 0 {
		return math.NaN(), math.NaN(), lower, upper
	}
	var iv estimate.Interval
	var err error
	switch m {
	case CV:
		value = stats.CV(x, nil)
		average = stats.Mean(x, nil)
		if withCI {
			iv, err = stats.BootstrapMeanCI(x, opt, rng, &ws.boot)
		}
	case RMAD:
		value, average = rmad(x, ws)
		if withCI {
			iv, err = stats.BootstrapMedianCI(x, opt, rng, &ws.boot)
		}
	case RCIWMean:
		iv, err = stats.BootstrapMeanCI(x, opt, rng, &ws.boot)
		average = stats.Mean(x, nil)
		value = rciw(iv, err)
		withCI = true
	case RCIWMeanT:
		average = stats.Mean(x, nil)
		if len(x) >= 2 {
			iv, err = stats.BootstrapMeanTCI(x, opt, rng, &ws.boot)
			value = rciw(iv, err)
			withCI = true
		} else {
			value = math.NaN()
			withCI = false
		}
	case RCIWMedian:
		iv, err = stats.BootstrapMedianCI(x, opt, rng, &ws.boot)
		average = iv.Estimate
		if err != nil {
			average = median(x, ws)
		}
		value = rciw(iv, err)
		withCI = true
	default:
		panic("optimize: unknown metric")
	}
	if withCI && err == nil {
		lower, upper = iv.Lower, iv.Upper
	}
	return value, average, lower, upper
}

// rciw is |U − L| / estimate of iv, NaN on error.
func rciw(iv estimate.Interval, err error) float64 {
	if err != nil {
		return math.NaN()
	}
	return math.Abs(iv.Upper-iv.Lower) / iv.Estimate
}

// rmad returns the relative median absolute deviation of x and its median,
//
//	RMAD = median_i |x_i − median(x)| / median(x),
//
// with type-7 medians and the unscaled MAD, exactly as stats.RMAD, but
// sorting into ws's buffers instead of allocating.
func rmad(x []float64, ws *workspace) (value, med float64) {
	ws.sorted = append(ws.sorted[:0], x...)
	slices.Sort(ws.sorted)
	med = stats.QuantileSorted(ws.sorted, 0.5, nil)
	ws.devs = ws.devs[:0]
	for _, v := range ws.sorted {
		ws.devs = append(ws.devs, math.Abs(v-med))
	}
	slices.Sort(ws.devs)
	return stats.QuantileSorted(ws.devs, 0.5, nil) / med, med
}

// median is the type-7 median of x, sorted in ws's buffer.
func median(x []float64, ws *workspace) float64 {
	ws.sorted = append(ws.sorted[:0], x...)
	slices.Sort(ws.sorted)
	return stats.QuantileSorted(ws.sorted, 0.5, nil)
}

// stable reports whether a metric value lies below the threshold (NaN and
// ±Inf never do).
func stable(value, threshold float64) bool {
	return value < threshold && !math.IsNaN(value)
}

// prefixStages returns the numbers b of leading bootstrap replicates whose
// percentile interval, at confidence prefixConfidence(opt, b), bounds the
// width of the full interval from below (see rciwLowerBound): 4·k (at least
// 200), 20·k (at least 1000) and 60·k (at least 3000), each kept only when
// it is at most a third of opt.Resamples and large enough for the bound
// (b > 2k + 3). For 10,000 resamples at 99 % (k = 51) they are 204, 1020 and
// 3060 at prefix confidences 0.49, 0.90 and 0.97, so a configuration is
// rejected after 204 replicates when its RCIW is roughly 4× the threshold or
// more, after 1020 at 1.6×, after 3060 at 1.2×.
func prefixStages(opt estimate.BootstrapOptions) []int {
	k := prefixRank(opt)
	var out []int
	for _, b := range []int{max(200, 4*k), max(1000, 20*k), max(3000, 60*k)} {
		if 3*b <= opt.Resamples && b > 2*k+3 {
			out = append(out, b)
		}
	}
	return out
}

// prefixRank is k = ⌊(B−1)·α/2⌋ + 2 for B = opt.Resamples and α = 1 −
// opt.Confidence: the full interval's lower bound, the type-7 quantile at
// h = (B−1)·α/2, is at most the order statistic x_(k−1) ≤ x_(k) (one more
// than needed, a margin against rounding); by symmetry its upper bound is at
// least the (k+1)-th largest replicate.
func prefixRank(opt estimate.BootstrapOptions) int {
	return int(float64(opt.Resamples-1)*((1-opt.Confidence)/2)) + 2
}

// prefixConfidence is the level c′ of the prefix interval of b replicates:
// α′/2 = (k + ½)/(b − 1), so that its lower bound is at least the prefix's
// order statistic k and its upper bound at most its (k+1)-th largest value.
func prefixConfidence(opt estimate.BootstrapOptions, b int) float64 {
	return 1 - 2*(float64(prefixRank(opt))+0.5)/float64(b-1)
}

// rciwLowerBound returns a lower bound of the RCIW metric m of x that the
// full bootstrap (opt.Resamples replicates drawn from a stream identical to
// rng) would give, computed from its first b replicates only (b from
// prefixStages); NaN when no bound is available.
//
// The b replicates drawn from the start of the stream are the first b of
// the full bootstrap (the stats kernels draw each replicate in turn), a
// subset of its B replicates. If at least k+1 of the subset lie at or below
// a value v, then so do at least k+1 of all replicates, so the full lower
// quantile (≤ x_(k)) is ≤ v; symmetrically for the upper one. Hence
//
//	U − L  ≥  U′ − L′
//
// for the prefix interval [L′, U′] at confidence c′ (prefixConfidence), for
// the percentile intervals of the mean and the median and for the
// studentized interval (whose width is (t_hi − t_lo)·se with the same se).
// Dividing by the estimate, which does not depend on the replicates, bounds
// the RCIW. A configuration whose bound is already ≥ the threshold is
// certainly unstable, and the search can skip its full bootstrap without
// changing any decision.
func rciwLowerBound(m Metric, x []float64, opt estimate.BootstrapOptions, b int, rng *stats.Stream, ws *workspace) float64 {
	pre := estimate.BootstrapOptions{Resamples: b, Confidence: prefixConfidence(opt, b)}
	var iv estimate.Interval
	var err error
	switch m {
	case RCIWMean:
		iv, err = stats.BootstrapMeanCI(x, pre, rng, &ws.boot)
	case RCIWMeanT:
		if len(x) < 2 {
			return math.NaN()
		}
		iv, err = stats.BootstrapMeanTCI(x, pre, rng, &ws.boot)
	case RCIWMedian:
		iv, err = stats.BootstrapMedianCI(x, pre, rng, &ws.boot)
	default:
		return math.NaN()
	}
	if err != nil || !(iv.Estimate > 0) {
		return math.NaN()
	}
	return (iv.Upper - iv.Lower) / iv.Estimate
}
