//go:build amd64 && !purego

#include "textflag.h"

// LOGPOLY is fastLog's last step on four lanes: from s = f/(2+f) in Y5
// and the exponent e in Y4, lg = e·ln2 + 2(s + s·z·P(z)) with z = s² in
// Y7 (P the odd polynomial cP3 … cP17, Horner; Y6 is clobbered).
//
// SIGMA2(i) loads the four members at index i and computes, per lane,
// l = tf − csf in Y0 and the mean-and-variance cost's
// σ² = ((st2 − c2) − (st1 − c1)²/l) / l in Y2 (Y1 is clobbered), with
// tf, st1 and st2 broadcast in Y15, Y14, Y13 and csf, c1, c2 at SI, R8, R9.
#define LOGPOLY \
	VMULPD  Y5, Y5, Y6; \
	VMOVUPD cP17<>(SB), Y7; \
	VFMADD213PD cP15<>(SB), Y6, Y7; \
	VFMADD213PD cP13<>(SB), Y6, Y7; \
	VFMADD213PD cP11<>(SB), Y6, Y7; \
	VFMADD213PD cP9<>(SB), Y6, Y7; \
	VFMADD213PD cP7<>(SB), Y6, Y7; \
	VFMADD213PD cP5<>(SB), Y6, Y7; \
	VFMADD213PD cP3<>(SB), Y6, Y7; \
	VMULPD  Y6, Y7, Y7; \
	VFMADD213PD Y5, Y5, Y7; \
	VADDPD  Y7, Y7, Y7; \
	VFMADD231PD cLn2<>(SB), Y4, Y7

#define SIGMA2(i) \
	VMOVUPD (SI)(i*8), Y0; \
	VSUBPD  Y0, Y15, Y0; \
	VMOVUPD (R8)(i*8), Y1; \
	VSUBPD  Y1, Y14, Y1; \
	VMOVUPD (R9)(i*8), Y2; \
	VSUBPD  Y2, Y13, Y2; \
	VMULPD  Y1, Y1, Y1; \
	VDIVPD  Y0, Y1, Y1; \
	VSUBPD  Y1, Y2, Y2; \
	VDIVPD  Y0, Y2, Y2

// func cpuid(eaxArg, ecxArg uint32) (eax, ebx, ecx, edx uint32)
TEXT ·cpuid(SB), NOSPLIT, $0-24
	MOVL eaxArg+0(FP), AX
	MOVL ecxArg+4(FP), CX
	CPUID
	MOVL AX, eax+8(FP)
	MOVL BX, ebx+12(FP)
	MOVL CX, ecx+16(FP)
	MOVL DX, edx+20(FP)
	RET

// func xgetbv() (eax, edx uint32)
TEXT ·xgetbv(SB), NOSPLIT, $0-8
	MOVL $0, CX
	XGETBV
	MOVL AX, eax+0(FP)
	MOVL DX, edx+4(FP)
	RET

// func scanMeanAVX2(tl, csf, c1, c2, cf *float64, k int, tf, st1, st2, pen float64, lanes *[8]float64)
//
// tl[i] = (cf[i] + ((st2-c2[i]) - (st1-c1[i])²/(tf-csf[i]))) + pen, four
// lanes at a time with the same IEEE operations as the scalar code; and
// per lane the smallest value (strict <, from +Inf) and the index of its
// first occurrence, as doubles: lanes[0:4] minima, lanes[4:8] indices.
TEXT ·scanMeanAVX2(SB), NOSPLIT, $0-88
	MOVQ tl+0(FP), DI
	MOVQ csf+8(FP), SI
	MOVQ c1+16(FP), R8
	MOVQ c2+24(FP), R9
	MOVQ cf+32(FP), R10
	MOVQ k+40(FP), CX
	VBROADCASTSD tf+48(FP), Y15
	VBROADCASTSD st1+56(FP), Y14
	VBROADCASTSD st2+64(FP), Y13
	VBROADCASTSD pen+72(FP), Y12
	VMOVUPD cInf<>(SB), Y4   // lane minima
	VXORPD  Y5, Y5, Y5       // their indices
	VMOVUPD cIota<>(SB), Y6  // indices of the current four
	VMOVUPD cFour<>(SB), Y7
	XORQ AX, AX

	PCALIGN $32 // loop speed independent of the linker's placement
