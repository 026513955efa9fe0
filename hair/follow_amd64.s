//go:build !purego

#include "textflag.h"
#include "../internal/simd/macros_amd64.h"
#include "strided_amd64.h"

// Offsets in followArgs (follow_kernel.go; TestFollowArgsLayout).
#define F_POS 0
#define F_PREV 8
#define F_INV 16
#define F_PER 24
#define F_STRIDEP 32
#define F_STRIDEW 40
#define F_DAMP 48
#define F_J 56
#define F_SEG 64
#define F_SEG2 96
#define F_LO2 128
#define F_DAMPV 160
#define S_WINV 192
#define S_WPREV 224
#define S_DM 256

// func followStrands8(a *followArgs)
//
// followLeader's work (step.go) on the eight strands from a.pos, particle
// j = 1 to per-1 of all of them, then j+1: the parent a (Y0-Y2) is lane
// by lane what the step before left at j-1, the particle b (Y3-Y5) is
// loaded; lanes (Y15) whose b has an inverse mass and lies off
// [0.95, 1] times the segment length (NaN included, as the loop's
// comparisons let it through) put b at a + (b - a)·seg/|b - a|, and with
// damping, of those, the ones whose a has an inverse mass move a's previous
// position by damp times b's move.
TEXT ·followStrands8(SB), NOSPLIT, $0-8
	MOVQ a+0(FP), DI
	STRIDES(F_STRIDEP, F_STRIDEW)
	MOVQ F_PER(DI), AX
	DECQ AX
	JLE done
	MOVQ AX, F_J(DI)

	// The roots (a) and their inverse masses.
	MOVQ F_POS(DI), SI
	PROWS(SI)
	COLUMNS(Y9, Y10, Y11, Y12, Y13, Y14)
	VMOVAPS Y10, Y0
	VMOVAPS Y12, Y1
	VMOVAPS Y9, Y2
	XORQ BX, BX
	XCOL(F_INV, Y15)
	VMOVUPS Y15, S_WPREV(DI)

loop:
	ADDQ $12, SI
	ADDQ $4, BX
	XCOL(F_INV, Y15)
	VMOVUPS Y15, S_WINV(DI)
	VXORPS Y14, Y14, Y14
	VCMPPS $0x04, Y14, Y15, Y15 // inv[o] != 0
	PROWS(SI)
	COLUMNS(Y9, Y10, Y11, Y12, Y13, Y14)
	VMOVAPS Y10, Y3 // b
	VMOVAPS Y12, Y4
	VMOVAPS Y9, Y5
	VSUBPS Y0, Y3, Y6 // d = b - a
	VSUBPS Y1, Y4, Y7
	VSUBPS Y2, Y5, Y8
	NORM2(Y6, Y7, Y8, Y9, Y10) // l2
	VCMPPS $0x06, F_SEG2(DI), Y9, Y10 // !(l2 <= seg2)
	VCMPPS $0x09, F_LO2(DI), Y9, Y11 // !(l2 >= lo2)
	VORPS Y11, Y10, Y10
	VANDPS Y10, Y15, Y15
	VMOVMSKPS Y15, AX
	TESTL AX, AX
	JZ still // every lane skips: b stays, and is the next a
	VSQRTPS Y9, Y9
	VMOVUPS F_SEG(DI), Y10
	VDIVPS Y9, Y10, Y10 // k = seg / |d|
	VMULPS Y10, Y6, Y6 // n = a + d·k
	VADDPS Y6, Y0, Y6
	VMULPS Y10, Y7, Y7
	VADDPS Y7, Y1, Y7
	VMULPS Y10, Y8, Y8
	VADDPS Y8, Y2, Y8
	MOVQ F_DAMP(DI), AX
	TESTQ AX, AX
	JZ moved
	VXORPS Y11, Y11, Y11
	VCMPPS $0x04, S_WPREV(DI), Y11, Y12 // inv[o-1] != 0
	VANDPS Y15, Y12, Y12
	VMOVMSKPS Y12, AX
	TESTL AX, AX
	JZ moved
	VMOVUPS Y12, S_DM(DI)
	// a's previous position (particle j-1 of the lanes) += damp·(n - b).
	LEAQ -12(BX)(BX*2), AX
	ADDQ F_PREV(DI), AX
	PROWS(AX)
	COLUMNS(Y9, Y10, Y11, Y12, Y13, Y14)
	VMOVUPS S_DM(DI), Y13
	VSUBPS Y3, Y6, Y11
	VMULPS F_DAMPV(DI), Y11, Y11
	VADDPS Y11, Y10, Y11
	VBLENDVPS Y13, Y11, Y10, Y10
	VSUBPS Y4, Y7, Y11
	VMULPS F_DAMPV(DI), Y11, Y11
	VADDPS Y11, Y12, Y11
	VBLENDVPS Y13, Y11, Y12, Y12
	VSUBPS Y5, Y8, Y11
	VMULPS F_DAMPV(DI), Y11, Y11
	VADDPS Y11, Y9, Y11
	VBLENDVPS Y13, Y11, Y9, Y9
	PSTORE(AX, Y10, Y12, Y9, X10, X12, X9, Y11, X11, Y13, Y14, Y0)

moved:
	// b = n in the moving lanes, written back; it is the next a.
	VBLENDVPS Y15, Y6, Y3, Y3
	VBLENDVPS Y15, Y7, Y4, Y4
	VBLENDVPS Y15, Y8, Y5, Y5
	VMOVAPS Y3, Y0
	VMOVAPS Y4, Y1
	VMOVAPS Y5, Y2
	PSTORE(SI, Y3, Y4, Y5, X3, X4, X5, Y6, X6, Y7, Y8, Y9)
	JMP next

still:
	VMOVAPS Y3, Y0
	VMOVAPS Y4, Y1
	VMOVAPS Y5, Y2

next:
	VMOVUPS S_WINV(DI), Y9
	VMOVUPS Y9, S_WPREV(DI)
	DECQ F_J(DI)
	JNZ loop

done:
	VZEROUPPER
	RET
