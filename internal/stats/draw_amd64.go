//go:build amd64 && !purego

package stats

import "golang.org/x/sys/cpu"

// haveDrawKernel reports whether the draw kernels can run: their
// arithmetic is VEX-encoded (AVX).
var haveDrawKernel = cpu.X86.HasAVX

// pcgConst holds the constants of pcg for the kernels (pcg_amd64.h): the
// multiplier's low and high words, the increment's, the DXSM multiplier.
var pcgConst = [5]uint64{pcgMulLo, pcgMulHi, pcgIncLo, pcgIncHi, pcgCheapMul}

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

// meansAsm is resampleMeans' loop (thresh = 2³² mod len(x)).
//
//go:noescape
func meansAsm(st *pcg, x []float64, dst []float64, thresh uint32)

// countsAsm is the draws of len(counts)/n resamples of resampleMedians,
// each counting in its row of n counts, zero on entry.
//
//go:noescape
func countsAsm(st *pcg, counts []int32, n int, thresh uint32)

// tSumsAsm is the draws of len(s) resamples of resampleT: their sums,
// sums of squares and the OR of their values' bits XOR the first's.
//
//go:noescape
func tSumsAsm(st *pcg, x []float64, thresh uint32, s, q []float64, diff []uint64)

// sharedAsm is one resample of resampleSharedGo (thresh16 and thresh32 its
// index's thresholds): len(sorted) draws, each adding 1 to counts[draw];
// s and c are the sums of the drawn sorted and centred values, q of the
// centred values' squares, diff the OR of their bits XOR the first's.
//
//go:noescape
func sharedAsm(st *pcg, sorted, centred []float64, counts []int32, thresh16 uint64, thresh32 uint32) (s, c, q float64, diff uint64)

// sharedVecAsm is len(s) resamples of sharedAsm on records rec[4j … 4j+3]
// = (sorted[j], centred[j], centred[j]², 0), len(rec) = 4n, rec 32-byte
// aligned, resample b counting its draws in counts[b·n … b·n+n−1] (zero
// on entry) and giving its first draw first[b] instead of diff (see
// sharedRecords.distinct).
//
//go:noescape
func sharedVecAsm(st *pcg, rec []float64, counts []int32, n int, thresh16 uint64, thresh32 uint32, s, c, q []float64, first []uint64)
