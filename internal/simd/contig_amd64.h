// Eight consecutive particles as columns and back, for drape's AVX2
// kernels (#include "../internal/simd/contig_amd64.h" after textflag.h).
// It defines its lane-order tables as file-local data, so each including
// file has its own copy.

// Lane orders for turning eight particles (96 contiguous bytes: x0 y0 z0
// x1 ... z7, as three YMM words A, B, C) into columns and back. Blending
// A, B and C puts each coordinate's eight values in one register, out of
// order; VPERMPS with these indices orders them (columns: PERM_X, PERM_Y,
// PERM_Z), or disorders columns for the blends back (PERM_X, PERM_YBACK,
// PERM_Z).
DATA permX<>+0(SB)/4, $0
DATA permX<>+4(SB)/4, $3
DATA permX<>+8(SB)/4, $6
DATA permX<>+12(SB)/4, $1
DATA permX<>+16(SB)/4, $4
DATA permX<>+20(SB)/4, $7
DATA permX<>+24(SB)/4, $2
DATA permX<>+28(SB)/4, $5
GLOBL permX<>(SB), RODATA|NOPTR, $32

DATA permY<>+0(SB)/4, $1
DATA permY<>+4(SB)/4, $4
DATA permY<>+8(SB)/4, $7
DATA permY<>+12(SB)/4, $2
DATA permY<>+16(SB)/4, $5
DATA permY<>+20(SB)/4, $0
DATA permY<>+24(SB)/4, $3
DATA permY<>+28(SB)/4, $6
GLOBL permY<>(SB), RODATA|NOPTR, $32

DATA permYBack<>+0(SB)/4, $5
DATA permYBack<>+4(SB)/4, $0
DATA permYBack<>+8(SB)/4, $3
DATA permYBack<>+12(SB)/4, $6
DATA permYBack<>+16(SB)/4, $1
DATA permYBack<>+20(SB)/4, $4
DATA permYBack<>+24(SB)/4, $7
DATA permYBack<>+28(SB)/4, $2
GLOBL permYBack<>(SB), RODATA|NOPTR, $32

DATA permZ<>+0(SB)/4, $2
DATA permZ<>+4(SB)/4, $5
DATA permZ<>+8(SB)/4, $0
DATA permZ<>+12(SB)/4, $3
DATA permZ<>+16(SB)/4, $6
DATA permZ<>+20(SB)/4, $1
DATA permZ<>+24(SB)/4, $4
DATA permZ<>+28(SB)/4, $7
GLOBL permZ<>(SB), RODATA|NOPTR, $32

// The four lane orders live in Y11-Y14 (PX, PY, PYB, PZ) while COLS8
// and STORE8 run; LOADPERMS puts them there.
#define PX Y11
#define PY Y12
#define PYB Y13
#define PZ Y14

#define LOADPERMS \
	VMOVUPS permX<>(SB), PX; \
	VMOVUPS permY<>(SB), PY; \
	VMOVUPS permYBack<>(SB), PYB; \
	VMOVUPS permZ<>(SB), PZ

// COLS8 loads the eight particles at BASE as columns X, Y, Z (T scratch).
#define COLS8(BASE, X, Y, Z, T) \
	VMOVUPS 0(BASE), T; \
	VBLENDPS $0x92, 32(BASE), T, T; \
	VBLENDPS $0x24, 64(BASE), T, T; \
	VPERMPS T, PX, X; \
	VMOVUPS 0(BASE), T; \
	VBLENDPS $0x24, 32(BASE), T, T; \
	VBLENDPS $0x49, 64(BASE), T, T; \
	VPERMPS T, PY, Y; \
	VMOVUPS 0(BASE), T; \
	VBLENDPS $0x49, 32(BASE), T, T; \
	VBLENDPS $0x92, 64(BASE), T, T; \
	VPERMPS T, PZ, Z

// STORE8 writes columns X, Y, Z (destroyed) as eight particles at BASE.
#define STORE8(BASE, X, Y, Z, T) \
	VPERMPS X, PX, X; \
	VPERMPS Y, PYB, Y; \
	VPERMPS Z, PZ, Z; \
	VBLENDPS $0x92, Y, X, T; \
	VBLENDPS $0x24, Z, T, T; \
	VMOVUPS T, 0(BASE); \
	VBLENDPS $0x92, X, Z, T; \
	VBLENDPS $0x24, Y, T, T; \
	VMOVUPS T, 32(BASE); \
	VBLENDPS $0x92, Z, Y, T; \
	VBLENDPS $0x24, X, T, T; \
	VMOVUPS T, 64(BASE)
