package stats

import (
	"errors"
	"fmt"
	"math"
	"math/bits"
	"slices"

	"github.com/benchtrim/benchtrim/estimate"
)

// errNoData is returned by estimators given no values.
var errNoData = errors.New("stats: no data")

// Workspace holds scratch memory that bootstrap kernels reuse between calls,
// so that evaluating thousands of configurations does not allocate. The zero
// value is ready to use; a nil *Workspace makes each call allocate its own.
// A Workspace is not safe for concurrent use: keep one per goroutine.
type Workspace struct {
	replicates  []float64
	replicates2 []float64
	values      []float64
	counts32    []int32
	counts64    []int64
	tails       tails
	shared      [3]tails
	records     []float64 // sharedRecords' records, with room to align them
	vec         sharedRecords
}

func grow[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}

func checkSample(fn string, x []float64, opt estimate.BootstrapOptions) error {
	if err := opt.Validate(); err != nil {
		return err
	}
	if len(x) == 0 {
		return fmt.Errorf("stats: %s: %w", fn, errNoData)
	}
	if len(x) > math.MaxInt32 {
		return fmt.Errorf("stats: %s: %d values exceed the limit of 2^31−1", fn, len(x))
	}
	for i, v := range x {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("stats: %s: value %d is %v", fn, i, v)
		}
	}
	return nil
}

// bootstrapMeanCI returns the mean of x with its percentile bootstrap
// confidence interval (Efron and Tibshirani, "An Introduction to the
// Bootstrap", 1993, ch. 13).
//
// Each of the B = opt.Resamples resamples draws len(x) values from x
// uniformly with replacement and records their mean m*_b. With α = 1 −
// opt.Confidence the interval is
//
//	[ Q(α/2), Q(1 − α/2) ]   of the replicates m*_1 … m*_B,
//
// where Q is the type-7 quantile (linear interpolation between order
// statistics, numpy's default percentile; see Quantile). This is the CI of
// µOpTime's rciw-mean metric (np.percentile of the bootstrap means in
// njapke/uoptime-replication-package, stat_functions.py).
//
// x is not modified; rng supplies the draws; ws may be nil. It returns an
// error for invalid options, empty x or a non-finite value.
func bootstrapMeanCI(x []float64, opt estimate.BootstrapOptions, rng *Stream, ws *Workspace) (estimate.Interval, error) {
	return BootstrapCI(MeanPercentile, x, opt, rng, ws)
}

// bootstrapMedianCI returns the median of x with its percentile bootstrap
// confidence interval: as bootstrapMeanCI with the median (the mean of the
// two middle values for an even count, as numpy.median) as the statistic of
// each resample. This is the CI of µOpTime's rciw-median metric.
//
// The kernel sorts a copy of x once; each resample then draws len(x) ranks
// into a count array and finds the middle order statistics by a cumulative
// scan, O(n) per resample without sorting. x is not modified; ws may be nil.
// The replicates are drawn as BootstrapCIUntil does.
func bootstrapMedianCI(x []float64, opt estimate.BootstrapOptions, rng *Stream, ws *Workspace) (estimate.Interval, error) {
	return BootstrapCI(MedianPercentile, x, opt, rng, ws)
}

