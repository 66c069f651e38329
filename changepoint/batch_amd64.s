//go:build amd64 && !purego

#include "textflag.h"

// Kernels of batchPELT (batch.go) for one lane group of four penalties.
// For member j: G = fm[4j..4j+3] (G_k(s_j), NaN where pruned), and the
// bounds w = G + cw[j], lo = G + clo[j]. NaN lanes give NaN w and lo,
// which the min/max below ignore (the accumulator is the second source)
// and the ordered comparisons reject.

// func pass1AVX2(fm, cw, clo *float64, u int, acc *groupAcc)
TEXT ·pass1AVX2(SB), NOSPLIT, $0-40
	MOVQ fm+0(FP), SI
	MOVQ cw+8(FP), R8
	MOVQ clo+16(FP), R9
	MOVQ u+24(FP), CX
	MOVQ acc+32(FP), DI
	VMOVUPD bOne<>(SB), Y11
	VMOVUPD bInf<>(SB), Y0   // upper
	VMOVUPD Y0, Y1           // lo1
	VMOVUPD Y0, Y2           // lo2
	VMOVUPD bNegInf<>(SB), Y3 // hi
	VXORPD  Y4, Y4, Y4       // idx1
	VXORPD  Y5, Y5, Y5       // j
	XORQ AX, AX

	PCALIGN $32 // loop speed independent of the linker's placement
p1loop:
	CMPQ AX, CX
	JGE  p1done
	VMOVUPD (SI), Y6
	VBROADCASTSD (R8)(AX*8), Y7
	VADDPD  Y7, Y6, Y9       // w
	VBROADCASTSD (R9)(AX*8), Y8
	VADDPD  Y8, Y6, Y10      // lo
	VMINPD  Y0, Y9, Y0       // upper = w < upper ? w : upper
	VMAXPD  Y3, Y9, Y3       // hi = w > hi ? w : hi
	VCMPPD  $1, Y1, Y10, Y6  // lo < lo1
	VBLENDVPD Y6, Y5, Y4, Y4 // idx1 = j where lo < lo1
	VMAXPD  Y10, Y1, Y8      // max(lo1, lo), NaN where lo is
	VMINPD  Y2, Y8, Y2       // lo2 = min(lo2, max(lo, lo1))
	VMINPD  Y1, Y10, Y1      // lo1 = min(lo1, lo)
	VADDPD  Y11, Y5, Y5      // j++
	ADDQ    $32, SI
	INCQ    AX
	JMP     p1loop

p1done:
	VMOVUPD Y0, 0(DI)
	VMOVUPD Y1, 32(DI)
	VMOVUPD Y2, 64(DI)
	VMOVUPD Y3, 96(DI)
	VMOVUPD Y4, 128(DI)
	VZEROUPPER
	RET

// func pass1AVX512(fm, cw, clo *float64, u int, acc *groupAcc)
// pass1AVX2 two members at a time (u even, at least 2): the low half of
// each ZMM accumulator takes the even members, the high half the odd
// ones, and the halves are merged at the end as one sweep would have
// found them (the first minimum: on equal lo1 the lower index).
TEXT ·pass1AVX512(SB), NOSPLIT, $0-40
	MOVQ fm+0(FP), SI
	MOVQ cw+8(FP), R8
	MOVQ clo+16(FP), R9
	MOVQ u+24(FP), CX
	MOVQ acc+32(FP), DI
	VBROADCASTSD bTwo<>(SB), Z11
	VMOVDQU bPair<>(SB), Y12
	VCVTDQ2PD Y12, Z5            // j for the even half, j+1 for the odd
	VPMOVZXDQ Y12, Z12           // 0,0,0,0,1,1,1,1: w and lo of member j, then j+1
	VBROADCASTSD bInf<>(SB), Z0  // upper
	VMOVAPD Z0, Z1               // lo1
	VMOVAPD Z0, Z2               // lo2
	VBROADCASTSD bNegInf<>(SB), Z3 // hi
	VPXORQ  Z4, Z4, Z4           // idx1
	XORQ AX, AX

	PCALIGN $32 // loop speed independent of the linker's placement
q1loop:
	CMPQ AX, CX
	JGE  q1done
	VMOVUPD (SI), Z6
	VMOVUPD (R8)(AX*8), X7
	VPERMPD Z7, Z12, Z7
	VADDPD  Z7, Z6, Z9       // w
	VMOVUPD (R9)(AX*8), X8
	VPERMPD Z8, Z12, Z8
	VADDPD  Z8, Z6, Z10      // lo
	VMINPD  Z0, Z9, Z0       // upper = w < upper ? w : upper
	VMAXPD  Z3, Z9, Z3       // hi = w > hi ? w : hi
	VCMPPD  $1, Z1, Z10, K1  // lo < lo1
	VMOVAPD Z5, K1, Z4       // idx1 = j where lo < lo1
	VMAXPD  Z10, Z1, Z8      // max(lo1, lo), NaN where lo is
	VMINPD  Z2, Z8, Z2       // lo2 = min(lo2, max(lo, lo1))
	VMINPD  Z1, Z10, Z1      // lo1 = min(lo1, lo)
	VADDPD  Z11, Z5, Z5      // j += 2
	ADDQ    $64, SI
	ADDQ    $2, AX
	JMP     q1loop

