package vecmath

import "github.com/go-gl/mathgl/mgl32"

// ClosestOnTriangle returns the point of triangle abc nearest x (Ericson,
// Real-Time Collision Detection, 5.1.5): a corner, a point on an edge, or
// x's projection onto the plane when that falls inside. A degenerate
// triangle returns the nearest point of its edges' regions as the same
// tests find it.
func ClosestOnTriangle(x, a, b, c mgl32.Vec3) mgl32.Vec3 {
	ab, ac, ax := b.Sub(a), c.Sub(a), x.Sub(a)
	d1, d2 := Dot(ab, ax), Dot(ac, ax)
	if d1 <= 0 && d2 <= 0 {
		return a
	}
	bx := x.Sub(b)
	d3, d4 := Dot(ab, bx), Dot(ac, bx)
	if d3 >= 0 && d4 <= d3 {
		return b
	}
	vc := float32(d1*d4) - float32(d3*d2)
	if vc <= 0 && d1 >= 0 && d3 <= 0 {
		return a.Add(Scale(ab, d1/(d1-d3)))
	}
	cx := x.Sub(c)
	d5, d6 := Dot(ab, cx), Dot(ac, cx)
	if d6 >= 0 && d5 <= d6 {
		return c
	}
	vb := float32(d5*d2) - float32(d1*d6)
	if vb <= 0 && d2 >= 0 && d6 <= 0 {
		return a.Add(Scale(ac, d2/(d2-d6)))
	}
	va := float32(d3*d6) - float32(d5*d4)
	if va <= 0 && d4-d3 >= 0 && d5-d6 >= 0 {
		return b.Add(Scale(c.Sub(b), (d4-d3)/((d4-d3)+(d5-d6))))
	}
	den := 1 / (va + vb + vc)
	return a.Add(Scale(ab, float32(vb*den))).Add(Scale(ac, float32(vc*den)))
}
