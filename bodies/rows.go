package bodies

import (
	"math"

	"github.com/go-gl/mathgl/mgl32"
)

// The solver rows of the contacts between rigid sides (cube against cube,
// cube against a collider).
//
// During a Solve call a cube's pending correction is a translation dc and
// a small turn th about its center of mass (rigid), so a contact point at
// offset r moves by dc + th × r, and along a unit direction d by
// d·dc + (r × d)·th: a fixed linear function of the two bodies'
// corrections. A row keeps, for the normal n and two tangents t1, t2, the
// arms r × d of both sides and the value at zero correction, so a pass
// costs a few dozen multiply-adds per contact and never subtracts two
// positions (whose float32 rounding, 2e-7 m three meters from the origin,
// would hide the convergence the passes look for).
//
// Friction is solved in the tangent plane at once: the impulse that
// cancels the sliding is K⁻¹·s with K the 2x2 effective mass of the
// contact in the plane, then clamped to Coulomb's cone mu·pn. This is the
// exact answer for one contact where a step along the sliding direction
// alone (the former solver) leaves a sideways part for the next pass.
type row struct {
	ci     int32 // its contact in System.contacts
	ia, ib int32 // System.rig of side A and side B (the last is the ground, and held cubes)

	n, t1, t2    mgl32.Vec3 // normal (from B to A) and tangents
	an, at1, at2 mgl32.Vec3 // rA × n, rA × t1, rA × t2
	bn, bt1, bt2 mgl32.Vec3 // rB × n, ...

	c0       float32 // separation along n beyond the one to keep, at zero correction, m
	s1, s2   float32 // sliding along t1, t2 since the substep began, at zero correction, m
	wn       float32 // effective inverse mass along n, 1/kg
	iwn      float32 // 1/wn, kg (0 when wn is)
	k11, k12 float32 // effective inverse mass in the tangent plane, 1/kg
	k22      float32
	i11, i12 float32 // its inverse, kg
	i22      float32
	mu       float32
	pn       float32 // normal impulse this substep, kg·m, >= 0
	p1, p2   float32 // tangential impulse this substep, |p| <= mu·pn
	key      uint64  // its contact's key (warm.go) once the island's warm start asked for it, else 0
}

// tangents returns two unit vectors perpendicular to the unit n and to
// each other.
func tangents(n mgl32.Vec3) (t1, t2 mgl32.Vec3) {
	// Cross n with the world axis it is least aligned with.
	ax, ay, az := abs(n[0]), abs(n[1]), abs(n[2])
	var e mgl32.Vec3
	switch {
	case ax <= ay && ax <= az:
		e = mgl32.Vec3{1, 0, 0}
	case ay <= az:
		e = mgl32.Vec3{0, 1, 0}
	default:
		e = mgl32.Vec3{0, 0, 1}
	}
	// n × e normalised, then n × t1, component by component (see
	// moveRigidly), rounded as mgl32's Cross and Normalize round them.
	x, y, z := float32(n[1]*e[2])-float32(n[2]*e[1]), float32(n[2]*e[0])-float32(n[0]*e[2]), float32(n[0]*e[1])-float32(n[1]*e[0])
	l := 1.0 / float32(math.Sqrt(float64(float32(x*x)+float32(y*y)+float32(z*z))))
	x, y, z = float32(x*l), float32(y*l), float32(z*l)
	t1 = mgl32.Vec3{x, y, z}
	t2 = mgl32.Vec3{float32(n[1]*z) - float32(n[2]*y), float32(n[2]*x) - float32(n[0]*z), float32(n[0]*y) - float32(n[1]*x)}
	return t1, t2
}

// crossTo and dotTo are the cross and dot products through pointers, as
// the hot paths want them (see moveRigidly). dst must be neither a nor b.
func crossTo(dst, a, b *mgl32.Vec3) {
	dst[0] = float32(a[1]*b[2]) - float32(a[2]*b[1])
	dst[1] = float32(a[2]*b[0]) - float32(a[0]*b[2])
	dst[2] = float32(a[0]*b[1]) - float32(a[1]*b[0])
}

func dotTo(a, b *mgl32.Vec3) float32 {
	return float32(a[0]*b[0]) + float32(a[1]*b[1]) + float32(a[2]*b[2])
}

