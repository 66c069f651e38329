//go:build amd64 && !purego

#include "textflag.h"
#include "pcg_amd64.h"
#include "pcgvec_amd64.h"
#include "kernels_amd64.h"

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
	MOVSD X0, ret+64(FP)
	PCG_RETURN

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
	MOVSD X0, ret+48(FP)
	PCG_RETURN

// The flat bootstrap's kernels below share these registers: R8 holds n,
// R14 the Lemire threshold 2³² mod n, R15 an output being split.

// PAIR(retry0, ok0, retry1, ok1) draws two indices from the next output,
// as the Go loops do: its low 32 bits, then its high 32 bits, each a
// Lemire product redrawn (REDRAW at retry0, retry1) from fresh outputs
// while rejected. The first index is left in R15, the second in AX.
// SPLIT_PAIR is its part after the output is in AX.
#define PAIR(retry0, ok0, retry1, ok1) \
	PCG_NEXT; \
	SPLIT_PAIR(retry0, ok0, retry1, ok1)

#define SPLIT_PAIR(retry0, ok0, retry1, ok1) \
	MOVQ AX, R15; \
	LEMIRE32(R8, R14, retry0); \
ok0: \
	SHRQ $32, AX; \
	XCHGQ AX, R15; \
	SHRQ $32, AX; \
	LEMIRE32(R8, R14, retry1); \
ok1: \
	SHRQ $32, AX

// REDRAW(retry, ok) is PAIR's out-of-line redraw.
#define REDRAW(retry, ok) \
retry: \
	PCG_NEXT; \
	LEMIRE32(R8, R14, retry); \
	JMP ok

// SINGLE(again) draws one index into AX from the low 32 bits of the next
// output (Stream.uint32n).
#define SINGLE(again) \
again: \
	PCG_NEXT; \
	LEMIRE32(R8, R14, again); \
	SHRQ $32, AX

// The builds on the scalar generator.
#define K_INIT PCG_LOAD(AX)

// func meansAsm(st *pcg, x []float64, dst []float64, thresh uint32)
#define K_PAIR PAIR(mretry0, mok0, mretry1, mok1)
#define K_SINGLE SINGLE(mtail1)
#define K_END PCG_RETURN; REDRAW(mretry0, mok0); REDRAW(mretry1, mok1)
TEXT ·meansAsm(SB), NOSPLIT, $0-60
	MEANS_KERNEL(mres, mpair, mtail, mstore, mdone)
#undef K_PAIR
#undef K_SINGLE
#undef K_END

// func countsAsm(st *pcg, counts []int32, n int, thresh uint32)
#define K_PAIR PAIR(cretry0, cok0, cretry1, cok1)
#define K_SINGLE SINGLE(ctail1)
#define K_END PCG_RETURN; REDRAW(cretry0, cok0); REDRAW(cretry1, cok1)
TEXT ·countsAsm(SB), NOSPLIT, $0-44
	COUNTS_KERNEL(cres, cpair, ctail, cnext, cdone)
#undef K_PAIR
#undef K_SINGLE
#undef K_END

// func tSumsAsm(st *pcg, x []float64, thresh uint32, s, q []float64, diff []uint64)
#define K_PAIR PAIR(tretry0, tok0, tretry1, tok1)
#define K_SINGLE SINGLE(tfirst)
#define K_SINGLE2 SINGLE(ttail1)
#define K_END PCG_RETURN; REDRAW(tretry0, tok0); REDRAW(tretry1, tok1)
TEXT ·tSumsAsm(SB), NOSPLIT, $0-112
	TSUMS_KERNEL(tres, tpair, ttail, tstore, tdone)
#undef K_PAIR
#undef K_SINGLE
#undef K_SINGLE2
#undef K_END
#undef K_INIT

// The shared kernel below keeps, besides R8 (n), R14 (the 32-bit Lemire
// threshold of the redraws) and R15 (the output being split): SI sorted,
// DI centred, R9 counts, R12 the 16-bit threshold, BX the draw index i,
// CX diff, R13 the first value's bits, and the sums in X0 … X5.

