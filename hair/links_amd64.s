//go:build !purego

#include "textflag.h"
#include "../internal/simd/macros_amd64.h"
#include "strided_amd64.h"

// Offsets in linkArgs (links_kernel.go; TestLinkArgsLayout checks them).
#define L_POS 0
#define L_INV 8
#define L_KS 16
#define L_KB 24
#define L_BREST 32
#define L_BINV 40
#define L_LAMS 48
#define L_LAMB 56
#define L_REST 64
#define L_SEGINV 72
#define L_PER 80
#define L_STRIDEP 88
#define L_STRIDEW 96
#define L_USEAS 104
#define L_J 112
#define C_AS 128
#define C_AB 160
#define S_AX 192
#define S_AY 224
#define S_AZ 256
#define S_CX 288
#define S_CY 320
#define S_CZ 352
#define S_WA 384
#define S_WC 416
#define S_R 448
#define S_IR 480
#define S_BR 512
#define S_BI 544

// The kernel's fixed constants, eight lanes each (file-local data, not
// arguments: filling them at every call cost 4% of hair2000's frame): the
// smallest length², the range limits of the square-root-free lengths
// (0.81 and 1.21 of r², 0.5 and 1.5), 0.5, 1 and the sign bit.
#define LANES8(NAME, BITS) \
	DATA NAME+0(SB)/4, BITS; \
	DATA NAME+4(SB)/4, BITS; \
	DATA NAME+8(SB)/4, BITS; \
	DATA NAME+12(SB)/4, BITS; \
	DATA NAME+16(SB)/4, BITS; \
	DATA NAME+20(SB)/4, BITS; \
	DATA NAME+24(SB)/4, BITS; \
	DATA NAME+28(SB)/4, BITS; \
	GLOBL NAME(SB), RODATA|NOPTR, $32

LANES8(linkEps<>, $0x219392ef)
LANES8(link081<>, $0x3f4f5c29)
LANES8(link121<>, $0x3f9ae148)
LANES8(linkHalf<>, $0x3f000000)
LANES8(link15<>, $0x3fc00000)
LANES8(linkOne<>, $0x3f800000)
LANES8(linkSign<>, $0x80000000)

// XPUT stores the eight lanes of V (destroyed) to arr[o] (pointer at
// ARG(DI)), four bytes each.
#define XPUT(ARG, V, XV) \
	MOVQ ARG(DI), AX; \
	ADDQ BX, AX; \
	VEXTRACTPS $0, XV, (AX); \
	VEXTRACTPS $1, XV, (AX)(R12*1); \
	VEXTRACTPS $2, XV, (AX)(R12*2); \
	VEXTRACTPS $3, XV, (AX)(R13*1); \
	VEXTRACTF128 $1, V, XV; \
	VEXTRACTPS $0, XV, (AX)(R12*4); \
	VEXTRACTPS $1, XV, (AX)(DX*1); \
	VEXTRACTPS $2, XV, (AX)(R13*2); \
	VEXTRACTPS $3, XV, (AX)(CX*1)

// PPUT writes the columns at scratch SX, SY, SZ as the particles at BASE
// (lane 0) and the position strides (Y9-Y14 scratch).
#define PPUT(BASE, SX, SY, SZ) \
	VMOVUPS SX(DI), Y9; \
	VMOVUPS SY(DI), Y10; \
	VMOVUPS SZ(DI), Y11; \
	PSTORE(BASE, Y9, Y10, Y11, X9, X10, X11, Y12, X12, Y13, Y14, Y0)

// LOADB loads particle j of the lanes (at SI) as columns in Y0-Y2.
#define LOADB \
	PROWS(SI); \
	COLUMNS(Y9, Y10, Y11, Y12, Y13, Y14); \
	VMOVAPS Y10, Y0; \
	VMOVAPS Y12, Y1; \
	VMOVAPS Y9, Y2

// DIFF sets d (Y6-Y8) to b (Y0-Y2) less the particle at scratch SX, SY,
// SZ, and d² (Y9), Y10 scratch.
#define DIFF(SX, SY, SZ) \
	VSUBPS SX(DI), Y0, Y6; \
	VSUBPS SY(DI), Y1, Y7; \
	VSUBPS SZ(DI), Y2, Y8; \
	NORM2(Y6, Y7, Y8, Y9, Y10)

// APPROX sets Y11 to the square-root-free constraint ((d² - r²)·0.5)·ir,
// r² in Y10 and ir at scratch SIR.
#define APPROX(SIR) \
	VSUBPS Y10, Y9, Y11; \
	VMULPS linkHalf<>(SB), Y11, Y11; \
	VMULPS SIR(DI), Y11, Y11

