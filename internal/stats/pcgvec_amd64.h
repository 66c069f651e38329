// The vector generator of the draw kernels (draw_amd64.s): eight PCG
// states in the lanes of Z16 (high words) and Z17 (low words), lane i
// holding the state k+i+1 steps after a state k; each refill advances every
// lane 8 steps and writes the DXSM outputs of the eight states, in order, to
// the kernel's frame at 0(SP) … 56(SP), where R10 counts those used. The
// outputs are pcg.Uint64's, in its order, so a kernel that takes its
// outputs from VPCG_NEXT instead of PCG_NEXT computes the same values and
// leaves the generator where it did (VPCG_RETURN). Each refill also runs
// the kernel's VIDX, which turns the eight outputs into the draws they give
// when none is rejected (VIDX32, VIDX16), written from 192(SP) on, and sets
// R11 to nonzero when one is: a kernel takes its draws from there while
// R11 is 0 and otherwise draws from the outputs as the scalar kernels do.
// A kernel using it has a frame of 320 bytes, Z8 = n and Z9 = its
// rejection threshold in every lane, and keeps off R10, R11, Z8 … Z31 and
// K1 … K3.
//
// Registers: Z18 … Z22 the 8-step multiplier a⁸ (high word, low word, low
// word ≫ 32) and increment c·(a⁷ + … + 1) (high, low), Z23 the DXSM
// multiplier, Z24 … Z29 scratch, Z30 ones, Z31 0xffffffff in every lane.

// MULHI64(x, y, y1, t0, t1, t2, out): out ← the high 64 bits of the
// 128-bit products x·y, lane by lane, from the four products of 32-bit
// halves (y1 = y≫32): with x = x₁2³² + x₀ and y = y₁2³² + y₀, the middle
// sum m = ⌊x₀y₀/2³²⌋ + (x₀y₁ mod 2³²) + (x₁y₀ mod 2³²) < 3·2³², and the
// high word is x₁y₁ + ⌊x₀y₁/2³²⌋ + ⌊x₁y₀/2³²⌋ + ⌊m/2³²⌋. Clobbers
// t0 … t2 and Z27.
#define MULHI64(x, y, y1, t0, t1, t2, out) \
	VPSRLQ $32, x, t0; \
	VPMULUDQ y, x, t1; \
	VPMULUDQ y1, x, t2; \
	VPMULUDQ y, t0, Z27; \
	VPMULUDQ y1, t0, out; \
	VPSRLQ $32, t1, t1; \
	VPANDQ Z31, t2, t0; \
	VPADDQ t0, t1, t1; \
	VPANDQ Z31, Z27, t0; \
	VPADDQ t0, t1, t1; \
	VPSRLQ $32, t2, t2; \
	VPSRLQ $32, Z27, Z27; \
	VPADDQ t2, out, out; \
	VPADDQ Z27, out, out; \
	VPSRLQ $32, t1, t1; \
	VPADDQ t1, out, out

// VLCG(ah, al, al1, ch, cl): (Z16, Z17) ← (Z16, Z17)·(ah, al) + (ch, cl)
// mod 2¹²⁸ lane by lane (al1 = al≫32), as pcg.next: the low word
// lo·al mod 2⁶⁴ + cl, the high word hi·al + lo·ah + ⌊lo·al/2⁶⁴⌋ + ch +
// the carry of the low word's addition. Clobbers Z24 … Z29 and K1.
#define VLCG(ah, al, al1, ch, cl) \
	MULHI64(Z17, al, al1, Z24, Z25, Z26, Z28); \
	VPMULLQ al, Z16, Z16; \
	VPMULLQ ah, Z17, Z29; \
	VPADDQ Z29, Z16, Z16; \
	VPADDQ Z28, Z16, Z16; \
	VPMULLQ al, Z17, Z17; \
	VPADDQ cl, Z17, Z17; \
	VPCMPUQ $1, cl, Z17, K1; \
	VPADDQ ch, Z16, Z16; \
	VPMOVM2Q K1, Z29; \
	VPSUBQ Z29, Z16, Z16

