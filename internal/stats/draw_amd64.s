//go:build amd64 && !purego

#include "textflag.h"

// func sumDrawsAsm(st *pcg, e []aliasEntry, means []float64, sum float64) float64
//
// Per draw, as pcg.Uint64 and aliasTable.draw in Go:
//   (hi, lo) ← (hi, lo)·m + c mod 2¹²⁸       the PCG state
//   r ← DXSM(hi, lo)                         (hi ⊕ hi≫32)·K, ⊕ ≫48, ·(lo|1)
//   j ← ((r≫32)·n)≫32                        the column
//   out ← j, or e[j].alias if uint32(r) ≥ e[j].thr
//   sum ← sum + means[out]
TEXT ·sumDrawsAsm(SB), NOSPLIT, $0-72
	MOVQ e_base+8(FP), SI
	MOVQ e_len+16(FP), R8
	MOVQ means_base+32(FP), R9
	MOVSD sum+56(FP), X0
	MOVQ st+0(FP), DI
	MOVQ 0(DI), R10 // hi
	MOVQ 8(DI), R11 // lo
	MOVQ $4865540595714422341, R12 // m, low word
	MOVQ $2549297995355413924, R13 // m, high word
	MOVQ $1442695040888963407, R14 // c, low word
	MOVQ $6364136223846793005, R15 // c, high word
	MOVQ $0xda942042e4dd58b5, BX   // DXSM multiplier
	XORQ CX, CX
	TESTQ R8, R8
	JEQ done

loop:
	// The state: hi·mLo + lo·mHi + high(lo·mLo), lo·mLo, plus c.
	IMULQ R12, R10
	MOVQ R11, AX
	IMULQ R13, R11
	MULQ R12
	ADDQ R11, R10
	ADDQ R10, DX
	ADDQ R14, AX
	ADCQ R15, DX
	MOVQ AX, R11
	MOVQ DX, R10

	// The output r (in AX).
	MOVQ DX, AX
	SHRQ $32, AX
	XORQ DX, AX
	IMULQ BX, AX
	MOVQ AX, DX
	SHRQ $48, DX
	XORQ DX, AX
	MOVQ R11, DX
	ORQ $1, DX
	IMULQ DX, AX

	// The column j (DX) and the alias choice.
	MOVQ AX, DX
	SHRQ $32, DX
	IMULQ R8, DX
	SHRQ $32, DX
	MOVL 4(SI)(DX*8), DI
	CMPL AX, 0(SI)(DX*8)
	CMOVLCC DI, DX
	ADDSD 0(R9)(DX*8), X0

	INCQ CX
	CMPQ CX, R8
	JLT loop

done:
	MOVQ st+0(FP), DI
	MOVQ R10, 0(DI)
	MOVQ R11, 8(DI)
	MOVSD X0, ret+64(FP)
	RET

// func sumUniformAsm(st *pcg, means []float64, thresh uint32, sum float64) float64
//
// Per draw, as pcg.Uint64 and Stream.uint32n in Go:
//   (hi, lo) ← (hi, lo)·m + c mod 2¹²⁸; r ← DXSM(hi, lo)
//   x ← uint32(r)·n; again while uint32(x) < thresh
//   sum ← sum + means[x≫32]
TEXT ·sumUniformAsm(SB), NOSPLIT, $0-56
	MOVQ means_base+8(FP), R9
	MOVQ means_len+16(FP), R8
	MOVL thresh+32(FP), SI
	MOVSD sum+40(FP), X0
	MOVQ st+0(FP), DI
	MOVQ 0(DI), R10 // hi
	MOVQ 8(DI), R11 // lo
	MOVQ $4865540595714422341, R12 // m, low word
	MOVQ $2549297995355413924, R13 // m, high word
	MOVQ $1442695040888963407, R14 // c, low word
	MOVQ $6364136223846793005, R15 // c, high word
	MOVQ $0xda942042e4dd58b5, BX   // DXSM multiplier
	XORQ CX, CX
	TESTQ R8, R8
	JEQ udone

uloop:
	IMULQ R12, R10
	MOVQ R11, AX
	IMULQ R13, R11
	MULQ R12
	ADDQ R11, R10
	ADDQ R10, DX
	ADDQ R14, AX
	ADCQ R15, DX
	MOVQ AX, R11
	MOVQ DX, R10

	MOVQ DX, AX
	SHRQ $32, AX
	XORQ DX, AX
	IMULQ BX, AX
	MOVQ AX, DX
	SHRQ $48, DX
	XORQ DX, AX
	MOVQ R11, DX
	ORQ $1, DX
	IMULQ DX, AX

	// x = uint32(r)·n; redraw (a new state) while uint32(x) < thresh.
	MOVL AX, AX
	IMULQ R8, AX
	CMPL AX, SI
	JCS uloop
	SHRQ $32, AX
	ADDSD 0(R9)(AX*8), X0

	INCQ CX
	CMPQ CX, R8
	JLT uloop

udone:
	MOVQ st+0(FP), DI
	MOVQ R10, 0(DI)
	MOVQ R11, 8(DI)
	MOVSD X0, ret+48(FP)
	RET
