//go:build !purego

#include "textflag.h"

// func finiteGroups(v *mgl32.Vec3, n int) bool
//
// Whether every coordinate of the n groups of eight Vec3s at v (24 floats
// a group) is finite. A float is finite when its bits without the sign
// are at most 0x7F7FFFFF (the largest finite float); the bits without the
// sign are kept as the lane maximum, an unsigned integer maximum, so no
// value can overflow or hide another (a sum of the floats overflows on
// huge finite values, and a NaN compares false).
TEXT ·finiteGroups(SB), NOSPLIT, $0-17
	MOVQ v+0(FP), SI
	MOVQ n+8(FP), CX
	VPCMPEQD Y15, Y15, Y15
	VPSRLD $1, Y15, Y15 // 0x7FFFFFFF: every bit but the sign
	VPXOR Y0, Y0, Y0
	VPXOR Y1, Y1, Y1
	VPXOR Y2, Y2, Y2
	TESTQ CX, CX
	JZ done

loop:
	VPAND 0(SI), Y15, Y3
	VPAND 32(SI), Y15, Y4
	VPAND 64(SI), Y15, Y5
	VPMAXUD Y3, Y0, Y0
	VPMAXUD Y4, Y1, Y1
	VPMAXUD Y5, Y2, Y2
	ADDQ $96, SI
	DECQ CX
	JNZ loop

done:
	VPMAXUD Y1, Y0, Y0
	VPMAXUD Y2, Y0, Y0
	// A lane above 0x7F7FFFFF is an infinity or a NaN. The lanes are at
	// most 0x7FFFFFFF, so a signed compare is right.
	MOVL $0x7F7FFFFF, AX
	VMOVD AX, X14
	VPBROADCASTD X14, Y14
	VPCMPGTD Y14, Y0, Y0
	VPTEST Y0, Y0
	SETEQ ret+16(FP)
	VZEROUPPER
	RET
