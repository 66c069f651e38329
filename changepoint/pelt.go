package changepoint

import (
	"errors"
	"fmt"
	"math"
)

// ErrTooShort is returned (wrapped) when the series has fewer than
// 2·MinSegLen points, so that not even one change point is possible. R's
// cpt.mean/cpt.meanvar stop with "Minimum segment length is too large to
// include a change in this data" in the same case.
var ErrTooShort = errors.New("changepoint: series shorter than 2·MinSegLen")

// Options configures PELT.
type Options struct {
	// Cost is the segment cost (MeanVar or Mean).
	Cost Cost
	// MinSegLen is the minimum segment length; 0 means the cost's default
	// (2 for MeanVar, 1 for Mean). MeanVar needs at least 2: a segment of
	// one point has zero variance.
	MinSegLen int
	// Penalty is added once per change point (R's penalty="Manual"
	// pen.value). It must be finite and >= 0.
	Penalty float64
	// sumMode selects the accumulation of the cumulative sums; the zero
	// value, extendedSum, reproduces R.
	sumMode sumMode
}

// DefaultOptions returns the setting of Barrett et al. (OOPSLA 2017) for a
// series of n points: MeanVar cost, minimum segment length 2, penalty
// 15·log(n) (BarrettPenalty), extended-precision sums.
func DefaultOptions(n int) Options {
	return Options{Cost: MeanVar, MinSegLen: 2, Penalty: BarrettPenalty(n)}
}

// BarrettPenalty is 15·log(n), the manual PELT penalty of Barrett et al.,
// "Virtual machine warmup blows hot and cold", OOPSLA 2017 (120.0955 for
// n = 3000).
func BarrettPenalty(n int) float64 { return 15 * math.Log(float64(n)) }

// Segment is one segment of a segmentation: the 0-based half-open range
// [Start, End) of the series with its sample mean, its maximum likelihood
// variance (divisor End-Start) and its cost C under the segmentation's
// cost function (from the cumulative sums, as PELT evaluates it).
type Segment struct {
	Start, End int
	Mean       float64
	Variance   float64
	Cost       float64
}

// Len is End-Start.
func (s Segment) Len() int { return s.End - s.Start }

// Segmentation is the result of PELT on one series.
type Segmentation struct {
	// Changepoints are in R's cpts() convention: the 1-based index of the
	// last point of every segment except the final one (equivalently the
	// 0-based start of the next segment); empty when there is no change.
	Changepoints []int
	// Segments covers the series in order; len(Segments) ==
	// len(Changepoints)+1.
	Segments []Segment
	// objective is PELT's F(n) (R's lastchangelike[n]):
	//
	//	F(n) = Σ_segments C(segment) + len(Changepoints)·penalty
	objective float64
	// cost is the unpenalised Σ C(segment), computed as R's CROPS does:
	// F(n) - len(Changepoints)·penalty.
	cost float64
	// penalty, costFunc and minSegLen record the setting used.
	penalty   float64
	costFunc  Cost
	minSegLen int
}

// PELT segments x by minimising the penalised cost
//
//	F(n) = min over segmentations of Σ C(y_(τ_{i-1}, τ_i]) + m·β
//
// with the PELT recursion and pruning rule of Killick, Fearnhead and Eckley
// (JASA 2012), exactly as R changepoint 2.3's C function PELTC runs it:
//
//	F(0) = -β;  F(j) = C(0, j) for m <= j < 2m        (m = MinSegLen)
//	for t = 2m..n:
//	    F(t) = min_{s in R_t} F(s) + C(s, t) + β     (first s on ties)
//	    R_{t+1} = {s in R_t : F(s) + C(s, t) <= F(t)} ∪ {t-m+1}
//	R_{2m} = {0, m}
//
// The candidate set keeps ascending order and ties go to the earliest s,
// as in R. Note that with m >= 2 this pruning rule is not exact: a
// candidate can be pruned at t although t itself cannot be a change point
// for the next m-1 steps, so PELT can return a worse F(n) than exact
// optimal partitioning (docs/changepoint.md, quirk 1); R's behaviour is kept so
// results agree.
//
// x is not modified. It returns an error for non-finite values, a negative
// or non-finite penalty, an invalid MinSegLen, or fewer than 2·MinSegLen
// points (ErrTooShort).
func PELT(x []float64, opt Options) (*Segmentation, error) {
	p, err := newPELT(x, opt.Cost, opt.MinSegLen, opt.sumMode)
	if err != nil {
		return nil, err
	}
	if err := checkPenalty(opt.Penalty); err != nil {
		return nil, err
	}
	p.run(opt.Penalty)
	return p.segmentation(x, opt.Penalty), nil
}

func checkPenalty(pen float64) error {
	if math.IsNaN(pen) || math.IsInf(pen, 0) || pen < 0 {
		return fmt.Errorf("changepoint: penalty %v must be finite and >= 0", pen)
	}
	return nil
}

