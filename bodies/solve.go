package bodies

import (
	"github.com/drape3d/drape/internal/vecmath"
	"math"

	"github.com/drape3d/drape/verlet3d"
	"github.com/go-gl/mathgl/mgl32"
)

// contactSides is the cubes of a contact's sides, as in contact.
type contactSides struct{ ca, cb int32 }

// contact is a temporary constraint, alive for one substep, that keeps a
// point of side A on the outer side of a plane through a point of side B:
// (pA - pB)·n >= r. Each point sits on a feature and is a weighted sum of
// the particles that carry it: a corner, the two corners of an edge
// (weights 1-t, t), the four corners of a face (bilinear weights), or a
// cloth particle. Side B may be a fixed point of a collider.
//
// The correction is an impulse-like vector P (kg·m) at the contact point.
// A particle side moves by P/m. A cube side moves as the rigid body its
// particles form: by P/M plus the turn I⁻¹(r×P) about its center of mass
// (the inertia of the corners, and of the center particle, is isotropic:
// I = 16·m_corner·h²), every particle following. So an edge contact gives
// the cube the push and the turn a real box gets at that edge, nothing
// pushes its center sideways (the drift the seed article warns about), and
// a stack converges in a few iterations; moving only the touched corners
// and leaving the rest to the links converges too slowly to hold a stack.
type contact struct {
	ca, cb int32 // cube of side A / side B, -1 for a particle or a fixed point
	a, b   [4]int32
	wa, wb [4]float32
	na, nb uint8
	kind   uint8
	mu     float32
	e      float32    // a corner's restitution against a collider
	r      float32    // separation to keep, m
	fixed  mgl32.Vec3 // side B's point when nb == 0
	n      mgl32.Vec3 // unit normal from B to A

	paPrev, pbPrev mgl32.Vec3 // the points at the start of the substep
	vn0            float32    // relative normal displacement at creation (< 0: approaching), m

	// Solver state of a contact with another particle (rigid contacts
	// have rows, rows.go). pa0/pb0 are the points when the current Solve
	// call began and ra/rb their offsets from their cube's center of mass.
	pa0, pb0 mgl32.Vec3
	ra, rb   mgl32.Vec3
	wn       float32    // generalised inverse mass along n
	pn       float32    // normal impulse this substep, kg·m, >= 0
	pt       mgl32.Vec3 // tangential impulse this substep, |pt| <= mu·pn
	// blocked: side A is a particle a collider holds against this
	// contact's push (markBlocked): the push moves it only across the
	// collider's surface, whose normal is hold. paHeld is where it was when
	// the contact was made, moved only by this contact: what its links and
	// the World do to it during the substep does not push the cube.
	blocked bool
	// pinned: blocked, and the push lies within the collider's friction
	// cone about its normal, so the collider holds the particle against
	// it entirely (markBlocked).
	pinned bool
	hold   mgl32.Vec3
	paHeld mgl32.Vec3
	// feat tells apart contacts on the same particles (warm.go): the
	// collider of a collider contact, the end of a clipped edge.
	feat int32
	// floor (<= 0, m) is how far inside the separation r the contact may
	// leave its points this substep: 0 for points that began the substep
	// apart (see particleRecoverySpeed and cubeRecoverySpeed).
	floor float32
}

// particleRecoverySpeed is how fast, in m/s, a particle that began a
// substep already inside a cube's reach (the cube turned onto it, or
// cloth pinched between a crate and the floor could not give way last
// substep) is pushed out of what depth it began with; the approach of the
// substep itself is stopped in full. A position-level push becomes
// velocity: undone in one substep, 3 mm of depth is 1.8 m/s, which a crate
// resting on cloth on the floor took as a kick. Measured on turned crates
// dropped onto cloth on the floor (TestCratesDroppedTurnedOnCloth, package
// cloth): they bounced back at 0.88, 1.33 and 2.00 m/s on average from 2,
// 5 and 11 m/s without this limit, at 0.21, 0.32 and 0.69 with it (0.05
// m/s, as cloth.SurfaceCollision recovers; 0.02 and 0.1 m/s measured
// within 0.06 m/s of 0.05 in an earlier state of this code).
const particleRecoverySpeed = 0.05

