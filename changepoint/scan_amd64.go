//go:build amd64 && !purego

package changepoint

// haveSIMD reports AVX2 and FMA support by the CPU and the OS (CPUID
// leaves 1 and 7, XGETBV for the YMM state).
var haveSIMD = detectAVX2FMA()

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
// (k a multiple of 4).
//
//go:noescape
func scanMeanAVX2(tl, csf, c1, c2, cf *float64, k int, tf, st1, st2, pen float64)

// boundMeanVarAVX2 is the vector body of boundMeanVar for the first k
// candidates (k a multiple of 4, at least 4); it returns min(v' + ε).
//
//go:noescape
func boundMeanVarAVX2(va, eb, csf, c1, c2, cf *float64, k int, tf, st1, st2, pen float64) float64

// minAVX2 returns the minimum of v[0:k] (k a positive multiple of 4).
//
//go:noescape
func minAVX2(v *float64, k int) float64

// findAVX2 returns the first index i < k (k a multiple of 4) where the
// comparison op (findEq, findGreater, findSumGreater, findDiffLE) of v[i]
// (and e[i]) with x holds, or k.
//
//go:noescape
func findAVX2(v, e *float64, k int, x float64, op int) int

// boundCachedAVX2 is the vector body of boundCached for the first k
// candidates (k a positive multiple of 4); it returns min(v' + ε).
//
//go:noescape
func boundCachedAVX2(va, eb *float64, cs *int32, cf, crow, erow *float64, k int, pen float64) float64
