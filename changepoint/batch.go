package changepoint

import "math"

// batchPELT runs the PELT recursion (see PELT) for several penalties in
// one sweep over t, sharing the segment costs between them. CROPS tests
// several penalties in each round; their recursions are independent, but
// every one of them evaluates C(s, t) for nearly the same candidates s at
// every t, and that evaluation (two divisions and a logarithm) is most of
// PELT's time. Here the union of the candidate sets (the members) is kept
// once, C(s, t) is computed once per member and t, and each penalty only
// adds its F(s) and β:
//
//	v_k(s, t) = (F_k(s) + C(s, t)) + β_k
//
// Every penalty's recursion is R's PELTC unchanged: the same F_k(t) (the
// first minimum over its own candidates), the same pruning decisions, so
// the results are bit for bit those of one PELT run per penalty.
//
// Each lane k keeps G_k(s) = F_k(s) + β_k (rounded) for its candidates,
// and every member j gets, once per t, the two bounds
//
//	Cw_j = C' + ε_j,  Clo_j = C' - ε_j,  ε_j = ε_C·(1+2⁻⁴⁰) + 3e-15·(|C'| + max_k |G_k(s_j)| + 2·max_k β_k)
//
// where C' approximates C(s_j, t) within ε_C: with the AVX2 kernels C' is
// boundMeanVar's bounded approximation (F = 0, β = 0), otherwise C
// itself (ε_C = 0). Then
//
//	lo = G_k(s) + Clo_j  <=  v_k(s, t)  <=  w = G_k(s) + Cw_j
//
// (the 3e-15 term covers the roundings of (F + C) + β, of G and of the
// two sums, each at most 2⁻⁵³ relative, with room to spare), and v_k is
// evaluated exactly (exactValue, from F_k(s)) only where [lo, w] leaves a
// comparison open: the minimum, and pruning near F_k(t) + β_k.
//
// The penalties sit in lanes, four per lane group (padded with copies of
// the last one); a candidate pruned for penalty k has G_k(s) = NaN in its
// lane, which every comparison below treats as absent, and a member leaves
// when it is pruned in every lane.
type batchPELT struct {
	st      sumStats
	cost    Cost
	m, n    int
	bounded bool

	nk     int       // number of lanes (a multiple of laneWidth)
	pens   []float64 // β_k
	penMax float64   // max β_k

	// Members, ascending s: s, s as float64, S1[s], S2[s], max_k |G_k(s)|,
	// the number of lanes in which s is still a candidate, and per lane
	// group g the values G_k(s) at fm[g][laneWidth·j + l], k =
	// laneWidth·g + l.
	cs               []int32
	csf, c1, c2, gmx []float64
	alive            []int32
	fm               [][]float64
	dead             int // members with alive == 0, removed by compact

	cw, clo []float64 // per t: Cw_j and Clo_j
	cc, ce  []float64 // per t: C' and ε_C (scratch)
	zeros   []float64

	f    []float64 // F_k(t) at f[nk·t + k]
	last []int32   // R's lastchangecpts at last[nk·t + k]

	acc []groupAcc // per lane group, the pass-1 summary
}

const laneWidth = 4

// groupAcc summarises pass 1 for the lanes of one group: upper =
// min(v'+ε), lo1 = min(v'-ε) first reached at member idx1 (as float64),
// lo2 = the second smallest v'-ε, hi = max(v'+ε), over the members where
// the lane's candidate is present. The AVX2 kernel writes it as five
// vectors.
type groupAcc struct {
	upper, lo1, lo2, hi, idx1 [laneWidth]float64
}

func newBatchPELT(st sumStats, c Cost, m, n int) *batchPELT {
	return &batchPELT{st: st, cost: c, m: m, n: n}
}

