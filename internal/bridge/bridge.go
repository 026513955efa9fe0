// Package bridge carries the few World operations that bodies' particle
// cubes (ParticleEngine) need but a game must not call: whether a collider
// moved (bodies wakes what sleeps on it), which links need no solving (an
// asleep cube's, or a rigid cube's that bodies alone moves) and whether
// anything else moves particles; and, for tests, whether the World's fused
// solve ran.
// verlet3d fills the functions in its init; components call them
// with their *verlet3d.World. It is internal, so it is not public API.
package bridge

var (
	// ColliderMoving reports whether collider c of world w moved since the
	// step before this one (the World's own test, made in the step's first
	// substep before the components' Prepare); false if w does not hold c.
	ColliderMoving func(w any, c any) bool
	// SetLinksIdle marks links [first, first+n) of world w idle (the
	// solver skips them) or not: bodies does for the links of an asleep
	// cube, whose particles it holds where they sleep, and of rigid cubes
	// it alone moves (Alone).
	SetLinksIdle func(w any, first, n int32, idle bool)
	// LinkCounts returns, by particle of world w, how many links join it
	// (broken ones included until removed): the World's own slice, to
	// read only and not to keep past the substep.
	LinkCounts func(w any) []int32
	// LinkVersion returns a number that moves whenever the counts
	// LinkCounts returns change.
	LinkVersion func(w any) uint64
	// Alone reports whether, in the current substep of world w, nothing
	// but constraint set cs and the links can move a particle in the
	// solve: cs is its only ConstraintSet, it has no tethers, and no
	// collider made a contact (bodies then skips the links of its rigid
	// cubes that no other link joins: predict placed the cubes exactly and
	// its contacts move them rigidly).
	Alone func(w any, cs any) bool
	// Shares is World.Parallel on world w with one range a worker,
	// exactly [n·k/W, n·(k+1)/W) for worker k (unless it was late to
	// begin, when another runs it): bodies keeps a slot per range and
	// wants the cubes a worker predicted to be the ones it carries.
	Shares func(w any, n int, f func(lo, hi int))
	// FusedPasses returns how many substeps of world w ran their guard,
	// integration, contacts and first link pass as one job (verlet3d's
	// solveLinksFused), for tests that must know the path ran.
	FusedPasses func(w any) int
)
