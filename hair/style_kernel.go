package hair

import "unsafe"

// The style targets, eight particles at a time.
//
// Where the processor has AVX2 (style_amd64.s), prepare hands the kernel
// its strands' rest shape eight particles at a time and places the last
// few itself: each target is the head frame's rotation times the rest
// offset plus its center, the same operations in the same order as
// prepare's loop, so the result is bit-identical with and without it.

// styleArgs is what the kernel reads; the offsets are fixed in
// style_amd64.s (TestStyleArgsLayout).
type styleArgs struct {
	rest, target unsafe.Pointer // the first particle's
	groups       int64          // groups of eight particles
	c            *headConsts    // the substep's: the head frame's rotation m and center
}

// styleKernel places the targets of the groups of eight particles from
// rest[k] (an index into the hair's particles) for this substep's head
// frame, as setHeadConsts broadcast it.
func (h *Hair) styleKernel(k, groups int) {
	// Bounds: the last group's last particle is in both slices.
	_, _ = h.rest[k+8*groups-1], h.target[k+8*groups-1]
	styleTargets(&styleArgs{
		rest:   unsafe.Pointer(&h.rest[k]),
		target: unsafe.Pointer(&h.target[k]),
		groups: int64(groups),
		c:      &h.headC,
	})
}
