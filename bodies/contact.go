package bodies

import (
	"math"

	"github.com/drape3d/drape/internal/vecmath"
	"github.com/drape3d/drape/verlet3d"
	"github.com/go-gl/mathgl/mgl32"
)

// prepare is the System's ConstraintSet.Prepare: it recovers every cube's
// frame from its integrated corners, finds overlapping pairs by
// sort-and-sweep and builds this substep's contacts.
func (s *System) prepare(w *verlet3d.World, h float32, first bool) {
	pos, prev, inv := w.Positions(), w.PrevPositions(), w.InvMasses()
	s.substeps++ // the lone cubes kept the last substep's impulses (warm.go)
	s.contacts = s.contacts[:0]
	s.stats = Stats{}
	s.pass = 0
	for len(s.owned) < len(pos) {
		s.owned = append(s.owned, false)
	}
	s.margin = s.set.Margin
	if len(s.cubes) == 0 {
		return
	}
	if first {
		// Which colliders moved since the last step's start.
		s.moving = s.moving[:0]
		dt := w.Config().TimeStep
		for i := range s.colliders {
			moved, _, _ := s.colliders[i].observe(dt)
			s.moving = append(s.moving, moved)
		}
	}
	if s.nAsleep > 0 {
		s.checkSleepers(pos, prev, inv, h)
	}
	s.wakeByColliders(first)
	s.maxWidth, s.nDragged = 0, 0
	s.h, s.pos, s.first = h, pos, first
	// carry's rotation and center hold for the next substep only if
	// nothing moved the particles since: within a step only the World's
	// non-finite guard can (between steps, see prepareCubes).
	resets := w.Stats().NonFiniteResets
	s.reset, s.resets = resets != s.resets, resets
	s.par ^= 1
	if cap(s.brief) < len(s.cubes) {
		s.brief = make([]cubeBrief, len(s.cubes), 2*len(s.cubes))
	}
	s.brief = s.brief[:len(s.cubes)]
	if cap(s.fixed) < len(s.cubes) {
		s.fixed = make([]bool, len(s.cubes), 2*len(s.cubes))
	}
	s.fixed = s.fixed[:len(s.cubes)]
	s.shares(w, len(s.cubes), s.prepJob)
	s.pos = nil
	for i := range s.brief {
		b := &s.brief[i]
		s.maxWidth = max(s.maxWidth, b.hi[0]-b.lo[0])
		if b.dragged {
			s.nDragged++
		}
	}
	s.sweep()
	if s.nAsleep > 0 {
		s.wakeTouched()
	}
	// Cube pairs and cube-collider contacts. generate is a range job on
	// shares that fills the slot of its range; mergeSlots then
	// joins the slots in range order, each copied by the worker that
	// filled it, so the contacts come in the same order for any worker
	// count (cube pairs by the cube first in the sweep order, in index
	// order, then colliders by cube) and stay in the cache of the worker
	// that found them. Each worker finds the pairs and collider contacts of
	// the cubes it predicted and will carry, and reads of the others only
	// their bounds in brief and the frames of the cubes they touch.
	workers := w.Config().Workers
	if len(s.slots) < workers {
		s.slots = make([]genSlot, workers)
	}
	s.slots = s.slots[:workers]
	s.reserve()
	for i := range s.slots {
		sl := &s.slots[i]
		sl.pairs, sl.prevPairs = sl.prevPairs[:0], sl.pairs
		sl.cols, sl.prevCols = sl.prevCols[:0], sl.cols
		sl.npairs = 0
	}
	if cap(s.pairSpan) < len(s.cubes) {
		s.pairSpan = make([]pairSpan, len(s.cubes), 2*len(s.cubes))
	}
	s.pairSpan = s.pairSpan[:len(s.cubes)]
	s.pos = pos
	s.shares(w, len(s.cubes), s.genJob)
	// The pairs go to System.contacts in the sweep order of their first
	// cube, whichever slot found them.
	n0 := 0
	for _, i := range s.order {
		sp := &s.pairSpan[i]
		sp.at = int32(n0)
		n0 += int(sp.hi - sp.lo)
	}
	for i := range s.slots {
		s.stats.Pairs += s.slots[i].npairs
	}
	n1 := n0
	for i := range s.slots {
		sl := &s.slots[i]
		sl.colAt = n1
		n1 += len(sl.cols)
	}
	if cap(s.contacts) < n1 {
		s.contacts = make([]contact, 0, 2*n1)
	}
	s.contacts = s.contacts[:n1]
	if cap(s.rigidSides) < n1 {
		s.rigidSides = make([]contactSides, 0, cap(s.contacts))
	}
	s.rigidSides = s.rigidSides[:n1]
	if cap(s.cameFast) < n1 {
		s.cameFast = make([]bool, 0, cap(s.contacts))
	}
	s.cameFast = s.cameFast[:n1]
	clear(s.cameFast)
	s.shares(w, len(s.slots), s.mergeJob)
	s.pos = nil
	s.nRigid = n1
	s.buildIslands()
	s.particles(pos, prev, inv, w.Radii())
	s.stats.CubeContacts = n0
	s.stats.ColliderContacts = n1 - n0
	s.stats.ParticleContacts = len(s.contacts) - n1
	// Where the contact points of the particles were at the start of the
	// substep, for friction (the cubes' contacts got theirs in generate).
	recover := float32(particleRecoverySpeed * h)
	for k := n1; k < len(s.contacts); k++ {
		c := &s.contacts[k]
		c.start(pos, prev)
		c.limitRecovery(recover)
	}
	if n1 < len(s.contacts) {
		s.markBlocked(w, pos, w.Radii())
	}
}