// setup fills the geometry of row r for contact c from the positions
// when the Solve call began; the impulses (pn, p1, p2) carry over from
// the substep's earlier Solve calls.
func (s *System) setup(r *row, c *contact, pos []mgl32.Vec3) {
	ground := int32(len(s.islandCubes))
	r.ia, r.ib = ground, ground
	// A side the solve does not move (held or asleep: the ground) has no
	// arm; only the islands' cubes have a ctr0 when nothing else touches
	// cubes (solve).
	// Component by component through pointers (see moveRigidly).
	var pa, pb, ra, rb mgl32.Vec3
	if c.ca >= 0 {
		c.placeA(&pa, pos)
		if k := s.slotOf[c.ca]; k >= 0 {
			o := &s.cubes[c.ca].ctr0
			ra[0], ra[1], ra[2] = pa[0]-o[0], pa[1]-o[1], pa[2]-o[2]
			r.ia = k
		}
	}
	if c.cb >= 0 {
		c.placeB(&pb, pos)
		if k := s.slotOf[c.cb]; k >= 0 {
			o := &s.cubes[c.cb].ctr0
			rb[0], rb[1], rb[2] = pb[0]-o[0], pb[1]-o[1], pb[2]-o[2]
			r.ib = k
		}
	} else {
		pb = c.fixed
	}
	a := &s.rig[r.ia]
	n, t1, t2 := &c.n, &r.t1, &r.t2
	crossTo(&r.an, &ra, n)
	crossTo(&r.at1, &ra, t1)
	crossTo(&r.at2, &ra, t2)
	r.c0 = (float32((pa[0]-pb[0])*n[0]) + float32((pa[1]-pb[1])*n[1]) + float32((pa[2]-pb[2])*n[2])) - c.r - c.floor
	sx := (pa[0] - c.paPrev[0]) - (pb[0] - c.pbPrev[0])
	sy := (pa[1] - c.paPrev[1]) - (pb[1] - c.pbPrev[1])
	sz := (pa[2] - c.paPrev[2]) - (pb[2] - c.pbPrev[2])
	r.s1 = float32(sx*t1[0]) + float32(sy*t1[1]) + float32(sz*t1[2])
	r.s2 = float32(sx*t2[0]) + float32(sy*t2[1]) + float32(sz*t2[2])
	m := a.invM
	r.wn = m + float32(dotTo(&r.an, &r.an)*a.invI)
	r.k11 = m + float32(dotTo(&r.at1, &r.at1)*a.invI)
	r.k22 = m + float32(dotTo(&r.at2, &r.at2)*a.invI)
	r.k12 = float32(dotTo(&r.at1, &r.at2) * a.invI)
	if c.cb >= 0 {
		b := &s.rig[r.ib]
		crossTo(&r.bn, &rb, n)
		crossTo(&r.bt1, &rb, t1)
		crossTo(&r.bt2, &rb, t2)
		r.wn += b.invM + float32(dotTo(&r.bn, &r.bn)*b.invI)
		r.k11 += b.invM + float32(dotTo(&r.bt1, &r.bt1)*b.invI)
		r.k22 += b.invM + float32(dotTo(&r.bt2, &r.bt2)*b.invI)
		r.k12 += float32(dotTo(&r.bt1, &r.bt2) * b.invI)
	} else {
		// A fixed point: no arm, no mass.
		r.bn, r.bt1, r.bt2 = mgl32.Vec3{}, mgl32.Vec3{}, mgl32.Vec3{}
	}
	r.i11, r.i12, r.i22, r.iwn = 0, 0, 0, 0
	if r.wn > 0 {
		r.iwn = 1 / r.wn
	}
	if det := float32(r.k11*r.k22) - float32(r.k12*r.k12); det > 0 && r.wn > 0 {
		inv := 1 / det
		r.i11, r.i12, r.i22 = float32(r.k22*inv), float32(-r.k12*inv), float32(r.k11*inv)
	}
}

// solveIsland runs up to passes passes over the rows of island is, fewer
// once they converge.
func (s *System) solveIsland(is *island, passes int) {
	rows := s.rows[is.lo:is.hi]
	slideBound := s.slideBound(is)
	for p := 0; p < passes; p++ {
		is.pass++
		rev := is.pass&1 == 0
		moved := s.rowNormals(rows, rev)
		slid := s.rowFriction(rows, rev)
		if moved < convergedMove && slid < slideBound {
			return // the rest of the passes would change nothing that counts
		}
	}
}