// PART16(retry, ok) draws one index into AX from the low 16 bits of R15,
// as resampleShared's index does (shifting R15 on to the next part): the
// product p = part·n, redrawn as one unbiased 32-bit draw (REDRAW at
// retry, REDRAW16) when p mod 2¹⁶ < R12; the index is p≫16.
#define PART16(retry, ok) \
	MOVWQZX R15, AX; \
	SHRQ $16, R15; \
	IMULQ R8, AX; \
	MOVWQZX AX, DX; \
	CMPQ DX, R12; \
	JCS retry; \
	SHRQ $16, AX; \
ok:

// REDRAW16(retry, ok) is PART16's out-of-line redraw (Stream.uint32n):
// the index, the high word of the accepted product, is left in AX.
#define REDRAW16(retry, ok) \
retry: \
	PCG_NEXT; \
	LEMIRE32(R8, R14, retry); \
	SHRQ $32, AX; \
	JMP ok

// SHARED_ADD(s, c, q) adds the draw in AX: s += sorted[j], c += centred[j],
// q += centred[j]², counts[j]++, diff |= bits(centred[j]) ⊕ first.
#define SHARED_ADD(s, c, q) \
	MOVSD 0(SI)(AX*8), X6; \
	MOVSD 0(DI)(AX*8), X7; \
	INCL 0(R9)(AX*4); \
	MOVQ X7, DX; \
	XORQ R13, DX; \
	ORQ DX, CX; \
	ADDSD X6, s; \
	ADDSD X7, c; \
	MULSD X7, X7; \
	ADDSD X7, q

// FIRST(skip) sets R13 to the bits of centred[AX] when BX (i) is 0.
#define FIRST(skip) \
	TESTQ BX, BX; \
	JNE skip; \
	MOVQ 0(DI)(AX*8), R13; \
skip:

// func sharedAsm(st *pcg, sorted, centred []float64, counts []int32, thresh16 uint64, thresh32 uint32) (s, c, q float64, diff uint64)
//
// One resample of resampleSharedGo: len(sorted) draws, four per output
// (PART16), the first and third of each four into (X0, X2, X4), the second
// and fourth into (X1, X3, X5), the last len(sorted) mod 4 from one more
// output into (X0, X2, X4); s, c and q are the two sums of each added.
TEXT ·sharedAsm(SB), NOSPLIT, $0-128
	MOVQ sorted_base+8(FP), SI
	MOVQ sorted_len+16(FP), R8
	MOVQ centred_base+32(FP), DI
	MOVQ counts_base+56(FP), R9
	MOVQ thresh16+80(FP), R12
	MOVL thresh32+88(FP), R14
	MOVQ st+0(FP), AX
	PCG_LOAD(AX)
	XORPS X0, X0
	XORPS X1, X1
	XORPS X2, X2
	XORPS X3, X3
	XORPS X4, X4
	XORPS X5, X5
	XORQ CX, CX
	XORQ R13, R13
	XORQ BX, BX

sgroup:
	LEAQ 4(BX), DX
	CMPQ DX, R8
	JHI stail
	PCG_NEXT
	MOVQ AX, R15
	PART16(sretry0, sok0)
	FIRST(sfirst)
	SHARED_ADD(X0, X2, X4)
	PART16(sretry1, sok1)
	SHARED_ADD(X1, X3, X5)
	PART16(sretry2, sok2)
	SHARED_ADD(X0, X2, X4)
	PART16(sretry3, sok3)
	SHARED_ADD(X1, X3, X5)
	ADDQ $4, BX
	JMP sgroup

stail:
	CMPQ BX, R8
	JCC sdone
	PCG_NEXT
	MOVQ AX, R15

stloop:
	PART16(sretryt, sokt)
	FIRST(sfirstt)
	SHARED_ADD(X0, X2, X4)
	INCQ BX
	CMPQ BX, R8
	JCS stloop

sdone:
	ADDSD X1, X0
	ADDSD X3, X2
	ADDSD X5, X4
	MOVSD X0, s+96(FP)
	MOVSD X2, c+104(FP)
	MOVSD X4, q+112(FP)
	MOVQ CX, diff+120(FP)
	PCG_RETURN
	REDRAW16(sretry0, sok0)
	REDRAW16(sretry1, sok1)
	REDRAW16(sretry2, sok2)
	REDRAW16(sretry3, sok3)
	REDRAW16(sretryt, sokt)