// cubeRecoverySpeed is the same for the contacts of cubes with cubes and
// with colliders: a cube that began a substep inside another or inside a
// collider (squeezed between the floor and a crate dragged onto it, or
// set there) is pushed out of that depth at most this fast, in m/s. Undone
// in one substep, the 6 cm a dragged crate pressed another into the floor
// launched it at 113 m/s.
const cubeRecoverySpeed = 2

const (
	kindCube uint8 = iota
	kindCollider
	kindParticle
)

// pointA returns side A's point: its particles weighted.
func (c *contact) pointA(pos []mgl32.Vec3) (p mgl32.Vec3) {
	c.placeA(&p, pos)
	return p
}

// placeA writes side A's point into dst (without a Vec3 returned through
// the stack: see moveRigidly).
func (c *contact) placeA(dst *mgl32.Vec3, pos []mgl32.Vec3) {
	if c.na == 1 {
		// A corner or a particle, without the loop: zero plus the one
		// term, as the loop sums it (so a -0 comes out +0 alike).
		v, w := &pos[c.a[0]], c.wa[0]
		dst[0], dst[1], dst[2] = 0+float32(v[0]*w), 0+float32(v[1]*w), 0+float32(v[2]*w)
		return
	}
	var x, y, z float32
	for i := uint8(0); i < c.na; i++ {
		v, w := &pos[c.a[i]], c.wa[i]
		x, y, z = x+float32(v[0]*w), y+float32(v[1]*w), z+float32(v[2]*w)
	}
	dst[0], dst[1], dst[2] = x, y, z
}

// pointB returns side B's point: its particles weighted, or the fixed
// point.
func (c *contact) pointB(pos []mgl32.Vec3) (p mgl32.Vec3) {
	c.placeB(&p, pos)
	return p
}

// placeB writes side B's point into dst.
func (c *contact) placeB(dst *mgl32.Vec3, pos []mgl32.Vec3) {
	if c.nb == 0 {
		*dst = c.fixed
		return
	}
	var x, y, z float32
	for i := uint8(0); i < c.nb; i++ {
		v, w := &pos[c.b[i]], c.wb[i]
		x, y, z = x+float32(v[0]*w), y+float32(v[1]*w), z+float32(v[2]*w)
	}
	dst[0], dst[1], dst[2] = x, y, z
}

// movable reports whether either side of c can move.
func (s *System) movable(c *contact, inv []float32) bool {
	side := func(cube int32, p0 int32, np uint8) bool {
		if cube >= 0 {
			return !s.cubes[cube].held
		}
		return np > 0 && inv[p0] > 0
	}
	return side(c.ca, c.a[0], c.na) || side(c.cb, c.b[0], c.nb)
}

// faceAgainst returns the face whose outward normal points most against
// n, as a local axis and a side (±1): the face that meets a body or a
// collider lying along n.
func (cb *cube) faceAgainst(n mgl32.Vec3) (axis int, sign float32) {
	sign = 1
	best := float32(math.MaxFloat32)
	for k := 0; k < 3; k++ {
		d := vecmath.Dot(cb.axis[k], n)
		if d < best {
			best, axis, sign = d, k, 1
		}
		if -d < best {
			best, axis, sign = -d, k, -1
		}
	}
	return axis, sign
}

// com returns the center of mass of cb's particles.
func (cb *cube) com(pos []mgl32.Vec3) mgl32.Vec3 {
	c := cornerMean(pos, &cb.p)
	if cb.center >= 0 {
		f := cb.m0 / cb.mass
		x, g := &pos[cb.center], 1-f
		return mgl32.Vec3{float32(c[0]*g) + float32(x[0]*f), float32(c[1]*g) + float32(x[1]*f), float32(c[2]*g) + float32(x[2]*f)}
	}
	return c
}

