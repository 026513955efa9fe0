package verlet3d_test

import (
	"math"
	"testing"

	"github.com/drape3d/drape/internal/vecmath"
	"github.com/drape3d/drape/verlet3d"
	"github.com/go-gl/mathgl/mgl32"
)

// Any finite frame time follows one rule: whole steps beyond the cap are
// dropped, Alpha stays in [0, 1), and a huge frame leaves the World as
// usable as before (the next ordinary frames run one step each).
func TestAdvanceFrameTimeRule(t *testing.T) {
	for _, tc := range []struct {
		name     string
		timeStep float32
		cap      int
		frames   []float32
	}{
		{"a 1e20 s frame", 1.0 / 60, 4, []float32{1.0 / 60, 1e20, 1.0 / 60, 1.0 / 60}},
		{"the largest float32", 1.0 / 60, 4, []float32{math.MaxFloat32, math.MaxFloat32, 1.0 / 60}},
		{"TimeStep 0.096", 0.096, 4, []float32{0.1, 0.05, 0.25, 0.096, 0.192}},
		{"a 0.25 s hitch, cap 3", 1.0 / 60, 3, []float32{1.0 / 60, 0.25, 1.0 / 60, 0.25, 1.0 / 60}},
		{"tiny frames", 1.0 / 60, 4, []float32{1e-30, 0, 1e-7, 1.0 / 60}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := verlet3d.DefaultConfig()
			cfg.TimeStep, cfg.MaxStepsPerFrame = tc.timeStep, tc.cap
			w, err := verlet3d.NewWorld(cfg)
			if err != nil {
				t.Fatal(err)
			}
			p, _ := w.AddParticle(mgl32.Vec3{0, 10, 0}, 1)
			var buf []mgl32.Vec3
			for i, f := range tc.frames {
				n := w.Advance(f)
				if n < 0 || n > tc.cap {
					t.Fatalf("frame %d (%g s): %d steps, want 0..%d", i, f, n, tc.cap)
				}
				if a := w.Alpha(); !(a >= 0 && a < 1) {
					t.Fatalf("frame %d (%g s): Alpha %v, want [0, 1)", i, f, a)
				}
				buf = w.Interpolated(buf)
				if !vecmath.Finite(buf[p]) || !vecmath.Finite(w.Position(p)) {
					t.Fatalf("frame %d (%g s): position %v, interpolated %v", i, f, w.Position(p), buf[p])
				}
			}
			if d := w.Stats().DroppedSteps; d < 0 {
				t.Errorf("DroppedSteps = %d, want >= 0 (saturating)", d)
			}
			// After any of that, an ordinary frame runs one step.
			before := w.Stats().Steps
			w.Advance(tc.timeStep)
			if got := w.Stats().Steps - before; got < 1 || got > 2 {
				t.Errorf("an ordinary frame after the sequence ran %d steps, want 1 (or 2 with a leftover)", got)
			}
		})
	}
}

// Settings that would make Advance hang or divide by nothing are refused.
func TestFrameSettingsLimits(t *testing.T) {
	for _, edit := range []func(*verlet3d.Config){
		func(c *verlet3d.Config) { c.TimeStep = 1e-45 },
		func(c *verlet3d.Config) { c.TimeStep = 1e-6 },
		func(c *verlet3d.Config) { c.MaxStepsPerFrame = 1 << 30 },
	} {
		c := verlet3d.DefaultConfig()
		edit(&c)
		if _, err := verlet3d.NewWorld(c); err == nil {
			t.Errorf("config %+v accepted", c)
		}
	}
}

// A long frame spreads kinematic motion over its steps: a pin given a
// target 1 m away before a frame of 4 steps moves a quarter of the way per
// step, instead of the whole way in the first step and not at all after.
func TestLongFrameSpreadsKinematicMotion(t *testing.T) {
	w, err := verlet3d.NewWorld(verlet3d.DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	pin, _ := w.AddParticle(mgl32.Vec3{}, 0)
	var seen []float32
	w.AddForceField(recordX{pin, &seen})
	w.SetTarget(pin, mgl32.Vec3{1, 0, 0})
	if n := w.Advance(4.0 / 60); n != 4 {
		t.Fatalf("%d steps, want 4", n)
	}
	// The pin's position at each substep start: evenly spaced over the
	// frame's 4 steps of Substeps each.
	n := float32(4 * w.Config().Substeps)
	if len(seen) != int(n) {
		t.Fatalf("%d substeps seen, want %v", len(seen), n)
	}
	for i, x := range seen {
		if want := float32(i) / n; math.Abs(float64(x-want)) > 1e-6 {
			t.Errorf("substep %d: pin at x = %v, want %v", i, x, want)
		}
	}
	if x := w.Position(pin)[0]; x != 1 {
		t.Errorf("pin at x = %v after the frame, want 1", x)
	}
}

type recordX struct {
	p    verlet3d.Particle
	seen *[]float32
}

func (r recordX) Apply(w *verlet3d.World, _ verlet3d.Substep) {
	*r.seen = append(*r.seen, w.Position(r.p)[0])
}
