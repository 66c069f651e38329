// Register conventions of the draw kernels (draw_amd64.s): the PCG state
// is in R10 (high word) and R11 (low word) for the whole loop; the
// constants are read from pcgConst (mulLo, mulHi, incLo, incHi, the DXSM
// multiplier).

// PCG_NEXT advances the state, (hi, lo) ← (hi, lo)·m + c mod 2¹²⁸, and
// leaves the DXSM output of the new state in AX, as pcg.Uint64 does:
// x = hi ⊕ hi≫32, x ← x·K, x ← x ⊕ x≫48, x ← x·(lo | 1). Clobbers DX.
#define PCG_NEXT \
	MOVQ R11, AX; \
	MULQ ·pcgConst+0(SB); \
	IMULQ ·pcgConst+0(SB), R10; \
	IMULQ ·pcgConst+8(SB), R11; \
	ADDQ R11, R10; \
	ADDQ R10, DX; \
	ADDQ ·pcgConst+16(SB), AX; \
	ADCQ ·pcgConst+24(SB), DX; \
	MOVQ AX, R11; \
	MOVQ DX, R10; \
	MOVQ DX, AX; \
	SHRQ $32, AX; \
	XORQ DX, AX; \
	IMULQ ·pcgConst+32(SB), AX; \
	MOVQ AX, DX; \
	SHRQ $48, DX; \
	XORQ DX, AX; \
	MOVQ R11, DX; \
	ORQ $1, DX; \
	IMULQ DX, AX

// PCG_LOAD reads the state from the *pcg in reg; PCG_STORE writes it back.
#define PCG_LOAD(reg) \
	MOVQ 0(reg), R10; \
	MOVQ 8(reg), R11

#define PCG_STORE(reg) \
	MOVQ R10, 0(reg); \
	MOVQ R11, 8(reg)

// LEMIRE32(n, thresh, again) turns the output in AX into the 32-bit Lemire
// product uint32(AX)·n (in AX, the index in its high word), and jumps to
// again, to draw anew, when its low word is below thresh (Stream.uint32n).
#define LEMIRE32(n, thresh, again) \
	MOVL AX, AX; \
	IMULQ n, AX; \
	CMPL AX, thresh; \
	JCS again

// PCG_RETURN stores the state back into the *pcg argument st and returns.
#define PCG_RETURN \
	MOVQ st+0(FP), AX; \
	PCG_STORE(AX); \
	RET
