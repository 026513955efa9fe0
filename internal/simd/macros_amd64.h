// Macros shared by drape's AVX2 kernels
// (#include "../internal/simd/macros_amd64.h").
//
// Transposes between particles and coordinates: a row is one particle's
// x, y, z and one float more; rows 0-3 sit in the low halves of four YMM
// registers and rows 4-7 in their high halves, so one transpose turns
// eight particles into three columns of eight.

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
