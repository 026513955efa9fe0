package cloth_test

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/drape3d/drape/cloth"
	"github.com/drape3d/drape/verlet3d"
	"github.com/go-gl/mathgl/mgl32"
)

// trampoline is a 1 m square cloth, 21 x 21 particles 5 cm apart, lying
// flat at height 1 m with its border pinned, and one free particle (50 g,
// a crate's corner) over the middle of a cell, where no cloth particle
// is, at height y moving at velocity v.
func trampoline(t *testing.T, y float32, v mgl32.Vec3) (*verlet3d.World, *cloth.Grid, verlet3d.Particle) {
	w := newWorld(t, nil)
	s := cloth.DefaultSettings()
	s.Cols, s.Rows, s.Spacing = 21, 21, 0.05
	s.Origin = mgl32.Vec3{-0.5, 1, -0.5}
	s.Across, s.Down = mgl32.Vec3{1, 0, 0}, mgl32.Vec3{0, 0, 1}
	s.Radius = 0.005
	g := newGrid(t, w, s)
	g.PinWhere(func(r, c int) bool { return r == 0 || c == 0 || r == 20 || c == 20 })
	p, err := w.AddParticle(mgl32.Vec3{0.025, y, 0.025}, 0.05)
	if err != nil {
		t.Fatal(err)
	}
	w.SetVelocity(p, v)
	return w, g, p
}

// heightOver returns how far p is above the cloth surface under it: its
// height minus the bilinear blend of the four cloth particles of the cell
// it is over (cell 10,10 to 11,11, where it starts).
func heightOver(w *verlet3d.World, g *cloth.Grid, p verlet3d.Particle) float32 {
	x := w.Position(p)
	c00, c01 := w.Position(g.Particle(10, 10)), w.Position(g.Particle(10, 11))
	c10, c11 := w.Position(g.Particle(11, 10)), w.Position(g.Particle(11, 11))
	u := (x[0] - c00[0]) / (c01[0] - c00[0])
	v := (x[2] - c00[2]) / (c10[2] - c00[2])
	u, v = min(max(u, 0), 1), min(max(v, 0), 1)
	surf := float32((1-u)*(1-v)*c00[1]) + float32(u*(1-v)*c01[1]) + float32((1-u)*v*c10[1]) + float32(u*v*c11[1])
	return x[1] - surf
}

// A corner dropped, or thrown down at up to 25 m/s, onto a cloth between
// its particles lands on it and comes to rest on top, Thickness above the
// surface; one thrown up
// from below stays below. Without the SurfaceCollision the same corner
// falls through.
func TestSurfaceCollisionHoldsPoints(t *testing.T) {
	const th = 0.01
	for _, c := range []struct {
		name  string
		y     float32
		v     mgl32.Vec3
		below bool
	}{
		{"dropped from 30 cm", 1.3, mgl32.Vec3{}, false},
		{"thrown down at 15 m/s", 1.2, mgl32.Vec3{0, -15, 0}, false},
		{"thrown down at 25 m/s", 1.2, mgl32.Vec3{0, -25, 0}, false},
		{"thrown up from below at 4 m/s", 0.7, mgl32.Vec3{0, 4, 0}, true},
	} {
		for _, with := range []bool{true, false} {
			t.Run(fmt.Sprintf("%s/collision %v", c.name, with), func(t *testing.T) {
				w, g, p := trampoline(t, c.y, c.v)
				var sc *cloth.SurfaceCollision
				if with {
					var err error
					if sc, err = cloth.NewSurfaceCollision(g, []verlet3d.Particle{p}, th); err != nil {
						t.Fatal(err)
					}
				}
				worst := float32(math.Inf(1))
				contacts := 0
				for i := 0; i < 120; i++ {
					w.Step()
					h := heightOver(w, g, p)
					if c.below {
						h = -h
					}
					worst = min(worst, h)
					if sc != nil {
						contacts = max(contacts, sc.NumContacts())
					}
				}
				final := heightOver(w, g, p)
				sag := 1 - w.Position(g.Particle(10, 10))[1]
				t.Logf("lowest height on its side %.4f m, final %.4f m, cloth sag %.3f m, %d contacts at most, %d resets",
					worst, final, sag, contacts, w.Stats().NonFiniteResets)
				if !with {
					if worst > 0 {
						t.Errorf("without a SurfaceCollision the point stayed on its side (%.3f m): the test measures nothing", worst)
					}
					return
				}
				// At the deepest of a fast impact the point (45 times a
				// cloth particle's mass) dents the cloth, and the blend of
				// the cell's four particles is only an estimate of the
				// surface under it: a dip of up to a Thickness below the
				// blend is allowed so long as the point ends on top. (Slow
				// contacts weigh the cloth by its true mass, so that
				// crates resting on a cloth do not push it about.)
				if worst < -th {
					t.Errorf("the point went %.4f m below the surface on its side (through it?), want no deeper than %.4f", -worst, th)
				}
				if n := w.Stats().NonFiniteResets; n != 0 {
					t.Errorf("%d non-finite resets", n)
				}
				if !c.below && (final < 0.5*th || final > 2*th) {
					t.Errorf("at rest the point is %.4f m above the cloth, want about %.3f", final, th)
				}
			})
		}
	}
}

