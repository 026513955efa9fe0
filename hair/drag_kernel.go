package hair

import (
	"github.com/drape3d/drape/internal/vecmath"
	"unsafe"

	"github.com/drape3d/drape/internal/simd"
)

// Air drag, eight strands at a time.
//
// Where the processor has AVX2 (drag_amd64.s), drag hands each block of
// eight strands that the links kernel would take (linksKernel) to a kernel
// that walks them side by side from the root: lane by lane what drag's
// loop does for one strand, the same operations in the same order, rounded
// the same way, adding each particle's halves of its two segments' drag
// straight to the World's accelerations. The air's velocity at each
// strand's root and tip is found in Go (Wind.Velocity). Strands do not
// touch each other, so the result is bit-identical with and without it.

// dragArgs is what the kernel reads; the offsets are fixed in
// drag_amd64.s (TestDragArgsLayout).
type dragArgs struct {
	pos, prev, acc   unsafe.Pointer // the first strand's root in the World's slices
	segs             int64
	strideP, strideW int64 // bytes from a strand's positions (floats) to the next's
	j                int64 // the kernel's segment counter
	_                int64
	va, dv           [3][8]float32 // per lane: the air at the root, and its change a segment
	invH, c          [8]float32    // 1/substep, and drag's 0.5·WindDrag·scale
	half, one        [8]float32
	k                [8]float32 // the kernel's scratch: j + 0.5
}

// dragKernelRun adds the air drag of strands lo..lo+7 (see drag), with
// its factor c, 1/substep invH and 1/Segments inv.
func (h *Hair) dragKernelRun(lo int, c, invH, inv float32) {
	per := h.per
	o := int(h.base) + lo*per
	a := dragArgs{segs: int64(per - 1), strideP: int64(per) * 12, strideW: int64(per) * 4}
	a.pos, a.prev, _ = h.particleArgs(o, 8*per)
	_ = h.acc[o+8*per-1]
	a.acc = unsafe.Pointer(&h.acc[o])
	if !h.still {
		segs := per - 1
		for l := 0; l < 8; l++ {
			r := o + l*per
			va := h.wind.Velocity(h.w.ToWorld(h.pos[r]), h.t) // the air is the world's
			dv := vecmath.Scale(h.wind.Velocity(h.w.ToWorld(h.pos[r+segs]), h.t).Sub(va), inv)
			for k := 0; k < 3; k++ {
				a.va[k][l], a.dv[k][l] = va[k], dv[k]
			}
		}
	}
	a.invH, a.c = simd.Broadcast(invH), simd.Broadcast(c)
	a.half, a.one = simd.Broadcast(0.5), simd.Broadcast(1)
	dragStrands8(&a)
}