meanloop:
	CMPQ AX, CX
	JGE  meandone
	VMOVUPD (SI)(AX*8), Y0
	VSUBPD  Y0, Y15, Y0    // l = tf - csf
	VMOVUPD (R8)(AX*8), Y1
	VSUBPD  Y1, Y14, Y1    // x = st1 - c1
	VMOVUPD (R9)(AX*8), Y2
	VSUBPD  Y2, Y13, Y2    // x2 = st2 - c2
	VMULPD  Y1, Y1, Y1     // x*x
	VDIVPD  Y0, Y1, Y1     // x*x / l
	VSUBPD  Y1, Y2, Y2     // cost = x2 - x*x/l
	VMOVUPD (R10)(AX*8), Y3
	VADDPD  Y2, Y3, Y3     // cf + cost
	VADDPD  Y12, Y3, Y3    // + pen
	VMOVUPD Y3, (DI)(AX*8)
	VCMPPD  $1, Y4, Y3, Y8 // value < lane minimum
	VBLENDVPD Y8, Y3, Y4, Y4
	VBLENDVPD Y8, Y6, Y5, Y5
	VADDPD  Y7, Y6, Y6
	ADDQ    $4, AX
	JMP     meanloop

meandone:
	MOVQ    lanes+80(FP), DX
	VMOVUPD Y4, (DX)
	VMOVUPD Y5, 32(DX)
	VZEROUPPER
	RET

// func boundMeanVarAVX2(va, eb, csf, c1, c2, cf *float64, k int, tf, st1, st2, pen float64) float64
//
// For four candidates at a time: σ² exactly as the scalar code (same IEEE
// operations and clamp), log σ² by log m + e·ln2 with m in [√½, √2],
// log m = 2 atanh(s), s = (m-1)/(m+1), atanh by its series to s¹⁷
// (|s| <= 0.1716, truncation < 3e-16); then v' and ε as documented in
// scan.go. Lanes with subnormal σ² get v' = 0, ε = +Inf.
TEXT ·boundMeanVarAVX2(SB), NOSPLIT, $0-96
	MOVQ va+0(FP), DI
	MOVQ eb+8(FP), DX
	MOVQ csf+16(FP), SI
	MOVQ c1+24(FP), R8
	MOVQ c2+32(FP), R9
	MOVQ cf+40(FP), R10
	MOVQ k+48(FP), CX
	VBROADCASTSD tf+56(FP), Y15
	VBROADCASTSD st1+64(FP), Y14
	VBROADCASTSD st2+72(FP), Y13
	VBROADCASTSD pen+80(FP), Y12
	VMOVUPD cInf<>(SB), Y11  // running min of v' + ε
	XORQ AX, AX

	PCALIGN $32 // loop speed independent of the linker's placement
