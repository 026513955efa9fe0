package bodies

import (
	"math"

	"github.com/go-gl/mathgl/mgl32"
)

// Orientation recovery.
//
// A cube's corners in its own frame are r_i = h·s_i with s_i in {-1, 1}³.
// The moment matrix A = Σ (x_i - c) s_iᵀ of the world corners x_i about
// their mean c equals 8h·R for a rigid cube turned by R; its column k is
// four times the vector from the mean of the -k face to the mean of the +k
// face, so orthonormalising A is the "face average" method. Its rotational
// part, the polar decomposition, is the shape-matching rotation: the
// rotation that best fits the corners in the least-squares sense, whatever
// contacts did to the cube's shape.
//
// The polar rotation is found with the iteration of Müller, Bender, Chentanez
// and Macklin, "A Robust Method to Extract the Rotational Part of
// Deformations" (MIG 2016): starting from a guess q, turn q about
// ω = Σ r_k × a_k / |Σ r_k·a_k| (r_k, a_k the columns of R(q) and A) until ω
// vanishes. It never fails on a flat or inverted A: it simply keeps the last
// rotation, which is what a squashed cube should do. Warm-started from the
// previous step's rotation it converges in one or two passes.

// mat3d is a 3x3 matrix in float64, column major like mgl32: m[col][row].
type mat3d [3][3]float64

// moment returns the moment matrix A of the corners (see above) and their
// mean, in float64.
func moment(pos []mgl32.Vec3, corners *[8]int32) (a mat3d, c [3]float64) {
	var x [8][3]float64
	for i, p := range corners {
		q := pos[p]
		x[i] = [3]float64{float64(q[0]), float64(q[1]), float64(q[2])}
		c[0] += x[i][0]
		c[1] += x[i][1]
		c[2] += x[i][2]
	}
	c[0] /= 8
	c[1] /= 8
	c[2] /= 8
	for i := range x {
		for k := 0; k < 3; k++ {
			s := -1.0
			if i>>uint(k)&1 == 1 {
				s = 1
			}
			a[k][0] += float64(s * (x[i][0] - c[0]))
			a[k][1] += float64(s * (x[i][1] - c[1]))
			a[k][2] += float64(s * (x[i][2] - c[2]))
		}
	}
	return a, c
}

// quatd is a unit quaternion in float64: w + (x, y, z).
type quatd struct{ w, x, y, z float64 }

func (q quatd) mat() mat3d {
	w, x, y, z := q.w, q.x, q.y, q.z
	return mat3d{
		{1 - float64(2*(float64(y*y)+float64(z*z))), float64(2 * (float64(x*y) + float64(w*z))), float64(2 * (float64(x*z) - float64(w*y)))},
		{float64(2 * (float64(x*y) - float64(w*z))), 1 - float64(2*(float64(x*x)+float64(z*z))), float64(2 * (float64(y*z) + float64(w*x)))},
		{float64(2 * (float64(x*z) + float64(w*y))), float64(2 * (float64(y*z) - float64(w*x))), 1 - float64(2*(float64(x*x)+float64(y*y)))},
	}
}

func (q quatd) mul(p quatd) quatd {
	return quatd{
		float64(q.w*p.w) - float64(q.x*p.x) - float64(q.y*p.y) - float64(q.z*p.z),
		float64(q.w*p.x) + float64(q.x*p.w) + float64(q.y*p.z) - float64(q.z*p.y),
		float64(q.w*p.y) - float64(q.x*p.z) + float64(q.y*p.w) + float64(q.z*p.x),
		float64(q.w*p.z) + float64(q.x*p.y) - float64(q.y*p.x) + float64(q.z*p.w),
	}
}

