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

// denseArgs is what the kernel reads for one block of eight render
// strands; the offsets are fixed in dense_amd64.s (TestDenseArgsLayout).
type denseArgs struct {
	dl, out, tan     unsafe.Pointer // the guides' deltas; the first strand's root in Positions, Tangents
	segs             int64
	strideP, strideW int64 // bytes from a strand's vertices to the next's; strideP/3
	j                int64 // the kernel's counter
	k                *denseConsts
	// The block's first render strand's root, offset, weights, guides
	// and segment length in the Dense's slices.
	root0, off0, w0, g0, seg0 unsafe.Pointer
	_                         [3]int64
	// The kernel's scratch, per lane: the root and the offset a segment
	// in world space, the guides' weights and first floats in dl, the
	// segment length, and the vertex before the last.
	root, off, w [3][8]float32
	g            [3][8]int32
	l            [8]float32
	qq           [3][8]float32
}

// denseConsts is what every block of an Update shares, broadcast to
// eight lanes (Dense.setConsts): the head's frame, minR², the smallest
// blend and tangent update scales, 1, 1/Segments and per·3.
type denseConsts struct {
	m               [9][8]float32
	c               [3][8]float32
	minR2, eps, one [8]float32
	tiny, invSeg    [8]float32
	per3            [8]int32
}

// setConsts fills d.k for this Update's kernel calls.
func (d *Dense) setConsts() {
	k := &d.k
	for i := range 9 {
		k.m[i] = simd.Broadcast(d.f.m[i])
	}
	for i := range 3 {
		k.c[i] = simd.Broadcast(d.f.c[i])
	}
	k.minR2, k.eps, k.one = simd.Broadcast(d.minR2), simd.Broadcast(1e-20), simd.Broadcast(1)
	k.tiny, k.invSeg = simd.Broadcast(1e-24), simd.Broadcast(1/float32(d.per-1))
	for l := range k.per3 {
		k.per3[l] = int32(d.per) * 3
	}
}

// denseKernel reports whether update hands strands to the kernel.
func (d *Dense) denseKernel() bool { return simd.AVX2() && !d.h.noKernels && d.delta != nil }

// kernelRun builds render strands s0..s0+7 (see update).
func (d *Dense) kernelRun(s0 int) {
	per := d.per
	_, _ = d.pos[(s0+8)*per-1], d.tan[(s0+8)*per-1]
	_ = d.delta[:len(d.delta)+1] // the kernel's last row load reads one float past
	_, _, _, _, _ = d.root[s0+7], d.offset[s0+7], d.weight[s0+7], d.guide[s0+7], d.seg[s0+7]
	a := denseArgs{
		dl: unsafe.Pointer(&d.delta[0]), out: unsafe.Pointer(&d.pos[s0*per]), tan: unsafe.Pointer(&d.tan[s0*per]),
		segs: int64(per - 1), strideP: int64(per) * 12, strideW: int64(per) * 4, k: &d.k,
		root0: unsafe.Pointer(&d.root[s0]), off0: unsafe.Pointer(&d.offset[s0]),
		w0: unsafe.Pointer(&d.weight[s0]), g0: unsafe.Pointer(&d.guide[s0]), seg0: unsafe.Pointer(&d.seg[s0]),
	}
	redo := denseStrands8(&a)
	for l := 0; l < 8; l++ {
		s := s0 + l
		if redo>>uint(l)&1 != 0 || d.weight[s][0] == 1 {
			d.strand(s)
		}
	}
}