// bootstrapMeanTCI returns the mean of x with its studentized (bootstrap-t)
// confidence interval (Efron and Tibshirani 1993, ch. 12.5).
//
// With m and s the mean and sample standard deviation (n − 1 denominator)
// of x and se = s/√n, each resample b gives its mean m*_b and sample
// standard deviation s*_b, and
//
//	t*_b = (m*_b − m) / (s*_b / √n)
//	CI   = [ m − t*_(1−α/2)·se,  m − t*_(α/2)·se ]
//
// where t*_(p) is the type-7 quantile of the t*_b (as bootstrapMeanCI). This
// is the CI of µOpTime's rciw-mean-t metric.
//
// A resample whose values are all equal has s*_b = 0; its t*_b is defined as
// +Inf if m*_b > m, −Inf if m*_b < m and 0 if m*_b = m, so that such
// resamples land in the tails. When they are more frequent than α/2 (only
// for very small n: the chance is n^(1−n) for distinct values, 11 % at n = 3,
// 1.6 % at n = 4) a bound is infinite and RCIW is +Inf, reporting that the
// sample is too small for a bootstrap-t interval. (The µOpTime prototype
// instead replaces s*_b = 0 by 10⁻⁶, which makes t*_b depend on the unit of
// the data; with its default 99 % level that yields a huge finite width in
// the same cases.) Constant x gives [m, m], a zero-width interval, also when
// the computed mean differs from the values in the last place (3 × 105.4
// sums to a mean of 105.40000000000002, which would make every centred
// value the same tiny nonzero number and every t*_b infinite).
//
// x is not modified; ws may be nil. It returns an error for invalid options,
// fewer than two values or a non-finite value.
func bootstrapMeanTCI(x []float64, opt estimate.BootstrapOptions, rng *Stream, ws *Workspace) (estimate.Interval, error) {
	return BootstrapCI(MeanStudentized, x, opt, rng, ws)
}

// constant reports whether every value of x equals x[0].
func constant(x []float64) bool {
	for _, v := range x[1:] {
		if v != x[0] {
			return false
		}
	}
	return true
}

// rciwMean returns the RCIW of the percentile bootstrap CI of the mean,
// µOpTime's rciw-mean metric: bootstrapMeanCI(x, …).RCIW().
func rciwMean(x []float64, opt estimate.BootstrapOptions, rng *Stream, ws *Workspace) (float64, error) {
	iv, err := bootstrapMeanCI(x, opt, rng, ws)
	if err != nil {
		return math.NaN(), err
	}
	return iv.RCIW(), nil
}

// rciwMeanT returns the RCIW of the studentized bootstrap CI of the mean,
// µOpTime's rciw-mean-t metric: bootstrapMeanTCI(x, …).RCIW().
func rciwMeanT(x []float64, opt estimate.BootstrapOptions, rng *Stream, ws *Workspace) (float64, error) {
	iv, err := bootstrapMeanTCI(x, opt, rng, ws)
	if err != nil {
		return math.NaN(), err
	}
	return iv.RCIW(), nil
}

// rciwMedian returns the RCIW of the percentile bootstrap CI of the median,
// µOpTime's rciw-median metric: bootstrapMedianCI(x, …).RCIW().
func rciwMedian(x []float64, opt estimate.BootstrapOptions, rng *Stream, ws *Workspace) (float64, error) {
	iv, err := bootstrapMedianCI(x, opt, rng, ws)
	if err != nil {
		return math.NaN(), err
	}
	return iv.RCIW(), nil
}

// Hot loops. Indices are drawn two at a time from the halves of one 64-bit
// PCG output with Lemire's unbiased 32-bit multiply-shift (rejection when the
// low word falls below 2^32 mod n, probability below n/2^32).

// lemireThresh is 2³² mod n, the bound below which a 32-bit Lemire
// product's low word is rejected (n in [1, 2³²)).
func lemireThresh(n int) uint32 { return -uint32(n) % uint32(n) }

// draw32 is one draw of [0, n) from the low 32 bits of an output
// (Lemire, redrawn while the product's low word is below thresh): with
// thresh = 2³² mod n, Stream.uint32n's draw.
func draw32(pcg *pcg, n, thresh uint64) uint64 {
	m := uint64(uint32(pcg.Uint64())) * n
	if uint32(m) < uint32(thresh) {
		m = retry32(pcg, m, n, thresh)
	}
	return m >> 32
}

