//go:build amd64 && !purego

package changepoint

// haveSIMD reports AVX2 and FMA support by the CPU and the OS (CPUID
// leaves 1 and 7, XGETBV for the YMM state); haveAVX512 adds AVX-512F
// with the ZMM and mask state enabled.
var (
	haveSIMD   = detectAVX2FMA()
	haveAVX512 = haveSIMD && detectAVX512F()
)

func detectAVX512F() bool {
	if xcr0, _ := xgetbv(); xcr0&0xe6 != 0xe6 { // XMM, YMM, opmask, ZMM
		return false
	}
	_, ebx7, _, _ := cpuid(7, 0)
	return ebx7&(1<<16) != 0
}

func detectAVX2FMA() bool {
	maxLeaf, _, _, _ := cpuid(0, 0)
	if maxLeaf < 7 {
		return false
	}
	_, _, ecx1, _ := cpuid(1, 0)
	const (
		fma     = 1 << 12
		osxsave = 1 << 27
		avx     = 1 << 28
	)
	if ecx1&(fma|osxsave|avx) != fma|osxsave|avx {
		return false
	}
	if xcr0, _ := xgetbv(); xcr0&6 != 6 { // XMM and YMM state enabled
		return false
	}
	_, ebx7, _, _ := cpuid(7, 0)
	return ebx7&(1<<5) != 0 // AVX2
}

//go:noescape
func cpuid(eaxArg, ecxArg uint32) (eax, ebx, ecx, edx uint32)

//go:noescape
func xgetbv() (eax, edx uint32)

// scanMeanAVX2 is the vector body of scanMean for the first k candidates
// (k a multiple of 4); lanes receives, per lane j (the candidates i with
// i mod 4 = j), the smallest value (strict <, starting from +Inf) and the
// index of its first occurrence, as a double.
//
//go:noescape
func scanMeanAVX2(tl, csf, c1, c2, cf *float64, k int, tf, st1, st2, pen float64, lanes *[8]float64)

// boundMeanVarAVX2 is the vector body of boundMeanVar for the first k
// candidates (k a multiple of 4, at least 4); it returns min(v' + ε).
//
//go:noescape
func boundMeanVarAVX2(va, eb, csf, c1, c2, cf *float64, k int, tf, st1, st2, pen float64) float64

// boundMeanVarAVX512 is boundMeanVarAVX2 for AVX-512F (k a positive
// multiple of 8), with the error bound of avx512Table; bad is the number
// of candidates it leaves to the exact code (ε = +Inf).
//
//go:noescape
func boundMeanVarAVX512(va, eb, csf, c1, c2, cf *float64, k int, tf, st1, st2, pen float64, tab *avx512Table) (upper float64, bad int)

// costRowAVX512 fills batchPELT's cw and clo for k members (k a positive
// multiple of 8) and returns how many it leaves to the exact code.
//
//go:noescape
func costRowAVX512(cw, clo, csf, c1, c2, gmx *float64, k int, tf, st1, st2, pen2 float64, tab *avx512Table) (bad int)

// costRowAVX2 fills batchPELT's cw and clo for k members (k a multiple
// of 4) with boundMeanVarAVX2's approximation and bound of C(s, t),
// widened as widen does, in one pass.
//
//go:noescape
func costRowAVX2(cw, clo, csf, c1, c2, gmx *float64, k int, tf, st1, st2, pen2 float64)

// findAVX2 returns the first index i < k (k a multiple of 4) where the
// comparison op (findGreater, findSumGreater, findDiffLE) of v[i]
// (and e[i]) with x holds, or k.
//
//go:noescape
func findAVX2(v, e *float64, k int, x float64, op int) int

// pass1AVX2 is batchPELT.pass1 for one lane group over u members.
//
//go:noescape
func pass1AVX2(fm, cw, clo *float64, u int, acc *groupAcc)

// pass1AVX512 is pass1AVX2 for AVX-512F, two members at a time (u even,
// at least 2).
//
//go:noescape
func pass1AVX512(fm, cw, clo *float64, u int, acc *groupAcc)

// pass3AVX2 returns the first of the u members at which some lane of the
// group has w > thr (see batchPELT.pass3), or u.
//
//go:noescape
func pass3AVX2(fm, cw *float64, u int, thr *[laneWidth]float64) int
