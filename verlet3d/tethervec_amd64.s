//go:build !purego

#include "textflag.h"
#include "../internal/simd/macros_amd64.h"

// Offsets in tetherArgs and tetherGroup (tethervec.go;
// TestTetherArgsLayout).
#define T_POS 0
#define T_GROUP 8
#define TG_A3 0
#define TG_P3 32
#define TG_MAX 64
#define TG_MAX2 96
#define TG_ON 128
#define TG_SIZE 160

// func solveTetherGroups(args *tetherArgs, n int)
//
// One pass over n tether groups, each tether computed as solveTethers
// computes it, operation for operation: a lane moves its particle to the
// anchor plus (p - a)·max/|p - a| where the tether is on (TG_ON) and
// |p - a|² is neither at most max² nor 0 (NaN moves, as in Go); the other
// lanes write back the bits they read.
TEXT ·solveTetherGroups(SB), NOSPLIT, $0-16
	MOVQ args+0(FP), DI
	MOVQ n+8(FP), CX
	TESTQ CX, CX
	JLE done
	MOVQ T_POS(DI), SI
	MOVQ T_GROUP(DI), R8

loop:
	ROWS(TG_A3, Y2, Y3, Y4, Y5, X2, X3, X4, X5)
	COLUMNS(Y2, Y3, Y4, Y5, Y0, Y1) // anchor: x Y3, y Y5, z Y2
	ROWS(TG_P3, Y6, Y7, Y8, Y9, X6, X7, X8, X9)
	COLUMNS(Y6, Y7, Y8, Y9, Y0, Y1) // particle: x Y7, y Y9, z Y6
	VSUBPS Y3, Y7, Y10 // d = p - a
	VSUBPS Y5, Y9, Y11
	VSUBPS Y2, Y6, Y12
	NORM2(Y10, Y11, Y12, Y13, Y14) // l2
	VCMPPS $0x06, TG_MAX2(R8), Y13, Y15 // !(l2 <= max2)
	VXORPS Y14, Y14, Y14
	VCMPPS $0x04, Y14, Y13, Y14 // l2 != 0
	VANDPS Y14, Y15, Y15
	VANDPS TG_ON(R8), Y15, Y15
	VMOVMSKPS Y15, AX
	TESTL AX, AX
	JZ next // every tether slack, off or on a pinned particle
	VSQRTPS Y13, Y13
	VMOVUPS TG_MAX(R8), Y14
	VDIVPS Y13, Y14, Y14 // k = max / |d|
	VMULPS Y14, Y10, Y10 // a + d·k where moving
	VADDPS Y10, Y3, Y10
	VBLENDVPS Y15, Y10, Y7, Y7
	VMULPS Y14, Y11, Y11
	VADDPS Y11, Y5, Y11
	VBLENDVPS Y15, Y11, Y9, Y9
	VMULPS Y14, Y12, Y12
	VADDPS Y12, Y2, Y12
	VBLENDVPS Y15, Y12, Y6, Y6
	BACKTOROWS(Y7, Y9, Y6, Y0, Y1, Y4, Y12)
	PUT8(TG_P3, Y7, Y9, Y6, Y0, X7, X9, X6, X0)

next:
	ADDQ $TG_SIZE, R8
	DECQ CX
	JNZ loop

done:
	VZEROUPPER
	RET
