package cloth_test

import (
	"github.com/drape3d/drape/internal/checks"
	"testing"

	"github.com/drape3d/drape/cloth"
	"github.com/drape3d/drape/verlet3d"
	"github.com/go-gl/mathgl/mgl32"
)

// Determinism goldens of the cloth scenes: a tearing flag in turbulent
// wind against a sphere, and a cape on a walking, turning body.
func TestGoldenCloth(t *testing.T) {
	checks.Golden(t, "cloth", 240, func(workers, steps int) []mgl32.Vec3 {
		w := newWorld(t, func(c *verlet3d.Config) { c.Workers = workers })
		defer w.Close()
		s := cloth.DefaultSettings()
		s.Cols, s.Rows, s.Spacing, s.Mass = 20, 14, 0.06, 0.3
		s.Origin = mgl32.Vec3{0, 2, 0}
		s.PinRows, s.PinCols = nil, []int{0}
		s.TearStrain = 0.5
		g := newGrid(t, w, s)
		ws := cloth.DefaultWindSettings()
		ws.Air = verlet3d.Wind{Steady: mgl32.Vec3{20, 0, 2}, Gust: 0.5, GustPeriod: 2, Turbulence: 3, TurbulenceScale: 0.5}
		if _, err := cloth.NewWindForce(g, ws); err != nil {
			t.Fatal(err)
		}
		ball, _ := verlet3d.NewSphere(mgl32.Vec3{0.6, 1.5, 0.3}, 0.25)
		if err := w.AddCollider(ball, verlet3d.ContactSettings{Friction: 0.3}); err != nil {
			t.Fatal(err)
		}
		for i := 0; i < steps; i++ {
			w.Step()
		}
		return w.Positions()
	})
}

func TestGoldenCape(t *testing.T) {
	checks.Golden(t, "cape", 240, func(workers, steps int) []mgl32.Vec3 {
		w := newWorld(t, func(c *verlet3d.Config) { capeConfig(c); c.Workers = workers })
		defer w.Close()
		k := newWalker(t, w)
		c := newCape(t, w, k, nil)
		g := &walk{speed: 1.5, turn: 0.4}
		for i := 0; i < steps; i++ {
			g.step(k, 1.0/60, float32(i)/60)
			c.SetPose(k.ref, k.anchors, k.body)
			w.Step()
		}
		return w.Positions()
	})
}
