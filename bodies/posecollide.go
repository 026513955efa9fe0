package bodies

import (
	"github.com/drape3d/drape/internal/vecmath"
	"math"

	"github.com/go-gl/mathgl/mgl32"
)

// The pose engine's narrow phase: a cube pair's manifold by the
// separating-axis test, found once a step at the poses the step starts
// with. Every point within the pair's speculative margin is kept, so a
// contact that only closes during the step is in place before it does.

// boxFrame is a cube's center, axes (world) and half edge.
type boxFrame struct {
	c    mgl32.Vec3
	ax   [3]mgl32.Vec3
	half float32
}

func frameOf(b *poseBody) boxFrame {
	f := boxFrame{c: b.x, half: b.half}
	f.ax[0] = rotate(b.q, mgl32.Vec3{1, 0, 0})
	f.ax[1] = rotate(b.q, mgl32.Vec3{0, 1, 0})
	f.ax[2] = rotate(b.q, mgl32.Vec3{0, 0, 1})
	return f
}

// radius returns the half-width of box f projected on the unit axis l.
func (f *boxFrame) radius(l mgl32.Vec3) float32 {
	return float32(f.half * (abs32(dot(l, f.ax[0])) + abs32(dot(l, f.ax[1])) + abs32(dot(l, f.ax[2]))))
}

func abs32(x float32) float32 { return math.Float32frombits(math.Float32bits(x) &^ (1 << 31)) }

// manifoldPoint is one point of a pair's manifold: pa on box A's surface
// and pb on box B's (world), separated by sep along the normal.
type manifoldPoint struct {
	pa, pb mgl32.Vec3
	sep    float32
}

// edgeBias is how much shallower an edge axis must be than the best face
// axis, as a fraction of the smaller half edge, before it is taken: faces
// give stacks four steady points, edges one.
const edgeBias = 0.05

// boxManifold finds the contact of boxes a and b within margin: the normal
// from a toward b and up to maxContactsPerPair points. n is 0 when they
// are farther apart than margin.
func boxManifold(a, b *boxFrame, margin float32, out *[8]manifoldPoint) (normal mgl32.Vec3, n int) {
	d := b.c.Sub(a.c)
	bestFace, faceSep := -1, float32(-math.MaxFloat32)
	var faceAxis mgl32.Vec3
	for i := 0; i < 6; i++ {
		var l mgl32.Vec3
		if i < 3 {
			l = a.ax[i]
		} else {
			l = b.ax[i-3]
		}
		s := abs32(dot(d, l)) - a.radius(l) - b.radius(l)
		if s > margin {
			return mgl32.Vec3{}, 0
		}
		if s > faceSep {
			bestFace, faceSep, faceAxis = i, s, l
		}
	}
	edgeI, edgeJ, edgeSep := -1, -1, float32(-math.MaxFloat32)
	var edgeAxis mgl32.Vec3
	for i := 0; i < 3; i++ {
		for j := 0; j < 3; j++ {
			l := cross(a.ax[i], b.ax[j])
			ll := length(l)
			if ll < 1e-4 {
				continue // parallel edges: a face axis covers them
			}
			l = vecmath.Scale(l, 1/ll)
			s := abs32(dot(d, l)) - a.radius(l) - b.radius(l)
			if s > margin {
				return mgl32.Vec3{}, 0
			}
			if s > edgeSep {
				edgeI, edgeJ, edgeSep, edgeAxis = i, j, s, l
			}
		}
	}
	if edgeI >= 0 && edgeSep > faceSep+float32(edgeBias*min(a.half, b.half)) {
		if dot(d, edgeAxis) < 0 {
			edgeAxis = vecmath.Scale(edgeAxis, -1)
		}
		return edgeAxis, edgeContact(a, b, edgeI, edgeJ, edgeAxis, margin, out)
	}
	if dot(d, faceAxis) < 0 {
		faceAxis = vecmath.Scale(faceAxis, -1)
	}
	if bestFace < 3 {
		return faceAxis, faceContact(a, b, faceAxis, margin, out, false)
	}
	// B's face is the reference: clip A's face against it, then swap sides.
	return faceAxis, faceContact(b, a, vecmath.Scale(faceAxis, -1), margin, out, true)
}

