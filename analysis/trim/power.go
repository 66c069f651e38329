package trim

import (
	"math"
	"slices"
	"sync"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/benchtrim/benchtrim/analysis/internal/verdict"
	"github.com/benchtrim/benchtrim/estimate"
	"github.com/benchtrim/benchtrim/internal/nonparam"
	"github.com/benchtrim/benchtrim/internal/stats"
)

// detectPower is the share of A/B runs that must detect a slowdown for it
// to count as detectable (the usual 80 % power).
const detectPower = 0.8

// detector finds the minimal detectable slowdown of configurations under
// the user's test (Options.Test at Options.Alpha).
//
// For configuration k it draws draws pairs of runs (A, B) with the
// sampler, each an independent run of k, and finds for each pair the
// smallest slowdown δ* that the test reports when B is slowed by δ (its
// values × (1 + δ)):
//
//   - TestU: B' = B·(1+δ) is slower when its U statistic over A,
//     U(δ) = #{(i, j): a_i < (1+δ)·b_j}, reaches the critical value u_c
//     of the two-sided test at α (nonparam.UCritical: p ≤ α), so δ* =
//     r_(u_c) − 1 with r_(u) the u-th smallest of the ratios a_i/b_j;
//     +Inf when no U reaches α (too few values).
//   - TestOverlap: δ* = (x̄_A + e_A)/(x̄_B − e_B) − 1, the slowdown at
//     which B's interval starts above A's (e the (1 − α) t half-widths,
//     verdict.MeanError); +Inf when x̄_B ≤ e_B.
//   - TestRatio: the hierarchical interval of the ratio of two runs of
//     precision h each is about ±√2·h, so δ* = (1 + √2·h)·x̄_A/x̄_B − 1
//     with h the precision of k at confidence 1 − α (sampler.precision,
//     from the recording's standard error).
//
// The minimal detectable slowdown is the detectPower quantile of δ* over
// the pairs (common random numbers: the same draws serve every δ): the
// least slowdown the test finds in 80 % of A/B runs of k; at least 0.
// Every configuration draws from a fresh stream of the same seed, so
// configurations are compared on common random numbers.
type detector struct {
	s *sampler
	// se is the relative standard error of the recording's mean
	// (TestRatio).
	se     float64
	test   estimate.Test
	alpha  float64
	draws  int
	stream func() *stats.Stream
	// a, b, la, lb are the pairs' buffers; ds the δ* values; guess the
	// last pair's ratio, where kthRatio starts the next.
	a, b, la, lb, ds []float64
	guess            float64
}

func newDetector(s *sampler, test estimate.Test, alpha float64, draws int, stream func() *stats.Stream) *detector {
	t := &detector{s: s, test: test, alpha: alpha, draws: draws, stream: stream}
	if test == estimate.TestRatio {
		t.se = s.standardError(stream())
	}
	return t
}

// canFire reports whether a run of k has enough values for the test to
// report a change at all (verdict.MinSamples).
func (t *detector) canFire(k []int) bool {
	return t.s.samplesPer(k) >= verdict.MinSamples(t.test, t.alpha)
}

// detectable is the minimal detectable slowdown of k (+Inf when the test
// cannot fire at k).
func (t *detector) detectable(k []int) float64 {
	if !t.canFire(k) {
		return math.Inf(1)
	}
	rng := t.stream()
	h := 0.0
	if t.test == estimate.TestRatio {
		h = t.s.precision(k, t.se, 1-t.alpha, rng)
	}
	draws := t.draws
	if t.s.fixedRuns(k) {
		draws = 1 // every pair is the same
	}
	if cap(t.ds) < draws {
		t.ds = make([]float64, draws)
	}
	ds := t.ds[:draws]
	t.guess = 0
	for i := range ds {
		if t.test == estimate.TestU {
			t.a = t.s.sortedRun(t.a[:0], k, rng)
			t.b = t.s.sortedRun(t.b[:0], k, rng)
		} else {
			t.a = t.s.run(t.a[:0], k, rng)
			t.b = t.s.run(t.b[:0], k, rng)
		}
		ds[i] = t.delta(t.a, t.b, h)
	}
	q := stats.Quantile(ds, detectPower, nil)
	if math.IsNaN(q) {
		return math.Inf(1)
	}
	return max(0, q)
}

// rough is detectable from a tenth of the pairs (at least 20): the
// detectable slowdown of a configuration that missed its target, shown
// beside the others in the plan.
func (t *detector) rough(k []int) float64 {
	d := *t
	d.draws = max(20, t.draws/10)
	d.ds = nil
	return d.detectable(k)
}

