package character

import (
	"github.com/drape3d/drape/hair"
	"math"

	"github.com/go-gl/mathgl/mgl32"
)

// scalpCells is the number of cells along each edge of a face of the cube
// map that scalpMap sorts triangles into.
const scalpCells = 16

// scalpMap is a head's surface seen from a point inside it (the head
// sphere's center): its triangles, relative to that point, sorted into the
// cells of a cube map of directions, so that the surface's distance along
// a direction tests a few triangles rather than all.
type scalpMap struct {
	tris  [][3]mgl32.Vec3
	cells [6 * scalpCells * scalpCells][]int32
}

// faceAxes returns the axis of cube face f (0..5: +X, -X, +Y, -Y, +Z, -Z)
// as an index and a sign, and the indices of its u and v axes.
func faceAxes(f int) (a int, s float32, u, v int) {
	a = f / 2
	s = 1
	if f%2 == 1 {
		s = -1
	}
	return a, s, (a + 1) % 3, (a + 2) % 3
}

// cellCoord maps a face coordinate in [-1, 1] to a cell index.
func cellCoord(x float32) int {
	return min(max(int((x+1)*0.5*scalpCells), 0), scalpCells-1)
}

// newScalpMap sorts tris (relative to the center) into the cube map's
// cells: each face takes the triangles whose part in front of it (clipped
// to its side of the center) projects into each of its cells.
func newScalpMap(tris [][3]mgl32.Vec3) *scalpMap {
	m := &scalpMap{tris: tris}
	for f := 0; f < 6; f++ {
		a, s, u, v := faceAxes(f)
		for ti, t := range tris {
			scale := max(t[0].Len(), t[1].Len(), t[2].Len())
			if !(scale > 0) || math.IsInf(float64(scale), 0) {
				continue
			}
			eps := 1e-6 * scale
			// Clip the triangle to s·x[a] >= eps (Sutherland-Hodgman).
			var poly [4]mgl32.Vec3
			n := 0
			for i := 0; i < 3; i++ {
				p, q := t[i], t[(i+1)%3]
				dp, dq := s*p[a]-eps, s*q[a]-eps
				if dp >= 0 {
					poly[n] = p
					n++
				}
				if (dp >= 0) != (dq >= 0) {
					poly[n] = p.Add(q.Sub(p).Mul(dp / (dp - dq)))
					n++
				}
			}
			if n == 0 {
				continue
			}
			lo := [2]float32{float32(math.Inf(1)), float32(math.Inf(1))}
			hi := [2]float32{float32(math.Inf(-1)), float32(math.Inf(-1))}
			for _, p := range poly[:n] {
				d := max(s*p[a], eps)
				x, y := p[u]/d, p[v]/d
				lo[0], lo[1] = min(lo[0], x), min(lo[1], y)
				hi[0], hi[1] = max(hi[0], x), max(hi[1], y)
			}
			if lo[0] > 1 || lo[1] > 1 || hi[0] < -1 || hi[1] < -1 {
				continue
			}
			const pad = 1e-3
			for i := cellCoord(lo[0] - pad); i <= cellCoord(hi[0]+pad); i++ {
				for j := cellCoord(lo[1] - pad); j <= cellCoord(hi[1]+pad); j++ {
					c := (f*scalpCells+i)*scalpCells + j
					m.cells[c] = append(m.cells[c], int32(ti))
				}
			}
		}
	}
	return m
}

// distance returns how far the surface's outermost triangle lies from the
// center along the unit direction dir, 0 when the ray meets none.
func (m *scalpMap) distance(dir mgl32.Vec3) float32 {
	f := 0
	best := float32(-1)
	for a := 0; a < 3; a++ {
		if x := float32(math.Abs(float64(dir[a]))); x > best {
			best = x
			f = 2 * a
			if dir[a] < 0 {
				f++
			}
		}
	}
	if !(best > 0) {
		return 0
	}
	a, s, u, v := faceAxes(f)
	d := s * dir[a]
	c := (f*scalpCells+cellCoord(dir[u]/d))*scalpCells + cellCoord(dir[v]/d)
	var far float32
	for _, ti := range m.cells[c] {
		if t, ok := rayTriangle(dir, m.tris[ti]); ok && t > far {
			far = t
		}
	}
	return far
}

