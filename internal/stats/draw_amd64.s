//go:build amd64 && !purego

#include "textflag.h"
#include "pcg_amd64.h"

// func sumDrawsAsm(st *pcg, e []aliasEntry, means []float64, sum float64) float64
//
// Per draw, as pcg.Uint64 and aliasTable.draw in Go: r ← the next output;
// j ← ((r≫32)·n)≫32; out ← j, or e[j].alias if uint32(r) ≥ e[j].thr;
// sum ← sum + means[out].
TEXT ·sumDrawsAsm(SB), NOSPLIT, $0-72
	MOVQ e_base+8(FP), SI
	MOVQ e_len+16(FP), R8
	MOVQ means_base+32(FP), R9
	MOVSD sum+56(FP), X0
	MOVQ st+0(FP), DI
	PCG_LOAD(DI)
	XORQ CX, CX
	TESTQ R8, R8
	JEQ done

loop:
	PCG_NEXT
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
	PCG_STORE(DI)
	MOVSD X0, ret+64(FP)
	RET

// func sumUniformAsm(st *pcg, means []float64, thresh uint32, sum float64) float64
//
// Per draw, as Stream.uint32n in Go: x ← uint32(next output)·n, drawn
// again while uint32(x) < thresh; sum ← sum + means[x≫32].
TEXT ·sumUniformAsm(SB), NOSPLIT, $0-56
	MOVQ means_base+8(FP), R9
	MOVQ means_len+16(FP), R8
	MOVL thresh+32(FP), SI
	MOVSD sum+40(FP), X0
	MOVQ st+0(FP), DI
	PCG_LOAD(DI)
	XORQ CX, CX
	TESTQ R8, R8
	JEQ udone

uloop:
	PCG_NEXT
	LEMIRE32(R8, SI, uloop)
	SHRQ $32, AX
	ADDSD 0(R9)(AX*8), X0
	INCQ CX
	CMPQ CX, R8
	JLT uloop

udone:
	MOVQ st+0(FP), DI
	PCG_STORE(DI)
	MOVSD X0, ret+48(FP)
	RET

// func meansAsm(st *pcg, x []float64, dst []float64, thresh uint32)
//
// resampleMeans: for each dst[b], len(x) draws, two per output (the low
// and the high 32 bits, each a Lemire product redrawn from fresh outputs
// while its low word is below thresh), alternately into s0 and s1, one
// more into s0 when len(x) is odd; dst[b] = (s0 + s1)/len(x).
TEXT ·meansAsm(SB), NOSPLIT, $0-60
	MOVQ x_base+8(FP), SI
	MOVQ x_len+16(FP), R8
	MOVQ dst_base+32(FP), DI
	MOVQ dst_len+40(FP), R9
	MOVL thresh+56(FP), R14
	CVTSQ2SD R8, X2
	MOVQ R8, R13
	SHRQ $1, R13
	MOVQ st+0(FP), AX
	PCG_LOAD(AX)
	XORQ CX, CX
	TESTQ R9, R9
	JEQ mdone

mres:
	XORPS X0, X0
	XORPS X1, X1
	XORQ BX, BX
	TESTQ R13, R13
	JEQ mtail

mpair:
	PCG_NEXT
	MOVQ AX, R15
	LEMIRE32(R8, R14, mretry0)
mok0:
	SHRQ $32, AX
	ADDSD 0(SI)(AX*8), X0
	MOVQ R15, AX
	SHRQ $32, AX
	LEMIRE32(R8, R14, mretry1)
mok1:
	SHRQ $32, AX
	ADDSD 0(SI)(AX*8), X1
	INCQ BX
	CMPQ BX, R13
	JLT mpair

mtail:
	BTQ $0, R8
	JCC mstore
mtail1:
	PCG_NEXT
	LEMIRE32(R8, R14, mtail1)
	SHRQ $32, AX
	ADDSD 0(SI)(AX*8), X0

mstore:
	ADDSD X1, X0
	DIVSD X2, X0
	MOVSD X0, 0(DI)(CX*8)
	INCQ CX
	CMPQ CX, R9
	JLT mres

mdone:
	MOVQ st+0(FP), AX
	PCG_STORE(AX)
	RET

mretry0:
	PCG_NEXT
	LEMIRE32(R8, R14, mretry0)
	JMP mok0

mretry1:
	PCG_NEXT
	LEMIRE32(R8, R14, mretry1)
	JMP mok1

// func countsAsm(st *pcg, counts []int32, thresh uint32)
//
// resampleMedians' draws for one resample: len(counts) draws, two per
// output as in meansAsm, one more when len(counts) is odd, each adding 1
// to counts[draw].
TEXT ·countsAsm(SB), NOSPLIT, $0-36
	MOVQ counts_base+8(FP), SI
	MOVQ counts_len+16(FP), R8
	MOVL thresh+32(FP), R14
	MOVQ R8, R13
	SHRQ $1, R13
	MOVQ st+0(FP), AX
	PCG_LOAD(AX)
	XORQ BX, BX
	TESTQ R13, R13
	JEQ ctail

