package hair

import (
	"unsafe"

	"github.com/drape3d/drape/internal/simd"
)

// What the hair's AVX2 kernels share (see the top of step.go): which
// particles they take, the World's slices they are handed, and the head's
// pose broadcast once a substep.

// kernelGroups is how many groups of eight of n consecutive particles the
// carry, head contact and style target kernels take; 0 when there is no
// kernel.
func (h *Hair) kernelGroups(n int) int {
	if !simd.AVX2() || h.noKernels {
		return 0
	}
	return n / 8
}

// particleArgs returns the kernels' pointers to particle a in the World's
// positions, previous positions and inverse masses, once the last of the n
// particles from a is checked to be in all three.
func (h *Hair) particleArgs(a, n int) (pos, prev, inv unsafe.Pointer) {
	_, _, _ = h.pos[a+n-1], h.prev[a+n-1], h.inv[a+n-1]
	return unsafe.Pointer(&h.pos[a]), unsafe.Pointer(&h.prev[a]), unsafe.Pointer(&h.inv[a])
}

// headConsts is what every call of the head contact and style target
// kernels in a substep shares (and the pull kernel copies), set once by
// setHeadConsts and read only after. Broadcast to eight lanes: the head's
// center, the touching distance², the smallest distance² handled, the
// head's radius plus the hair's, HeadFriction, this substep's head frame
// (to local; the style targets' rotation) and the previous one's (back to
// world).
type headConsts struct {
	cx, cy, cz, touch2, eps, minR, mu [8]float32
	m, e                              [9][8]float32
	ex, ey, ez                        [8]float32
	minR2                             [8]float32 // minR², for the pull kernel's arguments
}

// setHeadConsts fills h.headC for this substep's kernels from the head's
// frames (apply calls it once they are set).
func (h *Hair) setHeadConsts() {
	if !simd.AVX2() {
		return
	}
	k := &h.headC
	touch, minR, mu := h.contactValues()
	c := h.cur.c
	k.cx, k.cy, k.cz = simd.Broadcast(c[0]), simd.Broadcast(c[1]), simd.Broadcast(c[2])
	k.touch2, k.eps = simd.Broadcast(float32(touch*touch)), simd.Broadcast(1e-18)
	k.minR, k.mu, k.minR2 = simd.Broadcast(minR), simd.Broadcast(mu), simd.Broadcast(float32(minR*minR))
	for i := range 9 {
		k.m[i] = simd.Broadcast(h.cur.m[i])
		k.e[i] = simd.Broadcast(h.prevCur.m[i])
	}
	e := h.prevCur.c
	k.ex, k.ey, k.ez = simd.Broadcast(e[0]), simd.Broadcast(e[1]), simd.Broadcast(e[2])
}