// detects reports whether the detectable slowdown of k is at most
// target without finding every pair's δ*: a pair detects target when its δ* ≤ target
// (TestU: U((1+target)) ≥ u_c, one count), and the draws stop as soon as
// the share of detecting pairs is decided either way (at least
// detectPower of all draws, or too few left to reach it).
func (t *detector) detects(k []int, target float64) bool {
	return t.detectsWith(k, target, detectPower)
}

// detectsWith reports whether runs of k detect a slowdown of target in at
// least a share power of A/B pairs (the power quantile of δ* at or below
// target); detects is detectsWith at detectPower.
func (t *detector) detectsWith(k []int, target, power float64) bool {
	return t.detectsBy(t.s, k, target, power)
}

// detectsFresh is detectsWith for runs of new top-level units: the top
// units drawn with replacement (the cluster bootstrap), so that what
// varies between forks, instances or processes varies between A and B
// (sampler.bootstrap). An absolute target (Options.MinEffect) asks
// about such runs; a target relative to the recording compares runs
// drawn from it alike (detects).
func (t *detector) detectsFresh(k []int, target, power float64) bool {
	boot := *t.s
	boot.bootstrap = true
	return t.detectsBy(&boot, k, target, power)
}

// detectsBy is detectsWith with the runs drawn by s.
func (t *detector) detectsBy(s *sampler, k []int, target, power float64) bool {
	if !t.canFire(k) || math.IsNaN(target) {
		return false
	}
	if math.IsInf(target, 1) {
		return true
	}
	rng := t.stream()
	h := 0.0
	if t.test == estimate.TestRatio {
		h = s.precision(k, t.se, 1-t.alpha, rng)
	}
	// need pairs at or below target put the power quantile of the pairs'
	// δ* at or below it (quantileNeed).
	draws := t.draws
	if s.fixedRuns(k) {
		draws = 1 // every pair is the same
	}
	need := quantileNeed(draws, power)
	low, high := seqBounds(draws, power)
	hit := 0
	for i := 0; i < draws; i++ {
		if hit >= need || hit >= high[i] {
			return true
		}
		if hit+(draws-i) < need || hit <= low[i] {
			return false
		}
		var ok bool
		if t.test == estimate.TestU {
			t.a = s.sortedRun(t.a[:0], k, rng)
			t.b = s.sortedRun(t.b[:0], k, rng)
			u := nonparam.UCritical(len(t.a), len(t.b), t.alpha)
			ok = u <= len(t.a)*len(t.b) && countRatioBelow(t.a, t.b, 1+target) >= u
		} else {
			t.a = s.run(t.a[:0], k, rng)
			t.b = s.run(t.b[:0], k, rng)
			ok = t.delta(t.a, t.b, h) <= target
		}
		if ok {
			hit++
		}
	}
	return hit >= need
}

// seqAlpha is the chance, at each look, that detectsBy stops on a share
// of detecting pairs this far from power although the configuration's
// runs detect the target in a share power of A/B pairs: 10⁻⁵ per look.
const seqAlpha = 1e-5

// seqBounds are the sequential stopping bounds of detectsBy for n draws
// at power p: after i pairs with h detecting, it stops with "detects"
// when h ≥ high[i] (P(X ≥ h) < seqAlpha for X ~ Binomial(i, p)) and with
// "does not" when h ≤ low[i] (P(X ≤ h) < seqAlpha), so that a
// configuration far from the threshold is decided in a few dozen pairs
// instead of hundreds, and one near it still draws all n. The bounds
// are cached per (n, p).
func seqBounds(n int, p float64) (low, high []int) {
	key := [2]float64{float64(n), p}
	seqMu.Lock()
	defer seqMu.Unlock()
	if b, ok := seqCache[key]; ok {
		return b[0], b[1]
	}
	low, high = make([]int, n), make([]int, n)
	for i := range n {
		low[i], high[i] = -1, i+1
		if i == 0 {
			continue
		}
		d := distuv.Binomial{N: float64(i), P: p}
		for h := 0; h <= i && d.CDF(float64(h)) < seqAlpha; h++ {
			low[i] = h
		}
		for h := i; h >= 0 && d.Survival(float64(h)-0.5) < seqAlpha; h-- {
			high[i] = h
		}
	}
	seqCache[key] = [2][]int{low, high}
	return low, high
}

var (
	seqMu    sync.Mutex
	seqCache = map[[2]float64][2][]int{}
)

