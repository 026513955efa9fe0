package bodies

import (
	"github.com/drape3d/drape/internal/vecmath"
	"math"

	"github.com/drape3d/drape/verlet3d"
	"github.com/go-gl/mathgl/mgl32"
)

// The World's particles against the pose engine's cubes: the one place
// where cloth and hair meet cubes. A particle of radius r inside a cube
// grown by r is pushed out through the nearest face, and the cube is
// pushed back at the point: each side moves by its generalized inverse
// mass (the particle's 1/m; the cube's 1/M + |d × n|²/I), so a crate rests
// on cloth and cloth on a crate by the same contact. A particle that a
// World collider holds against the push (cloth on the floor under a
// crate) does not give way: the crate rests on it as on the floor.
// Friction is Settings.ParticleFriction, position-level Coulomb against
// the cube's surface's own motion.

// particlePair is a particle near a cube this step.
type particlePair struct {
	cube, p int32
}

// wakeDepth is how far, m, a particle must be about to push an asleep
// cube to wake it (its depth in the cube times the cube's share of their
// inverse masses): light cloth settling on a sleeping crate does not, a
// heavy particle thrown at it does.
const wakeDepth = 0.001

// findParticles lists, at the step's start, the World's particles that may
// touch each cube during the step: within the cube's box grown by its
// reach, the particles' radius and how far the fastest particle can go in
// a step. Particles are kept sorted along x from step to step (an
// insertion sort of nearly sorted keys) and each cube takes its range by a
// binary search.
func (e *poseEngine) findParticles(w *verlet3d.World, s verlet3d.Substep) {
	e.pairs = e.pairs[:0]
	n := w.NumParticles()
	if n == 0 || len(e.bodies) == 0 {
		return
	}
	pos, prev, radii := w.Positions(), w.PrevPositions(), w.Radii()
	// How far each particle may go this step: its first substep's move,
	// for every substep, and half again.
	if cap(e.pmove) < n {
		e.pmove = make([]float32, n)
	}
	e.pmove = e.pmove[:n]
	var most, maxR float32
	k := float32(float32(s.Count) * 1.5)
	for i := range pos {
		d := pos[i].Sub(prev[i])
		m := float32(float32(math.Sqrt(float64(dot(d, d)))) * k)
		e.pmove[i] = m
		most = max(most, m)
		maxR = max(maxR, radii[i])
	}
	// A particle at rest can be pulled along by its links within the
	// step: each may go half of what the fastest may.
	for i, m := range e.pmove {
		e.pmove[i] = max(m, float32(0.5*most))
	}
	grow := most + maxR + e.margin
	if len(e.porder) != n {
		e.porder = e.porder[:0]
		for i := 0; i < n; i++ {
			e.porder = append(e.porder, int32(i))
		}
	}
	o := e.porder
	for i := 1; i < n; i++ {
		for j := i; j > 0 && pos[o[j-1]][0] > pos[o[j]][0]; j-- {
			o[j-1], o[j] = o[j], o[j-1]
		}
	}
	if cap(e.held) < n {
		e.held = make([]mgl32.Vec3, n)
	}
	e.held = e.held[:n]
	for i := range e.bodies {
		b := &e.bodies[i]
		b.ax[0] = rotate(b.qs, mgl32.Vec3{1, 0, 0})
		b.ax[1] = rotate(b.qs, mgl32.Vec3{0, 1, 0})
		b.ax[2] = rotate(b.qs, mgl32.Vec3{0, 0, 1})
		g := mgl32.Vec3{grow + b.push, grow + b.push, grow + b.push}
		lo, hi := e.lo[i].Sub(g), e.hi[i].Add(g)
		// The first particle at or past lo along x.
		k, top := 0, n
		for k < top {
			mid := int(uint(k+top) >> 1)
			if pos[o[mid]][0] < lo[0] {
				k = mid + 1
			} else {
				top = mid
			}
		}
		// The range along x is the fastest particle's; within it each
		// particle is taken with its own reach.
		for ; k < n; k++ {
			j := o[k]
			p := pos[j]
			if p[0] > hi[0] {
				break
			}
			g := most - e.pmove[j] // how much of the range's margin this one does not need
			if p[0] < lo[0]+g || p[0] > hi[0]-g || p[1] < lo[1]+g || p[1] > hi[1]-g || p[2] < lo[2]+g || p[2] > hi[2]-g {
				continue
			}
			e.pairs = append(e.pairs, particlePair{cube: int32(i), p: j})
		}
	}
}

