#include "textflag.h"

// MINMAX8 folds eight particles at R (three YMM words) into the lane
// minima Y0-Y2 and maxima Y3-Y5, and moves R past them.
#define MINMAX8(R) \
	VMOVUPS 0(R), Y6; \
	VMOVUPS 32(R), Y7; \
	VMOVUPS 64(R), Y8; \
	VMINPS Y6, Y0, Y0; \
	VMAXPS Y6, Y3, Y3; \
	VMINPS Y7, Y1, Y1; \
	VMAXPS Y7, Y4, Y4; \
	VMINPS Y8, Y2, Y2; \
	VMAXPS Y8, Y5, Y5; \
	ADDQ $96, R

// func blockBounds(pos, prev *mgl32.Vec3, radius, invMass *float32, group *uint32, out *[64]float32)
//
// The box, largest radius and collision groups of 64 consecutive
// particles (a block of the collision broad phase), as lanes for
// blocksRange to reduce:
//   - out[0:24] the minimum and out[24:48] the maximum, over pos and prev
//     (64 Vec3s each), of every float at the same place in the 24-float
//     (eight-particle) groups, so lane j holds coordinate j%3;
//   - out[48:56] the largest radius of every eighth particle;
//   - out[56:64] the group bits of the free particles (invMass != 0),
//     ORed, every eighth particle.
// min and max of finite floats are exact: blocksRange's Go loop finds the
// same bits.
TEXT ·blockBounds(SB), NOSPLIT, $0-48
	MOVQ pos+0(FP), SI
	MOVQ prev+8(FP), DI
	MOVQ radius+16(FP), R8
	MOVQ invMass+24(FP), R9
	MOVQ group+32(FP), R10
	MOVQ out+40(FP), DX
	VMOVUPS 0(SI), Y0
	VMOVUPS 32(SI), Y1
	VMOVUPS 64(SI), Y2
	VMOVAPS Y0, Y3
	VMOVAPS Y1, Y4
	VMOVAPS Y2, Y5
	ADDQ $96, SI
	MOVQ $7, CX

posloop:
	MINMAX8(SI)
	DECQ CX
	JNZ posloop
	MOVQ $8, CX

prevloop:
	MINMAX8(DI)
	DECQ CX
	JNZ prevloop

	VMOVUPS Y0, 0(DX)
	VMOVUPS Y1, 32(DX)
	VMOVUPS Y2, 64(DX)
	VMOVUPS Y3, 96(DX)
	VMOVUPS Y4, 128(DX)
	VMOVUPS Y5, 160(DX)

	// Radii: the largest, lane by lane. Groups: the group bits of the
	// particles whose inverse mass is not 0 (ordered compare), ORed.
	VMOVUPS 0(R8), Y6
	VXORPS Y7, Y7, Y7
	VXORPS Y9, Y9, Y9
	MOVQ $8, CX

restloop:
	VMAXPS 0(R8), Y6, Y6
	VMOVUPS 0(R9), Y8
	VCMPPS $0x0C, Y9, Y8, Y8
	VANDPS 0(R10), Y8, Y8
	VORPS Y8, Y7, Y7
	ADDQ $32, R8
	ADDQ $32, R9
	ADDQ $32, R10
	DECQ CX
	JNZ restloop

	VMOVUPS Y6, 192(DX)
	VMOVUPS Y7, 224(DX)
	VZEROUPPER
	RET
