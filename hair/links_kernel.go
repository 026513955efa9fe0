package hair

import (
	"unsafe"

	"github.com/drape3d/drape/internal/simd"
)

// Stretch and bend links, eight strands at a time.
//
// Where the processor has AVX2 (links_amd64.s), links hands each block of
// eight strands to a kernel that walks them side by side from the root,
// lane by lane doing what links does for one strand: the same operations
// in the same order, rounded the same way, each lane choosing between the
// square-root-free and the exact length by masks. Strands do not touch
// each other, so the result is bit-identical with and without it.

// linkArgs is what the kernel reads; the offsets are fixed in
// links_amd64.s (TestLinkArgsLayout).
type linkArgs struct {
	pos, inv                              unsafe.Pointer // the first strand's root in the World's slices
	kS, kB, bendRest, bendInv, lamS, lamB unsafe.Pointer // the first strand's root in the hair's
	restSeg, segInv                       unsafe.Pointer // the first strand's
	per                                   int64
	strideP, strideW                      int64 // bytes from a strand's positions (inverse masses) to the next's
	useAS                                 int64 // stretch compliance (the multiplier is kept)
	j                                     int64 // the kernel's particle counter
	_                                     int64
	// Broadcast to eight lanes: the compliances over h² (the fixed
	// constants are the kernel's own data).
	aS, aB [8]float32
	// The kernel's scratch columns.
	ax, ay, az, cx, cy, cz, wa, wc, r, ir, br, bi [8]float32
}

// linksKernel reports whether links can hand strands lo..hi-1 to the
// kernel: a whole block of eight, not the hair's last strand (each lane's
// rows read a few floats past its strand), strands of at least four
// particles.
func (h *Hair) linksKernel(lo, hi int) bool {
	return simd.AVX2() && !h.noKernels && hi-lo == 8 && hi < h.set.Strands && h.per >= 4
}

// linksKernelRun solves one pass of the links of strands lo..lo+7.
func (h *Hair) linksKernelRun(lo int, aS, aB float32) {
	per := h.per
	base := int(h.base)
	o := lo * per
	a := linkArgs{
		pos:      unsafe.Pointer(&h.pos[base+o]),
		inv:      unsafe.Pointer(&h.inv[base+o]),
		kS:       unsafe.Pointer(&h.kS[o]),
		kB:       unsafe.Pointer(&h.kB[o]),
		bendRest: unsafe.Pointer(&h.bendRest[o]),
		bendInv:  unsafe.Pointer(&h.bendInv[o]),
		lamS:     unsafe.Pointer(&h.lamS[o]),
		lamB:     unsafe.Pointer(&h.lamB[o]),
		restSeg:  unsafe.Pointer(&h.restSeg[lo]),
		segInv:   unsafe.Pointer(&h.segInv[lo]),
		per:      int64(per),
		strideP:  int64(per) * 12,
		strideW:  int64(per) * 4,
	}
	if aS != 0 {
		a.useAS = 1
	}
	a.aS, a.aB = simd.Broadcast(aS), simd.Broadcast(aB)
	solveStrands8(&a)
}