cpair:
	PCG_NEXT
	MOVQ AX, R15
	LEMIRE32(R8, R14, cretry0)
cok0:
	SHRQ $32, AX
	INCL 0(SI)(AX*4)
	MOVQ R15, AX
	SHRQ $32, AX
	LEMIRE32(R8, R14, cretry1)
cok1:
	SHRQ $32, AX
	INCL 0(SI)(AX*4)
	INCQ BX
	CMPQ BX, R13
	JLT cpair

ctail:
	BTQ $0, R8
	JCC cdone
ctail1:
	PCG_NEXT
	LEMIRE32(R8, R14, ctail1)
	SHRQ $32, AX
	INCL 0(SI)(AX*4)

cdone:
	MOVQ st+0(FP), AX
	PCG_STORE(AX)
	RET

cretry0:
	PCG_NEXT
	LEMIRE32(R8, R14, cretry0)
	JMP cok0

cretry1:
	PCG_NEXT
	LEMIRE32(R8, R14, cretry1)
	JMP cok1

// func tSumsAsm(st *pcg, x []float64, thresh uint32, s, q []float64, diff []uint64)
//
// resampleT's draws for len(s) resamples: a first draw v (one output, its
// low 32 bits), s0 = v, q0 = v·v; then (len(x)−1)/2 pairs as in meansAsm
// into (s0, q0) and (s1, q1); one more into (s0, q0) when len(x) is even.
// diff ORs each value's bits XOR the first's. s[b] = s0 + s1,
// q[b] = q0 + q1, diff[b] = the OR.
TEXT ·tSumsAsm(SB), NOSPLIT, $0-112
	MOVQ x_base+8(FP), SI
	MOVQ x_len+16(FP), R8
	MOVL thresh+32(FP), R14
	MOVQ s_len+48(FP), R9
	LEAQ -1(R8), DI
	SHRQ $1, DI
	MOVQ st+0(FP), AX
	PCG_LOAD(AX)
	XORQ CX, CX
	TESTQ R9, R9
	JEQ tdone

tres:
	PCG_NEXT
	LEMIRE32(R8, R14, tres)
	SHRQ $32, AX
	MOVSD 0(SI)(AX*8), X0
	MOVQ X0, R13
	MOVSD X0, X2
	MULSD X2, X2
	XORPS X1, X1
	XORPS X3, X3
	XORQ R12, R12
	XORQ BX, BX
	TESTQ DI, DI
	JEQ ttail

tpair:
	PCG_NEXT
	MOVQ AX, R15
	LEMIRE32(R8, R14, tretry0)
tok0:
	SHRQ $32, AX
	MOVSD 0(SI)(AX*8), X4
	MOVQ R15, AX
	SHRQ $32, AX
	LEMIRE32(R8, R14, tretry1)
tok1:
	SHRQ $32, AX
	MOVSD 0(SI)(AX*8), X5
	MOVQ X4, AX
	XORQ R13, AX
	ORQ AX, R12
	MOVQ X5, AX
	XORQ R13, AX
	ORQ AX, R12
	ADDSD X4, X0
	ADDSD X5, X1
	MULSD X4, X4
	MULSD X5, X5
	ADDSD X4, X2
	ADDSD X5, X3
	INCQ BX
	CMPQ BX, DI
	JLT tpair

ttail:
	BTQ $0, R8
	JCS tstore
ttail1:
	PCG_NEXT
	LEMIRE32(R8, R14, ttail1)
	SHRQ $32, AX
	MOVSD 0(SI)(AX*8), X4
	MOVQ X4, AX
	XORQ R13, AX
	ORQ AX, R12
	ADDSD X4, X0
	MULSD X4, X4
	ADDSD X4, X2

tstore:
	ADDSD X1, X0
	ADDSD X3, X2
	MOVQ s_base+40(FP), DX
	MOVSD X0, 0(DX)(CX*8)
	MOVQ q_base+64(FP), DX
	MOVSD X2, 0(DX)(CX*8)
	MOVQ diff_base+88(FP), DX
	MOVQ R12, 0(DX)(CX*8)
	INCQ CX
	CMPQ CX, R9
	JLT tres

tdone:
	MOVQ st+0(FP), AX
	PCG_STORE(AX)
	RET

tretry0:
	PCG_NEXT
	LEMIRE32(R8, R14, tretry0)
	JMP tok0

tretry1:
	PCG_NEXT
	LEMIRE32(R8, R14, tretry1)
	JMP tok1
