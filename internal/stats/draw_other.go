//go:build !amd64 || purego

package stats

const haveDrawKernel = false

func sumDrawsAsm(st *pcg, e []aliasEntry, means []float64, sum float64) float64 {
	panic("stats: no draw kernel on this platform")
}
