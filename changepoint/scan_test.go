package changepoint

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/benchtrim/benchtrim/internal/testenv"
)

// kernelMode is one choice of kernels: portable exact (scanMeanVar),
// portable bounded (boundMeanVarGo), AVX2, AVX2 with the AVX-512
// boundMeanVar.
type kernelMode struct {
	name                  string
	simd, avx512, boundGo bool
}

// kernelModes lists the modes this CPU can run, portable exact first.
func kernelModes() []kernelMode {
	modes := []kernelMode{{"portable exact", false, false, false}, {"portable", false, false, true}}
	if haveSIMD {
		modes = append(modes, kernelMode{"avx2", true, false, true})
	}
	if haveAVX512 {
		modes = append(modes, kernelMode{"avx512", true, true, true})
	}
	return modes
}

// useKernels switches to mode m until the returned function runs.
func useKernels(m kernelMode) (restore func()) {
	simd, avx, bg := useSIMD, useAVX512, useBoundGo
	useSIMD, useAVX512, useBoundGo = m.simd, m.avx512, m.boundGo
	return func() { useSIMD, useAVX512, useBoundGo = simd, avx, bg }
}

// TestBoundMeanVar checks the bounded kernels directly: |v' - v| <= ε for
// every candidate of every t against exactValue, on series where the
// bounds are easy (warm-up noise) and hard (huge offsets, tiny scales,
// exact levels, constants); on the easy ones no candidate may be left to
// the exact code (ε = +Inf).
func TestBoundMeanVar(t *testing.T) {
	series := map[string][]float64{
		"warmup":     warmupSeries(5, 700, 50),
		"offset 1e9": func() []float64 { x := warmupSeries(6, 300, 50); return floatsAdd(x, 1e9) }(),
		"scale 1e-9": stepSeries(7, []int{150, 150}, []float64{3e-9, 4e-9}, []float64{1e-11, 1e-11}),
		"levels":     append(slices.Repeat([]float64{0.25}, 60), slices.Repeat([]float64{0.5}, 40)...),
		"constant":   slices.Repeat([]float64{0.1}, 90),
		"integers":   stepSeries(8, []int{200}, []float64{100}, []float64{30}),
	}
	for _, m := range kernelModes()[1:] {
		restore := useKernels(m)
		for name, x := range series {
			st := newSumStats(x, extendedSum)
			n := len(x)
			csf, c1, c2, cf := make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n)
			va, eb := make([]float64, n), make([]float64, n)
			var inf, total int
			for tt := 2; tt <= n; tt++ {
				k := 0
				for s := 0; s <= tt-2; s++ {
					csf[k], c1[k], c2[k] = float64(s), st.s1[s], st.s2[s]
					cf[k] = float64(s%7) * -3.5 * float64(s) // arbitrary F(s)
					k++
				}
				pen := 12.5
				upper := boundMeanVar(va[:k], eb[:k], csf[:k], c1[:k], c2[:k], cf[:k], float64(tt), st.s1[tt], st.s2[tt], pen)
				low := math.Inf(1)
				for i := 0; i < k; i++ {
					v := exactValue(MeanVar, float64(tt)-csf[i], st.s1[tt]-c1[i], st.s2[tt]-c2[i], cf[i], pen)
					// The portable kernel gives exact values ε = 0 instead of ε = +Inf.
					if math.IsInf(eb[i], 1) || !m.simd && eb[i] == 0 {
						inf++
					} else if math.Abs(va[i]-v) > eb[i] {
						t.Fatalf("%s %s t=%d s=%v: v' = %.17g, exact %.17g, |diff| %g > ε %g", m.name, name, tt, csf[i], va[i], v, math.Abs(va[i]-v), eb[i])
					}
					low = min(low, v)
					total++
				}
				if upper < low {
					t.Fatalf("%s %s t=%d: upper %v below the minimum %v", m.name, name, tt, upper, low)
				}
				if !m.simd {
					checkGoBounds(t, boundMeanVarGo(va[:k], eb[:k], csf[:k], c1[:k], c2[:k], cf[:k], float64(tt), st.s1[tt], st.s2[tt], pen), va[:k], eb[:k])
				}
			}
			t.Logf("%s %s: %d of %d candidates left to the exact code", m.name, name, inf, total)
			if (name == "warmup" || name == "offset 1e9" || name == "integers") && inf > 0 {
				t.Errorf("%s %s: %d of %d candidates left to the exact code", m.name, name, inf, total)
			}
		}
		restore()
	}
}

func floatsAdd(x []float64, c float64) []float64 {
	for i := range x {
		x[i] += c
	}
	return x
}

