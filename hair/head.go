package hair

import (
	"fmt"
	"math"

	"github.com/drape3d/drape/internal/vecmath"

	"github.com/drape3d/drape/verlet3d"
	"github.com/go-gl/mathgl/mgl32"
)

// Head is the pose and size of the head sphere. In the head's own frame +Y
// points to the crown, +Z out of the face and +X to the head's left.
type Head struct {
	// Center is the center of the head sphere in world space, m.
	Center mgl32.Vec3
	// Rotation turns the head's frame into world space (a rotation by
	// package verlet3d's rule: the zero quaternion is the identity).
	Rotation mgl32.Quat
	// Radius of the head sphere in meters, in [1e-3, 100]. Default 0.1.
	Radius float32
}

// DefaultHead returns a head of radius 0.1 m at the origin, facing +Z.
func DefaultHead() Head {
	return Head{Rotation: mgl32.QuatIdent(), Radius: 0.1}
}

// MaxHeadDistance is how far from the World's origin a head may be, in
// meters: float32 positions there are still spaced under 1 mm.
const MaxHeadDistance = 1e4

// Validate reports a non-finite pose or a radius that is not positive.
func (h Head) Validate() error {
	// Hair is centimeters of strand in float32: at 1e6 m positions are
	// spaced 6 cm apart and the strands fall apart (found by FuzzHair).
	// Within MaxHeadDistance they are spaced under 1 mm. Hair.New and
	// SetHead check the head in the World's frame
	// (verlet3d.World.Origin), which follows the hair.
	if !vecmath.Finite(h.Center) || vecmath.Len(h.Center) > MaxHeadDistance {
		return fmt.Errorf("hair: Head.Center = %v, want meters within %g of the origin of the World's frame (verlet3d.World.Origin)", h.Center, float32(MaxHeadDistance))
	}
	if !finite32(h.Radius) || h.Radius < 1e-3 || h.Radius > 100 {
		return fmt.Errorf("hair: Head.Radius = %v, want meters in [1e-3, 100]", h.Radius)
	}
	q := h.Rotation
	if !finite32(q.W) || !vecmath.Finite(q.V) {
		return fmt.Errorf("hair: Head.Rotation = %v, want a finite quaternion", q)
	}
	return nil
}

// rotation returns the unit rotation of h, the identity for a zero one.
func (h Head) rotation() mgl32.Quat { return unitQuat(h.Rotation) }

// unitQuat returns q scaled to unit length, the identity for a zero or
// non-finite q. A finite quaternion longer than float32's range (found by
// FuzzHair) has an infinite float32 length, and scaling by its inverse
// gave a zero rotation: it is scaled down in float64 first. Any other
// keeps the float32 arithmetic it always had.
func unitQuat(q mgl32.Quat) mgl32.Quat {
	l := vecmath.QuatLen(q)
	if math.IsInf(float64(l), 1) {
		w, x, y, z := float64(q.W), float64(q.V[0]), float64(q.V[1]), float64(q.V[2])
		l64 := math.Sqrt(float64(w*w) + float64(x*x) + float64(y*y) + float64(z*z))
		q = mgl32.Quat{W: float32(w / l64), V: mgl32.Vec3{float32(x / l64), float32(y / l64), float32(z / l64)}}
		l = vecmath.QuatLen(q)
	}
	if l > 1e-6 && !math.IsInf(float64(l), 0) {
		return vecmath.QuatScale(q, 1/l)
	}
	return mgl32.QuatIdent()
}

// ToWorld maps a point from the head's frame (meters, relative to the
// center) to world space.
func (h Head) ToWorld(local mgl32.Vec3) mgl32.Vec3 {
	f := h.frame()
	return f.apply(local)
}

// ToLocal maps a world-space point into the head's frame.
func (h Head) ToLocal(world mgl32.Vec3) mgl32.Vec3 {
	f := h.frame()
	return f.toLocal(world)
}

// frame is a head pose as a rotation matrix and translation, for applying
// it to many points.
type frame struct {
	m mgl32.Mat3 // column-major rotation
	c mgl32.Vec3
}

func (h Head) frame() frame {
	return frame{m: vecmath.QuatMat4(h.rotation()).Mat3(), c: h.Center}
}

// toLocal is the inverse of apply.
func (f *frame) toLocal(p mgl32.Vec3) mgl32.Vec3 {
	m := &f.m
	d := p.Sub(f.c)
	return mgl32.Vec3{
		float32(m[0]*d[0]) + float32(m[1]*d[1]) + float32(m[2]*d[2]),
		float32(m[3]*d[0]) + float32(m[4]*d[1]) + float32(m[5]*d[2]),
		float32(m[6]*d[0]) + float32(m[7]*d[1]) + float32(m[8]*d[2]),
	}
}

func (f *frame) apply(p mgl32.Vec3) mgl32.Vec3 {
	m := &f.m
	return mgl32.Vec3{
		float32(m[0]*p[0]) + float32(m[3]*p[1]) + float32(m[6]*p[2]) + f.c[0],
		float32(m[1]*p[0]) + float32(m[4]*p[1]) + float32(m[7]*p[2]) + f.c[1],
		float32(m[2]*p[0]) + float32(m[5]*p[1]) + float32(m[8]*p[2]) + f.c[2],
	}
}

// lerpHead interpolates two poses with verlet3d.LerpPose: center
// linearly, rotation along the shorter arc. t = 1 returns b exactly.
func lerpHead(a, b Head, t float32) Head {
	if t >= 1 {
		return b
	}
	p := verlet3d.LerpPose(verlet3d.Pose{Position: a.Center, Rotation: a.rotation()},
		verlet3d.Pose{Position: b.Center, Rotation: b.rotation()}, t)
	out := b
	out.Center, out.Rotation = p.Position, p.Rotation
	return out
}

func finite32(f float32) bool {
	return !math.IsNaN(float64(f)) && !math.IsInf(float64(f), 0)
}

func sqrt32(x float32) float32 { return float32(math.Sqrt(float64(x))) }
