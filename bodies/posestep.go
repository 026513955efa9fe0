package bodies

import (
	"github.com/drape3d/drape/internal/vecmath"
	"math"
	"slices"

	"github.com/drape3d/drape/verlet3d"
	"github.com/go-gl/mathgl/mgl32"
)

// The pose engine's step. In the first substep of a step the System finds
// the step's contacts and islands (findContacts) and the World's particles
// near each cube (findParticles). The cubes move Settings.Substeps times a
// step, each of their substeps spanning one or more of the World's: when
// one begins, in Prepare, every awake cube keeps its move so far as the
// substep's start and moves on by its velocity, gravity and damping; in
// every solver iteration of the World substeps it spans, the particles are
// pushed out of the cubes, which the particles push back (solveParticles);
// when it ends, in Finish, each island, on one of the World's workers,
//
//  1. runs Config.Iterations passes over its contacts, from the ground up
//     (orderByLevel), each manifold's normals together (solveNormals), then
//     one friction pass, a patch per manifold (solveFrictions);
//  2. takes each cube's velocity and spin from its change of pose;
//  3. gives contacts that came together faster than two substeps of
//     gravity the restitution of their surfaces;
//  4. runs one more normal pass, which leaves no speed, holding the lower
//     cube of each contact between levels.
//
// After the last substep every island whose cubes all stayed still for
// Config.SleepDelay (updateSleep) falls asleep. Islands share no
// awake cube, and each is solved the same way on any worker, so the result
// is the same bits for any Config.Workers.

// pushOut is how fast depth that a contact began a step in is pushed out,
// m/s: a cube placed inside another, or pushed deep by a crowd, separates
// without a kick.
const pushOut = 2

// sqrt3 is the ratio of a cube's half diagonal to its half edge.
const sqrt3 = 1.7320508

// prepare runs the pose engine's substep s.
func (e *poseEngine) prepare(sys *System, w *verlet3d.World, s verlet3d.Substep) {
	cfg := w.Config()
	if s.First() {
		e.dt, e.h0 = cfg.TimeStep, s.H
		e.findContacts(sys, w, cfg)
		e.findParticles(w, s)
	}
	m := min(sys.set.Substeps, s.Count)
	e.h, e.damp, e.g, e.passes = cfg.TimeStep/float32(m), cfg.Damping, cfg.Gravity, max(1, s.Iterations)
	if !e.open {
		// A substep of the cubes begins: they move on by their velocities,
		// here when particles may push them before it ends, else on the
		// workers as their islands' solve begins (the same arithmetic).
		e.late = len(e.pairs) == 0
		if !e.late {
			for _, i := range e.islandBody {
				e.bodies[i].integrate(e.h, e.damp, e.g)
			}
		}
		e.open = true
	}
	if len(e.pairs) > 0 {
		e.markHeld(w)
	}
}

// solve runs in every iteration of World substep s: the World's particles
// against the cubes.
func (e *poseEngine) solve(sys *System, w *verlet3d.World, s verlet3d.Substep) {
	if len(e.pairs) > 0 {
		e.solveParticles(sys, w, s)
	}
}

// finish ends World substep s: the cubes' substep, if it ends here
// (Settings.Substeps spread over Config.Substeps), and after the step's
// last, its bookkeeping and sleep.
func (e *poseEngine) finish(sys *System, w *verlet3d.World, s verlet3d.Substep) {
	m := min(sys.set.Substeps, s.Count)
	if (s.Index+1)*m/s.Count > s.Index*m/s.Count {
		e.frac = float32(e.sub+1) / float32(m)
		// The collider contacts were found a World substep into the step.
		e.tau = float32(e.frac*e.dt) - e.h0
		if e.numIslands > 0 {
			w.Parallel(e.numIslands, e.job)
		}
		e.open = false
		e.sub++
	}
	if s.Last() {
		e.sub = 0
		e.endStep()
		e.updateSleep(w.Config())
	}
	e.stats.Sleeping = e.asleep
}