// resolveMinSegLen applies the cost default and validates.
func resolveMinSegLen(c Cost, m int) (int, error) {
	if !c.valid() {
		return 0, fmt.Errorf("changepoint: invalid cost %d", int(c))
	}
	if m == 0 {
		m = c.defaultMinSegLen()
	}
	if m < 1 {
		return 0, fmt.Errorf("changepoint: MinSegLen %d must be >= 1", m)
	}
	if c == MeanVar && m < 2 {
		// R's cpt.meanvar silently raises it to 2 with a warning; an
		// explicit error is clearer than a changed setting.
		return 0, fmt.Errorf("changepoint: MinSegLen %d is too small for the mean-and-variance cost (needs >= 2)", m)
	}
	return m, nil
}

// peltState is the reusable PELT engine for one series: the sufficient
// statistics and every work buffer, so that CROPS can run many penalties
// without allocating.
type peltState struct {
	st   sumStats
	cost Cost
	m, n int

	f    []float64 // F(t), t = 0..n (R's lastchangelike)
	last []int32   // R's lastchangecpts
	nseg []int32   // R's numchangecpts: number of segments up to t

	// Candidate list R_t in ascending order, stored as parallel arrays so
	// the kernels read memory sequentially: the candidate s, s as float64
	// (exact), S1[s], S2[s] and F(s).
	cs  []int32
	csf []float64
	c1  []float64
	c2  []float64
	cf  []float64
	// Per-t scratch: values (or approximations), error bounds, σ².
	tl, eb, sg []float64
}

func newPELT(x []float64, c Cost, minSegLen int, mode sumMode) (*peltState, error) {
	m, err := resolveMinSegLen(c, minSegLen)
	if err != nil {
		return nil, err
	}
	if err := checkFinite(x); err != nil {
		return nil, err
	}
	n := len(x)
	if n < 2*m {
		return nil, fmt.Errorf("%w: n = %d, MinSegLen = %d", ErrTooShort, n, m)
	}
	if n > math.MaxInt32 {
		return nil, fmt.Errorf("changepoint: series of %d points is too long", n)
	}
	st := newSumStats(x, mode)
	// S2 is nondecreasing, so a finite n·S2(n) bounds every partial sum of
	// squares and every (ΣY)² <= L·ΣY² of a segment: no cost overflows.
	if s := st.s2[n] * float64(n); math.IsInf(s, 0) || math.IsNaN(s) {
		return nil, fmt.Errorf("changepoint: the sum of squares of the series overflows float64 (values too large)")
	}
	return newPELTState(st, c, m, n), nil
}

func newPELTState(st sumStats, c Cost, m, n int) *peltState {
	return &peltState{
		st: st, cost: c, m: m, n: n,
		f: make([]float64, n+1), last: make([]int32, n+1), nseg: make([]int32, n+1),
		cs: make([]int32, 0, n+1), csf: make([]float64, 0, n+1),
		c1: make([]float64, 0, n+1), c2: make([]float64, 0, n+1), cf: make([]float64, 0, n+1),
		tl: make([]float64, n+1), eb: make([]float64, n+1), sg: make([]float64, n+1),
	}
}

// push appends candidate s.
func (p *peltState) push(s int) {
	p.cs = append(p.cs, int32(s))
	p.csf = append(p.csf, float64(s))
	p.c1 = append(p.c1, p.st.s1[s])
	p.c2 = append(p.c2, p.st.s2[s])
	p.cf = append(p.cf, p.f[s])
}

