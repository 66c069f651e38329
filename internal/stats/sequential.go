package stats

import (
	"fmt"
	"math"
	"math/bits"
	"slices"

	"github.com/benchtrim/benchtrim/estimate"
)

// CIMethod names one of the bootstrap confidence intervals of µOpTime's
// RCIW metrics.
type CIMethod int

const (
	// MeanPercentile is bootstrapMeanCI.
	MeanPercentile CIMethod = iota
	// MedianPercentile is bootstrapMedianCI.
	MedianPercentile
	// MeanStudentized is bootstrapMeanTCI.
	MeanStudentized
)

// seqBlock is the number of replicates drawn between two checks of
// BootstrapCIUntil's stopping rule.
const seqBlock = 64

// tails keeps the smallest nlo and the largest nhi of the replicates pushed
// so far, in a max-heap (lo) and a min-heap (hi): the order statistics a
// percentile interval needs, without storing or selecting among all B.
type tails struct {
	lo, hi   []float64
	nlo, nhi int
}

func (t *tails) reset(nlo, nhi int) {
	t.lo, t.hi = t.lo[:0], t.hi[:0]
	t.nlo, t.nhi = nlo, nhi
}

func (t *tails) push(v float64) {
	switch {
	case len(t.lo) < t.nlo:
		t.lo = append(t.lo, v)
		upMax(t.lo)
	case v < t.lo[0]:
		t.lo[0] = v
		downMax(t.lo)
	}
	switch {
	case len(t.hi) < t.nhi:
		t.hi = append(t.hi, v)
		upMin(t.hi)
	case v > t.hi[0]:
		t.hi[0] = v
		downMin(t.hi)
	}
}

// pushAll pushes every value of vs; once both heaps are full a value
// costs two comparisons with their roots.
func (t *tails) pushAll(vs []float64) {
	for len(vs) > 0 && !t.full() {
		t.push(vs[0])
		vs = vs[1:]
	}
	if len(vs) == 0 {
		return
	}
	if haveTailsMask {
		// Most values fall between the roots: find the others 64 at a
		// time (tailsMask), then push those in order, each compared
		// again with the roots as they are by then, which only narrows
		// them: the same heaps as pushing every value.
		for len(vs) > 0 {
			batch := vs[:min(len(vs), 64)]
			for m := tailsMask(batch, t.lo[0], t.hi[0]); m != 0; m &= m - 1 {
				i := bits.TrailingZeros64(m)
				t.pushScan(batch[i : i+1])
			}
			vs = vs[len(batch):]
		}
		return
	}
	t.pushScan(vs)
}

// pushScan pushes every value of vs into the full heaps: a value below the
// low heap's root replaces it, one above the high heap's root that one.
func (t *tails) pushScan(vs []float64) {
	lo, hi := t.lo, t.hi
	lmax, hmin := lo[0], hi[0]
	for _, v := range vs {
		if v < lmax {
			lo[0] = v
			downMax(lo)
			lmax = lo[0]
		}
		if v > hmin {
			hi[0] = v
			downMin(hi)
			hmin = hi[0]
		}
	}
}

// full reports whether both heaps hold their number of values.
func (t *tails) full() bool { return len(t.lo) == t.nlo && len(t.hi) == t.nhi }

// upMax and downMax restore the max-heap h after its last value was
// appended or its root replaced; upMin and downMin the min-heap.
func upMax(h []float64) {
	i := len(h) - 1
	v := h[i]
	for i > 0 {
		p := (i - 1) / 2
		if !(v > h[p]) {
			break
		}
		h[i] = h[p]
		i = p
	}
	h[i] = v
}

func downMax(h []float64) {
	i, v := 0, h[0]
	for {
		c := 2*i + 1
		if c >= len(h) {
			break
		}
		if c+1 < len(h) && h[c+1] > h[c] {
			c++
		}
		if !(h[c] > v) {
			break
		}
		h[i] = h[c]
		i = c
	}
	h[i] = v
}

func upMin(h []float64) {
	i := len(h) - 1
	v := h[i]
	for i > 0 {
		p := (i - 1) / 2
		if !(v < h[p]) {
			break
		}
		h[i] = h[p]
		i = p
	}
	h[i] = v
}

func downMin(h []float64) {
	i, v := 0, h[0]
	for {
		c := 2*i + 1
		if c >= len(h) {
			break
		}
		if c+1 < len(h) && h[c+1] < h[c] {
			c++
		}
		if !(h[c] < v) {
			break
		}
		h[i] = h[c]
		i = c
	}
	h[i] = v
}

// quantilePos is the position of selectQuantile's type-7 p-quantile of B
// values: order statistic j (0-based) and the fraction towards j+1.
func quantilePos(b int, p float64) (j int, frac float64) {
	h := float64(b-1) * p
	j = int(h)
	if j >= b-1 {
		j = b - 1
	}
	return j, h - float64(j)
}

// BootstrapCI returns the interval of method m: bootstrapMeanCI,
// bootstrapMedianCI or bootstrapMeanTCI of x.
func BootstrapCI(m CIMethod, x []float64, opt estimate.BootstrapOptions, rng *Stream, ws *Workspace) (estimate.Interval, error) {
	iv, _, err := BootstrapCIUntil(m, x, opt, math.Inf(1), rng, ws)
	return iv, err
}