// lemire2 is two draws from the halves of r, an output of a generator:
// of [0, n0) from the low and of [0, n1) from the high 32 bits, by
// Lemire's multiply-shift (the high word of the 64-bit product). ok is
// false when a product's low word is below its bound, b0 or b1 (2³² mod n,
// or n itself to skip the modulo; the draw may then be biased): redraw2
// then gives the draws. The resampling loops and Stream.twoUint32n all
// draw their pairs so:
//
//	r := pcg.Uint64()
//	j0, j1, ok := lemire2(r, n0, n1, b0, b1)
//	if !ok {
//		j0, j1 = redraw2(pcg, r, n0, n1, t0, t1)
//	}
//
// (split in two so that the accepted path inlines).
func lemire2(r, n0, n1 uint64, b0, b1 uint32) (j0, j1 uint64, ok bool) {
	m0, m1 := (r&0xffffffff)*n0, (r>>32)*n1
	return m0 >> 32, m1 >> 32, uint32(m0) >= b0 && uint32(m1) >= b1
}

// redraw2 is lemire2's pair when it was rejected: each product of r whose
// low word is below its threshold t0 or t1 (2³² mod n) is redrawn from
// fresh outputs of pcg (retry32), the first half's before the second's.
//
//go:noinline
func redraw2(pcg *pcg, r, n0, n1, t0, t1 uint64) (uint64, uint64) {
	m0, m1 := (r&0xffffffff)*n0, (r>>32)*n1
	if uint32(m0) < uint32(t0) {
		m0 = retry32(pcg, m0, n0, t0)
	}
	if uint32(m1) < uint32(t1) {
		m1 = retry32(pcg, m1, n1, t1)
	}
	return m0 >> 32, m1 >> 32
}

// retry32 redraws a rejected 32-bit Lemire product until it is accepted.
//
//go:noinline
func retry32(pcg *pcg, m, n, thresh uint64) uint64 {
	for uint32(m) < uint32(thresh) {
		m = uint64(uint32(pcg.Uint64())) * n
	}
	return m
}

// resampleMeans fills dst with the means of resamples of x: per resample,
// len(x) uniform draws, two per output of rng (the low and high 32 bits,
// Lemire's multiply-shift, a biased product redrawn from fresh outputs),
// summed alternately into two accumulators. On amd64 the loop is the
// kernel meansAsm, with the same draws, additions and bits, or with
// AVX-512 meansVecAsm, which takes the same outputs and draws from eight
// generator states computed at once (0.67–0.76 against 1.02–1.2 ns per
// draw, BenchmarkResampleKernels).
func resampleMeans(x []float64, dst []float64, rng *Stream) {
	switch {
	case haveVecPCG:
		meansVecAsm(&rng.pcg, x, dst, lemireThresh(len(x)))
		return
	case haveDrawKernel:
		meansAsm(&rng.pcg, x, dst, lemireThresh(len(x)))
		return
	}
	resampleMeansGo(x, dst, rng, uint64(lemireThresh(len(x))))
}

// resampleMeansGo is resampleMeans in Go, the reference of meansAsm,
// with Lemire's threshold thresh = 2³² mod len(x) (the tests force others).
func resampleMeansGo(x []float64, dst []float64, rng *Stream, thresh uint64) {
	pcg := &rng.pcg
	n := uint64(len(x))
	fn := float64(len(x))
	for b := range dst {
		var s0, s1 float64
		i := 1
		for ; i < len(x); i += 2 {
			r := pcg.Uint64()
			j0, j1, ok := lemire2(r, n, n, uint32(thresh), uint32(thresh))
			if !ok {
				j0, j1 = redraw2(pcg, r, n, n, thresh, thresh)
			}
			s0 += x[j0]
			s1 += x[j1]
		}
		if i == len(x) {
			s0 += x[draw32(pcg, n, thresh)]
		}
		dst[b] = (s0 + s1) / fn
	}
}

