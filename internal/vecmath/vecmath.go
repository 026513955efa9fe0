// Package vecmath holds the small vector helpers drape's packages share:
// finiteness tests, the closest point on a segment, and mgl32's products
// (Dot, Cross, Len, Normalize, Scale for Vec3.Mul, the quaternion and
// matrix products) computed so that no compiler can fuse them into
// multiply-adds (mgl.go). It is internal: a game uses mgl32 for its own
// maths.
//
// Hot loops in drape work on an mgl32.Vec3 component by component,
// through pointers, rather than with its methods or as a whole value: Go
// keeps a [3]float32 in memory and copies it in an 8-byte and a 4-byte
// move, so a Vec3 written a component at a time and then read whole (a
// method call on it, a Vec3 or [4]Vec3 literal copied, a value returned)
// waits a dozen cycles for the stores to land. The operations stay those
// of mgl32, in its order, so the results keep their bits. BENCHMARKS.md
// ("Go code") gives what the stall costs; package bodies has its own note
// in moveRigidly.
package vecmath

import (
	"math"

	"github.com/go-gl/mathgl/mgl32"
)

// expMask selects a float32's exponent bits: all set means Inf or NaN.
const expMask = 0x7f800000

// Rotation returns the rotation q stands for by drape's rule (package
// verlet3d, "Rotations"): the identity when q is no longer than 1e-6 (the
// zero quaternion included), else q at unit length as mgl32's Normalize
// gives it (QuatNormalize).
func Rotation(q mgl32.Quat) mgl32.Quat { return QuatNormalize(OrIdentity(q)) }

// OrIdentity returns q, or the identity when q is no longer than 1e-6 (the
// zero quaternion included): Rotation for a caller that uses q as it is
// given (a unit quaternion) and must not round it again.
func OrIdentity(q mgl32.Quat) mgl32.Quat {
	if !(QuatLen(q) > 1e-6) {
		return mgl32.QuatIdent()
	}
	return q
}

// FiniteQuat reports whether every component of q is a finite number.
func FiniteQuat(q mgl32.Quat) bool { return Finite32(q.W) && Finite(q.V) }

// Clamp01 returns x limited to [0, 1], and 0 for NaN.
func Clamp01(x float32) float32 {
	if x < 0 || x != x {
		return 0
	}
	if x > 1 {
		return 1
	}
	return x
}

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
func ClosestOnSegment(a, b, x mgl32.Vec3) (q mgl32.Vec3) {
	ClosestOnSegmentTo(&q, &a, &b, &x)
	return q
}

// ClosestOnSegmentTo sets q to the point of segment a-b closest to x,
// component by component through pointers (see the package doc), with
// ClosestOnSegment's arithmetic.
func ClosestOnSegmentTo(q, a, b, x *mgl32.Vec3) {
	abx, aby, abz := b[0]-a[0], b[1]-a[1], b[2]-a[2]
	l2 := float32(abx*abx) + float32(aby*aby) + float32(abz*abz)
	if l2 < 1e-18 {
		q[0], q[1], q[2] = a[0], a[1], a[2]
		return
	}
	t := (float32((x[0]-a[0])*abx) + float32((x[1]-a[1])*aby) + float32((x[2]-a[2])*abz)) / l2
	if t < 0 {
		t = 0
	} else if t > 1 {
		t = 1
	}
	q[0], q[1], q[2] = a[0]+float32(abx*t), a[1]+float32(aby*t), a[2]+float32(abz*t)
}

// Sweep is the continuous collision test of a particle of radius r that
// moved from a to b and ends dEnd from the surface of a convex shape whose
// closest surface point and outward normal closest returns. It advances
// along the path by the distance to the surface (conservative advancement:
// closest gives the exact distance outside a convex shape, so a step of
// that length cannot jump into it) and reports the surface point and
// normal where the path first comes within r of the shape. A contact plane
// there holds the particle on the side it came from. A start within the
// tolerance of the surface, inside or out, touches it: a particle a
// contact held on the surface last substep sits there only to float
// rounding, a hair inside as often as outside. It reports no hit when a
// starts deeper inside (the end position decides then) and ignores dEnd
// when b is inside.
func Sweep(closest func(mgl32.Vec3) (mgl32.Vec3, mgl32.Vec3), a, b mgl32.Vec3, r, dEnd, margin float32) (surface, normal mgl32.Vec3, hit bool) {
	path := b.Sub(a)
	l := Len(path)
	// The signed distance changes by at most l along the path: if b is
	// farther than r + l, no point of the path came within r.
	if !(l > 0) || dEnd >= r+l {
		return surface, normal, false
	}
	tol := SweepTolerance(margin)
	t := float32(0)
	for range 32 {
		q := a.Add(Scale(path, t/l))
		s, n := closest(q)
		d := Dot(q.Sub(s), n) - r
		if d < -tol && t == 0 {
			return surface, normal, false
		}
		if d <= tol {
			return s, n, true
		}
		if t += d; t >= l {
			return surface, normal, false
		}
	}
	return surface, normal, false
}

// SweepTolerance is how close to r Sweep counts a point of the path as
// touching, for a contact margin in meters.
func SweepTolerance(margin float32) float32 { return max(1e-5, float32(0.25*margin)) }

// Shape is a convex collision shape: the surface point closest to x and the
// outward normal there.
type Shape interface {
	Closest(x mgl32.Vec3) (surface, normal mgl32.Vec3)
}

// PathContact is the contact of a particle of radius r that moved from a
// to b this substep with shape c, margin meters early: the plane (surface
// point and outward normal) that holds it, and whether it needs one. A
// particle that ends within r + margin of the surface gets the plane at its
// closest point, or, after a move longer than r + margin, where its path
// came in (the nearest face of a thin shape may be the far one); one that
// ends clear gets a plane only if its path crossed the shape (Sweep).
func PathContact(c Shape, a, b mgl32.Vec3, r, margin float32) (surface, normal mgl32.Vec3, ok bool) {
	reach := r + margin
	surface, normal = c.Closest(b)
	if d := Dot(b.Sub(surface), normal); d >= reach {
		return Sweep(c.Closest, a, b, r, d, margin)
	} else if LenSqr(b.Sub(a)) > reach*reach {
		if s, n, hit := Sweep(c.Closest, a, b, r, d, margin); hit {
			return s, n, true
		}
	}
	return surface, normal, true
}