func (q quatd) normalize() quatd {
	n2 := float64(q.w*q.w) + float64(q.x*q.x) + float64(q.y*q.y) + float64(q.z*q.z)
	if d := n2 - 1; d > -1e-6 && d < 1e-6 {
		// Near unit length (every turn within a step): one Newton step
		// for 1/√n2, (3 - n2)/2, off by 3(n2 - 1)²/8 at most (4e-13),
		// without a square root or a division.
		f := 1.5 - float64(0.5*n2)
		return quatd{float64(q.w * f), float64(q.x * f), float64(q.y * f), float64(q.z * f)}
	}
	l := math.Sqrt(n2)
	if l < 1e-300 || math.IsNaN(l) {
		return quatd{w: 1}
	}
	il := 1 / l
	return quatd{float64(q.w * il), float64(q.x * il), float64(q.y * il), float64(q.z * il)}
}

func toQuatd(q mgl32.Quat) quatd {
	return quatd{float64(q.W), float64(q.V[0]), float64(q.V[1]), float64(q.V[2])}.normalize()
}

func (q quatd) quat() mgl32.Quat {
	// Keep W >= 0 so that equal rotations compare equal.
	if q.w < 0 {
		q = quatd{-q.w, -q.x, -q.y, -q.z}
	}
	return mgl32.Quat{W: float32(q.w), V: mgl32.Vec3{float32(q.x), float32(q.y), float32(q.z)}}
}

// turned returns q turned by the angle |θ| about θ = (x, y, z), in
// radians, normalised. Small turns (a substep's spin, a solve's
// correction) use the series of cos and sin, within 3e-11 of them below
// 0.01 rad.
func (q quatd) turned(x, y, z float64) quatd {
	ang2 := float64(x*x) + float64(y*y) + float64(z*z)
	if ang2 == 0 {
		return q
	}
	var c, s float64
	if ang2 < 1e-4 {
		c, s = 1-float64(ang2/8), 0.5-ang2/48
	} else {
		ang := math.Sqrt(ang2)
		c, s = math.Cos(float64(ang/2)), math.Sin(float64(ang/2))/ang
	}
	return quatd{c, float64(x * s), float64(y * s), float64(z * s)}.mul(q).normalize()
}

// polarRotation refines the guess q toward the rotational part of a, with
// at most maxIter passes; it stops once the correction is below 1e-7 rad.
// ok is false if the last correction was still above 1e-6 rad: the guess
// was far off and more passes (or a fresh guess) are needed.
func polarRotation(a mat3d, q quatd, maxIter int) (_ quatd, ok bool) {
	for it := 0; it < maxIter; it++ {
		r := q.mat()
		var ox, oy, oz, den float64
		for k := 0; k < 3; k++ {
			rk, ak := r[k], a[k]
			ox += float64(rk[1]*ak[2]) - float64(rk[2]*ak[1])
			oy += float64(rk[2]*ak[0]) - float64(rk[0]*ak[2])
			oz += float64(rk[0]*ak[1]) - float64(rk[1]*ak[0])
			den += float64(rk[0]*ak[0]) + float64(rk[1]*ak[1]) + float64(rk[2]*ak[2])
		}
		den = math.Abs(den) + 1e-12
		ox, oy, oz = ox/den, oy/den, oz/den
		ang2 := float64(ox*ox) + float64(oy*oy) + float64(oz*oz)
		if ang2 < 1e-14 || math.IsNaN(ang2) { // 1e-7 rad: float32 resolution
			return q, true
		}
		// Turn q by the angle |ω| about ω (small turns, the warm-started
		// case, skip the trigonometry).
		q = q.turned(ox, oy, oz)
		ang := math.Sqrt(ang2)
		ok = ang < 1e-6
	}
	return q, ok
}

// rotationNear returns the rotational part of the corners' moment a,
// refined from guess in at most maxIter passes; after a jump (World.Reset,
// Teleport), when the guess is too far off for that, it starts again from
// the faces.
func rotationNear(a mat3d, guess quatd, maxIter int) quatd {
	q, ok := polarRotation(a, guess, maxIter)
	if !ok {
		q, _ = polarRotation(a, faceAverage(a), 64)
	}
	return q
}

