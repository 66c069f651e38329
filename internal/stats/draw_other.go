//go:build !amd64 || purego

package stats

const haveDrawKernel = false

func sumDrawsAsm(st *pcg, e []aliasEntry, means []float64, sum float64) float64 {
	panic("stats: no draw kernel on this platform")
}

func sumUniformAsm(st *pcg, means []float64, thresh uint32, sum float64) float64 {
	panic("stats: no draw kernel on this platform")
}

func meansAsm(st *pcg, x []float64, dst []float64, thresh uint32) {
	panic("stats: no draw kernel on this platform")
}

func countsAsm(st *pcg, counts []int32, n int, thresh uint32) {
	panic("stats: no draw kernel on this platform")
}

func tSumsAsm(st *pcg, x []float64, thresh uint32, s, q []float64, diff []uint64) {
	panic("stats: no draw kernel on this platform")
}

func sharedAsm(st *pcg, sorted, centred []float64, counts []int32, thresh16 uint64, thresh32 uint32) (s, c, q float64, diff uint64) {
	panic("stats: no draw kernel on this platform")
}

const haveVecPCG = false

func meansVecAsm(st *pcg, x []float64, dst []float64, thresh uint32) {
	panic("stats: no draw kernel on this platform")
}

func countsVecAsm(st *pcg, counts []int32, n int, thresh uint32) {
	panic("stats: no draw kernel on this platform")
}

func tSumsVecAsm(st *pcg, x []float64, thresh uint32, s, q []float64, diff []uint64) {
	panic("stats: no draw kernel on this platform")
}

func sharedVecAsm(st *pcg, rec []float64, counts []int32, n int, thresh16 uint64, thresh32 uint32, s, c, q []float64, first []uint64) {
	panic("stats: no draw kernel on this platform")
}
