package synth

import (
	"math"
	"slices"

	"gonum.org/v1/gonum/stat/distuv"
)

// jmhPercentiles are the ranks (in percent) of JMH's scorePercentiles, in
// the order JMH writes them, with their JSON keys.
var (
	jmhPercentiles    = [10]float64{0, 50, 90, 95, 99, 99.9, 99.99, 99.999, 99.9999, 100}
	jmhPercentileKeys = [10]string{"0.0", "50.0", "90.0", "95.0", "99.0", "99.9", "99.99", "99.999", "99.9999", "100.0"}
)

// sampleSecondaries are the per-iteration percentile metrics JMH derives in
// SampleTime mode: name suffix and rank in percent.
var sampleSecondaries = [8]struct {
	suffix string
	rank   float64
}{{"p0.00", 0}, {"p0.50", 50}, {"p0.90", 90}, {"p0.95", 95}, {"p0.99", 99}, {"p0.999", 99.9}, {"p0.9999", 99.99}, {"p1.00", 100}}

// legacyPercentile returns the p-th percentile (0 ≤ p ≤ 100) of n ordered
// values, order statistics given by at(k) for 1-based k, with the estimator
// of Apache Commons Math's Percentile (EstimationType.LEGACY) that JMH uses:
//
//	pos = p·(n+1)/100
//	p = 0 or pos < 1: x(1);  pos ≥ n: x(n)
//	otherwise x(⌊pos⌋) + (pos − ⌊pos⌋)·(x(⌊pos⌋+1) − x(⌊pos⌋))
//
// It returns NaN for n = 0.
func legacyPercentile(n int64, at func(k int64) float64, p float64) float64 {
	if n == 0 {
		return math.NaN()
	}
	pos := p * float64(n+1) / 100
	if p == 0 || pos < 1 {
		return at(1)
	}
	if pos >= float64(n) {
		return at(n)
	}
	fl := math.Floor(pos)
	k := int64(fl)
	lo, hi := at(k), at(k+1)
	return lo + (pos-fl)*(hi-lo)
}

// tQuantile9995 returns t(0.9995, df), the Student-t quantile of JMH's
// 99.9 % score error.
func tQuantile9995(df float64) float64 {
	return distuv.StudentsT{Mu: 0, Sigma: 1, Nu: df}.Quantile(0.9995)
}

// metricStats is the aggregate JMH writes for a metric.
type metricStats struct {
	score, err, lo, hi float64
	pct                [10]float64
}

// avgStats computes JMH's statistics of an AVG-policy metric from its
// values (not modified):
//
//	score = mean(x);  err = t(0.9995, N−1)·s/√N  with s the sample sd (n−1)
//	confidence = [score − err, score + err];  err = NaN when N ≤ 2
//
// and the legacy percentiles. JMH (Shipilev et al., openjdk/jmh,
// ListStatistics and Statistics.getMeanErrorAt).
func avgStats(x []float64) metricStats {
	sorted := slices.Clone(x)
	slices.Sort(sorted)
	var sum float64
	for _, v := range x {
		sum += v
	}
	n := float64(len(x))
	mean := sum / n
	var ss float64
	for _, v := range x {
		ss += (v - mean) * (v - mean)
	}
	st := metricStats{score: mean, err: math.NaN()}
	if len(x) > 2 {
		st.err = tQuantile9995(n-1) * math.Sqrt(ss/(n-1)) / math.Sqrt(n)
	}
	st.lo, st.hi = st.score-st.err, st.score+st.err
	at := func(k int64) float64 { return sorted[k-1] }
	for j, p := range jmhPercentiles {
		st.pct[j] = legacyPercentile(int64(len(sorted)), at, p)
	}
	return st
}

// sumStats computes JMH's statistics of a SUM-policy metric (gc.count,
// gc.time): score = Σx, err = NaN, confidence = [score, score], and the
// legacy percentiles over the values padded with zeros to n values (JMH
// counts iterations without a value as 0).
func sumStats(x []float64, n int) metricStats {
	padded := make([]float64, max(n, len(x)))
	copy(padded, x)
	slices.Sort(padded)
	var sum float64
	for _, v := range x {
		sum += v
	}
	st := metricStats{score: sum, err: math.NaN(), lo: sum, hi: sum}
	at := func(k int64) float64 { return padded[k-1] }
	for j, p := range jmhPercentiles {
		st.pct[j] = legacyPercentile(int64(len(padded)), at, p)
	}
	return st
}

// histOrderStat returns at(k) over a histogram whose bucket values (in the
// output unit) are value(b), buckets ascending.
func histOrderStat(h []bucket, value func(idx uint32) float64) func(k int64) float64 {
	return func(k int64) float64 {
		var cum int64
		for _, b := range h {
			cum += int64(b.count)
			if cum >= k {
				return value(b.idx)
			}
		}
		return value(h[len(h)-1].idx)
	}
}

// histStats computes JMH's statistics of pooled SampleTime samples: the
// count-weighted mean, the error with N = total sample count, and the
// legacy percentiles over all samples.
func histStats(h []bucket, value func(idx uint32) float64) metricStats {
	var n int64
	var sum float64
	for _, b := range h {
		n += int64(b.count)
		sum += value(b.idx) * float64(b.count)
	}
	mean := sum / float64(n)
	var ss float64
	for _, b := range h {
		d := value(b.idx) - mean
		ss += d * d * float64(b.count)
	}
	st := metricStats{score: mean, err: math.NaN()}
	if n > 2 {
		st.err = tQuantile9995(float64(n-1)) * math.Sqrt(ss/float64(n-1)) / math.Sqrt(float64(n))
	}
	st.lo, st.hi = st.score-st.err, st.score+st.err
	at := histOrderStat(h, value)
	for j, p := range jmhPercentiles {
		st.pct[j] = legacyPercentile(n, at, p)
	}
	return st
}
