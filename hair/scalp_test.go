package hair_test

import (
	"github.com/drape3d/drape/internal/vecmath"
	"math"
	"testing"

	"github.com/drape3d/drape/hair"
	"github.com/drape3d/drape/verlet3d"
	"github.com/go-gl/mathgl/mgl32"
)

// A scalp that is not round: a head sphere of 0.08 m inside an ellipsoid
// scalp 0.12 m wide, 0.10 m tall. The roots sit on the scalp, the rest
// shape lies over it, and values of Scalp that are not distances (NaN,
// negative, 1e30 m) count as the sphere.
func TestScalp(t *testing.T) {
	ellipsoid := func(d mgl32.Vec3) float32 {
		x, y, z := d[0]/0.12, d[1]/0.10, d[2]/0.12
		return 1 / float32(math.Sqrt(float64(float32(x*x)+float32(y*y)+float32(z*z))))
	}
	for _, c := range []struct {
		name  string
		scalp func(mgl32.Vec3) float32
		want  func(mgl32.Vec3) float32
	}{
		{"ellipsoid", ellipsoid, ellipsoid},
		{"NaN", func(mgl32.Vec3) float32 { return float32(math.NaN()) }, nil},
		{"negative", func(mgl32.Vec3) float32 { return -1 }, nil},
		{"1e30 m", func(mgl32.Vec3) float32 { return 1e30 }, nil},
		{"inside the sphere", func(mgl32.Vec3) float32 { return 0.05 }, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			w, err := verlet3d.NewWorld(hair.WorldConfig())
			if err != nil {
				t.Fatal(err)
			}
			defer w.Close()
			head := hair.DefaultHead()
			head.Radius = 0.08
			s := hair.DefaultSettings()
			s.Strands = 300
			s.Scalp = c.scalp
			h, err := hair.New(w, head, s)
			if err != nil {
				t.Fatal(err)
			}
			var worst, under float32
			for i := 0; i < h.NumStrands(); i++ {
				root := h.RestLocal(i, 0)
				want := head.Radius
				if c.want != nil {
					want = max(want, c.want(vecmath.Normalize(root)))
				}
				worst = max(worst, float32(math.Abs(float64(vecmath.Len(root)-want))))
				for j := 1; j <= s.Segments; j++ {
					p := h.RestLocal(i, j)
					floor := head.Radius
					if c.want != nil {
						floor = max(floor, c.want(vecmath.Normalize(p)))
					}
					under = max(under, floor-vecmath.Len(p))
				}
			}
			t.Logf("roots off the scalp %.2g m; rest shape under it by %.2g m at most", worst, under)
			if worst > 1e-5 {
				t.Errorf("a root %.3g m off the scalp, want on it", worst)
			}
			if under > 1e-5 {
				t.Errorf("the rest shape %.3g m under the scalp, want over it", under)
			}
			for i := 0; i < 60; i++ {
				w.Step()
			}
			first, n := h.Particles()
			for k := 0; k < n; k++ {
				if p := w.Position(first + verlet3d.Particle(k)); !(vecmath.Len(p) < 10) {
					t.Fatalf("particle %d at %v", k, p)
				}
			}
		})
	}
}