// markBlocked finds the particle contacts whose push would drive the
// particle into a collider that holds it: cloth on the floor under a
// crate's edge. Such a particle cannot give way into the collider, so
// along the collider's normal the push moves the crate alone, as the floor
// under the cloth would, while across the floor the particle gives way as
// it is (a particle beside a tilted crate's lower edge slides aside rather
// than shoving the crate sideways and up), and not at all to the crate's
// friction (contact.free). Solved as a free light particle
// instead, the crate pushes it into the floor, the floor's contact pushes
// it back after, the crate never feels the floor through the cloth: it
// sinks into the cloth, shoves the pinched particles out sideways and
// rides them about the floor. Solved as immovable along every push, the
// particles beside its edges threw a crate landing tilted back up faster
// than it fell (TestCratesDroppedTurnedOnCloth, package cloth).
func (s *System) markBlocked(w *verlet3d.World, pos []mgl32.Vec3, radius []float32) {
	s.worldContacts = w.Contacts(s.worldContacts[:0])
	if len(s.worldContacts) == 0 {
		return
	}
	for len(s.firstHold) < len(pos) {
		s.firstHold = append(s.firstHold, -1)
	}
	if cap(s.nextHold) < len(s.worldContacts) {
		s.nextHold = make([]int32, len(s.worldContacts))
	}
	next := s.nextHold[:len(s.worldContacts)]
	for k, wc := range s.worldContacts {
		p := int(wc.Particle)
		next[k] = s.firstHold[p]
		s.firstHold[p] = int32(k)
	}
	for k := s.nRigid; k < len(s.contacts); k++ {
		c := &s.contacts[k]
		p := c.a[0]
		for j := s.firstHold[p]; j >= 0; j = next[j] {
			wc := &s.worldContacts[j]
			// Held: touching the collider (within the margin), and the
			// push along c.n goes into it.
			if f := vecmath.Dot(wc.Normal, c.n); f < 0 && vecmath.Dot(pos[p].Sub(wc.Point), wc.Normal)-radius[p] < s.margin {
				c.blocked, c.paHeld, c.hold = true, pos[p], wc.Normal
				// Within the collider's friction cone the push does
				// not slide the particle across it either: the crate's
				// weight presses it on the collider.
				mu := w.ColliderSettings(wc.Collider).Friction
				c.pinned = 1-float32(f*f) <= mu*mu*f*f
				break
			}
		}
	}
	for _, wc := range s.worldContacts {
		s.firstHold[wc.Particle] = -1
	}
}

// reserve gives the contact slices room for a few contacts per cube and
// collider before the first substep needs it: slices that grew one
// append at a time would allocate in the first frames of every scene.
func (s *System) reserve() {
	want := len(s.cubes) * (4*len(s.colliders) + 8)
	if cap(s.contacts) < want {
		s.contacts = make([]contact, 0, want)
	}
	for i := range s.slots {
		sl := &s.slots[i]
		if cap(sl.pairs) < want/2 {
			sl.pairs = make([]contact, 0, want/2)
		}
		if cap(sl.cols) < want {
			sl.cols = make([]contact, 0, want)
		}
		if cap(sl.prevPairs) < want/2 {
			sl.prevPairs = make([]contact, 0, want/2)
		}
		if cap(sl.prevCols) < want {
			sl.prevCols = make([]contact, 0, want)
		}
	}
	if cap(s.hits) < len(s.cubes) {
		s.hits = make([]int32, 0, len(s.cubes))
	}
	if cap(s.islands) < len(s.cubes) {
		s.islands = make([]island, 0, len(s.cubes))
	}
}

// pairSpan is where the pairs a cube comes first in (in the sweep order)
// sit: slot buffer pairs [lo, hi) of the slot of its range (generate), and
// at in System.contacts (Prepare).
type pairSpan struct{ lo, hi, at int32 }

// genSlot holds the contacts one range of generate made: slot k, range k
// of shares, which worker k runs (unless it was late to start).
type genSlot struct {
	pairs, cols []contact
	// The last substep's pairs and cols, which settled cubes keep
	// (reuse.go).
	prevPairs, prevCols []contact
	npairs              int
	colAt               int      // where mergeSlots puts cols in System.contacts
	_                   [64]byte // every append writes a slice header: no two slots on one cache line
}