// findContacts finds the step's contacts and sorts them into islands.
func (e *poseEngine) findContacts(sys *System, w *verlet3d.World, cfg verlet3d.Config) {
	dt := cfg.TimeStep
	base := sys.set.Margin
	fall := float32(0.5 * length(cfg.Gravity) * dt * dt)
	n := len(e.bodies)
	e.margin, e.restitution = base, sys.set.Restitution
	if cfg.Gravity != e.gravity {
		// Cubes rest under the gravity they fell asleep in.
		e.gravity = cfg.Gravity
		if e.asleep > 0 {
			e.wakeAll()
		}
	}
	e.syncColliders(sys, w)
	e.trackColliders(dt)
	e.lo, e.hi = e.lo[:0], e.hi[:0]
	for i := range e.bodies {
		b := &e.bodies[i]
		b.xs, b.qs = b.x, b.q
		b.dp, b.dth = mgl32.Vec3{}, mgl32.Vec3{}
		if b.held {
			b.harm = rotate(b.q, b.grip)
		}
		if b.wake {
			// It keeps rest: asleep, it has not moved since the contacts
			// it fell asleep with (slept), which it takes up again.
			b.group, b.wake, b.still = -1, false, 0
			e.asleep--
		}
		r := float32(b.half * sqrt3)
		reach := base
		if b.group < 0 {
			reach += float32((length(b.v)+float32(length(b.w)*r))*dt) + fall
		}
		b.reach = reach
		// Against colliders a moving cube looks further ahead: other cubes
		// may push it on.
		b.push = min(b.half, float32(2*(reach-base)))
		ext := boxExtent(b.q, b.half).Add(mgl32.Vec3{reach, reach, reach})
		e.lo, e.hi = append(e.lo, b.x.Sub(ext)), append(e.hi, b.x.Add(ext))
	}
	// Sort-and-sweep along x; the order changes little from step to step.
	if len(e.order) != n {
		e.order = e.order[:0]
		for i := 0; i < n; i++ {
			e.order = append(e.order, int32(i))
		}
	}
	for i := 1; i < n; i++ {
		for j := i; j > 0 && e.lo[e.order[j-1]][0] > e.lo[e.order[j]][0]; j-- {
			e.order[j-1], e.order[j] = e.order[j], e.order[j-1]
		}
	}
	if e.asleep > 0 && e.asleep < n {
		e.wakeTouched()
	}
	e.keepAnchors()
	e.contacts = e.contacts[:0]
	e.margin = base
	e.stats = Stats{Sleeping: e.asleep}
	var pts [8]manifoldPoint
	mu, rest := sys.set.Friction, sys.set.Restitution
	for oi, ia := range e.order {
		a := &e.bodies[ia]
		loA, hiA := e.lo[ia], e.hi[ia]
		var fa boxFrame
		framed := false
		for _, ib := range e.order[oi+1:] {
			loB := e.lo[ib]
			if loB[0] > hiA[0] {
				break
			}
			b := &e.bodies[ib]
			if a.group >= 0 && b.group >= 0 {
				continue
			}
			hiB := e.hi[ib]
			if loB[1] > hiA[1] || loA[1] > hiB[1] || loB[2] > hiA[2] || loA[2] > hiB[2] {
				continue
			}
			e.stats.Pairs++
			if a.rest && b.rest {
				// Neither moved since their contacts were found: they hold.
				i, j := min(ia, ib), max(ia, ib)
				e.stats.CubeContacts += e.reuse(i, j)
				continue
			}
			if !framed {
				fa, framed = frameOf(a), true
			}
			fb := frameOf(b)
			// The lower index is A, so the pair's order does not depend on
			// the sweep's.
			i, j, f1, f2 := ia, ib, &fa, &fb
			if ib < ia {
				i, j, f1, f2 = ib, ia, &fb, &fa
			}
			nrm, m := boxManifold(f1, f2, a.reach+b.reach, &pts)
			if m == 0 {
				continue
			}
			if a.group >= 0 {
				e.wakeGroup(a.group)
			}
			if b.group >= 0 {
				e.wakeGroup(b.group)
			}
			A, B := &e.bodies[i], &e.bodies[j]
			for k := 0; k < m; k++ {
				p := &pts[k]
				c := poseContact{
					a: i, b: j, key: -1, n: nrm, mu: mu, e: rest, depth: min(p.sep, 0),
					la: unrotate(A.q, p.pa.Sub(A.x)),
					lb: unrotate(B.q, p.pb.Sub(B.x)),
				}
				e.anchor(&c, float32(0.1*B.half))
				e.setup(&c)
				e.contacts = append(e.contacts, c)
			}
			e.stats.CubeContacts += m
		}
	}
	// Cubes against the System's colliders: corner by corner, and at the
	// point of the collider nearest the cube's center (probe).
	for i := range e.bodies {
		b := &e.bodies[i]
		if b.group >= 0 {
			continue
		}
		if b.rest {
			e.stats.ColliderContacts += e.reuse(-1, int32(i))
			continue
		}
		var corners [8]mgl32.Vec3
		cornered := false
		for ci := range e.cols {
			cr := &e.cols[ci]
			if !cr.acts {
				continue
			}
			g := b.push + float32(length(cr.vel)*e.dt)
			lo, hi := e.lo[i].Sub(mgl32.Vec3{g, g, g}), e.hi[i].Add(mgl32.Vec3{g, g, g})
			cmin, cmax := cr.c.Bounds()
			if cmin[0] > hi[0] || cmin[1] > hi[1] || cmin[2] > hi[2] ||
				cmax[0] < lo[0] || cmax[1] < lo[1] || cmax[2] < lo[2] {
				continue
			}
			if !cornered {
				for k := range corners {
					corners[k] = b.x.Add(rotate(b.q, cornerOffset(k, b.half)))
				}
				cornered = true
			}
			// A moving collider comes closer by as much as it moves.
			reach := b.reach + b.push + float32(length(cr.vel)*e.dt)
			least := float32(math.MaxFloat32)
			for k, p := range corners {
				surf, nrm := cr.c.Closest(p)
				sep := dot(p.Sub(surf), nrm)
				least = min(least, sep)
				if sep > reach {
					continue
				}
				e.colliderContact(cr, poseContact{
					a: -1, b: int32(i), key: int32(ci*colliderKeys + k), n: nrm, depth: min(sep, 0),
					la: surf, lb: cornerOffset(k, b.half),
				})
			}
			// The probe: the collider's point nearest the center against
			// the cube's face (or edge, or corner) furthest along the
			// normal there. On a flat collider it is as deep as the
			// deepest corner and adds nothing; a ball or a capsule under
			// a face, or poking into one, is held by it alone.
			surf, nrm := cr.c.Closest(b.x)
			sep := dot(b.x.Sub(surf), nrm) - support(b.q, b.half, nrm)
			if sep <= reach && sep < least-float32(probeGap*b.half) {
				pb := surf.Add(vecmath.Scale(nrm, sep))
				e.colliderContact(cr, poseContact{
					a: -1, b: int32(i), key: int32(ci*colliderKeys + 8), n: nrm, depth: min(sep, 0),
					la: surf, lb: unrotate(b.q, pb.Sub(b.x)),
				})
			}
		}
	}
	e.buildIslands()
}

// colliderKeys is how many contacts a cube may have with one collider:
// its eight corners and the probe (key collider·colliderKeys + 0..8).
const colliderKeys = 9

// probeGap, times the cube's half edge, is how much deeper than every
// corner the probe must reach to be a contact of its own.
const probeGap = 0.01

// colliderContact sets up and keeps c, a contact of a cube with collider
// cr that its caller filled in but for the friction, restitution and the
// collider's motion.
func (e *poseEngine) colliderContact(cr *colliderRef, c poseContact) {
	c.mu, c.e = cr.mu, max(cr.e, e.restitution)
	c.sv = cr.vel
	e.anchor(&c, 0)
	e.setup(&c)
	e.contacts = append(e.contacts, c)
	e.stats.ColliderContacts++
}