// markHeld records, for the substep, the normal of the World collider
// holding each particle that touches one.
func (e *poseEngine) markHeld(w *verlet3d.World) {
	for _, p := range e.heldList {
		e.held[p] = mgl32.Vec3{}
	}
	e.heldList = e.heldList[:0]
	e.worldContacts = w.Contacts(e.worldContacts[:0])
	for _, c := range e.worldContacts {
		if int(c.Particle) < len(e.held) {
			e.held[c.Particle] = c.Normal
			e.heldList = append(e.heldList, int32(c.Particle))
		}
	}
}

// solveParticles runs one pass over the particles near the cubes: first
// it finds which touch (touching), then solves them (solveTouch). A
// particle moves at once; a cube moves after the pass, by what its
// contacts asked together, each contact having seen the cube with its
// mass and inertia split among its k contacts in the pass (mass
// splitting: k times the inverse mass, the corrections summed and divided
// by k). A crate resting on a dozen cloth particles on the floor, each of
// which would lift and tip it alone, is lifted by what they agree on
// instead of tipped by each in turn, while light particles under a crate
// still hold it with their sum.
func (e *poseEngine) solveParticles(sys *System, w *verlet3d.World, s verlet3d.Substep) {
	if len(e.pushes) < len(e.bodies) {
		e.pushes = make([]cubePush, len(e.bodies))
	}
	e.touching(w, s.First() && s.Iteration == 0, s.Iteration == 0)
	pos, prev, inv := w.Positions(), w.PrevPositions(), w.InvMasses()
	mu := sys.set.ParticleFriction
	for i := range e.touch {
		e.solveTouch(&e.touch[i], pos, prev, inv, mu, s.H)
	}
	for _, i := range e.pushed {
		push := &e.pushes[i]
		b := &e.bodies[i]
		f := 1 / float32(push.k)
		dp, dth := vecmath.Scale(push.dp, f), vecmath.Scale(push.dth, f)
		b.dp, b.dth = b.dp.Add(dp), b.dth.Add(dth)
		b.pd, b.pth = b.pd.Add(dp), b.pth.Add(dth)
		b.pv = b.pv.Add(vecmath.Scale(push.vdp, f/s.H))
		b.pw = b.pw.Add(vecmath.Scale(push.vdth, f/s.H))
		*push = cubePush{}
	}
	e.pushed = e.pushed[:0]
	e.stats.ParticleContacts = len(e.touch)
}

// particleTouch is a particle inside a cube (grown by its radius) in this
// pass.
type particleTouch struct {
	cube, p int32
	n, d    mgl32.Vec3 // the face's normal; the particle from the cube's center, m
	depth   float32    // m
}

// nearMargin is how far outside a cube grown by its radius, m, a particle stays on
// the list of the step's later passes, beyond how far the fastest
// particle of the step's first substep would go in the step.
const nearMargin = 0.02

// touching lists the particles inside the cubes now, counting them by
// cube. The step's first pass (first) tests every pair of the step and
// keeps those near enough for the later passes. An asleep cube holds
// still: its particles are pushed out in a substep's first iteration
// (iter0) only, as the World finds a collider's contacts once a substep.
func (e *poseEngine) touching(w *verlet3d.World, first, iter0 bool) {
	pos, inv, radii := w.Positions(), w.InvMasses(), w.Radii()
	e.touch = e.touch[:0]
	list := e.near
	if first {
		list = e.pairs
		e.near = e.near[:0]
	}
	for _, pr := range list {
		b := &e.bodies[pr.cube]
		if !iter0 && b.group >= 0 {
			continue
		}
		d := pos[pr.p].Sub(b.xs.Add(b.dp))
		ext := b.half + radii[pr.p]
		// Into the cube's frame at the step's start, its turn since undone
		// to first order, an axis at a time: most particles near a cube
		// lie outside it along one of them.
		u := d
		if b.group < 0 {
			u = d.Sub(cross(b.dth, d))
		}
		reach := ext
		if first {
			// Near enough that the particle or the cube can close the
			// gap within the step.
			reach += e.pmove[pr.p] + b.reach + b.push + nearMargin
		}
		var l [3]float32
		out := false
		for a := 0; a < 3; a++ {
			l[a] = dot(b.ax[a], u)
			if abs32(l[a]) >= reach {
				out = true
				break
			}
		}
		if out {
			continue
		}
		if first {
			e.near = append(e.near, pr)
		}
		k, depth := -1, ext
		for a := 0; a < 3; a++ {
			m := abs32(l[a])
			if m >= ext {
				k = -2
				break
			}
			if pen := ext - m; pen < depth {
				depth, k = pen, a
			}
		}
		if k < 0 {
			continue
		}
		nrm := b.ax[k]
		if l[k] < 0 {
			nrm = vecmath.Scale(nrm, -1)
		}
		nrm = nrm.Add(cross(b.dth, nrm))
		if b.group >= 0 {
			if wp := inv[pr.p]; depth*b.invM > wakeDepth*(b.invM+wp) {
				e.wakeGroup(b.group)
			}
		} else {
			push := &e.pushes[pr.cube]
			if push.k == 0 {
				e.pushed = append(e.pushed, pr.cube)
			}
			push.k++
		}
		e.touch = append(e.touch, particleTouch{cube: pr.cube, p: pr.p, n: nrm, d: d, depth: depth})
	}
}