// shares runs job over n cubes in the ranges [n·k/W, n·(k+1)/W), k < W,
// W the World's workers, one call a range, on the World's workers
// (World.Parallel over the ranges): a job that keeps a slot per range
// finds it from lo (slotOfRange), whichever goroutine runs it.
func (s *System) shares(w *verlet3d.World, n int, job func(lo, hi int)) {
	workers := max(1, w.Config().Workers)
	s.shareN, s.shareW, s.shareJob = n, workers, job
	w.Parallel(workers, s.shareRanges)
	s.shareJob = nil
}

// runShares runs System.shares' job on ranges [lo, hi) of its split (a
// World.Parallel job, bound once to shareRanges).
func (s *System) runShares(lo, hi int) {
	n, workers := s.shareN, s.shareW
	for k := lo; k < hi; k++ {
		if a, b := n*k/workers, n*(k+1)/workers; a < b {
			s.shareJob(a, b)
		}
	}
}

// slotOfRange returns the slot of generate's range starting at lo:
// shares cuts n cubes into the ranges [n·k/W, n·(k+1)/W).
func (s *System) slotOfRange(lo int) int {
	n, workers := len(s.cubes), len(s.slots)
	for k := range workers {
		if n*k/workers == lo && lo < n*(k+1)/workers {
			return k
		}
	}
	panic("bodies: generate: a range System.shares does not make")
}

// mergeSlots copies slots [lo, hi) into System.contacts at their places,
// the pairs cube by cube (a shares range job: slot k on worker k,
// which filled it).
func (s *System) mergeSlots(lo, hi int) {
	n, workers := len(s.cubes), len(s.slots)
	for k := lo; k < hi; k++ {
		sl := &s.slots[k]
		if workers == 1 {
			// One slot, filled in the sweep order: its pairs are in
			// their order already.
			copy(s.contacts, sl.pairs)
			s.copySides(0, sl.pairs)
		} else {
			for i := n * k / workers; i < n*(k+1)/workers; i++ {
				sp := &s.pairSpan[i]
				copy(s.contacts[sp.at:], sl.pairs[sp.lo:sp.hi])
				s.copySides(int(sp.at), sl.pairs[sp.lo:sp.hi])
			}
		}
		copy(s.contacts[sl.colAt:], sl.cols)
		s.copySides(sl.colAt, sl.cols)
	}
}

// copySides writes the cubes of contacts cs, which go to System.contacts
// at, to System.rigidSides at the same place.
func (s *System) copySides(at int, cs []contact) {
	ss := s.rigidSides[at : at+len(cs)]
	for k := range cs {
		ss[k] = contactSides{cs[k].ca, cs[k].cb}
	}
}

// generate is the contact job of Prepare for cubes [lo, hi): the pairs of
// each with the cubes after it in the sweep order, and its collider
// contacts, into the slot of its range (slotOfRange); it also writes
// fixed[lo:hi], and touches nothing else.
func (s *System) generate(lo, hi int) {
	k := s.slotOfRange(lo)
	sl := &s.slots[k]
	pos, prev, inv := s.pos, s.w.PrevPositions(), s.w.InvMasses()
	// Its cubes in the sweep order (with one worker, the slot's pairs are
	// then in their order in System.contacts already).
	for ii, i := range s.order {
		if i < int32(lo) || i >= int32(hi) {
			continue
		}
		a, ab := &s.cubes[i], &s.brief[i]
		a.keep.npairs[s.par] = 0
		from := len(sl.pairs)
		for _, j := range s.order[ii+1:] {
			bb := &s.brief[j]
			if bb.lo[0] > ab.hi[0] {
				break
			}
			if !ab.meetsAcross(bb) {
				continue
			}
			b := &s.cubes[j]
			if a.asleep && b.asleep {
				continue // both frozen: nothing to solve
			}
			sl.npairs++
			at := len(sl.pairs)
			if !(a.keep.settled && b.keep.settled && s.keptPair(a, j, sl)) {
				s.cubePair(i, j, pos, inv, &sl.pairs)
			}
			s.recordPair(a, j, k, at, sl)
		}
		s.pairSpan[i] = pairSpan{lo: int32(from), hi: int32(len(sl.pairs))}
	}
	for i := lo; i < hi; i++ {
		cb := &s.cubes[i]
		s.fixed[i] = cb.fixed()
		at := len(sl.cols)
		if cb.keep.settled && s.keptCols(cb, sl) {
			for ci, moving := range s.moving {
				if moving {
					s.cubeCollider(int32(i), int32(ci), pos, prev, inv, &sl.cols)
				}
			}
		} else {
			for ci := range s.colliders {
				s.cubeCollider(int32(i), int32(ci), pos, prev, inv, &sl.cols)
			}
		}
		cb.keep.cols[s.par] = keptRange{int32(k), int32(at), int32(len(sl.cols))}
	}
	recover := float32(cubeRecoverySpeed * s.h)
	for k := range sl.pairs {
		sl.pairs[k].start(pos, prev)
		sl.pairs[k].limitRecovery(recover)
	}
	for k := range sl.cols {
		sl.cols[k].start(pos, prev)
		sl.cols[k].limitRecovery(recover)
	}
}

