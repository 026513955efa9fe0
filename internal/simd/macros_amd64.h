// Macros shared by drape's AVX2 kernels
// (#include "../internal/simd/macros_amd64.h").
//
// Transposes between particles and coordinates: a row is one particle's
// x, y, z and one float more; rows 0-3 sit in the low halves of four YMM
// registers and rows 4-7 in their high halves, so one transpose turns
// eight particles into three columns of eight.

// ROWS loads the eight particles of the float array at SI whose float
// indices are the int32s at OFF(R8): particles 0-3 into the low halves of
// R0-R3, 4-7 into their high halves, as rows (x, y, z, and the next
// particle's x, which is ignored; the caller keeps the array's last
// particle out, so that a row never reads past its end). BX is scratch.
#define ROWS(OFF, R0, R1, R2, R3, X0, X1, X2, X3) \
	MOVLQSX OFF+0(R8), BX; \
	VMOVUPS (SI)(BX*4), X0; \
	MOVLQSX OFF+4(R8), BX; \
	VMOVUPS (SI)(BX*4), X1; \
	MOVLQSX OFF+8(R8), BX; \
	VMOVUPS (SI)(BX*4), X2; \
	MOVLQSX OFF+12(R8), BX; \
	VMOVUPS (SI)(BX*4), X3; \
	MOVLQSX OFF+16(R8), BX; \
	VINSERTF128 $1, (SI)(BX*4), R0, R0; \
	MOVLQSX OFF+20(R8), BX; \
	VINSERTF128 $1, (SI)(BX*4), R1, R1; \
	MOVLQSX OFF+24(R8), BX; \
	VINSERTF128 $1, (SI)(BX*4), R2, R2; \
	MOVLQSX OFF+28(R8), BX; \
	VINSERTF128 $1, (SI)(BX*4), R3, R3

// PUT writes x, y and z of row XR's low half to the particle whose float
// index is the int32 at OFF(R8): 12 bytes, never the next particle's.
#define PUT(OFF, XR) \
	MOVLQSX OFF(R8), BX; \
	VMOVSD XR, (SI)(BX*4); \
	VEXTRACTPS $2, XR, 8(SI)(BX*4)

// PUT8 writes rows R0-R3 (low halves: particles 0-3, high: 4-7) to the
// particles of index field OFF; it destroys the rows.
#define PUT8(OFF, R0, R1, R2, R3, X0, X1, X2, X3) \
	PUT(OFF+0, X0); \
	PUT(OFF+4, X1); \
	PUT(OFF+8, X2); \
	PUT(OFF+12, X3); \
	VEXTRACTF128 $1, R0, X0; \
	VEXTRACTF128 $1, R1, X1; \
	VEXTRACTF128 $1, R2, X2; \
	VEXTRACTF128 $1, R3, X3; \
	PUT(OFF+16, X0); \
	PUT(OFF+20, X1); \
	PUT(OFF+24, X2); \
	PUT(OFF+28, X3)

// COLUMNS turns rows R0-R3 into columns: x in R1, y in R3, z in R0 (T0
// and T1 are scratch).
#define COLUMNS(R0, R1, R2, R3, T0, T1) \
	VUNPCKLPS R1, R0, T0; \
	VUNPCKLPS R3, R2, T1; \
	VUNPCKHPS R1, R0, R0; \
	VUNPCKHPS R3, R2, R2; \
	VSHUFPS $0x44, T1, T0, R1; \
	VSHUFPS $0xEE, T1, T0, R3; \
	VSHUFPS $0x44, R2, R0, R0

// BACKTOROWS turns columns X, Y, Z into rows (x, y, z, z): particles 0
// and 4 in X, 1 and 5 in Y, 2 and 6 in Z, 3 and 7 in T0 (T1-T3 scratch).
#define BACKTOROWS(X, Y, Z, T0, T1, T2, T3) \
	VUNPCKLPS Y, X, T0; \
	VUNPCKHPS Y, X, T1; \
	VUNPCKLPS Z, Z, T2; \
	VUNPCKHPS Z, Z, T3; \
	VSHUFPS $0x44, T2, T0, X; \
	VSHUFPS $0xEE, T2, T0, Y; \
	VSHUFPS $0x44, T3, T1, Z; \
	VSHUFPS $0xEE, T3, T1, T0


// NORM2 sets OUT to X·X + Y·Y + Z·Z, summed in that order as Go sums
// x*x + y*y + z*z (T is scratch).
#define NORM2(X, Y, Z, OUT, T) \
	VMULPS X, X, OUT; \
	VMULPS Y, Y, T; \
	VADDPS T, OUT, OUT; \
	VMULPS Z, Z, T; \
	VADDPS T, OUT, OUT