// VDXSM writes the DXSM outputs of the lanes' states to 0(SP): x = hi ⊕
// hi≫32, x ← x·K, x ← x ⊕ x≫48, x ← x·(lo | 1). Clobbers Z24, Z28, Z29.
#define VDXSM \
	VPSRLQ $32, Z16, Z24; \
	VPXORQ Z16, Z24, Z24; \
	VPMULLQ Z23, Z24, Z24; \
	VPSRLQ $48, Z24, Z29; \
	VPXORQ Z29, Z24, Z24; \
	VPORQ Z30, Z17, Z28; \
	VPMULLQ Z28, Z24, Z24; \
	VMOVDQU64 Z24, 0(SP)

// VPCG_INIT(reg) starts the generator at the *pcg in reg: lane i ←
// the state i+1 steps on (pcgLanes' a^(i+1) and increments), their outputs
// and draws written, none used. Clobbers DX.
#define VPCG_INIT(reg) \
	VPBROADCASTQ 0(reg), Z16; \
	VPBROADCASTQ 8(reg), Z17; \
	MOVQ $0xffffffff, DX; \
	VPBROADCASTQ DX, Z31; \
	MOVQ $1, DX; \
	VPBROADCASTQ DX, Z30; \
	VMOVDQU64 ·pcgLanes+0(SB), Z18; \
	VMOVDQU64 ·pcgLanes+64(SB), Z19; \
	VMOVDQU64 ·pcgLanes+128(SB), Z21; \
	VMOVDQU64 ·pcgLanes+192(SB), Z22; \
	VPSRLQ $32, Z19, Z20; \
	VLCG(Z18, Z19, Z20, Z21, Z22); \
	VPBROADCASTQ ·pcgConst+32(SB), Z23; \
	VDXSM; \
	VIDX; \
	VPBROADCASTQ ·pcgLanes+56(SB), Z18; \
	VPBROADCASTQ ·pcgLanes+120(SB), Z19; \
	VPBROADCASTQ ·pcgLanes+184(SB), Z21; \
	VPBROADCASTQ ·pcgLanes+248(SB), Z22; \
	VPSRLQ $32, Z19, Z20; \
	XORQ R10, R10

// VPCG_NEXT(refill, ok) leaves the next output in AX, refilling (at
// refill, VPCG_REFILL) when all eight are used.
#define VPCG_NEXT(refill, ok) \
	CMPQ R10, $8; \
	JEQ refill; \
ok: \
	MOVQ 0(SP)(R10*8), AX; \
	INCQ R10

// VPCG_REFILL(refill, ok) is VPCG_NEXT's out-of-line refill.
#define VPCG_REFILL(refill, ok) \
refill: \
	VLCG(Z18, Z19, Z20, Z21, Z22); \
	VDXSM; \
	VIDX; \
	XORQ R10, R10; \
	JMP ok

// VPCG_RETURN(skip) stores the state of the last output used into the
// *pcg argument st (the state is unchanged when none was used) and returns.
#define VPCG_RETURN(skip) \
	TESTQ R10, R10; \
	JEQ skip; \
	MOVQ st+0(FP), AX; \
	VMOVDQU64 Z16, 64(SP); \
	VMOVDQU64 Z17, 128(SP); \
	MOVQ 56(SP)(R10*8), DX; \
	MOVQ DX, 0(AX); \
	MOVQ 120(SP)(R10*8), DX; \
	MOVQ DX, 8(AX); \
skip: \
	VZEROUPPER; \
	RET

// VREDRAW is REDRAW on the vector generator (n, f: VPCG_NEXT's labels;
// it holds its own refill).
#define VREDRAW(retry, ok, n, f) \
retry: \
	VPCG_NEXT(n, f); \
	LEMIRE32(R8, R14, retry); \
	JMP ok; \
	VPCG_REFILL(n, f)