// limitRecovery lets c push out of the depth it began the substep in by
// at most recover meters (its floor); the approach of the substep itself
// is stopped in full.
func (c *contact) limitRecovery(recover float32) {
	a, b, n := &c.paPrev, &c.pbPrev, &c.n // in place: see moveRigidly
	c.floor = min(0, (float32((a[0]-b[0])*n[0])+float32((a[1]-b[1])*n[1])+float32((a[2]-b[2])*n[2]))-c.r+recover)
}

// start records where the points of c were at the start of the substep,
// for friction, and how fast they approach, for restitution.
func (c *contact) start(pos, prev []mgl32.Vec3) {
	// Component by component (see moveRigidly).
	var pa mgl32.Vec3
	c.placeA(&c.paPrev, prev)
	c.placeA(&pa, pos)
	a0, n := &c.paPrev, &c.n
	if c.na == 1 && c.nb == 0 {
		// A corner against a collider (most contacts): side B is the
		// fixed point, which does not move (the general sum below
		// subtracts it from itself, an exact zero).
		c.pbPrev = c.fixed
		c.vn0 = float32((pa[0]-a0[0])*n[0]) + float32((pa[1]-a0[1])*n[1]) + float32((pa[2]-a0[2])*n[2])
		return
	}
	var pb mgl32.Vec3
	c.placeB(&c.pbPrev, prev)
	c.placeB(&pb, pos)
	b0 := &c.pbPrev
	c.vn0 = float32(((pa[0]-a0[0])-(pb[0]-b0[0]))*n[0]) + float32(((pa[1]-a0[1])-(pb[1]-b0[1]))*n[1]) + float32(((pa[2]-a0[2])-(pb[2]-b0[2]))*n[2])
}

// planeDist returns (x - pl.Point)·pl.Normal, component by component (see
// moveRigidly).
func planeDist(x *mgl32.Vec3, pl *verlet3d.Plane) float32 {
	o, n := &pl.Point, &pl.Normal
	return float32((x[0]-o[0])*n[0]) + float32((x[1]-o[1])*n[1]) + float32((x[2]-o[2])*n[2])
}

// planeContact is vecmath.PathContact(pl, a, b, 0, margin) for a corner
// that ends within the margin after a short move (the corners at rest on a
// floor), with the same arithmetic but without the interface calls and in
// place (see moveRigidly); others take PathContact itself.
func planeContact(pl *verlet3d.Plane, a, b *mgl32.Vec3, margin float32) (surface, normal mgl32.Vec3, ok bool) {
	// Plane.Closest(b), then (b - surface)·normal.
	o, nn := &pl.Point, &pl.Normal
	d := float32((b[0]-o[0])*nn[0]) + float32((b[1]-o[1])*nn[1]) + float32((b[2]-o[2])*nn[2])
	sx, sy, sz := b[0]-float32(nn[0]*d), b[1]-float32(nn[1]*d), b[2]-float32(nn[2]*d)
	e := float32((b[0]-sx)*nn[0]) + float32((b[1]-sy)*nn[1]) + float32((b[2]-sz)*nn[2])
	mx, my, mz := b[0]-a[0], b[1]-a[1], b[2]-a[2]
	if e >= margin || float32(mx*mx)+float32(my*my)+float32(mz*mz) > margin*margin {
		return vecmath.PathContact(pl, *a, *b, 0, margin)
	}
	return mgl32.Vec3{sx, sy, sz}, *nn, true
}

// prepareCubes is the per-cube work of Prepare for cubes [lo, hi): each
// touches only its own cube and particles (a shares range job).
func (s *System) prepareCubes(lo, hi int) {
	pos, prev, inv := s.pos, s.w.PrevPositions(), s.w.InvMasses()
	for i := lo; i < hi; i++ {
		cb := &s.cubes[i]
		if cb.asleep {
			// Frozen where it fell asleep (sleep.go): its frame, bounds
			// and cPrev stay as they were; contacts meet it as immovable.
			cb.held, cb.pred, cb.pivot, cb.qNextOK = true, false, false, false
			s.brief[i] = cubeBrief{lo: cb.lo, hi: cb.hi}
			s.settle(cb)
			continue
		}
		// carry's rotation and center hold within a step, and into the
		// next one when the particles are where carry left them (the game
		// may have moved them between steps); not when the World's guard
		// put a particle back (prepare).
		known := cb.qNextOK && !s.reset && (!s.first || cb.unmoved(prev))
		cb.qNextOK = false
		nh := 0
		if cb.center >= 0 && inv[cb.center] == 0 {
			nh, cb.pin = 1, cb.center
		}
		for _, p := range cb.p {
			if inv[p] == 0 {
				nh++
				cb.pin = p
			}
		}
		cb.held, cb.pivot = nh > 0, nh == 1
		cb.pred = false
		if cb.held {
			s.holdOut(cb, pos, prev, inv)
		}
		if cb.rigid && !cb.held {
			// predict places the particles at the rotation it finds.
			rm := s.predict(cb, pos, prev, s.h, known)
			s.placed(cb, pos, &rm)
		} else {
			s.frame(cb, pos)
		}
		cb.cPrev = cornerMean(prev, &cb.p)
		fm := float32(fastMove * cb.half)
		c, cp := &cb.c, &cb.cPrev // in place: see moveRigidly
		dx, dy, dz := c[0]-cp[0], c[1]-cp[1], c[2]-cp[2]
		cb.fast = float32(dx*dx)+float32(dy*dy)+float32(dz*dz) > fm*fm
		if cb.fast {
			// A fast cube's bounds cover its path, so that the broad
			// phase pairs it with a cube it passes this substep.
			s.sweptBounds(cb, prev)
		}
		s.settle(cb)
		s.brief[i] = cubeBrief{lo: cb.lo, hi: cb.hi, dragged: cb.held}
	}
}

