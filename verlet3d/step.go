package verlet3d

import (
	"fmt"
	"github.com/drape3d/drape/internal/vecmath"
	"math"
	"time"
	"unsafe"

	"github.com/drape3d/drape/internal/simd"
	"github.com/go-gl/mathgl/mgl32"
)

// Step advances the World by one Config.TimeStep.
func (w *World) Step() {
	w.broken = w.broken[:0]
	w.step(1)
}

// Advance runs as many whole steps as frameDt (seconds, usually the frame
// time) and the time left over from earlier calls allow, at most
// Config.MaxStepsPerFrame, and returns how many ran. Alpha then tells the
// fraction of a step left over, for Interpolated.
//
// The rule for any finite frameDt >= 0: the leftover time is kept in
// float64; whole steps beyond MaxStepsPerFrame are dropped (counted in
// Stats.DroppedSteps, which saturates instead of overflowing) and only the
// fraction of a step is kept, so one huge frame (a debugger pause, 1e20 s)
// costs one capped frame and leaves the World as it was. Alpha is always
// in [0, 1). A negative, NaN or infinite frameDt is a caller's bug and
// panics.
func (w *World) Advance(frameDt float32) int {
	if !finite(frameDt) || frameDt < 0 {
		panic(fmt.Sprintf("verlet3d: Advance(%v): want a finite time >= 0", frameDt))
	}
	w.broken = w.broken[:0]
	dt := float64(w.cfg.TimeStep)
	w.accum += float64(frameDt)
	cap := w.cfg.MaxStepsPerFrame
	if steps := math.Floor(w.accum / dt); steps > float64(cap) {
		drop := steps - float64(cap)
		if d := float64(math.MaxInt - w.stats.DroppedSteps); drop >= d {
			w.stats.DroppedSteps = math.MaxInt
		} else {
			w.stats.DroppedSteps += int(drop)
		}
		w.accum = float64(float64(cap)*dt) + math.Max(0, math.Mod(w.accum, dt))
	}
	steps := int(math.Min(math.Floor(w.accum/dt), float64(cap)))
	n := 0
	for w.accum >= dt && n < cap {
		w.step(max(1, steps-n))
		w.accum -= dt
		n++
	}
	if w.accum < 0 || w.accum >= dt {
		w.accum = 0 // rounding at the edges: start the next frame clean
	}
	w.alpha = float32(w.accum / dt)
	if w.alpha >= 1 {
		w.alpha = math.Nextafter32(1, 0)
	}
	return n
}

// lap adds the time since t to d and returns now.
func lap(d *time.Duration, t time.Time) time.Time {
	now := time.Now()
	*d += now.Sub(t)
	return now
}

// applyForces is phase 1: gravity, then every force field. With no field
// (and nothing from AddForce) acc stays zero and is not even touched:
// integrate adds gravity itself.
func (w *World) applyForces(s Substep) {
	w.accGravity = w.forcesToApply()
	if !w.accGravity {
		return
	}
	w.particles(w.run.gravityJob)
	w.accUsed = len(w.fields) > 0
	for _, f := range w.fields {
		f.Apply(w, s)
	}
}

// forcesToApply reports whether applyForces has anything to put in acc:
// a force field, or forces added since acc was last cleared.
func (w *World) forcesToApply() bool { return len(w.fields) > 0 || w.accUsed }

// gravityRange sets the acceleration of particles [lo, hi) to gravity.
func (w *World) gravityRange(_, lo, hi int) {
	g := w.gravity.Acceleration
	acc := w.acc[lo:hi]
	for i := range acc {
		acc[i] = g
	}
}

// workerTally is what one worker of a particle-range phase counts; padded
// to its own cache line so that two workers never write the same line.
type workerTally struct {
	clamps, resets int
	_              [48]byte
}

// minParallelParticles is the smallest particle count whose per-particle
// phases are split over the workers: below it, dispatching costs more than
// the work.
const minParallelParticles = 2048

