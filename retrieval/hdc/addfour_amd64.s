//go:build amd64 && !purego

#include "textflag.h"

// MIX applies the SplitMix64 output function to the eight lanes of X,
// using T as scratch; Z31 and Z30 hold the multipliers.
#define MIX(X, T) \
	VPSRLQ $30, X, T \
	VPXORQ T, X, X \
	VPMULLQ Z31, X, X \
	VPSRLQ $27, X, T \
	VPXORQ T, X, X \
	VPMULLQ Z30, X, X \
	VPSRLQ $31, X, T \
	VPXORQ T, X, X

// CSA is a full adder: C gets the carry and A the sum of A + B + D.
#define CSA(A, B, D, C) \
	VMOVDQA64 A, C \
	VPTERNLOGQ $0xE8, D, B, C \
	VPTERNLOGQ $0x96, D, B, A

// func addFourAVX512(seeds *[4]uint64, pos *[4]*Vector, prev *Vector, planes *Vector, nplanes int)
TEXT ·addFourAVX512(SB), NOSPLIT, $0-40
	MOVQ seeds+0(FP), AX
	MOVQ pos+8(FP), BX
	MOVQ prev+16(FP), DI
	MOVQ planes+24(FP), SI
	MOVQ nplanes+32(FP), DX
	MOVQ 0(BX), R8
	MOVQ 8(BX), R9
	MOVQ 16(BX), R10
	MOVQ 24(BX), R11
	LEAQ ·avxConsts(SB), R12

	VPBROADCASTQ 0(AX), Z26
	VPBROADCASTQ 8(AX), Z27
	VPBROADCASTQ 16(AX), Z28
	VPBROADCASTQ 24(AX), Z29
	VPBROADCASTQ 80(R12), Z31
	VPBROADCASTQ 88(R12), Z30
	VPBROADCASTQ 64(R12), Z24
	VMOVDQU64 0(R12), Z25

	// The last eight words of each term's vector: their last lane is the
	// word rotated into word 0.
	VPBROADCASTQ 72(R12), Z8
	VPADDQ Z8, Z25, Z9
	VPADDQ Z26, Z9, Z20
	MIX(Z20, Z8)
	VPADDQ Z27, Z9, Z21
	MIX(Z21, Z8)
	VPADDQ Z28, Z9, Z22
	MIX(Z22, Z8)
	VPADDQ Z29, Z9, Z23
	MIX(Z23, Z8)

	XORQ CX, CX // byte offset of the chunk of eight words

loop:
	// The chunk of each term's vector.
	VPADDQ Z26, Z25, Z0
	MIX(Z0, Z8)
	VPADDQ Z27, Z25, Z1
	MIX(Z1, Z8)
	VPADDQ Z28, Z25, Z2
	MIX(Z2, Z8)
	VPADDQ Z29, Z25, Z3
	MIX(Z3, Z8)
	// Rotated by one word: the previous chunk's last lane first.
	VALIGNQ $7, Z20, Z0, Z4
	VALIGNQ $7, Z21, Z1, Z5
	VALIGNQ $7, Z22, Z2, Z6
	VALIGNQ $7, Z23, Z3, Z7
	VMOVDQA64 Z0, Z20
	VMOVDQA64 Z1, Z21
	VMOVDQA64 Z2, Z22
	VMOVDQA64 Z3, Z23

	// The eight vectors.
	VPXORQ (R8)(CX*1), Z0, Z8   // term 0 bound to its position
	VPXORQ (DI)(CX*1), Z4, Z9   // previous term, term 0 rotated
	VPXORQ (R9)(CX*1), Z1, Z10
	VPXORQ Z0, Z5, Z11
	VPXORQ (R10)(CX*1), Z2, Z12
	VPXORQ Z1, Z6, Z13
	VPXORQ (R11)(CX*1), Z3, Z14
	VPXORQ Z2, Z7, Z15
	VMOVDQU64 Z3, (DI)(CX*1)

	// Carry-save adders into ones, twos and fours.
	VMOVDQU64 (SI)(CX*1), Z16         // ones
	VMOVDQU64 512(SI)(CX*1), Z17      // twos
	VMOVDQU64 1024(SI)(CX*1), Z18     // fours
	CSA(Z16, Z8, Z9, Z4)      // Z4 twosA, Z16 o
	CSA(Z16, Z10, Z11, Z5)    // Z5 twosB, Z16 o2
	CSA(Z17, Z4, Z5, Z6)      // Z6 foursA, Z17 t
	CSA(Z16, Z12, Z13, Z4)    // Z4 twosA, Z16 o
	CSA(Z16, Z14, Z15, Z5)    // Z5 twosB, Z16 o
	CSA(Z17, Z4, Z5, Z7)      // Z7 foursB, Z17 t2
	CSA(Z18, Z6, Z7, Z19)     // Z19 eights, Z18 f
	VMOVDQU64 Z16, (SI)(CX*1)
	VMOVDQU64 Z17, 512(SI)(CX*1)
	VMOVDQU64 Z18, 1024(SI)(CX*1)

	// Ripple the eights up from plane 3.
	LEAQ 1536(SI)(CX*1), R13
	MOVQ $3, R14
ripple:
	VPTESTMQ Z19, Z19, K1
	KORTESTB K1, K1
	JZ rippled
	CMPQ R14, DX
	JGE rippled
	VMOVDQU64 (R13), Z16
	VPANDQ Z16, Z19, Z17
	VPXORQ Z16, Z19, Z16
	VMOVDQU64 Z16, (R13)
	VMOVDQA64 Z17, Z19
	ADDQ $512, R13
	INCQ R14
	JMP ripple
rippled:

	VPADDQ Z24, Z25, Z25
	ADDQ $64, CX
	CMPQ CX, $512
	JLT loop

	VZEROUPPER
	RET
