//go:build amd64 && !purego

package stats

import (
	"math/bits"

	"golang.org/x/sys/cpu"
)

// haveVecPCG reports whether the kernels on the vector generator
// (pcgvec_amd64.h: meansVecAsm, tSumsVecAsm, sharedVecAsm) can run:
// AVX-512 F and DQ.
var haveVecPCG = cpu.X86.HasAVX512F && cpu.X86.HasAVX512DQ

// pcgLanes holds, for k = 1 … 8, the multiplier a^k and the increment
// c·(a^(k−1) + … + 1) mod 2¹²⁸ of k steps of pcg (s ← s·a + c, so k steps
// are s ← s·a^k + c_k with c_(k+1) = c_k·a + c): the multipliers' high
// words, their low words, the increments' high words, their low words.
var pcgLanes = func() (t [32]uint64) {
	ah, al := uint64(0), uint64(1)
	ch, cl := uint64(0), uint64(0)
	for k := range 8 {
		h, l := bits.Mul64(al, pcgMulLo)
		ah, al = h+ah*pcgMulLo+al*pcgMulHi, l
		h, l = bits.Mul64(cl, pcgMulLo)
		h += ch*pcgMulLo + cl*pcgMulHi
		l, c := bits.Add64(l, pcgIncLo, 0)
		ch, cl = h+pcgIncHi+c, l
		t[k], t[8+k], t[16+k], t[24+k] = ah, al, ch, cl
	}
	return t
}()

// tSumsVecAsm is tSumsAsm on the vector generator.
//
//go:noescape
func tSumsVecAsm(st *pcg, x []float64, thresh uint32, s, q []float64, diff []uint64)

// meansVecAsm is meansAsm on the vector generator.
//
//go:noescape
func meansVecAsm(st *pcg, x []float64, dst []float64, thresh uint32)

// countsVecAsm is len(counts)/n resamples of countsAsm on the vector
// generator, each counting in its row of n counts, zero on entry.
//
//go:noescape
func countsVecAsm(st *pcg, counts []int32, n int, thresh uint32)