// splitParticles reports whether the per-particle phases go to the
// workers: more than one, and at least minParallelParticles particles.
func (w *World) splitParticles() bool {
	return w.cfg.Workers > 1 && len(w.pos) >= minParallelParticles
}

// particles runs f over every particle, split over the workers for a large
// World (worker id on particles [lo, hi)), and sums the tallies.
func (w *World) particles(f func(id, lo, hi int)) workerTally {
	n := len(w.pos)
	w.clearTally(w.cfg.Workers)
	if w.splitParticles() {
		e := w.executor()
		e.fi, e.count = f, n
		e.runShares(1)
	} else {
		f(0, 0, n)
	}
	return w.sumTally()
}

// clearTally makes tally k zeroed entries, one a chunk of the job to come.
func (w *World) clearTally(k int) {
	if cap(w.run.tally) < k {
		w.run.tally = make([]workerTally, k)
	}
	w.run.tally = w.run.tally[:k]
	clear(w.run.tally)
}

// sumTally sums tally over the chunks.
func (w *World) sumTally() workerTally {
	var t workerTally
	for _, x := range w.run.tally {
		t.clamps += x.clamps
		t.resets += x.resets
	}
	return t
}

// integrate is phase 2: Verlet with gravity, damping and a speed clamp;
// kinematic particles move along the line from the step start to their
// target, frac being how far through the step this substep ends. With
// guard, each particle first goes through the last substep's non-finite
// guard. When fusePass allows, the same job finds the contacts and runs
// the first link pass. It returns the guard's and integration's tallies.
func (w *World) integrate(guard bool) workerTally {
	switch {
	case w.fusePass():
		return w.solveLinksFused(guard)
	case guard:
		return w.particles(w.run.guardIntegrateJob)
	}
	return w.particles(w.run.integrateJob)
}

// integrateRange is integrate's work on particles [lo, hi).
func (w *World) integrateRange(id, lo, hi int) {
	h := w.run.sub.H
	damping := w.cfg.Damping
	if w.settling() {
		damping += w.cfg.SettleDamping
	}
	k := 1 - float32(damping*h)
	h2 := float32(h * h)
	maxStep := float32(w.cfg.MaxSpeed * h)
	maxStep2 := float32(maxStep * maxStep)
	var g mgl32.Vec3 // gravity, unless applyForces put it in acc
	if !w.accGravity {
		g = w.gravity.Acceleration
	}
	if w.run.sub.Index == 0 {
		// The step's start, copied here by each worker for its own
		// particles rather than by the caller for all of them: a worker
		// then writes only cache lines it already holds.
		copy(w.stepStart[lo:hi], w.pos[lo:hi])
	}
	clamps := 0
	i := 0 // particles lo+i on go through the Go loop
	if n := hi - lo; w.kernels() && n >= 8 {
		pos, prev, acc, state := w.pos[lo:hi], w.prev[lo:hi], w.acc[lo:hi], w.state[lo:hi]
		a := integrateArgs{
			k: simd.Broadcast(k), h2: simd.Broadcast(h2),
			gx: simd.Broadcast(g[0]), gy: simd.Broadcast(g[1]), gz: simd.Broadcast(g[2]),
			maxStep: simd.Broadcast(maxStep), maxStep2: simd.Broadcast(maxStep2),
		}
		for i+8 <= n {
			groups := (n - i) / 8
			a.pos, a.prev = unsafe.Pointer(&pos[i]), unsafe.Pointer(&prev[i])
			a.acc, a.state = unsafe.Pointer(&acc[i]), unsafe.Pointer(&state[i])
			done := integrateGroups(&a, groups)
			i += 8 * done
			if done < groups {
				// A kinematic particle: this group goes one by one.
				clamps += w.integrateParticles(lo+i, lo+i+8, k, h2, maxStep, maxStep2, g)
				i += 8
			}
		}
		clamps += int(a.clamps)
	}
	clamps += w.integrateParticles(lo+i, hi, k, h2, maxStep, maxStep2, g)
	w.run.tally[id].clamps += clamps
}

