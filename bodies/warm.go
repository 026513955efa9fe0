package bodies

import (
	"math"

	"github.com/go-gl/mathgl/mgl32"
)

// Warm starting.
//
// A crate resting on the floor needs the same impulses every substep: its
// weight's worth at its corners, shared among them in one of the many ways
// that hold it. Solved from zero every substep, Gauss-Seidel passes the
// load back and forth among the corners for several passes before it
// settles. So the rows of an island of one cube start the substep with the
// impulses the same contacts ended the last one with (scaled by the change
// of h², since position-level impulses grow as force·h²), applied to the
// cube before the first pass; the passes then only correct what changed.
// A contact is the same one when it joins the same features: the same cube
// or collider on each side, the same particles carrying its points and the
// same place among a clipped edge's points. Accumulated impulses stay
// clamped as before, so a contact that lifts off lets its warm impulse go
// in the first pass. The tangential impulse is kept as a world vector and
// projected on the new contact's tangents. The cubes keep them (cubeWarm),
// each its contacts in the island (warmOwner: side A when both sides are
// in it), so only the worker that solves their island writes and reads
// them; a contact its cube does not know starts from zero.
//
// Islands of several cubes (a stack, a pile) start from pileWarm, 40%, of
// their last impulses. In full, a warm start keeps the last substep's
// correction of the stack's sway, which the passes do not fully take back,
// and the stack rocks (a stack of three never fell asleep); from 60% on a
// stack of six turned 0.1 rad a level rocks (its top moved 2.6% of its
// size in 20 s; TestStackOfSix/twisted), from 50% a stack of
// ten moves twice as much as at 40%. At 40% stacks stand better than
// started from zero, the passes having less to build each substep (the
// top of a stack of six moved 0.35% of its size in 20 s against 0.55%,
// hollow 0.73% against 0.93%, ten hollow cubes 1.3% against 2.8%; the same
// or better at 3, 5 and 20 substeps), and 100 crates landing, some in
// piles, cost less a frame.

// warmEntry is a rigid contact's impulses at the end of a substep.
type warmEntry struct {
	key uint64
	pn  float32    // normal impulse, kg·m
	pt  mgl32.Vec3 // tangential impulse, kg·m
}

// maxWarm is how many contacts of a lone cube keep their impulses for the
// next substep (a crate on the floor has four, on an edge two); the rest
// start from zero.
const maxWarm = 16

// cubeWarm is what a lone cube's island ended a substep with: kept in the
// cube, written and read by the worker that solves its island, never by
// the others.
type cubeWarm struct {
	e   [maxWarm]warmEntry
	n   int32
	sub uint32  // System.substeps when saved
	h   float32 // the substep length the impulses were found at, s
}

// key identifies the features a contact joins (see above). It is never 0.
func (c *contact) key() uint64 {
	k := uint64(c.kind) | uint64(c.na)<<2 | uint64(c.nb)<<5 | uint64(uint32(c.feat))<<8
	k = mix(k, uint64(uint32(c.ca))|uint64(uint32(c.cb))<<32)
	k = mix(k, uint64(uint32(c.a[0]))|uint64(uint32(c.b[0]))<<32)
	k = mix(k, uint64(uint32(c.a[1]))|uint64(uint32(c.b[1]))<<32)
	if k == 0 {
		k = 1
	}
	return k
}

// mix folds v into the hash h.
func mix(h, v uint64) uint64 {
	h ^= v + 0x9e3779b97f4a7c15 + h<<6 + h>>2
	h *= 0xbf58476d1ce4e5b9
	return h ^ h>>31
}

// warmOwner returns the cube that keeps the impulses of c, a contact of
// an island: its side in the island (side A when both are).
func (s *System) warmOwner(c *contact) *cubeWarm {
	if c.ca >= 0 && s.slotOf[c.ca] >= 0 {
		return &s.cubes[c.ca].warm
	}
	return &s.cubes[c.cb].warm
}