// quantileNeed is a number of the n values at or below x that puts their
// type-7 quantile at p (stats.Quantile) at or below x: the quantile
// interpolates between the order statistics ⌊h⌋ and ⌈h⌉ (1-based,
// h = 1 + (n−1)·p), so it is ≤ x when the ⌈h⌉-th smallest is.
func quantileNeed(n int, p float64) int {
	return int(math.Ceil(1 + float64(n-1)*p - 1e-9))
}

// delta is δ* of the pair (a, b) (see detector); h is the precision of
// one run for TestRatio. For TestU, a and b are in ascending order.
func (t *detector) delta(a, b []float64, h float64) float64 {
	switch t.test {
	case estimate.TestU:
		u := nonparam.UCritical(len(a), len(b), t.alpha)
		if u > len(a)*len(b) {
			return math.Inf(1)
		}
		r := kthRatio(a, b, u, t.guess)
		t.guess = r
		return r - 1
	case estimate.TestOverlap:
		ma, ea := verdict.MeanError(a, t.alpha)
		mb, eb := verdict.MeanError(b, t.alpha)
		if !(mb > eb) {
			return math.Inf(1)
		}
		return (ma+ea)/(mb-eb) - 1
	default:
		return (1+math.Sqrt2*h)*mean(a)/mean(b) - 1
	}
}

// kthRatio is, for ascending positive a and b, the u-th smallest (1-based)
// of the n·m ratios a_i/b_j, exactly. With count(c) = #{(i, j): a_i <
// c·b_j} (O(n + m) for ascending a and b), it keeps a bracket lo < hi
// with count(lo) < u ≤ count(hi), narrowed by false position on the
// counts (ratios of one configuration's pairs lie near 1, where the
// counts grow about linearly), until at most kthSelect ratios lie in
// [lo, hi); those it lists and selects from. A positive guess (the
// previous pair's ratio: pairs of one configuration are alike) starts
// with a bracket of ±2 % around it where that holds the ratio.
func kthRatio(a, b []float64, u int, guess float64) float64 {
	n, m := len(a), len(b)
	// lo below every ratio; clo and chi as countRatioBelow counts them,
	// which the listing below repeats pair by pair.
	lo, hi := a[0]/b[m-1]*(1-1e-9), a[n-1]/b[0]
	clo, chi := countRatioBelow(a, b, lo), countRatioBelow(a, b, hi)
	if chi < u {
		// u is past every ratio below the largest: the largest.
		return hi
	}
	if guess > lo && guess < hi {
		l, h := guess*0.98, guess*1.02
		if l > lo {
			if c := countRatioBelow(a, b, l); c < u {
				lo, clo = l, c
			} else {
				hi, chi = l, c
			}
		}
		if h < hi && h > lo {
			if c := countRatioBelow(a, b, h); c >= u {
				hi, chi = h, c
			} else {
				lo, clo = h, c
			}
		}
	}
	side := 0
	for chi-clo > kthSelect {
		w := hi - lo
		t := lo + w*(float64(u)-0.5-float64(clo))/float64(chi-clo)
		// Keep the step inside the bracket and away from its ends;
		// bisect after two steps to one side (the Illinois safeguard).
		if !(t > lo+w/64 && t < hi-w/64) || side > 2 || side < -2 {
			t = lo + w/2
		}
		if !(t > lo && t < hi) {
			break // the bracket is one float wide
		}
		if c := countRatioBelow(a, b, t); c >= u {
			hi, chi = t, c
			side = min(side, 0) - 1
		} else {
			lo, clo = t, c
			side = max(side, 0) + 1
		}
	}
	// The ratios in [lo, hi): lo·b_j ≤ a_i < hi·b_j, by two pointers.
	var buf [kthSelect]float64
	rs := buf[:0]
	il, ih := 0, 0
	for _, bj := range b {
		llim, hlim := lo*bj, hi*bj
		for il < n && a[il] < llim {
			il++
		}
		for ih < n && a[ih] < hlim {
			ih++
		}
		for i := il; i < ih; i++ {
			rs = append(rs, a[i]/bj)
		}
	}
	slices.Sort(rs)
	return rs[u-clo-1]
}

// kthSelect is the number of ratios below which kthRatio lists the
// bracket's ratios instead of narrowing it further.
const kthSelect = 48

// countRatioBelow counts the pairs with a_i < c·b_j (a, b ascending).
func countRatioBelow(a, b []float64, c float64) int {
	n, i := 0, 0
	for _, bj := range b {
		lim := c * bj
		for i < len(a) && a[i] < lim {
			i++
		}
		n += i
	}
	return n
}
