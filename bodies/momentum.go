package bodies

import (
	"math"

	"github.com/go-gl/mathgl/mgl32"
)

// Momentum of rigid cubes.
//
// Plain position-based dynamics loses the spin of a rigid body: Verlet
// moves every corner along the chord of its circle, the rigid links pull it
// back toward the center, and the velocity read back from the positions is
// shorter than the one it started with, a loss of about ω²h/2 per second
// (a cube spinning at 6 rad/s loses 12% of its angular momentum in 2 s at
// 8 substeps of 1/480 s, a third at 2 substeps). A rigid cube
// (Compliance 0) knows better, because it is shape-matched: it has a
// linear and an angular velocity of its own. Every substep, right after
// the World integrates:
//
//  1. predict: its velocity v and spin ω are read from its particles'
//     integrated motion d_i (the start position x_i to the integrated one):
//     v = Σ m_i d_i / (M h), ω = I⁻¹ Σ m_i r_i × d_i / h, with r_i the
//     offsets from the center of mass and I their inertia tensor. Gravity,
//     force fields, damping and whatever the game did between steps
//     (Throw, ApplyImpulse, World.SetVelocity, Teleport, Reset) are in d_i,
//     so nothing else has to be told. The particles are then placed
//     rigidly: the center moves by v·h and the rotation turns by exactly
//     |ω|·h about ω (not along the chord), so the links hold already;
//  2. the World solves links, contacts and colliders as always;
//  3. carry (Finish): what the solve and the contact response changed,
//     δ_i = (x_i - x_i,prev) - d_i,predicted, are the impulses (× h/m) of
//     contacts, colliders and friction; links are internal, equal and
//     opposite along the line between their particles, and add nothing to
//     the sums. v += Σ m_i δ_i / (M h), ω += I⁻¹ Σ m_i r_i × δ_i / h, and
//     every particle's previous position is set so that its velocity is
//     the rigid v + ω × r_i (the tangent, not the chord). The next
//     predict reads exactly that v and ω back. Within a step it also
//     starts from the rotation carry found (the predicted one turned by
//     I⁻¹ times the solve's angular impulse, which agrees with the
//     rotation recovered from the particles to 1e-6 rad) instead of a
//     polar decomposition of the corners: 7-8% of a frame of 100 cubes;
//     and from the center of mass carry found, the same sum of the same
//     positions (2-5% of a frame). The first substep of a step takes them
//     from carry too when every particle is where carry left it at the
//     end of the last step (cube.unmoved); where the game moved one, and
//     after the World's non-finite guard put a particle back, they are
//     recovered from the particles. The transform published at the end
//     of a step is carry's rotation too, instead of a polar
//     decomposition of the corners (2-3% of a frame).
//
// A free cube thus keeps its momentum to float32 rounding, while contacts
// change it as they did. A cube held by a pinned or dragged particle, or a
// jelly cube (Compliance > 0), is left to its particles and links as
// before; when let go, predict reads the velocity it was dragged with.
//
// The World builds its collider contacts from the integrated positions,
// before predict (a ConstraintSet's Prepare) moves them: the two differ by
// the chord against the arc, about ω²·r·h²/2 (0.07 mm at 6 rad/s and 8
// substeps), far inside Config.ContactMargin. A core that moved a
// particle in collide (a swept contact) would see that move come back to
// the cube as an impulse on the corner, through d_i, while the contact it
// built is still solved.