// EXACT sets Y12 to sqrt(d²) - r (r at scratch SR) and Y13 to 1/sqrt(d²),
// both 0 where d² is not above eps (Y10 scratch).
#define EXACT(SR) \
	VSQRTPS Y9, Y12; \
	VMOVUPS linkOne<>(SB), Y13; \
	VDIVPS Y12, Y13, Y13; \
	VSUBPS SR(DI), Y12, Y12; \
	VCMPPS $0x1E, linkEps<>(SB), Y9, Y10; \
	VANDPS Y10, Y12, Y12; \
	VANDPS Y10, Y13, Y13

// BACK moves the particle at scratch column S back by K·D in the lanes of
// mask M (T and Y12 scratch).
#define BACK(D, K, S, M, T) \
	VMULPS D, K, Y12; \
	VMOVUPS S(DI), T; \
	VSUBPS Y12, T, Y12; \
	VBLENDVPS M, Y12, T, T; \
	VMOVUPS T, S(DI)

// ON moves b's coordinate B on by K·D in the lanes of mask M (Y12
// scratch).
#define ON(D, K, B, M) \
	VMULPS D, K, Y12; \
	VADDPS Y12, B, Y12; \
	VBLENDVPS M, Y12, B, B

// MOVE applies a link's impulse: the particle at scratch SX, SY, SZ goes
// back by KA·d, b (Y0-Y2) on by KB·d, in the lanes of mask M (T scratch).
#define MOVE(KA, KB, SX, SY, SZ, M, T) \
	BACK(Y6, KA, SX, M, T); \
	BACK(Y7, KA, SY, M, T); \
	BACK(Y8, KA, SZ, M, T); \
	ON(Y6, KB, Y0, M); \
	ON(Y7, KB, Y1, M); \
	ON(Y8, KB, Y2, M)

// STRETCH is the stretch link from a (scratch S_AX..) to b (Y0-Y2): k in
// Y3, lam in Y4, wb in Y5; updates a, b and lam as links does.
#define STRETCH \
	DIFF(S_AX, S_AY, S_AZ); \
	VMOVUPS S_R(DI), Y10; \
	VMULPS Y10, Y10, Y10; \
	APPROX(S_IR); \
	VMULPS link081<>(SB), Y10, Y14; \
	VCMPPS $0x11, Y14, Y9, Y14; \
	VMULPS link121<>(SB), Y10, Y10; \
	VCMPPS $0x1E, Y10, Y9, Y10; \
	VORPS Y10, Y14, Y14; \
	EXACT(S_R); \
	VBLENDVPS Y14, Y12, Y11, Y11; \
	VMOVUPS S_IR(DI), Y12; \
	VBLENDVPS Y14, Y13, Y12, Y12; \
	VXORPS linkSign<>(SB), Y11, Y11; \
	VXORPS Y9, Y9, Y9; \
	VCMPPS $0x04, Y9, Y3, Y9; \
	CMPQ L_USEAS(DI), $0; \
	JEQ 3(PC); \
	VMULPS C_AS(DI), Y4, Y13; \
	VSUBPS Y13, Y11, Y11; \
	VMULPS Y3, Y11, Y11; \
	CMPQ L_USEAS(DI), $0; \
	JEQ 3(PC); \
	VADDPS Y11, Y4, Y13; \
	VBLENDVPS Y9, Y13, Y4, Y4; \
	VMULPS Y12, Y11, Y11; \
	VMULPS S_WA(DI), Y11, Y10; \
	VMULPS Y5, Y11, Y11; \
	MOVE(Y10, Y11, S_AX, S_AY, S_AZ, Y9, Y13)

// BEND is the bend link from c (scratch S_CX..) to b (Y0-Y2): k in Y3, lam
// in Y4, wb in Y5, the rest length and its inverse at S_BR and S_BI;
// updates c, b and lam as links does.
#define BEND \
	DIFF(S_CX, S_CY, S_CZ); \
	VMOVUPS S_BR(DI), Y10; \
	VMULPS Y10, Y10, Y10; \
	VMULPS linkHalf<>(SB), Y10, Y14; \
	VCMPPS $0x1E, Y14, Y9, Y14; \
	VMULPS link15<>(SB), Y10, Y11; \
	VCMPPS $0x11, Y11, Y9, Y11; \
	VANDPS Y11, Y14, Y14; \
	APPROX(S_BI); \
	EXACT(S_BR); \
	VBLENDVPS Y14, Y11, Y12, Y11; \
	VMOVUPS S_BI(DI), Y12; \
	VBLENDVPS Y14, Y12, Y13, Y12; \
	VXORPS Y9, Y9, Y9; \
	VCMPPS $0x04, Y9, Y3, Y13; \
	VCMPPS $0x04, Y9, Y12, Y9; \
	VANDPS Y9, Y13, Y13; \
	VXORPS linkSign<>(SB), Y11, Y11; \
	VMULPS C_AB(DI), Y4, Y9; \
	VSUBPS Y9, Y11, Y11; \
	VMULPS Y3, Y11, Y11; \
	VADDPS Y11, Y4, Y9; \
	VBLENDVPS Y13, Y9, Y4, Y4; \
	VMULPS Y12, Y11, Y11; \
	VMULPS S_WC(DI), Y11, Y10; \
	VMULPS Y5, Y11, Y11; \
	MOVE(Y10, Y11, S_CX, S_CY, S_CZ, Y13, Y14)

