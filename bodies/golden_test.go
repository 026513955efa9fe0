package bodies_test

import (
	"github.com/drape3d/drape/internal/checks"
	"github.com/drape3d/drape/internal/vecmath"
	"math"
	"testing"

	"github.com/drape3d/drape/bodies"
	"github.com/drape3d/drape/cloth"
	"github.com/drape3d/drape/hair"
	"github.com/drape3d/drape/verlet3d"
	"github.com/go-gl/mathgl/mgl32"
)

// cubeScene drops a tumbling pile of cubes on a floor and throws one.
func cubeScene(t *testing.T, workers int) (*verlet3d.World, *bodies.System) {
	w, s := newWorld(t, func(c *verlet3d.Config) { c.Workers = workers })
	floor(t, s, mgl32.Vec3{0, 1, 0}, 0.6)
	tumblingPile(t, s)
	return w, s
}

// tumblingPile adds twelve cubes of 0.3 m to s, turned and spinning, one
// above another in a staggered column 4 m high.
func tumblingPile(t *testing.T, s *bodies.System) {
	for i := 0; i < 12; i++ {
		addCube(t, s, bodies.CubeSettings{Size: 0.3, Mass: 1 + float32(i%3),
			Position:        mgl32.Vec3{float32(float32(i%4)*0.25) - 0.4, 0.3 + float32(float32(i)*0.35), float32(float32(i%3) * 0.2)},
			Rotation:        vecmath.QuatAxisAngle(float32(float32(i)*0.7), vecmath.Normalize(mgl32.Vec3{1, 1, 0})),
			AngularVelocity: mgl32.Vec3{0, float32(i % 5), 1}})
	}
}

// Determinism golden of cubes falling, stacking, being thrown, and one
// dragged by a corner through the pile (a held cube is kept out of the
// floor and turns about its corner, on every worker's range of cubes).
func TestGoldenCubes(t *testing.T) {
	checks.Golden(t, "cubes", 240, func(workers, steps int) []mgl32.Vec3 {
		w, s := cubeScene(t, workers)
		defer w.Close()
		held := s.Corners(5)[0]
		var at mgl32.Vec3
		for i := 0; i < steps; i++ {
			switch {
			case i == 120:
				if err := s.Throw(0, mgl32.Vec3{30, 5, 0}, mgl32.Vec3{0, 8, 0}); err != nil {
					t.Fatal(err)
				}
			case i == 140:
				at = w.Position(held)
			case i > 140 && i < 200:
				at = at.Add(mgl32.Vec3{0.02, -0.01, 0})
				w.DragTo(held, at)
			case i == 200:
				w.Release(held)
			}
			w.Step()
		}
		return w.Positions()
	})
}

// Determinism golden of everything in one World: cubes under a
// tablecloth in wind, and hair on a head beside them.
func TestGoldenMixed(t *testing.T) {
	checks.Golden(t, "mixed", 180, func(workers, steps int) []mgl32.Vec3 {
		w, _ := cubeScene(t, workers)
		defer w.Close()
		cs := cloth.DefaultSettings()
		cs.Cols, cs.Rows, cs.Spacing, cs.Mass = 16, 16, 0.08, 0.4
		cs.Origin, cs.Down = mgl32.Vec3{-0.6, 2.5, -0.6}, mgl32.Vec3{0, 0, 1}
		g, err := cloth.New(w, cs)
		if err != nil {
			t.Fatal(err)
		}
		ws := cloth.DefaultWindSettings()
		ws.Air = verlet3d.Wind{Steady: mgl32.Vec3{3, 0, 0}, Turbulence: 1, TurbulenceScale: 0.5}
		if _, err := cloth.NewWindForce(g, ws); err != nil {
			t.Fatal(err)
		}
		head := hair.DefaultHead()
		head.Center = mgl32.Vec3{2, 1.6, 0}
		hs := hair.DefaultSettings()
		hs.Strands = 60
		h, err := hair.New(w, head, hs)
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i < steps; i++ {
			q := vecmath.QuatAxisAngle(float32(0.4*math.Sin(float64(i)/20)), mgl32.Vec3{0, 1, 0})
			if err := h.SetHead(head.Center, q); err != nil {
				t.Fatal(err)
			}
			w.Step()
		}
		return w.Positions()
	})
}

// Determinism golden of PoseEngine crates: a tumbling pile lands, one is
// thrown through it, one is grabbed and dragged, and a cloth falls over
// them. The positions are the cloth's particles and each crate's center
// and rotation.
func TestGoldenPose(t *testing.T) {
	checks.Golden(t, "pose", 240, func(workers, steps int) []mgl32.Vec3 {
		w, s := poseWorld(t, workers, 0.6)
		tumblingPile(t, s)
		cs := cloth.DefaultSettings()
		cs.Cols, cs.Rows, cs.Spacing, cs.Mass, cs.Radius = 16, 16, 0.08, 0.4, 0.01
		cs.Origin, cs.Down = mgl32.Vec3{-0.6, 2.5, -0.6}, mgl32.Vec3{0, 0, 1}
		if _, err := cloth.New(w, cs); err != nil {
			t.Fatal(err)
		}
		var at mgl32.Vec3
		for i := 0; i < steps; i++ {
			switch {
			case i == 120:
				if err := s.Throw(0, mgl32.Vec3{30, 5, 0}, mgl32.Vec3{0, 8, 0}); err != nil {
					t.Fatal(err)
				}
			case i == 140:
				p, _ := s.Transform(5)
				at = p
				if err := s.Grab(5, at); err != nil {
					t.Fatal(err)
				}
			case i > 140 && i < 200:
				at = at.Add(mgl32.Vec3{0.02, 0.01, 0})
				s.DragTo(5, at)
			case i == 200:
				s.Release(5)
			}
			w.Step()
		}
		out := append([]mgl32.Vec3(nil), w.Positions()...)
		for c := 0; c < s.NumCubes(); c++ {
			p, q := s.Transform(bodies.Cube(c))
			out = append(out, p, q.V, mgl32.Vec3{q.W})
		}
		return out
	})
}