// predict reads the velocity and spin of the free rigid cube cb from its
// integrated particles and places them rigidly, turned by the exact
// rotation, which it returns as a matrix.
func (s *System) predict(cb *cube, pos, prev []mgl32.Vec3, h float32, known bool) mat3d {
	n := cb.numParticles()
	// Reciprocals once: a cube's substep had 15 divisions here.
	ih, iM := 1/float64(h), 1/float64(cb.mass)
	c0 := cb.cNext // the center of mass of prev, as carry found it
	if !known {
		var cx, cy, cz float64
		for i := 0; i < n; i++ {
			m, x := cb.particleMass(i), &prev[cb.particle(i)]
			cx += float64(m * float64(x[0]))
			cy += float64(m * float64(x[1]))
			cz += float64(m * float64(x[2]))
		}
		c0 = [3]float64{float64(cx * iM), float64(cy * iM), float64(cz * iM)}
	}
	// The particles of a rigid cube sit at its corners (and center), so
	// their inertia about the center of mass is isotropic: 2/3 of
	// Σ m·|r|² about any axis. (predict placed them exactly at the last
	// substep; the solve's small turns since change it by |θ|², 1e-10.)
	// The sums in scalars, not arrays: Go keeps a local array in
	// memory, and every += then waits for the last one's store.
	var P0, P1, P2, L0, L1, L2, mr2 float64
	for i := 0; i < n; i++ {
		p := cb.particle(i)
		m := cb.particleMass(i)
		x, o := &pos[p], &prev[p]
		dx, dy, dz := float64(x[0]-o[0]), float64(x[1]-o[1]), float64(x[2]-o[2])
		rx, ry, rz := float64(o[0])-c0[0], float64(o[1])-c0[1], float64(o[2])-c0[2]
		P0 += float64(m * dx)
		P1 += float64(m * dy)
		P2 += float64(m * dz)
		L0 += float64(m * (float64(ry*dz) - float64(rz*dy)))
		L1 += float64(m * (float64(rz*dx) - float64(rx*dz)))
		L2 += float64(m * (float64(rx*dy) - float64(ry*dx)))
		mr2 += float64(m * (float64(rx*rx) + float64(ry*ry) + float64(rz*rz)))
	}
	P := [3]float64{P0, P1, P2}
	var om [3]float64
	if I := mr2 * 2 / 3; I > 0 {
		iI := 1 / I
		om = [3]float64{float64(L0 * iI), float64(L1 * iI), float64(L2 * iI)}
	}
	for k := 0; k < 3; k++ {
		cb.v[k] = float64(P[k] * iM * ih)
		cb.om[k] = float64(om[k] * ih)
	}
	// The rotation at the start of the substep: carry's when it is known,
	// else recovered from the particles, warm-started from the last one.
	q := cb.qNext
	if !known {
		a, _ := moment(prev, &cb.p)
		q = rotationNear(a, cb.q, 6)
	}
	// Turn it by |ω|·h about ω.
	q = q.turned(om[0], om[1], om[2])
	cb.q, cb.qPred, cb.pred = q, q, true
	c1 := [3]float64{c0[0] + float64(P[0]*iM), c0[1] + float64(P[1]*iM), c0[2] + float64(P[2]*iM)}
	rm := q.mat()
	ax := cb.halfAxes(&rm)
	offsets(&cb.offs, &ax)
	for i := 0; i < n; i++ {
		p := cb.particle(i)
		r := &cb.offs[i]
		x, o, d := &pos[p], &prev[p], &cb.dpred[i]
		x[0], x[1], x[2] = float32(c1[0]+r[0]), float32(c1[1]+r[1]), float32(c1[2]+r[2])
		d[0], d[1], d[2] = x[0]-o[0], x[1]-o[1], x[2]-o[2]
	}
	return rm
}

// carry adds to the velocity and spin of a predicted cube what the solve
// and the contact response did to its particles beyond the prediction, and
// gives every particle the rigid velocity v + ω × r through its previous
// position.
func (s *System) carry(cb *cube, pos, prev []mgl32.Vec3, h float32) {
	n := cb.numParticles()
	hd := float64(h)
	offs := &cb.offs
	// Scalar sums (see predict).
	var dP0, dP1, dP2, dL0, dL1, dL2, c10, c11, c12 float64
	for i := 0; i < n; i++ {
		p := cb.particle(i)
		m := cb.particleMass(i)
		x, o, dp := &pos[p], &prev[p], &cb.dpred[i]
		dx, dy, dz := float64((x[0]-o[0])-dp[0]), float64((x[1]-o[1])-dp[1]), float64((x[2]-o[2])-dp[2])
		r := &offs[i]
		dP0 += float64(m * dx)
		dP1 += float64(m * dy)
		dP2 += float64(m * dz)
		dL0 += float64(m * (float64(r[1]*dz) - float64(r[2]*dy)))
		dL1 += float64(m * (float64(r[2]*dx) - float64(r[0]*dz)))
		dL2 += float64(m * (float64(r[0]*dy) - float64(r[1]*dx)))
		c10 += float64(m * float64(x[0]))
		c11 += float64(m * float64(x[1]))
		c12 += float64(m * float64(x[2]))
	}
	dP, dL, c1 := [3]float64{dP0, dP1, dP2}, [3]float64{dL0, dL1, dL2}, [3]float64{c10, c11, c12}
	ih, iM := 1/hd, 1/float64(cb.mass)
	invI := float64(cb.invI)
	for k := 0; k < 3; k++ {
		cb.v[k] += float64(dP[k] * iM * ih)
		cb.om[k] += float64(invI * dL[k] * ih)
		c1[k] = float64(c1[k] * iM)
	}
	vx, vy, vz := cb.v[0], cb.v[1], cb.v[2]
	ox, oy, oz := cb.om[0], cb.om[1], cb.om[2]
	// The rotation the particles end the substep at, where the next
	// substep's predict starts from (the World's integration makes them
	// its previous positions): the prediction turned by what the solve
	// turned the cube, I⁻¹ times the angular impulse.
	cb.qNext = cb.qPred.turned(float64(invI*dL[0]), float64(invI*dL[1]), float64(invI*dL[2]))
	cb.cNext = c1
	cb.qNextOK = true
	for i := 0; i < n; i++ {
		p := cb.particle(i)
		x := &pos[p]
		rx, ry, rz := float64(x[0])-c1[0], float64(x[1])-c1[1], float64(x[2])-c1[2]
		ux := float32((vx + float64(oy*rz) - float64(oz*ry)) * hd)
		uy := float32((vy + float64(oz*rx) - float64(ox*rz)) * hd)
		uz := float32((vz + float64(ox*ry) - float64(oy*rx)) * hd)
		// Component by component, in place (see moveRigidly).
		o := &prev[p]
		o[0], o[1], o[2] = x[0]-ux, x[1]-uy, x[2]-uz
	}
	if s.publish {
		// The step's last substep: where the next step's first finds
		// the particles if nothing moves them (unmoved).
		for i := 0; i < n; i++ {
			cb.xEnd[i] = pos[cb.particle(i)]
		}
	}
	cb.pred = false
}