// support returns how far a cube of half edge h turned by q reaches along
// the unit direction n from its center, m.
func support(q mgl32.Quat, h float32, n mgl32.Vec3) float32 {
	l := unrotate(q, n)
	return float32(h * (abs32(l[0]) + abs32(l[1]) + abs32(l[2])))
}

// syncColliders brings cols up to date with the World's colliders, in the
// World's order, keeping what each was seen doing: a collider acts on the
// cubes when the System added it (AddCollider) or its Mask takes in
// ParticleGroup (0 takes in every group), with its own friction and
// restitution. A collider that is new wakes the cubes near it, and so
// does one that is gone (what rested on it falls).
func (e *poseEngine) syncColliders(sys *System, w *verlet3d.World) {
	n := w.NumColliders()
	dt := w.Config().TimeStep
	for i := 0; i < n; i++ {
		c := w.Collider(i)
		j := i
		for j < len(e.cols) && e.cols[j].user != c {
			j++
		}
		switch {
		case j == len(e.cols):
			e.cols = append(e.cols, colliderRef{})
			copy(e.cols[i+1:], e.cols[i:])
			e.cols[i] = colliderRef{user: c}
			e.cols[i].frame(w)
			lo, hi := e.cols[i].c.Bounds()
			e.wakeNear(lo, hi, dt)
		case j != i:
			e.cols[i], e.cols[j] = e.cols[j], e.cols[i]
		}
		cs := w.ColliderSettings(i)
		r := &e.cols[i]
		r.frame(w)
		r.mu, r.e = cs.Friction, cs.Restitution
		r.acts = cs.Mask == 0 || cs.Mask&ParticleGroup != 0
		for k := range sys.colliders {
			r.acts = r.acts || sys.colliders[k].user == c
		}
	}
	for i := n; i < len(e.cols); i++ {
		if r := &e.cols[i]; r.seen {
			e.wakeNear(r.lo, r.hi, dt)
		}
		e.cols[i] = colliderRef{}
	}
	e.cols = e.cols[:n]
}

// trackColliders notes, at a step's start, how each of the System's
// colliders moved since the last step's (colliderRef.observe): its
// velocity over that step is how its contacts' surface moves within this
// one, and a cube near where a collider that moved was, is or goes on to
// this step is woken with its island and finds its contacts afresh.
func (e *poseEngine) trackColliders(dt float32) {
	for ci := range e.cols {
		cr := &e.cols[ci]
		moved, lo, hi := cr.observe(dt)
		if !cr.acts {
			continue
		}
		if moved {
			v := cr.vel
			ahead := mgl32.Vec3{abs32(float32(v[0] * dt)), abs32(float32(v[1] * dt)), abs32(float32(v[2] * dt))}
			e.wakeNear(lo.Sub(ahead), hi.Add(ahead), dt)
		}
	}
}

// wakeNear wakes, with their islands, the cubes whose box, grown by
// their margin and the distance their speed carries them in a step of dt
// s, meets the box lo, hi, and makes them find their contacts afresh:
// something there changed.
func (e *poseEngine) wakeNear(lo, hi mgl32.Vec3, dt float32) {
	for i := range e.bodies {
		b := &e.bodies[i]
		g := e.margin + float32(length(b.v)*dt)
		r := boxExtent(b.q, b.half).Add(mgl32.Vec3{g, g, g})
		if b.x[0]+r[0] < lo[0] || b.x[1]+r[1] < lo[1] || b.x[2]+r[2] < lo[2] ||
			b.x[0]-r[0] > hi[0] || b.x[1]-r[1] > hi[1] || b.x[2]-r[2] > hi[2] {
			continue
		}
		if b.group >= 0 {
			e.wakeGroup(b.group)
		}
		b.rest, b.drift = false, 0
	}
}

// restDrift is how far, m, a cube may move after its contacts were found
// before it finds them again: a cube that moves less over a step keeps the
// last step's contacts, only their separations and friction offsets
// brought up to date.
const restDrift = 1e-4

// reuse copies the last step's contacts between a (-1: the colliders) and
// b into this step's, from where the last step left them; it returns how
// many.
func (e *poseEngine) reuse(a, b int32) int {
	n := 0
	for k := e.prevFirst[b]; k >= 0; k = e.prevNext[k] {
		p := &e.prev[k]
		if p.a != a {
			continue
		}
		c := *p
		c.sep0, c.d1, c.d2 = c.sepEnd, c.d1End, c.d2End
		c.depth = min(c.sepEnd, 0)
		c.s1, c.s2 = 0, 0
		e.contacts = append(e.contacts, c)
		n++
	}
	return n
}

// endStep runs after a step's last substep: each contact's separation and
// friction offsets where the step leaves them (for reuse), friction
// anchors moved by how far their manifolds slid (in a's frame, so that the
// contact found again next step holds from where it is), and which cubes
// moved so little that they keep their contacts.
func (e *poseEngine) endStep() {
	for k := 0; k < len(e.sorted); k += int(e.sorted[k].span) {
		c0 := &e.sorted[k]
		d := vecmath.Scale(c0.t1, c0.s1).Add(vecmath.Scale(c0.t2, c0.s2))
		if c0.a >= 0 {
			d = unrotate(e.bodies[c0.a].qs, d)
		}
		for i := k; i < k+int(c0.span); i++ {
			c := &e.sorted[i]
			if c0.s1 != 0 || c0.s2 != 0 {
				c.fa = c.fa.Add(d)
			}
			B := &e.bodies[c.b]
			sep := c.sep0 + dot(c.n, B.dp) + dot(c.bn, B.dth)
			d1 := c.d1 + dot(c.t1, B.dp) + dot(c.bt1, B.dth) - c0.s1
			d2 := c.d2 + dot(c.t2, B.dp) + dot(c.bt2, B.dth) - c0.s2
			if c.a >= 0 {
				A := &e.bodies[c.a]
				sep -= dot(c.n, A.dp) + dot(c.an, A.dth)
				d1 -= dot(c.t1, A.dp) + dot(c.at1, A.dth)
				d2 -= dot(c.t2, A.dp) + dot(c.at2, A.dth)
			} else {
				sep -= float32(c.svn * e.tau)
				d1 -= float32(c.sv1 * e.tau)
				d2 -= float32(c.sv2 * e.tau)
			}
			c.sepEnd, c.d1End, c.d2End = sep, d1, d2
		}
	}
	for i := range e.bodies {
		b := &e.bodies[i]
		b.target0 = b.target
		if b.group >= 0 {
			continue // asleep: it keeps its rest and drift
		}
		if b.held {
			b.rest, b.drift = false, 0
			continue
		}
		b.drift += length(b.dp) + float32(length(b.dth)*b.half*sqrt3)
		b.rest = b.drift < restDrift
		if !b.rest {
			b.drift = 0
		}
	}
}