// cornerMean returns the mean of the eight corners p (component by
// component: see moveRigidly).
func cornerMean(pos []mgl32.Vec3, p *[8]int32) mgl32.Vec3 {
	var x, y, z float32
	for _, q := range p {
		v := &pos[q]
		x, y, z = x+v[0], y+v[1], z+v[2]
	}
	return mgl32.Vec3{float32(x * (1.0 / 8)), float32(y * (1.0 / 8)), float32(z * (1.0 / 8))}
}

// During a Solve call every cube accumulates its rigid correction in dc
// (translation) and th (small rotation about ctr0) instead of moving its
// particles at each contact; the particles move once at the end of the
// call. A contact then costs a few dozen flops whatever the feature.

// at returns p0 moved by dc and the small turn th applied to the offset r.
func at(p0, dc, th, r mgl32.Vec3) mgl32.Vec3 {
	return mgl32.Vec3{
		p0[0] + dc[0] + float32(th[1]*r[2]) - float32(th[2]*r[1]),
		p0[1] + dc[1] + float32(th[2]*r[0]) - float32(th[0]*r[2]),
		p0[2] + dc[2] + float32(th[0]*r[1]) - float32(th[1]*r[0]),
	}
}

// sideW returns the generalised inverse mass of a cube at offset r along
// the unit direction d: 1/M + |r×d|²/I.
func sideW(cb *cube, r, d mgl32.Vec3) float32 {
	x := float32(r[1]*d[2]) - float32(r[2]*d[1])
	y := float32(r[2]*d[0]) - float32(r[0]*d[2])
	z := float32(r[0]*d[1]) - float32(r[1]*d[0])
	return cb.invM + float32((float32(x*x)+float32(y*y)+float32(z*z))*cb.invI)
}

// kick adds the rigid response to impulse P at offset r (sign ±1) to the
// cube's pending correction.
func kick(cb *cube, r, P mgl32.Vec3, sign float32) {
	m, i := float32(sign*cb.invM), float32(sign*cb.invI)
	cb.dc[0] += float32(P[0] * m)
	cb.dc[1] += float32(P[1] * m)
	cb.dc[2] += float32(P[2] * m)
	cb.th[0] += float32((float32(r[1]*P[2]) - float32(r[2]*P[1])) * i)
	cb.th[1] += float32((float32(r[2]*P[0]) - float32(r[0]*P[2])) * i)
	cb.th[2] += float32((float32(r[0]*P[1]) - float32(r[1]*P[0])) * i)
}

// sides returns the two sides' cubes (nil for a particle, a fixed point or
// a held cube) and their current points.
func (s *System) sides(c *contact, pos []mgl32.Vec3) (ca, cb *cube, pa, pb mgl32.Vec3) {
	if c.ca >= 0 {
		ca = &s.cubes[c.ca]
		pa = at(c.pa0, ca.dc, ca.th, c.ra)
		if ca.held {
			ca = nil
		}
	} else {
		pa = pos[c.a[0]]
	}
	switch {
	case c.cb >= 0:
		cb = &s.cubes[c.cb]
		pb = at(c.pb0, cb.dc, cb.th, c.rb)
		if cb.held {
			cb = nil
		}
	case c.nb == 0:
		pb = c.fixed
	default:
		pb = pos[c.b[0]]
	}
	return ca, cb, pa, pb
}

// mass returns the generalised inverse mass of the contact along the unit
// direction d: how far the two points move apart per unit of impulse.
// push says d is the normal push, friction else; a blocked particle moves
// only across its collider under the push and not at all under friction
// (free).
func (c *contact) mass(ca, cb *cube, d mgl32.Vec3, inv []float32, push bool) float32 {
	var w float32
	if ca != nil {
		w += sideW(ca, c.ra, d)
	} else if c.ca < 0 {
		w += float32(inv[c.a[0]] * c.free(d, push))
	}
	if cb != nil {
		w += sideW(cb, c.rb, d)
	} else if c.cb < 0 && c.nb > 0 {
		w += inv[c.b[0]]
	}
	return w
}

