// The flat bootstrap's kernels (draw_amd64.s) are written once each, as
// MEANS_KERNEL, COUNTS_KERNEL and TSUMS_KERNEL, and built twice: on the
// scalar generator (PCG_NEXT, PAIR, SINGLE) and on the vector one
// (pcgvec_amd64.h: FPAIR, FSINGLE).
// Each build defines, before it, K_INIT (start the generator at the *pcg
// in AX), K_PAIR and K_SINGLE (a pair of draws into R15 and AX, one
// draw into AX; K_SINGLE2 is a second site of K_SINGLE with its own
// labels) and K_END (store the generator, return, and the out-of-line
// paths), and passes its labels. The arithmetic is VEX-encoded (AVX):
// legacy SSE after the vector generator's AVX-512 cost the t kernel a
// quarter of its speed.

// MEANS_KERNEL: resampleMeans, for each dst[b], len(x) draws, two per
// output (K_PAIR), alternately into s0 and s1, one more (K_SINGLE) into s0
// when len(x) is odd; dst[b] = (s0 + s1)/len(x).
#define MEANS_KERNEL(res, pair, tail, store, done) \
	MOVQ x_base+8(FP), SI; \
	MOVQ x_len+16(FP), R8; \
	MOVQ dst_base+32(FP), DI; \
	MOVQ dst_len+40(FP), R9; \
	MOVL thresh+56(FP), R14; \
	VCVTSI2SDQ R8, X2, X2; \
	MOVQ R8, R13; \
	SHRQ $1, R13; \
	MOVQ st+0(FP), AX; \
	K_INIT; \
	XORQ CX, CX; \
	TESTQ R9, R9; \
	JEQ done; \
res: \
	VXORPS X0, X0, X0; \
	VXORPS X1, X1, X1; \
	XORQ BX, BX; \
	TESTQ R13, R13; \
	JEQ tail; \
pair: \
	K_PAIR; \
	VADDSD 0(SI)(R15*8), X0, X0; \
	VADDSD 0(SI)(AX*8), X1, X1; \
	INCQ BX; \
	CMPQ BX, R13; \
	JLT pair; \
tail: \
	BTQ $0, R8; \
	JCC store; \
	K_SINGLE; \
	VADDSD 0(SI)(AX*8), X0, X0; \
store: \
	VADDSD X1, X0, X0; \
	VDIVSD X2, X0, X0; \
	VMOVSD X0, 0(DI)(CX*8); \
	INCQ CX; \
	CMPQ CX, R9; \
	JLT res; \
done: \
	K_END

// COUNTS_KERNEL: resampleMedians' draws for len(counts)/n resamples, each
// counting in its row of n counts (zero on entry): n draws as in
// MEANS_KERNEL, each adding 1 to its count.
#define COUNTS_KERNEL(res, pair, tail, next, done) \
	MOVQ counts_base+8(FP), SI; \
	MOVQ counts_len+16(FP), AX; \
	MOVQ n+32(FP), R8; \
	MOVL thresh+40(FP), R14; \
	XORQ DX, DX; \
	DIVQ R8; \
	MOVQ AX, DI; \
	MOVQ R8, R13; \
	SHRQ $1, R13; \
	MOVQ st+0(FP), AX; \
	K_INIT; \
	XORQ CX, CX; \
	TESTQ DI, DI; \
	JEQ done; \
res: \
	XORQ BX, BX; \
	TESTQ R13, R13; \
	JEQ tail; \
pair: \
	K_PAIR; \
	INCL 0(SI)(R15*4); \
	INCL 0(SI)(AX*4); \
	INCQ BX; \
	CMPQ BX, R13; \
	JLT pair; \
tail: \
	BTQ $0, R8; \
	JCC next; \
	K_SINGLE; \
	INCL 0(SI)(AX*4); \
next: \
	LEAQ 0(SI)(R8*4), SI; \
	INCQ CX; \
	CMPQ CX, DI; \
	JLT res; \
done: \
	K_END

// TSUMS_KERNEL: resampleT's draws for len(s) resamples: a first draw v
// (K_SINGLE), s0 = v, q0 = v·v; then (len(x)−1)/2 pairs (K_PAIR) into
// (s0, q0) and (s1, q1); one more (K_SINGLE2) into (s0, q0) when len(x)
// is even. diff ORs each value's bits XOR the first's. s[b] = s0 + s1,
// q[b] = q0 + q1, diff[b] = the OR.
#define TSUMS_KERNEL(res, pair, tail, store, done) \
	MOVQ x_base+8(FP), SI; \
	MOVQ x_len+16(FP), R8; \
	MOVL thresh+32(FP), R14; \
	MOVQ s_len+48(FP), R9; \
	LEAQ -1(R8), DI; \
	SHRQ $1, DI; \
	MOVQ st+0(FP), AX; \
	K_INIT; \
	XORQ CX, CX; \
	TESTQ R9, R9; \
	JEQ done; \
res: \
	K_SINGLE; \
	VMOVSD 0(SI)(AX*8), X0; \
	VMOVQ X0, R13; \
	VMULSD X0, X0, X2; \
	VXORPS X1, X1, X1; \
	VXORPS X3, X3, X3; \
	XORQ R12, R12; \
	XORQ BX, BX; \
	TESTQ DI, DI; \
	JEQ tail; \
pair: \
	K_PAIR; \
	VMOVSD 0(SI)(R15*8), X4; \
	VMOVSD 0(SI)(AX*8), X5; \
	VMOVQ X4, AX; \
	XORQ R13, AX; \
	ORQ AX, R12; \
	VMOVQ X5, AX; \
	XORQ R13, AX; \
	ORQ AX, R12; \
	VADDSD X4, X0, X0; \
	VADDSD X5, X1, X1; \
	VMULSD X4, X4, X4; \
	VMULSD X5, X5, X5; \
	VADDSD X4, X2, X2; \
	VADDSD X5, X3, X3; \
	INCQ BX; \
	CMPQ BX, DI; \
	JLT pair; \
tail: \
	BTQ $0, R8; \
	JCS store; \
	K_SINGLE2; \
	VMOVSD 0(SI)(AX*8), X4; \
	VMOVQ X4, AX; \
	XORQ R13, AX; \
	ORQ AX, R12; \
	VADDSD X4, X0, X0; \
	VMULSD X4, X4, X4; \
	VADDSD X4, X2, X2; \
store: \
	VADDSD X1, X0, X0; \
	VADDSD X3, X2, X2; \
	MOVQ s_base+40(FP), DX; \
	VMOVSD X0, 0(DX)(CX*8); \
	MOVQ q_base+64(FP), DX; \
	VMOVSD X2, 0(DX)(CX*8); \
	MOVQ diff_base+88(FP), DX; \
	MOVQ R12, 0(DX)(CX*8); \
	INCQ CX; \
	CMPQ CX, R9; \
	JLT res; \
done: \
	K_END

