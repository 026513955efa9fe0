package verlet3d

import (
	"math/rand"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
)

// A box that is not turned skips the rotations into and out of its frame:
// the same closest points and normals as through them (== treats -0 and
// +0 alike, the only difference a rotation by the identity makes), for
// points outside, inside, on faces, edges and corners, near the origin
// and far from it.
func TestBoxAlignedClosest(t *testing.T) {
	rng := rand.New(rand.NewSource(5))
	for i := 0; i < 200000; i++ {
		far := []float32{0, 1, 1000}[i%3]
		b := Box{
			Center:      mgl32.Vec3{float32((rng.Float32() - 0.5) * far), float32(rng.Float32() * far), float32(-rng.Float32() * far)},
			HalfExtents: mgl32.Vec3{0.01 + rng.Float32(), 0.01 + rng.Float32(), 0.01 + rng.Float32()},
			Rotation:    mgl32.QuatIdent(),
		}
		var x mgl32.Vec3
		for k := 0; k < 3; k++ {
			switch rng.Intn(4) {
			case 0: // on a face, edge or corner plane
				x[k] = b.Center[k] + float32(b.HalfExtents[k]*float32(rng.Intn(3)-1))
			case 1: // the center's coordinate
				x[k] = b.Center[k]
			default:
				x[k] = b.Center[k] + float32((rng.Float32()-0.5)*4*b.HalfExtents[k])
			}
		}
		p1, n1 := b.closest(x, true)
		p2, n2 := b.closest(x, false)
		if p1 != p2 || n1 != n2 {
			t.Fatalf("box %+v, point %v: aligned %v %v, turned by the identity %v %v", b, x, p1, n1, p2, n2)
		}
		if q, m := b.Closest(x); q != p1 || m != n1 {
			t.Fatalf("box %+v, point %v: Closest %v %v, want the aligned %v %v", b, x, q, m, p1, n1)
		}
	}
}
