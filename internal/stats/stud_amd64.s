//go:build amd64 && !purego

#include "textflag.h"

DATA studPosInf<>+0(SB)/8, $0x7ff0000000000000
GLOBL studPosInf<>(SB), RODATA|NOPTR, $8
DATA studNegInf<>+0(SB)/8, $0xfff0000000000000
GLOBL studNegInf<>(SB), RODATA|NOPTR, $8

// func studentizedAVX2(s, q []float64, diff []uint64, n, n1 float64, out []float64)
//
// studentized for four resamples at a time, len(out) a multiple of 4 and
// s, q, diff at least as long; n1 = n − 1. Per lane, as studentized:
// m ← s/n; v ← (q − s·m)/n1; out ← m/√(v/n) where diff ≠ 0 and v > 0,
// else +Inf where m > 0, −Inf where m < 0, and 0 (m zero or NaN). Every
// operation is one correctly rounded IEEE operation, so the lanes give
// studentized's bits.
TEXT ·studentizedAVX2(SB), NOSPLIT, $0-112
	MOVQ s_base+0(FP), SI
	MOVQ q_base+24(FP), DI
	MOVQ diff_base+48(FP), R8
	VBROADCASTSD n+72(FP), Y15
	VBROADCASTSD n1+80(FP), Y14
	MOVQ out_base+88(FP), R9
	MOVQ out_len+96(FP), CX
	VBROADCASTSD studPosInf<>(SB), Y13
	VBROADCASTSD studNegInf<>(SB), Y12
	VXORPD Y11, Y11, Y11
	XORQ AX, AX
	TESTQ CX, CX
	JEQ done

loop:
	VMOVUPD (SI)(AX*8), Y0
	VMOVUPD (DI)(AX*8), Y1
	VMOVDQU (R8)(AX*8), Y2
	VDIVPD Y15, Y0, Y3        // m = s/n
	VMULPD Y3, Y0, Y4         // s·m
	VSUBPD Y4, Y1, Y4         // q − s·m
	VDIVPD Y14, Y4, Y4        // v = (q − s·m)/(n − 1)
	VDIVPD Y15, Y4, Y5        // v/n
	VSQRTPD Y5, Y5
	VDIVPD Y5, Y3, Y5         // t = m/√(v/n)
	VCMPPD $0x1e, Y11, Y4, Y6 // v > 0 (ordered)
	VPCMPEQQ Y11, Y2, Y7      // diff = 0
	VPANDN Y6, Y7, Y6         // diff ≠ 0 and v > 0
	VCMPPD $0x1e, Y11, Y3, Y8 // m > 0
	VCMPPD $0x11, Y11, Y3, Y9 // m < 0
	VANDPD Y13, Y8, Y8
	VANDPD Y12, Y9, Y9
	VORPD Y9, Y8, Y8          // ±Inf or 0
	VBLENDVPD Y6, Y5, Y8, Y0  // t where the mask is set
	VMOVUPD Y0, (R9)(AX*8)
	ADDQ $4, AX
	CMPQ AX, CX
	JLT loop

done:
	VZEROUPPER
	RET
