package verlet3d_test

import (
	"math"
	"testing"

	"github.com/drape3d/drape/internal/checks"
	"github.com/drape3d/drape/verlet3d"
	"github.com/go-gl/mathgl/mgl32"
)

// newWorld returns a World with cfg changed by edit, failing the test on error.
func newWorld(t testing.TB, edit func(*verlet3d.Config)) *verlet3d.World {
	t.Helper()
	cfg := verlet3d.DefaultConfig()
	if edit != nil {
		edit(&cfg)
	}
	w, err := verlet3d.NewWorld(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(w.Close)
	return w
}

func add(t testing.TB, w *verlet3d.World, pos mgl32.Vec3, mass float32) verlet3d.Particle {
	t.Helper()
	p, err := w.AddParticle(pos, mass)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func link(t testing.TB, w *verlet3d.World, a, b verlet3d.Particle, s verlet3d.LinkSettings) verlet3d.Link {
	t.Helper()
	l, err := w.AddLink(a, b, s)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

func within(t *testing.T, name string, got, want, relTol float64) {
	t.Helper()
	if math.Abs(got-want) > relTol*math.Abs(want) {
		t.Errorf("%s = %.5f, want %.5f within %.2g%%", name, got, want, float64(relTol*100))
	} else {
		t.Logf("%s = %.5f (reference %.5f, error %.3f%%)", name, got, want, 100*math.Abs(got-want)/math.Abs(want))
	}
}

// Free fall from rest for 1 s under g = 9.81 drops 4.905 m. Position Verlet
// started with prev = pos overshoots by g·h·t/2: 1.7% at h = 1/60 s, 0.8% at
// the default h = 1/120 s, so the table starts at the default substep.
func TestFreeFall(t *testing.T) {
	for _, sub := range []int{2, 4, 8} {
		w := newWorld(t, func(c *verlet3d.Config) { c.Damping = 0; c.Substeps = sub })
		p := add(t, w, mgl32.Vec3{0, 2, 0}, 1)
		for i := 0; i < 60; i++ {
			w.Step()
		}
		within(t, "drop after 1 s", float64(2-w.Position(p)[1]), 4.905, 0.01)
	}
}

// A rigid 1 m pendulum released at 10 degrees swings with period
// 2π·sqrt(L/g)·(1 + θ²/16) = 2.010 s.
func TestPendulumPeriod(t *testing.T) {
	w := newWorld(t, func(c *verlet3d.Config) { c.Damping = 0; c.TimeStep = 1.0 / 240; c.Substeps = 4 })
	pivot := add(t, w, mgl32.Vec3{0, 0, 0}, 0)
	th := 10 * math.Pi / 180
	bob := add(t, w, mgl32.Vec3{float32(math.Sin(th)), float32(-math.Cos(th)), 0}, 1)
	link(t, w, pivot, bob, verlet3d.LinkSettings{})
	// Count upward zero crossings of x (from negative to positive).
	var crossings []float64
	lastX := w.Position(bob)[0]
	for i := 0; i < 240*12 && len(crossings) < 6; i++ {
		w.Step()
		x := w.Position(bob)[0]
		if lastX < 0 && x >= 0 {
			// Linear interpolation of the crossing time.
			f := float64(-lastX / (x - lastX))
			crossings = append(crossings, w.Time()-(1-f)/240)
		}
		lastX = x
	}
	if len(crossings) < 6 {
		t.Fatalf("only %d crossings", len(crossings))
	}
	within(t, "period over 5 swings", (crossings[5]-crossings[0])/5, 2.010, 0.01)
}

// A 3 m chain of 40 links hung between pins 2 m apart sags 1.005 m
// (catenary a = 0.6165).
func TestCatenarySag(t *testing.T) {
	w := newWorld(t, func(c *verlet3d.Config) {
		c.TimeStep = 1.0 / 120
		c.Substeps = 4
		c.Iterations = 20
		c.Damping = 2
	})
	const n = 40
	seg := float32(3.0 / n)
	ps := make([]verlet3d.Particle, n+1)
	for i := range ps {
		// Start as a straight line from the left pin, slack downward so it
		// settles quickly.
		x := -1 + 2*float32(i)/n
		m := float32(0.075)
		if i == 0 || i == n {
			m = 0
		}
		ps[i] = add(t, w, mgl32.Vec3{x, 0, 0}, m)
	}
	for i := 0; i < n; i++ {
		link(t, w, ps[i], ps[i+1], verlet3d.LinkSettings{Rest: seg})
	}
	for i := 0; i < 120*20; i++ {
		w.Step()
	}
	if s := w.MaxLinkStrain(); s > 0.005 {
		t.Fatalf("links stretched %.3f%%, the reference needs < 0.5%%", float32(s*100))
	}
	within(t, "sag", float64(-w.Position(ps[n/2])[1]), 1.005, 0.02)
}

// A rigid link between two free particles is exact after one pass, so it
// shows whether the solver saw a change of mass made between steps: with a
// stale pinned end it overshoots, with a stale free end it moves a pinned
// particle.
func TestLinkSeesMassChanges(t *testing.T) {
	for _, workers := range []int{1, 2} {
		w := newWorld(t, func(c *verlet3d.Config) {
			c.Substeps, c.Iterations, c.Gravity, c.Workers = 1, 1, mgl32.Vec3{}, workers
		})
		a, _ := w.AddParticle(mgl32.Vec3{0, 0, 0}, 0)
		b, _ := w.AddParticle(mgl32.Vec3{1, 0, 0}, 1)
		l, _ := w.AddLink(a, b, verlet3d.LinkSettings{})
		w.Step()
		if err := w.SetMass(a, 2); err != nil {
			t.Fatal(err)
		}
		w.Unpin(a)
		w.SetPosition(b, mgl32.Vec3{1.5, 0, 0})
		w.Step()
		if s := w.LinkStrain(l); math.Abs(float64(s)) > 1e-5 {
			t.Errorf("workers %d: after SetMass, strain %.2e after one exact pass, want 0", workers, s)
		}
		// The 0.5 m correction splits by inverse mass (0.5 for a, 1 for
		// b): a moves a third of it.
		if got := w.Positions()[a][0]; math.Abs(float64(got)-0.5/3) > 1e-5 {
			t.Errorf("workers %d: a at x = %.5f, want %.5f", workers, got, 0.5/3)
		}
		w.Pin(a)
		w.SetPosition(b, mgl32.Vec3{2, 0, 0})
		at := w.Positions()[a]
		w.Step()
		if got := w.Positions()[a]; got != at {
			t.Errorf("workers %d: pinned a moved from %v to %v", workers, at, got)
		}
		if s := w.LinkStrain(l); math.Abs(float64(s)) > 1e-5 {
			t.Errorf("workers %d: after Pin, strain %.2e after one exact pass, want 0", workers, s)
		}
		w.Close()
	}
}

// SetLinkCompliance acts from the next substep: a very soft link made
// rigid between steps is exact after one pass.
func TestSetLinkComplianceBetweenSteps(t *testing.T) {
	w := newWorld(t, func(c *verlet3d.Config) { c.Substeps, c.Iterations, c.Gravity = 1, 1, mgl32.Vec3{} })
	a, _ := w.AddParticle(mgl32.Vec3{0, 0, 0}, 1)
	b, _ := w.AddParticle(mgl32.Vec3{1, 0, 0}, 1)
	l, _ := w.AddLink(a, b, verlet3d.LinkSettings{Compliance: 1})
	w.SetPosition(b, mgl32.Vec3{1.5, 0, 0})
	w.Step()
	if s := w.LinkStrain(l); s < 0.4 {
		t.Fatalf("a link of compliance 1 m/N pulled 50%% strain to %.1f%% in one pass: not soft", float32(100*s))
	}
	w.SetLinkCompliance(l, 0)
	if c := w.LinkCompliance(l); c != 0 {
		t.Errorf("LinkCompliance = %v after SetLinkCompliance(0)", c)
	}
	w.Step()
	if s := w.LinkStrain(l); math.Abs(float64(s)) > 1e-5 {
		t.Errorf("after SetLinkCompliance(0), strain %.2e after one exact pass, want 0", s)
	}
	checks.ExpectPanic(t, "verlet3d", "SetLinkCompliance(-1)", func() { w.SetLinkCompliance(l, -1) })
}