// free returns how much of a unit move along the unit d side A's particle
// makes: all of it, but for a blocked particle under the normal push (push)
// only its part across the collider's surface, |d - (d·f)f|² with f the
// collider's normal, none if d lies within the collider's friction cone
// about f (pinned: the push presses the particle on the collider, whose
// friction then holds it; a crate resting tilted on cloth on the floor
// pushed the cloth out from under itself substep by substep, and the cloth
// slid across the floor with the crates on it), and under friction none:
// the collider holds it against the cube's friction as it holds it against
// the push, so a crate on cloth on a slope holds by its friction on the
// cloth (let go, the crate dragged the cloth down a 10° slope at 0.9 m/s²,
// the cloth's own friction on the floor bearing only the cloth's weight).
func (c *contact) free(d mgl32.Vec3, push bool) float32 {
	switch {
	case !c.blocked:
		return 1
	case !push || c.pinned:
		return 0
	}
	f := vecmath.Dot(c.hold, d)
	return max(0, 1-float32(f*f))
}

// impulse applies P to side A and -P to side B (push as for mass).
func (c *contact) impulse(ca, cb *cube, P mgl32.Vec3, pos []mgl32.Vec3, inv []float32, push bool) {
	if ca != nil {
		kick(ca, c.ra, P, 1)
	} else if c.ca < 0 && (push || !c.blocked) && !c.pinned {
		p := c.a[0]
		dx := vecmath.Scale(P, inv[p])
		if c.blocked {
			// Only across the collider's surface.
			dx = dx.Sub(vecmath.Scale(c.hold, vecmath.Dot(dx, c.hold)))
			c.paHeld = c.paHeld.Add(dx)
		}
		pos[p] = pos[p].Add(dx)
	}
	if cb != nil {
		kick(cb, c.rb, P, -1)
	} else if c.cb < 0 && c.nb > 0 {
		p := c.b[0]
		pos[p] = pos[p].Sub(vecmath.Scale(P, inv[p]))
	}
}