// solveTouch pushes touch t's particle out of its cube and the cube back.
func (e *poseEngine) solveTouch(t *particleTouch, pos, prev []mgl32.Vec3, inv []float32, mu, h float32) {
	b := &e.bodies[t.cube]
	p, nrm, d := t.p, t.n, t.d
	wp := inv[p]
	if dot(e.held[p], nrm) < -0.1 {
		wp = 0 // a World collider holds it against the push
	}
	var wc, ic float32
	push := &e.pushes[t.cube]
	if b.group < 0 {
		k := float32(push.k)
		wc, ic = float32(b.invM*k), float32(b.invI*k)
	}
	dn := cross(d, nrm)
	sum := wp + wc + float32(ic*dot(dn, dn))
	if !(sum > 0) {
		return
	}
	lam := t.depth / sum
	// The part of the depth the particle and the surface closed in this
	// substep becomes speed on both sides, as much on one as on the other
	// (what the particle loses the cube gains); the rest, depth it began
	// in (pushed there by its links, or placed there), is put right
	// without speed on either side, so a pushed-out particle does not fly
	// off. The surface moves at the cube's velocity and spin with what
	// particles gave it so far in its substep.
	sv := b.v.Add(b.pv).Add(cross(b.w.Add(b.pw), d))
	closed := float32(dot(sv, nrm)*h) - dot(pos[p].Sub(prev[p]), nrm)
	lamV := min(lam, max(closed, 0)/sum)
	x := pos[p].Add(vecmath.Scale(nrm, float32(lam*wp)))
	prev[p] = prev[p].Add(vecmath.Scale(nrm, float32((lam-lamV)*wp)))
	if wc > 0 {
		push.dp = push.dp.Sub(vecmath.Scale(nrm, float32(lam*wc)))
		push.dth = push.dth.Sub(vecmath.Scale(dn, float32(lam*ic)))
		push.vdp = push.vdp.Sub(vecmath.Scale(nrm, float32(lamV*wc)))
		push.vdth = push.vdth.Sub(vecmath.Scale(dn, float32(lamV*ic)))
	}
	if mu > 0 {
		// Friction: the particle's slide over the surface this substep,
		// the surface's own motion taken from the cube's velocity.
		rel := x.Sub(prev[p]).Sub(vecmath.Scale(b.v.Add(cross(b.w, d)), h))
		rel = rel.Sub(vecmath.Scale(nrm, dot(rel, nrm)))
		if lt := length(rel); lt > 1e-9 {
			tg := vecmath.Scale(rel, 1/lt)
			dt := cross(d, tg)
			st := wp + wc + float32(ic*dot(dt, dt))
			need := min(lt/st, float32(mu*lam))
			x = x.Sub(vecmath.Scale(tg, float32(need*wp)))
			if wc > 0 {
				push.dp = push.dp.Add(vecmath.Scale(tg, float32(need*wc)))
				push.dth = push.dth.Add(vecmath.Scale(dt, float32(need*ic)))
				push.vdp = push.vdp.Add(vecmath.Scale(tg, float32(need*wc)))
				push.vdth = push.vdth.Add(vecmath.Scale(dt, float32(need*ic)))
			}
		}
	}
	pos[p] = x
}

// cubePush is what one pass of particle contacts asks of a cube.
type cubePush struct {
	dp, dth   mgl32.Vec3
	vdp, vdth mgl32.Vec3 // the part of dp, dth that becomes speed
	k         int32      // contacts this pass
}