// VIDX32 is the VIDX of the 32-bit draws (PAIR, SINGLE): for each output
// x, the Lemire products of its low and high words, uint32(x)·n and
// (x≫32)·n, whose high words are the draws (at 192(SP) and 224(SP), 32
// bits each) and whose low words below the threshold Z9 reject them.
#define VIDX32 \
	VPMULUDQ Z8, Z24, Z10; \
	VPSRLQ $32, Z24, Z11; \
	VPMULUDQ Z8, Z11, Z11; \
	VPANDQ Z31, Z10, Z12; \
	VPCMPUQ $1, Z9, Z12, K2; \
	VPANDQ Z31, Z11, Z13; \
	VPCMPUQ $1, Z9, Z13, K3; \
	KORW K2, K3, K2; \
	KMOVW K2, R11; \
	VPSRLQ $32, Z10, Z10; \
	VPMOVQD Z10, Y12; \
	VMOVDQU Y12, 192(SP); \
	VPSRLQ $32, Z11, Z11; \
	VPMOVQD Z11, Y13; \
	VMOVDQU Y13, 224(SP)

// FCHECK(n, f, slow) is the start of a draw from the next output: a refill
// (at n, VPCG_REFILL) when the eight are used, then to slow when the
// block has a rejected draw.
#define FCHECK(n, f, slow) \
	CMPQ R10, $8; \
	JEQ n; \
f: \
	TESTQ R11, R11; \
	JNE slow

// FPAIR(n, f, slow, done) is PAIR from VIDX32's draws: the first index in
// R15, the second in AX; FPAIR_SLOW is its out-of-line path, PAIR on the
// output itself (its redraws VREDRAW at retry0 and retry1).
#define FPAIR(n, f, slow, done) \
	FCHECK(n, f, slow); \
	MOVL 192(SP)(R10*4), R15; \
	MOVL 224(SP)(R10*4), AX; \
	INCQ R10; \
done:

#define FPAIR_SLOW(slow, done, retry0, ok0, retry1, ok1) \
slow: \
	MOVQ 0(SP)(R10*8), AX; \
	INCQ R10; \
	SPLIT_PAIR(retry0, ok0, retry1, ok1); \
	JMP done

// FSINGLE(n, f, slow, done) is SINGLE from VIDX32's draws (the index in
// AX); FSINGLE_SLOW its out-of-line path, SINGLE on the output itself and,
// while rejected, on the next ones (at again; n2, f2 its refill).
#define FSINGLE(n, f, slow, done) \
	FCHECK(n, f, slow); \
	MOVL 192(SP)(R10*4), AX; \
	INCQ R10; \
done:

#define FSINGLE_SLOW(slow, done, again, n2, f2) \
slow: \
	MOVQ 0(SP)(R10*8), AX; \
	INCQ R10; \
	LEMIRE32(R8, R14, again); \
	SHRQ $32, AX; \
	JMP done; \
	VREDRAW_INDEX(again, done, n2, f2)

// VREDRAW_INDEX(retry, ok, n, f) draws one index into AX from the low 32
// bits of the next outputs until one is accepted (Stream.uint32n), then
// jumps to ok; n, f are its VPCG_NEXT's labels, and it holds that refill.
#define VREDRAW_INDEX(retry, ok, n, f) \
retry: \
	VPCG_NEXT(n, f); \
	LEMIRE32(R8, R14, retry); \
	SHRQ $32, AX; \
	JMP ok; \
	VPCG_REFILL(n, f)

// VIDX16 is the VIDX of sharedVecAsm's 16-bit draws (PART16): for each
// output x and each of its four 16-bit parts p (low to high), the product
// p·n, whose bits 16 … 31 are the draw (at 192(SP), 224(SP), 256(SP) and
// 288(SP) for the four parts, 32 bits each) and whose low 16 bits below
// the threshold Z9 reject it. Z14 holds 0xffff in every lane.
#define VIDX16 \
	KXORW K2, K2, K2; \
	VIDX16PART(0, 192); \
	VIDX16PART(16, 224); \
	VIDX16PART(32, 256); \
	VIDX16PART(48, 288); \
	KMOVW K2, R11

#define VIDX16PART(shift, off) \
	VPSRLQ $shift, Z24, Z10; \
	VPANDQ Z14, Z10, Z10; \
	VPMULUDQ Z8, Z10, Z10; \
	VPANDQ Z14, Z10, Z11; \
	VPCMPUQ $1, Z9, Z11, K3; \
	KORW K3, K2, K2; \
	VPSRLQ $16, Z10, Z10; \
	VPMOVQD Z10, Y12; \
	VMOVDQU Y12, off(SP)
