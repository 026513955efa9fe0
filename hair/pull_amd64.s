//go:build !purego

#include "textflag.h"
#include "../internal/simd/macros_amd64.h"

// Offsets in pullArgs (pull_kernel.go; TestPullArgsLayout checks them).
#define A_POS 0
#define A_TARGET 8
#define A_INV 16
#define A_SEG 24
#define A_JS 32
#define A_STYLE 40
#define A_STRANDS 48
#define A_GROUPS 56
#define A_STRIDEP 64
#define A_STRIDEW 72
#define A_DOSTYLE 80
#define A_DOLEASH 88
#define A_DOHEAD 96
#define A_CX 104
#define A_CY 136
#define A_CZ 168
#define A_MINR 200
#define A_MINR2 232
#define A_EPS 264
#define A_RX 296
#define A_RY 328
#define A_RZ 360
#define A_SEGV 392

// ROWS8 loads the eight consecutive particles at BASE as rows.
#define ROWS8(BASE, R0, R1, R2, R3, X0, X1, X2, X3) \
	VMOVUPS 0(BASE), X0; \
	VMOVUPS 12(BASE), X1; \
	VMOVUPS 24(BASE), X2; \
	VMOVUPS 36(BASE), X3; \
	VINSERTF128 $1, 48(BASE), R0, R0; \
	VINSERTF128 $1, 60(BASE), R1, R1; \
	VINSERTF128 $1, 72(BASE), R2, R2; \
	VINSERTF128 $1, 84(BASE), R3, R3

// PUTROW writes x, y and z of row XR's low half at OFF(BASE): 12 bytes.
#define PUTROW(BASE, OFF, XR) \
	VMOVSD XR, OFF(BASE); \
	VEXTRACTPS $2, XR, OFF+8(BASE)

// OFFSET sets Y9-Y11 to p (Y3, Y5, Y2) less the point at scratch SX, SY,
// SZ, and Y12 to its length² (Y13 scratch).
#define OFFSET(SX, SY, SZ) \
	VSUBPS SX(DI), Y3, Y9; \
	VSUBPS SY(DI), Y5, Y10; \
	VSUBPS SZ(DI), Y2, Y11; \
	NORM2(Y9, Y10, Y11, Y12, Y13)

// PLACE sets p (Y3, Y5, Y2) to the point at SX, SY, SZ plus the offset
// (Y9-Y11) times k (Y12), in the lanes of mask M.
#define PLACE(SX, SY, SZ, M) \
	VMULPS Y12, Y9, Y9; \
	VADDPS SX(DI), Y9, Y9; \
	VBLENDVPS M, Y9, Y3, Y3; \
	VMULPS Y12, Y10, Y10; \
	VADDPS SY(DI), Y10, Y10; \
	VBLENDVPS M, Y10, Y5, Y5; \
	VMULPS Y12, Y11, Y11; \
	VADDPS SZ(DI), Y11, Y11; \
	VBLENDVPS M, Y11, Y2, Y2

// func pullStrands(a *pullArgs)
//
// pull's work (step.go) on a.groups groups of eight particles (j = 1 to
// 8·groups) of each of a.strands strands, computed as pull computes it,
// operation for operation: the leash (if a.doLeash), the style pull (if
// a.doStyle), the head sphere (if a.doHead), and particles of inverse mass
// 0 left where they are.
TEXT ·pullStrands(SB), NOSPLIT, $0-8
	MOVQ a+0(FP), DI
	MOVQ A_STRANDS(DI), CX
	TESTQ CX, CX
	JLE done
	MOVQ A_POS(DI), SI
	MOVQ A_TARGET(DI), R8
	MOVQ A_INV(DI), R9
	MOVQ A_SEG(DI), R10

strand:
	// The root (particle 0, just before SI) and the segment length.
	VBROADCASTSS -12(SI), Y0
	VMOVUPS Y0, A_RX(DI)
	VBROADCASTSS -8(SI), Y0
	VMOVUPS Y0, A_RY(DI)
	VBROADCASTSS -4(SI), Y0
	VMOVUPS Y0, A_RZ(DI)
	VBROADCASTSS (R10), Y0
	VMOVUPS Y0, A_SEGV(DI)
	MOVQ A_GROUPS(DI), DX
	XORQ R11, R11 // group offset in positions and targets (96 bytes a group)
	XORQ R12, R12 // group offset in float arrays (32 bytes a group)
	MOVQ A_JS(DI), R13
	MOVQ A_STYLE(DI), BX