// solve is the System's ConstraintSet.Solve: Settings.Passes passes over the
// contacts between cubes and against colliders, island by island (island.go)
// on the World's workers (System.shares), through their rows (rows.go), then
// one over the contacts with other particles. Each pass first pushes every
// contact's points apart along its normal, then cancels their sliding since
// the start of the substep as far as Coulomb's cone allows: position-level
// friction (Müller et al., "Detailed Rigid Body Simulation with Extended
// Position Based Dynamics", 2020), which holds a cube still on a slope where
// friction applied to velocities only would let it creep by g·sinθ·h² every
// substep. Both work on impulses accumulated over the substep and clamped as
// totals (normal >= 0, tangential within mu times normal), so that a corner
// pushed too far while its neighbours were solved is let back down and a box
// on four corners settles level. Passes alternate their order (symmetric
// Gauss-Seidel) so that no corner is favoured.
func (s *System) solve(w *verlet3d.World, sub verlet3d.Substep) {
	if len(s.contacts) == 0 {
		return
	}
	// With only free rigid cubes and no other particles touching them,
	// nothing the World does between its iterations moves a cube (its
	// links hold already), so all the passes run in the first call, and
	// the rows are set up once a substep. (A jelly cube's links, or the
	// links of a cube held by a pinned or dragged particle, move its
	// particles between the calls: then the passes are spread.)
	it, its := sub.Iteration, max(sub.Iterations, 1)
	atOnce := s.nRigid == len(s.contacts) && s.nJelly == 0 && s.nDragged == 0
	if atOnce && it > 0 {
		return
	}
	pos, prev, inv := w.Positions(), w.PrevPositions(), w.InvMasses()
	// Where the corrections turn cubes about. Contacts of other particles
	// meet any cube (and moveCubes looks at every one), so then every cube
	// starts here; else only the islands' cubes move, and each island
	// starts its own in the island job (islandStart), on the worker that
	// solves it.
	if s.nRigid != len(s.contacts) {
		for i := range s.cubes {
			s.cubes[i].start(pos)
		}
	}
	// The solve state of the islands' cubes, island after island (so that
	// two workers never write the same cache line but where their ranges
	// meet), and the immovable ground last. The island job fills it.
	ground := len(s.islandCubes)
	if cap(s.rig) < ground+1 {
		s.rig = make([]rigid, ground+1, len(s.cubes)+1)
	}
	s.rig = s.rig[:ground+1]
	s.rig[ground] = rigid{}
	rigid := s.nRigid
	for k := rigid; k < len(s.contacts); k++ {
		c := &s.contacts[k]
		if c.cb >= 0 {
			c.pb0 = c.pointB(pos)
			c.rb = c.pb0.Sub(s.cubes[c.cb].ctr0)
		} else if c.nb == 0 {
			c.pb0, c.rb = c.fixed, mgl32.Vec3{}
		}
		ca, cb, _, _ := s.sides(c, pos)
		c.wn = c.mass(ca, cb, c.n, inv, true)
	}
	// Otherwise Settings.Passes sweeps per substep, spread over the
	// World's iterations, at least two in each (with 10 iterations, as
	// many as before Passes counted per substep: a hollow twisted stack of
	// five creeps 6.4% of its size in 10 s with one).
	s.passes = max((it+1)*s.set.Passes/its-it*s.set.Passes/its, min(2, s.set.Passes))
	if atOnce {
		s.passes = s.set.Passes
	}
	// Without contacts of other particles, which move cubes too, each
	// island moves its own cubes at the end of its job.
	s.pos, s.moveInIsland = pos, rigid == len(s.contacts)
	// Slower approaches than 0.2 m/s do not bounce: resting contacts stay
	// quiet.
	s.minApproach = float32(-0.2 * sub.H)
	s.splitIslands(w.Config().Workers)
	s.shares(w, len(s.islandSplit)-1, s.islandJob)
	s.pos = nil
	if s.moveInIsland {
		return
	}
	for k, c := range s.islandCubes {
		s.cubes[c].dc, s.cubes[c].th = s.rig[k].dc, s.rig[k].th
	}
	// Cloth and hair: one pass per iteration is as much as the World gives
	// their links.
	s.normals(s.contacts[rigid:], pos, inv)
	s.friction(s.contacts[rigid:], pos, prev, inv)
	s.pos = pos
	s.shares(w, len(s.cubes), s.moveJob)
	s.pos = nil
}

// start begins a Solve call's correction of cb: none yet, about its
// center of mass (or what holds it).
func (cb *cube) start(pos []mgl32.Vec3) {
	cb.ctr0 = cb.com(pos)
	if cb.pivot {
		cb.ctr0 = pos[cb.pin] // it turns about what holds it
	}
	cb.dc, cb.th = mgl32.Vec3{}, mgl32.Vec3{}
}

// islandStart fills the solve state of island is's cubes for a Solve
// call (starting them first when the island job moves them).
func (s *System) islandStart(is *island, pos []mgl32.Vec3) {
	for k := is.clo; k < is.chi; k++ {
		cb := &s.cubes[s.islandCubes[k]]
		if s.moveInIsland {
			cb.start(pos)
		}
		s.rig[k] = rigid{invM: cb.invM, invI: cb.invI}
		if cb.pivot {
			// Turning only, about the held particle: the inertia
			// there, I + M·d² (the parallel axis, taken as isotropic).
			d := cb.com(pos).Sub(cb.ctr0)
			s.rig[k] = rigid{invI: 1 / (1/cb.invI + float32(cb.mass*vecmath.Dot(d, d)))}
		}
	}
}