// fastMove is the distance, in cube half-sizes, that a cube (or a pair of
// cubes, relative to each other) must move in a substep to count as fast:
// its bounds then cover its path, it meets the particles its path crossed
// (vertexFace), and a pair is tested with the centers where the substep
// began (cubePair), not only where the cubes end it. (Two 10 cm crates
// thrown at each other at 68 m/s, 11 cm a substep, passed through each
// other and left faster than they came.)
const fastMove = 0.5

// sweptBounds grows cb's bounds to hold its corners at the start of the
// substep too, grown by the margin.
func (s *System) sweptBounds(cb *cube, prev []mgl32.Vec3) {
	for _, p := range cb.p {
		x := prev[p]
		for k := 0; k < 3; k++ {
			cb.lo[k] = min(cb.lo[k], x[k]-s.margin)
			cb.hi[k] = max(cb.hi[k], x[k]+s.margin)
		}
	}
}

// frame refreshes cb's center, axes, rotation and bounds from pos.
func (s *System) frame(cb *cube, pos []mgl32.Vec3) {
	a, c := moment(pos, &cb.p)
	q := rotationNear(a, cb.q, 6)
	cb.q = q
	rm := q.mat()
	s.setFrame(cb, pos, c, &rm)
}

// placed is frame for a cube whose particles predict has just placed
// rigidly at the rotation cb.q (matrix rm): only the center is read back.
func (s *System) placed(cb *cube, pos []mgl32.Vec3, rm *mat3d) {
	var cx, cy, cz float64 // scalars: see predict
	for _, p := range cb.p {
		x := &pos[p] // not a copy: see moveRigidly
		cx += float64(x[0])
		cy += float64(x[1])
		cz += float64(x[2])
	}
	s.setFrame(cb, pos, [3]float64{float64(cx / 8), float64(cy / 8), float64(cz / 8)}, rm)
}

// setFrame sets cb's center to c, its axes from r (the matrix of cb.q) and
// its bounds from pos.
func (s *System) setFrame(cb *cube, pos []mgl32.Vec3, c [3]float64, r *mat3d) {
	cb.c = mgl32.Vec3{float32(c[0]), float32(c[1]), float32(c[2])}
	for k := 0; k < 3; k++ {
		cb.axis[k] = mgl32.Vec3{float32(r[k][0]), float32(r[k][1]), float32(r[k][2])}
	}
	// Component by component, reading the particles in place (see
	// moveRigidly: predict has just written them).
	x := &pos[cb.p[0]]
	lx, ly, lz := x[0], x[1], x[2]
	hx, hy, hz := lx, ly, lz
	for _, p := range cb.p[1:] {
		x := &pos[p]
		lx, ly, lz = min(lx, x[0]), min(ly, x[1]), min(lz, x[2])
		hx, hy, hz = max(hx, x[0]), max(hy, x[1]), max(hz, x[2])
	}
	m := s.margin
	cb.lo = mgl32.Vec3{lx - m, ly - m, lz - m}
	cb.hi = mgl32.Vec3{hx + m, hy + m, hz + m}
}

// pathMeets reports whether the box around cb's corners at the start of
// the substep and at the end (cb.lo, cb.hi), grown by the margin, meets
// the box [lo, hi].
func (s *System) pathMeets(cb *cube, prev []mgl32.Vec3, lo, hi mgl32.Vec3) bool {
	a, b := cb.lo, cb.hi
	for _, p := range cb.p {
		x := prev[p]
		for k := 0; k < 3; k++ {
			a[k] = min(a[k], x[k]-s.margin)
			b[k] = max(b[k], x[k]+s.margin)
		}
	}
	return !(a[0] > hi[0] || b[0] < lo[0] || a[1] > hi[1] || b[1] < lo[1] || a[2] > hi[2] || b[2] < lo[2])
}