// kernels reports whether this World runs the AVX2 kernels.
func (w *World) kernels() bool { return haveKernels() && !w.run.noKernels }

// integrateParticles integrates particles [lo, hi) and returns how many
// it clamped to the largest step.
func (w *World) integrateParticles(lo, hi int, k, h2, maxStep, maxStep2 float32, g mgl32.Vec3) int {
	pos := w.pos[lo:hi]
	n := len(pos)
	prev, acc, state := w.prev[lo:hi][:n], w.acc[lo:hi][:n], w.state[lo:hi][:n]
	frac := w.run.sub.Frac
	clamps := 0
	// The acceleration term of a particle whose acceleration is +0, +0,
	// +0 (most particles when nothing but gravity acts, and gravity is
	// not in acc), computed once: the same operations on the same values.
	// The loop tells such a particle from the bits of its acceleration, as
	// integers, and so leaves out three additions and three loads of the
	// floating-point units, which bind it.
	var zero [3]float32
	gx0, gy0, gz0 := float32((zero[0]+g[0])*h2), float32((zero[1]+g[1])*h2), float32((zero[2]+g[2])*h2)
	for i := range pos {
		if state[i] != stateFree {
			w.integrateFixed(lo+i, frac)
			continue
		}
		x, p, a := &pos[i], &prev[i], &acc[i]
		tx, ty, tz := gx0, gy0, gz0
		if ab := (*[3]uint32)(unsafe.Pointer(a)); ab[0]|ab[1]|ab[2] != 0 {
			tx, ty, tz = float32((a[0]+g[0])*h2), float32((a[1]+g[1])*h2), float32((a[2]+g[2])*h2)
		}
		vx := float32((x[0]-p[0])*k) + tx
		vy := float32((x[1]-p[1])*k) + ty
		vz := float32((x[2]-p[2])*k) + tz
		if l2 := float32(vx*vx) + float32(vy*vy) + float32(vz*vz); l2 > maxStep2 {
			s := maxStep / float32(math.Sqrt(float64(l2)))
			vx, vy, vz = float32(vx*s), float32(vy*s), float32(vz*s)
			clamps++
		}
		*p = *x
		*x = mgl32.Vec3{x[0] + vx, x[1] + vy, x[2] + vz}
	}
	return clamps
}

// integrateFixed moves a particle of inverse mass 0: a kinematic one along
// the line from its step start to its target, a pinned one not at all.
func (w *World) integrateFixed(i int, frac float32) {
	w.prev[i] = w.pos[i]
	if w.state[i] == stateKinematic {
		s := w.stepStart[i]
		w.pos[i] = s.Add(vecmath.Scale(w.target[i].Sub(s), frac))
	}
}

// solve is phase 4: the iterations, constraint types in a fixed order:
// links (color by color, or region by region on the executor when
// Config.Workers > 1 and linkStore.shared), then tethers, then each
// ConstraintSet, then contacts.
func (w *World) solve(sub Substep) {
	ls := &w.links
	parallel := w.cfg.Workers > 1 && ls.shared()
	for it := 0; it < w.cfg.Iterations; it++ {
		// Before every pass: a hook may have broken a link since the last.
		ls.prepare(w.invMass, w.massGen, w.run.invH2, w.kernels())
		w.run.firstPass = it == 0
		switch {
		case w.run.ahead.collided:
			// The integration's job ran this pass (solveLinksFused).
			w.run.ahead.collided = false
		case ls.active == 0:
			// Every link idle or broken: a pass would move nothing.
		case parallel:
			w.solveLinksShared()
			w.stats.ParallelLinkPasses++
		default:
			w.solveLinkRange(0, len(ls.hot))
		}
		w.solveTethers()
		sub.Iteration = it
		for _, cs := range w.sets {
			cs.Solve(w, sub)
		}
		w.solveContacts()
	}
}