// moveCubes moves the particles of cubes [lo, hi) by their corrections of
// the Solve call (a shares range job).
func (s *System) moveCubes(lo, hi int) {
	pos := s.pos
	for i := lo; i < hi; i++ {
		cb := &s.cubes[i]
		if cb.dc == (mgl32.Vec3{}) && cb.th == (mgl32.Vec3{}) {
			continue
		}
		rigidMove(cb, pos, cb.ctr0, cb.dc, cb.th)
	}
}

// rigid is the solve-time state of a cube (or of the ground, last): its
// pending translation dc and small turn th, and its inverse mass and
// inertia (both 0 when held or static; invM alone 0 for a pivot, which
// turns about its held particle). invI == 0 marks what does not move.
type rigid struct {
	dc, th     mgl32.Vec3
	invM, invI float32
}

// A substep's contact passes end early once a pass moved no contact's
// points apart farther than convergedMove and found none sliding farther
// than convergedSlide, in meters. Sliding is what creeps, so its bound is
// tight: 2e-8 m is a third of the float32 spacing of positions a metre from
// the origin, and a cube sliding that much every substep at 8 substeps
// would creep 0.05 mm in 5 s. A cube on four corners never settles the
// share of its weight each corner carries (any share holds it), and the
// passes trade a few 1e-7 m back and forth among them: 5e-7 m ends that.
const (
	convergedMove  = 5e-7
	convergedSlide = 2e-8
)

// normals is one pass, in order, over the contacts cs of cubes with other
// particles (cloth, hair): each is pushed apart along its normal by its
// accumulated impulse, kept >= 0.
func (s *System) normals(cs []contact, pos []mgl32.Vec3, inv []float32) {
	for k := range cs {
		c := &cs[k]
		if c.wn <= 0 {
			continue
		}
		ca, cb, pa, pb := s.sides(c, pos)
		if c.blocked {
			pa = c.paHeld
		}
		C := float32((pa[0]-pb[0])*c.n[0]) + float32((pa[1]-pb[1])*c.n[1]) + float32((pa[2]-pb[2])*c.n[2]) - c.r - c.floor
		if pn := max(c.pn-C/c.wn, 0); pn != c.pn {
			c.impulse(ca, cb, vecmath.Scale(c.n, pn-c.pn), pos, inv, true)
			c.pn = pn
		}
	}
}

// friction is one pass, in order, of friction over the same contacts.
func (s *System) friction(cs []contact, pos, prev []mgl32.Vec3, inv []float32) {
	for k := range cs {
		c := &cs[k]
		if c.mu == 0 || (c.pn <= 0 && c.pt == (mgl32.Vec3{})) {
			continue
		}
		ca, cb, pa, pb := s.sides(c, pos)
		if c.pn <= 0 {
			// Lifted off: let go of the friction held so far.
			c.impulse(ca, cb, vecmath.Scale(c.pt, -1), pos, inv, false)
			c.pt = mgl32.Vec3{}
			continue
		}
		d := pa.Sub(c.paPrev).Sub(pb.Sub(c.pbPrev))
		dt := d.Sub(vecmath.Scale(c.n, vecmath.Dot(d, c.n)))
		pt := c.pt
		if l2 := vecmath.Dot(dt, dt); l2 > 1e-24 {
			l := float32(math.Sqrt(float64(l2)))
			dir := vecmath.Scale(dt, 1/l)
			if w := c.mass(ca, cb, dir, inv, false); w > 0 {
				pt = pt.Sub(vecmath.Scale(dir, l/w))
			}
		}
		if lt2, lim := vecmath.Dot(pt, pt), float32(c.mu*c.pn); lt2 > lim*lim {
			pt = vecmath.Scale(pt, lim/float32(math.Sqrt(float64(lt2))))
		}
		if pt != c.pt {
			c.impulse(ca, cb, pt.Sub(c.pt), pos, inv, false)
			c.pt = pt
		}
	}
}

