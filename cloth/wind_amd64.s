//go:build !purego

#include "textflag.h"
#include "../internal/simd/macros_amd64.h"

// Offsets in windArgs (wind_kernel.go).
#define W_TRIS 0
#define W_ALIVE 8
#define W_AIRS 16
#define W_CORNERS 40
#define W_POS 64
#define W_PREV 72
#define W_AIR 80
#define W_K3 92
#define W_CP 96
#define W_CQ 100
#define W_ONE 104
#define W_F 112
#define W_U 208
#define W_E 304
#define W_FALLBACK 496
#define W_LAST3 500
#define W_FORCE 504
#define W_NET 512

// func windGroup(a *windArgs)
//
// The wind force of eight consecutive triangles on each of their vertices,
// computed as WindForce.tri computes one, operation for operation in
// float32 (the square root and division in float64), into a.f: x, y, z,
// eight floats each. a.fallback gets a bit for each triangle tri would add
// a force for whose force is not finite or beyond maxWindForce (tri then
// finds it in float64), and all eight, before anything is found, when a
// corner is the World's last particle (a.last3). When there is none, the
// forces are added to a.force at the triangles' vertices, and to a.net,
// triangle by triangle as tri adds them.
TEXT ·windGroup(SB), NOSPLIT, $0-8
	MOVQ a+0(FP), DI
	MOVQ W_TRIS(DI), SI
	MOVQ W_ALIVE(DI), R8

	// Y14: the alive lanes (all ones), from the eight bools.
	VPMOVZXBD (R8), Y0
	VPXOR Y1, Y1, Y1
	VPCMPGTD Y1, Y0, Y14

	// A triangle on the World's last particle: the whole group goes
	// through tri (ROWS reads 16 bytes a particle, which would pass the
	// end of pos).
	VPBROADCASTD W_LAST3(DI), Y13
	MOVQ W_CORNERS+0(DI), R9
	VPCMPEQD (R9), Y13, Y0
	MOVQ W_CORNERS+8(DI), R9
	VPCMPEQD (R9), Y13, Y1
	VPOR Y1, Y0, Y0
	MOVQ W_CORNERS+16(DI), R9
	VPCMPEQD (R9), Y13, Y1
	VPOR Y1, Y0, Y0
	VPTEST Y0, Y0
	JZ inside
	MOVL $0xFF, W_FALLBACK(DI)
	JMP done

inside:
	// The air: uniform, or each triangle's cell's (WindForce.triAir).
	MOVQ W_AIRS(DI), R12
	TESTQ R12, R12
	JZ uniform
	VMOVUPS (R12), Y1
	VMOVUPS Y1, W_U(DI)
	MOVQ W_AIRS+8(DI), R12
	VMOVUPS (R12), Y1
	VMOVUPS Y1, W_U+32(DI)
	MOVQ W_AIRS+16(DI), R12
	VMOVUPS (R12), Y1
	VMOVUPS Y1, W_U+64(DI)
	JMP air

uniform:
	VBROADCASTSS W_AIR+0(DI), Y1
	VMOVUPS Y1, W_U(DI)
	VBROADCASTSS W_AIR+4(DI), Y1
	VMOVUPS Y1, W_U+32(DI)
	VBROADCASTSS W_AIR+8(DI), Y1
	VMOVUPS Y1, W_U+64(DI)

air:
	VBROADCASTSS W_K3(DI), Y15

	// The corners a, b, c (WindForce.corners) loaded as rows and turned
	// into columns (ROWS, COLUMNS: x in Y1, y in Y3, z in Y0): the edges
	// b - a and c - a into a.e, and the air relative to the triangle,
	// air - (a + b + c - qa - qb - qc)·k3, into a.u, each sum in Go's
	// order (the sum in Y7-Y9, a in Y4-Y6).
	MOVQ W_POS(DI), SI
	MOVQ W_CORNERS+0(DI), R8
	ROWS(0, Y0, Y1, Y2, Y3, X0, X1, X2, X3)
	COLUMNS(Y0, Y1, Y2, Y3, Y12, Y13)
	VMOVAPS Y1, Y4
	VMOVAPS Y3, Y5
	VMOVAPS Y0, Y6
