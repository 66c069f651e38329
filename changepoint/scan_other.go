//go:build !amd64 || purego

package changepoint

const (
	haveSIMD   = false
	haveAVX512 = false
)

func scanMeanAVX2(tl, csf, c1, c2, cf *float64, k int, tf, st1, st2, pen float64, lanes *[8]float64) {
	panic("changepoint: no SIMD kernel on this platform")
}

func boundMeanVarAVX2(va, eb, csf, c1, c2, cf *float64, k int, tf, st1, st2, pen float64) float64 {
	panic("changepoint: no SIMD kernel on this platform")
}

func findAVX2(v, e *float64, k int, x float64, op int) int {
	panic("changepoint: no SIMD kernel on this platform")
}

func pass1AVX2(fm, cw, clo *float64, u int, acc *groupAcc) {
	panic("changepoint: no SIMD kernel on this platform")
}

func pass1AVX512(fm, cw, clo *float64, u int, acc *groupAcc) {
	panic("changepoint: no SIMD kernel on this platform")
}

func pass3AVX2(fm, cw *float64, u int, thr *[laneWidth]float64) int {
	panic("changepoint: no SIMD kernel on this platform")
}

func boundMeanVarAVX512(va, eb, csf, c1, c2, cf *float64, k int, tf, st1, st2, pen float64, tab *avx512Table) (float64, int) {
	panic("changepoint: no SIMD kernel on this platform")
}

func costRowAVX512(cw, clo, csf, c1, c2, gmx *float64, k int, tf, st1, st2, pen2 float64, tab *avx512Table) int {
	panic("changepoint: no SIMD kernel on this platform")
}

func costRowAVX2(cw, clo, csf, c1, c2, gmx *float64, k int, tf, st1, st2, pen2 float64) {
	panic("changepoint: no SIMD kernel on this platform")
}
