package scene_test

import (
	"testing"

	"github.com/drape3d/drape/scene"
	"github.com/drape3d/drape/verlet3d"
	"github.com/go-gl/mathgl/mgl32"
)

func TestDriverRunsHooksAroundFixedSteps(t *testing.T) {
	w, err := verlet3d.NewWorld(verlet3d.DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	p, _ := w.AddParticle(mgl32.Vec3{0, 1, 0}, 1)
	d := scene.NewDriver(w)
	var order []string
	d.BeforeStep(func() { order = append(order, "before") })
	d.AfterStep(func() { order = append(order, "after") })
	steps := 0
	for i := 0; i < 10; i++ {
		steps += d.Update(1.0 / 60)
	}
	if steps != 10 || len(order) != 20 || order[0] != "before" || order[1] != "after" {
		t.Fatalf("10 frames of 1/60 s: %d steps, hooks %v", steps, order)
	}
	// A 2 s stall is capped at MaxFrameTime (0.1 s) and then at the World's
	// MaxStepsPerFrame (4), so it does not try to catch up.
	if n := d.Update(2); n != 4 {
		t.Errorf("stalled frame ran %d steps, want 4", n)
	}
	d.SetPaused(true)
	y := w.Position(p)[1]
	if n := d.Update(1.0 / 60); n != 0 || w.Position(p)[1] != y {
		t.Errorf("paused driver stepped %d times", n)
	}
	d.StepOnce()
	if n := d.Update(0); n != 1 {
		t.Errorf("StepOnce ran %d steps", n)
	}
}
