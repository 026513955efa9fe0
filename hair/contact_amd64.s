//go:build !purego

#include "textflag.h"
#include "../internal/simd/macros_amd64.h"
#include "../internal/simd/contig_amd64.h"

// Offsets in contactArgs and headConsts (contact_kernel.go;
// TestContactArgsLayout): the constants are read through K_C (R11).
#define K_POS 0
#define K_PREV 8
#define K_INV 16
#define K_GROUPS 24
#define K_FRICTION 32
#define K_C 40
#define K_CX 0
#define K_CY 32
#define K_CZ 64
#define K_TOUCH2 96
#define K_EPS 128
#define K_MINR 160
#define K_MU 192
#define K_M 224 // m[k] at K_M + 32k
#define K_E 512 // e[k] at K_E + 32k
#define K_EX 800
#define K_EY 832
#define K_EZ 864

// ROW3 sets OUT to A·X + B·Y + C·Z for the broadcast A, B, C at offsets
// OA, OB, OC, summed in Go's order (a·x + b·y) + c·z (T scratch).
#define ROW3(OA, OB, OC, X, Y, Z, OUT, T) \
	VMULPS OA(R11), X, OUT; \
	VMULPS OB(R11), Y, T; \
	VADDPS T, OUT, OUT; \
	VMULPS OC(R11), Z, T; \
	VADDPS T, OUT, OUT

// func headContacts(a *contactArgs)
//
// headContact's work (step.go) on a.groups groups of eight consecutive
// particles: active lanes (Y15) are those the loop does not skip (inverse
// mass not 0, distance² below touch2 and not below eps, NaN included, as
// the loop's comparisons let it through); of those, the ones closer than
// minR are put out on the sphere (mask Y7), and with friction every active
// lane's previous position loses mu of its motion over the scalp.
TEXT ·headContacts(SB), NOSPLIT, $0-8
	MOVQ a+0(FP), DI
	MOVQ K_GROUPS(DI), CX
	TESTQ CX, CX
	JLE done
	MOVQ K_POS(DI), SI
	MOVQ K_PREV(DI), R8
	MOVQ K_INV(DI), R9
	MOVQ K_FRICTION(DI), R10
	MOVQ K_C(DI), R11
	LOADPERMS

loop:
	COLS8(SI, Y0, Y1, Y2, Y3) // p
	VSUBPS K_CX(R11), Y0, Y3 // d = p - c
	VSUBPS K_CY(R11), Y1, Y4
	VSUBPS K_CZ(R11), Y2, Y5
	NORM2(Y3, Y4, Y5, Y6, Y7) // d2
	VCMPPS $0x09, K_TOUCH2(R11), Y6, Y15 // !(d2 >= touch2)
	VCMPPS $0x05, K_EPS(R11), Y6, Y7 // !(d2 < eps)
	VANDPS Y7, Y15, Y15
	VXORPS Y8, Y8, Y8
	VCMPPS $0x04, (R9), Y8, Y7 // inv != 0 (NaN too)
	VANDPS Y7, Y15, Y15
	VMOVMSKPS Y15, AX
	TESTL AX, AX
	JZ next // no lane the loop would not skip
	VSQRTPS Y6, Y6 // |d|
	VCMPPS $0x11, K_MINR(R11), Y6, Y7 // |d| < minR
	VANDPS Y15, Y7, Y7
	VDIVPS Y6, Y3, Y3 // n = d / |d|
	VDIVPS Y6, Y4, Y4
	VDIVPS Y6, Y5, Y5
	VMOVMSKPS Y7, AX
	TESTL AX, AX
	JZ pushed
	// p = c + n·minR in the lanes of Y7.
	VMULPS K_MINR(R11), Y3, Y8
	VADDPS K_CX(R11), Y8, Y8
	VBLENDVPS Y7, Y8, Y0, Y0
	VMULPS K_MINR(R11), Y4, Y8
	VADDPS K_CY(R11), Y8, Y8
	VBLENDVPS Y7, Y8, Y1, Y1
	VMULPS K_MINR(R11), Y5, Y8
	VADDPS K_CZ(R11), Y8, Y8
	VBLENDVPS Y7, Y8, Y2, Y2
	VMOVAPS Y0, Y8
	VMOVAPS Y1, Y9
	VMOVAPS Y2, Y10
	STORE8(SI, Y8, Y9, Y10, Y6)

pushed:
	TESTQ R10, R10
	JZ next
	// l = p - c, u = m·l (to the head's local frame), w = e·u + ec
	// (back to world by the previous frame): where the scalp under p was.
	VSUBPS K_CX(R11), Y0, Y0
	VSUBPS K_CY(R11), Y1, Y1
	VSUBPS K_CZ(R11), Y2, Y2
	ROW3(K_M+0, K_M+32, K_M+64, Y0, Y1, Y2, Y6, Y7)
	ROW3(K_M+96, K_M+128, K_M+160, Y0, Y1, Y2, Y8, Y7)
	ROW3(K_M+192, K_M+224, K_M+256, Y0, Y1, Y2, Y9, Y7)
	ROW3(K_E+0, K_E+96, K_E+192, Y6, Y8, Y9, Y0, Y7)
	VADDPS K_EX(R11), Y0, Y0
	ROW3(K_E+32, K_E+128, K_E+224, Y6, Y8, Y9, Y1, Y7)
	VADDPS K_EY(R11), Y1, Y1
	ROW3(K_E+64, K_E+160, K_E+256, Y6, Y8, Y9, Y2, Y7)
	VADDPS K_EZ(R11), Y2, Y2
	COLS8(R8, Y6, Y8, Y9, Y7) // q
	VSUBPS Y6, Y0, Y0 // v = w - q
	VSUBPS Y8, Y1, Y1
	VSUBPS Y9, Y2, Y2
	VMULPS Y3, Y0, Y7 // vn = v·n
	VMULPS Y4, Y1, Y10
	VADDPS Y10, Y7, Y7
	VMULPS Y5, Y2, Y10
	VADDPS Y10, Y7, Y7
	VMULPS Y7, Y3, Y10 // t = v - vn·n; q + mu·t in the active lanes
	VSUBPS Y10, Y0, Y0
	VMULPS K_MU(R11), Y0, Y0
	VADDPS Y0, Y6, Y0
	VBLENDVPS Y15, Y0, Y6, Y0
	VMULPS Y7, Y4, Y10
	VSUBPS Y10, Y1, Y1
	VMULPS K_MU(R11), Y1, Y1
	VADDPS Y1, Y8, Y1
	VBLENDVPS Y15, Y1, Y8, Y1
	VMULPS Y7, Y5, Y10
	VSUBPS Y10, Y2, Y2
	VMULPS K_MU(R11), Y2, Y2
	VADDPS Y2, Y9, Y2
	VBLENDVPS Y15, Y2, Y9, Y2
	STORE8(R8, Y0, Y1, Y2, Y7)

next:
	ADDQ $96, SI
	ADDQ $96, R8
	ADDQ $32, R9
	DECQ CX
	JNZ loop

done:
	VZEROUPPER
	RET
