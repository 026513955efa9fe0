//go:build !purego

#include "textflag.h"
#include "../internal/simd/macros_amd64.h"
#include "strided_amd64.h"

// Offsets in dragArgs (drag_kernel.go; TestDragArgsLayout).
#define D_POS 0
#define D_PREV 8
#define D_ACC 16
#define D_SEGS 24
#define D_STRIDEP 32
#define D_STRIDEW 40
#define D_J 48
#define D_VA 64
#define D_DV 160
#define D_INVH 256
#define D_C 288
#define D_HALF 320
#define D_ONE 352
#define D_K 384

// VELOCITY puts the velocity of the lanes' particles at SI (positions)
// and BX (previous) into X, Y, Z: (pos - prev)·invH. Y9-Y14 scratch.
#define VELOCITY(X, Y, Z) \
	PROWS(SI); \
	COLUMNS(Y9, Y10, Y11, Y12, Y13, Y14); \
	VMOVAPS Y10, X; \
	VMOVAPS Y12, Y; \
	VMOVAPS Y9, Z; \
	PROWS(BX); \
	COLUMNS(Y9, Y10, Y11, Y12, Y13, Y14); \
	VSUBPS Y10, X, X; \
	VMULPS D_INVH(DI), X, X; \
	VSUBPS Y12, Y, Y; \
	VMULPS D_INVH(DI), Y, Y; \
	VSUBPS Y9, Z, Z; \
	VMULPS D_INVH(DI), Z, Z

// AXISDRAG turns V0 (the segment's first end's velocity along an axis;
// V1 its second's) into the segment's drag along it, drag's
// (va + dv·k - 0.5·(v0 + v1))·c, with k in Y6 (Y13 scratch).
#define AXISDRAG(V0, V1, VA, DV) \
	VADDPS V1, V0, V0; \
	VMULPS D_HALF(DI), V0, V0; \
	VMULPS DV(DI), Y6, Y13; \
	VADDPS VA(DI), Y13, Y13; \
	VSUBPS V0, Y13, Y13; \
	VMULPS D_C(DI), Y13, V0

// SEGMENT moves SI and BX to the segment's second end, and leaves its drag
// in Y0-Y2 (where its first end's velocity was) and that end's velocity in
// Y7, Y8, Y15; k moves on by one.
#define SEGMENT \
	ADDQ $12, SI; \
	ADDQ $12, BX; \
	VELOCITY(Y7, Y8, Y15); \
	VMOVUPS D_K(DI), Y6; \
	AXISDRAG(Y0, Y7, D_VA, D_DV); \
	AXISDRAG(Y1, Y8, D_VA+32, D_DV+32); \
	AXISDRAG(Y2, Y15, D_VA+64, D_DV+64); \
	VADDPS D_ONE(DI), Y6, Y6; \
	VMOVUPS Y6, D_K(DI)

// ADDACC adds Y3-Y5 to the accelerations of the lanes' particles at AX.
#define ADDACC \
	PROWS(AX); \
	COLUMNS(Y9, Y10, Y11, Y12, Y13, Y14); \
	VADDPS Y3, Y10, Y10; \
	VADDPS Y4, Y12, Y12; \
	VADDPS Y5, Y9, Y9; \
	PSTORE(AX, Y10, Y12, Y9, X10, X12, X9, Y11, X11, Y13, Y14, Y6)

// NEXT moves on a segment: h = a, v0 = v1.
#define NEXT \
	VMOVAPS Y0, Y3; \
	VMOVAPS Y1, Y4; \
	VMOVAPS Y2, Y5; \
	VMOVAPS Y7, Y0; \
	VMOVAPS Y8, Y1; \
	VMOVAPS Y15, Y2

// func dragStrands8(a *dragArgs)
//
// drag's work (step.go) on the eight strands from a.pos: the velocity v0
// of each segment's first end (Y0-Y2) is carried from the segment
// before; a segment's drag a is shared by its two ends, so particle j
// (1 <= j < segs) gets the last segment's h (Y3-Y5) plus this one's a,
// and the tip its last segment's. The root, pinned, gets none.
TEXT ·dragStrands8(SB), NOSPLIT, $0-8
	MOVQ a+0(FP), DI
	STRIDES(D_STRIDEP, D_STRIDEW)
	MOVQ D_POS(DI), SI
	MOVQ D_PREV(DI), BX
	MOVQ D_ACC(DI), AX
	VMOVUPS D_HALF(DI), Y6
	VMOVUPS Y6, D_K(DI)
	VELOCITY(Y0, Y1, Y2)
	// The first segment: its drag is only h for now.
	SEGMENT
	NEXT
	MOVQ D_SEGS(DI), DX // DX's float stride is not used here
	DECQ DX
	JLE tip
	MOVQ DX, D_J(DI)

loop:
	SEGMENT
	// Particle j: h + a; then on.
	VADDPS Y0, Y3, Y3
	VADDPS Y1, Y4, Y4
	VADDPS Y2, Y5, Y5
	ADDQ $12, AX
	ADDACC
	NEXT
	DECQ D_J(DI)
	JNZ loop

tip:
	ADDQ $12, AX
	ADDACC
	VZEROUPPER
	RET
