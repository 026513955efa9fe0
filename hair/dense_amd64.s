//go:build !purego

#include "textflag.h"
#include "../internal/simd/macros_amd64.h"
#include "strided_amd64.h"
#include "../internal/simd/contig_amd64.h"

// Offsets in denseArgs (dense_kernel.go; TestDenseArgsLayout).
#define E_DL 0
#define E_OUT 8
#define E_TAN 16
#define E_SEGS 24
#define E_STRIDEP 32
#define E_STRIDEW 40
#define E_J 48
#define E_K 56
#define E_ROOTP 64
#define E_OFFP 72
#define E_WP 80
#define E_GP 88
#define E_SEGP 96
#define E_ROOT 128
#define E_OFF 224
#define E_W 320
#define E_G 416
#define E_L 512
#define E_QQ 544

// Offsets in denseConsts, at CX.
#define K_M 0
#define K_C 288
#define K_MINR2 384
#define K_EPS 416
#define K_ONEF 448
#define K_TINY 480
#define K_INVSEG 512
#define K_PER3 544

// COLUMNS3 stores the three columns A, B, C at OFF(DI), 32 bytes apart.
#define COLUMNS3(A, B, C, OFF) \
	VMOVUPS A, OFF(DI); \
	VMOVUPS B, OFF+32(DI); \
	VMOVUPS C, OFF+64(DI)

// APPLY sets OUT to coordinate K of the head frame's apply of X, Y, Z:
// ((m[K]·x + m[K+3]·y) + m[K+6]·z) + c[K], as frame.apply sums it (T
// scratch).
#define APPLY(K, X, Y, Z, OUT, T) \
	VMULPS K_M+K*32(CX), X, OUT; \
	VMULPS K_M+(K+3)*32(CX), Y, T; \
	VADDPS T, OUT, OUT; \
	VMULPS K_M+(K+6)*32(CX), Z, T; \
	VADDPS T, OUT, OUT; \
	VADDPS K_C+K*32(CX), OUT, OUT

// LANEROWLO loads the four floats of a lane's guide from AX, the guide's
// first float read at OFF(DI), into X (a YMM register's low half);
// LANEROWHI into Y's high half. The fourth float is the next vertex's x
// (the deltas have a vertex more than they hold, for the last).
#define LANEROWLO(OFF, X) \
	MOVLQSX OFF(DI), BX; \
	VMOVUPS (AX)(BX*4), X
#define LANEROWHI(OFF, Y) \
	MOVLQSX OFF(DI), BX; \
	VINSERTF128 $1, (AX)(BX*4), Y, Y

// BLEND adds to Y3-Y5 the weight at W times segment j of the lanes'
// guides whose first floats are at G (AX points at segment j of guide
// 0): each lane's segment is loaded as a row and the rows turned into
// columns, as PROWS and COLUMNS do, then v + w·x, as update sums
// o + w0·a + w1·b + w2·e.
#define BLEND(G, W) \
	LANEROWLO(G, X9); \
	LANEROWLO(G+4, X10); \
	LANEROWLO(G+8, X11); \
	LANEROWLO(G+12, X12); \
	LANEROWHI(G+16, Y9); \
	LANEROWHI(G+20, Y10); \
	LANEROWHI(G+24, Y11); \
	LANEROWHI(G+28, Y12); \
	COLUMNS(Y9, Y10, Y11, Y12, Y13, Y14); \
	VMULPS W(DI), Y10, Y10; \
	VADDPS Y10, Y3, Y3; \
	VMULPS W(DI), Y12, Y12; \
	VADDPS Y12, Y4, Y4; \
	VMULPS W(DI), Y9, Y9; \
	VADDPS Y9, Y5, Y5

// STOREQ writes Y0-Y2 as the lanes' vertex at SI (Y6, Y9-Y14 scratch).
#define STOREQ \
	VMOVAPS Y0, Y9; \
	VMOVAPS Y1, Y10; \
	VMOVAPS Y2, Y11; \
	PSTORE(SI, Y9, Y10, Y11, X9, X10, X11, Y12, X12, Y13, Y14, Y6)

