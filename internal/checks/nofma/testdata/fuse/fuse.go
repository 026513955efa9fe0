// Package fuse holds the cases of nofma's tests: each line that Check
// must report ends in a comment "want" and the finding's kind.
package fuse

import "github.com/go-gl/mathgl/mgl32"

type meters float32

func cases(x, y, z float32, d float64, v, w mgl32.Vec3, q mgl32.Quat, m meters) (float32, float64) {
	a := x*y + z      // want product
	b := z - x*y      // want product
	c := -(x * y) + z // want product
	e := x * y        // want product
	f := float32(x*y) + z
	g := x * y * z   // want product
	h := (x * y) / z // the quotient is judged, not the product
	k := x / 2       // want product
	l := x / 3       // a division by 3 stays a division
	if x*y < z {     // a comparison does not add
		a += x * y // want product
	}
	e *= z // want mulassign
	e /= z
	dd := d*d + 1  // want product
	_ = v.Dot(w)   // want mgl32
	_ = v.Cross(w) // want mgl32
	_ = v.Len()    // want mgl32
	_ = v.Add(w)
	_ = v.Sub(w)
	_ = v.Mul(x)    // want mgl32
	_ = q.Rotate(v) // want mgl32
	_ = m * m       // want product
	const two = 2 * 3.5
	_ = two + x
	return a + b + c + e + f + g + h + k + l, dd
}