group:
	LEAQ (SI)(R11*1), AX
	ROWS8(AX, Y2, Y3, Y4, Y5, X2, X3, X4, X5)
	COLUMNS(Y2, Y3, Y4, Y5, Y0, Y1) // px Y3, py Y5, pz Y2
	VMOVAPS Y3, Y6 // as they were, for pinned particles
	VMOVAPS Y5, Y7
	VMOVAPS Y2, Y8

	// The leash: l = p - root; if |l|² > m² (m = j·seg), p = root + l·m/|l|.
	CMPQ A_DOLEASH(DI), $0
	JEQ style
	OFFSET(A_RX, A_RY, A_RZ) // l, l2
	VMOVUPS (R13)(R12*1), Y13
	VMULPS A_SEGV(DI), Y13, Y13 // m = float32(j)*seg
	VMULPS Y13, Y13, Y14
	VCMPPS $0x1E, Y14, Y12, Y14 // l2 > m*m (ordered)
	VSQRTPS Y12, Y12
	VDIVPS Y12, Y13, Y12 // k = m / sqrt(l2)
	PLACE(A_RX, A_RY, A_RZ, Y14)

style:
	// The style pull: p += s·(target - p).
	CMPQ A_DOSTYLE(DI), $0
	JEQ head
	LEAQ (R8)(R11*1), AX
	ROWS8(AX, Y9, Y10, Y11, Y12, X9, X10, X11, X12)
	COLUMNS(Y9, Y10, Y11, Y12, Y13, Y14) // tx Y10, ty Y12, tz Y9
	VMOVUPS (BX)(R12*1), Y13
	VSUBPS Y3, Y10, Y10
	VMULPS Y13, Y10, Y10
	VADDPS Y10, Y3, Y3
	VSUBPS Y5, Y12, Y12
	VMULPS Y13, Y12, Y12
	VADDPS Y12, Y5, Y5
	VSUBPS Y2, Y9, Y9
	VMULPS Y13, Y9, Y9
	VADDPS Y9, Y2, Y2

head:
	// The head sphere: if eps < |p - c|² < minR², p = c + (p - c)·minR/|p - c|.
	CMPQ A_DOHEAD(DI), $0
	JEQ pinned
	OFFSET(A_CX, A_CY, A_CZ) // d, d2
	VCMPPS $0x11, A_MINR2(DI), Y12, Y13 // d2 < minR2
	VCMPPS $0x1E, A_EPS(DI), Y12, Y14 // d2 > eps
	VANDPS Y14, Y13, Y13
	VSQRTPS Y12, Y12
	VMOVUPS A_MINR(DI), Y14
	VDIVPS Y12, Y14, Y12 // k = minR / sqrt(d2)
	PLACE(A_CX, A_CY, A_CZ, Y13)

pinned:
	// Particles of inverse mass 0 stay.
	VXORPS Y14, Y14, Y14
	VCMPPS $0x04, (R9)(R12*1), Y14, Y13 // inv != 0 (unordered: NaN counts)
	VBLENDVPS Y13, Y3, Y6, Y3
	VBLENDVPS Y13, Y5, Y7, Y5
	VBLENDVPS Y13, Y2, Y8, Y2

	BACKTOROWS(Y3, Y5, Y2, Y0, Y1, Y4, Y9)
	LEAQ (SI)(R11*1), AX
	PUTROW(AX, 0, X3)
	PUTROW(AX, 12, X5)
	PUTROW(AX, 24, X2)
	PUTROW(AX, 36, X0)
	VEXTRACTF128 $1, Y3, X3
	VEXTRACTF128 $1, Y5, X5
	VEXTRACTF128 $1, Y2, X2
	VEXTRACTF128 $1, Y0, X0
	PUTROW(AX, 48, X3)
	PUTROW(AX, 60, X5)
	PUTROW(AX, 72, X2)
	PUTROW(AX, 84, X0)
	ADDQ $96, R11
	ADDQ $32, R12
	DECQ DX
	JNZ group

	ADDQ A_STRIDEP(DI), SI
	ADDQ A_STRIDEP(DI), R8
	ADDQ A_STRIDEW(DI), R9
	ADDQ $4, R10
	DECQ CX
	JNZ strand

done:
	VZEROUPPER
	RET
