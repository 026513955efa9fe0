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
		s := cloth.DefaultSettings()
		s.Cols, s.Rows, s.Spacing, s.Mass = 20, 14, 0.06, 0.3
		s.Origin = mgl32.Vec3{0, 2, 0}
		s.PinRows, s.PinCols = nil, []int{0}
		s.TearStrain = 0.5
		air := verlet3d.Wind{Steady: mgl32.Vec3{20, 0, 2}, Gust: 0.5, GustPeriod: 2, Turbulence: 3, TurbulenceScale: 0.5}
		w, _ := gale(t, workers, steps, s, air, mgl32.Vec3{0.6, 1.5, 0.3}, 0.25)
		return w.Positions()
	})
}

// gale steps a World of the given workers with grid s in wind air against
// a ball of radius r at c, steps times, and closes it.
func gale(t *testing.T, workers, steps int, s cloth.Settings, air verlet3d.Wind, c mgl32.Vec3, r float32) (*verlet3d.World, *cloth.Grid) {
	w := newWorld(t, func(c *verlet3d.Config) { c.Workers = workers })
	defer w.Close()
	g := newGrid(t, w, s)
	ws := cloth.DefaultWindSettings()
	ws.Air = air
	if _, err := cloth.NewWindForce(g, ws); err != nil {
		t.Fatal(err)
	}
	ball, _ := verlet3d.NewSphere(c, r)
	if err := w.AddCollider(ball, verlet3d.ContactSettings{Friction: 0.3}); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < steps; i++ {
		w.Step()
	}
	return w, g
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

// A sheet large enough for the World's most link regions (32: about
// 24,000 links over 4,096 particles), torn by a gale and a ball: torn
// vertices are new particles, so the links moved onto them join regions
// far apart, which the workers solve after the others. 1, 2 and 4 workers
// agree bit for bit.
func TestGoldenTornSheet(t *testing.T) {
	checks.Golden(t, "torn_sheet", 240, func(workers, steps int) []mgl32.Vec3 {
		s := cloth.DefaultSettings()
		s.Cols, s.Rows, s.Spacing, s.Mass = 64, 64, 0.03, 0.5
		s.Origin = mgl32.Vec3{0, 2.5, 0}
		s.PinRows, s.PinCols = []int{0}, nil
		s.TearStrain = 0.25
		air := verlet3d.Wind{Steady: mgl32.Vec3{0, 0, 25}, Gust: 0.6, GustPeriod: 1.5, Turbulence: 6, TurbulenceScale: 0.4}
		w, g := gale(t, workers, steps, s, air, mgl32.Vec3{0.95, 1.6, 0.4}, 0.3)
		if n, np := w.NumLinks(), w.NumParticles(); n < 12288 || np < 4096 {
			t.Fatalf("%d links over %d particles: too few for 32 regions", n, np)
		}
		if torn := len(g.Vertices()) - 64*64; torn < 20 {
			t.Fatalf("%d workers: %d vertices torn off, want a torn sheet", workers, torn)
		}
		if st := w.Stats(); workers > 1 && st.ParallelLinkPasses == 0 {
			t.Fatalf("%d workers: no link pass ran in parallel", workers)
		}
		return w.Positions()
	})
}