// keepAnchors keeps the last step's contacts, listed by cube b, for
// anchor.
func (e *poseEngine) keepAnchors() {
	e.prev = append(e.prev[:0], e.sorted...)
	// And those of the islands asleep at the last step's end, kept from
	// when they fell asleep: a cube woken now holds from where its
	// contacts held, as if it had stayed awake.
	e.prev = append(e.prev, e.slept...)
	keep := e.slept[:0]
	for _, c := range e.slept {
		if e.bodies[c.b].group >= 0 {
			keep = append(keep, c)
		}
	}
	e.slept = keep
	e.prevFirst = resize(e.prevFirst, len(e.bodies))
	for i := range e.prevFirst {
		e.prevFirst[i] = -1
	}
	e.prevNext = resize(e.prevNext, len(e.prev))
	for k := len(e.prev) - 1; k >= 0; k-- {
		b := e.prev[k].b
		e.prevNext[k] = e.prevFirst[b]
		e.prevFirst[b] = int32(k)
	}
}

// anchor gives the new contact c its friction anchors: those of the last
// step's contact it continues (the same collider and corner, or the same
// cube pair with its point on b within tol), else its own points.
func (e *poseEngine) anchor(c *poseContact, tol float32) {
	c.fa, c.fb = c.la, c.lb
	best := float32(tol * tol)
	for k := e.prevFirst[c.b]; k >= 0; k = e.prevNext[k] {
		p := &e.prev[k]
		if p.a != c.a || p.key != c.key {
			continue
		}
		if c.key >= 0 {
			c.fa, c.fb = p.fa, p.fb
			return
		}
		if d := vecmath.LenSqr(p.fb.Sub(c.lb)); d <= best {
			best = d
			c.fa, c.fb = p.fa, p.fb
		}
	}
}

// boxExtent returns the half size, along the world axes, of the box
// around a cube of half edge h turned by q.
func boxExtent(q mgl32.Quat, h float32) mgl32.Vec3 {
	x, y, z, w := q.V[0], q.V[1], q.V[2], q.W
	// The rotation matrix's rows, summed in absolute value.
	r00, r01, r02 := 1-float32(2*(float32(y*y)+float32(z*z))), float32(2*(float32(x*y)-float32(w*z))), float32(2*(float32(x*z)+float32(w*y)))
	r10, r11, r12 := float32(2*(float32(x*y)+float32(w*z))), 1-float32(2*(float32(x*x)+float32(z*z))), float32(2*(float32(y*z)-float32(w*x)))
	r20, r21, r22 := float32(2*(float32(x*z)-float32(w*y))), float32(2*(float32(y*z)+float32(w*x))), 1-float32(2*(float32(x*x)+float32(y*y)))
	return mgl32.Vec3{
		float32(h * (abs32(r00) + abs32(r01) + abs32(r02))),
		float32(h * (abs32(r10) + abs32(r11) + abs32(r12))),
		float32(h * (abs32(r20) + abs32(r21) + abs32(r22))),
	}
}

// cornerOffset returns corner k of a cube of half edge h in its own frame:
// bit 0 of k selects +x, bit 1 +y, bit 2 +z.
func cornerOffset(k int, h float32) mgl32.Vec3 {
	return mgl32.Vec3{float32(cornerSign(k, 0) * h), float32(cornerSign(k, 1) * h), float32(cornerSign(k, 2) * h)}
}

// wakeTouched wakes now, before the step's contacts are found, every
// asleep island that an awake cube reaches this step (a manifold within
// their speculative margins): the cube that lands on a sleeping stack
// then meets cubes that give way, as an awake stack's would, instead of
// an immovable one for a step.
func (e *poseEngine) wakeTouched() {
	var pts [8]manifoldPoint
	for oi, ia := range e.order {
		a := &e.bodies[ia]
		loA, hiA := e.lo[ia], e.hi[ia]
		for _, ib := range e.order[oi+1:] {
			loB := e.lo[ib]
			if loB[0] > hiA[0] {
				break
			}
			b := &e.bodies[ib]
			if (a.group >= 0) == (b.group >= 0) {
				continue
			}
			hiB := e.hi[ib]
			if loB[1] > hiA[1] || loA[1] > hiB[1] || loB[2] > hiA[2] || loA[2] > hiB[2] {
				continue
			}
			fa, fb := frameOf(a), frameOf(b)
			if _, m := boxManifold(&fa, &fb, a.reach+b.reach, &pts); m == 0 {
				continue
			}
			g := a.group
			if g < 0 {
				g = b.group
			}
			for k := range e.bodies {
				if c := &e.bodies[k]; c.group == g {
					c.group, c.wake, c.still = -1, false, 0
					e.asleep--
				}
			}
		}
	}
}

// wakeGroup wakes, from the next step on, every cube that fell asleep in
// group g; this step they hold still.
func (e *poseEngine) wakeGroup(g int32) {
	for i := range e.bodies {
		if b := &e.bodies[i]; b.group == g {
			b.wake = true
		}
	}
}

