package changepoint

import (
	"math"
	"sync"
)

// The PELT inner loop evaluates F(s) + C(s, t) + β for every candidate s
// (about n²/2 times on a series without change points). This file holds
// the kernels that do it; all of them produce exactly the values of the
// plain loop over exactValue, which uses the operations of R's C code.
//
// Mean cost: the value needs one division; scanMean computes it directly
// (four candidates per AVX2 instruction on amd64, the same IEEE operations
// as the scalar code, so bit for bit the same values).
//
// MeanVar cost: the value needs two divisions and a logarithm, but its
// exact value matters only to find the minimum and to decide pruning near
// the threshold F(t) + β. On amd64 with AVX2 and FMA, boundMeanVar
// computes σ² exactly (vector divisions are IEEE) but log σ² with a short
// polynomial, giving an approximation v' of every value with a rigorous
// bound ε on its distance to the exact value v,
//
//	|v' - v| <= ε = L·(1e-12 + 2e-15·|log σ²| + 6e-15) + 2e-15·(|F(s)| + |C'| + β)
//
// (the polynomial log is within 2e-13 of log σ², fastLog within 0.51 ulp,
// and the last terms cover the roundings of log(2π) + log σ² + 1, of the
// product with L and of the two sums in both evaluations, with room to
// spare), and the caller evaluates exactValue only for the few candidates
// whose interval [v'-ε, v'+ε] does not decide a comparison. Subnormal σ²
// gets ε = +Inf (always evaluated exactly). TestKernelsMatchPlainLoop and
// FuzzPELT check that both paths give identical segmentations and
// objectives.

// exactValue is F(s) + C(s, t) + β evaluated with exactly the operations of
// R's PELTC: lastchangelike[s] + costfunction(...) + pen.
func exactValue(c Cost, l, x, x2, fs, pen float64) float64 {
	if c == Mean {
		return (fs + (x2 - float64(x*x)/l)) + pen
	}
	sig := (x2 - float64(x*x)/l) / l
	if sig <= 0 {
		sig = varianceClamp
	}
	return (fs + float64(l*((log2Pi+fastLog(sig))+1))) + pen
}

// useSIMD selects the AVX2 kernels; it is set at start-up when the CPU
// and OS support AVX2 and FMA, and tests switch it off to compare.
var useSIMD = haveSIMD

// scanMean fills tl[i] = F(s_i) + C(s_i, t) + β (Mean cost, exact) and
// returns the first index of the minimum (R's min_which: strict <).
func scanMean(tl, csf, c1, c2, cf []float64, tf, st1, st2, pen float64) int {
	k := len(tl)
	_, _, _, _ = csf[k-1], c1[k-1], c2[k-1], cf[k-1]
	i := 0
	if useSIMD && k >= 4 {
		i = k &^ 3
		scanMeanAVX2(&tl[0], &csf[0], &c1[0], &c2[0], &cf[0], i, tf, st1, st2, pen)
	}
	for ; i < k; i++ {
		l := tf - csf[i]
		x := st1 - c1[i]
		x2 := st2 - c2[i]
		tl[i] = (cf[i] + (x2 - float64(x*x)/l)) + pen
	}
	return firstMin(tl)
}

// firstMin returns the index of the first minimum of v (len(v) > 0).
func firstMin(v []float64) int {
	if useSIMD && len(v) >= 8 {
		k := len(v) &^ 3
		m := minAVX2(&v[0], k)
		for _, x := range v[k:] {
			m = min(m, x)
		}
		return find(v, nil, m, findEq)
	}
	which, m := 0, v[0]
	for i, x := range v {
		if x < m {
			which, m = i, x
		}
	}
	return which
}

// Comparisons for find.
const (
	findEq         = iota // v[i] == x
	findGreater           // v[i] > x
	findSumGreater        // v[i] + e[i] > x
	findDiffLE            // v[i] - e[i] <= x
)

// find returns the first index i where comparison op of v[i] (and e[i])
// with x holds, or len(v).
func find(v, e []float64, x float64, op int) int {
	k := len(v)
	if op >= findSumGreater {
		e = e[:k]
	}
	i := 0
	if useSIMD && k >= 4 {
		k4 := k &^ 3
		ep := &v[0] // unused by ops 0 and 1
		if e != nil {
			ep = &e[0]
		}
		if i = findAVX2(&v[0], ep, k4, x, op); i < k4 {
			return i
		}
	}
	for ; i < k; i++ {
		var hit bool
		switch op {
		case findEq:
			hit = v[i] == x
		case findGreater:
			hit = v[i] > x
		case findSumGreater:
			hit = v[i]+e[i] > x
		default:
			hit = v[i]-e[i] <= x
		}
		if hit {
			return i
		}
	}
	return k
}