// faceContact clips the face of inc most opposed to n against the face of
// ref that n leaves through, keeping points within margin. With swapped,
// ref is box B and inc box A, and the points are written as (pa, pb) of
// the pair (A, B) all the same.
func faceContact(ref, inc *boxFrame, n mgl32.Vec3, margin float32, out *[8]manifoldPoint, swapped bool) int {
	// The reference face: its center, and the two axes spanning it.
	var u, v mgl32.Vec3
	k := 0
	best := float32(-1)
	for i := 0; i < 3; i++ {
		if p := abs32(dot(n, ref.ax[i])); p > best {
			best, k = p, i
		}
	}
	u, v = ref.ax[(k+1)%3], ref.ax[(k+2)%3]
	fc := ref.c.Add(vecmath.Scale(n, ref.half))
	// The incident face: the face of inc whose normal is most against n.
	j, best := 0, float32(-1)
	for i := 0; i < 3; i++ {
		if p := abs32(dot(n, inc.ax[i])); p > best {
			best, j = p, i
		}
	}
	nj := inc.ax[j]
	if dot(nj, n) > 0 {
		nj = vecmath.Scale(nj, -1)
	}
	ic := inc.c.Add(vecmath.Scale(nj, inc.half))
	e1 := vecmath.Scale(inc.ax[(j+1)%3], inc.half)
	e2 := vecmath.Scale(inc.ax[(j+2)%3], inc.half)
	var poly, tmp [8]mgl32.Vec3
	poly[0] = ic.Add(e1).Add(e2)
	poly[1] = ic.Sub(e1).Add(e2)
	poly[2] = ic.Sub(e1).Sub(e2)
	poly[3] = ic.Add(e1).Sub(e2)
	cnt := 4
	// Clip against the four side planes of the reference face.
	h := ref.half
	cnt = clipPlane(poly[:cnt], tmp[:], u, dot(u, fc)+h, 1)
	cnt = clipPlane(tmp[:cnt], poly[:], u, dot(u, fc)-h, -1)
	cnt = clipPlane(poly[:cnt], tmp[:], v, dot(v, fc)+h, 1)
	cnt = clipPlane(tmp[:cnt], poly[:], v, dot(v, fc)-h, -1)
	var pts [8]manifoldPoint
	m := 0
	for i := 0; i < cnt; i++ {
		p := poly[i]
		s := dot(p.Sub(fc), n)
		if s > margin {
			continue
		}
		onRef := p.Sub(vecmath.Scale(n, s))
		if swapped {
			pts[m] = manifoldPoint{pa: p, pb: onRef, sep: s}
		} else {
			pts[m] = manifoldPoint{pa: onRef, pb: p, sep: s}
		}
		m++
	}
	return reduce(pts[:m], n, out)
}

// clipPlane keeps the part of the polygon in on the side sign·(dot(x, l) -
// off) <= 0, writing it to out; it returns the number of vertices.
func clipPlane(in, out []mgl32.Vec3, l mgl32.Vec3, off, sign float32) int {
	if len(in) == 0 {
		return 0
	}
	m := 0
	prev := in[len(in)-1]
	dp := float32(sign * (dot(prev, l) - off))
	for _, p := range in {
		dc := float32(sign * (dot(p, l) - off))
		if (dp <= 0) != (dc <= 0) && m < len(out) {
			t := dp / (dp - dc)
			out[m] = prev.Add(vecmath.Scale(p.Sub(prev), t))
			m++
		}
		if dc <= 0 && m < len(out) {
			out[m] = p
			m++
		}
		prev, dp = p, dc
	}
	return m
}

// reduce keeps at most maxContactsPerPair of pts in out: the deepest, the
// one farthest from it, and the two farthest on either side of the line
// through them, which span the most area.
func reduce(pts []manifoldPoint, n mgl32.Vec3, out *[8]manifoldPoint) int {
	if len(pts) <= maxContactsPerPair {
		copy(out[:], pts)
		return len(pts)
	}
	i0 := 0
	for i := range pts {
		if pts[i].sep < pts[i0].sep {
			i0 = i
		}
	}
	p0 := pts[i0].pb
	i1, far := -1, float32(-1)
	for i := range pts {
		if d := vecmath.LenSqr(pts[i].pb.Sub(p0)); i != i0 && d > far {
			i1, far = i, d
		}
	}
	p1 := pts[i1].pb
	i2, i3 := -1, -1
	var most, least float32
	for i := range pts {
		if i == i0 || i == i1 {
			continue
		}
		a := dot(cross(p1.Sub(p0), pts[i].pb.Sub(p0)), n)
		if a > most {
			i2, most = i, a
		}
		if a < least {
			i3, least = i, a
		}
	}
	k := 0
	for _, i := range []int{i0, i1, i2, i3} {
		if i >= 0 {
			out[k] = pts[i]
			k++
		}
	}
	return k
}

// edgeContact is the contact of A's edge along axis i and B's along axis j
// that support the pair along n (from A toward B): the closest points of
// the two edges.
func edgeContact(a, b *boxFrame, i, j int, n mgl32.Vec3, margin float32, out *[8]manifoldPoint) int {
	ca := a.c
	for k := 0; k < 3; k++ {
		if k != i {
			if dot(n, a.ax[k]) > 0 {
				ca = ca.Add(vecmath.Scale(a.ax[k], a.half))
			} else {
				ca = ca.Sub(vecmath.Scale(a.ax[k], a.half))
			}
		}
	}
	cb := b.c
	for k := 0; k < 3; k++ {
		if k != j {
			if dot(n, b.ax[k]) < 0 {
				cb = cb.Add(vecmath.Scale(b.ax[k], b.half))
			} else {
				cb = cb.Sub(vecmath.Scale(b.ax[k], b.half))
			}
		}
	}
	// Closest points of the segments ca + s·da, cb + t·db, |s| <= half.
	da, db := a.ax[i], b.ax[j]
	r := ca.Sub(cb)
	e := dot(da, db)
	den := 1 - float32(e*e)
	var s, t float32
	if den > 1e-6 {
		s = (float32(e*dot(db, r)) - dot(da, r)) / den
	}
	s = clamp(s, -a.half, a.half)
	t = clamp(dot(db, r)+float32(e*s), -b.half, b.half)
	s = clamp(float32(e*t)-dot(da, r), -a.half, a.half)
	pa := ca.Add(vecmath.Scale(da, s))
	pb := cb.Add(vecmath.Scale(db, t))
	sep := dot(pb.Sub(pa), n)
	if sep > margin {
		return 0
	}
	out[0] = manifoldPoint{pa: pa, pb: pb, sep: sep}
	return 1
}

func clamp(x, lo, hi float32) float32 { return min(max(x, lo), hi) }