// buildIslands joins awake cubes that touch into islands and lays the
// cubes and contacts out island by island.
func (e *poseEngine) buildIslands() {
	n := len(e.bodies)
	e.parent = resize(e.parent, n)
	for i := range e.parent {
		e.parent[i] = int32(i)
	}
	for k := range e.contacts {
		c := &e.contacts[k]
		if c.a >= 0 && e.bodies[c.a].group < 0 && e.bodies[c.b].group < 0 {
			ra, rb := e.find(c.a), e.find(c.b)
			if ra != rb {
				if ra < rb {
					e.parent[rb] = ra
				} else {
					e.parent[ra] = rb
				}
			}
		}
	}
	e.islandOf = resize(e.islandOf, n)
	e.numIslands = 0
	for i := 0; i < n; i++ {
		e.islandOf[i] = -1
		if e.bodies[i].group >= 0 {
			continue
		}
		if r := e.find(int32(i)); r == int32(i) {
			e.islandOf[i] = int32(e.numIslands)
			e.numIslands++
		}
	}
	e.bodyStart = resize(e.bodyStart, e.numIslands+1)
	clear(e.bodyStart)
	for i := 0; i < n; i++ {
		if e.bodies[i].group < 0 {
			k := e.islandOf[e.find(int32(i))]
			e.islandOf[i] = k
			e.bodyStart[k+1]++
		}
	}
	for k := 0; k < e.numIslands; k++ {
		e.bodyStart[k+1] += e.bodyStart[k]
	}
	e.islandBody = resize(e.islandBody, int(e.bodyStart[e.numIslands]))
	fill := append(e.fill[:0], e.bodyStart[:e.numIslands]...)
	for i := 0; i < n; i++ {
		if k := e.islandOf[i]; k >= 0 && e.bodies[i].group < 0 {
			e.islandBody[fill[k]] = int32(i)
			fill[k]++
		}
	}
	// Contacts by island, in the order found.
	e.contStart = resize(e.contStart, e.numIslands+1)
	clear(e.contStart)
	for k := range e.contacts {
		c := &e.contacts[k]
		isl := e.islandOf[c.b]
		if isl < 0 && c.a >= 0 {
			isl = e.islandOf[c.a]
		}
		c.island = isl
		if isl >= 0 {
			e.contStart[isl+1]++
		}
	}
	for k := 0; k < e.numIslands; k++ {
		e.contStart[k+1] += e.contStart[k]
	}
	e.sorted = resizeContacts(e.sorted, int(e.contStart[e.numIslands]))
	fill = append(fill[:0], e.contStart[:e.numIslands]...)
	for k := range e.contacts {
		c := &e.contacts[k]
		if c.island >= 0 {
			e.sorted[fill[c.island]] = *c
			fill[c.island]++
		}
	}
	e.fill = fill
	e.orderByLevel()
}

// noLevel is the level of a cube that rests on nothing.
const noLevel = 1 << 20

// orderByLevel sorts each island's contacts from the ground up: a cube's
// level is how many cubes lie between it and what holds it (a collider or
// a sleeping cube), through contacts that touch, and a contact's the lower
// of its cubes'. Solving the ground's contacts first carries a correction
// up a stack within one pass, and the last pass holds the lower cube of
// each contact still (see solveNormal), so a stack's weight does not
// squeeze it.
func (e *poseEngine) orderByLevel() {
	n := len(e.bodies)
	e.level = resize(e.level, n)
	for i := range e.level {
		e.level[i] = noLevel
		if e.bodies[i].group >= 0 {
			e.level[i] = 0
		}
	}
	touch := e.margin
	for k := range e.sorted {
		if c := &e.sorted[k]; c.a < 0 && c.sep0 < touch {
			e.level[c.b] = 0
		}
	}
	for changed := true; changed; {
		changed = false
		for k := range e.sorted {
			c := &e.sorted[k]
			if c.a < 0 || c.sep0 >= touch {
				continue
			}
			la, lb := e.level[c.a], e.level[c.b]
			if la+1 < lb {
				e.level[c.b], changed = la+1, true
			} else if lb+1 < la {
				e.level[c.a], changed = lb+1, true
			}
		}
	}
	for k := range e.sorted {
		c := &e.sorted[k]
		c.fix = 0
		if c.a < 0 {
			c.rank = -1
			continue
		}
		la, lb := e.level[c.a], e.level[c.b]
		c.rank = min(la, lb)
		switch {
		case la < lb && c.wb > 0:
			c.fix, c.ks = 1, mass(c.wb+float32(c.ib*dot(c.bn, c.bn)))
		case lb < la && c.wa > 0:
			c.fix, c.ks = 2, mass(c.wa+float32(c.ia*dot(c.an, c.an)))
		}
	}
	for isl := 0; isl < e.numIslands; isl++ {
		cs := e.sorted[e.contStart[isl]:e.contStart[isl+1]]
		for i := 1; i < len(cs); i++ {
			for j := i; j > 0 && cs[j-1].rank > cs[j].rank; j-- {
				cs[j-1], cs[j] = cs[j], cs[j-1]
			}
		}
		// Manifolds: runs of contacts with the same cubes and normal.
		for i := 0; i < len(cs); {
			j := i + 1
			for j < len(cs) && cs[j].a == cs[i].a && cs[j].b == cs[i].b && cs[j].n == cs[i].n {
				cs[j].span = 0
				j++
			}
			cs[i].span = int32(j - i)
			e.patch(cs[i:j])
			couple(cs[i:j])
			i = j
		}
	}
}

func (e *poseEngine) find(i int32) int32 {
	for e.parent[i] != i {
		e.parent[i] = e.parent[e.parent[i]]
		i = e.parent[i]
	}
	return i
}

func resize(s []int32, n int) []int32 {
	if cap(s) < n {
		return make([]int32, n, n+n/2)
	}
	return s[:n]
}

func resizeContacts(s []poseContact, n int) []poseContact {
	if cap(s) < n {
		return make([]poseContact, n, n+n/2)
	}
	return s[:n]
}