// sweep sorts the cubes by their lower x bound. Insertion sort: the order
// barely changes from one substep to the next, so this is nearly linear.
func (s *System) sweep() {
	o := s.order
	for i := 1; i < len(o); i++ {
		v := o[i]
		x := s.brief[v].lo[0]
		j := i - 1
		for j >= 0 && s.brief[o[j]].lo[0] > x {
			o[j+1] = o[j]
			j--
		}
		o[j+1] = v
	}
	for i, c := range o {
		s.sortedLo[i] = s.brief[c].lo[0]
	}
}

// vertexFace adds a contact keeping particle p (radius r, friction mu)
// outside cube ib, if it is within the margin of it. Beside an edge or a
// corner, edgeCorner decides. Otherwise the face is the one p entered
// through during the substep, found from its start position relative to
// the cube's motion like a ray entering a box: the last slab it crossed. A
// particle sinking straight down exactly along a side plane is thus held by
// the top face rather than "resolved" by a zero push out of the side. A
// particle already inside at the start of the substep leaves through the
// nearest face.
func (s *System) vertexFace(p, ib int32, r, mu float32, pos, prev []mgl32.Vec3, inv []float32) {
	b := &s.cubes[ib]
	x := pos[p]
	l := b.local(x)
	reach := b.half + r + s.margin
	// Where p began the substep relative to the cube, in its frame now.
	start := func() mgl32.Vec3 { return b.local(prev[p].Add(b.c.Sub(b.cPrev))) }
	if l[0] > reach || l[0] < -reach || l[1] > reach || l[1] < -reach || l[2] > reach || l[2] < -reach {
		// Clear of the cube at the end of the substep; a fast cube may
		// have passed it (a crate thrown through a curtain).
		if !b.fast || !segmentMeetsBox(start(), l, reach) {
			return
		}
	} else if s.edgeCorner(p, ib, l, r, mu, pos, prev, inv) {
		return
	}
	lp := start()
	// Points this close to a slab count as inside it: aligned stacks put
	// corners exactly on each other's side planes.
	slab := b.half + r + float32(2e-3*b.half)
	axis, sign := -1, float32(1)
	tEnter := float32(-1)
	for k := 0; k < 3; k++ {
		a := lp[k]
		sg := float32(1)
		if a < 0 {
			a, sg = -a, -1
		}
		if a <= slab {
			continue // inside this slab at the start
		}
		t := float32(0)
		if d := a - float32(sg*l[k]); d > 1e-12 {
			t = (a - slab) / d
		}
		if t > tEnter {
			tEnter, axis, sign = t, k, sg
		}
	}
	if axis < 0 {
		// Inside (or on a face) at the start: out through the nearest
		// face, where the particle is now; for a fast cube, where it was
		// (a particle resting on a thrown crate's leading face is passed
		// by the crate's whole depth in a substep).
		at := l
		if b.fast {
			at = lp
		}
		best := float32(math.MaxFloat32)
		for k := 0; k < 3; k++ {
			for _, sg := range [2]float32{1, -1} {
				if pen := b.half + r - float32(sg*at[k]); pen < best {
					best, axis, sign = pen, k, sg
				}
			}
		}
	}
	fl := l
	fl[axis] = float32(sign * b.half)
	idx, wt := faceWeights(b.half, fl, axis, sign)
	c := contact{kind: kindParticle, ca: -1, cb: ib, na: 1, nb: 4, r: r, mu: mu, n: vecmath.Scale(b.axis[axis], sign)}
	c.a[0], c.wa[0] = p, 1
	for i := 0; i < 4; i++ {
		c.b[i], c.wb[i] = b.p[idx[i]], wt[i]
	}
	s.addParticleContact(&c, pos, prev, inv)
}

// segmentMeetsBox reports whether the segment from a to b meets the box
// [-h, h]³.
func segmentMeetsBox(a, b mgl32.Vec3, h float32) bool {
	t0, t1 := float32(0), float32(1)
	for k := 0; k < 3; k++ {
		d := b[k] - a[k]
		if d > -1e-12 && d < 1e-12 {
			if a[k] < -h || a[k] > h {
				return false
			}
			continue
		}
		ta, tb := (-h-a[k])/d, (h-a[k])/d
		if ta > tb {
			ta, tb = tb, ta
		}
		t0, t1 = max(t0, ta), min(t1, tb)
		if t0 > t1 {
			return false
		}
	}
	return true
}

// addParticleContact adds c, a contact of vertexFace, if either side can
// move, and wakes an asleep cube a particle touches.
func (s *System) addParticleContact(c *contact, pos, prev []mgl32.Vec3, inv []float32) {
	if !s.movable(c, inv) {
		return
	}
	s.contacts = append(s.contacts, *c)
	if s.cubes[c.cb].asleep {
		s.wakeByParticle(c.cb, c.a[0], c.n, pos, prev, s.h)
	}
}