// run executes the recursion for every penalty (at most maxLanes of them)
// and returns, per penalty, F(n) and the 1-based segment ends (n
// included).
func (b *batchPELT) run(pens []float64) (fn []float64, ends [][]int) {
	b.setup(pens)
	n, m, nk := b.n, b.m, b.nk
	s1, s2 := b.st.s1, b.st.s2
	for k := 0; k < nk; k++ {
		b.f[k] = -b.pens[k]
	}
	for j := m; j < 2*m; j++ {
		c := b.st.cost(b.cost, 0, j)
		for k := 0; k < nk; k++ {
			b.f[nk*j+k] = c
			b.last[nk*j+k] = 0
		}
	}
	b.push(0)
	b.push(m)

	for t := 2 * m; t <= n; t++ {
		u := len(b.cs)
		tf, st1, st2 := float64(t), s1[t], s2[t]
		b.costRow(u, tf, st1, st2)
		for g := range b.fm {
			b.pass1(g, u)
		}
		// F_k(t): the first minimum of the exact values, among the members
		// whose lower bound does not exceed the smallest upper bound.
		prune := false
		for k := 0; k < nk; k++ {
			a, l := &b.acc[k/laneWidth], k%laneWidth
			which, minout := -1, 0.0
			if a.lo2[l] > a.upper[l] {
				which = int(a.idx1[l])
				minout = b.exact(which, k, tf, st1, st2)
			} else {
				for j := 0; j < u; j++ {
					if lo, _, ok := b.bound(j, k); ok && lo <= a.upper[l] {
						if x := b.exact(j, k, tf, st1, st2); which < 0 || x < minout {
							which, minout = j, x
						}
					}
				}
			}
			b.f[nk*t+k] = minout
			b.last[nk*t+k] = b.cs[which]
			// Nothing to prune in lane k if every v'+ε <= F(t)+β.
			if !(a.hi[l] <= minout+b.pens[k]) {
				prune = true
			}
		}
		if prune {
			for g := range b.fm {
				b.pass3(g, u, t, tf, st1, st2)
			}
			if b.dead > 16 && b.dead > len(b.cs)/8 {
				b.compact()
			}
		}
		b.push(t - m + 1)
	}

	fn = make([]float64, len(pens))
	ends = make([][]int, len(pens))
	for k := range pens {
		fn[k] = b.f[nk*n+k]
		var e []int
		for t := n; t > 0; t = int(b.last[nk*t+k]) {
			e = append(e, t)
		}
		for i, j := 0, len(e)-1; i < j; i, j = i+1, j-1 {
			e[i], e[j] = e[j], e[i]
		}
		ends[k] = e
	}
	return fn, ends
}

// setup sizes the buffers for the penalties and empties the member list.
func (b *batchPELT) setup(pens []float64) {
	nk := (len(pens) + laneWidth - 1) / laneWidth * laneWidth
	b.nk = nk
	b.pens = append(b.pens[:0], pens...)
	for len(b.pens) < nk {
		b.pens = append(b.pens, pens[len(pens)-1])
	}
	b.bounded = b.cost == MeanVar && boundedMeanVar()
	b.penMax = 0
	for _, p := range b.pens {
		b.penMax = max(b.penMax, p)
	}
	if need := nk * (b.n + 1); cap(b.f) < need {
		b.f = make([]float64, need)
		b.last = make([]int32, need)
	} else {
		b.f, b.last = b.f[:need], b.last[:need]
	}
	ng := nk / laneWidth
	for len(b.fm) < ng {
		b.fm = append(b.fm, nil)
	}
	b.fm = b.fm[:ng]
	// At most n+1 members: room for them all at once, as growing by
	// append would copy each list a dozen times into fresh memory.
	for g := range b.fm {
		b.fm[g] = reserve(b.fm[g], laneWidth*(b.n+1))
	}
	b.cs, b.alive = reserve(b.cs, b.n+1), reserve(b.alive, b.n+1)
	b.csf, b.c1, b.c2, b.gmx = reserve(b.csf, b.n+1), reserve(b.c1, b.n+1), reserve(b.c2, b.n+1), reserve(b.gmx, b.n+1)
	b.dead = 0
	if cap(b.cc) < b.n+1 {
		b.cw = make([]float64, b.n+1)
		b.clo = make([]float64, b.n+1)
		b.cc = make([]float64, b.n+1)
		b.ce = make([]float64, b.n+1)
		b.zeros = make([]float64, b.n+1)
	}
	if cap(b.acc) < ng {
		b.acc = make([]groupAcc, ng)
	}
	b.acc = b.acc[:ng]
}

// reserve returns s emptied, with room for n values.
func reserve[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, 0, n)
	}
	return s[:0]
}