// TestScanMeanExtremes checks scanMean's values, its minimum index (R's
// min_which: first index, NaN at index 0 kept) and its bound hi for the
// pruning shortcut (the maximum, NaN when a value is NaN or, on the AVX2
// path, always) in every kernel mode, on random candidates with ties,
// infinities and NaNs in F(s).
func TestScanMeanExtremes(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 25))
	for _, m := range kernelModes() {
		restore := useKernels(m)
		for trial := 0; trial < 2000; trial++ {
			k := 1 + rng.IntN(40)
			csf, c1, c2, cf, tl := make([]float64, k), make([]float64, k), make([]float64, k), make([]float64, k), make([]float64, k)
			for i := range csf {
				csf[i] = float64(i)
				c1[i] = float64(rng.IntN(5))
				c2[i] = float64(rng.IntN(50))
				cf[i] = float64(rng.IntN(4)) // ties
				switch rng.IntN(60) {
				case 0:
					cf[i] = math.NaN()
				case 1:
					cf[i] = math.Inf(1)
				}
			}
			tf, st1, st2, pen := float64(k+3), 7.0, 90.0, 2.0
			which, hi := scanMean(tl, csf, c1, c2, cf, tf, st1, st2, pen)
			want, max, nan := 0, math.Inf(-1), false
			for i := range tl {
				l, x, x2 := tf-csf[i], st1-c1[i], st2-c2[i]
				v := (cf[i] + (x2 - float64(x*x)/l)) + pen
				if math.Float64bits(v) != math.Float64bits(tl[i]) && !(v != v && tl[i] != tl[i]) {
					t.Fatalf("%s: tl[%d] = %v, want %v", m.name, i, tl[i], v)
				}
				if v < tl[want] {
					want = i
				}
				if v != v {
					nan = true
				}
				if v > max {
					max = v
				}
			}
			if which != want {
				t.Fatalf("%s: which = %d, want %d (values %v)", m.name, which, want, tl)
			}
			switch {
			case nan && hi == hi:
				t.Fatalf("%s: hi = %v with a NaN value", m.name, hi)
			case !nan && hi != max && (!m.simd || k < 4 || hi == hi):
				// The AVX2 path (k >= 4) may say NaN, unknown.
				t.Fatalf("%s: hi = %v, want %v", m.name, hi, max)
			}
		}
		restore()
	}
}

// checkGoBounds checks boundMeanVarGo's extremes against its v' and ε:
// upper and wmax are the smallest and largest v' + ε (wmax NaN after the
// fallback), low1 <= low2 the two smallest v' - ε, low1 at i1 (or i1 =
// -1).
func checkGoBounds(t *testing.T, r goBounds, va, eb []float64) {
	t.Helper()
	up, wmax := math.Inf(1), math.Inf(-1)
	lows := make([]float64, len(va))
	for i := range va {
		up, wmax = min(up, va[i]+eb[i]), max(wmax, va[i]+eb[i])
		lows[i] = va[i] - eb[i]
	}
	if r.upper != up {
		t.Fatalf("upper = %v, want %v", r.upper, up)
	}
	if r.wmax == r.wmax && r.wmax != wmax {
		t.Fatalf("wmax = %v, want %v", r.wmax, wmax)
	}
	if r.i1 < 0 {
		return
	}
	if lows[r.i1] != r.low1 || r.low1 > r.low2 {
		t.Fatalf("low1 = %v at %d (v'-ε there %v), low2 = %v", r.low1, r.i1, lows[r.i1], r.low2)
	}
	for i, lo := range lows {
		if i != r.i1 && lo < r.low2 {
			t.Fatalf("candidate %d: v'-ε = %v below low2 = %v (low1 %v at %d)", i, lo, r.low2, r.low1, r.i1)
		}
	}
}

// costRow is one row of the cost-row tests: row t of a series, whose
// members s = 0 … k−1 (k the candidates 0 … t−2, rounded down to a
// multiple of the kernel's width) hold s, S1[s], S2[s] and a gmx of
// (s mod 5)·100.25.
type costRow struct {
	name             string
	t, k             int
	tf, st1, st2     float64
	csf, c1, c2, gmx []float64
}

// costRowPen2 is the cost-row tests' 2·max β.
const costRowPen2 = 2 * 1234.5

