//go:build !purego

#include "textflag.h"
#include "../internal/simd/macros_amd64.h"
#include "../internal/simd/contig_amd64.h"

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

// func integrateGroups(a *integrateArgs, n int) int
//
// Integrates n groups of eight free or pinned particles as integrateRange
// does, operation for operation, and returns how many groups it did: fewer
// than n when a group holds a kinematic particle, which it leaves for
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
	LOADPERMS

loop:
	MOVQ (R10), BX // eight states: all free (0)?
	XORL DX, DX
	TESTQ BX, BX
	JZ states
	MOVQ $0x0202020202020202, DX
	TESTQ DX, BX
	JNZ done // a kinematic particle (2): the group goes one by one
	// Pinned particles (1) among free ones: the free lanes in Y10. A
	// pinned particle's previous position becomes its position, which
	// stays, and it is never clamped, as integrateFixed leaves it.
	VPMOVZXBD (R10), Y10
	VPXOR Y15, Y15, Y15
	VPCMPEQD Y15, Y10, Y10
	MOVL $1, DX

states:
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
	TESTL DX, DX
	JZ clampmask
	VANDPS Y10, Y7, Y7 // free lanes only

clampmask:
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
	TESTL DX, DX
	JNZ pinned
	VADDPS Y3, Y0, Y0
	VADDPS Y4, Y1, Y1
	VADDPS Y5, Y2, Y2
	JMP store

pinned:
	VADDPS Y3, Y0, Y3
	VBLENDVPS Y10, Y3, Y0, Y0
	VADDPS Y4, Y1, Y4
	VBLENDVPS Y10, Y4, Y1, Y1
	VADDPS Y5, Y2, Y5
	VBLENDVPS Y10, Y5, Y2, Y2

store:
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
