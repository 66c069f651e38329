package changepoint

import "math"

// The PELT inner loop evaluates F(s) + C(s, t) + β for every candidate s
// (about n²/2 times on a series without change points). This file holds
// the kernels that do it; all of them produce exactly the values of the
// plain loop over exactValue, which uses the operations of R's C code.
//
// Mean cost: the value needs one division; scanMean computes it directly
// (four candidates per AVX2 instruction on amd64, the same IEEE operations
// as the scalar code, so bit for bit the same values) and finds their
// minimum in the same pass.
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
	return (fs + float64(l*((log2Pi+fastLog(varianceR(l, x, x2)))+1))) + pen
}

// useSIMD selects the AVX2 kernels; it is set at start-up when the CPU
// and OS support AVX2 and FMA, and tests switch it off to compare.
// useAVX512 (with useSIMD) selects the AVX-512 version of boundMeanVar.
// useBoundGo selects, without useSIMD, the portable bounded evaluation
// of the MeanVar cost (boundMeanVarGo) over the exact scanMeanVar.
var (
	useSIMD    = haveSIMD
	useAVX512  = haveAVX512
	useBoundGo = true
)

// boundedMeanVar reports whether PELT evaluates the MeanVar cost through
// boundMeanVar (bounds, exact values only where they do not decide).
func boundedMeanVar() bool { return useSIMD || useBoundGo }

// scanMean fills tl[i] = F(s_i) + C(s_i, t) + β (Mean cost, exact) and
// returns the first index of the minimum (R's min_which: strict <, from
// tl[0]) and hi >= every tl[i], NaN if some tl[i] is NaN or hi is
// unknown (the AVX2 path): the pruning keeps every candidate if its
// threshold is >= hi. The AVX2 kernel finds the minimum as it goes: per lane the
// smallest value and the index of its first occurrence, then the smallest
// of the lanes' minima with the smallest index among equal ones, which is
// the first occurrence overall; the candidates after the kernel's, in
// order, replace it only when strictly smaller.
func scanMean(tl, csf, c1, c2, cf []float64, tf, st1, st2, pen float64) (which int, hi float64) {
	k := len(tl)
	_, _, _, _ = csf[k-1], c1[k-1], c2[k-1], cf[k-1]
	i := 0
	if useSIMD && k >= 4 {
		i = k &^ 3
		var lanes [8]float64
		scanMeanAVX2(&tl[0], &csf[0], &c1[0], &c2[0], &cf[0], i, tf, st1, st2, pen, &lanes)
		if tl[0] != tl[0] {
			i = 0 // NaN first: R's loop keeps index 0; take the plain path
		} else {
			which, m := int(lanes[4]), lanes[0]
			for j := 1; j < 4; j++ {
				if v, w := lanes[j], int(lanes[4+j]); v < m || v == m && w < which {
					which, m = w, v
				}
			}
			for ; i < k; i++ {
				l := tf - csf[i]
				x := st1 - c1[i]
				x2 := st2 - c2[i]
				if tl[i] = (cf[i] + (x2 - float64(x*x)/l)) + pen; tl[i] < m {
					which, m = i, tl[i]
				}
			}
			return which, math.NaN()
		}
	}
	// The portable loop finds the minimum and the maximum as it goes (a
	// pass over tl each would cost about as much as the values), with
	// branches, not min and max, which would put their NaN handling on
	// the loop-carried paths; a NaN makes sum NaN.
	m := math.Inf(1)
	hi = math.Inf(-1)
	sum := 0.0
	for i := range tl {
		l := tf - csf[i]
		x := st1 - c1[i]
		x2 := st2 - c2[i]
		v := (cf[i] + (x2 - float64(x*x)/l)) + pen
		tl[i] = v
		sum += v
		if v < m {
			which, m = i, v
		}
		if v > hi {
			hi = v
		}
	}
	if tl[0] != tl[0] {
		which = 0 // R keeps index 0 when it holds NaN
	}
	if sum != sum {
		hi = math.NaN()
	}
	return which, hi
}