mvloop:
	CMPQ AX, CX
	JGE  mvdone
	SIGMA2(AX)
	VXORPD  Y3, Y3, Y3
	VCMPPD  $2, Y3, Y2, Y3 // σ² <= 0
	VBLENDVPD Y3, cClamp<>(SB), Y2, Y2 // clamp to 1e-11
	VCMPPD  $1, cTiny<>(SB), Y2, Y3    // bad lanes: σ² < 2^-1022

	// log σ² = e·ln2 + log m
	VPSRLQ  $52, Y2, Y4              // biased exponent E
	VANDPD  cMant<>(SB), Y2, Y5
	VORPD   cOne<>(SB), Y5, Y5       // m in [1, 2)
	VCMPPD  $0x1e, cSqrt2<>(SB), Y5, Y6 // m > √2
	VMULPD  cHalf<>(SB), Y5, Y7
	VBLENDVPD Y6, Y7, Y5, Y5         // m in [√½, √2]
	VPSUBQ  Y6, Y4, Y4               // E + 1 where halved
	VPOR    cMagic<>(SB), Y4, Y4
	VSUBPD  cMagic<>(SB), Y4, Y4     // E as double
	VSUBPD  c1023<>(SB), Y4, Y4      // e
	VSUBPD  cOne<>(SB), Y5, Y5       // f = m - 1 (exact)
	VADDPD  cTwo<>(SB), Y5, Y6
	VDIVPD  Y6, Y5, Y5               // s = f / (2 + f)
	LOGPOLY // lg = e·ln2 + log m in Y7

	// v' = (cf + l·((log 2π + lg) + 1)) + pen
	VADDPD  cLog2Pi<>(SB), Y7, Y8
	VADDPD  cOne<>(SB), Y8, Y8
	VMULPD  Y0, Y8, Y8               // term
	VMOVUPD (R10)(AX*8), Y9          // F(s)
	VADDPD  Y8, Y9, Y10
	VADDPD  Y12, Y10, Y10            // v'

	// ε = l·(1.006e-12 + 2e-15·|lg|) + 2e-15·(|F(s)| + |term| + pen)
	VANDPD  cAbs<>(SB), Y7, Y7
	VMOVUPD cEpsL<>(SB), Y1
	VFMADD231PD cEpsRel<>(SB), Y7, Y1
	VMULPD  Y0, Y1, Y1
	VANDPD  cAbs<>(SB), Y9, Y9
	VANDPD  cAbs<>(SB), Y8, Y8
	VADDPD  Y8, Y9, Y9
	VADDPD  Y12, Y9, Y9
	VFMADD231PD cEpsRel<>(SB), Y9, Y1 // ε

	VBLENDVPD Y3, cInf<>(SB), Y1, Y1  // bad: ε = +Inf
	VXORPD  Y6, Y6, Y6
	VBLENDVPD Y3, Y6, Y10, Y10        // bad: v' = 0
	VMOVUPD Y10, (DI)(AX*8)
	VMOVUPD Y1, (DX)(AX*8)
	VADDPD  Y1, Y10, Y10
	VMINPD  Y10, Y11, Y11
	ADDQ    $4, AX
	JMP     mvloop

mvdone:
	VEXTRACTF128 $1, Y11, X0
	VMINPD  X0, X11, X0
	VPERMILPD $1, X0, X1
	VMINSD  X1, X0, X0
	MOVSD   X0, ret+88(FP)
	VZEROUPPER
	RET

// func costRowAVX2(cw, clo, csf, c1, c2, gmx *float64, k int, tf, st1, st2, pen2 float64)
//
// The cost part of boundMeanVarAVX2 (F = β = 0) for batchPELT.costRow,
// widened in the same pass as batchPELT needs (widen):
//
//	ε = ε_C·(1+2⁻⁴⁰) + 3e-15·((|C'| + gmx) + pen2),  cw = C' + ε,  clo = C' - ε
//
// with C' = l·((log 2π + lg) + 1) and ε_C = l·(1.006e-12 + 2e-15·|lg|) +
// 2e-15·|C'|, as boundMeanVarAVX2 computes them; lanes with subnormal σ²
// get cw = +Inf, clo = -Inf. k is a multiple of 4.
TEXT ·costRowAVX2(SB), NOSPLIT, $32-88
	MOVQ cw+0(FP), DI
	MOVQ clo+8(FP), DX
	MOVQ csf+16(FP), SI
	MOVQ c1+24(FP), R8
	MOVQ c2+32(FP), R9
	MOVQ gmx+40(FP), R10
	MOVQ k+48(FP), CX
	VBROADCASTSD tf+56(FP), Y15
	VBROADCASTSD st1+64(FP), Y14
	VBROADCASTSD st2+72(FP), Y13
	VBROADCASTSD pen2+80(FP), Y12
	VMOVUPD Y12, 0(SP)     // pen2, four times
	XORQ AX, AX
	CMPQ AX, CX
	JGE  crdone

	// Software-pipelined: σ² of the next four (two dependent divisions)
	// is computed at the top of the body, ahead of the current four's
	// logarithm, so the divider and the polynomial overlap. The last
	// pass recomputes its own four in place of a next.
	VMOVUPD (SI), Y11
	VSUBPD  Y11, Y15, Y11  // l = tf - csf
	VMOVUPD (R8), Y1
	VSUBPD  Y1, Y14, Y1    // x = st1 - c1
	VMOVUPD (R9), Y12
	VSUBPD  Y12, Y13, Y12  // x2 = st2 - c2
	VMULPD  Y1, Y1, Y1     // x*x
	VDIVPD  Y11, Y1, Y1    // x*x / l
	VSUBPD  Y1, Y12, Y12   // x2 - x*x/l
	VDIVPD  Y11, Y12, Y12  // σ² = (x2 - x*x/l) / l

	PCALIGN $32 // loop speed independent of the linker's placement