// setup prepares contact c, just found at the step's start, for the
// substeps: its arms, tangents, effective masses and separations in world
// axes.
func (e *poseEngine) setup(c *poseContact) {
	B := &e.bodies[c.b]
	c.wb, c.ib = e.weights(c.b)
	c.rb = rotate(B.q, c.lb)
	pb := B.x.Add(c.rb)
	fb := B.x.Add(rotate(B.q, c.fb))
	var pa, fa mgl32.Vec3
	c.wa, c.ia, c.ra = 0, 0, mgl32.Vec3{}
	if c.a >= 0 {
		A := &e.bodies[c.a]
		c.wa, c.ia = e.weights(c.a)
		c.ra = rotate(A.q, c.la)
		pa = A.x.Add(c.ra)
		fa = A.x.Add(rotate(A.q, c.fa))
	} else {
		pa, fa = c.la, c.fa
	}
	n := c.n
	// Tangents: t1 along the axis least like n, made square to it.
	t1 := mgl32.Vec3{1, 0, 0}
	if abs32(n[0]) > 0.57 {
		t1 = mgl32.Vec3{0, 1, 0}
		if abs32(n[1]) > 0.57 {
			t1 = mgl32.Vec3{0, 0, 1}
		}
	}
	t1 = t1.Sub(vecmath.Scale(n, dot(t1, n)))
	t1 = vecmath.Scale(t1, 1/length(t1))
	t2 := cross(n, t1)
	c.t1, c.t2 = t1, t2
	c.an, c.bn = cross(c.ra, n), cross(c.rb, n)
	c.at1, c.bt1 = cross(c.ra, t1), cross(c.rb, t1)
	c.at2, c.bt2 = cross(c.ra, t2), cross(c.rb, t2)
	c.kn = mass(c.wa + float32(c.ia*dot(c.an, c.an)) + c.wb + float32(c.ib*dot(c.bn, c.bn)))
	c.k1 = mass(c.wa + float32(c.ia*dot(c.at1, c.at1)) + c.wb + float32(c.ib*dot(c.bt1, c.bt1)))
	c.k2 = mass(c.wa + float32(c.ia*dot(c.at2, c.at2)) + c.wb + float32(c.ib*dot(c.bt2, c.bt2)))
	c.sep0 = dot(pb.Sub(pa), n)
	c.svn, c.sv1, c.sv2 = dot(c.sv, n), dot(c.sv, t1), dot(c.sv, t2)
	d := fb.Sub(fa)
	c.d1, c.d2 = dot(d, t1), dot(d, t2)
	c.s1, c.s2 = 0, 0
}

// mass returns 1/w, or 0 for a contact nothing can move.
func mass(w float32) float32 {
	if !(w > 0) {
		return 0
	}
	return 1 / w
}

// solveIslands runs the substep on islands [lo, hi).
func (e *poseEngine) solveIslands(lo, hi int) {
	h, g := e.h, e.g
	for k := lo; k < hi; k++ {
		cubes := e.islandBody[e.bodyStart[k]:e.bodyStart[k+1]]
		cons := e.sorted[e.contStart[k]:e.contStart[k+1]]
		if e.late {
			for _, i := range cubes {
				e.bodies[i].integrate(h, e.damp, g)
			}
		}
		bounce := false
		for c := range cons {
			ct := &cons[c]
			ct.ln, ct.lt, ct.ltw = 0, 0, 0
			if ct.depth < 0 {
				// Depth the step began in goes at pushOut, not at once.
				ct.depth = min(ct.depth+float32(pushOut*h), 0)
			}
			if ct.e > 0 {
				ct.vn0 = e.normalSpeed(ct)
				bounce = true
			}
		}
		for p := 0; p < e.passes; p++ {
			for _, i := range cubes {
				if b := &e.bodies[i]; b.held {
					e.solveHold(b, e.frac)
				}
			}
			for c := 0; c < len(cons); c += int(cons[c].span) {
				e.solveNormals(cons[c:c+int(cons[c].span)], false)
			}
		}
		for c := 0; c < len(cons); c += int(cons[c].span) {
			e.solveFrictions(cons[c : c+int(cons[c].span)])
		}
		for _, i := range cubes {
			e.bodies[i].velocities(h)
		}
		if bounce {
			thresh := float32(2 * length(g) * h)
			for c := range cons {
				if ct := &cons[c]; ct.e > 0 && ct.ln > 0 && ct.vn0 < -thresh {
					e.restitute(ct)
				}
			}
		}
		// What the passes left of a penetration goes without becoming
		// speed: the velocities are already taken, and the next substep
		// starts from here.
		for c := 0; c < len(cons); c += int(cons[c].span) {
			e.solveNormals(cons[c:c+int(cons[c].span)], true)
		}
		for _, i := range cubes {
			e.bodies[i].place()
		}
	}
}

// weights returns the inverse mass and inertia body i has in contacts
// this step: none while it is asleep.
func (e *poseEngine) weights(i int32) (float32, float32) {
	b := &e.bodies[i]
	if b.group >= 0 {
		return 0, 0
	}
	return b.invM, b.invI
}

