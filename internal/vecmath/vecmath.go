// Package vecmath holds the small vector helpers drape's packages share:
// finiteness tests and the closest point on a segment. It is internal: a
// game uses mgl32 for its own maths.
package vecmath

import (
	"math"

	"github.com/go-gl/mathgl/mgl32"
)

// expMask selects a float32's exponent bits: all set means Inf or NaN.
const expMask = 0x7f800000

// Finite32 reports whether f is a finite number.
func Finite32(f float32) bool { return math.Float32bits(f)&expMask != expMask }

// Finite reports whether every component of v is a finite number. It tests
// the three exponents without branches: the NaN guard runs it per particle.
func Finite(v mgl32.Vec3) bool {
	a := math.Float32bits(v[0]) & expMask
	b := math.Float32bits(v[1]) & expMask
	c := math.Float32bits(v[2]) & expMask
	return a != expMask && b != expMask && c != expMask
}

// ClosestOnSegment returns the point of segment a-b closest to x.
func ClosestOnSegment(a, b, x mgl32.Vec3) mgl32.Vec3 {
	ab := b.Sub(a)
	l2 := ab.Dot(ab)
	if l2 < 1e-18 {
		return a
	}
	t := x.Sub(a).Dot(ab) / l2
	if t < 0 {
		t = 0
	} else if t > 1 {
		t = 1
	}
	return a.Add(ab.Mul(t))
}
