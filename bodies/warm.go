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
// projected on the new contact's tangents.
//
// Islands of several cubes start from zero: in a stack, a warm start keeps
// the last substep's correction of the stack's sway, which the passes do
// not fully take back, and the stack rocks (measured: a stack of three
// never fell asleep).

// warmEntry is a rigid contact's impulses at the end of a substep.
type warmEntry struct {
	key uint64
	pn  float32    // normal impulse, kg·m
	pt  mgl32.Vec3 // tangential impulse, kg·m
}

// warmTable maps contact keys to the impulses of the last substep: open
// addressing in a power-of-two table, rebuilt every substep, allocating
// only when it grows.
type warmTable struct {
	slots []warmEntry // key 0: empty
	n     int
	h     float32 // the substep length the impulses were found at, s
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

// save records the impulses of the rows of the substep that ended, found
// at substep length h.
func (t *warmTable) save(rows []row, contacts []contact, h float32) {
	want := 16
	for want < 2*len(rows) {
		want *= 2
	}
	if len(t.slots) < want {
		t.slots = make([]warmEntry, want)
	} else {
		clear(t.slots)
	}
	t.n, t.h = 0, h
	mask := uint64(len(t.slots) - 1)
	for k := range rows {
		r := &rows[k]
		if r.pn == 0 && r.p1 == 0 && r.p2 == 0 {
			continue
		}
		key := contacts[r.ci].key()
		i := key & mask
		for t.slots[i].key != 0 && t.slots[i].key != key {
			i = (i + 1) & mask
		}
		if t.slots[i].key == key {
			continue // the first of two contacts on the same features
		}
		t.slots[i] = warmEntry{key: key, pn: r.pn, pt: r.t1.Mul(r.p1).Add(r.t2.Mul(r.p2))}
		t.n++
	}
}

// load gives row r of contact c, for a substep of length h, the impulses
// its contact ended the last substep with (none if it is new).
func (t *warmTable) load(r *row, c *contact, h float32) {
	r.pn, r.p1, r.p2 = 0, 0, 0
	if t.n == 0 {
		return
	}
	key := c.key()
	mask := uint64(len(t.slots) - 1)
	i := key & mask
	for t.slots[i].key != key {
		if t.slots[i].key == 0 {
			return
		}
		i = (i + 1) & mask
	}
	e := &t.slots[i]
	f := float32(1)
	if h != t.h && t.h > 0 {
		f = (h / t.h) * (h / t.h)
	}
	r.pn = e.pn * f
	r.p1, r.p2 = dot(e.pt, r.t1)*f, dot(e.pt, r.t2)*f
	if lt2, lim := r.p1*r.p1+r.p2*r.p2, r.mu*r.pn; lt2 > lim*lim {
		g := float32(0)
		if lim > 0 {
			g = lim / float32(math.Sqrt(float64(lt2)))
		}
		r.p1 *= g
		r.p2 *= g
	}
}

// warmStart loads the rows of island is (set up for the substep's first
// Solve call) from the last substep and moves its cube by them.
func (s *System) warmStart(is *island) {
	rows := s.rows[is.lo:is.hi]
	rig := s.rig
	for k := range rows {
		r := &rows[k]
		s.warm.load(r, &s.contacts[r.ci], s.h)
		if r.pn == 0 && r.p1 == 0 && r.p2 == 0 {
			continue
		}
		if r.wn <= 0 {
			r.pn, r.p1, r.p2 = 0, 0, 0
			continue
		}
		px := r.n[0]*r.pn + r.t1[0]*r.p1 + r.t2[0]*r.p2
		py := r.n[1]*r.pn + r.t1[1]*r.p1 + r.t2[1]*r.p2
		pz := r.n[2]*r.pn + r.t1[2]*r.p1 + r.t2[2]*r.p2
		if a := &rig[r.ia]; a.invM != 0 {
			m, i := a.invM, a.invI
			a.dc[0] += px * m
			a.dc[1] += py * m
			a.dc[2] += pz * m
			a.th[0] += (r.an[0]*r.pn + r.at1[0]*r.p1 + r.at2[0]*r.p2) * i
			a.th[1] += (r.an[1]*r.pn + r.at1[1]*r.p1 + r.at2[1]*r.p2) * i
			a.th[2] += (r.an[2]*r.pn + r.at1[2]*r.p1 + r.at2[2]*r.p2) * i
		}
		if b := &rig[r.ib]; b.invM != 0 {
			m, i := b.invM, b.invI
			b.dc[0] -= px * m
			b.dc[1] -= py * m
			b.dc[2] -= pz * m
			b.th[0] -= (r.bn[0]*r.pn + r.bt1[0]*r.p1 + r.bt2[0]*r.p2) * i
			b.th[1] -= (r.bn[1]*r.pn + r.bt1[1]*r.p1 + r.bt2[1]*r.p2) * i
			b.th[2] -= (r.bn[2]*r.pn + r.bt1[2]*r.p1 + r.bt2[2]*r.p2) * i
		}
	}
}
