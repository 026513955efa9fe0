package vecmath

import (
	"math"

	"github.com/go-gl/mathgl/mgl32"
)

// The functions below compute what the mgl32 method or function of the
// same name computes, operation for operation and in the same order, with
// every product rounded before it is added (internal/checks/nofma): a
// compiler that fuses multiply-adds (arm64, amd64 at GOAMD64=v3) fuses
// mgl32's own methods where drape calls them, and then a World steps to
// other bits there than on a processor that does not fuse. drape's
// physics packages call these instead of mgl32's Dot, Cross, Len, LenSqr,
// Normalize and the quaternion and matrix products; Add, Sub and Mul by a
// scalar have no sum of products and stay mgl32's. On a processor that
// does not fuse, the results are mgl32's bit for bit.

// Dot is mgl32.Vec3.Dot: a·b.
func Dot(a, b mgl32.Vec3) float32 {
	return float32(a[0]*b[0]) + float32(a[1]*b[1]) + float32(a[2]*b[2])
}

// LenSqr is mgl32.Vec3.LenSqr: |v|².
func LenSqr(v mgl32.Vec3) float32 {
	return float32(v[0]*v[0]) + float32(v[1]*v[1]) + float32(v[2]*v[2])
}

// Len is mgl32.Vec3.Len: |v|.
func Len(v mgl32.Vec3) float32 {
	return float32(math.Sqrt(float64(float32(v[0]*v[0]) + float32(v[1]*v[1]) + float32(v[2]*v[2]))))
}

// Normalize is mgl32.Vec3.Normalize: v / |v| (through 1/|v|).
func Normalize(v mgl32.Vec3) mgl32.Vec3 {
	l := 1.0 / Len(v)
	return mgl32.Vec3{float32(v[0] * l), float32(v[1] * l), float32(v[2] * l)}
}

// Cross is mgl32.Vec3.Cross: a × b.
func Cross(a, b mgl32.Vec3) mgl32.Vec3 {
	return mgl32.Vec3{float32(a[1]*b[2]) - float32(a[2]*b[1]), float32(a[2]*b[0]) - float32(a[0]*b[2]), float32(a[0]*b[1]) - float32(a[1]*b[0])}
}

// QuatMul is mgl32.Quat.Mul: the product p·q, the rotation q followed by p.
func QuatMul(p, q mgl32.Quat) mgl32.Quat {
	c := Cross(p.V, q.V)
	return mgl32.Quat{
		W: float32(p.W*q.W) - Dot(p.V, q.V),
		V: mgl32.Vec3{
			c[0] + float32(q.V[0]*p.W) + float32(p.V[0]*q.W),
			c[1] + float32(q.V[1]*p.W) + float32(p.V[1]*q.W),
			c[2] + float32(q.V[2]*p.W) + float32(p.V[2]*q.W),
		},
	}
}

// QuatRotate is mgl32.Quat.Rotate: v turned by the unit quaternion q,
// v + 2w (q×v) + 2q × (q×v).
func QuatRotate(q mgl32.Quat, v mgl32.Vec3) mgl32.Vec3 {
	c := Cross(q.V, v)
	w2 := float32(2 * q.W)
	d := Cross(mgl32.Vec3{float32(q.V[0] * 2), float32(q.V[1] * 2), float32(q.V[2] * 2)}, c)
	return mgl32.Vec3{
		v[0] + float32(c[0]*w2) + d[0],
		v[1] + float32(c[1]*w2) + d[1],
		v[2] + float32(c[2]*w2) + d[2],
	}
}

// QuatDot is mgl32.Quat.Dot.
func QuatDot(p, q mgl32.Quat) float32 {
	return float32(p.W*q.W) + float32(p.V[0]*q.V[0]) + float32(p.V[1]*q.V[1]) + float32(p.V[2]*q.V[2])
}

// QuatLen is mgl32.Quat.Len.
func QuatLen(q mgl32.Quat) float32 {
	return float32(math.Sqrt(float64(float32(q.W*q.W) + float32(q.V[0]*q.V[0]) + float32(q.V[1]*q.V[1]) + float32(q.V[2]*q.V[2]))))
}

