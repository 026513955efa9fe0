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
	c              *headConsts    // the substep's, shared by every call
}

// headConsts is what every call of the head contact and style target
// kernels in a substep shares (and the pull kernel copies), set once by setHeadConsts and read only
// after. Broadcast to eight lanes: the head's centre, the touching
// distance², the smallest distance² handled, the head's radius plus the
// hair's, HeadFriction, this substep's head frame (to local; the style
// targets' rotation) and the previous one's (back to world).
type headConsts struct {
	cx, cy, cz, touch2, eps, minR, mu [8]float32
	m, e                              [9][8]float32
	ex, ey, ez                        [8]float32
	minR2                             [8]float32 // minR², for the pull kernel's arguments
}

// contactValues returns the head contact's touching distance, the
// distance particles are put out to, and the friction.
func (h *Hair) contactValues() (touch, minR, mu float32) {
	minR = h.head.Radius + h.set.Radius
	return minR + 0.1*h.w.Config().ContactMargin, minR, h.set.HeadFriction
}

// setContact fills h.headC for this substep's head contact from the
// head's frames (apply calls it once they are set).
func (h *Hair) setHeadConsts() {
	if !simd.AVX2() {
		return
	}
	k := &h.headC
	touch, minR, mu := h.contactValues()
	c := h.cur.c
	k.cx, k.cy, k.cz = simd.Broadcast(c[0]), simd.Broadcast(c[1]), simd.Broadcast(c[2])
	k.touch2, k.eps = simd.Broadcast(touch*touch), simd.Broadcast(1e-18)
	k.minR, k.mu, k.minR2 = simd.Broadcast(minR), simd.Broadcast(mu), simd.Broadcast(minR*minR)
	for i := range 9 {
		k.m[i] = simd.Broadcast(h.cur.m[i])
		k.e[i] = simd.Broadcast(h.prevCur.m[i])
	}
	e := h.prevCur.c
	k.ex, k.ey, k.ez = simd.Broadcast(e[0]), simd.Broadcast(e[1]), simd.Broadcast(e[2])
}

// contactKernel runs the kernel over the groups of eight particles from
// o (an index into the hair's particles), with the values setHeadConsts
// set.
func (h *Hair) contactKernel(o, groups int) {
	a := int(h.base) + o
	// Bounds: the last group's last particle is in all three slices.
	_, _, _ = h.pos[a+8*groups-1], h.prev[a+8*groups-1], h.inv[a+8*groups-1]
	args := contactArgs{
		pos:    unsafe.Pointer(&h.pos[a]),
		prev:   unsafe.Pointer(&h.prev[a]),
		inv:    unsafe.Pointer(&h.inv[a]),
		groups: int64(groups),
		c:      &h.headC,
	}
	if h.set.HeadFriction != 0 {
		args.friction = 1
	}
	headContacts(&args)
}