// push appends candidate s to every lane.
func (b *batchPELT) push(s int) {
	b.cs = append(b.cs, int32(s))
	b.csf = append(b.csf, float64(s))
	b.c1 = append(b.c1, b.st.s1[s])
	b.c2 = append(b.c2, b.st.s2[s])
	b.alive = append(b.alive, int32(b.nk))
	row := b.f[b.nk*s : b.nk*(s+1)]
	gmx := 0.0
	for g := range b.fm {
		for l := 0; l < laneWidth; l++ {
			k := laneWidth*g + l
			gk := row[k] + b.pens[k]
			b.fm[g] = append(b.fm[g], gk)
			gmx = max(gmx, math.Abs(gk))
		}
	}
	b.gmx = append(b.gmx, gmx)
}

// compact removes the members pruned in every lane.
func (b *batchPELT) compact() {
	j := 0
	for i := range b.cs {
		if b.alive[i] == 0 {
			continue
		}
		if i != j {
			b.cs[j], b.csf[j], b.c1[j], b.c2[j], b.gmx[j], b.alive[j] = b.cs[i], b.csf[i], b.c1[i], b.c2[i], b.gmx[i], b.alive[i]
			for g := range b.fm {
				copy(b.fm[g][laneWidth*j:laneWidth*(j+1)], b.fm[g][laneWidth*i:laneWidth*(i+1)])
			}
		}
		j++
	}
	b.cs, b.csf, b.c1, b.c2, b.gmx, b.alive = b.cs[:j], b.csf[:j], b.c1[:j], b.c2[:j], b.gmx[:j], b.alive[:j]
	for g := range b.fm {
		b.fm[g] = b.fm[g][:laneWidth*j]
	}
	b.dead = 0
}

// costRow fills cw[j] and clo[j], the bounds of C(s_j, t) widened for
// the sums (see batchPELT), for the u members.
func (b *batchPELT) costRow(u int, tf, st1, st2 float64) {
	cc, ce := b.cc[:u], b.ce[:u]
	csf, c1, c2 := b.csf[:u], b.c1[:u], b.c2[:u]
	i := 0
	if b.bounded && useAVX512 && u >= 8 {
		// As boundMeanVar: the AVX2 kernel where this one gives up often.
		i = u &^ 7
		if bad := costRowAVX512(&b.cw[0], &b.clo[0], &csf[0], &c1[0], &c2[0], &b.gmx[0], i, tf, st1, st2, 2*b.penMax, &avx512Tab); bad > i/32 {
			i = 0
		}
	}
	if b.bounded && useSIMD && i == 0 && u >= 4 {
		// The AVX2 cost and its widening in one pass; the remainder below.
		i = u &^ 3
		costRowAVX2(&b.cw[0], &b.clo[0], &csf[0], &c1[0], &c2[0], &b.gmx[0], i, tf, st1, st2, 2*b.penMax)
	}
	cc, ce, csf, c1, c2 = cc[i:], ce[i:], csf[i:], c1[i:], c2[i:]
	switch {
	case len(cc) == 0:
		return
	case b.bounded:
		boundMeanVar(cc, ce, csf, c1, c2, b.zeros[:u], tf, st1, st2, 0)
	case b.cost == Mean:
		for j := range cc {
			l := tf - csf[j]
			x := st1 - c1[j]
			x2 := st2 - c2[j]
			cc[j] = x2 - float64(x*x)/l
			ce[j] = 0
		}
	default:
		// MeanVar, exact: the logarithms of σ², then the costs (as
		// scanMeanVar).
		logVariances(cc, csf, c1, c2, tf, st1, st2)
		for j, lg := range cc {
			l := tf - csf[j]
			cc[j] = float64(l * ((log2Pi + lg) + 1))
			ce[j] = 0
		}
	}
	widen(b.cw[i:u], b.clo[i:u], cc, ce, b.gmx[i:u], 2*b.penMax)
}

// widen sets cw = c + ε and clo = c - ε with ε = e·(1+2⁻⁴⁰) +
// 3e-15·(|c| + gmx + pen2).
func widen(cw, clo, c, e, gmx []float64, pen2 float64) {
	cw, clo, e, gmx = cw[:len(c)], clo[:len(c)], e[:len(c)], gmx[:len(c)]
	for j, cj := range c {
		eps := e[j]*(1+0x1p-40) + 3e-15*((math.Abs(cj)+gmx[j])+pen2)
		cw[j], clo[j] = cj+eps, cj-eps
	}
}

