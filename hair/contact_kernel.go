package hair

import "unsafe"

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

// contactKernel runs the kernel over the groups of eight particles from
// o (an index into the hair's particles), with the values setHeadConsts
// set.
func (h *Hair) contactKernel(o, groups int) {
	args := contactArgs{groups: int64(groups), c: &h.headC}
	args.pos, args.prev, args.inv = h.particleArgs(int(h.base)+o, 8*groups)
	if h.set.HeadFriction != 0 {
		args.friction = 1
	}
	headContacts(&args)
}