// rayTriangle intersects the ray from the origin along dir with the
// triangle t (Möller-Trumbore) and returns the distance along dir.
func rayTriangle(dir mgl32.Vec3, t [3]mgl32.Vec3) (float32, bool) {
	e1, e2 := t[1].Sub(t[0]), t[2].Sub(t[0])
	p := dir.Cross(e2)
	det := e1.Dot(p)
	if float32(math.Abs(float64(det))) < 1e-12 {
		return 0, false
	}
	inv := 1 / det
	o := t[0].Mul(-1)
	bu := o.Dot(p) * inv
	if bu < -1e-5 || bu > 1+1e-5 {
		return 0, false
	}
	q := o.Cross(e1)
	bv := dir.Dot(q) * inv
	if bv < -1e-5 || bu+bv > 1+1e-5 {
		return 0, false
	}
	d := e2.Dot(q) * inv
	return d, d > 0
}

// capDirections returns m unit directions spread evenly (a Fibonacci
// spiral) over the scalp cap of s (CapAngle around the axis tipped
// CapTilt back from +Y), in the head's frame, as package hair spreads its
// roots.
func capDirections(s hair.Settings, m int) []mgl32.Vec3 {
	st, ct := math.Sincos(float64(s.CapTilt))
	axis := mgl32.Vec3{0, float32(ct), -float32(st)}
	u := mgl32.Vec3{1, 0, 0}
	v := axis.Cross(u).Normalize()
	cosCap := math.Cos(float64(s.CapAngle))
	golden := math.Pi * (3 - math.Sqrt(5))
	out := make([]mgl32.Vec3, 0, m)
	for i := 0; i < m; i++ {
		z := 1 - (1-cosCap)*(float64(i)+0.5)/float64(m)
		r := math.Sqrt(math.Max(0, 1-z*z))
		sp, cp := math.Sincos(float64(i) * golden)
		out = append(out, axis.Mul(float32(z)).Add(u.Mul(float32(r*cp))).Add(v.Mul(float32(r*sp))).Normalize())
	}
	return out
}

// fitScalp fits the head sphere inside a head's surface tris (in the
// head's frame, relative to the bone) for the scalp cap of s: among
// centers on the vertical line through mid, from the bottom of the head's
// box lo to its top hi, the one whose largest sphere inside the surface
// along the cap's directions (the nearest surface a cap direction meets)
// is largest (the highest of equal ones). It returns that center and radius and the surface as seen
// from the center; ok is false when no center sees the surface in at
// least 90% of the cap's directions.
func fitScalp(tris [][3]mgl32.Vec3, mid, lo, hi mgl32.Vec3, s hair.Settings) (center mgl32.Vec3, radius float32, m *scalpMap, ok bool) {
	dirs := capDirections(s, 256)
	const steps = 16
	rel := make([][3]mgl32.Vec3, len(tris))
	for i := steps; i >= 0; i-- {
		c := mgl32.Vec3{mid[0], lo[1] + (hi[1]-lo[1])*float32(i)/steps, mid[2]}
		for k, t := range tris {
			rel[k] = [3]mgl32.Vec3{t[0].Sub(c), t[1].Sub(c), t[2].Sub(c)}
		}
		sm := newScalpMap(rel)
		r := float32(math.Inf(1))
		hits := 0
		for _, d := range dirs {
			if x := sm.distance(d); x > 0 {
				r = min(r, x)
				hits++
			}
		}
		// Of equal spheres (a box's walls bound them all), the highest.
		if 10*hits < 9*len(dirs) || !(r > radius*(1+1e-3)) || math.IsInf(float64(r), 0) {
			continue
		}
		center, radius, ok = c, r, true
		m = &scalpMap{tris: append([][3]mgl32.Vec3(nil), rel...), cells: sm.cells}
	}
	return center, radius, m, ok
}