// resampleMedians fills dst with the medians of resamples of sorted,
// counting the draws per index (counts: len(sorted) scratch) as
// resampleMeans draws them. On amd64 the draws are the kernel countsAsm,
// or with AVX-512 countsVecAsm, as many resamples at a time as counts has
// rows of len(sorted) values.
func resampleMedians(sorted []float64, dst []float64, counts []int32, rng *Stream) {
	if !haveDrawKernel {
		resampleMediansGo(sorted, dst, counts, rng, uint64(lemireThresh(len(sorted))))
		return
	}
	n := len(sorted)
	thresh := lemireThresh(n)
	kernel := countsAsm
	if haveVecPCG {
		kernel = countsVecAsm
	}
	// batches of resamples, each counting in its row of counts
	rows := max(1, min(len(counts)/n, len(dst)))
	for done := 0; done < len(dst); {
		k := min(rows, len(dst)-done)
		c := counts[:k*n]
		clear(c)
		kernel(&rng.pcg, c, n, thresh)
		for i := range k {
			dst[done+i] = medianFromCounts32(sorted, c[i*n:i*n+n], uint64(n))
		}
		done += k
	}
}

// medianRows is the number of resamples whose counts resampleMedians
// keeps at once (counts holds medianRows(n)·n values): up to a block of
// seqBlock, within 256 KB.
func medianRows(n int) int { return max(1, min(seqBlock, (256<<10)/4/max(n, 1))) }

// resampleMediansGo is resampleMedians in Go, the reference of countsAsm;
// thresh as in resampleMeansGo.
func resampleMediansGo(sorted []float64, dst []float64, counts []int32, rng *Stream, thresh uint64) {
	pcg := &rng.pcg
	n := uint64(len(sorted))
	counts = counts[:len(sorted)]
	for b := range dst {
		clear(counts)
		i := 1
		for ; i < len(sorted); i += 2 {
			r := pcg.Uint64()
			j0, j1, ok := lemire2(r, n, n, uint32(thresh), uint32(thresh))
			if !ok {
				j0, j1 = redraw2(pcg, r, n, n, thresh, thresh)
			}
			counts[j0]++
			counts[j1]++
		}
		if i == len(sorted) {
			counts[draw32(pcg, n, thresh)]++
		}
		dst[b] = medianFromCounts(sorted, counts, n)
	}
}

// resampleT fills dst with the t statistics (studentized) of resamples
// of centred: a first draw, then pairs of draws as resampleMeans makes
// them, into two sums and two sums of squares. On amd64 the draws and
// sums are the kernel tSumsAsm (tSumsVecAsm with AVX-512), 64 resamples
// at a time, each batch's t statistics computed after it; the same bits.
func resampleT(centred []float64, dst []float64, rng *Stream) {
	if !haveDrawKernel {
		resampleTGo(centred, dst, rng, uint64(lemireThresh(len(centred))))
		return
	}
	fn := float64(len(centred))
	thresh := lemireThresh(len(centred))
	var s, q [64]float64
	var diff [64]uint64
	for done := 0; done < len(dst); {
		k := min(len(s), len(dst)-done)
		if haveVecPCG {
			tSumsVecAsm(&rng.pcg, centred, thresh, s[:k], q[:k], diff[:k])
		} else {
			tSumsAsm(&rng.pcg, centred, thresh, s[:k], q[:k], diff[:k])
		}
		studentizeAll(s[:k], q[:k], diff[:k], fn, dst[done:done+k])
		done += k
	}
}

// resampleTGo is resampleT in Go, the reference of tSumsAsm; thresh as
// in resampleMeansGo.
func resampleTGo(centred []float64, dst []float64, rng *Stream, thresh uint64) {
	pcg := &rng.pcg
	n := uint64(len(centred))
	fn := float64(len(centred))
	for b := range dst {
		var s0, s1, q0, q1 float64
		first := centred[draw32(pcg, n, thresh)]
		s0, q0 = first, first*first
		// diff is nonzero once a value differs from first (bitwise: the
		// centred values hold no −0, as v − m is +0 for v = m).
		fb := math.Float64bits(first)
		var diff uint64
		i := 2
		for ; i < len(centred); i += 2 {
			r := pcg.Uint64()
			j0, j1, ok := lemire2(r, n, n, uint32(thresh), uint32(thresh))
			if !ok {
				j0, j1 = redraw2(pcg, r, n, n, thresh, thresh)
			}
			v0, v1 := centred[j0], centred[j1]
			diff |= (math.Float64bits(v0) ^ fb) | (math.Float64bits(v1) ^ fb)
			s0 += v0
			s1 += v1
			q0 += v0 * v0
			q1 += v1 * v1
		}
		if i == len(centred) {
			v := centred[draw32(pcg, n, thresh)]
			diff |= math.Float64bits(v) ^ fb
			s0 += v
			q0 += v * v
		}
		dst[b] = studentized(s0+s1, q0+q1, fn, diff != 0)
	}
}

