#include "textflag.h"

// func blockBounds(pos, prev *mgl32.Vec3, out *[48]float32)
//
// The bounds of 64 consecutive particles at pos and at prev (each 64
// Vec3s, 768 bytes), as lanes: out[0:24] the minimum and out[24:48] the
// maximum of every float at the same place in the 24-float (eight-
// particle) groups, so lane j holds coordinate j%3. min and max of finite
// floats are exact: the result is the Go loop's, bit for bit.
TEXT ·blockBounds(SB), NOSPLIT, $0-24
	MOVQ pos+0(FP), SI
	MOVQ prev+8(FP), DI
	MOVQ out+16(FP), DX
	VMOVUPS 0(SI), Y0
	VMOVUPS 32(SI), Y1
	VMOVUPS 64(SI), Y2
	VMOVAPS Y0, Y3
	VMOVAPS Y1, Y4
	VMOVAPS Y2, Y5
	ADDQ $96, SI
	MOVQ $7, CX

posloop:
	VMOVUPS 0(SI), Y6
	VMOVUPS 32(SI), Y7
	VMOVUPS 64(SI), Y8
	VMINPS Y6, Y0, Y0
	VMAXPS Y6, Y3, Y3
	VMINPS Y7, Y1, Y1
	VMAXPS Y7, Y4, Y4
	VMINPS Y8, Y2, Y2
	VMAXPS Y8, Y5, Y5
	ADDQ $96, SI
	DECQ CX
	JNZ posloop
	MOVQ $8, CX

prevloop:
	VMOVUPS 0(DI), Y6
	VMOVUPS 32(DI), Y7
	VMOVUPS 64(DI), Y8
	VMINPS Y6, Y0, Y0
	VMAXPS Y6, Y3, Y3
	VMINPS Y7, Y1, Y1
	VMAXPS Y7, Y4, Y4
	VMINPS Y8, Y2, Y2
	VMAXPS Y8, Y5, Y5
	ADDQ $96, DI
	DECQ CX
	JNZ prevloop

	VMOVUPS Y0, 0(DX)
	VMOVUPS Y1, 32(DX)
	VMOVUPS Y2, 64(DX)
	VMOVUPS Y3, 96(DX)
	VMOVUPS Y4, 128(DX)
	VMOVUPS Y5, 160(DX)
	VZEROUPPER
	RET