// slideBound is the sliding under which the passes of island is count as
// converged: convergedSlide, or twice the float32 spacing of the island's
// coordinates where that is coarser (beyond 0.125 m from the origin on
// some axis). A row's sliding is a difference of four positions rounded to
// that spacing, so two corners of a cube 3 m from the origin can disagree
// by a few 1e-7 m about a slide that no rigid motion removes: the passes
// then trade it between the corners until they run out (measured in the
// cubes100 benchmark scene: most islands ran every pass for that with the
// bound at convergedSlide, and resting crates still 1 in 5 at one spacing,
// sliding 1.1-1.3 spacings).
func (s *System) slideBound(is *island) float32 {
	// The largest coordinate in a scalar (see predict), and no Vec3
	// copied whole after its components were written (see moveRigidly).
	var far float32
	for _, c := range s.islandCubes[is.clo:is.chi] {
		cb := &s.cubes[c]
		lo, hi := &cb.lo, &cb.hi
		far = max(far, abs(lo[0]), abs(hi[0]), abs(lo[1]), abs(hi[1]), abs(lo[2]), abs(hi[2]))
	}
	return max(convergedSlide, float32(2*ulpAt(far)))
}

// jdot returns how far the corrections of bodies a and b move a row's
// points apart along direction d, with arms ra = rA × d and rb = rB × d:
// d·(dcA - dcB) + ra·thA - rb·thB, summed as a tree.
func jdot(d, ra, rb *mgl32.Vec3, a, b *rigid) float32 {
	x := float32(d[0]*(a.dc[0]-b.dc[0])) + float32(d[1]*(a.dc[1]-b.dc[1]))
	y := float32(d[2]*(a.dc[2]-b.dc[2])) + float32(ra[0]*a.th[0])
	z := float32(ra[1]*a.th[1]) + float32(ra[2]*a.th[2])
	u := float32(rb[0]*b.th[0]) + float32(rb[1]*b.th[1])
	v := float32(rb[2] * b.th[2])
	return ((x + y) + z) - (u + v)
}

// jdotA is jdot against the ground (or a held cube), whose correction is
// zero: the same sums without b's terms, so the same value, and short
// enough to inline. Most rows are a crate on the floor.
func jdotA(d, ra *mgl32.Vec3, a *rigid) float32 {
	x := float32(d[0]*a.dc[0]) + float32(d[1]*a.dc[1])
	y := float32(d[2]*a.dc[2]) + float32(ra[0]*a.th[0])
	z := float32(ra[1]*a.th[1]) + float32(ra[2]*a.th[2])
	return (x + y) + z
}

// rowNormals pushes the points of every row apart along its normal as far
// as the accumulated normal impulse (kept >= 0) allows. It returns the
// largest distance a row moved its points, m.
func (s *System) rowNormals(rows []row, rev bool) (moved float32) {
	rig := s.rig
	n := len(rows)
	for kk := 0; kk < n; kk++ {
		k := kk
		if rev {
			k = n - 1 - kk
		}
		r := &rows[k]
		if r.wn <= 0 {
			continue
		}
		a, b := &rig[r.ia], &rig[r.ib]
		// The sums are trees, not chains: the next row of the same cube
		// waits for this one, so latency is what a pass costs.
		var C float32
		if b.invI == 0 {
			C = r.c0 + jdotA(&r.n, &r.an, a)
		} else {
			C = r.c0 + jdot(&r.n, &r.an, &r.bn, a, b)
		}
		pn := r.pn - float32(C*r.iwn)
		if pn < 0 {
			pn = 0
		}
		d := pn - r.pn
		if d == 0 {
			continue
		}
		if m := float32(abs(d) * r.wn); m > moved {
			moved = m
		}
		r.pn = pn
		if a.invI != 0 {
			m, i := float32(d*a.invM), float32(d*a.invI)
			a.dc[0] += float32(r.n[0] * m)
			a.dc[1] += float32(r.n[1] * m)
			a.dc[2] += float32(r.n[2] * m)
			a.th[0] += float32(r.an[0] * i)
			a.th[1] += float32(r.an[1] * i)
			a.th[2] += float32(r.an[2] * i)
		}
		if b.invI != 0 {
			m, i := float32(d*b.invM), float32(d*b.invI)
			b.dc[0] -= float32(r.n[0] * m)
			b.dc[1] -= float32(r.n[1] * m)
			b.dc[2] -= float32(r.n[2] * m)
			b.th[0] -= float32(r.bn[0] * i)
			b.th[1] -= float32(r.bn[1] * i)
			b.th[2] -= float32(r.bn[2] * i)
		}
	}
	return moved
}

