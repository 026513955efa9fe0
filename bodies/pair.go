package bodies

import (
	"github.com/drape3d/drape/internal/vecmath"
	"math"

	"github.com/go-gl/mathgl/mgl32"
)

// Cube against cube.
//
// The narrow phase is the separating-axis test of two oriented boxes (the
// 3 + 3 face axes and the 9 edge-edge axes), as in Ericson, "Real-Time
// Collision Detection" 4.4, and Gottschalk's OBB tree. The axis of least
// overlap gives one contact normal for the whole pair:
//
//   - a face axis: the face of the other cube that most faces it (the
//     incident face) is clipped against the reference face; every clipped
//     point within the margin is a contact (corners of the incident face,
//     and points where its edges cross the reference face's border), and so
//     is every corner of the reference face lying over the incident face.
//     A cube resting on another, twisted or not, gets the whole outline of
//     the touching area, each point carried by the corners of the features
//     it lies on;
//   - an edge axis, when clearly shallower than any face axis: the two
//     supporting edges give one edge-edge contact.
//
// A single normal for the pair is what keeps an aligned stack standing: a
// corner resting exactly on a corner belongs to both a top face and a side
// face, and choosing per corner can pick the side and let the stack sink.

// cubePair appends to buf the contacts between cubes ia and ib, whose
// bounds overlap.
func (s *System) cubePair(ia, ib int32, pos []mgl32.Vec3, inv []float32, buf *[]contact) {
	a, b := &s.cubes[ia], &s.cubes[ib]
	if a.held && b.held {
		return
	}
	m := s.margin
	d := a.c.Sub(b.c) // from b to a
	// A fast pair (fastMove) may have passed into or through each other
	// this substep: the axes are tested with the centers where the substep
	// began, so that the normal is the axis that kept them apart then and
	// points the way they came, not the way they went. No axis rules them
	// out then (they may meet later in the substep); the contacts below
	// are kept only where the features overlap at the end.
	fm := float32(fastMove * min(a.half, b.half))
	fast := vecmath.LenSqr(a.c.Sub(a.cPrev).Sub(b.c.Sub(b.cPrev))) > fm*fm
	if fast {
		d = a.cPrev.Sub(b.cPrev)
	}
	// Every axis is tested through the cosines between the two cubes'
	// axes, R[i][j] = a_i·b_j, and the offset d in either frame (Ericson
	// 4.4.1): an overlap costs a few multiply-adds, not dot products of
	// its own.
	var R, absR [3][3]float32
	var ta, tb [3]float32
	for i := 0; i < 3; i++ {
		for j := 0; j < 3; j++ {
			R[i][j] = vecmath.Dot(a.axis[i], b.axis[j])
			absR[i][j] = abs(R[i][j])
		}
		ta[i], tb[i] = vecmath.Dot(d, a.axis[i]), vecmath.Dot(d, b.axis[i])
	}
	bestFace, faceOwner, faceAxis := float32(math.MaxFloat32), 0, 0
	for k := 0; k < 3; k++ {
		o := a.half + float32(b.half*(absR[k][0]+absR[k][1]+absR[k][2])) - abs(ta[k])
		if o < -m && !fast {
			return
		}
		if o < bestFace {
			bestFace, faceOwner, faceAxis = o, 0, k
		}
		o = b.half + float32(a.half*(absR[0][k]+absR[1][k]+absR[2][k])) - abs(tb[k])
		if o < -m && !fast {
			return
		}
		// Small bias to a's faces keeps the choice from flickering.
		if o < float32(0.999*bestFace)-1e-6 {
			bestFace, faceOwner, faceAxis = o, 1, k
		}
	}
	// Edge axes a_i × b_j, of length √(1 - R[i][j]²) (the frames are
	// orthonormal and right-handed): on it a projects to
	// a.half·(|R[i1][j]| + |R[i2][j]|), b to b.half·(|R[i][j1]| + |R[i][j2]|),
	// and d to ta[i2]·R[i1][j] - ta[i1]·R[i2][j].
	bestEdge, ei, ej := float32(math.MaxFloat32), 0, 0
	for i := 0; i < 3; i++ {
		i1, i2 := (i+1)%3, (i+2)%3
		for j := 0; j < 3; j++ {
			l2 := 1 - float32(R[i][j]*R[i][j])
			if l2 < 1e-6 {
				continue // parallel edges: a face axis covers it
			}
			j1, j2 := (j+1)%3, (j+2)%3
			ra := float32(a.half * (absR[i1][j] + absR[i2][j]))
			rb := float32(b.half * (absR[i][j1] + absR[i][j2]))
			o := (ra + rb - abs(float32(ta[i2]*R[i1][j])-float32(ta[i1]*R[i2][j]))) / float32(math.Sqrt(float64(l2)))
			if o < -m && !fast {
				return
			}
			if o < bestEdge {
				bestEdge, ei, ej = o, i, j
			}
		}
	}
	if bestEdge < bestFace-float32(0.05*min(a.half, b.half)) {
		en := vecmath.Normalize(vecmath.Cross(a.axis[ei], b.axis[ej]))
		if vecmath.Dot(en, d) < 0 {
			en = vecmath.Scale(en, -1)
		}
		if s.edgeContact(ia, ib, ei, ej, en, pos, buf) {
			return
		}
	}
	if faceOwner == 0 {
		// a's face is the reference: the normal points from a to b.
		n := a.axis[faceAxis]
		if vecmath.Dot(n, d) > 0 {
			n = vecmath.Scale(n, -1)
		}
		s.faceContacts(ia, ib, faceAxis, n, pos, inv, buf)
	} else {
		n := b.axis[faceAxis]
		if vecmath.Dot(n, d) < 0 {
			n = vecmath.Scale(n, -1)
		}
		s.faceContacts(ib, ia, faceAxis, n, pos, inv, buf)
	}
}