// firstMin returns the index of the first minimum of v (len(v) > 0). Only
// the portable exact MeanVar kernel (neither useSIMD nor useBoundGo) calls
// it, so it has no vector path.
func firstMin(v []float64) int {
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
	findGreater    = iota // v[i] > x
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
		ep := &v[0] // unused by findGreater
		if e != nil {
			ep = &e[0]
		}
		if i = findAVX2(&v[0], ep, k4, x, op); i < k4 {
			return i
		}
	}
	// One loop per comparison: the portable build runs these over every
	// candidate, twice per t.
	v = v[:k]
	switch op {
	case findGreater:
		for ; i < k; i++ {
			if v[i] > x {
				return i
			}
		}
	case findSumGreater:
		for ; i < k; i++ {
			if v[i]+e[i] > x {
				return i
			}
		}
	default:
		for ; i < k; i++ {
			if v[i]-e[i] <= x {
				return i
			}
		}
	}
	return k
}

// logVariances sets lg[i] = log σ̂² of the segment from candidate i to t:
// σ̂² = (S₂ − S₁²/l)/l with l = tf − csf[i], S₁ = st1 − c1[i] and
// S₂ = st2 − c2[i] (R changepoint's mll.meanvar, with its clamp of σ̂² ≤ 0
// to varianceClamp), all σ̂² first and then their logarithms (fastLog).
// The MeanVar kernels that need bit-exact costs share it.
func logVariances(lg, csf, c1, c2 []float64, tf, st1, st2 float64) {
	_, _, _ = csf[len(lg)-1], c1[len(lg)-1], c2[len(lg)-1]
	for i := range lg {
		lg[i] = varianceR(tf-csf[i], st1-c1[i], st2-c2[i])
	}
	for i, s := range lg {
		lg[i] = fastLog(s)
	}
}

// scanMeanVar fills tl[i] = F(s_i) + C(s_i, t) + β (MeanVar cost, exact)
// and returns the first index of the minimum. It is the portable kernel:
// σ² for every candidate first, then their logarithms, then the values
// (three short loops overlap better than one long one).
func scanMeanVar(tl, sg, csf, c1, c2, cf []float64, tf, st1, st2, pen float64) int {
	k := len(tl)
	sg = sg[:k]
	_, _, _, _ = csf[k-1], c1[k-1], c2[k-1], cf[k-1]
	logVariances(sg, csf, c1, c2, tf, st1, st2)
	for i, lg := range sg {
		l := tf - csf[i]
		tl[i] = (cf[i] + float64(l*((log2Pi+lg)+1))) + pen
	}
	return firstMin(tl)
}