// rigidMove moves every particle of cb by dc plus the small turn th about
// ctr.
func rigidMove(cb *cube, pos []mgl32.Vec3, ctr, dc, th mgl32.Vec3) {
	moveRigidly(pos, cb.p[:], &ctr, &dc, &th)
	if q := cb.center; q >= 0 {
		one := [1]int32{q}
		moveRigidly(pos, one[:], &ctr, &dc, &th)
	}
}

// moveRigidly moves particles ps by dc plus the small turn th about ctr:
// x + dc + th × (x - ctr), rounded as those mgl32 operations round it.
//
// Hot loops of this package work component by component on pointers, as
// here: mgl32's Vec3 methods take and return arrays, which Go keeps in
// memory, and a Vec3 written a component at a time and then copied whole
// into the next call is read back before the stores land (a stalled load,
// a dozen cycles).
func moveRigidly(pos []mgl32.Vec3, ps []int32, ctr, dc, th *mgl32.Vec3) {
	for _, q := range ps {
		x := &pos[q]
		rx, ry, rz := x[0]-ctr[0], x[1]-ctr[1], x[2]-ctr[2]
		x[0] = (x[0] + dc[0]) + (float32(th[1]*rz) - float32(th[2]*ry))
		x[1] = (x[1] + dc[1]) + (float32(th[2]*rx) - float32(th[0]*rz))
		x[2] = (x[2] + dc[2]) + (float32(th[0]*ry) - float32(th[1]*rx))
	}
}

// finish is the System's Finisher: restitution for cube contacts, a last
// projection of other particles out of the cubes, and, after the step's
// last substep, the published transforms.
func (s *System) finish(w *verlet3d.World, sub verlet3d.Substep) {
	h := sub.H
	pos, prev, inv := w.Positions(), w.PrevPositions(), w.InvMasses()
	// The carry job also holds held cubes out of the colliders again, and
	// after the step's last substep it publishes the transforms
	// (from the positions, which carry, the particle contacts and bounce
	// below leave as they are for cube particles).
	s.h, s.pos, s.publish = h, pos, sub.Last()
	s.shares(w, len(s.cubes), s.carryJob)
	s.pos = nil
	// The rigid contacts that came together fast (cameFast, which the island
	// job wrote: finish reads no other contact of the workers'), in their
	// order, then the particle contacts.
	e := s.set.Restitution
	for k, fast := range s.cameFast {
		if !fast {
			continue
		}
		c := &s.contacts[k]
		switch c.kind {
		case kindCube:
			if e > 0 {
				s.bounce(c, e, pos, prev, inv)
			}
		default: // kindCollider, of one corner
			// A corner that came at a collider fast: summed per cube
			// for colliderBounce below.
			p := c.a[0]
			h := &s.cubes[c.ca].hit
			if h.n == 0 {
				s.hits = append(s.hits, c.ca)
			}
			h.n++
			h.p = h.p.Add(pos[p])
			h.nn = h.nn.Add(c.n)
			h.v0 += c.vn0
			h.v += vecmath.Dot(pos[p].Sub(prev[p]), c.n)
			h.e = max(h.e, c.e)
		}
	}
	for k := s.nRigid; k < len(s.contacts); k++ {
		c := &s.contacts[k]
		p := c.a[0]
		if inv[p] == 0 || c.blocked {
			continue // a held particle is not projected into what holds it
		}
		if C := vecmath.Dot(pos[p].Sub(c.pointB(pos)), c.n) - c.r - c.floor; C < 0 {
			pos[p] = pos[p].Sub(vecmath.Scale(c.n, C))
		}
	}
	s.colliderBounce(pos, prev)
	if s.nAsleep > 0 {
		s.settleSleepers(pos, prev)
	}
	if sub.Last() {
		s.updateSleep(pos, prev, h)
	}
	s.stats.Sleeping = s.nAsleep
}