// TANGENT writes at DX, and moves DX past, the lanes' unit tangents
// along X, Y, Z (destroyed), as tangents finds them: x·(1/sqrt(l2)),
// flagging in Y15 the lanes with l2 < 1e-24 or NaN (!(l2 >= 1e-24)),
// which tangents handles apart. Y9-Y12 scratch.
#define TANGENT(X, Y, Z, XX, XY, XZ) \
	NORM2(X, Y, Z, Y9, Y10); \
	VCMPPS $0x09, K_TINY(CX), Y9, Y10; \
	VORPS Y10, Y15, Y15; \
	VSQRTPS Y9, Y9; \
	VMOVUPS K_ONEF(CX), Y10; \
	VDIVPS Y9, Y10, Y10; \
	VMULPS Y10, X, X; \
	VMULPS Y10, Y, Y; \
	VMULPS Y10, Z, Z; \
	PSTORE(DX, X, Y, Z, XX, XY, XZ, Y9, X9, Y10, Y11, Y12); \
	ADDQ $12, DX

// func denseStrands8(a *denseArgs) uint64
//
// Dense.update's work on eight render strands side by side: from the
// root, each vertex is the last plus the blend of its three guides'
// segment j (loaded lane by lane) and the offset, scaled to the strand's
// segment length, in update's order of operations; the tangent at a
// vertex is the unit difference of its neighbours (of the vertex and its
// one neighbour at the ends), written once the next vertex is known (the
// one before that is kept in a.qq). It returns the lanes (bit l for
// strand l) that update must redo: a blend too short to scale
// (!(l2 > 1e-20)), a vertex inside the head (|q - c|² < minR²), which
// update pushes out, or a tangent too short; their vertices and tangents
// here are to be overwritten.
TEXT ·denseStrands8(SB), NOSPLIT, $0-16
	MOVQ a+0(FP), DI
	STRIDES(E_STRIDEP, E_STRIDEW)
	MOVQ E_K(DI), CX // CX's float stride is not used here

	// The lanes' roots and offsets, turned with the head (update's
	// f.apply(root), and (f.apply(offset) - c)·(1/seg)), their weights,
	// guides (times per·3: their first floats in dl) and segment
	// lengths, as columns.
	LOADPERMS
	MOVQ E_ROOTP(DI), BX
	COLS8(BX, Y0, Y1, Y2, Y3)
	APPLY(0, Y0, Y1, Y2, Y4, Y7)
	APPLY(1, Y0, Y1, Y2, Y5, Y7)
	APPLY(2, Y0, Y1, Y2, Y6, Y7)
	COLUMNS3(Y4, Y5, Y6, E_ROOT)
	MOVQ E_OFFP(DI), BX
	COLS8(BX, Y0, Y1, Y2, Y3)
	APPLY(0, Y0, Y1, Y2, Y4, Y7)
	APPLY(1, Y0, Y1, Y2, Y5, Y7)
	APPLY(2, Y0, Y1, Y2, Y6, Y7)
	VSUBPS K_C(CX), Y4, Y4
	VSUBPS K_C+32(CX), Y5, Y5
	VSUBPS K_C+64(CX), Y6, Y6
	VMULPS K_INVSEG(CX), Y4, Y4
	VMULPS K_INVSEG(CX), Y5, Y5
	VMULPS K_INVSEG(CX), Y6, Y6
	COLUMNS3(Y4, Y5, Y6, E_OFF)
	MOVQ E_WP(DI), BX
	COLS8(BX, Y0, Y1, Y2, Y3)
	COLUMNS3(Y0, Y1, Y2, E_W)
	MOVQ E_GP(DI), BX
	COLS8(BX, Y0, Y1, Y2, Y3)
	VPMULLD K_PER3(CX), Y0, Y0
	VPMULLD K_PER3(CX), Y1, Y1
	VPMULLD K_PER3(CX), Y2, Y2
	COLUMNS3(Y0, Y1, Y2, E_G)
	MOVQ E_SEGP(DI), BX
	VMOVUPS (BX), Y0
	VMOVUPS Y0, E_L(DI)

	MOVQ E_DL(DI), AX
	MOVQ E_OUT(DI), SI
	MOVQ E_TAN(DI), DX // DX's float stride is not used here
	VMOVUPS E_ROOT(DI), Y0
	VMOVUPS E_ROOT+32(DI), Y1
	VMOVUPS E_ROOT+64(DI), Y2
	VMOVUPS Y0, E_QQ(DI)
	VMOVUPS Y1, E_QQ+32(DI)
	VMOVUPS Y2, E_QQ+64(DI)
	VXORPS Y15, Y15, Y15
	STOREQ
	MOVQ E_SEGS(DI), BX
	MOVQ BX, E_J(DI)