func abs(x float32) float32 {
	if x < 0 {
		return -x
	}
	return x
}

// faceCycle lists the four corners of face (axis, sign) in cyclic order.
func faceCycle(axis int, sign float32) [4]uint8 {
	base := 0
	if sign > 0 {
		base = 1 << uint(axis)
	}
	u, v := 1<<uint((axis+1)%3), 1<<uint((axis+2)%3)
	return [4]uint8{uint8(base), uint8(base | u), uint8(base | u | v), uint8(base | v)}
}

// faceContacts appends to buf the contacts of the incident cube inc against face
// (k, n) of the reference cube ref; n is the face's outward normal, pointing
// toward inc. Side A of every contact is inc, side B is ref.
func (s *System) faceContacts(iref, iinc int32, k int, n mgl32.Vec3, pos []mgl32.Vec3, inv []float32, buf *[]contact) {
	ref, inc := &s.cubes[iref], &s.cubes[iinc]
	m := s.margin
	h := ref.half
	// Clip against the face grown by a hair, so that an exactly aligned
	// stack, whose corners sit on the border, keeps them.
	hc := float32(h * (1 + 1e-3))
	sk := float32(1)
	if vecmath.Dot(ref.axis[k], n) < 0 {
		sk = -1
	}
	u, v := (k+1)%3, (k+2)%3
	ik, isg := inc.faceAgainst(n) // the incident face
	mu := s.set.Friction
	cyc := faceCycle(ik, isg)
	for e := 0; e < 4; e++ {
		c0, c1 := cyc[e], cyc[(e+1)%4]
		l0, l1 := ref.local(pos[inc.p[c0]]), ref.local(pos[inc.p[c1]])
		t0, t1 := float32(0), float32(1)
		ok := true
		for _, j := range [2]int{u, v} {
			dj := l1[j] - l0[j]
			if dj > -1e-12 && dj < 1e-12 {
				if l0[j] < -hc || l0[j] > hc {
					ok = false
				}
				continue
			}
			ta, tb := (-hc-l0[j])/dj, (hc-l0[j])/dj
			if ta > tb {
				ta, tb = tb, ta
			}
			t0, t1 = max(t0, ta), min(t1, tb)
		}
		if !ok || t0 > t1 {
			continue
		}
		for q, t := range [2]float32{t0, t1} {
			if q == 1 && (t >= 1 || t1-t0 < 1e-6) {
				continue // the end corner is the next edge's start
			}
			// l0 + (l1 - l0)·t, component by component (see moveRigidly).
			x := mgl32.Vec3{l0[0] + float32((l1[0]-l0[0])*t), l0[1] + float32((l1[1]-l0[1])*t), l0[2] + float32((l1[2]-l0[2])*t)}
			if float32(sk*x[k])-h >= m {
				continue
			}
			x[k] = float32(sk * h)
			idx, wt := faceWeights(h, x, k, sk)
			c := contact{kind: kindCube, ca: iinc, cb: iref, na: 2, nb: 4, n: n, mu: mu, feat: int32(q)}
			c.a[0], c.a[1], c.wa[0], c.wa[1] = inc.p[c0], inc.p[c1], 1-t, t
			for i := 0; i < 4; i++ {
				c.b[i], c.wb[i] = ref.p[idx[i]], wt[i]
			}
			*buf = append(*buf, c)
		}
	}
	// Corners of the reference face lying over the incident face.
	hi := inc.half
	hic := float32(hi * (1 + 1e-3))
	iu, iv := (ik+1)%3, (ik+2)%3
	for _, cr := range faceCycle(k, sk) {
		x := pos[ref.p[cr]]
		li := inc.local(x)
		if li[iu] < -hic || li[iu] > hic || li[iv] < -hic || li[iv] > hic {
			continue
		}
		lf := li
		lf[ik] = float32(isg * hi)
		// The point of the incident face under the corner, and its
		// height over it along n, component by component (see
		// moveRigidly).
		a0, a1, a2, o := &inc.axis[0], &inc.axis[1], &inc.axis[2], &inc.c
		px := ((o[0] + float32(a0[0]*lf[0])) + float32(a1[0]*lf[1])) + float32(a2[0]*lf[2])
		py := ((o[1] + float32(a0[1]*lf[0])) + float32(a1[1]*lf[1])) + float32(a2[1]*lf[2])
		pz := ((o[2] + float32(a0[2]*lf[0])) + float32(a1[2]*lf[1])) + float32(a2[2]*lf[2])
		if float32((px-x[0])*n[0])+float32((py-x[1])*n[1])+float32((pz-x[2])*n[2]) >= m {
			continue
		}
		idx, wt := faceWeights(hi, lf, ik, isg)
		c := contact{kind: kindCube, ca: iinc, cb: iref, na: 4, nb: 1, n: n, mu: mu}
		for i := 0; i < 4; i++ {
			c.a[i], c.wa[i] = inc.p[idx[i]], wt[i]
		}
		c.b[0], c.wb[0] = ref.p[cr], 1
		*buf = append(*buf, c)
	}
	_ = inv
}