// run executes the recursion for penalty pen and returns F(n) and the
// number of segments.
func (p *peltState) run(pen float64) (float64, int) {
	n, m := p.n, p.m
	s1, s2 := p.st.s1, p.st.s2
	f, last, nseg := p.f, p.last, p.nseg
	clear(f)
	clear(last)
	clear(nseg)
	f[0] = -pen
	for j := m; j < 2*m; j++ {
		f[j] = p.st.cost(p.cost, 0, j)
		last[j] = 0
		nseg[j] = 1
	}
	p.cs, p.csf, p.c1, p.c2, p.cf = p.cs[:0], p.csf[:0], p.c1[:0], p.c2[:0], p.cf[:0]
	p.push(0)
	p.push(m)
	bounded := p.cost == MeanVar && boundedMeanVar()

	for t := 2 * m; t <= n; t++ {
		k := len(p.cs)
		cs, csf, c1, c2, cf := p.cs[:k], p.csf[:k], p.c1[:k], p.c2[:k], p.cf[:k]
		tl, eb := p.tl[:k], p.eb[:k]
		tf, st1, st2 := float64(t), s1[t], s2[t]
		exact := func(i int) float64 {
			return exactValue(MeanVar, tf-csf[i], st1-c1[i], st2-c2[i], cf[i], pen)
		}
		var which int
		var minout float64
		keepAll := math.NaN() // every candidate is kept if thr >= keepAll
		switch {
		case p.cost == Mean:
			which, keepAll = scanMean(tl, csf, c1, c2, cf, tf, st1, st2, pen)
			minout = tl[which]
		case bounded:
			// The exact minimum (first index on ties, R's min_which) is
			// among the candidates whose lower bound is <= the smallest
			// upper bound; evaluate those exactly, in order. The portable
			// kernel also tells when that is one candidate only.
			var upper float64
			which = -1
			if useSIMD {
				upper = boundMeanVar(tl, eb, csf, c1, c2, cf, tf, st1, st2, pen)
			} else {
				r := boundMeanVarGo(tl, eb, csf, c1, c2, cf, tf, st1, st2, pen)
				upper, keepAll = r.upper, r.wmax
				if r.i1 >= 0 && r.low2 > upper {
					which, minout = r.i1, exact(r.i1)
				}
			}
			if which < 0 {
				for i := find(tl, eb, upper, findDiffLE); i < k; i += 1 + find(tl[i+1:], eb[i+1:], upper, findDiffLE) {
					if v := exact(i); which < 0 || v < minout {
						which, minout = i, v
					}
				}
			}
		default:
			which = scanMeanVar(tl, p.sg, csf, c1, c2, cf, tf, st1, st2, pen)
			minout = tl[which]
		}
		f[t] = minout
		ls := cs[which]
		last[t] = ls
		nseg[t] = nseg[ls] + 1

		// Prune: keep s with F(s)+C(s,t)+β <= F(t)+β, in order (with
		// bounds, evaluate exactly only where they do not decide).
		thr := minout + pen
		// Candidates before i0 are kept for sure and stay in place.
		var i0 int
		switch {
		case thr >= keepAll:
			i0 = k
		case bounded:
			i0 = find(tl, eb, thr, findSumGreater)
		default:
			i0 = find(tl, nil, thr, findGreater)
		}
		j := i0
		for i := i0; i < k; i++ {
			v := tl[i]
			keep := v <= thr
			if bounded {
				switch {
				case v+eb[i] <= thr:
					keep = true
				case v-eb[i] > thr:
					keep = false
				default:
					keep = exact(i) <= thr
				}
			}
			if keep {
				if j != i {
					cs[j], csf[j], c1[j], c2[j], cf[j] = cs[i], csf[i], c1[i], c2[i], cf[i]
				}
				j++
			}
		}
		p.cs, p.csf, p.c1, p.c2, p.cf = cs[:j], csf[:j], c1[:j], c2[:j], cf[:j]
		p.push(t - m + 1)
	}
	return f[n], int(nseg[n])
}

// segmentEnds backtracks from n and returns the 1-based segment ends in
// ascending order, n included (R's obj@cpts).
func (p *peltState) segmentEnds() []int {
	cnt := int(p.nseg[p.n])
	ends := make([]int, cnt)
	for last, k := p.n, cnt-1; last != 0 && k >= 0; k-- {
		ends[k] = last
		last = int(p.last[last])
	}
	return ends
}

// segmentation assembles the exported result after run(pen).
func (p *peltState) segmentation(x []float64, pen float64) *Segmentation {
	ends := p.segmentEnds()
	fn := p.f[p.n]
	ncpts := len(ends) - 1
	seg := &Segmentation{
		Changepoints: ends[:ncpts:ncpts],
		objective:    fn,
		cost:         fn - float64(ncpts)*pen,
		penalty:      pen,
		costFunc:     p.cost,
		minSegLen:    p.m,
	}
	seg.Segments = segmentsOf(x, ends, p.st, p.cost)
	return seg
}

// segmentsOf returns the segments ending at the given 1-based ends (the
// last must be len(x)), with R's param.est mean and MLE variance and the
// cost c from the sums st.
func segmentsOf(x []float64, ends []int, st sumStats, c Cost) []Segment {
	e := newExtended()
	segs := make([]Segment, len(ends))
	start := 0
	for k, end := range ends {
		v := x[start:end]
		mean := meanExtended(e, v)
		segs[k] = Segment{
			Start: start, End: end, Mean: mean,
			Variance: varianceMLEExtended(e, v, mean),
			Cost:     st.cost(c, start, end),
		}
		start = end
	}
	return segs
}

// segmentsAt returns the segments of x for the given change points (R's
// cpts() convention, strictly increasing, each in [1, len(x)-1]) with
// their mean and MLE variance as R's param.est computes them and their
// cost c (extended-precision sums). It panics if the change points are out
// of range or not increasing (a caller bug); x must be finite.
func segmentsAt(x []float64, changepoints []int, c Cost) []Segment {
	ends := make([]int, 0, len(changepoints)+1)
	prev := 0
	for _, c := range changepoints {
		if c <= prev || c >= len(x) {
			panic(fmt.Sprintf("changepoint: segmentsAt: change point %d out of order or range (n = %d)", c, len(x)))
		}
		ends = append(ends, c)
		prev = c
	}
	ends = append(ends, len(x))
	return segmentsOf(x, ends, newSumStats(x, extendedSum), c)
}
