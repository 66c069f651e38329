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
