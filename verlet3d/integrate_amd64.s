#include "textflag.h"
#include "../internal/simd/macros_amd64.h"

// Offsets in integrateArgs (integrate_kernel.go; TestIntegrateArgsLayout).
#define I_POS 0
#define I_PREV 8
#define I_ACC 16
#define I_STATE 24
#define I_K 32
#define I_H2 64
#define I_GX 96
#define I_GY 128
#define I_GZ 160
#define I_MAX 192
#define I_MAX2 224
#define I_CLAMPS 256

// Lane orders for turning eight particles (96 contiguous bytes: x0 y0 z0
// x1 ... z7, as three YMM words A, B, C) into columns and back. Blending
// A, B and C puts each coordinate's eight values in one register, out of
// order; VPERMPS with these indices orders them (columns: PERM_X, PERM_Y,
// PERM_Z), or disorders columns for the blends back (PERM_X, PERM_YBACK,
// PERM_Z).
DATA permX<>+0(SB)/4, $0
DATA permX<>+4(SB)/4, $3
DATA permX<>+8(SB)/4, $6
DATA permX<>+12(SB)/4, $1
DATA permX<>+16(SB)/4, $4
DATA permX<>+20(SB)/4, $7
DATA permX<>+24(SB)/4, $2
DATA permX<>+28(SB)/4, $5
GLOBL permX<>(SB), RODATA|NOPTR, $32

DATA permY<>+0(SB)/4, $1
DATA permY<>+4(SB)/4, $4
DATA permY<>+8(SB)/4, $7
DATA permY<>+12(SB)/4, $2
DATA permY<>+16(SB)/4, $5
DATA permY<>+20(SB)/4, $0
DATA permY<>+24(SB)/4, $3
DATA permY<>+28(SB)/4, $6
GLOBL permY<>(SB), RODATA|NOPTR, $32

DATA permYBack<>+0(SB)/4, $5
DATA permYBack<>+4(SB)/4, $0
DATA permYBack<>+8(SB)/4, $3
DATA permYBack<>+12(SB)/4, $6
DATA permYBack<>+16(SB)/4, $1
DATA permYBack<>+20(SB)/4, $4
DATA permYBack<>+24(SB)/4, $7
DATA permYBack<>+28(SB)/4, $2
GLOBL permYBack<>(SB), RODATA|NOPTR, $32

DATA permZ<>+0(SB)/4, $2
DATA permZ<>+4(SB)/4, $5
DATA permZ<>+8(SB)/4, $0
DATA permZ<>+12(SB)/4, $3
DATA permZ<>+16(SB)/4, $6
DATA permZ<>+20(SB)/4, $1
DATA permZ<>+24(SB)/4, $4
DATA permZ<>+28(SB)/4, $7
GLOBL permZ<>(SB), RODATA|NOPTR, $32

#define PX Y11
#define PY Y12
#define PYB Y13
#define PZ Y14

// COLS8 loads the eight particles at BASE as columns X, Y, Z (T scratch).
#define COLS8(BASE, X, Y, Z, T) \
	VMOVUPS 0(BASE), T; \
	VBLENDPS $0x92, 32(BASE), T, T; \
	VBLENDPS $0x24, 64(BASE), T, T; \
	VPERMPS T, PX, X; \
	VMOVUPS 0(BASE), T; \
	VBLENDPS $0x24, 32(BASE), T, T; \
	VBLENDPS $0x49, 64(BASE), T, T; \
	VPERMPS T, PY, Y; \
	VMOVUPS 0(BASE), T; \
	VBLENDPS $0x49, 32(BASE), T, T; \
	VBLENDPS $0x92, 64(BASE), T, T; \
	VPERMPS T, PZ, Z

// STORE8 writes columns X, Y, Z (destroyed) as eight particles at BASE.
#define STORE8(BASE, X, Y, Z, T) \
	VPERMPS X, PX, X; \
	VPERMPS Y, PYB, Y; \
	VPERMPS Z, PZ, Z; \
	VBLENDPS $0x92, Y, X, T; \
	VBLENDPS $0x24, Z, T, T; \
	VMOVUPS T, 0(BASE); \
	VBLENDPS $0x92, X, Z, T; \
	VBLENDPS $0x24, Y, T, T; \
	VMOVUPS T, 32(BASE); \
	VBLENDPS $0x92, Z, Y, T; \
	VBLENDPS $0x24, X, T, T; \
	VMOVUPS T, 64(BASE)

