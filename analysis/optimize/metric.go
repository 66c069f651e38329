package optimize

import (
	"math"
	"slices"

	"github.com/benchtrim/benchtrim/estimate"
	"github.com/benchtrim/benchtrim/internal/stats"
)

// workspace is the per-goroutine scratch memory of the optimiser: a
// bootstrap workspace and two value buffers, reused for every configuration
// so that the search does not allocate per configuration, and the complete
// bootstrap CIs of the series in hand (see ci).
type workspace struct {
	boot   stats.Workspace
	values []float64
	sorted []float64
	devs   []float64
	owner  *prepared
	cis    map[ciKey]ciResult
}

// ciKey names a configuration's bootstrap CI: its method, configuration
// and whether it comes from the shared resampling of the configuration
// (sharedCI) or from the method's own stream (ci, see newStream).
type ciKey struct {
	method stats.CIMethod
	c      Config
	shared bool
}

type ciResult struct {
	iv  estimate.Interval
	err error
}

// begin makes ws hold the CIs of p only; every job calls it before it
// evaluates the configurations of a series.
func (ws *workspace) begin(p *prepared) {
	if ws.cis == nil {
		ws.cis = map[ciKey]ciResult{}
	}
	clear(ws.cis)
	ws.owner = p
}

// cache returns ws's CIs of p, emptied first when they were another series'.
func (ws *workspace) cache(p *prepared) map[ciKey]ciResult {
	if ws.owner != p || ws.cis == nil {
		ws.begin(p)
	}
	return ws.cis
}

// ciMethod is the bootstrap CI the metric reports (and, for the RCIW
// metrics, is computed from): cv and rciw-mean share the percentile CI of
// the mean, rmad and rciw-median the percentile CI of the median.
func (m Metric) ciMethod() stats.CIMethod {
	switch m {
	case RMAD, RCIWMedian:
		return stats.MedianPercentile
	case RCIWMeanT:
		return stats.MeanStudentized
	}
	return stats.MeanPercentile
}

// metricValue computes the stability metric m of x and, when the metric
// needs one or withCI is set, the bootstrap CI of m's estimator, drawing
// from rng (see metricFrom).
func metricValue(m Metric, x []float64, withCI bool, opt estimate.BootstrapOptions, rng *stats.Stream, ws *workspace) (value, average, lower, upper float64) {
	var iv estimate.Interval
	var err error
	haveCI := len(x) > 0 && (withCI || m.bootstrapped())
	if haveCI {
		iv, err = stats.BootstrapCI(m.ciMethod(), x, opt, rng, &ws.boot)
	}
	return metricFrom(m, x, haveCI, iv, err, ws)
}

// metricFrom computes the stability metric m of x, given (when haveCI) the
// bootstrap CI iv of m's estimator or its error:
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
// given. A bootstrap that cannot be computed (fewer than two values for
// the t interval) gives a NaN metric, which is never stable. The RCIW
// metrics need haveCI. x is not modified.
func metricFrom(m Metric, x []float64, haveCI bool, iv estimate.Interval, err error, ws *workspace) (value, average, lower, upper float64) {
	lower, upper = math.NaN(), math.NaN()
	if len(x) == 0 {
		return math.NaN(), math.NaN(), lower, upper
	}
	switch m {
	case CV:
		value = stats.CV(x, nil)
		average = stats.Mean(x, nil)
	case RMAD:
		value, average = rmad(x, ws)
	case RCIWMean:
		average = stats.Mean(x, nil)
		value = rciw(iv, err)
	case RCIWMeanT:
		average = stats.Mean(x, nil)
		value = rciw(iv, err)
	case RCIWMedian:
		average = iv.Estimate
		if err != nil {
			average = median(x, ws)
		}
		value = rciw(iv, err)
	default:
		panic("optimize: unknown metric")
	}
	if haveCI && err == nil {
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
