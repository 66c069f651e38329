//go:build amd64 && !purego

#include "textflag.h"

// func tailsMask(vs []float64, lmax, hmin float64) uint64
//
// Bit i of the result is set when vs[i] < lmax or vs[i] > hmin (ordered
// comparisons: never for NaN), for len(vs) ≤ 64: eight values at a time in
// AVX-512, the last len(vs) mod 8 by a masked load.
TEXT ·tailsMask(SB), NOSPLIT, $0-48
	MOVQ vs_base+0(FP), SI
	MOVQ vs_len+8(FP), R8
	VBROADCASTSD lmax+24(FP), Z1
	VBROADCASTSD hmin+32(FP), Z2
	XORQ AX, AX
	XORQ CX, CX

loop:
	LEAQ 8(CX), DX
	CMPQ DX, R8
	JHI tail
	VMOVUPD (SI)(CX*8), Z0
	VCMPPD $0x11, Z1, Z0, K1
	VCMPPD $0x1e, Z2, Z0, K2
	KORB K1, K2, K1
	KMOVB K1, DX
	SHLQ CX, DX
	ORQ DX, AX
	ADDQ $8, CX
	JMP loop

tail:
	MOVQ R8, DX
	SUBQ CX, DX
	JEQ done
	MOVQ $1, BX
	SHLXQ DX, BX, BX
	DECQ BX
	KMOVB BX, K3
	VMOVUPD.Z (SI)(CX*8), K3, Z0
	VCMPPD $0x11, Z1, Z0, K3, K1
	VCMPPD $0x1e, Z2, Z0, K3, K2
	KORB K1, K2, K1
	KMOVB K1, DX
	SHLQ CX, DX
	ORQ DX, AX

done:
	MOVQ AX, ret+40(FP)
	VZEROUPPER
	RET

// func medianPos(counts []int32, k int32) (j int, c int32)
//
// The first j whose running count c = counts[0] + … + counts[j] exceeds
// k, and that c (j = len(counts) and c the total when none does): sixteen
// counts at a time in AVX-512, their running sums by four shifted
// additions (VALIGND), compared with k; the last len(counts) mod 16 by a
// masked load.
TEXT ·medianPos(SB), NOSPLIT, $64-44
	MOVQ counts_base+0(FP), SI
	MOVQ counts_len+8(FP), R8
	MOVL k+24(FP), DX
	VPBROADCASTD DX, Z1
	VPXORD Z2, Z2, Z2         // zero
	VPXORD Z3, Z3, Z3         // the running count before the chunk, every lane
	MOVL $15, DX
	VPBROADCASTD DX, Z4       // the index of the last lane
	XORQ CX, CX

chunk:
	MOVQ R8, DX
	SUBQ CX, DX
	JLE none
	MOVQ $0xffff, BX
	CMPQ DX, $16
	JGE full
	MOVQ $1, BX
	SHLXQ DX, BX, BX
	DECQ BX
full:
	KMOVW BX, K1
	VMOVDQU32.Z (SI)(CX*4), K1, Z0
	VALIGND $15, Z2, Z0, Z5
	VPADDD Z5, Z0, Z0
	VALIGND $14, Z2, Z0, Z5
	VPADDD Z5, Z0, Z0
	VALIGND $12, Z2, Z0, Z5
	VPADDD Z5, Z0, Z0
	VALIGND $8, Z2, Z0, Z5
	VPADDD Z5, Z0, Z0
	VPADDD Z3, Z0, Z0
	VPCMPD $6, Z1, Z0, K1, K2  // running count > k, in the loaded lanes
	KMOVW K2, AX
	TESTL AX, AX
	JNE found
	VPERMD Z0, Z4, Z3
	ADDQ $16, CX
	JMP chunk

found:
	TZCNTL AX, AX
	VMOVDQU32 Z0, 0(SP)
	MOVL 0(SP)(AX*4), DX
	ADDQ AX, CX
	MOVQ CX, j+32(FP)
	MOVL DX, c+40(FP)
	VZEROUPPER
	RET

none:
	VMOVDQU32 Z3, 0(SP)
	MOVL 0(SP), DX
	MOVQ R8, j+32(FP)
	MOVL DX, c+40(FP)
	VZEROUPPER
	RET
