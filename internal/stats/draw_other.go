//go:build !amd64 || purego

package stats

const haveDrawKernel = false

func sumDrawsAsm(st *pcg, e []aliasEntry, means []float64, sum float64) float64 {
	panic("stats: no draw kernel on this platform")
}

func sumUniformAsm(st *pcg, means []float64, thresh uint32, sum float64) float64 {
	panic("stats: no draw kernel on this platform")
}