// saveWarm records in the cubes of island is the impulses its rows hold
// now; the last Solve call of the substep leaves the final ones.
func (s *System) saveWarm(is *island) {
	for k := is.clo; k < is.chi; k++ {
		cw := &s.cubes[s.islandCubes[k]].warm
		cw.n, cw.sub, cw.h = 0, s.substeps, s.h
	}
	rows := s.rows[is.lo:is.hi]
	lone := is.lone()
	cw := &s.cubes[s.islandCubes[is.clo]].warm
next:
	for k := range rows {
		r := &rows[k]
		if r.pn == 0 && r.p1 == 0 && r.p2 == 0 {
			continue
		}
		key := r.key
		if key == 0 {
			key = s.contacts[r.ci].key()
		}
		if !lone {
			cw = s.warmOwner(&s.contacts[r.ci])
		}
		for i := range cw.e[:cw.n] {
			if cw.e[i].key == key {
				continue next // the first of two contacts on the same features
			}
		}
		if cw.n == maxWarm {
			continue
		}
		// In place, component by component (see moveRigidly).
		e := &cw.e[cw.n]
		e.key, e.pn = key, r.pn
		e.pt[0] = float32(r.t1[0]*r.p1) + float32(r.t2[0]*r.p2)
		e.pt[1] = float32(r.t1[1]*r.p1) + float32(r.t2[1]*r.p2)
		e.pt[2] = float32(r.t1[2]*r.p1) + float32(r.t2[2]*r.p2)
		cw.n++
	}
}

// load gives row r of contact c, for a substep of length h, the impulses
// its contact ended the last substep with (none if it is new, or if the
// cube was not a lone island then).
func (cw *cubeWarm) load(r *row, c *contact, h float32, sub uint32) {
	r.pn, r.p1, r.p2 = 0, 0, 0
	if cw.sub+1 != sub || cw.n == 0 {
		return
	}
	key := c.key()
	r.key = key // for saveWarm
	var e *warmEntry
	for i := range cw.e[:cw.n] {
		if cw.e[i].key == key {
			e = &cw.e[i]
			break
		}
	}
	if e == nil {
		return
	}
	f := float32(1)
	if h != cw.h && cw.h > 0 {
		f = float32((h / cw.h) * (h / cw.h))
	}
	r.pn = float32(e.pn * f)
	r.p1, r.p2 = float32(dotTo(&e.pt, &r.t1)*f), float32(dotTo(&e.pt, &r.t2)*f)
	if lt2, lim := float32(r.p1*r.p1)+float32(r.p2*r.p2), float32(r.mu*r.pn); lt2 > lim*lim {
		g := float32(0)
		if lim > 0 {
			g = lim / float32(math.Sqrt(float64(lt2)))
		}
		r.p1 = float32(r.p1 * g)
		r.p2 = float32(r.p2 * g)
	}
}

// warmStart loads the rows of island is (set up for the substep's first
// Solve call) from the last substep and moves its cube by them. The
// island is lone: its rows move its one cube (slot is.clo) or the ground,
// so the pushes add up in registers and are stored once (through memory,
// every row waited for the last one's store).
func (s *System) warmStart(is *island) {
	rows := s.rows[is.lo:is.hi]
	slot := is.clo
	g := &s.rig[slot]
	// Component by component (see moveRigidly).
	dx, dy, dz := g.dc[0], g.dc[1], g.dc[2]
	tx, ty, tz := g.th[0], g.th[1], g.th[2]
	cw := &s.cubes[s.islandCubes[is.clo]].warm
	for k := range rows {
		r := &rows[k]
		cw.load(r, &s.contacts[r.ci], s.h, s.substeps)
		if r.pn == 0 && r.p1 == 0 && r.p2 == 0 {
			continue
		}
		if r.wn <= 0 {
			r.pn, r.p1, r.p2 = 0, 0, 0
			continue
		}
		if g.invI == 0 {
			continue // nothing to move (the ground's pushes do nothing either)
		}
		// The impulse, and its moment about the cube's center.
		pn, p1, p2 := r.pn, r.p1, r.p2
		px := float32(r.n[0]*pn) + float32(r.t1[0]*p1) + float32(r.t2[0]*p2)
		py := float32(r.n[1]*pn) + float32(r.t1[1]*p1) + float32(r.t2[1]*p2)
		pz := float32(r.n[2]*pn) + float32(r.t1[2]*p1) + float32(r.t2[2]*p2)
		m, i := g.invM, g.invI
		if r.ia == slot {
			dx, dy, dz = dx+float32(px*m), dy+float32(py*m), dz+float32(pz*m)
			tx += float32((float32(r.an[0]*pn) + float32(r.at1[0]*p1) + float32(r.at2[0]*p2)) * i)
			ty += float32((float32(r.an[1]*pn) + float32(r.at1[1]*p1) + float32(r.at2[1]*p2)) * i)
			tz += float32((float32(r.an[2]*pn) + float32(r.at1[2]*p1) + float32(r.at2[2]*p2)) * i)
		}
		if r.ib == slot {
			dx, dy, dz = dx+float32((px*-1)*m), dy+float32((py*-1)*m), dz+float32((pz*-1)*m)
			tx += float32((float32(r.bn[0]*-pn) - float32(r.bt1[0]*p1) - float32(r.bt2[0]*p2)) * i)
			ty += float32((float32(r.bn[1]*-pn) - float32(r.bt1[1]*p1) - float32(r.bt2[1]*p2)) * i)
			tz += float32((float32(r.bn[2]*-pn) - float32(r.bt1[2]*p1) - float32(r.bt2[2]*p2)) * i)
		}
	}
	g.dc, g.th = mgl32.Vec3{dx, dy, dz}, mgl32.Vec3{tx, ty, tz}
}