// SHARED_VADD(acc) adds the record of the draw in AX to acc (Y0 or Y1):
// acc += rec[AX] = (sorted, centred, centred², 0), lane by lane, and
// counts[AX]++.
#define SHARED_VADD(acc) \
	MOVQ AX, DX; \
	SHLQ $5, DX; \
	VADDPD 0(SI)(DX*1), acc, acc; \
	INCL 0(R9)(AX*4)

// FIRSTINDEX(skip) sets R13 to the draw in AX when BX (i) is 0.
#define FIRSTINDEX(skip) \
	TESTQ BX, BX; \
	JNE skip; \
	MOVQ AX, R13; \
skip:

// func sharedVecAsm(st *pcg, rec []float64, counts []int32, n int, thresh16 uint64, thresh32 uint32, s, c, q []float64, first []uint64)
//
// len(s) resamples of sharedAsm, the three sums of each in the lanes of two
// AVX accumulators: the draws (PART16, the same as sharedAsm's) index
// 32-byte records rec[4j … 4j+3] = (sorted[j], centred[j], centred[j]², 0),
// the first and third of each four added into Y0, the second and fourth
// into Y1, the last n mod 4 into Y0. Lane by lane these are sharedAsm's
// additions in its order (the square is the product sharedAsm computes),
// so s[b], c[b] and q[b] have its bits. Resample b counts its draws in
// counts[b·n … b·n+n−1] (zero on entry); instead of diff it gives its
// first draw, first[b]. The outputs come from the vector generator
// (pcgvec_amd64.h), the draws from VIDX16 while no draw of the eight
// outputs is rejected.
#define VIDX VIDX16
TEXT ·sharedVecAsm(SB), NOSPLIT, $320-176
	MOVQ rec_base+8(FP), SI
	MOVQ counts_base+32(FP), R9
	MOVQ n+56(FP), R8
	MOVQ thresh16+64(FP), R12
	MOVL thresh32+72(FP), R14
	MOVQ s_len+88(FP), DI
	VPBROADCASTQ R8, Z8
	VPBROADCASTQ R12, Z9
	MOVQ $0xffff, DX
	VPBROADCASTQ DX, Z14
	MOVQ st+0(FP), AX
	VPCG_INIT(AX)
	XORQ CX, CX
	TESTQ DI, DI
	JEQ vdone

vres:
	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	XORQ R13, R13
	XORQ BX, BX

vgroup:
	LEAQ 4(BX), DX
	CMPQ DX, R8
	JHI vtail
	FCHECK(vn0, vf0, vs0)
	MOVL 192(SP)(R10*4), AX
	FIRSTINDEX(vfirst)
	SHARED_VADD(Y0)
	MOVL 224(SP)(R10*4), AX
	SHARED_VADD(Y1)
	MOVL 256(SP)(R10*4), AX
	SHARED_VADD(Y0)
	MOVL 288(SP)(R10*4), AX
	SHARED_VADD(Y1)
	INCQ R10
vd0:
	ADDQ $4, BX
	JMP vgroup

vtail:
	CMPQ BX, R8
	JCC vstore
	VPCG_NEXT(vn1, vf1)
	MOVQ AX, R15

vtloop:
	PART16(vretryt, vokt)
	FIRSTINDEX(vfirstt)
	SHARED_VADD(Y0)
	INCQ BX
	CMPQ BX, R8
	JCS vtloop

vstore:
	VADDPD Y1, Y0, Y2
	VEXTRACTF128 $1, Y2, X3
	MOVQ s_base+80(FP), DX
	VMOVSD X2, 0(DX)(CX*8)
	MOVQ c_base+104(FP), DX
	VMOVHPD X2, 0(DX)(CX*8)
	MOVQ q_base+128(FP), DX
	VMOVSD X3, 0(DX)(CX*8)
	MOVQ first_base+152(FP), DX
	MOVQ R13, 0(DX)(CX*8)
	LEAQ 0(R9)(R8*4), R9
	INCQ CX
	CMPQ CX, DI
	JLT vres

vdone:
	VPCG_RETURN(vskip)
	VPCG_REFILL(vn0, vf0)
	VPCG_REFILL(vn1, vf1)

