package hair

import (
	"unsafe"

	"github.com/drape3d/drape/internal/simd"
)

// The head contact, eight particles at a time.
//
// Where the processor has AVX2 (contact_amd64.s), headContact hands the
// kernel its range's particles eight at a time and does the last few
// itself. The kernel computes each particle as headContact does, the same
// operations in the same order, each rounded the same way, choosing
// between the branches per particle with masks (a lane the loop would
// skip keeps its bits); particles do not depend on each other there, so
// the result is bit-identical with and without it.

// contactArgs is what the kernel reads; the offsets are fixed in
// contact_amd64.s (TestContactArgsLayout).
type contactArgs struct {
	pos, prev, inv unsafe.Pointer // the first particle's
	groups         int64          // groups of eight particles
	friction       int64          // 1 when HeadFriction is not 0
	// Broadcast to eight lanes: the head's centre, the touching distance²,
	// the smallest distance² handled, the head's radius plus the hair's,
	// HeadFriction, this substep's head frame (to local) and the previous
	// one's (back to world).
	cx, cy, cz, touch2, eps, minR, mu [8]float32
	m, e                              [9][8]float32
	ex, ey, ez                        [8]float32
}

// contactKernel runs the kernel over the groups of eight particles from
// o (an index into the hair's particles) with the head contact's values.
func (h *Hair) contactKernel(o, groups int, touch2, minR, mu float32) {
	base := int(h.base)
	a := base + o
	// Bounds: the last group's last particle is in all three slices.
	_, _, _ = h.pos[a+8*groups-1], h.prev[a+8*groups-1], h.inv[a+8*groups-1]
	args := contactArgs{
		pos:    unsafe.Pointer(&h.pos[a]),
		prev:   unsafe.Pointer(&h.prev[a]),
		inv:    unsafe.Pointer(&h.inv[a]),
		groups: int64(groups),
	}
	if mu != 0 {
		args.friction = 1
	}
	c := h.cur.c
	args.cx, args.cy, args.cz = simd.Broadcast(c[0]), simd.Broadcast(c[1]), simd.Broadcast(c[2])
	args.touch2, args.eps = simd.Broadcast(touch2), simd.Broadcast(1e-18)
	args.minR, args.mu = simd.Broadcast(minR), simd.Broadcast(mu)
	for k := range 9 {
		args.m[k] = simd.Broadcast(h.cur.m[k])
		args.e[k] = simd.Broadcast(h.prevCur.m[k])
	}
	e := h.prevCur.c
	args.ex, args.ey, args.ez = simd.Broadcast(e[0]), simd.Broadcast(e[1]), simd.Broadcast(e[2])
	headContacts(&args)
}
