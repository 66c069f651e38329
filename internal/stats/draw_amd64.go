//go:build amd64 && !purego

package stats

// haveDrawKernel: sumDrawsAsm needs nothing beyond the amd64 baseline.
const haveDrawKernel = true

// sumDrawsAsm is aliasTable.sumDraws on the table e: len(means) alias
// draws from the generator st, each adding means[draw] to sum, st left
// after the last. len(e) must equal len(means) (the caller checks).
//
//go:noescape
func sumDrawsAsm(st *pcg, e []aliasEntry, means []float64, sum float64) float64

// sumUniformAsm is sumUniform: len(means) uniform draws from st (Lemire's
// multiply-shift on the low 32 bits of each output, an output whose
// product's low word is below thresh = 2³² mod n redrawn), each adding
// means[draw] to sum.
//
//go:noescape
func sumUniformAsm(st *pcg, means []float64, thresh uint32, sum float64) float64
