//go:build amd64 && !purego

#include "textflag.h"

// func boundMeanVarAVX512(va, eb, csf, c1, c2, cf *float64, k int, tf, st1, st2, pen float64, tab *avx512Table) (upper float64, bad int)
//
// boundMeanVarAVX2 for eight candidates at a time with AVX-512F, without
// divisions (see avx512Table for the error bound): 1/l by VRCP14PD and
// two Newton steps, σ²' = (x2 - x²·r)·r, log σ²' = e·ln2 + log c_i +
// log1p(r) with the exponent e and mantissa m from VGETEXPPD/VGETMANTPD, c_i
// from a 16-entry table (VPERMI2PD) and log1p(r), |r| <= 1/32, to r⁸.
// Lanes where σ²' or the denominator is tiny, or the variance is not
// known to 1 %, get v' = 0 and ε = +Inf; bad counts them. k is a
// positive multiple of 8.
TEXT ·boundMeanVarAVX512(SB), NOSPLIT, $0-112
	MOVQ va+0(FP), DI
	MOVQ eb+8(FP), DX
	MOVQ csf+16(FP), SI
	MOVQ c1+24(FP), R8
	MOVQ c2+32(FP), R9
	MOVQ cf+40(FP), R10
	MOVQ k+48(FP), CX
	VBROADCASTSD tf+56(FP), Z31
	VBROADCASTSD st1+64(FP), Z30
	VBROADCASTSD st2+72(FP), Z29
	VBROADCASTSD pen+80(FP), Z28
	MOVQ tab+88(FP), R11
	VMOVUPD 0(R11), Z26          // 1/c, entries 0-7
	VMOVUPD 64(R11), Z25         // entries 8-15
	VMOVUPD 128(R11), Z24        // log c, entries 0-7
	VMOVUPD 192(R11), Z23        // entries 8-15
	VBROADCASTSD 256(R11), Z27   // 1
	VBROADCASTSD 264(R11), Z22   // abs mask
	VBROADCASTSD 272(R11), Z21   // 2^-1000
	VBROADCASTSD 280(R11), Z20   // largest Q
	VBROADCASTSD 288(R11), Z19   // log 2π
	VBROADCASTSD 296(R11), Z18   // ln 2
	VBROADCASTSD 304(R11), Z17   // ηlog
	VBROADCASTSD 312(R11), Z16   // 2e-15
	VBROADCASTSD 320(R11), Z15   // ηvar per unit of Q
	VBROADCASTSD 328(R11), Z14   // +Inf: running min of v' + ε
	VBROADCASTSD 328(R11), Z13   // +Inf
	XORQ AX, AX
	XORQ R12, R12                // bad lanes

	PCALIGN $32 // loop speed independent of the linker's placement