// scanMeanVar fills tl[i] = F(s_i) + C(s_i, t) + β (MeanVar cost, exact)
// and returns the first index of the minimum. It is the portable kernel:
// σ² for every candidate first, then their logarithms, then the values
// (three short loops overlap better than one long one).
func scanMeanVar(tl, sg, csf, c1, c2, cf []float64, tf, st1, st2, pen float64) int {
	k := len(tl)
	sg = sg[:k]
	_, _, _, _ = csf[k-1], c1[k-1], c2[k-1], cf[k-1]
	for i := range sg {
		l := tf - csf[i]
		x := st1 - c1[i]
		x2 := st2 - c2[i]
		sig := (x2 - float64(x*x)/l) / l
		if sig <= 0 {
			sig = varianceClamp
		}
		sg[i] = sig
	}
	for i, s := range sg {
		sg[i] = fastLog(s)
	}
	for i, lg := range sg {
		l := tf - csf[i]
		tl[i] = (cf[i] + float64(l*((log2Pi+lg)+1))) + pen
	}
	return firstMin(tl)
}

// boundMeanVar fills va[i] = v' and eb[i] = ε (see the file comment) for
// every candidate and returns min(v' + ε). Only with useSIMD.
func boundMeanVar(va, eb, csf, c1, c2, cf []float64, tf, st1, st2, pen float64) float64 {
	k := len(va)
	_, _, _, _, _ = eb[k-1], csf[k-1], c1[k-1], c2[k-1], cf[k-1]
	upper := math.Inf(1)
	i := 0
	if k >= 4 {
		i = k &^ 3
		upper = boundMeanVarAVX2(&va[0], &eb[0], &csf[0], &c1[0], &c2[0], &cf[0], i, tf, st1, st2, pen)
	}
	// The remainder exactly, with ε = 0.
	for ; i < k; i++ {
		v := exactValue(MeanVar, tf-csf[i], st1-c1[i], st2-c2[i], cf[i], pen)
		va[i], eb[i] = v, 0
		upper = min(upper, v)
	}
	return upper
}

// costCache holds, for every segment (s, t] of the series, the bounded
// approximation C' of its MeanVar cost and its bound ε_C (boundMeanVar
// with F(s) = 0 and β = 0): row t, s = 0..t-1, at offset t(t-1)/2. CROPS
// builds it once and its PELT runs then read costs instead of computing
// them; a run's bound is ε_C + 2e-15·(|F(s)| + |C'| + β), which covers
// the roundings of (F(s) + C) + β in both evaluations as before.
type costCache struct {
	c, e []float64
}

// costCacheBytes is the memory of the cache for n points.
func costCacheBytes(n int) int64 { return int64(n) * int64(n+1) / 2 * 16 }

// cachePool recycles cost caches between CROPS calls (tens of megabytes
// each; every entry is overwritten when the cache is built).
var cachePool sync.Pool

// buildCostCache fills a cache (MeanVar cost, SIMD only); release it with
// cachePool.Put when no engine uses it any more.
func buildCostCache(st sumStats, n int) *costCache {
	size := n * (n + 1) / 2
	cc, _ := cachePool.Get().(*costCache)
	if cc == nil || cap(cc.c) < size {
		cc = &costCache{c: make([]float64, size), e: make([]float64, size)}
	}
	cc.c, cc.e = cc.c[:size], cc.e[:size]
	iota := make([]float64, n)
	for i := range iota {
		iota[i] = float64(i)
	}
	zeros := make([]float64, n)
	for t := 1; t <= n; t++ {
		off := t * (t - 1) / 2
		boundMeanVar(cc.c[off:off+t], cc.e[off:off+t], iota[:t], st.s1[:t], st.s2[:t], zeros[:t], float64(t), st.s1[t], st.s2[t], 0)
	}
	return cc
}

// boundCached is boundMeanVar reading the segment costs from a cache row.
func boundCached(va, eb []float64, cs []int32, cf, crow, erow []float64, pen float64) float64 {
	k := len(va)
	_, _, _ = eb[k-1], cs[k-1], cf[k-1]
	upper := math.Inf(1)
	i := 0
	if useSIMD && k >= 4 {
		// Every cs[i] < len(crow) = t, as the assembly assumes.
		i = k &^ 3
		upper = boundCachedAVX2(&va[0], &eb[0], &cs[0], &cf[0], &crow[0], &erow[0], i, pen)
	}
	for ; i < k; i++ {
		s := cs[i]
		c := crow[s]
		fs := cf[i]
		v := (fs + c) + pen
		e := erow[s] + 2e-15*(math.Abs(fs)+math.Abs(c)+pen)
		va[i], eb[i] = v, e
		upper = min(upper, v+e)
	}
	return upper
}