// costRows calls check for every row with at least one member of the
// cost-row tests' series (warm-up noise, a 10⁹ offset, a 10⁻⁹ scale, a
// constant), members rounded down to a multiple of width.
func costRows(width int, check func(r *costRow)) {
	series := map[string][]float64{
		"warmup":     warmupSeries(5, 400, 50),
		"offset 1e9": floatsAdd(warmupSeries(6, 200, 50), 1e9),
		"scale 1e-9": stepSeries(7, []int{100, 100}, []float64{3e-9, 4e-9}, []float64{1e-11, 1e-11}),
		"constant":   slices.Repeat([]float64{0.1}, 90),
	}
	for name, x := range series {
		st := newSumStats(x, extendedSum)
		n := len(x)
		r := &costRow{name: name, csf: make([]float64, n), c1: make([]float64, n), c2: make([]float64, n), gmx: make([]float64, n)}
		for tt := 2; tt <= n; tt++ {
			k := 0
			for s := 0; s <= tt-2; s++ {
				r.csf[k], r.c1[k], r.c2[k], r.gmx[k] = float64(s), st.s1[s], st.s2[s], float64(s%5)*100.25
				k++
			}
			r.t, r.k = tt, k/width*width
			if r.k == 0 {
				continue
			}
			r.tf, r.st1, r.st2 = float64(tt), st.s1[tt], st.s2[tt]
			check(r)
		}
	}
}

// TestCostRowAVX2 checks costRowAVX2 against boundMeanVarAVX2 (F = β = 0)
// followed by widen, the two passes it fuses: the same bounds to within
// rounding (it fuses one multiply-add), and an interval [clo, cw] that
// holds the exact cost C(s, t) wherever it is finite.
func TestCostRowAVX2(t *testing.T) {
	if !haveSIMD {
		testenv.Skip(t, "no AVX2 (or the purego build): the kernel is not built")
	}
	var cw, clo, cc, ce, ww, wl, zeros [400]float64
	costRows(4, func(r *costRow) {
		k, csf, c1, c2, gmx := r.k, r.csf, r.c1, r.c2, r.gmx
		costRowAVX2(&cw[0], &clo[0], &csf[0], &c1[0], &c2[0], &gmx[0], k, r.tf, r.st1, r.st2, costRowPen2)
		boundMeanVarAVX2(&cc[0], &ce[0], &csf[0], &c1[0], &c2[0], &zeros[0], k, r.tf, r.st1, r.st2, 0)
		widen(ww[:k], wl[:k], cc[:k], ce[:k], gmx[:k], costRowPen2)
		for i := 0; i < k; i++ {
			if math.IsInf(ce[i], 1) {
				if !math.IsInf(cw[i], 1) || !math.IsInf(clo[i], -1) {
					t.Fatalf("%s t=%d s=%v: bad lane gives [%v, %v]", r.name, r.t, csf[i], clo[i], cw[i])
				}
				continue
			}
			tol := 1e-15 * math.Abs(ww[i]-cc[i])
			if math.Abs(cw[i]-ww[i]) > tol || math.Abs(clo[i]-wl[i]) > tol {
				t.Fatalf("%s t=%d s=%v: [%.17g, %.17g], two passes [%.17g, %.17g]", r.name, r.t, csf[i], clo[i], cw[i], wl[i], ww[i])
			}
			c := exactValue(MeanVar, r.tf-csf[i], r.st1-c1[i], r.st2-c2[i], 0, 0)
			if !(clo[i] <= c && c <= cw[i]) {
				t.Fatalf("%s t=%d s=%v: exact %.17g outside [%.17g, %.17g]", r.name, r.t, csf[i], c, clo[i], cw[i])
			}
		}
	})
}

// TestCostRowAVX2Split checks costRowAVX2's integer split of σ² into e
// and m at the √2 boundary (mantissas of √2 and its neighbours), at
// random mantissas and near 1, over all normal exponents: the same bits
// as boundMeanVarAVX2 followed by widen.
func TestCostRowAVX2Split(t *testing.T) {
	if !haveSIMD {
		testenv.Skip(t, "no AVX2 (or the purego build): the kernel is not built")
	}
	const n = 4096
	csf, c1, c2, gmx, zeros := make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n)
	cw, clo, cc, ce, ww, wl := make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n)
	r := rand.New(rand.NewPCG(1, 2))
	sq := math.Float64bits(math.Sqrt2) & (1<<52 - 1)
	for i := range n {
		e := uint64(r.IntN(2046) + 1)
		m := sq + uint64(r.IntN(5)) - 2
		switch {
		case i%7 == 0:
			m = uint64(i % 4)
		case i%3 == 0:
			m = r.Uint64() & (1<<52 - 1)
		}
		c2[i] = -math.Float64frombits(e<<52 | m) // σ² = 0 - c2 with l = 1, x = 0
		gmx[i] = float64(i%5) * 3
	}
	costRowAVX2(&cw[0], &clo[0], &csf[0], &c1[0], &c2[0], &gmx[0], n, 1, 0, 0, 10)
	boundMeanVarAVX2(&cc[0], &ce[0], &csf[0], &c1[0], &c2[0], &zeros[0], n, 1, 0, 0, 0)
	widen(ww, wl, cc, ce, gmx, 10)
	for i := range n {
		if cw[i] != ww[i] || clo[i] != wl[i] {
			t.Fatalf("σ² bits %#x: [%.17g, %.17g], two passes [%.17g, %.17g]", math.Float64bits(-c2[i]), clo[i], cw[i], wl[i], ww[i])
		}
	}
}