loop512:
	CMPQ AX, CX
	JGE  done512
	VSUBPD  (SI)(AX*8), Z31, Z0  // l = tf - csf
	VSUBPD  (R8)(AX*8), Z30, Z1  // x = st1 - c1
	VSUBPD  (R9)(AX*8), Z29, Z2  // x2 = st2 - c2
	VMULPD  Z1, Z1, Z1           // x·x
	VRCP14PD Z0, Z3              // r ≈ 1/l
	VMOVAPD Z27, Z4
	VFNMADD231PD Z3, Z0, Z4      // 1 - l·r
	VFMADD231PD Z4, Z3, Z3       // r += r·(1 - l·r)
	VMOVAPD Z27, Z4
	VFNMADD231PD Z3, Z0, Z4
	VFMADD231PD Z4, Z3, Z3
	VMULPD  Z3, Z1, Z1           // q' = x·x·r
	VSUBPD  Z1, Z2, Z2           // d' = x2 - q'
	VMULPD  Z3, Z2, Z5           // σ²' = d'·r
	VCMPPD  $0x11, Z21, Z2, K1   // d' < 2^-1000 (or NaN: see K3)
	VCMPPD  $0x11, Z21, Z5, K2   // σ²' < 2^-1000
	KORW    K2, K1, K1
	VRCP14PD Z2, Z6
	VMULPD  Z6, Z1, Z6           // Q' = q'/d'
	VCMPPD  $0x16, Z20, Z6, K3   // !(Q' <= largest Q), NaN included
	KORW    K3, K1, K1

	// lg = e·ln2 + log c_i + log1p(m/c_i - 1)
	VGETEXPPD Z5, Z7
	VGETMANTPD $0, Z5, Z8
	VPSRLQ  $48, Z5, Z9          // top mantissa bits select i
	VMOVAPD Z9, Z10
	VPERMI2PD Z25, Z26, Z9       // 1/c_i
	VPERMI2PD Z23, Z24, Z10      // log c_i
	VFMSUB213PD Z27, Z8, Z9      // r = m·(1/c_i) - 1
	VBROADCASTSD 336(R11), Z11   // -1/8
	VFMADD213PD.BCST 344(R11), Z9, Z11 // 1/7
	VFMADD213PD.BCST 352(R11), Z9, Z11 // -1/6
	VFMADD213PD.BCST 360(R11), Z9, Z11 // 1/5
	VFMADD213PD.BCST 368(R11), Z9, Z11 // -1/4
	VFMADD213PD.BCST 376(R11), Z9, Z11 // 1/3
	VFMADD213PD.BCST 384(R11), Z9, Z11 // -1/2
	VFMADD213PD Z27, Z9, Z11     // 1 + r·(...)
	VMULPD  Z9, Z11, Z11         // log1p(r)
	VFMADD231PD Z18, Z7, Z10     // e·ln2 + log c_i
	VADDPD  Z11, Z10, Z10        // lg

	// v' = (F + l·((log 2π + lg) + 1)) + β
	VADDPD  Z19, Z10, Z11
	VADDPD  Z27, Z11, Z11
	VMULPD  Z0, Z11, Z11         // term
	VMOVUPD (R10)(AX*8), Z12     // F(s)
	VADDPD  Z11, Z12, Z9
	VADDPD  Z28, Z9, Z9          // v'

	// ε = l·(ηlog + 2e-15·|lg| + ηvar·Q') + 2e-15·(|F| + |term| + β)
	VPANDQ  Z22, Z10, Z10
	VMOVAPD Z17, Z7
	VFMADD231PD Z16, Z10, Z7
	VFMADD231PD Z15, Z6, Z7
	VMULPD  Z0, Z7, Z7
	VPANDQ  Z22, Z12, Z12
	VPANDQ  Z22, Z11, Z11
	VADDPD  Z11, Z12, Z12
	VADDPD  Z28, Z12, Z12
	VFMADD231PD Z16, Z12, Z7     // ε

	KMOVW   K1, BX
	POPCNTL BX, BX
	ADDQ    BX, R12
	VMOVAPD Z13, K1, Z7          // bad lanes: ε = +Inf
	VPXORQ  Z9, Z9, K1, Z9       // v' = 0
	VMOVUPD Z9, (DI)(AX*8)
	VMOVUPD Z7, (DX)(AX*8)
	VADDPD  Z7, Z9, Z9
	VMINPD  Z9, Z14, Z14
	ADDQ    $8, AX
	JMP     loop512

done512:
	VEXTRACTF64X4 $1, Z14, Y0
	VMINPD  Y0, Y14, Y0
	VEXTRACTF128 $1, Y0, X1
	VMINPD  X1, X0, X0
	VPERMILPD $1, X0, X1
	VMINSD  X1, X0, X0
	MOVSD   X0, upper+96(FP)
	MOVQ    R12, bad+104(FP)
	VZEROUPPER
	RET

// func costRowAVX512(cw, clo, csf, c1, c2, gmx *float64, k int, tf, st1, st2, pen2 float64, tab *avx512Table) (bad int)
//
// The cost part of boundMeanVarAVX512 (F = β = 0) for batchPELT.costRow:
// C' = l·((log 2π + lg) + 1) and its bound ε_C, widened for the sums as
// batchPELT needs,
//
//	ε = ε_C·(1+2⁻⁴⁰) + 3e-15·((|C'| + gmx) + pen2),  cw = C' + ε,  clo = C' - ε
//
// with cw = +Inf, clo = -Inf in the lanes left to the exact code (counted
// in bad). k is a positive multiple of 8.
TEXT ·costRowAVX512(SB), NOSPLIT, $0-104
	MOVQ cw+0(FP), DI
	MOVQ clo+8(FP), DX
	MOVQ csf+16(FP), SI
	MOVQ c1+24(FP), R8
	MOVQ c2+32(FP), R9
	MOVQ gmx+40(FP), R10
	MOVQ k+48(FP), CX
	VBROADCASTSD tf+56(FP), Z31
	VBROADCASTSD st1+64(FP), Z30
	VBROADCASTSD st2+72(FP), Z29
	VBROADCASTSD pen2+80(FP), Z28
	MOVQ tab+88(FP), R11
	VMOVUPD 0(R11), Z26
	VMOVUPD 64(R11), Z25
	VMOVUPD 128(R11), Z24
	VMOVUPD 192(R11), Z23
	VBROADCASTSD 256(R11), Z27   // 1
	VBROADCASTSD 264(R11), Z22   // abs mask
	VBROADCASTSD 272(R11), Z21   // 2^-1000
	VBROADCASTSD 280(R11), Z20   // largest Q
	VBROADCASTSD 312(R11), Z16   // 2e-15
	VBROADCASTSD 328(R11), Z13   // +Inf
	VBROADCASTSD 408(R11), Z14   // -Inf

	// Each step computes l, σ²', Q' and the lanes left out for the next
	// eight members (into Z15, Z17, Z18 and K4) ahead of this step's
	// logarithm, so that their reciprocals overlap its polynomial; the
	// first step (AX = -8) only does that.
	MOVQ $-8, AX
	XORQ R12, R12

	PCALIGN $32 // loop speed independent of the linker's placement