// solveNormals runs one pass of the normal constraints of manifold m
// (contacts that share their cubes and normal): the points' separation,
// the step's start's plus what the cubes' moves and turns since add along
// the normal, must not be below the depth allowed. Every point's
// correction is found from the same poses and the sum applied at once
// (Jacobi within the manifold): four corners resting on a face correct
// their cube exactly, where one after another (Gauss-Seidel) would tilt it
// one way and then the other, leaving it turned a little every pass. With
// hold, the lower cube of a contact between levels (orderByLevel) stays
// where it is.
func (e *poseEngine) solveNormals(m []poseContact, hold bool) {
	c0 := &m[0]
	B := &e.bodies[c0.b]
	nb := dot(c0.n, B.dp)
	var A *poseBody
	var na float32
	if c0.a >= 0 {
		A = &e.bodies[c0.a]
		na = dot(c0.n, A.dp)
	} else {
		na = float32(c0.svn * e.tau) // a moving collider's surface
	}
	held := hold && c0.fix != 0
	// The points below their depth.
	k := 0
	for i := range m {
		c := &m[i]
		sep := c.sep0 - c.depth + nb + dot(c.bn, B.dth)
		if A != nil {
			sep -= na + dot(c.an, A.dth)
		} else {
			sep -= na
		}
		c.cur = sep
		if sep < 0 {
			k++
		}
	}
	if k == 0 {
		return
	}
	// Each point's correction is its depth times its effective mass, or,
	// when every point of the manifold is below its depth, times the
	// manifold's (couple): summed, the four corners of a hollow crate
	// would push it out twice.
	all := k == len(m)
	var sum float32
	var tb, ta mgl32.Vec3
	for i := range m {
		c := &m[i]
		if c.cur >= 0 {
			continue
		}
		var km float32
		switch {
		case held && all:
			km = c.ksAll
		case held:
			km = c.ks
		case all:
			km = c.knAll
		default:
			km = c.kn
		}
		dl := float32(-c.cur * km)
		if !held {
			c.ln += dl
		}
		sum += dl
		tb = tb.Add(vecmath.Scale(c.bn, dl))
		ta = ta.Add(vecmath.Scale(c.an, dl))
	}
	if sum == 0 {
		return
	}
	if c0.wb > 0 && !(held && c0.fix == 2) {
		B.dp = B.dp.Add(vecmath.Scale(c0.n, float32(sum*c0.wb)))
		B.dth = B.dth.Add(vecmath.Scale(tb, c0.ib))
	}
	if c0.wa > 0 && !(held && c0.fix == 1) {
		A.dp = A.dp.Sub(vecmath.Scale(c0.n, float32(sum*c0.wa)))
		A.dth = A.dth.Sub(vecmath.Scale(ta, c0.ia))
	}
}

// couple sets, for each contact of manifold m, its effective masses when
// every point of m is below its depth (knAll, and ksAll with the lower
// cube held): the inverse of its row of the manifold's coupling, how far
// the corrections of all the points move this one per unit of its own,
// where that is more than its own diagonal. Points as deep as each other
// then move their cube exactly out, whatever its inertia. (With only some
// points down, solveNormals keeps each point's own effective mass: the
// diagonal's overshoot there, 25% for a solid crate tipping on an edge,
// is what settles a crate on a slope 2 degrees below its friction angle,
// which the exact row lets creep 7 mm/s at two passes.)
func couple(m []poseContact) {
	c0 := &m[0]
	var sb, sa mgl32.Vec3
	for i := range m {
		sb, sa = sb.Add(m[i].bn), sa.Add(m[i].an)
	}
	n := float32(len(m))
	for i := range m {
		c := &m[i]
		rb := float32(c0.wb*n) + float32(c0.ib*dot(c.bn, sb))
		ra := float32(c0.wa*n) + float32(c0.ia*dot(c.an, sa))
		db := c0.wb + float32(c0.ib*dot(c.bn, c.bn))
		da := c0.wa + float32(c0.ia*dot(c.an, c.an))
		c.knAll = mass(max(ra+rb, da+db))
		switch c0.fix {
		case 1: // a held: b moves
			c.ksAll = mass(max(rb, db))
		case 2:
			c.ksAll = mass(max(ra, da))
		}
	}
}

// patch sets up the friction of manifold m, its contacts found this
// step: one anchor at the manifold's center, where its contacts' anchors
// are on average, and a twist about the normal.
func (e *poseEngine) patch(m []poseContact) {
	c0 := &m[0]
	var ra, rb mgl32.Vec3
	var d1, d2 float32
	for i := range m {
		ra, rb = ra.Add(m[i].ra), rb.Add(m[i].rb)
		d1 += m[i].d1
		d2 += m[i].d2
	}
	inv := 1 / float32(len(m))
	ra, rb = vecmath.Scale(ra, inv), vecmath.Scale(rb, inv)
	c0.pd1, c0.pd2 = float32(d1*inv), float32(d2*inv)
	var r float32
	for i := range m {
		x := m[i].rb.Sub(rb)
		x = x.Sub(vecmath.Scale(c0.n, dot(x, c0.n)))
		r += length(x)
	}
	c0.pr = float32(r * inv)
	c0.pat1, c0.pbt1 = cross(ra, c0.t1), cross(rb, c0.t1)
	c0.pat2, c0.pbt2 = cross(ra, c0.t2), cross(rb, c0.t2)
	c0.pk1 = mass(c0.wa + float32(c0.ia*dot(c0.pat1, c0.pat1)) + c0.wb + float32(c0.ib*dot(c0.pbt1, c0.pbt1)))
	c0.pk2 = mass(c0.wa + float32(c0.ia*dot(c0.pat2, c0.pat2)) + c0.wb + float32(c0.ib*dot(c0.pbt2, c0.pbt2)))
	c0.pkt = mass(c0.ia + c0.ib)
}