// Checking contacts and pushing allocates nothing once warm.
func TestSurfaceCollisionAllocations(t *testing.T) {
	w, g, p := trampoline(t, 1.1, mgl32.Vec3{})
	if _, err := cloth.NewSurfaceCollision(g, []verlet3d.Particle{p}, 0.01); err != nil {
		t.Fatal(err)
	}
	run(w, 0.5)
	if a := testing.AllocsPerRun(20, w.Step); a != 0 {
		t.Errorf("%v allocations per step", a)
	}
}

// Bad input is an error naming the value.
func TestSurfaceCollisionBadInput(t *testing.T) {
	w, g, p := trampoline(t, 1.1, mgl32.Vec3{})
	for _, c := range []struct {
		name   string
		points []verlet3d.Particle
		th     float32
		want   string
	}{
		{"zero thickness", []verlet3d.Particle{p}, 0, "thickness = 0"},
		{"NaN thickness", []verlet3d.Particle{p}, float32(math.NaN()), "thickness = NaN"},
		{"thick as a wall", []verlet3d.Particle{p}, 2, "thickness = 2"},
		{"no such particle", []verlet3d.Particle{p, 9999}, 0.01, "points[1] = 9999"},
		{"a cloth particle", []verlet3d.Particle{g.Particle(3, 3)}, 0.01, "particle of the cloth itself"},
	} {
		sc, err := cloth.NewSurfaceCollision(g, c.points, c.th)
		if err == nil || !strings.Contains(err.Error(), c.want) || sc != nil {
			t.Errorf("%s: got %v, %v; want an error containing %q", c.name, sc, err, c.want)
		}
	}
	_ = w
}

// A point between two layers of one cloth, within the thickness of both,
// is on the front of the one below and the back of the one above: each
// contact keeps its own side, and the point stays between them. (Holding
// the point on one side of every triangle shoves it through one layer.)
// The cloth is pinned: its first 10 rows lie flat at height 1 m, front up,
// and its last 10 turn round (a half turn about the vertical, so their
// front faces up too) and lie 3 cm above.
func TestSurfaceCollisionBetweenLayers(t *testing.T) {
	w := newWorld(t, func(c *verlet3d.Config) { c.Gravity = mgl32.Vec3{} })
	s := cloth.DefaultSettings()
	s.Cols, s.Rows, s.Spacing = 11, 21, 0.05
	s.Across, s.Down = mgl32.Vec3{1, 0, 0}, mgl32.Vec3{0, 0, 1}
	s.Radius = 0.005
	g := newGrid(t, w, s)
	g.PinWhere(func(int, int) bool { return true })
	for r := 0; r < 21; r++ {
		for c := 0; c < 11; c++ {
			x, z := float32(float32(c)*0.05), float32(float32(r)*0.05)
			if r > 10 {
				x, z = 0.5-x, 0.5-float32(float32(r-11)*0.05)
			}
			y := float32(1)
			if r > 10 {
				y = 1.03
			}
			w.SetPosition(g.Particle(r, c), mgl32.Vec3{x, y, z})
		}
	}
	p, err := w.AddParticle(mgl32.Vec3{0.275, 1.015, 0.225}, 0.05)
	if err != nil {
		t.Fatal(err)
	}
	w.SetVelocity(p, mgl32.Vec3{0.1, 0, 0.05})
	sc, err := cloth.NewSurfaceCollision(g, []verlet3d.Particle{p}, 0.02)
	if err != nil {
		t.Fatal(err)
	}
	lo, hi := float32(math.Inf(1)), float32(math.Inf(-1))
	for i := 0; i < 60; i++ {
		w.Step()
		y := w.Position(p)[1]
		lo, hi = min(lo, y), max(hi, y)
	}
	t.Logf("height %.4f..%.4f m, %d contacts, %d resets", lo, hi, sc.NumContacts(), w.Stats().NonFiniteResets)
	if lo <= 1 || hi >= 1.03 {
		t.Errorf("the point went to %.4f..%.4f m, want between the layers (1, 1.03)", lo, hi)
	}
}