q1done:
	// Merge the odd members' half (high) into the even members' (low).
	VEXTRACTF64X4 $1, Z0, Y6
	VMINPD  Y6, Y0, Y0
	VEXTRACTF64X4 $1, Z3, Y6
	VMAXPD  Y6, Y3, Y3
	VEXTRACTF64X4 $1, Z1, Y6  // lo1 of the odd members
	VEXTRACTF64X4 $1, Z2, Y7  // their lo2
	VEXTRACTF64X4 $1, Z4, Y8  // their idx1
	VMAXPD  Y6, Y1, Y9        // the larger lo1: a second smallest
	VMINPD  Y7, Y2, Y2
	VMINPD  Y9, Y2, Y2        // lo2
	VCMPPD  $1, Y1, Y6, Y9    // odd lo1 < even lo1
	VCMPPD  $0, Y1, Y6, Y10   // equal
	VCMPPD  $1, Y4, Y8, Y13   // odd index first
	VANDPD  Y13, Y10, Y10
	VORPD   Y10, Y9, Y9
	VBLENDVPD Y9, Y6, Y1, Y1  // lo1
	VBLENDVPD Y9, Y8, Y4, Y4  // idx1
	VMOVUPD Y0, 0(DI)
	VMOVUPD Y1, 32(DI)
	VMOVUPD Y2, 64(DI)
	VMOVUPD Y3, 96(DI)
	VMOVUPD Y4, 128(DI)
	VZEROUPPER
	RET

// func pass3AVX2(fm, cw *float64, u int, thr *[4]float64) int
// Returns the first member j < u with w > thr in some lane, or u.
TEXT ·pass3AVX2(SB), NOSPLIT, $0-40
	MOVQ fm+0(FP), SI
	MOVQ cw+8(FP), R8
	MOVQ u+16(FP), CX
	MOVQ thr+24(FP), DI
	VMOVUPD (DI), Y11        // F(t) + β
	XORQ AX, AX

	PCALIGN $32 // loop speed independent of the linker's placement
p3loop:
	CMPQ AX, CX
	JGE  p3done
	VBROADCASTSD (R8)(AX*8), Y7
	VADDPD  (SI), Y7, Y9       // w
	VCMPPD  $0x1e, Y11, Y9, Y9 // w > thr (ordered)
	VMOVMSKPD Y9, BX
	TESTQ   BX, BX
	JNE     p3done
	ADDQ    $32, SI
	INCQ    AX
	JMP     p3loop

p3done:
	MOVQ AX, ret+32(FP)
	VZEROUPPER
	RET

DATA bAbs<>+0(SB)/8, $0x7fffffffffffffff
DATA bAbs<>+8(SB)/8, $0x7fffffffffffffff
DATA bAbs<>+16(SB)/8, $0x7fffffffffffffff
DATA bAbs<>+24(SB)/8, $0x7fffffffffffffff
GLOBL bAbs<>(SB), RODATA|NOPTR, $32

DATA bOne<>+0(SB)/8, $0x3ff0000000000000
DATA bOne<>+8(SB)/8, $0x3ff0000000000000
DATA bOne<>+16(SB)/8, $0x3ff0000000000000
DATA bOne<>+24(SB)/8, $0x3ff0000000000000
GLOBL bOne<>(SB), RODATA|NOPTR, $32

DATA bInf<>+0(SB)/8, $0x7ff0000000000000
DATA bInf<>+8(SB)/8, $0x7ff0000000000000
DATA bInf<>+16(SB)/8, $0x7ff0000000000000
DATA bInf<>+24(SB)/8, $0x7ff0000000000000
GLOBL bInf<>(SB), RODATA|NOPTR, $32

DATA bNegInf<>+0(SB)/8, $0xfff0000000000000
DATA bNegInf<>+8(SB)/8, $0xfff0000000000000
DATA bNegInf<>+16(SB)/8, $0xfff0000000000000
DATA bNegInf<>+24(SB)/8, $0xfff0000000000000
GLOBL bNegInf<>(SB), RODATA|NOPTR, $32

DATA bTwo<>+0(SB)/8, $0x4000000000000000
GLOBL bTwo<>(SB), RODATA|NOPTR, $8

// 0,0,0,0,1,1,1,1 as int32: the member (j or j+1) of each lane of a
// pair, as qword indices for VPERMPD and as the doubles of idx1.
DATA bPair<>+0(SB)/8, $0
DATA bPair<>+8(SB)/8, $0
DATA bPair<>+16(SB)/8, $0x0000000100000001
DATA bPair<>+24(SB)/8, $0x0000000100000001
GLOBL bPair<>(SB), RODATA|NOPTR, $32