// solveFrictions runs the friction of manifold m as one patch: its center
// must not slide from its anchor, nor the cubes twist about the normal,
// within one cone, Friction times the manifold's normal correction this
// substep (position-level Coulomb over the face: where the weight lies
// among its corners does not decide whether it slides, and a twist is held
// by the face's size). Beyond the cone the patch slides: friction takes
// what the cone allows, and the anchor follows the rest.
func (e *poseEngine) solveFrictions(m []poseContact) {
	c0 := &m[0]
	var ln float32
	for i := range m {
		ln += m[i].ln
	}
	if ln <= 0 {
		return
	}
	B := &e.bodies[c0.b]
	o1 := c0.pd1 + dot(c0.t1, B.dp) + dot(c0.pbt1, B.dth)
	o2 := c0.pd2 + dot(c0.t2, B.dp) + dot(c0.pbt2, B.dth)
	tw := dot(c0.n, B.dth)
	var A *poseBody
	if c0.a >= 0 {
		A = &e.bodies[c0.a]
		o1 -= dot(c0.t1, A.dp) + dot(c0.pat1, A.dth)
		o2 -= dot(c0.t2, A.dp) + dot(c0.pat2, A.dth)
		tw -= dot(c0.n, A.dth)
	} else {
		o1 -= float32(c0.sv1 * e.tau)
		o2 -= float32(c0.sv2 * e.tau)
	}
	l1, l2 := float32(-o1*c0.pk1), float32(-o2*c0.pk2)
	need := float32(math.Sqrt(float64(float32(l1*l1) + float32(l2*l2))))
	if lim := float32(c0.mu*ln) - c0.lt; need > lim {
		f := max(lim, 0) / need
		c0.pd1 -= float32(o1 * (1 - f))
		c0.pd2 -= float32(o2 * (1 - f))
		c0.s1 += float32(o1 * (1 - f))
		c0.s2 += float32(o2 * (1 - f))
		l1, l2, need = float32(l1*f), float32(l2*f), float32(need*f)
	}
	c0.lt += need
	lt := float32(-tw * c0.pkt)
	if lim := float32(c0.mu*ln*c0.pr) - c0.ltw; abs32(lt) > lim {
		lt = math.Float32frombits(math.Float32bits(max(lim, 0)) | math.Float32bits(lt)&(1<<31))
	}
	c0.ltw += abs32(lt)
	t := vecmath.Scale(c0.t1, l1).Add(vecmath.Scale(c0.t2, l2))
	if c0.wb > 0 {
		B.dp = B.dp.Add(vecmath.Scale(t, c0.wb))
		B.dth = B.dth.Add(vecmath.Scale(c0.pbt1, float32(l1*c0.ib))).Add(vecmath.Scale(c0.pbt2, float32(l2*c0.ib))).Add(vecmath.Scale(c0.n, float32(lt*c0.ib)))
	}
	if c0.wa > 0 {
		A.dp = A.dp.Sub(vecmath.Scale(t, c0.wa))
		A.dth = A.dth.Sub(vecmath.Scale(c0.pat1, float32(l1*c0.ia))).Sub(vecmath.Scale(c0.pat2, float32(l2*c0.ia))).Sub(vecmath.Scale(c0.n, float32(lt*c0.ia)))
	}
}

// normalSpeed returns how fast contact c's points move apart along its
// normal, m/s (negative: closing).
func (e *poseEngine) normalSpeed(c *poseContact) float32 {
	B := &e.bodies[c.b]
	v := dot(c.n, B.v) + dot(c.bn, B.w)
	if c.a >= 0 {
		A := &e.bodies[c.a]
		v -= dot(c.n, A.v) + dot(c.an, A.w)
	} else {
		v -= c.svn
	}
	return v
}

// restitute sets contact c's normal speed to its restitution times the
// speed it closed with.
func (e *poseEngine) restitute(c *poseContact) {
	j := float32((float32(-c.e*c.vn0) - e.normalSpeed(c)) * c.kn)
	if j <= 0 {
		return
	}
	if c.wb > 0 {
		B := &e.bodies[c.b]
		B.v = B.v.Add(vecmath.Scale(c.n, float32(j*c.wb)))
		B.w = B.w.Add(vecmath.Scale(c.bn, float32(j*c.ib)))
	}
	if c.wa > 0 {
		A := &e.bodies[c.a]
		A.v = A.v.Sub(vecmath.Scale(c.n, float32(j*c.wa)))
		A.w = A.w.Sub(vecmath.Scale(c.an, float32(j*c.ia)))
	}
}

// updateSleep runs after a step's last substep: an island whose cubes have
// all been slower than SleepSpeed for SleepDelay falls asleep.
func (e *poseEngine) updateSleep(cfg verlet3d.Config) {
	if cfg.SleepSpeed <= 0 {
		return
	}
	dt := cfg.TimeStep
	radius := float32(cfg.SleepSpeed * cfg.SleepDelay / 2)
	e.islandStill = slices.Grow(e.islandStill[:0], e.numIslands)[:e.numIslands]
	for k := range e.islandStill {
		e.islandStill[k] = math.MaxFloat32
	}
	for i := range e.bodies {
		b := &e.bodies[i]
		if b.group >= 0 {
			continue
		}
		// Still: within a ball around where it was when its count began,
		// of half what SleepSpeed allows over SleepDelay, so that jitter
		// that goes nowhere (a crate under settling cloth) is still, and
		// a slow slide is not.
		if b.still > 0 {
			dq := vecmath.QuatMul(b.q, vecmath.QuatConjugate(b.qa))
			if length(b.x.Sub(b.xa)) > radius || 2*length(dq.V)*b.half*sqrt3 > radius {
				b.still = 0
			}
		}
		if b.held {
			b.still = 0
		}
		if b.still == 0 {
			b.xa, b.qa = b.x, b.q
		}
		b.still += dt
		if k := e.islandOf[i]; k >= 0 {
			e.islandStill[k] = min(e.islandStill[k], b.still)
		}
	}
	for k := 0; k < e.numIslands; k++ {
		if e.islandStill[k] < cfg.SleepDelay {
			continue
		}
		e.nextGroup++
		e.slept = append(e.slept, e.sorted[e.contStart[k]:e.contStart[k+1]]...)
		for _, i := range e.islandBody[e.bodyStart[k]:e.bodyStart[k+1]] {
			b := &e.bodies[i]
			b.group = e.nextGroup
			b.v, b.w = mgl32.Vec3{}, mgl32.Vec3{}
			e.asleep++
		}
	}
}

// wakeAll wakes every cube now.
func (e *poseEngine) wakeAll() {
	for i := range e.bodies {
		b := &e.bodies[i]
		if b.group >= 0 {
			e.asleep--
		}
		b.group, b.wake, b.still, b.rest, b.drift = -1, false, 0, false, 0
	}
}

// wakeCube wakes cube i and the cubes asleep with it, now: cube i finds
// its contacts afresh, the others take up those they fell asleep with
// while they do not move (as awake cubes keep theirs).
func (e *poseEngine) wakeCube(i int) {
	if g := e.bodies[i].group; g >= 0 {
		for k := range e.bodies {
			if b := &e.bodies[k]; b.group == g {
				b.group, b.wake, b.still = -1, false, 0
				e.asleep--
			}
		}
	}
	b := &e.bodies[i]
	b.still, b.rest, b.drift = 0, false, 0
}