// studentizeAll sets out[i] = studentized(s[i], q[i], n, diff[i] != 0)
// for every i < len(out): four at a time by studentizedAVX2 where the CPU
// has AVX2 (the same bits: every step is one correctly rounded IEEE
// operation in both), the rest in Go.
func studentizeAll(s, q []float64, diff []uint64, n float64, out []float64) {
	i := 0
	if haveStudKernel {
		i = len(out) &^ 3
		studentizedAVX2(s[:i], q[:i], diff[:i], n, n-1, out[:i])
	}
	for ; i < len(out); i++ {
		out[i] = studentized(s[i], q[i], n, diff[i] != 0)
	}
}

// studentized is the t statistic of a resample of n centred values with
// sum s and sum of squares q: mean / √(variance / n), mean = s/n,
// variance = (q − s·mean)/(n − 1); ±Inf (the mean's sign) or 0 when the
// resample holds one distinct value or no variance.
func studentized(s, q, n float64, distinct bool) float64 {
	mean := s / n
	variance := (q - s*mean) / (n - 1)
	switch {
	case distinct && variance > 0:
		return mean / math.Sqrt(variance/n)
	case mean > 0:
		return math.Inf(1)
	case mean < 0:
		return math.Inf(-1)
	}
	return 0
}

// percentileInterval returns the type-7 quantiles at α/2 and 1 − α/2 of a,
// α = 1 − confidence, reordering a in place (selection, O(len(a))).
func percentileInterval(a []float64, confidence float64) (lower, upper float64) {
	alpha := 1 - confidence
	return selectQuantile(a, alpha/2), selectQuantile(a, 1-alpha/2)
}

// selectQuantile returns the type-7 p-quantile of a, reordering a in place.
func selectQuantile(a []float64, p float64) float64 {
	h := float64(len(a)-1) * p
	j := int(h)
	if j >= len(a)-1 {
		j = len(a) - 1
	}
	selectK(a, j)
	v := a[j]
	frac := h - float64(j)
	if frac == 0 || j == len(a)-1 {
		return v
	}
	return lerp(v, slices.Min(a[j+1:]), frac)
}

// selectK reorders a so that a[k] holds the k-th smallest value (0-based),
// with a[:k] <= a[k] <= a[k+1:]. It is Hoare's FIND with a median-of-three
// pivot and falls back to sorting when the partitions stop shrinking.
// a must not contain NaN.
func selectK(a []float64, k int) {
	lo, hi := 0, len(a)-1
	for budget := 2*bits.Len(uint(len(a))) + 4; lo < hi; budget-- {
		if budget == 0 {
			slices.Sort(a[lo : hi+1])
			return
		}
		mid := lo + (hi-lo)/2
		if a[mid] < a[lo] {
			a[mid], a[lo] = a[lo], a[mid]
		}
		if a[hi] < a[lo] {
			a[hi], a[lo] = a[lo], a[hi]
		}
		if a[hi] < a[mid] {
			a[hi], a[mid] = a[mid], a[hi]
		}
		pivot := a[mid]
		i, j := lo, hi
		for i <= j {
			for a[i] < pivot {
				i++
			}
			for a[j] > pivot {
				j--
			}
			if i <= j {
				a[i], a[j] = a[j], a[i]
				i++
				j--
			}
		}
		switch {
		case k <= j:
			hi = j
		case k >= i:
			lo = i
		default:
			return
		}
	}
}