// faceAverage returns the rotation of the face-average frame of a:
// Gram-Schmidt on its columns (the X axis kept exactly, Y made
// perpendicular, Z their cross product). It is a starting guess for
// polarRotation when no previous rotation is known.
func faceAverage(a mat3d) quatd {
	x := a[0]
	lx := math.Sqrt(float64(x[0]*x[0]) + float64(x[1]*x[1]) + float64(x[2]*x[2]))
	if lx < 1e-12 {
		return quatd{w: 1}
	}
	x = [3]float64{x[0] / lx, x[1] / lx, x[2] / lx}
	y := a[1]
	d := float64(y[0]*x[0]) + float64(y[1]*x[1]) + float64(y[2]*x[2])
	y = [3]float64{y[0] - float64(d*x[0]), y[1] - float64(d*x[1]), y[2] - float64(d*x[2])}
	ly := math.Sqrt(float64(y[0]*y[0]) + float64(y[1]*y[1]) + float64(y[2]*y[2]))
	if ly < 1e-12 {
		return quatd{w: 1}
	}
	y = [3]float64{y[0] / ly, y[1] / ly, y[2] / ly}
	z := [3]float64{float64(x[1]*y[2]) - float64(x[2]*y[1]), float64(x[2]*y[0]) - float64(x[0]*y[2]), float64(x[0]*y[1]) - float64(x[1]*y[0])}
	return matToQuat(mat3d{x, y, z})
}

// matToQuat converts a rotation matrix (columns are the rotated axes).
func matToQuat(m mat3d) quatd {
	// m[c][r]: element (row r, column c).
	m00, m11, m22 := m[0][0], m[1][1], m[2][2]
	tr := m00 + m11 + m22
	var q quatd
	switch {
	case tr > 0:
		s := float64(math.Sqrt(tr+1) * 2)
		q = quatd{float64(0.25 * s), (m[1][2] - m[2][1]) / s, (m[2][0] - m[0][2]) / s, (m[0][1] - m[1][0]) / s}
	case m00 > m11 && m00 > m22:
		s := float64(math.Sqrt(1+m00-m11-m22) * 2)
		q = quatd{(m[1][2] - m[2][1]) / s, float64(0.25 * s), (m[1][0] + m[0][1]) / s, (m[2][0] + m[0][2]) / s}
	case m11 > m22:
		s := float64(math.Sqrt(1+m11-m00-m22) * 2)
		q = quatd{(m[2][0] - m[0][2]) / s, (m[1][0] + m[0][1]) / s, float64(0.25 * s), (m[2][1] + m[1][2]) / s}
	default:
		s := float64(math.Sqrt(1+m22-m00-m11) * 2)
		q = quatd{(m[0][1] - m[1][0]) / s, (m[2][0] + m[0][2]) / s, (m[2][1] + m[1][2]) / s, float64(0.25 * s)}
	}
	return q.normalize()
}

// Orientation recovers the center (m) and rotation of a cube from its eight
// corner positions, ordered as Cube corners are: corner i sits at
// (±1, ±1, ±1)·size/2 in the cube's frame, with bit 0 of i selecting +x,
// bit 1 +y and bit 2 +z. The rotation is the polar (shape-matching) rotation
// of the corners, so it stays well defined when contacts squash the cube.
// It is exact to float32 precision for a rigid cube at any orientation.
func Orientation(corners [8]mgl32.Vec3) (center mgl32.Vec3, rotation mgl32.Quat) {
	idx := [8]int32{0, 1, 2, 3, 4, 5, 6, 7}
	a, c := moment(corners[:], &idx)
	q, _ := polarRotation(a, faceAverage(a), 64)
	return mgl32.Vec3{float32(c[0]), float32(c[1]), float32(c[2])}, q.quat()
}