// QuatNormalize is mgl32.Quat.Normalize: q unchanged when its length is 1
// within mgl32.Epsilon, the identity when it is 0.
func QuatNormalize(q mgl32.Quat) mgl32.Quat {
	length := QuatLen(q)
	if mgl32.FloatEqual(1, length) {
		return q
	}
	if length == 0 {
		return mgl32.QuatIdent()
	}
	if length == mgl32.InfPos {
		length = mgl32.MaxValue
	}
	inv := 1 / length
	return mgl32.Quat{W: q.W * 1 / length, V: mgl32.Vec3{float32(q.V[0] * inv), float32(q.V[1] * inv), float32(q.V[2] * inv)}}
}

// QuatInverse is mgl32.Quat.Inverse: the conjugate over |q|².
func QuatInverse(q mgl32.Quat) mgl32.Quat {
	s := 1 / QuatDot(q, q)
	return mgl32.Quat{W: float32(q.W * s), V: mgl32.Vec3{float32(q.V[0] * -1 * s), float32(q.V[1] * -1 * s), float32(q.V[2] * -1 * s)}}
}

// QuatMat4 is mgl32.Quat.Mat4: the rotation matrix of the unit quaternion q.
func QuatMat4(q mgl32.Quat) mgl32.Mat4 {
	w, x, y, z := q.W, q.V[0], q.V[1], q.V[2]
	return mgl32.Mat4{
		1 - float32(2*y*y) - float32(2*z*z), float32(2*x*y) + float32(2*w*z), float32(2*x*z) - float32(2*w*y), 0,
		float32(2*x*y) - float32(2*w*z), 1 - float32(2*x*x) - float32(2*z*z), float32(2*y*z) + float32(2*w*x), 0,
		float32(2*x*z) + float32(2*w*y), float32(2*y*z) - float32(2*w*x), 1 - float32(2*x*x) - float32(2*y*y), 0,
		0, 0, 0, 1,
	}
}

// quatScale is mgl32.Quat.Scale.
func quatScale(q mgl32.Quat, c float32) mgl32.Quat {
	return mgl32.Quat{W: float32(q.W * c), V: mgl32.Vec3{float32(q.V[0] * c), float32(q.V[1] * c), float32(q.V[2] * c)}}
}

// quatNlerp is mgl32.QuatNlerp: q + (r - q) t, normalized.
func quatNlerp(q, r mgl32.Quat, t float32) mgl32.Quat {
	return QuatNormalize(mgl32.Quat{
		W: q.W + float32((r.W-q.W)*t),
		V: mgl32.Vec3{q.V[0] + float32((r.V[0]-q.V[0])*t), q.V[1] + float32((r.V[1]-q.V[1])*t), q.V[2] + float32((r.V[2]-q.V[2])*t)},
	})
}

// QuatSlerp is mgl32.QuatSlerp: the rotation a share t of the way from q
// to r along the shorter arc (normalized linear steps when they are within
// acos(0.9995) of each other).
func QuatSlerp(q, r mgl32.Quat, t float32) mgl32.Quat {
	q, r = QuatNormalize(q), QuatNormalize(r)
	dot := QuatDot(q, r)
	if dot < 0.0 {
		r = quatScale(r, -1)
		dot = -dot
	}
	if dot > 0.9995 {
		return quatNlerp(q, r, t)
	}
	dot = mgl32.Clamp(dot, -1, 1)
	theta := float32(float32(math.Acos(float64(dot))) * t)
	sn, cs := math.Sincos(float64(theta))
	s, c := float32(sn), float32(cs)
	rel := QuatNormalize(r.Sub(quatScale(q, dot)))
	return quatScale(q, c).Add(quatScale(rel, s))
}