crloop:
	// Next four (or these four again on the last pass): l in Y0, σ² in Y2.
	LEAQ    4(AX), BX
	CMPQ    BX, CX
	CMOVQGE AX, BX
	SIGMA2(BX)

	// These four: l in Y11, σ² in Y12.
	VCMPPD  $2, cZero<>(SB), Y12, Y3     // σ² <= 0
	VBLENDVPD Y3, cClamp<>(SB), Y12, Y12 // clamp to 1e-11
	VCMPPD  $1, cTiny<>(SB), Y12, Y3     // bad lanes: σ² < 2^-1022

	// log σ² = e·ln2 + log m with boundMeanVarAVX2's e and m, in
	// integer steps: adding 2^52 - mant(√2) - 1 carries into the
	// exponent field exactly where m > √2, so that field is E (+1 where
	// halved); m is σ² with it replaced by 1023 (1022 where halved).
	VPADDQ  cSplit<>(SB), Y12, Y4    // bits + 2^52 - mant(√2) - 1
	VPAND   cHigh<>(SB), Y4, Y4      // E or E+1, in place
	VPSUBQ  Y4, Y12, Y5
	VPADDQ  cOne<>(SB), Y5, Y5       // m in [√½, √2]
	VPSRLQ  $52, Y4, Y4
	VPOR    cMagic<>(SB), Y4, Y4
	VSUBPD  cMagic1023<>(SB), Y4, Y4 // e
	VADDPD  cOne<>(SB), Y5, Y6       // m + 1 = 2 + f (f exact)
	VSUBPD  cOne<>(SB), Y5, Y5       // f = m - 1 (exact)
	VDIVPD  Y6, Y5, Y5               // s = f / (2 + f)
	LOGPOLY // lg = e·ln2 + log m in Y7

	// C' = l·((log 2π + lg) + 1)
	VADDPD  cLog2Pi<>(SB), Y7, Y8
	VADDPD  cOne<>(SB), Y8, Y8
	VMULPD  Y11, Y8, Y8              // C'

	// ε_C = l·(1.006e-12 + 2e-15·|lg|) + 2e-15·|C'|
	VANDPD  cAbs<>(SB), Y7, Y7
	VMOVUPD cEpsL<>(SB), Y1
	VFMADD231PD cEpsRel<>(SB), Y7, Y1
	VMULPD  Y11, Y1, Y1
	VANDPD  cAbs<>(SB), Y8, Y9       // |C'|
	VFMADD231PD cEpsRel<>(SB), Y9, Y1 // ε_C

	// ε = ε_C·(1+2⁻⁴⁰) + 3e-15·((|C'| + gmx) + pen2)
	VADDPD  (R10)(AX*8), Y9, Y9
	VADDPD  0(SP), Y9, Y9
	VMULPD  cWideRel<>(SB), Y9, Y9
	VFMADD231PD cWideOne<>(SB), Y1, Y9 // ε

	VADDPD  Y9, Y8, Y10              // cw
	VSUBPD  Y9, Y8, Y1               // clo
	VBLENDVPD Y3, cInf<>(SB), Y10, Y10  // bad: cw = +Inf
	VBLENDVPD Y3, cNegInf<>(SB), Y1, Y1 // bad: clo = -Inf
	VMOVUPD Y10, (DI)(AX*8)
	VMOVUPD Y1, (DX)(AX*8)
	VMOVAPD Y0, Y11
	VMOVAPD Y2, Y12
	ADDQ    $4, AX
	CMPQ    AX, CX
	JLT     crloop

