package hair_test

import (
	"github.com/drape3d/drape/internal/checks"
	"github.com/drape3d/drape/internal/vecmath"
	"math"
	"testing"

	"github.com/drape3d/drape/hair"
	"github.com/drape3d/drape/verlet3d"
	"github.com/go-gl/mathgl/mgl32"
)

// Determinism golden of hair on a head that turns, nods and walks in
// gusty wind, with neck and shoulder colliders.
func TestGoldenHair(t *testing.T) {
	checks.Golden(t, "hair", 240, func(workers, steps int) []mgl32.Vec3 {
		r := newRig(t, func(s *hair.Settings) { s.Strands = 120 }, workers)
		defer r.w.Close()
		if err := r.h.SetWind(verlet3d.Wind{Steady: mgl32.Vec3{6, 0, 2}, Gust: 0.5, GustPeriod: 2, Turbulence: 2, TurbulenceScale: 0.5}); err != nil {
			t.Fatal(err)
		}
		c0 := r.h.Head().Center
		for i := 0; i < steps; i++ {
			tm := float64(i) / 60
			q := vecmath.QuatMul(vecmath.QuatAxisAngle(float32(0.5*math.Sin(float64(2*math.Pi*tm))), mgl32.Vec3{0, 1, 0}), vecmath.QuatAxisAngle(float32(0.3*math.Sin(float64(2*math.Pi*1.5*tm))), mgl32.Vec3{1, 0, 0}))
			if err := r.h.SetHead(c0.Add(mgl32.Vec3{0, 0, float32(1.5 * tm)}), q); err != nil {
				t.Fatal(err)
			}
			r.w.Step()
		}
		return r.w.Positions()
	})
}
