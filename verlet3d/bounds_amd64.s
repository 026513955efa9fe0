//go:build !purego

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

// HREDUCE folds the eight lanes of Y (X is its low half, XT scratch)
// with OP into lane 0.
#define HREDUCE(OP, Y, X, XT) \
	VEXTRACTF128 $1, Y, XT; \
	OP XT, X, X; \
	VPERMILPS $0x4E, X, XT; \
	OP XT, X, X; \
	VPERMILPS $0xB1, X, XT; \
	OP XT, X, X

// COORD reduces with OP the lanes of one coordinate spread over A, B and
// C as in eight particles' 24 floats (see COLS8): A's lanes, with B's
// where MB is set and C's where MC is, then folds them, and stores the
// result at OFF(DX). It uses Y6 and Y7.
#define COORD(OP, A, B, C, MB, MC, OFF) \
	VBLENDPS MB, B, A, Y6; \
	VBLENDPS MC, C, Y6, Y6; \
	HREDUCE(OP, Y6, X6, X7); \
	VMOVSS X6, OFF(DX)

// func blockBounds(pos, prev *mgl32.Vec3, radius, invMass *float32, group *uint32, out *[8]float32)
//
// The box, largest radius and collision groups of 64 consecutive
// particles (a block of the collision broad phase): out[0:3] the least
// x, y and z over pos and prev (64 Vec3s each), out[3:6] the greatest,
// out[6] the largest radius and out[7] the group bits of the free
// particles (invMass != 0), ORed, as a float's bits. min and max of
// finite floats are exact in any order (a zero's sign aside, which no
// comparison sees): blocksRange's Go loop finds the same boxes.
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

	// Lane j of Y0-Y2 (and Y3-Y5) holds coordinate j%3 of the 24.
	COORD(VMINPS, Y0, Y1, Y2, $0x92, $0x24, 0)
	COORD(VMINPS, Y0, Y1, Y2, $0x24, $0x49, 4)
	COORD(VMINPS, Y0, Y1, Y2, $0x49, $0x92, 8)
	COORD(VMAXPS, Y3, Y4, Y5, $0x92, $0x24, 12)
	COORD(VMAXPS, Y3, Y4, Y5, $0x24, $0x49, 16)
	COORD(VMAXPS, Y3, Y4, Y5, $0x49, $0x92, 20)

	// Radii: the largest. Groups: the group bits of the particles whose
	// inverse mass is not 0 (ordered compare), ORed.
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

	HREDUCE(VMAXPS, Y6, X6, X8)
	VMOVSS X6, 24(DX)
	HREDUCE(VORPS, Y7, X7, X8)
	VMOVSS X7, 28(DX)
	VZEROUPPER
	RET

// The near kernel needs the lane orders of contig_amd64.h.
#include "../internal/simd/contig_amd64.h"

// NEARAXIS narrows the lanes kept in Y10 to the particles whose path
// along one axis (from P, its position, and Q, where it came from),
// grown by the radius-plus-margin lanes in Y9, does not miss the
// collider's extent along it, at LO(R11) and HI(R11): kept when
// !(min(P, Q) - r > hi) and !(max(P, Q) + r < lo), the negations of the
// Go loop's tests (NGT_US 0x0A, NLT_US 0x05), so the same particles pass.
#define NEARAXIS(P, Q, LO, HI) \
	VMINPS Q, P, Y7; \
	VMAXPS Q, P, Y6; \
	VSUBPS Y9, Y7, Y7; \
	VCMPPS $0x0A, HI(R11), Y7, Y7; \
	VADDPS Y9, Y6, Y6; \
	VCMPPS $0x05, LO(R11), Y6, Y6; \
	VANDPS Y7, Y10, Y10; \
	VANDPS Y6, Y10, Y10

// func pathsNear(pos, prev *mgl32.Vec3, radius, invMass *float32, group *uint32, a *nearArgs) uint64
//
// Bit k of the result is set when particle k of the 64 from pos (a block
// of the collision broad phase) may touch the collider whose box and
// mask a holds: it is free (invMass != 0), in a group of the mask, and
// the box around its path from prev to pos, grown by its radius plus
// a.margin, meets the collider's. collideParticles and clampRange test
// the same, particle by particle, where there is no kernel.
TEXT ·pathsNear(SB), NOSPLIT, $0-56
	MOVQ pos+0(FP), SI
	MOVQ prev+8(FP), DI
	MOVQ radius+16(FP), R8
	MOVQ invMass+24(FP), R9
	MOVQ group+32(FP), R10
	MOVQ a+40(FP), R11
	LOADPERMS
	VXORPS Y15, Y15, Y15
	XORQ BX, BX
	XORQ CX, CX // the shift of this group's eight bits

nearloop:
	VMOVUPS 0(R8), Y9
	VADDPS 192(R11), Y9, Y9
	// Free (invMass != 0, NEQ_UQ) and in the mask ((group & mask) == 0
	// lanes cleared).
	VCMPPS $0x04, 0(R9), Y15, Y10
	VMOVDQU 0(R10), Y8
	VPAND 224(R11), Y8, Y8
	VPCMPEQD Y15, Y8, Y8
	VANDNPS Y10, Y8, Y10
	COLS8(SI, Y0, Y1, Y2, Y6)
	COLS8(DI, Y3, Y4, Y5, Y6)
	NEARAXIS(Y0, Y3, 0, 96)
	NEARAXIS(Y1, Y4, 32, 128)
	NEARAXIS(Y2, Y5, 64, 160)
	VMOVMSKPS Y10, AX
	SHLQ CX, AX
	ORQ AX, BX
	ADDQ $96, SI
	ADDQ $96, DI
	ADDQ $32, R8
	ADDQ $32, R9
	ADDQ $32, R10
	ADDQ $8, CX
	CMPQ CX, $64
	JLT nearloop

	MOVQ BX, ret+48(FP)
	VZEROUPPER
	RET