// TestPass1Kernels: every kernel mode's pass 1 gives the portable loop's
// summary (upper, lo1 first reached at idx1, lo2, hi) for each member
// count from 1 to 40, on G values with pruned (NaN) lanes, lanes pruned
// at every member, and ties, so that the first minimum and the second
// smallest are tested where the AVX-512 kernel's halves meet.
func TestPass1Kernels(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for u := 1; u <= 40; u++ {
		for trial := 0; trial < 20; trial++ {
			b := &batchPELT{fm: [][]float64{make([]float64, laneWidth*u)}, acc: make([]groupAcc, 1)}
			b.cw, b.clo = make([]float64, u), make([]float64, u)
			for j := 0; j < u; j++ {
				// Few distinct values: ties between members are common.
				c := float64(rng.IntN(4))
				b.cw[j], b.clo[j] = c+float64(rng.IntN(3)), c-float64(rng.IntN(3))
				for l := 0; l < laneWidth; l++ {
					g := float64(rng.IntN(5))
					if l == 3 || rng.IntN(4) == 0 { // lane 3 is pruned at every member
						g = math.NaN()
					}
					b.fm[0][laneWidth*j+l] = g
				}
			}
			var want groupAcc
			for i, m := range kernelModes() {
				restore := useKernels(m)
				b.pass1(0, u)
				restore()
				if i == 0 {
					want = b.acc[0]
					continue
				}
				if got := b.acc[0]; !sameAcc(got, want) {
					t.Fatalf("u=%d trial %d, %s: %+v, want %+v (portable)", u, trial, m.name, got, want)
				}
			}
		}
	}
}

// sameAcc compares two summaries bit for bit.
func sameAcc(a, b groupAcc) bool {
	for l := 0; l < laneWidth; l++ {
		for _, p := range [][2]float64{{a.upper[l], b.upper[l]}, {a.lo1[l], b.lo1[l]}, {a.lo2[l], b.lo2[l]}, {a.hi[l], b.hi[l]}, {a.idx1[l], b.idx1[l]}} {
			if math.Float64bits(p[0]) != math.Float64bits(p[1]) {
				return false
			}
		}
	}
	return true
}

// TestCostRowAVX512: for every member of every row, costRowAVX512's
// bounds hold R's cost, C'−ε ≤ C ≤ C'+ε, with ε at least the widening for
// the sums (3e-15·(gmx + pen2)); a lane it leaves to the exact code is
// [−Inf, +Inf] and counted, and on the warm-up series none is.
func TestCostRowAVX512(t *testing.T) {
	if !haveAVX512 {
		testenv.Skip(t, "no AVX-512 (or the purego build): the kernel is not built")
	}
	var cw, clo [400]float64
	warmupBad := 0
	costRows(8, func(r *costRow) {
		k, csf, c1, c2, gmx := r.k, r.csf, r.c1, r.c2, r.gmx
		bad := costRowAVX512(&cw[0], &clo[0], &csf[0], &c1[0], &c2[0], &gmx[0], k, r.tf, r.st1, r.st2, costRowPen2, &avx512Tab)
		counted := 0
		for i := 0; i < k; i++ {
			if math.IsInf(cw[i], 1) {
				if !math.IsInf(clo[i], -1) {
					t.Fatalf("%s t=%d s=%v: a lane left out gives [%v, %v]", r.name, r.t, csf[i], clo[i], cw[i])
				}
				counted++
				continue
			}
			c := exactValue(MeanVar, r.tf-csf[i], r.st1-c1[i], r.st2-c2[i], 0, 0)
			if !(clo[i] <= c && c <= cw[i]) {
				t.Fatalf("%s t=%d s=%v: C = %.17g outside [%.17g, %.17g]", r.name, r.t, csf[i], c, clo[i], cw[i])
			}
			if min := 3e-15 * (gmx[i] + costRowPen2); cw[i]-clo[i] < 2*min*(1-1e-9) {
				t.Fatalf("%s t=%d s=%v: width %g, want at least %g", r.name, r.t, csf[i], cw[i]-clo[i], 2*min)
			}
		}
		if bad != counted {
			t.Fatalf("%s t=%d: %d lanes counted as left out, %d are", r.name, r.t, bad, counted)
		}
		if r.name == "warmup" {
			warmupBad += bad
		}
	})
	if warmupBad > 0 {
		t.Errorf("warmup: %d lanes left to the exact code, want none", warmupBad)
	}
}
