//go:build !purego

#include "textflag.h"
#include "../internal/simd/contig_amd64.h"

// Offsets in carryArgs (carry_kernel.go; TestCarryArgsLayout checks them).
#define C_POS 0
#define C_PREV 8
#define C_INV 16
#define C_GROUPS 24
#define C_FX 32
#define C_FY 64
#define C_FZ 96
#define C_TX 128
#define C_TY 160
#define C_TZ 192
#define C_M 224 // m[k] at C_M + 32k

// MOVE8 moves the eight particles at BASE as carry moves one: with
// (x, y, z) = p - from, p becomes to + M·(x, y, z), each sum in Go's order
// ((t + m0·x) + m3·y) + m6·z, in every lane but those of the mask in Y15
// (inverse mass 0), which keep their bits.
#define MOVE8(BASE) \
	COLS8(BASE, Y0, Y1, Y2, Y3); \
	VSUBPS C_FX(DI), Y0, Y3; \
	VSUBPS C_FY(DI), Y1, Y4; \
	VSUBPS C_FZ(DI), Y2, Y5; \
	VMULPS C_M+0(DI), Y3, Y6; \
	VADDPS C_TX(DI), Y6, Y6; \
	VMULPS C_M+96(DI), Y4, Y7; \
	VADDPS Y7, Y6, Y6; \
	VMULPS C_M+192(DI), Y5, Y7; \
	VADDPS Y7, Y6, Y6; \
	VMULPS C_M+32(DI), Y3, Y8; \
	VADDPS C_TY(DI), Y8, Y8; \
	VMULPS C_M+128(DI), Y4, Y7; \
	VADDPS Y7, Y8, Y8; \
	VMULPS C_M+224(DI), Y5, Y7; \
	VADDPS Y7, Y8, Y8; \
	VMULPS C_M+64(DI), Y3, Y9; \
	VADDPS C_TZ(DI), Y9, Y9; \
	VMULPS C_M+160(DI), Y4, Y7; \
	VADDPS Y7, Y9, Y9; \
	VMULPS C_M+256(DI), Y5, Y7; \
	VADDPS Y7, Y9, Y9; \
	VBLENDVPS Y15, Y0, Y6, Y6; \
	VBLENDVPS Y15, Y1, Y8, Y8; \
	VBLENDVPS Y15, Y2, Y9, Y9; \
	STORE8(BASE, Y6, Y8, Y9, Y10)

// func carryParticles(a *carryArgs)
//
// carry's work (step.go) on a.groups groups of eight consecutive particles
// and their previous positions.
TEXT ·carryParticles(SB), NOSPLIT, $0-8
	MOVQ a+0(FP), DI
	MOVQ C_GROUPS(DI), CX
	TESTQ CX, CX
	JLE done
	MOVQ C_POS(DI), SI
	MOVQ C_PREV(DI), R8
	MOVQ C_INV(DI), R9
	LOADPERMS

loop:
	VXORPS Y15, Y15, Y15
	VCMPPS $0, (R9), Y15, Y15 // inv == 0 (ordered: a NaN inverse mass moves, as in Go)
	MOVE8(SI)
	MOVE8(R8)
	ADDQ $96, SI
	ADDQ $96, R8
	ADDQ $32, R9
	DECQ CX
	JNZ loop

done:
	VZEROUPPER
	RET
