package draped_test

import (
	"github.com/drape3d/drape/internal/vecmath"
	"math"
	"testing"

	"github.com/drape3d/drape/bodies"
	"github.com/drape3d/drape/internal/draped"
	"github.com/drape3d/drape/verlet3d"
	"github.com/go-gl/mathgl/mgl32"
)

// insideBy returns how deep x lies inside cube c (negative: outside), m.
func insideBy(sys *bodies.System, c bodies.Cube, x mgl32.Vec3) float32 {
	p, q := sys.Transform(c)
	l := vecmath.QuatRotate(vecmath.QuatConjugate(q), x.Sub(p))
	h := float32(sys.Size(c) / 2)
	d := float32(math.MaxFloat32)
	for k := 0; k < 3; k++ {
		d = min(d, h-float32(math.Abs(float64(l[k]))))
	}
	return d
}

// TestPoseScene runs the demo's crates and tablecloth with PoseEngine
// crates at DefaultConfig with the demo's SettleDamping 3 (Config) for 17
// s: no cloth particle inside a crate by more than the cloth's radius, no
// crate travelling on the cloth once it has settled, and the whole scene
// asleep by 15 s.
func TestPoseScene(t *testing.T) {
	w, err := verlet3d.NewWorld(draped.Config())
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	sc, err := draped.BuildPose(w, 30, 5)
	if err != nil {
		t.Fatal(err)
	}
	sys := sc.System
	const r = 0.015 // the tablecloth's particle radius
	worst, worstAt := float32(-1), 0
	var at10 []mgl32.Vec3
	asleep := -1.0
	for i := 0; i < 17*60; i++ {
		w.Step()
		if i%6 == 0 {
			for c := 0; c < sys.NumCubes(); c++ {
				for _, x := range w.Positions() {
					if d := insideBy(sys, bodies.Cube(c), x); d > worst {
						worst, worstAt = d, i
					}
				}
			}
		}
		if i+1 == 10*60 {
			for c := 0; c < sys.NumCubes(); c++ {
				at10 = append(at10, sys.Position(bodies.Cube(c)))
			}
		}
		if w.Sleeping() && asleep < 0 {
			asleep = float64(i+1) / 60
		}
		if !w.Sleeping() {
			asleep = -1
		}
	}
	if worst > r {
		t.Errorf("a cloth particle lay %.4f m inside a crate (frame %d), want at most the cloth's radius %.3f m", worst, worstAt, r)
	}
	for c := 0; c < sys.NumCubes(); c++ {
		if d := vecmath.Len(sys.Position(bodies.Cube(c)).Sub(at10[c])); d > 0.01 {
			t.Errorf("crate %d travelled %.3f m between 10 and 17 s", c, d)
		}
	}
	if asleep < 0 || asleep > 15 {
		t.Errorf("the scene is asleep from %.2f s (-1: not at 17 s), want by 15 s", asleep)
	}
	t.Logf("deepest particle %.4f m (frame %d); asleep from %.2f s", worst, worstAt, asleep)
}

// TestPoseSceneSameBits: the scene gives the same bits on 1 and 2 workers.
func TestPoseSceneSameBits(t *testing.T) {
	var got [2][]mgl32.Vec3
	for k, workers := range []int{1, 2} {
		cfg := verlet3d.DefaultConfig()
		cfg.Workers = workers
		w, err := verlet3d.NewWorld(cfg)
		if err != nil {
			t.Fatal(err)
		}
		sc, err := draped.BuildPose(w, 30, 5)
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i < 150; i++ {
			w.Step()
		}
		got[k] = append(got[k], w.Positions()...)
		for c := 0; c < sc.System.NumCubes(); c++ {
			p, q := sc.System.Transform(bodies.Cube(c))
			got[k] = append(got[k], p, q.V)
		}
		w.Close()
	}
	for i := range got[0] {
		if got[0][i] != got[1][i] {
			t.Fatalf("value %d differs between 1 and 2 workers: %v and %v", i, got[0][i], got[1][i])
		}
	}
}