#define EDGE(CORNER, E) \
	MOVQ W_CORNERS+CORNER(DI), R8; \
	ROWS(0, Y0, Y1, Y2, Y3, X0, X1, X2, X3); \
	COLUMNS(Y0, Y1, Y2, Y3, Y12, Y13); \
	VSUBPS Y4, Y1, Y2; \
	VMOVUPS Y2, W_E+E(DI); \
	VSUBPS Y5, Y3, Y2; \
	VMOVUPS Y2, W_E+E+32(DI); \
	VSUBPS Y6, Y0, Y2; \
	VMOVUPS Y2, W_E+E+64(DI)
	EDGE(8, 0)
	VADDPS Y1, Y4, Y7
	VADDPS Y3, Y5, Y8
	VADDPS Y0, Y6, Y9
	EDGE(16, 96)
	VADDPS Y1, Y7, Y7
	VADDPS Y3, Y8, Y8
	VADDPS Y0, Y9, Y9
	MOVQ W_PREV(DI), SI
#define PREVIOUS(CORNER) \
	MOVQ W_CORNERS+CORNER(DI), R8; \
	ROWS(0, Y0, Y1, Y2, Y3, X0, X1, X2, X3); \
	COLUMNS(Y0, Y1, Y2, Y3, Y12, Y13); \
	VSUBPS Y1, Y7, Y7; \
	VSUBPS Y3, Y8, Y8; \
	VSUBPS Y0, Y9, Y9
	PREVIOUS(0)
	PREVIOUS(8)
	PREVIOUS(16)
#define RELATIVE(SUM, OFF) \
	VMULPS Y15, SUM, SUM; \
	VMOVUPS W_U+OFF(DI), Y0; \
	VSUBPS SUM, Y0, Y0; \
	VMOVUPS Y0, W_U+OFF(DI)
	RELATIVE(Y7, 0)
	RELATIVE(Y8, 32)
	RELATIVE(Y9, 64)
	MOVQ W_TRIS(DI), SI

	// u in Y0-Y2, u·u in Y3; the edges e (Y4-Y6) and f (Y7-Y9).
	VMOVUPS W_U(DI), Y0
	VMOVUPS W_U+32(DI), Y1
	VMOVUPS W_U+64(DI), Y2
	VMULPS Y0, Y0, Y3
	VMULPS Y1, Y1, Y10
	VADDPS Y10, Y3, Y3
	VMULPS Y2, Y2, Y10
	VADDPS Y10, Y3, Y3
	VMOVUPS W_E(DI), Y4
	VMOVUPS W_E+32(DI), Y5
	VMOVUPS W_E+64(DI), Y6
	VMOVUPS W_E+96(DI), Y7
	VMOVUPS W_E+128(DI), Y8
	VMOVUPS W_E+160(DI), Y9

	// The normal n = e × f into Y10-Y12 (ey·fz - ez·fy, ez·fx - ex·fz,
	// ex·fy - ey·fx); Y13, Y15 scratch.
	VMULPS Y9, Y5, Y10
	VMULPS Y8, Y6, Y13
	VSUBPS Y13, Y10, Y10
	VMULPS Y7, Y6, Y11
	VMULPS Y9, Y4, Y13
	VSUBPS Y13, Y11, Y11
	VMULPS Y8, Y4, Y12
	VMULPS Y7, Y5, Y13
	VSUBPS Y13, Y12, Y12

	// n·n into Y4, u·n into Y5.
	VMULPS Y10, Y10, Y4
	VMULPS Y11, Y11, Y13
	VADDPS Y13, Y4, Y4
	VMULPS Y12, Y12, Y13
	VADDPS Y13, Y4, Y4
	VMULPS Y10, Y0, Y5
	VMULPS Y11, Y1, Y13
	VADDPS Y13, Y5, Y5
	VMULPS Y12, Y2, Y13
	VADDPS Y13, Y5, Y5

	// Valid: alive, u·u not below 1e-12 and n·n not below 1e-24 (NaN
	// passes both, as in tri), into Y14.
	MOVL $0x2B8CBCCC, AX // 1e-12
	VMOVD AX, X13
	VPBROADCASTD X13, Y13
	VCMPPS $0x05, Y13, Y3, Y6
	VANDPS Y6, Y14, Y14
	MOVL $0x179ABE15, AX // 1e-24
	VMOVD AX, X13
	VPBROADCASTD X13, Y13
	VCMPPS $0x05, Y13, Y4, Y6
	VANDPS Y6, Y14, Y14

	// 1 / sqrt(n·n · u·u) in float64, four lanes at a time, rounded to
	// float32, into Y6.
	VBROADCASTSD W_ONE(DI), Y15
	VCVTPS2PD X4, Y6
	VCVTPS2PD X3, Y7
	VMULPD Y7, Y6, Y6
	VSQRTPD Y6, Y6
	VDIVPD Y6, Y15, Y6
	VCVTPD2PSY Y6, X6
	VEXTRACTF128 $1, Y4, X7
	VCVTPS2PD X7, Y7
	VEXTRACTF128 $1, Y3, X8
	VCVTPS2PD X8, Y8
	VMULPD Y8, Y7, Y7
	VSQRTPD Y7, Y7
	VDIVPD Y7, Y15, Y7
	VCVTPD2PSY Y7, X7
	VINSERTF128 $1, X7, Y6, Y6

	// d = u·n · inv; an = cp·u²·d (Y7), au = cq·(u·n)·d (Y8).
	VMULPS Y6, Y5, Y6
	VBROADCASTSS W_CP(DI), Y7
	VMULPS Y3, Y7, Y7
	VMULPS Y6, Y7, Y7
	VBROADCASTSS W_CQ(DI), Y8
	VMULPS Y5, Y8, Y8
	VMULPS Y6, Y8, Y8

	// f = an·n - au·u into a.f; in range: every component within
	// ±maxWindForce (ordered), ANDed into Y15.
	MOVL $0x7149F2CA, AX // 1e30
	VMOVD AX, X13
	VPBROADCASTD X13, Y13
	MOVL $0xF149F2CA, AX // -1e30
	VMOVD AX, X9
	VPBROADCASTD X9, Y9
	VPCMPEQD Y15, Y15, Y15