// carryCubes is carry for the predicted cubes of [lo, hi), and after a
// step's last substep the published transforms (a shares range
// job).
func (s *System) carryCubes(lo, hi int) {
	pos, prev, inv := s.pos, s.w.PrevPositions(), s.w.InvMasses()
	for i := lo; i < hi; i++ {
		cb := &s.cubes[i]
		if cb.held && !cb.asleep {
			// Out of the colliders again, after what the links did since
			// Prepare (they turn the cube about what holds it).
			s.holdOut(cb, pos, prev, inv)
		}
		pred := cb.pred
		if pred {
			s.carry(cb, pos, prev, s.h)
		}
		if s.publish && !cb.asleep {
			if pred {
				// The rotation carry found the particles end at
				// (within 1e-6 rad of their polar decomposition).
				cb.q = cb.qNext
				rm := cb.q.mat()
				s.placed(cb, pos, &rm)
			} else {
				s.frame(cb, pos)
			}
			cb.pos, cb.quat = cb.com(pos), cb.q.quat()
		}
	}
}

// colliderBounce is restitution against colliders. The World's own contacts
// leave cube particles to the System (ParticleGroup), so what they did for a
// particle is done here for the cube: a cube whose corners came at a
// collider faster than 0.2 m/s this substep leaves it with the collider's
// restitution times its approach speed, and at 0 stops (a corner caught
// mid-substep by the swept test would otherwise keep its approach speed
// into the collider). One impulse per cube, at the mean of its fast
// corners along the mean of their normals: one corner, an edge or a face
// coming down, without the corner-by-corner impulses of a face that turn
// the cube and overshoot.
func (s *System) colliderBounce(pos, prev []mgl32.Vec3) {
	for _, i := range s.hits {
		cb := &s.cubes[i]
		h := cb.hit
		cb.hit = hitSum{}
		l := vecmath.Len(h.nn)
		if cb.held || l < 1e-6 {
			continue
		}
		k := 1 / float32(h.n)
		n := vecmath.Scale(h.nn, 1/l)
		v0, v := float32(h.v0*k), float32(h.v*k)
		dv := float32(-h.e*v0) - v
		if dv <= 0 {
			continue
		}
		ctr := cb.com(pos)
		r := vecmath.Scale(h.p, k).Sub(ctr)
		P := vecmath.Scale(n, dv/sideW(cb, r, n))
		rigidMove(cb, prev, ctr, vecmath.Scale(P, -cb.invM), vecmath.Scale(vecmath.Cross(r, P), -cb.invI))
	}
	s.hits = s.hits[:0]
}

// bounce gives the two cubes of c a normal separation speed of e times
// their approach speed, by moving their previous positions (Verlet keeps
// velocity as pos - prev).
func (s *System) bounce(c *contact, e float32, pos, prev []mgl32.Vec3, inv []float32) {
	a, b := &s.cubes[c.ca], &s.cubes[c.cb]
	pa, pb := c.pointA(pos), c.pointB(pos)
	vn := vecmath.Dot(pa.Sub(c.pointA(prev)).Sub(pb.Sub(c.pointB(prev))), c.n)
	dv := float32(-e*c.vn0) - vn
	if dv <= 0 {
		return
	}
	ca, cb := a.com(pos), b.com(pos)
	c.ra, c.rb = pa.Sub(ca), pb.Sub(cb)
	var w float32
	if !a.held {
		w += sideW(a, c.ra, c.n)
	}
	if !b.held {
		w += sideW(b, c.rb, c.n)
	}
	if w <= 0 {
		return
	}
	P := vecmath.Scale(c.n, dv/w)
	// Raising the relative velocity moves prev the other way.
	if !a.held {
		rigidMove(a, prev, ca, vecmath.Scale(P, -a.invM), vecmath.Scale(vecmath.Cross(c.ra, P), -a.invI))
	}
	if !b.held {
		rigidMove(b, prev, cb, vecmath.Scale(P, b.invM), vecmath.Scale(vecmath.Cross(c.rb, P), b.invI))
	}
}