// rowFriction cancels the sliding of every row since the substep began
// within Coulomb's cone (position-level static friction; kinetic beyond
// it), on the tangential impulse accumulated over the substep. It returns
// the largest distance a row's correction moved its points, m: a row
// sliding at the cone whose impulse no longer changes is done.
func (s *System) rowFriction(rows []row, rev bool) (slid float32) {
	rig := s.rig
	n := len(rows)
	var slid2 float32
	for kk := 0; kk < n; kk++ {
		k := kk
		if rev {
			k = n - 1 - kk
		}
		r := &rows[k]
		if r.mu == 0 || (r.pn <= 0 && r.p1 == 0 && r.p2 == 0) {
			continue
		}
		a, b := &rig[r.ia], &rig[r.ib]
		var p1, p2 float32
		if r.pn > 0 {
			var s1, s2 float32
			if b.invI == 0 {
				s1 = r.s1 + jdotA(&r.t1, &r.at1, a)
				s2 = r.s2 + jdotA(&r.t2, &r.at2, a)
			} else {
				s1 = r.s1 + jdot(&r.t1, &r.at1, &r.bt1, a, b)
				s2 = r.s2 + jdot(&r.t2, &r.at2, &r.bt2, a, b)
			}
			p1 = r.p1 - (float32(r.i11*s1) + float32(r.i12*s2))
			p2 = r.p2 - (float32(r.i12*s1) + float32(r.i22*s2))
			if lt2, lim := float32(p1*p1)+float32(p2*p2), float32(r.mu*r.pn); lt2 > lim*lim {
				// Kinetic: the cone cannot stop the sliding, so friction
				// acts against it, along the sliding s (the impulse that
				// stops the point is not parallel to the sliding when the
				// contact turns the cube): the impulse along s that
				// takes it back, |s|² / (sᵀKs), times s.
				p1, p2 = r.p1, r.p2
				if l2 := float32(s1*s1) + float32(s2*s2); l2 > 1e-24 {
					if w := float32(r.k11*s1*s1) + float32(2*r.k12*s1*s2) + float32(r.k22*s2*s2); w > 0 {
						f := l2 / w
						p1 -= float32(s1 * f)
						p2 -= float32(s2 * f)
					}
				}
				if lt2 = float32(p1*p1) + float32(p2*p2); lt2 > lim*lim {
					f := lim / float32(math.Sqrt(float64(lt2)))
					p1 = float32(p1 * f)
					p2 = float32(p2 * f)
				}
			}
		}
		// p is zero when the contact lifted off: the friction held so
		// far is let go.
		d1, d2 := p1-r.p1, p2-r.p2
		if d1 == 0 && d2 == 0 {
			continue
		}
		r.p1, r.p2 = p1, p2
		// How far the correction moves the points: K·d.
		m1, m2 := float32(r.k11*d1)+float32(r.k12*d2), float32(r.k12*d1)+float32(r.k22*d2)
		if m := float32(m1*m1) + float32(m2*m2); m > slid2 {
			slid2 = m
		}
		px := float32(r.t1[0]*d1) + float32(r.t2[0]*d2)
		py := float32(r.t1[1]*d1) + float32(r.t2[1]*d2)
		pz := float32(r.t1[2]*d1) + float32(r.t2[2]*d2)
		if a.invI != 0 {
			m, i := a.invM, a.invI
			a.dc[0] += float32(px * m)
			a.dc[1] += float32(py * m)
			a.dc[2] += float32(pz * m)
			a.th[0] += float32((float32(r.at1[0]*d1) + float32(r.at2[0]*d2)) * i)
			a.th[1] += float32((float32(r.at1[1]*d1) + float32(r.at2[1]*d2)) * i)
			a.th[2] += float32((float32(r.at1[2]*d1) + float32(r.at2[2]*d2)) * i)
		}
		if b.invI != 0 {
			m, i := b.invM, b.invI
			b.dc[0] -= float32(px * m)
			b.dc[1] -= float32(py * m)
			b.dc[2] -= float32(pz * m)
			b.th[0] -= float32((float32(r.bt1[0]*d1) + float32(r.bt2[0]*d2)) * i)
			b.th[1] -= float32((float32(r.bt1[1]*d1) + float32(r.bt2[1]*d2)) * i)
			b.th[2] -= float32((float32(r.bt1[2]*d1) + float32(r.bt2[2]*d2)) * i)
		}
	}
	return float32(math.Sqrt(float64(slid2)))
}