cloop:
	VMOVAPD Z15, Z0              // l
	VMOVAPD Z17, Z5              // σ²'
	VMOVAPD Z18, Z6              // Q'
	KMOVW   K4, K1               // lanes left to the exact code
	LEAQ    8(AX), BX
	CMPQ    BX, CX
	JGE     cthis
	VSUBPD  64(SI)(AX*8), Z31, Z15 // l
	VSUBPD  64(R8)(AX*8), Z30, Z1  // x
	VSUBPD  64(R9)(AX*8), Z29, Z2  // x2
	VMULPD  Z1, Z1, Z1
	VRCP14PD Z15, Z3
	VMOVAPD Z27, Z4
	VFNMADD231PD Z3, Z15, Z4
	VFMADD231PD Z4, Z3, Z3
	VMOVAPD Z27, Z4
	VFNMADD231PD Z3, Z15, Z4
	VFMADD231PD Z4, Z3, Z3       // r ≈ 1/l
	VMULPD  Z3, Z1, Z1           // q'
	VSUBPD  Z1, Z2, Z2           // d'
	VMULPD  Z3, Z2, Z17          // σ²'
	VCMPPD  $0x11, Z21, Z2, K4
	VCMPPD  $0x11, Z21, Z17, K2
	KORW    K2, K4, K4
	VRCP14PD Z2, Z18
	VMULPD  Z18, Z1, Z18         // Q'
	VCMPPD  $0x16, Z20, Z18, K3
	KORW    K3, K4, K4

cthis:
	TESTQ   AX, AX
	JS      cstep
	VGETEXPPD Z5, Z7
	VGETMANTPD $0, Z5, Z8
	VPSRLQ  $48, Z5, Z9
	VMOVAPD Z9, Z10
	VPERMI2PD Z25, Z26, Z9
	VPERMI2PD Z23, Z24, Z10
	VFMSUB213PD Z27, Z8, Z9
	VBROADCASTSD 336(R11), Z11
	VFMADD213PD.BCST 344(R11), Z9, Z11
	VFMADD213PD.BCST 352(R11), Z9, Z11
	VFMADD213PD.BCST 360(R11), Z9, Z11
	VFMADD213PD.BCST 368(R11), Z9, Z11
	VFMADD213PD.BCST 376(R11), Z9, Z11
	VFMADD213PD.BCST 384(R11), Z9, Z11
	VFMADD213PD Z27, Z9, Z11
	VMULPD  Z9, Z11, Z11
	VFMADD231PD.BCST 296(R11), Z7, Z10 // + e·ln 2
	VADDPD  Z11, Z10, Z10        // lg

	VADDPD.BCST 288(R11), Z10, Z11 // + log 2π
	VADDPD  Z27, Z11, Z11
	VMULPD  Z0, Z11, Z11         // C'

	VPANDQ  Z22, Z10, Z10
	VBROADCASTSD 304(R11), Z7    // ηlog
	VFMADD231PD Z16, Z10, Z7
	VFMADD231PD.BCST 320(R11), Z6, Z7 // + ηvar·Q'
	VMULPD  Z0, Z7, Z7
	VPANDQ  Z22, Z11, Z12        // |C'|
	VFMADD231PD Z16, Z12, Z7     // ε_C
	VADDPD  (R10)(AX*8), Z12, Z12
	VADDPD  Z28, Z12, Z12
	VMULPD.BCST 392(R11), Z12, Z12     // 3e-15·((|C'| + gmx) + pen2)
	VFMADD231PD.BCST 400(R11), Z7, Z12 // + ε_C·(1+2⁻⁴⁰)

	VADDPD  Z12, Z11, Z9         // cw
	VSUBPD  Z12, Z11, Z10        // clo
	KMOVW   K1, BX
	POPCNTL BX, BX
	ADDQ    BX, R12
	VMOVAPD Z13, K1, Z9
	VMOVAPD Z14, K1, Z10
	VMOVUPD Z9, (DI)(AX*8)
	VMOVUPD Z10, (DX)(AX*8)
cstep:
	ADDQ    $8, AX
	CMPQ    AX, CX
	JLT     cloop

cdone:
	MOVQ    R12, bad+96(FP)
	VZEROUPPER
	RET