// unmoved reports whether the particles of cb are where carry left them at
// the end of the last step: prev holds them once the World integrated.
func (cb *cube) unmoved(prev []mgl32.Vec3) bool {
	for i := 0; i < cb.numParticles(); i++ {
		if prev[cb.particle(i)] != cb.xEnd[i] {
			return false
		}
	}
	return true
}

// numParticles returns 9, or 8 for a hollow cube.
func (cb *cube) numParticles() int {
	if cb.center >= 0 {
		return 9
	}
	return 8
}

// particle returns particle i of cb: the corners, then the center.
func (cb *cube) particle(i int) int32 {
	if i == 8 {
		return cb.center
	}
	return cb.p[i]
}

// particleMass returns the mass of particle i of cb in kg.
func (cb *cube) particleMass(i int) float64 {
	if i == 8 {
		return float64(cb.m0)
	}
	return float64(cb.mc)
}

// halfAxes returns the cube's axes in the rotation matrix rm, scaled by
// half its size.
func (cb *cube) halfAxes(rm *mat3d) (ax mat3d) {
	h := float64(cb.half)
	for k := 0; k < 3; k++ {
		ax[k] = [3]float64{float64(rm[k][0] * h), float64(rm[k][1] * h), float64(rm[k][2] * h)}
	}
	return ax
}

// offsets writes into o where the 9 particles of a cube (the corners, then
// the center) sit from its center, given the cube's halfAxes; in place, as
// a returned array was copied.
func offsets(o *[9][3]float64, ax *mat3d) {
	for k := 0; k < 3; k++ {
		e0, e1, e2 := ax[0][k], ax[1][k], ax[2][k]
		o[0][k] = -e0 - e1 - e2
		o[1][k] = e0 - e1 - e2
		o[2][k] = -e0 + e1 - e2
		o[3][k] = e0 + e1 - e2
		o[4][k] = -e0 - e1 + e2
		o[5][k] = e0 - e1 + e2
		o[6][k] = -e0 + e1 + e2
		o[7][k] = e0 + e1 + e2
	}
	o[8] = [3]float64{}
}

// solve3d solves m·x = b by Cramer's rule; a singular m gives 0.
func solve3d(m [3][3]float64, b [3]float64) [3]float64 {
	det := func(a [3][3]float64) float64 {
		return float64(a[0][0]*(float64(a[1][1]*a[2][2])-float64(a[1][2]*a[2][1]))) -
			float64(a[0][1]*(float64(a[1][0]*a[2][2])-float64(a[1][2]*a[2][0]))) +
			float64(a[0][2]*(float64(a[1][0]*a[2][1])-float64(a[1][1]*a[2][0])))
	}
	d := det(m)
	tr := m[0][0] + m[1][1] + m[2][2]
	if !(math.Abs(d) > 1e-12*tr*tr*tr) { // singular, or NaN
		return [3]float64{}
	}
	var x [3]float64
	for k := 0; k < 3; k++ {
		mk := m
		for i := 0; i < 3; i++ {
			mk[i][k] = b[i]
		}
		x[k] = det(mk) / d
	}
	return x
}