// post is phase 6: breakage, the non-finite guard and, after the last
// substep, the final collider projection (earlier substeps' stragglers get a
// contact in the next substep anyway). Before another substep, with no
// force to apply, the guard runs in one job with that substep's
// integration, and, when nothing else runs before its first link pass
// (fusePass), with its contact detection and that pass too (which step
// does itself after the forces otherwise).
func (w *World) post(s, left int) {
	last := s == w.cfg.Substeps-1
	ls := &w.links
	for i := range ls.hot {
		if ls.breakable == 0 {
			break
		}
		c := &ls.hot[i]
		if c.flags&linkBroken != 0 {
			continue
		}
		hd := ls.handle[i]
		if lim := ls.strain[hd]; lim > 0 && c.rest > 0 {
			if l := vecmath.Len(w.pos[c.a].Sub(w.pos[c.b])); (l-c.rest)/c.rest > lim {
				w.BreakLink(Link(hd))
			}
		}
	}
	if !last && w.splitParticles() && !w.forcesToApply() {
		// Nothing runs between this guard and the next substep's
		// integration (applyForces will find no force to apply): both go
		// in one dispatch, each worker guarding and then integrating its
		// own particles.
		w.run.sub = w.substep(s+1, left)
		w.accGravity = false // as applyForces will find
		t := w.integrate(true)
		w.stats.NonFiniteResets += t.resets
		w.stats.SpeedClamps += t.clamps
		w.run.ahead.integrated = true
		return
	}
	w.stats.NonFiniteResets += w.particles(w.run.guardJob).resets
	if last {
		w.clampOutside()
	}
}

// guardIntegrateRange is the guard of one substep and the integration of
// the next on particles [lo, hi) (see post).
func (w *World) guardIntegrateRange(id, lo, hi int) {
	w.guardRange(id, lo, hi)
	w.integrateRange(id, lo, hi)
}

// substep describes substep s of the current step, of which the frame has
// left steps still to run (see step).
func (w *World) substep(s, left int) Substep {
	n := w.cfg.Substeps
	return Substep{
		Index: s, Count: n, H: w.SubstepLength(),
		Frac:       float32(s+1) / float32(n) / float32(left),
		Time:       w.time + float64(s)*float64(w.cfg.TimeStep)/float64(n),
		Step:       w.steps,
		Iterations: w.cfg.Iterations,
	}
}

// guardRange is the non-finite guard on particles [lo, hi): a particle
// whose position or previous position is not finite is put back where it
// last was finite (its previous position, its step start, or where it was
// added), at rest. The common case, every coordinate finite, is one quick
// pass over both (bothFinite) before the particle by particle check.
func (w *World) guardRange(id, lo, hi int) {
	if w.bothFinite(w.pos[lo:hi], w.prev[lo:hi]) {
		return
	}
	resets := 0
	for i := lo; i < hi; i++ {
		if finiteVec(w.pos[i]) && finiteVec(w.prev[i]) {
			continue
		}
		resets++
		p := w.home[i]
		if finiteVec(w.prev[i]) {
			p = w.prev[i]
		} else if finiteVec(w.stepStart[i]) {
			p = w.stepStart[i]
		}
		w.pos[i], w.prev[i] = p, p
	}
	w.run.tally[id].resets += resets
}

// Pick returns the particle nearest to the ray origin + t·dir (t >= 0) whose
// distance from the ray is at most radius, preferring the one closest to the
// ray and then to the origin. ok is false when none is near enough.
func (w *World) Pick(origin, dir mgl32.Vec3, radius float32) (p Particle, ok bool) {
	l := vecmath.Len(dir)
	if l == 0 || !finiteVec(origin) || !finiteVec(dir) {
		return -1, false
	}
	dir = vecmath.Scale(dir, 1/l)
	origin = w.ToLocal(origin)
	bestD, bestT := float32(radius*radius), float32(math.MaxFloat32)
	p = -1
	for i, x := range w.pos {
		rel := x.Sub(origin)
		t := vecmath.Dot(rel, dir)
		if t < 0 {
			continue
		}
		d2 := vecmath.LenSqr(rel.Sub(vecmath.Scale(dir, t)))
		if d2 < bestD || d2 == bestD && t < bestT {
			bestD, bestT, p = d2, t, Particle(i)
		}
	}
	return p, p >= 0
}

