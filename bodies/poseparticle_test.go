package bodies_test

import (
	"github.com/drape3d/drape/internal/vecmath"
	"testing"

	"github.com/drape3d/drape/bodies"
	"github.com/drape3d/drape/cloth"
	"github.com/drape3d/drape/verlet3d"
	"github.com/go-gl/mathgl/mgl32"
)

// flatCloth lays an n x n cloth of side m, radius r and mass kg flat at
// height y, centered over x, z.
func flatCloth(t *testing.T, w *verlet3d.World, n int, side, r, mass float32, at mgl32.Vec3, pin func(row, col int) bool) *cloth.Grid {
	t.Helper()
	cs := cloth.DefaultSettings()
	cs.Cols, cs.Rows = n, n
	cs.Spacing = side / float32(n-1)
	cs.Mass = mass
	cs.Origin = at.Sub(mgl32.Vec3{float32(side / 2), 0, float32(side / 2)})
	cs.Down = mgl32.Vec3{0, 0, 1}
	cs.Radius = r
	cs.Pin = pin
	g, err := cloth.New(w, cs)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// insideBy returns how deep the point x lies inside cube c (negative:
// outside), m.
func insideBy(sys *bodies.System, c bodies.Cube, x mgl32.Vec3) float32 {
	p, q := sys.Transform(c)
	l := vecmath.QuatRotate(vecmath.QuatConjugate(q), x.Sub(p))
	h := float32(sys.Size(c) / 2)
	d := float32(1e9)
	for k := 0; k < 3; k++ {
		m := h - abs(l[k])
		d = min(d, m)
	}
	return d
}

func abs(x float32) float32 {
	if x < 0 {
		return -x
	}
	return x
}

func TestPoseClothDrapesCrate(t *testing.T) {
	w, sys := poseWorld(t, 1, 0.6)
	crate := addCube(t, sys, bodies.CubeSettings{Size: 0.5, Mass: 20, Position: mgl32.Vec3{0, 0.25, 0}})
	const r = 0.01
	flatCloth(t, w, 24, 1.2, r, 0.3, mgl32.Vec3{0.05, 0.8, -0.03}, nil)
	start := sys.Position(crate)
	worst := float32(-1)
	for i := 0; i < 240; i++ {
		w.Step()
		if i > 60 {
			for _, x := range w.Positions() {
				worst = max(worst, insideBy(sys, crate, x)-r)
			}
		}
	}
	if worst > r {
		t.Errorf("a cloth particle is %.4f m inside the crate, want under its radius %.3f", worst, r)
	}
	if d := vecmath.Len(sys.Position(crate).Sub(start)); d > 0.005 {
		t.Errorf("the crate moved %.4f m under the cloth draped over it, want under 5 mm", d)
	}
	// The cloth rests on the crate's top: its middle, the particle
	// nearest the crate's vertical axis, is there. (The highest particle
	// over the top is not the measure: a fold of the cloth's excess can
	// lie on the cloth.)
	top, near := float32(-1), float32(1e9)
	for _, x := range w.Positions() {
		if d := float32(x[0]*x[0]) + float32(x[2]*x[2]); d < near {
			top, near = x[1], d
		}
	}
	t.Logf("the cloth's middle lies at %.4f m", top)
	if top < 0.5 || top > 0.5+3*r {
		t.Errorf("the cloth's middle lies at %.4f m, want on the crate's top (0.5 m) within a few radii", top)
	}
}

func TestPoseCrateOnClothOnFloor(t *testing.T) {
	w, sys := poseWorld(t, 1, 0.6)
	const r = 0.01
	flatCloth(t, w, 20, 1.5, r, 0.5, mgl32.Vec3{0, r, 0}, nil)
	crate := addCube(t, sys, bodies.CubeSettings{Size: 0.4, Mass: 8, Position: mgl32.Vec3{0.1, 0.6, 0.05},
		Rotation: vecmath.QuatAxisAngle(0.3, mgl32.Vec3{0, 1, 0})})
	asleep := -1.0
	for i := 0; i < 600; i++ {
		w.Step()
		if w.Sleeping() && asleep < 0 {
			asleep = float64(i+1) / 60
		}
	}
	y := sys.Position(crate)[1]
	if y < 0.2 || y > 0.2+4*r {
		t.Errorf("the crate rests at y = %.4f m on cloth on the floor, want its half size 0.2 m plus the cloth (under %.3f)", y, 0.2+4*r)
	}
	if asleep < 0 || asleep > 5 {
		t.Errorf("the World sleeps at %.2f s (-1: never in 10 s), want within 5 s", asleep)
	}
	t.Logf("crate at %.4f m, World asleep at %.2f s", y, asleep)
}

func TestPoseClothHoldsCrate(t *testing.T) {
	w, sys := poseWorld(t, 1, 0.6)
	const n, r = 24, 0.01
	corner := func(row, col int) bool { return (row == 0 || row == n-1) && (col == 0 || col == n-1) }
	flatCloth(t, w, n, 1.2, r, 0.5, mgl32.Vec3{0, 1, 0}, corner)
	crate := addCube(t, sys, bodies.CubeSettings{Size: 0.3, Mass: 2, Position: mgl32.Vec3{0, 1.4, 0}})
	poseRun(w, 4)
	y := sys.Position(crate)[1]
	if y < 0.4 {
		t.Errorf("a crate dropped on a cloth hung by its corners 1 m up fell to %.3f m: the cloth does not hold it", y)
	}
	var low float32 = 10
	for _, x := range w.Positions() {
		low = min(low, x[1])
	}
	if low > 0.98 {
		t.Errorf("the cloth's lowest point is %.3f m: the crate does not push it down", low)
	}
	t.Logf("crate at %.3f m, cloth's lowest point %.3f m", y, low)
}
