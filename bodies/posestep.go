package bodies

import (
	"math"
	"slices"

	"github.com/drape3d/drape/verlet3d"
	"github.com/go-gl/mathgl/mgl32"
)

// The pose engine's step. In the first substep of a step the System finds
// the step's contacts and islands (findContacts); in every substep each
// island, on one of the World's workers, then
//
//  1. integrates its cubes: each keeps its pose as the substep's start and
//     moves by its velocity, gravity and damping;
//  2. runs Config.Iterations passes over its contacts in the order they
//     were found, each a positional constraint (the two points must not
//     come closer than 0 along the normal) solved with the cubes'
//     generalized inverse masses, followed by position-level Coulomb
//     friction that cancels the points' sliding since the substep's start
//     up to the friction coefficient times the normal correction;
//  3. takes each cube's velocity and spin from its change of pose;
//  4. gives contacts that came together faster than two substeps of
//     gravity the restitution of their surfaces.
//
// After the last substep every island whose cubes all stayed slower than
// Config.SleepSpeed for Config.SleepDelay falls asleep. Islands share no
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
		e.findContacts(sys, cfg)
	}
	e.h, e.damp, e.g, e.passes = s.H, cfg.Damping, cfg.Gravity, max(1, s.Iterations)
	if e.numIslands > 0 {
		w.Parallel(e.numIslands, e.job)
	}
	if s.Last() {
		e.updateSleep(cfg)
	}
	e.stats.Sleeping = e.asleep
}

// findContacts finds the step's contacts and sorts them into islands.
func (e *poseEngine) findContacts(sys *System, cfg verlet3d.Config) {
	dt := cfg.TimeStep
	base := sys.set.Margin
	fall := 0.5 * length(cfg.Gravity) * dt * dt
	n := len(e.bodies)
	e.lo, e.hi = e.lo[:0], e.hi[:0]
	e.maxExt = 0
	for i := range e.bodies {
		b := &e.bodies[i]
		b.xs, b.qs = b.x, b.q
		if b.wake {
			b.group, b.wake, b.still = -1, false, 0
			e.asleep--
		}
		r := b.half * sqrt3
		reach := base
		if b.group < 0 {
			reach += (length(b.v)+length(b.w)*r)*dt + fall
		}
		b.reach = reach
		r += b.half // collider contacts reach further: other cubes may push
		ext := mgl32.Vec3{r + reach, r + reach, r + reach}
		e.lo, e.hi = append(e.lo, b.x.Sub(ext)), append(e.hi, b.x.Add(ext))
		e.maxExt = max(e.maxExt, 2*(r+reach))
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
	e.keepAnchors()
	e.contacts = e.contacts[:0]
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
				e.anchor(&c, 0.1*B.half)
				e.contacts = append(e.contacts, c)
			}
			e.stats.CubeContacts += m
		}
	}
	// Cubes against the System's colliders, corner by corner.
	for i := range e.bodies {
		b := &e.bodies[i]
		if b.group >= 0 {
			continue
		}
		var corners [8]mgl32.Vec3
		cornered := false
		for ci, cr := range sys.colliders {
			cmin, cmax := cr.c.Bounds()
			if cmin[0] > e.hi[i][0] || cmin[1] > e.hi[i][1] || cmin[2] > e.hi[i][2] ||
				cmax[0] < e.lo[i][0] || cmax[1] < e.lo[i][1] || cmax[2] < e.lo[i][2] {
				continue
			}
			if !cornered {
				for k := range corners {
					corners[k] = b.x.Add(rotate(b.q, cornerOffset(k, b.half)))
				}
				cornered = true
			}
			for k, p := range corners {
				surf, nrm := cr.c.Closest(p)
				sep := dot(p.Sub(surf), nrm)
				if sep > b.reach+b.half {
					continue
				}
				c := poseContact{
					a: -1, b: int32(i), key: int32(ci*8 + k), n: nrm, mu: cr.mu, e: max(cr.e, rest), depth: min(sep, 0),
					la: surf, lb: cornerOffset(k, b.half),
				}
				e.anchor(&c, 0)
				e.contacts = append(e.contacts, c)
				e.stats.ColliderContacts++
			}
		}
	}
	e.buildIslands()
}