// boundMeanVar fills va[i] = v' and eb[i] = ε (see the file comment) for
// every candidate and returns min(v' + ε): with the AVX2 or AVX-512
// kernels under useSIMD, otherwise with boundMeanVarGo.
func boundMeanVar(va, eb, csf, c1, c2, cf []float64, tf, st1, st2, pen float64) float64 {
	if !useSIMD {
		return boundMeanVarGo(va, eb, csf, c1, c2, cf, tf, st1, st2, pen).upper
	}
	k := len(va)
	_, _, _, _, _ = eb[k-1], csf[k-1], c1[k-1], c2[k-1], cf[k-1]
	upper := math.Inf(1)
	i := 0
	var bad int
	if useAVX512 && k >= 8 {
		i = k &^ 7
		upper, bad = boundMeanVarAVX512(&va[0], &eb[0], &csf[0], &c1[0], &c2[0], &cf[0], i, tf, st1, st2, pen, &avx512Tab)
	}
	// Where the division-free kernel gives up on more than 1/32 of the
	// candidates (a mean huge against the spread, zero variances), the
	// AVX2 kernel, whose σ² is R's, does better.
	if (i == 0 || bad > i/32) && k >= 4 {
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

// avx512Table holds the constants of boundMeanVarAVX512 (the assembly
// reads them at fixed offsets). Its bound has the shape of the AVX2
// kernel's,
//
//	ε = L·(ηlog + 2e-15·|log σ²'| + ηvar·Q') + 2e-15·(|F(s)| + |C'| + β),  Q' = (X²/L)/(X2 - X²/L)
//
// with the two differences of a division-free evaluation:
//
//   - r = 1/L from VRCP14PD (relative error < 2⁻¹⁴) and two Newton steps
//     is within 1.1u of 1/L (u = 2⁻⁵³), so X²·r and (X2 - X²·r)·r give σ²'
//     within ρ <= u·(4Q + 6) of R's σ² (the cancellation in X2 - X²/L
//     amplifies the error of X²/L by Q, the squared mean over the
//     variance); with Q' from VRCP14PD, lanes with Q' > 10¹³ (ρ > 1 %),
//     or with X2 - X²·r or σ²' below 2⁻¹⁰⁰⁰, are left to the exact code,
//     which also makes sure R's clamp (σ² <= 0) is never in question.
//     |log σ²' - log σ²| <= 1.02·ρ, hence ηvar = 1e-15 >= 1.02·4u·(1+2⁻¹³)
//     per unit of Q', the constant 1.02·6u going into ηlog.
//   - log σ²' = e·ln2 + log c_i + log1p(m/c_i - 1) with m in [1, 2), c_i the
//     centre of the sixteenth of [1, 2) holding m (|m/c_i - 1| <= 1/32) and
//     log1p to r⁸ (truncation < 2⁻⁴⁵/9 = 3.2e-15); the table's log c_i is
//     -log(1/c_i) of the rounded 1/c_i, so only its own rounding counts.
//
// ηlog = 5e-13 covers those constants (3.2e-15 + 6.8e-16), the roundings
// of L·((log 2π + lg) + 1) in both evaluations (below 1.9e-15 per unit of
// L besides 6.7e-16·|lg|) and the table and ln 2 roundings many times over;
// 2e-15·|lg| covers fastLog's 0.51 ulp and the roundings proportional to
// |lg| (e·ln2 + log c_i and the final sums).
type avx512Table struct {
	invc, logc                                                  [16]float64
	one, abs, tiny, qmax, log2pi, ln2, etaLog, rel, etaVar, inf float64
	poly                                                        [7]float64 // -1/8, 1/7, ..., -1/2
	// costRowAVX512's widening (see batchPELT): 3e-15, 1+2⁻⁴⁰, -Inf.
	wideRel, wideOne, negInf float64
}

var avx512Tab = newAVX512Table()

func newAVX512Table() (t avx512Table) {
	for i := range t.invc {
		t.invc[i] = 1 / (1 + (float64(i)+0.5)/16)
		t.logc[i] = -math.Log(t.invc[i])
	}
	t.one = 1
	t.abs = math.Float64frombits(1<<63 - 1)
	t.tiny = 0x1p-1000
	t.qmax = 1e13
	t.log2pi = log2Pi
	t.ln2 = math.Ln2
	t.etaLog = 5e-13
	t.rel = 2e-15
	t.etaVar = 1e-15
	t.inf = math.Inf(1)
	t.poly = [7]float64{-1.0 / 8, 1.0 / 7, -1.0 / 6, 1.0 / 5, -1.0 / 4, 1.0 / 3, -1.0 / 2}
	t.wideRel, t.wideOne, t.negInf = 3e-15, 1+0x1p-40, math.Inf(-1)
	return t
}

// goBounds is what boundMeanVarGo finds besides v' and ε: upper =
// min(v' + ε), wmax = max(v' + ε), and the smallest two lower bounds
// low1 <= low2 of v' - ε, low1 at candidate i1. When low2 > upper, i1 is
// the only candidate whose exact value can be the minimum (every other
// one exceeds upper, which some exact value does not); when wmax <= the
// pruning threshold, every candidate is kept. After candidates that
// needed the fallback, i1 = -1 and wmax = NaN (no shortcut).
type goBounds struct {
	upper, wmax, low1, low2 float64
	i1                      int
}

// boundMeanVarGo is the portable boundMeanVar: v' and ε for every
// candidate with one division and no exact logarithm.
//
// σ² with one division. R computes σ_R = RN(RN(X2 - RN(A/L))/L), A =
// RN(X·X); here ρ = RN(1/L), b = RN(A·ρ), d = RN(X2 - b), σ' = RN(d·ρ).
// With B = A/L, D = X2 - B and Q = B/D (the squared mean over the
// variance, which the cancellation in D amplifies errors by), each of b
// and RN(A/L) is within 2u of B (u = 2⁻⁵³), so
//
//	|log σ' - log σ_R| <= 1.001·(3u·Q + 5u)   when 3u·Q <= 1e-3.
//
// Q is bounded without a division: with σ' = 2^k·m, m in [1, 2),
// q = b·ρ·2⁻ᵏ >= (b/d)·(1 - 3u), and q <= 2⁴⁰ implies Q <= 2⁴¹ (were Q
// larger, |d| <= B·(1/Q + 3u) would make b/d exceed 2⁴⁰), hence 3u·Q <=
// 7.3e-4 and Q <= 1.003·q: the variance term is below L·(3.4e-16·q +
// 5.6e-16). Where q > 2⁴⁰, or σ' is not a positive normal double below
// 2¹⁰²¹ (d <= 0 included, where R may clamp), the candidate is redone
// after the loops with R's σ² (two divisions, then ε without the
// variance term), and where that σ² is not a positive normal double, or
// a value is not finite, with the exact value and ε = 0.
//
// The logarithm. With c_j = 1 + (j + 1/2)/256 the centre of the 256th of
// [1, 2) that holds m and invc_j = RN(1/c_j),
//
//	lg' = (k·ln2 + logc_j) + p(r),  r = m·invc_j - 1,  logc_j = -log(invc_j)
//	p(r) = r + r²·(-1/2 + r/3)   (Taylor, |r| <= 2⁻⁹)
//
// Its distance to log σ': the truncation |r|⁴/4·1.002 < 3.65e-12, r's
// single rounding (m·invc_j - 1 is exact by Sterbenz once m·invc_j is
// rounded) 1.2e-16, logc_j's (math.Log, < 1 ulp) 1.2e-16, ln2's and the
// product's 1.9e-16·|k·ln2| and the two sums' 1.1e-16 each per unit of
// magnitude: below 3.7e-12 + 4.1e-16·|lg'| (TestBoundLog); fastLog is
// within 0.51 ulp (1.2e-16·|lg|) of log σ_R. The AVX2 kernel's ε (see
// the file comment) covers a logarithm within 2e-13 with its L·1e-12
// term; with that term raised by the 3.7e-12 more, the |lg| term raised
// to 3e-15 to cover the |lg'|-proportional part and the variance term
// added,
//
//	ε = L·(4.7e-12 + 3e-15·|lg'| + 6e-15 + 4e-16·q + 1e-15) + 2e-15·(|F(s)| + |C'| + β),
//
// evaluated with |C'| <= L·(|lg'| + log 2π + 1) (2e-15·(log 2π + 1) <
// 5.7e-15) and |lg'| <= (lg'² + 1)/2:
//
//	ε <= L·(4.7152e-12 + 2.5e-15·lg'² + 4e-16·q) + 2e-15·(|F(s)| + β)
//
// The three loops (σ' and q; lg'; the values) overlap better than one
// long chain per candidate, and they make no call: candidates left to the
// fallback are marked NaN and redone after them.
func boundMeanVarGo(va, eb, csf, c1, c2, cf []float64, tf, st1, st2, pen float64) goBounds {
	inf := math.Inf(1)
	k := len(va)
	if k == 0 {
		return goBounds{upper: inf, wmax: -inf, low1: inf, low2: inf, i1: -1}
	}
	eb, csf, c1, c2, cf = eb[:k], csf[:k], c1[:k], c2[:k], cf[:k]
	for i := range va {
		l := tf - csf[i]
		x := st1 - c1[i]
		x2 := st2 - c2[i]
		rho := 1 / l
		b := float64(float64(x*x) * rho)
		eb[i] = float64((x2 - b) * rho) // σ'
		va[i] = float64(b * rho)
	}
	bad := 0
	for i, sig := range eb {
		ix := math.Float64bits(sig)
		// q = b·ρ·2⁻ᵏ, 2⁻ᵏ having the exponent field 2046 - E.
		q := va[i] * math.Float64frombits(2046<<52-ix&^(1<<52-1))
		if ix-0x0010000000000000 >= 0x7fc0000000000000-0x0010000000000000 || !(q <= 0x1p40) {
			eb[i] = math.NaN() // the fallback, below
			bad++
			continue
		}
		eb[i], va[i] = boundLog(ix), q
	}
	r := goBounds{upper: inf, wmax: -inf, low1: inf, low2: inf, i1: -1}
	vsum := 0.0
	for i, lg := range eb {
		l := tf - csf[i]
		f := cf[i]
		v := (f + float64(l*((log2Pi+lg)+1))) + pen
		// A branch, not math.Abs, which goes through an integer register:
		// F's sign rarely changes from one candidate to the next.
		if f < 0 {
			f = -f
		}
		eps := float64(l*(4.7152e-12+float64(2.5e-15*lg)*lg+4e-16*va[i])) + 2e-15*(f+pen)
		va[i], eb[i] = v, eps
		vsum += v // not finite if some v is not
		// Branches, not min and max, whose NaN and ±0 handling would put
		// chains of instructions on the loop-carried paths.
		w := v + eps
		if w < r.upper {
			r.upper = w
		}
		if w > r.wmax {
			r.wmax = w
		}
		if lo := v - eps; lo < r.low2 {
			if lo < r.low1 {
				r.low2, r.low1, r.i1 = r.low1, lo, i
			} else {
				r.low2 = lo
			}
		}
	}
	if bad == 0 && vsum-vsum == 0 {
		return r
	}
	// The fallback: R's σ², then the bound without the variance term or,
	// where that σ² is not a positive normal double or the value is not
	// finite, the exact value with ε = 0. No shortcut then.
	r = goBounds{upper: inf, wmax: math.NaN(), low1: inf, low2: inf, i1: -1}
	for i := range va {
		if v := va[i]; v-v == 0 && eb[i] == eb[i] {
			r.upper = min(r.upper, v+eb[i])
			continue
		}
		l := tf - csf[i]
		x := st1 - c1[i]
		x2 := st2 - c2[i]
		v, eps := 0.0, 0.0
		if ix := math.Float64bits(varianceR(l, x, x2)); ix-0x0010000000000000 < 0x7ff0000000000000-0x0010000000000000 {
			lg := boundLog(ix)
			v = (cf[i] + float64(l*((log2Pi+lg)+1))) + pen
			eps = float64(l*(4.7152e-12+float64(2.5e-15*lg)*lg)) + 2e-15*(math.Abs(cf[i])+pen)
		}
		if !(v-v == 0 && eps > 0) {
			v, eps = exactValue(MeanVar, l, x, x2, cf[i], pen), 0
		}
		va[i], eb[i] = v, eps
		r.upper = min(r.upper, v+eps)
	}
	return r
}

// boundLog returns lg', boundMeanVarGo's approximation of log x for the
// bits ix of a positive normal double x (see boundMeanVarGo).
func boundLog(ix uint64) float64 {
	e := &boundLogTab[ix>>44&0xff]
	m := math.Float64frombits(ix&(1<<52-1) | 0x3ff<<52)
	r := float64(m*e.invc) - 1
	p := r + float64(r*r)*(-1.0/2+r*(1.0/3))
	return (float64(float64(int64(ix>>52)-1023)*math.Ln2) + e.logc) + p
}

// boundLogTab holds invc_j = RN(1/c_j) and logc_j = -log(invc_j) for the
// centres c_j = 1 + (j + 1/2)/256 (boundMeanVarGo).
var boundLogTab = func() (t [256]struct{ invc, logc float64 }) {
	for j := range t {
		t[j].invc = 1 / (1 + (float64(j)+0.5)/256)
		t[j].logc = -math.Log(t[j].invc)
	}
	return t
}()