crdone:
	VZEROUPPER
	RET

// func findAVX2(v, e *float64, k int, x float64, op int) int
// First index i in [0, k) (k a multiple of 4) where
//	op 0: v[i] > x
//	op 1: v[i] + e[i] > x
//	op 2: v[i] - e[i] <= x
// or k if none.
TEXT ·findAVX2(SB), NOSPLIT, $0-48
	MOVQ v+0(FP), SI
	MOVQ e+8(FP), DI
	MOVQ k+16(FP), CX
	VBROADCASTSD x+24(FP), Y15
	MOVQ op+32(FP), DX
	XORQ AX, AX
	CMPQ AX, CX
	JGE  findnone

	// One loop per comparison, each aligned to 32 bytes and tested at
	// the bottom: the dispatch inside one shared loop made its speed
	// depend on where the linker placed it (up to 1.8× on this machine).
	CMPQ DX, $0
	JEQ  findgt
	CMPQ DX, $1
	JEQ  findsumgt

	PCALIGN $32
finddle: // v - e <= x
	VMOVUPD   (SI)(AX*8), Y0
	VSUBPD    (DI)(AX*8), Y0, Y0
	VCMPPD    $2, Y15, Y0, Y1
	VMOVMSKPD Y1, BX
	TESTQ     BX, BX
	JNE       findhit
	ADDQ      $4, AX
	CMPQ      AX, CX
	JLT       finddle
	JMP       findnone

	PCALIGN $32
findgt: // v > x
	VMOVUPD   (SI)(AX*8), Y0
	VCMPPD    $0x1e, Y15, Y0, Y1
	VMOVMSKPD Y1, BX
	TESTQ     BX, BX
	JNE       findhit
	ADDQ      $4, AX
	CMPQ      AX, CX
	JLT       findgt
	JMP       findnone

	PCALIGN $32
findsumgt: // v + e > x
	VMOVUPD   (SI)(AX*8), Y0
	VADDPD    (DI)(AX*8), Y0, Y0
	VCMPPD    $0x1e, Y15, Y0, Y1
	VMOVMSKPD Y1, BX
	TESTQ     BX, BX
	JNE       findhit
	ADDQ      $4, AX
	CMPQ      AX, CX
	JLT       findsumgt
	JMP       findnone

findhit:
	BSFQ BX, BX
	ADDQ BX, AX
	MOVQ AX, ret+40(FP)
	VZEROUPPER
	RET

findnone:
	MOVQ CX, ret+40(FP)
	VZEROUPPER
	RET

// 1e-11: R's variance clamp
DATA cClamp<>+0(SB)/8, $0x3da5fd7fe1796495
DATA cClamp<>+8(SB)/8, $0x3da5fd7fe1796495
DATA cClamp<>+16(SB)/8, $0x3da5fd7fe1796495
DATA cClamp<>+24(SB)/8, $0x3da5fd7fe1796495
GLOBL cClamp<>(SB), RODATA|NOPTR, $32

// 2^-1022, smallest normal
DATA cTiny<>+0(SB)/8, $0x0010000000000000
DATA cTiny<>+8(SB)/8, $0x0010000000000000
DATA cTiny<>+16(SB)/8, $0x0010000000000000
DATA cTiny<>+24(SB)/8, $0x0010000000000000
GLOBL cTiny<>(SB), RODATA|NOPTR, $32