// func integrateGroups(a *integrateArgs, n int) int
//
// Integrates n groups of eight free particles as integrateRange does,
// operation for operation, and returns how many groups it did: fewer than
// n when a group holds a pinned or kinematic particle, which it leaves for
// integrateRange. Adds the number of speed clamps to a.clamps.
TEXT ·integrateGroups(SB), NOSPLIT, $0-24
	MOVQ a+0(FP), DI
	MOVQ n+8(FP), CX
	XORQ AX, AX
	TESTQ CX, CX
	JLE done
	MOVQ I_POS(DI), SI
	MOVQ I_PREV(DI), R8
	MOVQ I_ACC(DI), R9
	MOVQ I_STATE(DI), R10
	MOVQ I_CLAMPS(DI), R11
	VMOVUPS permX<>(SB), PX
	VMOVUPS permY<>(SB), PY
	VMOVUPS permYBack<>(SB), PYB
	VMOVUPS permZ<>(SB), PZ

loop:
	MOVQ (R10), BX // eight states: all free (0)?
	TESTQ BX, BX
	JNZ done
	COLS8(R8, Y3, Y4, Y5, Y9) // previous positions
	COLS8(SI, Y0, Y1, Y2, Y9) // positions
	// v = (x - p)·k + (a + g)·h²
	VSUBPS Y3, Y0, Y3
	VMULPS I_K(DI), Y3, Y3
	VSUBPS Y4, Y1, Y4
	VMULPS I_K(DI), Y4, Y4
	VSUBPS Y5, Y2, Y5
	VMULPS I_K(DI), Y5, Y5
	COLS8(R9, Y6, Y7, Y8, Y9) // accelerations
	VADDPS I_GX(DI), Y6, Y6
	VMULPS I_H2(DI), Y6, Y6
	VADDPS Y6, Y3, Y3
	VADDPS I_GY(DI), Y7, Y7
	VMULPS I_H2(DI), Y7, Y7
	VADDPS Y7, Y4, Y4
	VADDPS I_GZ(DI), Y8, Y8
	VMULPS I_H2(DI), Y8, Y8
	VADDPS Y8, Y5, Y5
	// The speed clamp: where |v|² > maxStep², v *= maxStep/|v|.
	NORM2(Y3, Y4, Y5, Y6, Y7)
	VCMPPS $0x1E, I_MAX2(DI), Y6, Y7 // l2 > maxStep2 (ordered)
	VMOVMSKPS Y7, BX
	TESTL BX, BX
	JZ moved
	POPCNTL BX, BX
	ADDQ BX, R11
	VSQRTPS Y6, Y6
	VMOVUPS I_MAX(DI), Y8
	VDIVPS Y6, Y8, Y6
	VMULPS Y6, Y3, Y8
	VBLENDVPS Y7, Y8, Y3, Y3
	VMULPS Y6, Y4, Y8
	VBLENDVPS Y7, Y8, Y4, Y4
	VMULPS Y6, Y5, Y8
	VBLENDVPS Y7, Y8, Y5, Y5

moved:
	// prev = x, then x += v.
	VMOVUPS 0(SI), Y6
	VMOVUPS Y6, 0(R8)
	VMOVUPS 32(SI), Y6
	VMOVUPS Y6, 32(R8)
	VMOVUPS 64(SI), Y6
	VMOVUPS Y6, 64(R8)
	VADDPS Y3, Y0, Y0
	VADDPS Y4, Y1, Y1
	VADDPS Y5, Y2, Y2
	STORE8(SI, Y0, Y1, Y2, Y9)
	ADDQ $96, SI
	ADDQ $96, R8
	ADDQ $96, R9
	ADDQ $8, R10
	INCQ AX
	CMPQ AX, CX
	JLT loop

done:
	MOVQ R11, I_CLAMPS(DI)
	VZEROUPPER
	MOVQ AX, ret+16(FP)
	RET