// edgeContact appends to buf the contact between the edge of cube ia along its axis i
// and the edge of cube ib along its axis j that support the two cubes along
// n (from ib to ia). It reports false when the closest points of the two
// edges are not inside both, so that a face axis should be used instead.
func (s *System) edgeContact(ia, ib int32, i, j int, n mgl32.Vec3, pos []mgl32.Vec3, buf *[]contact) bool {
	a, b := &s.cubes[ia], &s.cubes[ib]
	c0, d0 := 0, 0
	for k := 0; k < 3; k++ {
		if k != i && vecmath.Dot(a.axis[k], n) < 0 {
			c0 |= 1 << uint(k) // a's extreme toward b is on the + side of k
		}
		if k != j && vecmath.Dot(b.axis[k], n) > 0 {
			d0 |= 1 << uint(k)
		}
	}
	c1, d1 := c0|1<<uint(i), d0|1<<uint(j)
	p1, q1 := pos[a.p[c0]], pos[a.p[c1]]
	p2, q2 := pos[b.p[d0]], pos[b.p[d1]]
	sa, tb := closestSegSeg(p1, q1.Sub(p1), p2, q2.Sub(p2))
	if sa <= 0 || sa >= 1 || tb <= 0 || tb >= 1 {
		return false
	}
	c := contact{kind: kindCube, ca: ia, cb: ib, na: 2, nb: 2, n: n, mu: s.set.Friction}
	c.a[0], c.a[1], c.wa[0], c.wa[1] = a.p[c0], a.p[c1], 1-sa, sa
	c.b[0], c.b[1], c.wb[0], c.wb[1] = b.p[d0], b.p[d1], 1-tb, tb
	if vecmath.Dot(c.pointA(pos).Sub(c.pointB(pos)), n) < s.margin {
		*buf = append(*buf, c)
	}
	return true
}
