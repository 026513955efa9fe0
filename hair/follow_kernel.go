package hair

import (
	"unsafe"

	"github.com/drape3d/drape/internal/simd"
)

// Follow the leader, eight strands at a time.
//
// Where the processor has AVX2 (follow_amd64.s), followLeader hands each
// block of eight strands that the links kernel takes (linksKernel) to a
// kernel that walks them side by side from the root, lane by lane doing
// what followLeader does for one strand: the same operations in the same
// order, rounded the same way, each lane choosing by masks whether its
// particle moves and whether its parent's previous position is damped (a
// lane the loop skips keeps its bits). Strands do not touch each other,
// so the result is bit-identical with and without it.

// followArgs is what the kernel reads; the offsets are fixed in
// follow_amd64.s (TestFollowArgsLayout).
type followArgs struct {
	pos, prev, inv   unsafe.Pointer // the first strand's root in the World's slices
	per              int64
	strideP, strideW int64 // bytes from a strand's positions (inverse masses) to the next's
	damp             int64 // 1 when FollowDamping is not 0
	j                int64 // the kernel's particle counter
	// The lanes' rest segment length, that squared and 0.9025 times it
	// (as followLeader rounds them), and FollowDamping broadcast.
	seg, seg2, lo2, dampV [8]float32
	// The kernel's scratch: inverse masses of particle j and of j-1, and
	// the lanes whose parent's previous position is damped.
	winv, wprev, dm [8]float32
}

// followKernelRun runs followLeader's work on strands lo..lo+7.
func (h *Hair) followKernelRun(lo int) {
	per := h.per
	args := followArgs{per: int64(per), strideP: int64(per) * 12, strideW: int64(per) * 4}
	args.pos, args.prev, args.inv = h.particleArgs(int(h.base)+lo*per, 8*per)
	damp := h.set.FollowDamping
	if damp != 0 {
		args.damp = 1
	}
	args.dampV = simd.Broadcast(damp)
	for l, seg := range h.restSeg[lo : lo+8] {
		args.seg[l], args.seg2[l], args.lo2[l] = seg, float32(seg*seg), float32(0.9025*seg*seg)
	}
	followStrands8(&args)
}
