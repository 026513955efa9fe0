// Eight strands side by side, for the hair's AVX2 kernels (#include
// "strided_amd64.h"): lane l is strand l of a block, particle j of each.

// Lane l of a float array is l strides (R12 = 1, R13 = 3, DX = 5, CX = 7
// strides) past lane 0; of the positions, l strides (R8 = 1, R9 = 3,
// R10 = 5, R11 = 7 strides). BX is j·4 bytes, SI points at the positions
// of particle j of lane 0.

// STRIDES sets the stride registers above from the position and float
// strides (bytes) at SP(DI) and SW(DI).
#define STRIDES(SP, SW) \
	MOVQ SP(DI), R8; \
	LEAQ (R8)(R8*2), R9; \
	LEAQ (R8)(R8*4), R10; \
	LEAQ (R9)(R8*4), R11; \
	MOVQ SW(DI), R12; \
	LEAQ (R12)(R12*2), R13; \
	LEAQ (R12)(R12*4), DX; \
	LEAQ (R13)(R12*4), CX

// XCOL loads arr[o] of the eight lanes (arr's pointer at ARG(DI)) into OUT
// (Y9-Y14 scratch): each lane's row arr[o:o+4] is loaded, and the first
// column kept.
#define XCOL(ARG, OUT) \
	MOVQ ARG(DI), AX; \
	ADDQ BX, AX; \
	VMOVUPS (AX), X9; \
	VMOVUPS (AX)(R12*1), X10; \
	VMOVUPS (AX)(R12*2), X11; \
	VMOVUPS (AX)(R13*1), X12; \
	VINSERTF128 $1, (AX)(R12*4), Y9, Y9; \
	VINSERTF128 $1, (AX)(DX*1), Y10, Y10; \
	VINSERTF128 $1, (AX)(R13*2), Y11, Y11; \
	VINSERTF128 $1, (AX)(CX*1), Y12, Y12; \
	VUNPCKLPS Y10, Y9, Y13; \
	VUNPCKLPS Y12, Y11, Y14; \
	VSHUFPS $0x44, Y14, Y13, OUT

// PROWS loads the particles at BASE (lane 0; the lanes follow at the
// position strides) as rows in Y9-Y12.
#define PROWS(BASE) \
	VMOVUPS (BASE), X9; \
	VMOVUPS (BASE)(R8*1), X10; \
	VMOVUPS (BASE)(R8*2), X11; \
	VMOVUPS (BASE)(R9*1), X12; \
	VINSERTF128 $1, (BASE)(R8*4), Y9, Y9; \
	VINSERTF128 $1, (BASE)(R10*1), Y10, Y10; \
	VINSERTF128 $1, (BASE)(R9*2), Y11, Y11; \
	VINSERTF128 $1, (BASE)(R11*1), Y12, Y12

// PSTORE writes columns X, Y, Z (destroyed; XX, XY, XZ their low halves)
// as the particles at BASE (lane 0) and the position strides, 12 bytes
// each; T0-T3 scratch (XT0 T0's low half).
#define PSTORE(BASE, X, Y, Z, XX, XY, XZ, T0, XT0, T1, T2, T3) \
	BACKTOROWS(X, Y, Z, T0, T1, T2, T3); \
	VMOVSD XX, (BASE); \
	VEXTRACTPS $2, XX, 8(BASE); \
	VMOVSD XY, (BASE)(R8*1); \
	VEXTRACTPS $2, XY, 8(BASE)(R8*1); \
	VMOVSD XZ, (BASE)(R8*2); \
	VEXTRACTPS $2, XZ, 8(BASE)(R8*2); \
	VMOVSD XT0, (BASE)(R9*1); \
	VEXTRACTPS $2, XT0, 8(BASE)(R9*1); \
	VEXTRACTF128 $1, X, XX; \
	VEXTRACTF128 $1, Y, XY; \
	VEXTRACTF128 $1, Z, XZ; \
	VEXTRACTF128 $1, T0, XT0; \
	VMOVSD XX, (BASE)(R8*4); \
	VEXTRACTPS $2, XX, 8(BASE)(R8*4); \
	VMOVSD XY, (BASE)(R10*1); \
	VEXTRACTPS $2, XY, 8(BASE)(R10*1); \
	VMOVSD XZ, (BASE)(R9*2); \
	VEXTRACTPS $2, XZ, 8(BASE)(R9*2); \
	VMOVSD XT0, (BASE)(R11*1); \
	VEXTRACTPS $2, XT0, 8(BASE)(R11*1)
