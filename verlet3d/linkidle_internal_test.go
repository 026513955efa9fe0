package verlet3d

import (
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
)

// Idle links (setLinksIdle, which bodies uses for the links of an asleep
// cube) are not solved, with or without the link kernel, whether they
// fill whole groups of eight or share a group with solved links; made
// busy again they are solved as before. 40 links between separate pairs
// of particles, each stretched to twice its rest length, one step with
// no gravity: the solved links pull their pairs in, the idle ones leave
// theirs where they were.
func TestIdleLinksAreSkipped(t *testing.T) {
	for _, kernels := range []bool{true, false} {
		cfg := DefaultConfig()
		cfg.Gravity = mgl32.Vec3{}
		w, err := NewWorld(cfg)
		if err != nil {
			t.Fatal(err)
		}
		w.run.noKernels = !kernels
		const n = 40
		var links [n]Link
		for i := range links {
			a, _ := w.AddParticle(mgl32.Vec3{float32(i), 0, 0}, 1)
			b, _ := w.AddParticle(mgl32.Vec3{float32(i), 0.2, 0}, 1)
			l, err := w.AddLink(a, b, LinkSettings{Rest: 0.1})
			if err != nil {
				t.Fatal(err)
			}
			links[i] = l
		}
		idle := func(l Link) bool { return l < 16 || l == 21 || l == 30 }
		for l := Link(0); l < n; l++ {
			if idle(l) {
				w.SetLinksIdle(l, 1, true)
			}
		}
		w.Step()
		for _, l := range links {
			got := w.LinkStrain(l)
			if idle(l) && got != 1 {
				t.Errorf("kernels %v: idle link %d moved its particles: strain %v, want 1", kernels, l, got)
			}
			if !idle(l) && math.Abs(float64(got)) > 1e-3 {
				t.Errorf("kernels %v: link %d left at strain %v, want 0", kernels, l, got)
			}
		}
		w.SetLinksIdle(0, n, false)
		w.Step()
		for _, l := range links {
			if got := w.LinkStrain(l); math.Abs(float64(got)) > 1e-3 {
				t.Errorf("kernels %v: link %d, busy again, left at strain %v, want 0", kernels, l, got)
			}
		}
	}
}

// With every link idle (a World of cubes alone, which bodies keeps so),
// a step solves no link pass at all and, on two workers, dispatches none;
// one link made busy again brings the passes back and is solved. 2,450
// links between separate pairs, enough to be split into regions.
func TestAllLinksIdleRunNoPass(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Gravity = mgl32.Vec3{}
	cfg.Workers = 2
	w, err := NewWorld(cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	const n = 2450
	for i := 0; i < n; i++ {
		x := mgl32.Vec3{float32(float32(i%50) * 0.5), 0, float32(float32(i/50) * 0.5)}
		a, _ := w.AddParticle(x, 1)
		b, _ := w.AddParticle(x.Add(mgl32.Vec3{0, 0.2, 0}), 1)
		if _, err := w.AddLink(a, b, LinkSettings{Rest: 0.1}); err != nil {
			t.Fatal(err)
		}
	}
	w.Step()
	passes := w.Stats().ParallelLinkPasses
	if passes == 0 {
		t.Fatal("no link pass ran on the two workers: the test proves nothing")
	}
	w.SetLinksIdle(0, n, true)
	w.Step()
	if got := w.Stats().ParallelLinkPasses; got != passes {
		t.Errorf("all links idle: %d link passes ran, want none", got-passes)
	}
	for _, lam := range w.links.lambda {
		if lam != 0 {
			t.Fatalf("all links idle: a multiplier left at %v, want 0 as a first pass leaves it", lam)
		}
	}
	w.SetLinksIdle(7, 1, false)
	// Stretch it and an idle one again: the first step pulled them in.
	for _, l := range []Link{7, 8} {
		a, b := w.LinkParticles(l)
		w.SetPosition(b, w.Position(a).Add(mgl32.Vec3{0, 0.2, 0}))
	}
	w.Step()
	if got := w.Stats().ParallelLinkPasses; got == passes {
		t.Error("one link busy again: no link pass ran")
	}
	if s := w.LinkStrain(7); math.Abs(float64(s)) > 1e-3 {
		t.Errorf("the busy link left at strain %v, want 0", s)
	}
	if s := w.LinkStrain(8); s < 0.99 {
		t.Errorf("an idle link moved: strain %v, want 1", s)
	}
}