// CARRY moves on to the next particle: c takes a, a takes b (Y0-Y2), wc
// takes wa and wa takes wb (Y5).
#define CARRY \
	VMOVUPS S_AX(DI), Y9; \
	VMOVUPS Y9, S_CX(DI); \
	VMOVUPS S_AY(DI), Y9; \
	VMOVUPS Y9, S_CY(DI); \
	VMOVUPS S_AZ(DI), Y9; \
	VMOVUPS Y9, S_CZ(DI); \
	VMOVUPS Y0, S_AX(DI); \
	VMOVUPS Y1, S_AY(DI); \
	VMOVUPS Y2, S_AZ(DI); \
	VMOVUPS S_WA(DI), Y9; \
	VMOVUPS Y9, S_WC(DI); \
	VMOVUPS Y5, S_WA(DI)

// STRETCHNEXT moves on to particle j+1 (SI, BX) and solves its stretch
// link.
#define STRETCHNEXT \
	ADDQ $12, SI; \
	ADDQ $4, BX; \
	XCOL(L_INV, Y5); \
	XCOL(L_KS, Y3); \
	XCOL(L_LAMS, Y4); \
	LOADB; \
	STRETCH; \
	XPUT(L_LAMS, Y4, X4)

// func solveStrands8(a *linkArgs)
//
// One pass of links (step.go) over eight strands, particle by particle
// from the root, computed as links computes it, operation for operation:
// the stretch link from particle j-1 and the bend link from j-2, each
// lane taking its own branch of the square-root-free or exact length by
// masks, and links of k = 0 left alone.
TEXT ·solveStrands8(SB), NOSPLIT, $0-8
	MOVQ a+0(FP), DI
	STRIDES(L_STRIDEP, L_STRIDEW)
	MOVQ L_REST(DI), AX // the lanes' strands are consecutive
	VMOVUPS (AX), Y9
	VMOVUPS Y9, S_R(DI)
	MOVQ L_SEGINV(DI), AX
	VMOVUPS (AX), Y9
	VMOVUPS Y9, S_IR(DI)

	// The roots (a) and their inverse masses.
	MOVQ L_POS(DI), SI
	PROWS(SI)
	COLUMNS(Y9, Y10, Y11, Y12, Y13, Y14)
	VMOVUPS Y10, S_AX(DI)
	VMOVUPS Y12, S_AY(DI)
	VMOVUPS Y9, S_AZ(DI)
	XORQ BX, BX
	XCOL(L_INV, Y5)
	VMOVUPS Y5, S_WA(DI)

	// j = 1: the stretch link only.
	STRETCHNEXT
	CARRY
	MOVQ $2, L_J(DI)

loop:
	MOVQ L_J(DI), AX
	CMPQ AX, L_PER(DI)
	JGE last
	STRETCHNEXT
	XCOL(L_BREST, Y9)
	VMOVUPS Y9, S_BR(DI)
	XCOL(L_BINV, Y9)
	VMOVUPS Y9, S_BI(DI)
	XCOL(L_KB, Y3)
	XCOL(L_LAMB, Y4)
	BEND
	XPUT(L_LAMB, Y4, X4)
	// Particle j-2 is done.
	LEAQ -24(SI), AX
	VMOVUPS Y0, S_BR(DI) // keep b (Y0-Y2) across PPUT, which uses Y0
	PPUT(AX, S_CX, S_CY, S_CZ)
	VMOVUPS S_BR(DI), Y0
	CARRY
	INCQ L_J(DI)
	JMP loop

last:
	// Particles per-2 (c) and per-1 (a) are done.
	LEAQ -12(SI), AX
	PPUT(AX, S_CX, S_CY, S_CZ)
	PPUT(SI, S_AX, S_AY, S_AZ)
	VZEROUPPER
	RET