// mantissa mask
DATA cMant<>+0(SB)/8, $0x000fffffffffffff
DATA cMant<>+8(SB)/8, $0x000fffffffffffff
DATA cMant<>+16(SB)/8, $0x000fffffffffffff
DATA cMant<>+24(SB)/8, $0x000fffffffffffff
GLOBL cMant<>(SB), RODATA|NOPTR, $32

// 1.0
DATA cOne<>+0(SB)/8, $0x3ff0000000000000
DATA cOne<>+8(SB)/8, $0x3ff0000000000000
DATA cOne<>+16(SB)/8, $0x3ff0000000000000
DATA cOne<>+24(SB)/8, $0x3ff0000000000000
GLOBL cOne<>(SB), RODATA|NOPTR, $32

// sqrt(2)
DATA cSqrt2<>+0(SB)/8, $0x3ff6a09e667f3bcd
DATA cSqrt2<>+8(SB)/8, $0x3ff6a09e667f3bcd
DATA cSqrt2<>+16(SB)/8, $0x3ff6a09e667f3bcd
DATA cSqrt2<>+24(SB)/8, $0x3ff6a09e667f3bcd
GLOBL cSqrt2<>(SB), RODATA|NOPTR, $32

// 0.5
DATA cHalf<>+0(SB)/8, $0x3fe0000000000000
DATA cHalf<>+8(SB)/8, $0x3fe0000000000000
DATA cHalf<>+16(SB)/8, $0x3fe0000000000000
DATA cHalf<>+24(SB)/8, $0x3fe0000000000000
GLOBL cHalf<>(SB), RODATA|NOPTR, $32

// 2^52
DATA cMagic<>+0(SB)/8, $0x4330000000000000
DATA cMagic<>+8(SB)/8, $0x4330000000000000
DATA cMagic<>+16(SB)/8, $0x4330000000000000
DATA cMagic<>+24(SB)/8, $0x4330000000000000
GLOBL cMagic<>(SB), RODATA|NOPTR, $32

// 1023.0
DATA c1023<>+0(SB)/8, $0x408ff80000000000
DATA c1023<>+8(SB)/8, $0x408ff80000000000
DATA c1023<>+16(SB)/8, $0x408ff80000000000
DATA c1023<>+24(SB)/8, $0x408ff80000000000
GLOBL c1023<>(SB), RODATA|NOPTR, $32

// 2.0
DATA cTwo<>+0(SB)/8, $0x4000000000000000
DATA cTwo<>+8(SB)/8, $0x4000000000000000
DATA cTwo<>+16(SB)/8, $0x4000000000000000
DATA cTwo<>+24(SB)/8, $0x4000000000000000
GLOBL cTwo<>(SB), RODATA|NOPTR, $32

// 1/17
DATA cP17<>+0(SB)/8, $0x3fae1e1e1e1e1e1e
DATA cP17<>+8(SB)/8, $0x3fae1e1e1e1e1e1e
DATA cP17<>+16(SB)/8, $0x3fae1e1e1e1e1e1e
DATA cP17<>+24(SB)/8, $0x3fae1e1e1e1e1e1e
GLOBL cP17<>(SB), RODATA|NOPTR, $32

// 1/15
DATA cP15<>+0(SB)/8, $0x3fb1111111111111
DATA cP15<>+8(SB)/8, $0x3fb1111111111111
DATA cP15<>+16(SB)/8, $0x3fb1111111111111
DATA cP15<>+24(SB)/8, $0x3fb1111111111111
GLOBL cP15<>(SB), RODATA|NOPTR, $32

// 1/13
DATA cP13<>+0(SB)/8, $0x3fb3b13b13b13b14
DATA cP13<>+8(SB)/8, $0x3fb3b13b13b13b14
DATA cP13<>+16(SB)/8, $0x3fb3b13b13b13b14
DATA cP13<>+24(SB)/8, $0x3fb3b13b13b13b14
GLOBL cP13<>(SB), RODATA|NOPTR, $32