vs0:
	// a block with a rejected draw: PART16 on the output itself
	MOVQ 0(SP)(R10*8), AX
	INCQ R10
	MOVQ AX, R15
	PART16(vretry0, vok0)
	FIRSTINDEX(vfirsts)
	SHARED_VADD(Y0)
	PART16(vretry1, vok1)
	SHARED_VADD(Y1)
	PART16(vretry2, vok2)
	SHARED_VADD(Y0)
	PART16(vretry3, vok3)
	SHARED_VADD(Y1)
	JMP vd0
	VREDRAW_INDEX(vretry0, vok0, vn2, vf2)
	VREDRAW_INDEX(vretry1, vok1, vn3, vf3)
	VREDRAW_INDEX(vretry2, vok2, vn4, vf4)
	VREDRAW_INDEX(vretry3, vok3, vn5, vf5)
	VREDRAW_INDEX(vretryt, vokt, vn6, vf6)
#undef VIDX

// The builds on the vector generator (pcgvec_amd64.h), taking their
// draws from VIDX32 while no draw of a block is rejected.
#define VIDX VIDX32
#define K_INIT VPBROADCASTQ R8, Z8; VPBROADCASTQ R14, Z9; VPCG_INIT(AX)

// func tSumsVecAsm(st *pcg, x []float64, thresh uint32, s, q []float64, diff []uint64)
#define K_PAIR FPAIR(vtn1, vtf1, vts1, vtd1)
#define K_SINGLE FSINGLE(vtn0, vtf0, vts0, vtd0)
#define K_SINGLE2 FSINGLE(vtn2, vtf2, vts2, vtd2)
#define K_END VPCG_RETURN(vtskip); VPCG_REFILL(vtn0, vtf0); VPCG_REFILL(vtn1, vtf1); VPCG_REFILL(vtn2, vtf2); FSINGLE_SLOW(vts0, vtd0, vtagain0, vtn3, vtf3); FSINGLE_SLOW(vts2, vtd2, vtagain2, vtn4, vtf4); FPAIR_SLOW(vts1, vtd1, vtretry0, vtok0, vtretry1, vtok1); VREDRAW(vtretry0, vtok0, vtn5, vtf5); VREDRAW(vtretry1, vtok1, vtn6, vtf6)
TEXT ·tSumsVecAsm(SB), NOSPLIT, $320-112
	TSUMS_KERNEL(vtres, vtpair, vttail, vtstore, vtdone)
#undef K_PAIR
#undef K_SINGLE
#undef K_SINGLE2
#undef K_END

// func meansVecAsm(st *pcg, x []float64, dst []float64, thresh uint32)
#define K_PAIR FPAIR(vmn0, vmf0, vms0, vmd0)
#define K_SINGLE FSINGLE(vmn1, vmf1, vms1, vmd1)
#define K_END VPCG_RETURN(vmskip); VPCG_REFILL(vmn0, vmf0); VPCG_REFILL(vmn1, vmf1); FPAIR_SLOW(vms0, vmd0, vmretry0, vmok0, vmretry1, vmok1); FSINGLE_SLOW(vms1, vmd1, vmagain1, vmn4, vmf4); VREDRAW(vmretry0, vmok0, vmn2, vmf2); VREDRAW(vmretry1, vmok1, vmn3, vmf3)
TEXT ·meansVecAsm(SB), NOSPLIT, $320-60
	MEANS_KERNEL(vmres, vmpair, vmtail, vmstore, vmdone)
#undef K_PAIR
#undef K_SINGLE
#undef K_END

// func countsVecAsm(st *pcg, counts []int32, n int, thresh uint32)
#define K_PAIR FPAIR(vcn0, vcf0, vcs0, vcd0)
#define K_SINGLE FSINGLE(vcn1, vcf1, vcs1, vcd1)
#define K_END VPCG_RETURN(vcskip); VPCG_REFILL(vcn0, vcf0); VPCG_REFILL(vcn1, vcf1); FPAIR_SLOW(vcs0, vcd0, vcretry0, vcok0, vcretry1, vcok1); FSINGLE_SLOW(vcs1, vcd1, vcagain1, vcn4, vcf4); VREDRAW(vcretry0, vcok0, vcn2, vcf2); VREDRAW(vcretry1, vcok1, vcn3, vcf3)
TEXT ·countsVecAsm(SB), NOSPLIT, $320-44
	COUNTS_KERNEL(vcres, vcpair, vctail, vcnext, vcdone)
#undef K_PAIR
#undef K_SINGLE
#undef K_END
#undef K_INIT
#undef VIDX