loop:
	ADDQ $12, SI
	ADDQ $12, AX // segment j of guide 0
	VMOVUPS E_OFF(DI), Y3
	VMOVUPS E_OFF+32(DI), Y4
	VMOVUPS E_OFF+64(DI), Y5
	BLEND(E_G, E_W)
	BLEND(E_G+32, E_W+32)
	BLEND(E_G+64, E_W+64)
	// k = l / sqrt(l2), as l·(1/sqrt(l2)).
	NORM2(Y3, Y4, Y5, Y9, Y10)
	VCMPPS $0x0A, K_EPS(CX), Y9, Y10 // !(l2 > 1e-20)
	VORPS Y10, Y15, Y15
	VSQRTPS Y9, Y9
	VMOVUPS K_ONEF(CX), Y10
	VDIVPS Y9, Y10, Y10
	VMULPS E_L(DI), Y10, Y10
	// q = p + v·k (Y3-Y5; p, Y0-Y2, is still the vertex before).
	VMULPS Y10, Y3, Y3
	VADDPS Y3, Y0, Y3
	VMULPS Y10, Y4, Y4
	VADDPS Y4, Y1, Y4
	VMULPS Y10, Y5, Y5
	VADDPS Y5, Y2, Y5
	// The tangent at vertex j-1: q minus the vertex before it (a.qq),
	// which then becomes p; p becomes q.
	VSUBPS E_QQ(DI), Y3, Y6
	VSUBPS E_QQ+32(DI), Y4, Y7
	VSUBPS E_QQ+64(DI), Y5, Y8
	VMOVUPS Y0, E_QQ(DI)
	VMOVUPS Y1, E_QQ+32(DI)
	VMOVUPS Y2, E_QQ+64(DI)
	VMOVAPS Y3, Y0
	VMOVAPS Y4, Y1
	VMOVAPS Y5, Y2
	TANGENT(Y6, Y7, Y8, X6, X7, X8)
	// Inside the head: |q - c|² < minR².
	VSUBPS K_C(CX), Y0, Y9
	VSUBPS K_C+32(CX), Y1, Y10
	VSUBPS K_C+64(CX), Y2, Y11
	NORM2(Y9, Y10, Y11, Y12, Y13)
	VCMPPS $0x01, K_MINR2(CX), Y12, Y12
	VORPS Y12, Y15, Y15
	STOREQ
	DECQ E_J(DI)
	JNZ loop

	// The tip's tangent: the last segment.
	VSUBPS E_QQ(DI), Y0, Y6
	VSUBPS E_QQ+32(DI), Y1, Y7
	VSUBPS E_QQ+64(DI), Y2, Y8
	TANGENT(Y6, Y7, Y8, X6, X7, X8)

	VMOVMSKPS Y15, BX
	MOVQ BX, ret+8(FP)
	VZEROUPPER
	RET
