//go:build !purego

#include "textflag.h"
#include "../internal/simd/macros_amd64.h"

// Offsets in linkGroupArgs.
#define ARG_POS 0
#define ARG_GROUP 8
#define ARG_LAMBDA 16
#define ARG_EPS 24
#define ARG_FIRST 28
#define ARG_EXACT 32

// Offsets in linkGroup (eight int32 or float32 per field).
#define G_A3 0
#define G_B3 32
#define G_REST 64
#define G_ALPHAH 96
#define G_INVDEN 128
#define G_WA 160
#define G_WB 192
#define G_SIZE 224

// ROW12 loads the particle whose float index is the int32 at OFF(R8) into
// X as x, y, z, 0: an 8-byte and a 4-byte load, the sizes PUT stores, so
// that the processor forwards a particle that a group just wrote to the
// next group that reads it. ROWS's 16-byte load spans two of PUT's stores
// (and the next particle's), which the processor cannot forward: the load
// waits until the stores have reached the cache (see linkGroupArgs.exact).
#define ROW12(OFF, X) \
	MOVLQSX OFF(R8), BX; \
	VMOVSD (SI)(BX*4), X; \
	VINSERTPS $0x20, 8(SI)(BX*4), X, X

// ROWS12 is ROWS with ROW12's loads; XT is scratch.
#define ROWS12(OFF, R0, R1, R2, R3, X0, X1, X2, X3, XT) \
	ROW12(OFF+0, X0); \
	ROW12(OFF+4, X1); \
	ROW12(OFF+8, X2); \
	ROW12(OFF+12, X3); \
	ROW12(OFF+16, XT); \
	VINSERTF128 $1, XT, R0, R0; \
	ROW12(OFF+20, XT); \
	VINSERTF128 $1, XT, R1, R1; \
	ROW12(OFF+24, XT); \
	VINSERTF128 $1, XT, R2, R2; \
	ROW12(OFF+28, XT); \
	VINSERTF128 $1, XT, R3, R3

// Columns of the two ends and their difference.
#define PAX Y3
#define PAY Y5
#define PAZ Y2
#define PBX Y7
#define PBY Y9
#define PBZ Y6
#define VDX Y8
#define VDY Y10
#define VDZ Y11

// func solveLinkGroups(args *linkGroupArgs, n int) int
//
// One pass over n link groups, each computed as solveLinks computes a
// plain XPBD link, operation for operation (see linkvec.go).
TEXT ·solveLinkGroups(SB), NOSPLIT, $0-24
	MOVQ args+0(FP), DI
	MOVQ n+8(FP), CX
	XORQ AX, AX
	TESTQ CX, CX
	JLE done
	MOVQ ARG_POS(DI), SI
	MOVQ ARG_GROUP(DI), R8
	MOVQ ARG_LAMBDA(DI), R9
	MOVL ARG_FIRST(DI), DX
	MOVL ARG_EXACT(DI), R10
	VBROADCASTSS ARG_EPS(DI), Y13

loop:
	TESTL R10, R10
	JNZ exact
	ROWS(G_A3, Y2, Y3, Y4, Y5, X2, X3, X4, X5)
	ROWS(G_B3, Y6, Y7, Y8, Y9, X6, X7, X8, X9)
	JMP loaded

exact:
	ROWS12(G_A3, Y2, Y3, Y4, Y5, X2, X3, X4, X5, X0)
	ROWS12(G_B3, Y6, Y7, Y8, Y9, X6, X7, X8, X9, X0)

loaded:
	COLUMNS(Y2, Y3, Y4, Y5, Y0, Y1)
	COLUMNS(Y6, Y7, Y8, Y9, Y0, Y1)
	VSUBPS PAX, PBX, VDX // dx = bx - ax
	VSUBPS PAY, PBY, VDY
	VSUBPS PAZ, PBZ, VDZ
	NORM2(VDX, VDY, VDZ, Y12, Y14) // d2
	VCMPPS $0x11, Y13, Y12, Y14 // d2 < eps (ordered, quiet)
	VMOVMSKPS Y14, BX
	TESTL BX, BX
	JNZ done
	VSQRTPS Y12, Y12 // d
	VMOVUPS G_REST(R8), Y4
	VSUBPS Y12, Y4, Y4 // rest - d
	VXORPS Y14, Y14, Y14
	TESTL DX, DX
	JNZ havelam
	VMOVUPS (R9), Y14 // lam

havelam:
	VMULPS G_ALPHAH(R8), Y14, Y0 // alphaH*lam
	VSUBPS Y0, Y4, Y4
	VMULPS G_INVDEN(R8), Y4, Y4 // dl
	VADDPS Y4, Y14, Y14
	VMOVUPS Y14, (R9) // lambda = lam + dl
	VDIVPS Y12, Y4, Y4 // s = dl / d
	VMULPS G_WA(R8), Y4, Y0 // ka
	VMULPS G_WB(R8), Y4, Y1 // kb
	VMULPS VDX, Y0, Y14
	VSUBPS Y14, PAX, PAX // ax - ka*dx
	VMULPS VDY, Y0, Y14
	VSUBPS Y14, PAY, PAY
	VMULPS VDZ, Y0, Y14
	VSUBPS Y14, PAZ, PAZ
	VMULPS VDX, Y1, Y14
	VADDPS Y14, PBX, PBX // bx + kb*dx
	VMULPS VDY, Y1, Y14
	VADDPS Y14, PBY, PBY
	VMULPS VDZ, Y1, Y14
	VADDPS Y14, PBZ, PBZ
	BACKTOROWS(PAX, PAY, PAZ, Y0, Y1, Y4, Y12)
	PUT8(G_A3, PAX, PAY, PAZ, Y0, X3, X5, X2, X0)
	BACKTOROWS(PBX, PBY, PBZ, Y0, Y1, Y4, Y12)
	PUT8(G_B3, PBX, PBY, PBZ, Y0, X7, X9, X6, X0)
	ADDQ $G_SIZE, R8
	ADDQ $32, R9
	INCQ AX
	CMPQ AX, CX
	JLT loop

done:
	VZEROUPPER
	MOVQ AX, ret+16(FP)
	RET