// 1/11
DATA cP11<>+0(SB)/8, $0x3fb745d1745d1746
DATA cP11<>+8(SB)/8, $0x3fb745d1745d1746
DATA cP11<>+16(SB)/8, $0x3fb745d1745d1746
DATA cP11<>+24(SB)/8, $0x3fb745d1745d1746
GLOBL cP11<>(SB), RODATA|NOPTR, $32

// 1/9
DATA cP9<>+0(SB)/8, $0x3fbc71c71c71c71c
DATA cP9<>+8(SB)/8, $0x3fbc71c71c71c71c
DATA cP9<>+16(SB)/8, $0x3fbc71c71c71c71c
DATA cP9<>+24(SB)/8, $0x3fbc71c71c71c71c
GLOBL cP9<>(SB), RODATA|NOPTR, $32

// 1/7
DATA cP7<>+0(SB)/8, $0x3fc2492492492492
DATA cP7<>+8(SB)/8, $0x3fc2492492492492
DATA cP7<>+16(SB)/8, $0x3fc2492492492492
DATA cP7<>+24(SB)/8, $0x3fc2492492492492
GLOBL cP7<>(SB), RODATA|NOPTR, $32

// 1/5
DATA cP5<>+0(SB)/8, $0x3fc999999999999a
DATA cP5<>+8(SB)/8, $0x3fc999999999999a
DATA cP5<>+16(SB)/8, $0x3fc999999999999a
DATA cP5<>+24(SB)/8, $0x3fc999999999999a
GLOBL cP5<>(SB), RODATA|NOPTR, $32

// 1/3
DATA cP3<>+0(SB)/8, $0x3fd5555555555555
DATA cP3<>+8(SB)/8, $0x3fd5555555555555
DATA cP3<>+16(SB)/8, $0x3fd5555555555555
DATA cP3<>+24(SB)/8, $0x3fd5555555555555
GLOBL cP3<>(SB), RODATA|NOPTR, $32

// ln 2
DATA cLn2<>+0(SB)/8, $0x3fe62e42fefa39ef
DATA cLn2<>+8(SB)/8, $0x3fe62e42fefa39ef
DATA cLn2<>+16(SB)/8, $0x3fe62e42fefa39ef
DATA cLn2<>+24(SB)/8, $0x3fe62e42fefa39ef
GLOBL cLn2<>(SB), RODATA|NOPTR, $32

// log(2*pi)
DATA cLog2Pi<>+0(SB)/8, $0x3ffd67f1c864beb4
DATA cLog2Pi<>+8(SB)/8, $0x3ffd67f1c864beb4
DATA cLog2Pi<>+16(SB)/8, $0x3ffd67f1c864beb4
DATA cLog2Pi<>+24(SB)/8, $0x3ffd67f1c864beb4
GLOBL cLog2Pi<>(SB), RODATA|NOPTR, $32

// abs mask
DATA cAbs<>+0(SB)/8, $0x7fffffffffffffff
DATA cAbs<>+8(SB)/8, $0x7fffffffffffffff
DATA cAbs<>+16(SB)/8, $0x7fffffffffffffff
DATA cAbs<>+24(SB)/8, $0x7fffffffffffffff
GLOBL cAbs<>(SB), RODATA|NOPTR, $32

// 1e-12 + 6e-15
DATA cEpsL<>+0(SB)/8, $0x3d71b29f089c4512
DATA cEpsL<>+8(SB)/8, $0x3d71b29f089c4512
DATA cEpsL<>+16(SB)/8, $0x3d71b29f089c4512
DATA cEpsL<>+24(SB)/8, $0x3d71b29f089c4512
GLOBL cEpsL<>(SB), RODATA|NOPTR, $32

// 2e-15
DATA cEpsRel<>+0(SB)/8, $0x3ce203af9ee75616
DATA cEpsRel<>+8(SB)/8, $0x3ce203af9ee75616
DATA cEpsRel<>+16(SB)/8, $0x3ce203af9ee75616
DATA cEpsRel<>+24(SB)/8, $0x3ce203af9ee75616
GLOBL cEpsRel<>(SB), RODATA|NOPTR, $32