// edgeCorner handles vertexFace's particle p at l (b's local frame) when
// it lies outside b beside an edge or a corner: a sphere of radius r
// against the box's nearest point, pushed out along the line between them,
// the point carried by the edge's two corners or by the corner. A face
// normal there pushes the particle along a face it is not over. (Measured:
// with face normals there, and floor-held particles free across the floor
// as markBlocked now has them, the draped crate of
// TestSurfaceCollisionDrapedCrateSettles, package cloth, did not come to
// rest in 15 s; with these it sleeps after about 8 s.) It reports whether
// it decided p (a contact made, or none needed); false leaves p to the
// faces.
func (s *System) edgeCorner(p, ib int32, l mgl32.Vec3, r, mu float32, pos, prev []mgl32.Vec3, inv []float32) bool {
	b := &s.cubes[ib]
	var d mgl32.Vec3
	corner, free, out := 0, -1, 0
	for k := 0; k < 3; k++ {
		switch {
		case l[k] > b.half:
			d[k], corner, out = l[k]-b.half, corner|1<<k, out+1
		case l[k] < -b.half:
			d[k], out = l[k]+b.half, out+1
		default:
			free = k
		}
	}
	if out < 2 {
		return false
	}
	dl := vecmath.Len(d)
	if dl < 1e-6 {
		return false // on the edge itself: the faces know better
	}
	if dl > r+s.margin {
		return true // beyond the edge's reach
	}
	n := vecmath.Scale(b.axis[0], d[0]/dl).Add(vecmath.Scale(b.axis[1], d[1]/dl)).Add(vecmath.Scale(b.axis[2], d[2]/dl))
	c := contact{kind: kindParticle, ca: -1, cb: ib, na: 1, nb: 1, r: r, mu: mu, n: n}
	c.a[0], c.wa[0] = p, 1
	c.b[0], c.wb[0] = b.p[corner], 1
	if free >= 0 {
		// Along the edge: its corners at the low and high end of the free
		// axis, weighted by where the nearest point lies between them.
		t := float32((l[free]/b.half + 1) / 2)
		c.nb = 2
		c.b[0], c.wb[0] = b.p[corner], 1-t
		c.b[1], c.wb[1] = b.p[corner|1<<free], t
	}
	s.addParticleContact(&c, pos, prev, inv)
	return true
}

// closestSegSeg returns the parameters in [0, 1] of the closest points of
// segments p1 + s·d1 and p2 + t·d2 (Ericson, Real-Time Collision
// Detection, 5.1.9). Both segments have non-zero length here.
func closestSegSeg(p1, d1, p2, d2 mgl32.Vec3) (s, t float32) {
	r := p1.Sub(p2)
	a, e, f := vecmath.Dot(d1, d1), vecmath.Dot(d2, d2), vecmath.Dot(d2, r)
	c, b := vecmath.Dot(d1, r), vecmath.Dot(d1, d2)
	den := float32(a*e) - float32(b*b)
	if den > 0 {
		s = clamp01((float32(b*f) - float32(c*e)) / den)
	}
	t = (float32(b*s) + f) / e
	if t < 0 {
		t, s = 0, clamp01(-c/a)
	} else if t > 1 {
		t, s = 1, clamp01((b-c)/a)
	}
	return s, t
}

func clamp01(x float32) float32 {
	if x < 0 {
		return 0
	}
	if x > 1 {
		return 1
	}
	return x
}