type grab struct {
	p     Particle
	state uint8
}

// DragTo holds p and moves it to target over the next step, like a
// kinematic particle; call it every frame while the mouse drags. Release
// lets go, keeping the velocity it was dragged with.
func (w *World) DragTo(p Particle, target mgl32.Vec3) {
	w.Wake()
	w.check(p)
	held := false
	for _, g := range w.grabbed {
		if g.p == p {
			held = true
			break
		}
	}
	if !held {
		w.grabbed = append(w.grabbed, grab{p, w.state[p]})
	}
	w.SetTarget(p, target)
}

// Release lets go of a particle held by DragTo; it returns to the state it
// had before (free or pinned).
func (w *World) Release(p Particle) {
	w.Wake()
	w.check(p)
	for i, g := range w.grabbed {
		if g.p != p {
			continue
		}
		w.grabbed = append(w.grabbed[:i], w.grabbed[i+1:]...)
		switch g.state {
		case stateFree:
			w.state[p] = stateFree
			if w.mass[p] > 0 {
				w.setInvMass(p, 1/w.mass[p])
			}
		case statePinned:
			w.Pin(p)
		}
		return
	}
}

// bothFinite reports whether every coordinate in pos and prev (of one
// length) is finite; it may also report false for finite positions whose
// sum overflows, which guardRange's particle by particle check then
// clears. The AVX2 kernel takes groups of eight of each. The Go loop sums
// the positions' coordinates in two chains of floating-point additions
// and tests the previous positions' bits as integers, as the kernel does
// (a float is finite when its bits without the sign are below
// 0x7F800000), side by side: the floating-point adders and the integer
// ports work at once (2.7 against 3.4 us a substep for cloth64's
// particles, the two chains over each).
func (w *World) bothFinite(pos, prev []mgl32.Vec3) bool {
	prev = prev[:len(pos)]
	i := 0
	if w.kernels() && len(pos) >= 8 {
		i = len(pos) &^ 7
		if !finiteGroups(&pos[0], i/8) || !finiteGroups(&prev[0], i/8) {
			return false
		}
	}
	// For prev, 8-byte words of two coordinates: 0x00800000 added to each
	// half's bits without the sign sets the half's top bit exactly when
	// it is not finite (no half carries into the other). Read through
	// unsafe pointers within prev (unaligned loads of a type without
	// pointers).
	const mask, one, top = 0x7FFFFFFF_7FFFFFFF, 0x00800000_00800000, 0x80000000_80000000
	var s0, s1 float32
	var bits uint64
	for ; i+2 <= len(pos); i += 2 {
		p, q := &pos[i], &pos[i+1]
		s0 += p[0] + p[1] + p[2]
		s1 += q[0] + q[1] + q[2]
		r := unsafe.Pointer(&prev[i]) // prev[i] and prev[i+1]: three words
		w0, w1, w2 := *(*uint64)(r), *(*uint64)(unsafe.Add(r, 8)), *(*uint64)(unsafe.Add(r, 16))
		bits |= (w0&mask + one) | (w1&mask + one) | (w2&mask + one)
	}
	if i < len(pos) {
		s0 += pos[i][0] + pos[i][1] + pos[i][2]
		c := (*[3]uint32)(unsafe.Pointer(&prev[i]))
		bits |= uint64(c[0]&0x7FFFFFFF+0x00800000) | uint64(c[1]&0x7FFFFFFF+0x00800000) | uint64(c[2]&0x7FFFFFFF+0x00800000)
	}
	return finite(s0+s1) && bits&top == 0
}
