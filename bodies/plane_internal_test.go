package bodies

import (
	"math/rand"
	"testing"

	"github.com/drape3d/drape/internal/vecmath"
	"github.com/drape3d/drape/verlet3d"
	"github.com/go-gl/mathgl/mgl32"
)

// planeContact gives PathContact's answer, bit for bit, for corners that
// end near a floor or a tilted plane, far from it, or after a long move,
// near the origin and 5 km out.
func TestPlaneContactMatchesPathContact(t *testing.T) {
	r := rand.New(rand.NewSource(3))
	f := func(s float32) float32 { return float32((float32(2*r.Float32()) - 1) * s) }
	for i := 0; i < 200000; i++ {
		normal := mgl32.Vec3{0, 1, 0}
		if i%2 == 1 {
			normal = mgl32.Vec3{f(1), 1, f(1)}
		}
		far := float32(1)
		if i%3 == 0 {
			far = 5000
		}
		pl, err := verlet3d.NewPlane(mgl32.Vec3{f(far), f(far), f(far)}, normal)
		if err != nil {
			t.Fatal(err)
		}
		margin := []float32{0, 0.001, 0.01, 0.05}[i%4]
		b := pl.Point.Add(mgl32.Vec3{f(1), 0, f(1)}).Add(vecmath.Scale(pl.Normal, f(0.03)))
		move := []float32{0, 0.001, 0.02, 0.3}[(i/4)%4]
		a := b.Add(mgl32.Vec3{f(move), f(move), f(move)})
		s1, n1, ok1 := planeContact(pl, &a, &b, margin)
		s2, n2, ok2 := vecmath.PathContact(pl, a, b, 0, margin)
		if s1 != s2 || n1 != n2 || ok1 != ok2 {
			t.Fatalf("%d: plane %v %v, path %v -> %v, margin %v: planeContact %v %v %v, PathContact %v %v %v", i, pl.Point, pl.Normal, a, b, margin, s1, n1, ok1, s2, n2, ok2)
		}
	}
}