// bound returns the bounds lo <= v_k(s_j, t) <= w, and false if s_j is
// no longer a candidate in lane k.
func (b *batchPELT) bound(j, k int) (lo, w float64, ok bool) {
	g := b.fm[k/laneWidth][laneWidth*j+k%laneWidth]
	if g != g {
		return 0, 0, false
	}
	return g + b.clo[j], g + b.cw[j], true
}

// exact is v_k(s_j, t) with R's operations (exactValue).
func (b *batchPELT) exact(j, k int, tf, st1, st2 float64) float64 {
	s := b.cs[j]
	fs := b.f[b.nk*int(s)+k]
	return exactValue(b.cost, tf-b.csf[j], st1-b.c1[j], st2-b.c2[j], fs, b.pens[k])
}

// pass1 fills the lane summaries of lane group g over the u members.
func (b *batchPELT) pass1(g, u int) {
	a := &b.acc[g]
	if useSIMD && useAVX512 && u >= 2 {
		pass1AVX512(&b.fm[g][0], &b.cw[0], &b.clo[0], u&^1, a)
		if u&1 != 0 {
			b.pass1Add(g, u-1)
		}
		return
	}
	if useSIMD {
		pass1AVX2(&b.fm[g][0], &b.cw[0], &b.clo[0], u, a)
		return
	}
	fm := b.fm[g][:laneWidth*u]
	cw, clo := b.cw[:u], b.clo[:u]
	for l := 0; l < laneWidth; l++ {
		upper, lo1, lo2, hi, idx1 := math.Inf(1), math.Inf(1), math.Inf(1), math.Inf(-1), 0
		for j := range cw {
			gk := fm[laneWidth*j+l]
			w, lo := gk+cw[j], gk+clo[j]
			if w < upper {
				upper = w
			}
			if w > hi {
				hi = w
			}
			if lo < lo1 {
				lo2, lo1, idx1 = lo1, lo, j
			} else if lo < lo2 {
				lo2 = lo
			}
		}
		a.upper[l], a.lo1[l], a.lo2[l], a.hi[l], a.idx1[l] = upper, lo1, lo2, hi, float64(idx1)
	}
}

// pass1Add adds member j, the last, to lane group g's pass-1 summary, as
// the sweep over the members before it would.
func (b *batchPELT) pass1Add(g, j int) {
	a := &b.acc[g]
	for l := 0; l < laneWidth; l++ {
		gk := b.fm[g][laneWidth*j+l]
		w, lo := gk+b.cw[j], gk+b.clo[j]
		if w < a.upper[l] {
			a.upper[l] = w
		}
		if w > a.hi[l] {
			a.hi[l] = w
		}
		if lo < a.lo1[l] {
			a.lo2[l], a.lo1[l], a.idx1[l] = a.lo1[l], lo, float64(j)
		} else if lo < a.lo2[l] {
			a.lo2[l] = lo
		}
	}
}

// pass3 prunes lane group g: a candidate stays if v <= F(t)+β.
func (b *batchPELT) pass3(g, u, t int, tf, st1, st2 float64) {
	fm := b.fm[g][:laneWidth*u]
	var thr [laneWidth]float64
	for l := range thr {
		k := laneWidth*g + l
		thr[l] = b.f[b.nk*t+k] + b.pens[k]
	}
	for j := 0; j < u; {
		if useSIMD {
			j += pass3AVX2(&fm[laneWidth*j], &b.cw[j], u-j, &thr)
			if j == u {
				break
			}
		}
		for l := 0; l < laneWidth; l++ {
			k := laneWidth*g + l
			lo, w, ok := b.bound(j, k)
			if !ok || w <= thr[l] {
				continue
			}
			if lo <= thr[l] && b.exact(j, k, tf, st1, st2) <= thr[l] {
				continue
			}
			fm[laneWidth*j+l] = math.NaN()
			if b.alive[j]--; b.alive[j] == 0 {
				b.dead++
			}
		}
		j++
	}
}