// +Inf
DATA cInf<>+0(SB)/8, $0x7ff0000000000000
DATA cInf<>+8(SB)/8, $0x7ff0000000000000
DATA cInf<>+16(SB)/8, $0x7ff0000000000000
DATA cInf<>+24(SB)/8, $0x7ff0000000000000
GLOBL cInf<>(SB), RODATA|NOPTR, $32

DATA cIota<>+0(SB)/8, $0x0000000000000000
DATA cIota<>+8(SB)/8, $0x3ff0000000000000
DATA cIota<>+16(SB)/8, $0x4000000000000000
DATA cIota<>+24(SB)/8, $0x4008000000000000
GLOBL cIota<>(SB), RODATA|NOPTR, $32

DATA cFour<>+0(SB)/8, $0x4010000000000000
DATA cFour<>+8(SB)/8, $0x4010000000000000
DATA cFour<>+16(SB)/8, $0x4010000000000000
DATA cFour<>+24(SB)/8, $0x4010000000000000
GLOBL cFour<>(SB), RODATA|NOPTR, $32

// 3e-15 and 1+2⁻⁴⁰: costRowAVX2's widening
DATA cWideRel<>+0(SB)/8, $0x3ceb05876e5b0120
DATA cWideRel<>+8(SB)/8, $0x3ceb05876e5b0120
DATA cWideRel<>+16(SB)/8, $0x3ceb05876e5b0120
DATA cWideRel<>+24(SB)/8, $0x3ceb05876e5b0120
GLOBL cWideRel<>(SB), RODATA|NOPTR, $32

DATA cWideOne<>+0(SB)/8, $0x3ff0000000001000
DATA cWideOne<>+8(SB)/8, $0x3ff0000000001000
DATA cWideOne<>+16(SB)/8, $0x3ff0000000001000
DATA cWideOne<>+24(SB)/8, $0x3ff0000000001000
GLOBL cWideOne<>(SB), RODATA|NOPTR, $32

DATA cNegInf<>+0(SB)/8, $0xfff0000000000000
DATA cNegInf<>+8(SB)/8, $0xfff0000000000000
DATA cNegInf<>+16(SB)/8, $0xfff0000000000000
DATA cNegInf<>+24(SB)/8, $0xfff0000000000000
GLOBL cNegInf<>(SB), RODATA|NOPTR, $32

// costRowAVX2: 0; 2^52 - mantissa of √2 - 1 (the exponent split); the
// sign and exponent mask; 2^52 + 1023
DATA cZero<>+0(SB)/8, $0
DATA cZero<>+8(SB)/8, $0
DATA cZero<>+16(SB)/8, $0
DATA cZero<>+24(SB)/8, $0
GLOBL cZero<>(SB), RODATA|NOPTR, $32

DATA cSplit<>+0(SB)/8, $0x00095f619980c432
DATA cSplit<>+8(SB)/8, $0x00095f619980c432
DATA cSplit<>+16(SB)/8, $0x00095f619980c432
DATA cSplit<>+24(SB)/8, $0x00095f619980c432
GLOBL cSplit<>(SB), RODATA|NOPTR, $32

DATA cHigh<>+0(SB)/8, $0xfff0000000000000
DATA cHigh<>+8(SB)/8, $0xfff0000000000000
DATA cHigh<>+16(SB)/8, $0xfff0000000000000
DATA cHigh<>+24(SB)/8, $0xfff0000000000000
GLOBL cHigh<>(SB), RODATA|NOPTR, $32

DATA cMagic1023<>+0(SB)/8, $0x43300000000003ff
DATA cMagic1023<>+8(SB)/8, $0x43300000000003ff
DATA cMagic1023<>+16(SB)/8, $0x43300000000003ff
DATA cMagic1023<>+24(SB)/8, $0x43300000000003ff
GLOBL cMagic1023<>(SB), RODATA|NOPTR, $32
