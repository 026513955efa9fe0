//go:build !purego

#include "textflag.h"
#include "../internal/simd/contig_amd64.h"

// Offsets in styleArgs and headConsts (style_kernel.go, contact_kernel.go;
// TestStyleArgsLayout): the constants are read through T_C (DX).
#define T_REST 0
#define T_TARGET 8
#define T_GROUPS 16
#define T_C 24
#define T_CX 0
#define T_CY 32
#define T_CZ 64
#define T_M 224 // m[k] at T_M + 32k

// TARGET sets OUT to ((A·x + B·y) + C·z) + D for the broadcast A, B, C, D
// at offsets OA, OB, OC, OD and the columns x, y, z in Y0-Y2 (Y7 scratch).
#define TARGET(OA, OB, OC, OD, OUT) \
	VMULPS OA(DX), Y0, OUT; \
	VMULPS OB(DX), Y1, Y7; \
	VADDPS Y7, OUT, OUT; \
	VMULPS OC(DX), Y2, Y7; \
	VADDPS Y7, OUT, OUT; \
	VADDPS OD(DX), OUT, OUT

// func styleTargets(a *styleArgs)
//
// prepare's style targets (step.go) for a.groups groups of eight
// consecutive particles: target = m·rest + c, each row summed as Go sums
// m0*r0 + m3*r1 + m6*r2 + cx.
TEXT ·styleTargets(SB), NOSPLIT, $0-8
	MOVQ a+0(FP), DI
	MOVQ T_GROUPS(DI), CX
	TESTQ CX, CX
	JLE done
	MOVQ T_REST(DI), SI
	MOVQ T_TARGET(DI), R8
	MOVQ T_C(DI), DX
	LOADPERMS

loop:
	COLS8(SI, Y0, Y1, Y2, Y3)
	TARGET(T_M+0, T_M+96, T_M+192, T_CX, Y4)
	TARGET(T_M+32, T_M+128, T_M+224, T_CY, Y5)
	TARGET(T_M+64, T_M+160, T_M+256, T_CZ, Y6)
	STORE8(R8, Y4, Y5, Y6, Y3)
	ADDQ $96, SI
	ADDQ $96, R8
	DECQ CX
	JNZ loop

done:
	VZEROUPPER
	RET
