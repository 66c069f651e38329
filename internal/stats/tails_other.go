//go:build !amd64 || purego

package stats

const haveTailsMask = false

func tailsMask(vs []float64, lmax, hmin float64) uint64 {
	panic("stats: no tailsMask on this platform")
}

func medianPos(counts []int32, k int32) (j int, c int32) {
	panic("stats: no medianPos on this platform")
}
