//go:build !purego

package hair

// pullStrands runs the pull kernel (pull_amd64.s).
//
//go:noescape
func pullStrands(a *pullArgs)

// solveStrands8 runs the links kernel (links_amd64.s).
//
//go:noescape
func solveStrands8(a *linkArgs)

// carryParticles runs the carry kernel (carry_amd64.s).
//
//go:noescape
func carryParticles(a *carryArgs)

// headContacts runs the head contact kernel (contact_amd64.s).
//
//go:noescape
func headContacts(a *contactArgs)

// followStrands8 runs the follow-the-leader kernel (follow_amd64.s).
//
//go:noescape
func followStrands8(a *followArgs)

// styleTargets runs the style target kernel (style_amd64.s).
//
//go:noescape
func styleTargets(a *styleArgs)

// dragStrands8 runs the air drag kernel (drag_amd64.s).
//
//go:noescape
func dragStrands8(a *dragArgs)

// denseStrands8 runs the render strand kernel (dense_amd64.s).
//
//go:noescape
func denseStrands8(a *denseArgs) uint64