// cubeCollider appends to buf the contacts between cube ic and collider ci:
// its corners, with the System's own friction, and the face point facing
// the collider when the collider pokes into the cube between its corners (a
// small sphere on a face). A corner is tested along its path this substep
// (prev to pos) as the World tests a particle: one that crossed a thin
// collider, or ends inside one after a long move, is held where its path
// came in, so a cube thrown at 80 m/s stops at a 2 cm wall. (The World's
// own per-particle contacts leave cube particles to the System: see
// ParticleGroup.)
func (s *System) cubeCollider(ic, ci int32, pos, prev []mgl32.Vec3, inv []float32, buf *[]contact) {
	cb := &s.cubes[ic]
	col := s.colliders[ci]
	if cb.held {
		return // kept out by holdOut instead
	}
	pl, plane := col.c.(*verlet3d.Plane)
	if plane {
		// A cube whose corners are all clearly beyond the margin (the
		// common case: it flies, or rests on another) needs no look at
		// each corner, nor at its path. The corners lie within √3·half of
		// the center; the slack covers a cube squashed by contacts. A
		// plane has no far side to pass through.
		if d := planeDist(&cb.c, pl); d > float32(1.8*cb.half)+s.margin {
			return
		}
	}
	lo, hi := col.c.Bounds()
	if cb.lo[0] > hi[0] || cb.hi[0] < lo[0] || cb.lo[1] > hi[1] || cb.hi[1] < lo[1] || cb.lo[2] > hi[2] || cb.hi[2] < lo[2] {
		// Clear at the end of the substep; did the path cross it?
		if !s.pathMeets(cb, prev, lo, hi) {
			return
		}
	}
	mu := col.mu
	// A corner of a plane that stays clearly beyond the margin all the
	// substep (a plane's distance is linear along the path) gets no
	// contact from PathContact either: the slack covers its sweep's
	// tolerance and rounding.
	clear := s.margin + vecmath.SweepTolerance(s.margin) + 1e-5
	for _, p := range cb.p {
		if inv[p] == 0 {
			continue
		}
		if plane && planeDist(&pos[p], pl) > clear && planeDist(&prev[p], pl) > clear {
			continue
		}
		var sp, n mgl32.Vec3
		var ok bool
		if plane {
			sp, n, ok = planeContact(pl, &prev[p], &pos[p], s.margin)
		} else {
			sp, n, ok = vecmath.PathContact(col.c, prev[p], pos[p], 0, s.margin)
		}
		if !ok {
			continue
		}
		// Made in place: most contacts are these, and a contact is 244
		// bytes to build and copy.
		*buf = append(*buf, contact{})
		c := &(*buf)[len(*buf)-1]
		c.kind, c.ca, c.cb, c.na, c.fixed, c.n, c.mu, c.e, c.feat = kindCollider, ic, -1, 1, sp, n, mu, col.e, ci
		c.a[0], c.wa[0] = p, 1
	}
	if plane {
		// A plane touches a face only where it touches the face's corners,
		// which have contacts of their own: a face point would add nothing
		// but a fifth contact sharing the load of four.
		return
	}
	sp, n := col.c.Closest(cb.c)
	l := cb.local(sp)
	in := cb.half - float32(1e-4*cb.half)
	if l[0] > in || l[0] < -in || l[1] > in || l[1] < -in || l[2] > in || l[2] < -in {
		return
	}
	axis, sign := cb.faceAgainst(n) // the face toward the collider
	fl := l
	fl[axis] = float32(sign * cb.half)
	idx, wt := faceWeights(cb.half, fl, axis, sign)
	c := contact{kind: kindCollider, ca: ic, cb: -1, na: 4, fixed: sp, n: n, mu: mu, feat: ci}
	for i := 0; i < 4; i++ {
		c.a[i], c.wa[i] = cb.p[idx[i]], wt[i]
	}
	*buf = append(*buf, c)
}

// holdOut keeps the corners of cb, a cube held by a pinned or dragged
// particle, out of the System's colliders as the World keeps a particle
// out of its colliders: a corner whose path this substep ends inside one
// or crossed it is put back on the surface where it came in, and the
// cube's links turn it about what holds it. A held cube gets no collider
// contacts of its own (they would move it as a free body): without this a
// crate dragged onto the floor went through it and pressed the crates
// under it into the floor (one came out at 113 m/s). It moves only cb's
// particles: Prepare runs it in the per-cube job, before any contact is
// made, and Finish again after the solve.
func (s *System) holdOut(cb *cube, pos, prev []mgl32.Vec3, inv []float32) {
	for _, col := range s.colliders {
		for _, p := range cb.p {
			if inv[p] == 0 {
				continue
			}
			sp, n, ok := vecmath.PathContact(col.c, prev[p], pos[p], 0, 0)
			if ok && vecmath.Dot(pos[p].Sub(sp), n) < 0 {
				pos[p] = sp
			}
		}
	}
}

// particles adds contacts between cube faces and every particle that is not
// a cube's: cloth and hair rest on cubes and push them by their mass. The
// cubes are sorted by lower x bound, so a binary search finds the few whose
// bounds can hold a particle.
func (s *System) particles(pos, prev []mgl32.Vec3, inv, radius []float32) {
	if s.nOwned == len(pos) {
		return // a World of cubes alone has no particle to look at
	}
	// The cubes' bounds from brief, as the sweeps read them (a worker
	// wrote the cubes last).
	lo, hi := s.brief[0].lo, s.brief[0].hi
	for i := range s.brief {
		b := &s.brief[i]
		for k := 0; k < 3; k++ {
			lo[k] = min(lo[k], b.lo[k])
			hi[k] = max(hi[k], b.hi[k])
		}
	}
	mu := s.set.ParticleFriction
	for p := range pos {
		if s.owned[p] {
			continue
		}
		x, r := pos[p], radius[p]
		if x[0]+r < lo[0] || x[0]-r > hi[0] || x[1]+r < lo[1] || x[1]-r > hi[1] || x[2]+r < lo[2] || x[2]-r > hi[2] {
			continue
		}
		// First cube whose lower bound could still reach x.
		from := x[0] - r - s.maxWidth
		i, j := 0, len(s.sortedLo)
		for i < j {
			m := int(uint(i+j) >> 1)
			if s.sortedLo[m] < from {
				i = m + 1
			} else {
				j = m
			}
		}
		for ; i < len(s.order) && s.sortedLo[i] <= x[0]+r; i++ {
			b := &s.brief[s.order[i]]
			if x[0]-r > b.hi[0] || x[1]+r < b.lo[1] || x[1]-r > b.hi[1] || x[2]+r < b.lo[2] || x[2]-r > b.hi[2] {
				continue
			}
			s.vertexFace(int32(p), s.order[i], r, mu, pos, prev, inv)
		}
	}
}