// keepAnchors keeps the last step's contacts, listed by cube b, for
// anchor.
func (e *poseEngine) keepAnchors() {
	e.prev = append(e.prev[:0], e.sorted...)
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
	best := tol * tol
	for k := e.prevFirst[c.b]; k >= 0; k = e.prevNext[k] {
		p := &e.prev[k]
		if p.a != c.a || p.key != c.key {
			continue
		}
		if c.key >= 0 {
			c.fa, c.fb = p.fa, p.fb
			return
		}
		if d := p.fb.Sub(c.lb).LenSqr(); d <= best {
			best = d
			c.fa, c.fb = p.fa, p.fb
		}
	}
}

// cornerOffset returns corner k of a cube of half edge h in its own frame:
// bit 0 of k selects +x, bit 1 +y, bit 2 +z.
func cornerOffset(k int, h float32) mgl32.Vec3 {
	return mgl32.Vec3{cornerSign(k, 0) * h, cornerSign(k, 1) * h, cornerSign(k, 2) * h}
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

// solveIslands runs the substep on islands [lo, hi).
func (e *poseEngine) solveIslands(lo, hi int) {
	h, damp, g := e.h, e.damp, e.g
	for k := lo; k < hi; k++ {
		cubes := e.islandBody[e.bodyStart[k]:e.bodyStart[k+1]]
		cons := e.sorted[e.contStart[k]:e.contStart[k+1]]
		for _, i := range cubes {
			e.bodies[i].integrate(h, damp, g)
		}
		bounce := false
		for c := range cons {
			ct := &cons[c]
			ct.ln, ct.lt = 0, 0
			if ct.depth < 0 {
				// Depth the step began in goes at pushOut, not at once.
				ct.depth = min(ct.depth+pushOut*h, 0)
			}
			if ct.e > 0 {
				ct.vn0 = e.normalSpeed(ct)
				bounce = true
			}
		}
		for p := 0; p < e.passes; p++ {
			for c := range cons {
				e.solveNormal(&cons[c])
			}
		}
		for c := range cons {
			e.solveFriction(&cons[c])
		}
		for _, i := range cubes {
			e.bodies[i].velocities(h)
		}
		// What the passes left of a penetration goes without becoming
		// speed: the velocities are already taken, and the next substep
		// starts from here.
		for c := range cons {
			e.solveNormal(&cons[c])
		}
		if bounce {
			thresh := 2 * length(g) * h
			for c := range cons {
				if ct := &cons[c]; ct.e > 0 && ct.ln > 0 && ct.vn0 < -thresh {
					e.restitute(ct)
				}
			}
		}
	}
}

// weights returns the inverse mass and inertia body i has in contacts
// this step: none while it is asleep.
func (e *poseEngine) weights(i int32) (*poseBody, float32, float32) {
	b := &e.bodies[i]
	if b.group >= 0 {
		return b, 0, 0
	}
	return b, b.invM, b.invI
}

// solveNormal runs one pass of contact c's normal constraint.
func (e *poseEngine) solveNormal(c *poseContact) {
	var A *poseBody
	var ra, pa mgl32.Vec3
	var wa, ia float32
	if c.a >= 0 {
		A, wa, ia = e.weights(c.a)
		ra = rotate(A.q, c.la)
		pa = A.x.Add(ra)
	} else {
		pa = c.la
	}
	B, wb, ib := e.weights(c.b)
	rb := rotate(B.q, c.lb)
	pb := B.x.Add(rb)
	n := c.n
	sep := dot(pb.Sub(pa), n) - c.depth
	if sep >= 0 {
		return
	}
	an, bn := cross(ra, n), cross(rb, n)
	sum := wa + ia*dot(an, an) + wb + ib*dot(bn, bn)
	if !(sum > 0) {
		return
	}
	dl := -sep / sum
	c.ln += dl
	if wb > 0 || ib > 0 {
		B.x = B.x.Add(n.Mul(dl * wb))
		turn(&B.q, bn.Mul(dl*ib))
	}
	if wa > 0 || ia > 0 {
		A.x = A.x.Add(n.Mul(-dl * wa))
		turn(&A.q, an.Mul(-dl*ia))
	}
}

// solveFriction runs one pass of contact c's friction: it holds fb on fa
// within the cone of the normal correction so far this substep; a slip
// moves fa along.
func (e *poseEngine) solveFriction(c *poseContact) {
	if c.ln <= 0 {
		return
	}
	var A *poseBody
	var ra, fa mgl32.Vec3
	var wa, ia float32
	if c.a >= 0 {
		A, wa, ia = e.weights(c.a)
		ra = rotate(A.q, c.fa)
		fa = A.x.Add(ra)
	} else {
		fa = c.fa
	}
	B, wb, ib := e.weights(c.b)
	rb := rotate(B.q, c.fb)
	fb := B.x.Add(rb)
	n := c.n
	d := fb.Sub(fa)
	d = d.Sub(n.Mul(dot(d, n)))
	l := length(d)
	if !(l > 1e-9) {
		return
	}
	t := d.Mul(1 / l)
	at, bt := cross(ra, t), cross(rb, t)
	sum := wa + ia*dot(at, at) + wb + ib*dot(bt, bt)
	need := l / sum
	if lim := c.mu*c.ln - c.lt; need > lim {
		// Beyond the cone the contact slides: friction takes what the
		// cone allows, and the anchor on a follows the rest.
		need = max(lim, 0)
		rest := t.Mul(l - need*sum)
		if A != nil {
			c.fa = c.fa.Add(unrotate(A.q, rest))
		} else {
			c.fa = c.fa.Add(rest)
		}
		if need == 0 {
			return
		}
	}
	c.lt += need
	if wb > 0 || ib > 0 {
		B.x = B.x.Add(t.Mul(-need * wb))
		turn(&B.q, bt.Mul(-need*ib))
	}
	if wa > 0 || ia > 0 {
		A.x = A.x.Add(t.Mul(need * wa))
		turn(&A.q, at.Mul(need*ia))
	}
}

// slide gives a sliding contact c kinetic friction at the velocity level:
// its tangential speed falls by what friction times the substep's normal
// correction allows (Coulomb), at most to 0.
func (e *poseEngine) slide(c *poseContact, h float32) {
	var A *poseBody
	var ra mgl32.Vec3
	var wa, ia float32
	if c.a >= 0 {
		A, wa, ia = e.weights(c.a)
		ra = rotate(A.q, c.la)
	}
	B, wb, ib := e.weights(c.b)
	rb := rotate(B.q, c.lb)
	v := B.pointVelocity(rb)
	if A != nil {
		v = v.Sub(A.pointVelocity(ra))
	}
	n := c.n
	v = v.Sub(n.Mul(dot(v, n)))
	l := length(v)
	if !(l > 1e-9) {
		return
	}
	t := v.Mul(1 / l)
	at, bt := cross(ra, t), cross(rb, t)
	sum := wa + ia*dot(at, at) + wb + ib*dot(bt, bt)
	if !(sum > 0) {
		return
	}
	j := min(c.mu*c.ln/h, l/sum) // N·s
	if wb > 0 || ib > 0 {
		B.v = B.v.Sub(t.Mul(j * wb))
		B.w = B.w.Sub(bt.Mul(j * ib))
	}
	if wa > 0 || ia > 0 {
		A.v = A.v.Add(t.Mul(j * wa))
		A.w = A.w.Add(at.Mul(j * ia))
	}
}

// normalSpeed returns how fast contact c's points move apart along its
// normal, m/s (negative: closing).
func (e *poseEngine) normalSpeed(c *poseContact) float32 {
	B := &e.bodies[c.b]
	v := B.pointVelocity(rotate(B.q, c.lb))
	if c.a >= 0 {
		A := &e.bodies[c.a]
		v = v.Sub(A.pointVelocity(rotate(A.q, c.la)))
	}
	return dot(v, c.n)
}

// restitute sets contact c's normal speed to its restitution times the
// speed it closed with.
func (e *poseEngine) restitute(c *poseContact) {
	var A *poseBody
	var ra mgl32.Vec3
	var wa, ia float32
	if c.a >= 0 {
		A, wa, ia = e.weights(c.a)
		ra = rotate(A.q, c.la)
	}
	B, wb, ib := e.weights(c.b)
	rb := rotate(B.q, c.lb)
	n := c.n
	an, bn := cross(ra, n), cross(rb, n)
	sum := wa + ia*dot(an, an) + wb + ib*dot(bn, bn)
	if !(sum > 0) {
		return
	}
	vn := e.normalSpeed(c)
	j := (-c.e*c.vn0 - vn) / sum
	if j <= 0 {
		return
	}
	if wb > 0 || ib > 0 {
		B.v = B.v.Add(n.Mul(j * wb))
		B.w = B.w.Add(bn.Mul(j * ib))
	}
	if wa > 0 || ia > 0 {
		A.v = A.v.Sub(n.Mul(j * wa))
		A.w = A.w.Sub(an.Mul(j * ia))
	}
}

// updateSleep runs after a step's last substep: an island whose cubes have
// all been slower than SleepSpeed for SleepDelay falls asleep.
func (e *poseEngine) updateSleep(cfg verlet3d.Config) {
	if cfg.SleepSpeed <= 0 {
		return
	}
	dt := cfg.TimeStep
	e.islandStill = slices.Grow(e.islandStill[:0], e.numIslands)[:e.numIslands]
	for k := range e.islandStill {
		e.islandStill[k] = math.MaxFloat32
	}
	for i := range e.bodies {
		b := &e.bodies[i]
		if b.group >= 0 {
			continue
		}
		// Slow over the whole step: what a substep's jitter does is not
		// motion.
		q, p := b.q, b.qs
		dv := mgl32.Vec3{
			-q.W*p.V[0] + p.W*q.V[0] - (q.V[1]*p.V[2] - q.V[2]*p.V[1]),
			-q.W*p.V[1] + p.W*q.V[1] - (q.V[2]*p.V[0] - q.V[0]*p.V[2]),
			-q.W*p.V[2] + p.W*q.V[2] - (q.V[0]*p.V[1] - q.V[1]*p.V[0]),
		}
		limit := cfg.SleepSpeed * dt
		if length(b.x.Sub(b.xs)) < limit && 2*length(dv)*b.half*sqrt3 < limit {
			b.still += dt
		} else {
			b.still = 0
		}
		if k := e.islandOf[i]; k >= 0 {
			e.islandStill[k] = min(e.islandStill[k], b.still)
		}
	}
	for k := 0; k < e.numIslands; k++ {
		if e.islandStill[k] < cfg.SleepDelay {
			continue
		}
		e.nextGroup++
		for _, i := range e.islandBody[e.bodyStart[k]:e.bodyStart[k+1]] {
			b := &e.bodies[i]
			if b.wake {
				continue // touched this step: stays awake
			}
			b.group = e.nextGroup
			b.v, b.w = mgl32.Vec3{}, mgl32.Vec3{}
			b.x0, b.q0 = b.x, b.q
			e.asleep++
		}
	}
}

// wakeAll wakes every cube now.
func (e *poseEngine) wakeAll() {
	for i := range e.bodies {
		if b := &e.bodies[i]; b.group >= 0 {
			b.group, b.wake, b.still = -1, false, 0
			e.asleep--
		} else {
			b.still = 0
		}
	}
}

// wakeCube wakes cube i and the cubes asleep with it, now.
func (e *poseEngine) wakeCube(i int) {
	g := e.bodies[i].group
	if g < 0 {
		e.bodies[i].still = 0
		return
	}
	for k := range e.bodies {
		if b := &e.bodies[k]; b.group == g {
			b.group, b.wake, b.still = -1, false, 0
			e.asleep--
		}
	}
}
