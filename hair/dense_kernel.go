package hair

import (
	"unsafe"

	"github.com/drape3d/drape/internal/simd"
)

// Render strands eight at a time.
//
// Where the processor has AVX2 (dense_amd64.s), Dense.update hands eight
// consecutive render strands to a kernel that builds them side by side
// from the root, loading each lane's three guides' segments: lane by
// lane what update does for one strand, the same operations in the same
// order, rounded the same way. The rare strands update must handle on its
// own (a vertex pushed out of the head, a blend too short to scale) come
// back flagged and are built again by update's loop, as are the render
// strands that are their guide (copied, not blended). The kernel finds
// the tangents too, as tangents does. So Positions and Tangents are
// bit-identical with and without it.

// denseArgs is what the kernel reads; the offsets are fixed in
// dense_amd64.s (TestDenseArgsLayout).
type denseArgs struct {
	dl, out, tan     unsafe.Pointer // the guides' deltas; the first strand's root in Positions, Tangents
	segs             int64
	strideP, strideW int64 // bytes from a strand's vertices to the next's; strideP/3
	j                int64 // the kernel's counter
	_                int64
	root, off        [3][8]float32 // per lane: the root and the offset a segment, world
	w                [3][8]float32 // the guides' weights
	g                [3][8]int32   // the guides' first float in dl
	l                [8]float32    // segment length
	c                [3][8]float32 // the head's centre
	minR2, eps, one  [8]float32
	tiny             [8]float32    // 1e-24, the shortest tangent tangents scales
	qq               [3][8]float32 // the kernel's scratch: the vertex before the last
}

// denseKernel reports whether update hands strands to the kernel.
func (d *Dense) denseKernel() bool { return simd.AVX2() && !d.h.noKernels && d.delta != nil }

// kernelRun builds render strands s0..s0+7 (see update).
func (d *Dense) kernelRun(s0 int) {
	per := d.per
	f := &d.f
	c := f.c
	seg := float32(per - 1)
	var a denseArgs
	for l := 0; l < 8; l++ {
		s := s0 + l
		root := f.apply(d.root[s])
		off := f.apply(d.offset[s]).Sub(c).Mul(1 / seg)
		gs, ws := d.guide[s], d.weight[s]
		for k := 0; k < 3; k++ {
			a.root[k][l], a.off[k][l], a.w[k][l] = root[k], off[k], ws[k]
			a.g[k][l] = gs[k] * int32(per) * 3
			a.c[k][l] = c[k]
		}
		a.l[l] = d.seg[s]
	}
	_, _ = d.pos[(s0+8)*per-1], d.tan[(s0+8)*per-1]
	_ = d.delta[:len(d.delta)+1] // the kernel's last row load reads one float past
	a.dl, a.out, a.tan = unsafe.Pointer(&d.delta[0]), unsafe.Pointer(&d.pos[s0*per]), unsafe.Pointer(&d.tan[s0*per])
	a.segs, a.strideP, a.strideW = int64(per-1), int64(per)*12, int64(per)*4
	a.minR2, a.eps, a.one = simd.Broadcast(d.minR2), simd.Broadcast(1e-20), simd.Broadcast(1)
	a.tiny = simd.Broadcast(1e-24)
	redo := denseStrands8(&a)
	for l := 0; l < 8; l++ {
		s := s0 + l
		if redo>>uint(l)&1 != 0 || d.weight[s][0] == 1 {
			d.strand(s)
		}
	}
}
