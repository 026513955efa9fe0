package hair

import (
	"unsafe"

	"github.com/drape3d/drape/internal/simd"
)

// The carry, eight particles at a time.
//
// Where the processor has AVX2 (carry_amd64.s), carry hands the kernel
// its range's particles eight at a time and does the last few itself. The
// kernel moves each particle and its previous position as carry does, the
// same operations in the same order, each rounded the same way, and leaves
// the particles of inverse mass 0 as they are (their lanes keep the bits
// they had); particles do not depend on each other in carry, so the result
// is bit-identical with and without it.

// carryArgs is what the kernel reads; the offsets are fixed in
// carry_amd64.s (TestCarryArgsLayout).
type carryArgs struct {
	pos, prev, inv unsafe.Pointer // the first particle's
	groups         int64          // groups of eight particles
	// Broadcast to eight lanes: carryFrom, carryTo and carryM.
	fx, fy, fz, tx, ty, tz [8]float32
	m                      [9][8]float32
}

// carryKernel runs the kernel over the groups of eight particles from a.
func (h *Hair) carryKernel(a, groups int) {
	args := carryArgs{groups: int64(groups)}
	args.pos, args.prev, args.inv = h.particleArgs(a, 8*groups)
	f, t := h.carryFrom, h.carryTo
	args.fx, args.fy, args.fz = simd.Broadcast(f[0]), simd.Broadcast(f[1]), simd.Broadcast(f[2])
	args.tx, args.ty, args.tz = simd.Broadcast(t[0]), simd.Broadcast(t[1]), simd.Broadcast(t[2])
	for k, v := range h.carryM {
		args.m[k] = simd.Broadcast(v)
	}
	carryParticles(&args)
}