// BootstrapCIUntil computes the interval of method m as BootstrapCI, with
// the same draws from rng and the same result, but stops as soon as the
// replicates drawn so far prove that the interval's relative width
// |Upper − Lower| / Estimate (µOpTime's RCIW) is at least limit. It then
// returns complete = false and an interval inside the one the full
// bootstrap would give, whose RCIW is ≥ limit; otherwise complete = true
// and the interval of BootstrapCI. limit = +Inf never stops.
//
// The rule is exact, not statistical. The replicates are drawn one after
// another from rng, so the first b are a subset of all B. The percentile
// interval's lower bound, the type-7 quantile at h = (B−1)·α/2, lies at or
// below the order statistic ⌊h⌋+1 (0-based) of all B replicates, which is at
// or below the same order statistic of any subset; symmetrically for the
// upper bound. The studentized interval [m − t_hi·se, m − t_lo·se] has the
// same se for every b, so the same holds for its t quantiles. Rounding is
// monotone, so the computed width is bounded as well. The check runs every
// 64 replicates (a few comparisons: the kernel keeps only the ⌊h⌋+2
// smallest and the B − ⌊(B−1)(1−α/2)⌋ largest replicates in two heaps, from
// which it also reads the final quantiles, without selecting among all B).
// A configuration far above the limit stops after a few hundred replicates;
// one that is stable always needs all B.
func BootstrapCIUntil(m CIMethod, x []float64, opt estimate.BootstrapOptions, limit float64, rng *Stream, ws *Workspace) (iv estimate.Interval, complete bool, err error) {
	name := [...]string{"BootstrapMeanCI", "BootstrapMedianCI", "BootstrapMeanTCI"}[m]
	if err := checkSample(name, x, opt); err != nil {
		return estimate.Interval{}, false, err
	}
	if ws == nil {
		ws = new(Workspace)
	}
	// kernel draws len(dst) replicates; centre and scale map a t quantile to
	// a bound (m − t·se), identity for percentile intervals.
	var kernel func(dst []float64)
	studentized := false
	var m0, se float64
	switch m {
	case MeanPercentile:
		iv.Estimate = Mean(x, nil)
		kernel = func(dst []float64) { resampleMeans(x, dst, rng) }
	case MedianPercentile:
		ws.values = grow(ws.values, len(x))
		sorted := ws.values
		copy(sorted, x)
		slices.Sort(sorted)
		ws.counts32 = grow(ws.counts32, medianRows(len(x))*len(x))
		iv.Estimate = QuantileSorted(sorted, 0.5, nil)
		kernel = func(dst []float64) { resampleMedians(sorted, dst, ws.counts32, rng) }
	case MeanStudentized:
		if len(x) < 2 {
			return estimate.Interval{}, false, fmt.Errorf("stats: BootstrapMeanTCI: need at least 2 values, got %d", len(x))
		}
		n := float64(len(x))
		m0 = Mean(x, nil)
		iv.Estimate = m0
		if constant(x) {
			return estimate.Interval{Estimate: m0, Lower: m0, Upper: m0}, true, nil
		}
		ws.values = grow(ws.values, len(x))
		centred := ws.values
		var ss float64
		for i, v := range x {
			centred[i] = v - m0
			ss += centred[i] * centred[i]
		}
		se = math.Sqrt(ss/(n-1)) / math.Sqrt(n)
		studentized = true
		kernel = func(dst []float64) { resampleT(centred, dst, rng) }
	default:
		panic("stats: unknown CI method")
	}
	bounds := func(lo, hi float64) (float64, float64) {
		if studentized {
			return m0 - hi*se, m0 - lo*se
		}
		return lo, hi
	}
	B := opt.Resamples
	alpha := 1 - opt.Confidence
	jlo, flo := quantilePos(B, alpha/2)
	jhi, fhi := quantilePos(B, 1-alpha/2)
	nlo, nhi := min(jlo+2, B), B-jhi
	if 8*(nlo+nhi) > B {
		// Wide tails (few resamples or a low level): store every
		// replicate and select, without stopping early.
		ws.replicates = grow(ws.replicates, B)
		reps := ws.replicates
		kernel(reps)
		iv.Lower, iv.Upper = bounds(percentileInterval(reps, opt.Confidence))
		return iv, true, nil
	}
	t := &ws.tails
	t.reset(nlo, nhi)
	ws.replicates = grow(ws.replicates, seqBlock)
	check := limit < math.Inf(1) && iv.Estimate > 0
	for done := 0; done < B; {
		blk := ws.replicates[:min(seqBlock, B-done)]
		kernel(blk)
		t.pushAll(blk)
		done += len(blk)
		if check && done < B && t.full() {
			// t.lo[0] is order statistic jlo+1 of the replicates so far,
			// t.hi[0] order statistic jhi counted from their top.
			lo, hi := bounds(t.lo[0], t.hi[0])
			if w := hi - lo; w >= 0 && w/iv.Estimate >= limit {
				iv.Lower, iv.Upper = lo, hi
				return iv, false, nil
			}
		}
	}
	iv.Lower, iv.Upper = bounds(t.quantiles(B, jlo, flo, jhi, fhi))
	return iv, true, nil
}
