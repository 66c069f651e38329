//go:build !amd64 || purego

package stats

const haveTailsMask = false

func tailsMask(vs []float64, lmax, hmin float64) uint64 {
	panic("stats: no tailsMask on this platform")
}
