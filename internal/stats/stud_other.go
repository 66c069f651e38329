//go:build !amd64 || purego

package stats

const haveStudKernel = false

func studentizedAVX2(s, q []float64, diff []uint64, n, n1 float64, out []float64) {
	panic("stats: no studentized kernel on this platform")
}
