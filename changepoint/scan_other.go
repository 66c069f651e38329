//go:build !amd64 || purego

package changepoint

const haveSIMD = false

func scanMeanAVX2(tl, csf, c1, c2, cf *float64, k int, tf, st1, st2, pen float64) {
	panic("changepoint: no SIMD kernel on this platform")
}

func boundMeanVarAVX2(va, eb, csf, c1, c2, cf *float64, k int, tf, st1, st2, pen float64) float64 {
	panic("changepoint: no SIMD kernel on this platform")
}

func minAVX2(v *float64, k int) float64 { panic("changepoint: no SIMD kernel on this platform") }

func findAVX2(v, e *float64, k int, x float64, op int) int {
	panic("changepoint: no SIMD kernel on this platform")
}

func boundCachedAVX2(va, eb *float64, cs *int32, cf, crow, erow *float64, k int, pen float64) float64 {
	panic("changepoint: no SIMD kernel on this platform")
}