// QuatBetweenVectors is mgl32.QuatBetweenVectors: the shortest rotation
// that turns the direction of start into that of dest.
func QuatBetweenVectors(start, dest mgl32.Vec3) mgl32.Quat {
	start = Normalize(start)
	dest = Normalize(dest)
	epsilon := float32(0.001)
	cosTheta := Dot(start, dest)
	if cosTheta < -1.0+epsilon {
		// Opposite directions: any axis square to start will do.
		axis := Cross(mgl32.Vec3{1, 0, 0}, start)
		if Dot(axis, axis) < epsilon {
			axis = Cross(mgl32.Vec3{0, 1, 0}, start)
		}
		return QuatAxisAngle(math.Pi, Normalize(axis))
	}
	axis := Cross(start, dest)
	s := float32(math.Sqrt(float64(float64(1.0+cosTheta) * 2.0)))
	return mgl32.Quat{W: float32(s * 0.5), V: Scale(axis, 1.0/s)}
}

// Mat3Mul3 is mgl32.Mat3.Mul3: the matrix product a·b (column-major).
func Mat3Mul3(a, b mgl32.Mat3) mgl32.Mat3 {
	var m mgl32.Mat3
	for c := range 3 {
		for r := range 3 {
			m[3*c+r] = float32(a[r]*b[3*c]) + float32(a[3+r]*b[3*c+1]) + float32(a[6+r]*b[3*c+2])
		}
	}
	return m
}

// Scale is mgl32.Vec3.Mul: v·s. Its products are rounded where they are
// made, so one that is later added cannot fuse with the addition (a
// compiler fuses across statements and inlined calls).
func Scale(v mgl32.Vec3, s float32) mgl32.Vec3 {
	return mgl32.Vec3{float32(v[0] * s), float32(v[1] * s), float32(v[2] * s)}
}

// QuatScale is mgl32.Quat.Scale: every component times c.
func QuatScale(q mgl32.Quat, c float32) mgl32.Quat {
	return mgl32.Quat{W: float32(q.W * c), V: mgl32.Vec3{float32(q.V[0] * c), float32(q.V[1] * c), float32(q.V[2] * c)}}
}

// QuatConjugate is mgl32.Quat.Conjugate: the vector part times -1.
func QuatConjugate(q mgl32.Quat) mgl32.Quat {
	return mgl32.Quat{W: q.W, V: mgl32.Vec3{float32(q.V[0] * -1), float32(q.V[1] * -1), float32(q.V[2] * -1)}}
}

// QuatAxisAngle is mgl32.QuatRotate: the turn by angle radians about the
// unit axis.
func QuatAxisAngle(angle float32, axis mgl32.Vec3) mgl32.Quat {
	sn, cs := math.Sincos(float64(angle / 2))
	s, c := float32(sn), float32(cs)
	return mgl32.Quat{W: c, V: mgl32.Vec3{float32(axis[0] * s), float32(axis[1] * s), float32(axis[2] * s)}}
}

// Mat4ToQuat is mgl32.Mat4ToQuat: the unit quaternion of the rotation
// matrix m, from the trace when it is positive, else from the largest
// diagonal entry.
func Mat4ToQuat(m mgl32.Mat4) mgl32.Quat {
	if tr := m[0] + m[5] + m[10]; tr > 0 {
		s := float32(0.5 / math.Sqrt(float64(tr+1.0)))
		return mgl32.Quat{W: 0.25 / s, V: mgl32.Vec3{float32((m[6] - m[9]) * s), float32((m[8] - m[2]) * s), float32((m[1] - m[4]) * s)}}
	}
	if m[0] > m[5] && m[0] > m[10] {
		s := float32(2.0 * math.Sqrt(float64(1.0+m[0]-m[5]-m[10])))
		return mgl32.Quat{W: (m[6] - m[9]) / s, V: mgl32.Vec3{float32(0.25 * s), (m[4] + m[1]) / s, (m[8] + m[2]) / s}}
	}
	if m[5] > m[10] {
		s := float32(2.0 * math.Sqrt(float64(1.0+m[5]-m[0]-m[10])))
		return mgl32.Quat{W: (m[8] - m[2]) / s, V: mgl32.Vec3{(m[4] + m[1]) / s, float32(0.25 * s), (m[9] + m[6]) / s}}
	}
	s := float32(2.0 * math.Sqrt(float64(1.0+m[10]-m[0]-m[5])))
	return mgl32.Quat{W: (m[1] - m[4]) / s, V: mgl32.Vec3{(m[8] + m[2]) / s, (m[9] + m[6]) / s, float32(0.25 * s)}}
}
