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
		w.noKernels = !kernels
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
				w.setLinksIdle(l, 1, true)
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
		w.setLinksIdle(0, n, false)
		w.Step()
		for _, l := range links {
			if got := w.LinkStrain(l); math.Abs(float64(got)) > 1e-3 {
				t.Errorf("kernels %v: link %d, busy again, left at strain %v, want 0", kernels, l, got)
			}
		}
	}
}

// The links joining each particle (links.count, which bodies reads through
// internal/bridge.LinkCounts) stay counted through adding, removing,
// breaking and re-attaching links and a rolled-back constructor.
func TestLinkCountsFollowTheLinks(t *testing.T) {
	w, _ := NewWorld(DefaultConfig())
	var ps []Particle
	for i := 0; i < 10; i++ {
		p, _ := w.AddParticle(mgl32.Vec3{float32(i), 0, 0}, 1)
		ps = append(ps, p)
	}
	check := func(what string) {
		t.Helper()
		want := make([]int32, len(w.pos))
		for l, i := range w.links.slot {
			if i >= 0 {
				a, b := w.LinkParticles(Link(l))
				want[a]++
				want[b]++
			}
		}
		if len(w.links.count) != len(want) {
			t.Fatalf("%s: counts for %d particles, want %d", what, len(w.links.count), len(want))
		}
		for p := range want {
			if w.links.count[p] != want[p] {
				t.Fatalf("%s: particle %d joined by %d links, counted %d", what, p, want[p], w.links.count[p])
			}
		}
	}
	var ls []Link
	for i := 0; i+1 < len(ps); i++ {
		l, _ := w.AddLink(ps[i], ps[i+1], LinkSettings{})
		ls = append(ls, l)
	}
	l, _ := w.AddLink(ps[0], ps[9], LinkSettings{})
	ls = append(ls, l)
	check("added")
	w.RemoveLink(ls[3])
	check("one removed")
	w.BreakLink(ls[5])
	check("one broken")
	w.setLinkParticles(ls[6], ps[2], ps[8])
	check("one re-attached")
	w.Step()
	check("after a step (coloured)")
	m := w.mark()
	q, _ := w.AddParticle(mgl32.Vec3{0, 1, 0}, 1)
	w.AddLink(q, ps[4], LinkSettings{})
	w.AddLink(ps[1], ps[7], LinkSettings{})
	check("a constructor half-way")
	w.rollback(m)
	check("rolled back")
}