#define FORCE(N, U, OFF) \
	VMULPS N, Y7, Y3; \
	VMULPS U, Y8, Y4; \
	VSUBPS Y4, Y3, Y3; \
	VMOVUPS Y3, W_F+OFF(DI); \
	VCMPPS $0x11, Y13, Y3, Y4; \
	VANDPS Y4, Y15, Y15; \
	VCMPPS $0x1E, Y9, Y3, Y4; \
	VANDPS Y4, Y15, Y15

	FORCE(Y10, Y0, 0)
	FORCE(Y11, Y1, 32)
	FORCE(Y12, Y2, 64)

	VMOVMSKPS Y14, AX // the triangles with a force
	VANDNPS Y14, Y15, Y15
	VMOVMSKPS Y15, BX
	MOVL BX, W_FALLBACK(DI)
	TESTL BX, BX
	JNZ done // the caller adds them, lane by lane

	// Triangle by triangle (the lowest bit of the valid ones first): f
	// to the net force (X0-X2) and to each of its three vertices.
	MOVQ W_FORCE(DI), R8
	VMOVSS W_NET+0(DI), X0
	VMOVSS W_NET+4(DI), X1
	VMOVSS W_NET+8(DI), X2
#define ADDTO(VOFF) \
	MOVLQSX VOFF(SI)(DX*4), R9; \
	LEAQ (R9)(R9*2), R9; \
	VADDSS 0(R8)(R9*4), X3, X6; \
	VMOVSS X6, 0(R8)(R9*4); \
	VADDSS 4(R8)(R9*4), X4, X6; \
	VMOVSS X6, 4(R8)(R9*4); \
	VADDSS 8(R8)(R9*4), X5, X6; \
	VMOVSS X6, 8(R8)(R9*4)

lanes:
	TESTL AX, AX
	JZ lanesdone
	BSFL AX, CX
	VMOVSS W_F(DI)(CX*4), X3
	VMOVSS W_F+32(DI)(CX*4), X4
	VMOVSS W_F+64(DI)(CX*4), X5
	VADDSS X3, X0, X0
	VADDSS X4, X1, X1
	VADDSS X5, X2, X2
	LEAQ (CX)(CX*2), DX // the triangle's first int32 in tris
	ADDTO(0)
	ADDTO(4)
	ADDTO(8)
	LEAL -1(AX), CX
	ANDL CX, AX
	JMP lanes

lanesdone:
	VMOVSS X0, W_NET+0(DI)
	VMOVSS X1, W_NET+4(DI)
	VMOVSS X2, W_NET+8(DI)

done:
	VZEROUPPER
	RET