// warmStartPile is warmStart for an island of several cubes: its rows
// start from pileWarm times the impulses their contacts ended the last
// substep with, and move the island's cubes by them.
func (s *System) warmStartPile(is *island) {
	rows := s.rows[is.lo:is.hi]
	for k := range rows {
		r := &rows[k]
		c := &s.contacts[r.ci]
		s.warmOwner(c).load(r, c, s.h, s.substeps)
		if r.pn == 0 && r.p1 == 0 && r.p2 == 0 {
			continue
		}
		if r.wn <= 0 {
			r.pn, r.p1, r.p2 = 0, 0, 0
			continue
		}
		r.pn, r.p1, r.p2 = float32(r.pn*pileWarm), float32(r.p1*pileWarm), float32(r.p2*pileWarm)
		// The impulse, and its moments about the two sides' centers,
		// component by component (see moveRigidly).
		pn, p1, p2 := r.pn, r.p1, r.p2
		px := float32(r.n[0]*pn) + float32(r.t1[0]*p1) + float32(r.t2[0]*p2)
		py := float32(r.n[1]*pn) + float32(r.t1[1]*p1) + float32(r.t2[1]*p2)
		pz := float32(r.n[2]*pn) + float32(r.t1[2]*p1) + float32(r.t2[2]*p2)
		if a := &s.rig[r.ia]; a.invI != 0 {
			m, i := a.invM, a.invI
			a.dc[0] += float32(px * m)
			a.dc[1] += float32(py * m)
			a.dc[2] += float32(pz * m)
			a.th[0] += float32((float32(r.an[0]*pn) + float32(r.at1[0]*p1) + float32(r.at2[0]*p2)) * i)
			a.th[1] += float32((float32(r.an[1]*pn) + float32(r.at1[1]*p1) + float32(r.at2[1]*p2)) * i)
			a.th[2] += float32((float32(r.an[2]*pn) + float32(r.at1[2]*p1) + float32(r.at2[2]*p2)) * i)
		}
		if b := &s.rig[r.ib]; b.invI != 0 {
			m, i := b.invM, b.invI
			b.dc[0] -= float32(px * m)
			b.dc[1] -= float32(py * m)
			b.dc[2] -= float32(pz * m)
			b.th[0] -= float32((float32(r.bn[0]*pn) + float32(r.bt1[0]*p1) + float32(r.bt2[0]*p2)) * i)
			b.th[1] -= float32((float32(r.bn[1]*pn) + float32(r.bt1[1]*p1) + float32(r.bt2[1]*p2)) * i)
			b.th[2] -= float32((float32(r.bn[2]*pn) + float32(r.bt1[2]*p1) + float32(r.bt2[2]*p2)) * i)
		}
	}
}

// pileWarm is the share of their last impulses the contacts of an island
// of several cubes start a substep with (see above).
const pileWarm = 0.4
