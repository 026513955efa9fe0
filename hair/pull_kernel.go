package hair

import (
	"unsafe"

	"github.com/drape3d/drape/internal/simd"
)

// The style pull, eight particles at a time.
//
// Where the processor has AVX2 (pull_amd64.s), pull hands the kernel the
// first 8·(per-1)/8 particles after the root of each strand, eight at a
// time, and does the rest itself; the leash and the head sphere are taken
// on the passes pull is told to (doLeash, doHead), as in the loop. The kernel computes every particle as
// pull does, the same operations in the same order, each rounded the same
// way (no fused multiply-add, no reciprocal estimates), choosing between
// the branches per particle with masks; particles do not depend on each
// other in pull, so the result is bit-identical with and without it.

// pullArgs is what the kernel reads; the offsets are fixed in
// pull_amd64.s (TestPullArgsLayout).
type pullArgs struct {
	pos     unsafe.Pointer // &pos[o+1] of the first strand
	target  unsafe.Pointer // &target[o+1]
	inv     unsafe.Pointer // &inv[o+1]
	restSeg unsafe.Pointer // &restSeg[first strand]
	js      unsafe.Pointer // &h.js[1]: float32(j)
	style   unsafe.Pointer // &styleIter[1]
	strands int64
	groups  int64 // groups of eight particles per strand
	strideP int64 // bytes from a strand's positions (and targets) to the next's
	strideW int64 // bytes from a strand's inverse masses to the next's
	doStyle int64
	doLeash int64
	doHead  int64
	// Broadcast to eight lanes: the head's center, its radius plus the
	// hair's, that squared, and the smallest distance² pushed out.
	cx, cy, cz, minR, minR2, eps [8]float32
	// The kernel's scratch: the strand's root and segment length.
	rx, ry, rz, seg [8]float32
}

// pullKernelGroups is how many groups of eight particles per strand the
// kernel takes, for strands of per particles; 0 when there is no kernel.
func (h *Hair) pullKernelGroups() int {
	if !simd.AVX2() || h.noKernels {
		return 0
	}
	return (h.per - 1) / 8
}
