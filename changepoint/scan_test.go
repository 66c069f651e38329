package changepoint

import (
	"math"
	"slices"
	"testing"
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
			st := newSumStats(x, ExtendedSum)
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
