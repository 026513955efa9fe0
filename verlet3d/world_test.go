package verlet3d_test

import (
	"github.com/drape3d/drape/internal/checks"
	"github.com/drape3d/drape/internal/vecmath"
	"math"
	"runtime"
	"strings"
	"testing"

	"github.com/drape3d/drape/verlet3d"
	"github.com/go-gl/mathgl/mgl32"
)

var nan = float32(math.NaN())

func TestConfigErrorsNameTheField(t *testing.T) {
	cases := []struct {
		field string
		edit  func(*verlet3d.Config)
	}{
		{"Gravity", func(c *verlet3d.Config) { c.Gravity[1] = nan }},
		{"Damping", func(c *verlet3d.Config) { c.Damping = -1 }},
		{"TimeStep", func(c *verlet3d.Config) { c.TimeStep = 0 }},
		{"TimeStep", func(c *verlet3d.Config) { c.TimeStep = nan }},
		{"Substeps", func(c *verlet3d.Config) { c.Substeps = 0 }},
		{"Iterations", func(c *verlet3d.Config) { c.Iterations = -3 }},
		{"MaxStepsPerFrame", func(c *verlet3d.Config) { c.MaxStepsPerFrame = 0 }},
		{"Workers", func(c *verlet3d.Config) { c.Workers = 0 }},
		{"WorkerSpin", func(c *verlet3d.Config) { c.WorkerSpin = -1e-4 }},
		{"WorkerSpin", func(c *verlet3d.Config) { c.WorkerSpin = 2 }},
		{"WorkerSpin", func(c *verlet3d.Config) { c.WorkerSpin = nan }},
		{"MaxSpeed", func(c *verlet3d.Config) { c.MaxSpeed = 0 }},
		{"ContactMargin", func(c *verlet3d.Config) { c.ContactMargin = -0.1 }},
		{"Damping", func(c *verlet3d.Config) { c.Damping = 1000 }},
		{"SettleDamping", func(c *verlet3d.Config) { c.SettleDamping = -1 }},
		{"SettleDamping", func(c *verlet3d.Config) { c.SettleDamping = nan }},
		{"SettleDamping", func(c *verlet3d.Config) { c.Damping, c.SettleDamping = 500, 500 }},
	}
	for _, tc := range cases {
		cfg := verlet3d.DefaultConfig()
		tc.edit(&cfg)
		_, err := verlet3d.NewWorld(cfg)
		if err == nil || !strings.Contains(err.Error(), tc.field) {
			t.Errorf("%s: error %v, want one naming the field", tc.field, err)
		}
	}
	if _, err := verlet3d.NewWorld(verlet3d.DefaultConfig()); err != nil {
		t.Fatalf("default config rejected: %v", err)
	}
}

func TestBadArgumentsReturnErrors(t *testing.T) {
	w := newWorld(t, nil)
	a := add(t, w, mgl32.Vec3{}, 1)
	b := add(t, w, mgl32.Vec3{1, 0, 0}, 1)
	cases := []struct {
		name, want string
		err        error
	}{
		{"NaN position", "position", func() error { _, err := w.AddParticle(mgl32.Vec3{nan, 0, 0}, 1); return err }()},
		{"negative mass", "mass", func() error { _, err := w.AddParticle(mgl32.Vec3{}, -1); return err }()},
		{"self link", "two different", func() error { _, err := w.AddLink(a, a, verlet3d.LinkSettings{}); return err }()},
		{"negative compliance", "Compliance", func() error { _, err := w.AddLink(a, b, verlet3d.LinkSettings{Compliance: -1}); return err }()},
		{"stiffness above 1", "Stiffness", func() error { _, err := w.AddLink(a, b, verlet3d.LinkSettings{Stiffness: 2}); return err }()},
		{"NaN rest", "Rest", func() error { _, err := w.AddLink(a, b, verlet3d.LinkSettings{Rest: nan}); return err }()},
		{"negative break strain", "BreakStrain", func() error { _, err := w.AddLink(a, b, verlet3d.LinkSettings{BreakStrain: -1}); return err }()},
		{"negative radius", "radius", w.SetRadius(a, -1)},
		{"NaN mass", "mass", w.SetMass(a, nan)},
		{"denormal mass", "mass", w.SetMass(a, 1e-39)},
		{"denormal new particle", "mass", func() error { _, err := w.AddParticle(mgl32.Vec3{}, 1e-40); return err }()},
		{"zero sphere", "radius", func() error { _, err := verlet3d.NewSphere(mgl32.Vec3{}, 0); return err }()},
		{"zero normal", "normal", func() error { _, err := verlet3d.NewPlane(mgl32.Vec3{}, mgl32.Vec3{}); return err }()},
		{"flat box", "half extents", func() error {
			_, err := verlet3d.NewBox(mgl32.Vec3{}, mgl32.Vec3{1, 0, 1}, mgl32.QuatIdent())
			return err
		}()},
		{"negative capsule", "radius", func() error { _, err := verlet3d.NewCapsule(mgl32.Vec3{}, mgl32.Vec3{}, -1); return err }()},
		{"friction", "Friction", w.AddCollider(mustSphere(mgl32.Vec3{}, 1), verlet3d.ContactSettings{Friction: -1})},
		{"restitution", "Restitution", w.AddCollider(mustSphere(mgl32.Vec3{}, 1), verlet3d.ContactSettings{Restitution: 2})},
		{"NaN wind", "Steady", verlet3d.Wind{Steady: mgl32.Vec3{nan, 0, 0}}.Validate()},
		{"negative gust", "Gust", verlet3d.Wind{Gust: -1}.Validate()},
		{"gust without a period", "GustPeriod", verlet3d.Wind{Gust: 0.5}.Validate()},
		{"turbulence without a scale", "TurbulenceScale", verlet3d.Wind{Turbulence: 1}.Validate()},
		{"NaN gravity", "gravity", w.SetGravity(mgl32.Vec3{0, nan, 0})},
		{"zero iterations", "iterations", w.SetIterations(0)},
	}
	for _, tc := range cases {
		if tc.err == nil || !strings.Contains(tc.err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one mentioning %q", tc.name, tc.err, tc.want)
		}
	}
}

func TestStaleHandlesPanic(t *testing.T) {
	w := newWorld(t, nil)
	a := add(t, w, mgl32.Vec3{}, 1)
	b := add(t, w, mgl32.Vec3{1, 0, 0}, 1)
	l := link(t, w, a, b, verlet3d.LinkSettings{})
	w.RemoveLink(l)
	checks.ExpectPanic(t, "out of range", "position of unknown particle", func() { w.Position(7) })
	checks.ExpectPanic(t, "out of range", "negative handle", func() { w.Pin(-1) })
	checks.ExpectPanic(t, "out of range", "link to unknown particle", func() { _, _ = w.AddLink(a, 99, verlet3d.LinkSettings{}) })
	checks.ExpectPanic(t, "was removed", "removed link", func() { w.LinkStrain(l) })
	checks.ExpectPanic(t, "out of range", "unknown link", func() { w.LinkRest(42) })
	checks.ExpectPanic(t, "not finite", "NaN target", func() { w.SetTarget(a, mgl32.Vec3{nan, 0, 0}) })
	checks.ExpectPanic(t, "Advance", "negative frame time", func() { w.Advance(-1) })
	checks.ExpectPanic(t, "nil", "nil collider", func() { _ = w.AddCollider(nil, verlet3d.ContactSettings{}) })
	checks.ExpectPanic(t, "nil", "typed nil collider", func() { _ = w.AddCollider((*verlet3d.Sphere)(nil), verlet3d.ContactSettings{}) })
	checks.ExpectPanic(t, "nil", "nil force field", func() { w.AddForceField(nil) })
	checks.ExpectPanic(t, "nil", "nil constraint set", func() { w.AddConstraintSet(nil) })
}

// buildCloth makes an n x n grid of structural, shear and distance-2 bend
// links with the top row pinned, as the benchmarks use.
func buildCloth(t testing.TB, w *verlet3d.World, n int, spacing float32) []verlet3d.Particle {
	ps := make([]verlet3d.Particle, n*n)
	for r := 0; r < n; r++ {
		for c := 0; c < n; c++ {
			m := float32(0.01)
			if r == 0 {
				m = 0
			}
			ps[r*n+c] = add(t, w, mgl32.Vec3{float32(float32(c) * spacing), 2, float32(float32(r) * spacing)}, m)
		}
	}
	at := func(r, c int) verlet3d.Particle { return ps[r*n+c] }
	s := verlet3d.LinkSettings{Compliance: 1e-7}
	for r := 0; r < n; r++ {
		for c := 0; c < n; c++ {
			if c+1 < n {
				link(t, w, at(r, c), at(r, c+1), s)
			}
			if r+1 < n {
				link(t, w, at(r, c), at(r+1, c), s)
			}
			if r+1 < n && c+1 < n {
				link(t, w, at(r, c), at(r+1, c+1), s)
				link(t, w, at(r, c+1), at(r+1, c), s)
			}
			if c+2 < n {
				link(t, w, at(r, c), at(r, c+2), s)
			}
			if r+2 < n {
				link(t, w, at(r, c), at(r+2, c), s)
			}
		}
	}
	return ps
}

// buildRopes hangs n ropes of length links each from pinned tops, side by
// side over the test ball: two colors of n·length/2 links.
func buildRopes(t testing.TB, w *verlet3d.World, n, length int) {
	s := verlet3d.LinkSettings{Compliance: 1e-7}
	for r := 0; r < n; r++ {
		x := 0.2 + 0.8*float32(r)/float32(n)
		prev := add(t, w, mgl32.Vec3{x, 2, 0.9}, 0)
		for k := 1; k <= length; k++ {
			p := add(t, w, mgl32.Vec3{x + float32(0.01*float32(k)), 2, 0.9}, 0.01)
			link(t, w, prev, p, s)
			prev = p
		}
	}
}

// The same scene run twice gives identical positions, and 1, 2, 3 and 4
// workers agree exactly: links of one color never share a particle, nor
// do regions, units or odd boundaries, whoever solves them.
func TestDeterminism(t *testing.T) {
	for _, tc := range []struct {
		name     string
		build    func(t testing.TB, w *verlet3d.World)
		parallel bool // the workers share the link passes
	}{
		// Too few links for regions: one worker solves their color
		// batches, in the same order.
		{"16x16", func(t testing.TB, w *verlet3d.World) { buildCloth(t, w, 16, 0.05) }, false},
		// 60 ropes, 6,000 links in regions (a rope across a region's
		// bound goes to the tail).
		{"ropes", func(t testing.TB, w *verlet3d.World) { buildRopes(t, w, 60, 100) }, true},
		// The same ropes, the first and last ten tied by their ends: links
		// between regions farther apart than neighbors, which the caller
		// solves once every unit is done.
		{"tied ropes", func(t testing.TB, w *verlet3d.World) {
			buildRopes(t, w, 60, 100)
			for r := 0; r < 10; r++ {
				a, b := verlet3d.Particle(101*r+100), verlet3d.Particle(101*(59-r)+100)
				link(t, w, a, b, verlet3d.LinkSettings{Compliance: 1e-4})
			}
		}, true},
		// About 13,500 links in sixteen regions.
		{"48x48", func(t testing.TB, w *verlet3d.World) { buildCloth(t, w, 48, 0.05) }, true},
		// 23,938 links over 4,096 particles in thirty-two regions.
		{"64x64", func(t testing.TB, w *verlet3d.World) { buildCloth(t, w, 64, 0.03) }, true},
	} {
		t.Run(tc.name, func(t *testing.T) { determinism(t, tc.build, tc.parallel) })
	}
}

func determinism(t *testing.T, build func(t testing.TB, w *verlet3d.World), parallel bool) {
	run := func(workers int) []mgl32.Vec3 {
		w := newWorld(t, func(c *verlet3d.Config) { c.Workers = workers })
		build(t, w)
		ball := mustSphere(mgl32.Vec3{0.6, 1.2, 0.9}, 0.4)
		if err := w.AddCollider(ball, verlet3d.ContactSettings{Friction: 0.3}); err != nil {
			t.Fatal(err)
		}
		for i := 0; i < 120; i++ {
			w.Step()
		}
		// The parallel path must really have run, or this test proves
		// nothing about it.
		st := w.Stats()
		if passes := 120 * w.Config().Substeps * w.Config().Iterations; parallel && workers > 1 && st.ParallelLinkPasses < passes {
			t.Fatalf("%d workers: only %d link passes ran in parallel", workers, st.ParallelLinkPasses)
		}
		if !parallel && st.ParallelLinkPasses != 0 {
			t.Fatalf("%d workers: %d link passes ran in parallel, want none for batches this small", workers, st.ParallelLinkPasses)
		}
		return append([]mgl32.Vec3(nil), w.Positions()...)
	}
	a, b := run(1), run(1)
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("particle %d: run 1 %v, run 2 %v", i, a[i], b[i])
		}
	}
	for _, workers := range []int{2, 3, 4} {
		c := run(workers)
		for i := range a {
			if a[i] != c[i] {
				t.Fatalf("particle %d: 1 worker %v, %d workers %v", i, a[i], workers, c[i])
			}
		}
	}
}

// A g3n game calls Step from its main goroutine, which g3n locks to its OS
// thread for OpenGL. Stepped from a locked goroutine, with a P for every
// worker and with fewer Ps than workers (the caller then yields while it
// waits for the others), 2 workers give the same bits as 1.
func TestDeterminismLockedCaller(t *testing.T) {
	build := func(t testing.TB, w *verlet3d.World) { buildCloth(t, w, 64, 0.03) }
	run := func(workers, procs int) []mgl32.Vec3 {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
		done := make(chan []mgl32.Vec3)
		go func() {
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			w := newWorld(t, func(c *verlet3d.Config) { c.Workers = workers })
			build(t, w)
			for i := 0; i < 30; i++ {
				w.Step()
			}
			if workers > 1 && w.Stats().ParallelLinkPasses == 0 {
				t.Errorf("GOMAXPROCS %d: no link pass ran in parallel", procs)
			}
			pos := append([]mgl32.Vec3(nil), w.Positions()...)
			w.Close() // before the send: the cleanup newWorld registers closes it again after the receive
			done <- pos
		}()
		return <-done
	}
	want := run(1, 2)
	for _, procs := range []int{1, 2} {
		got := run(2, procs)
		for i := range want {
			if got[i] != want[i] {
				t.Fatalf("GOMAXPROCS %d, locked caller: particle %d at %v on 2 workers, %v on 1", procs, i, got[i], want[i])
			}
		}
	}
}

// Ten minutes of simulated time with a cloth swinging onto a sphere, a
// tearing link and a tether: no NaN, and the energy never grows.
func TestLongRunStaysFiniteAndLosesEnergy(t *testing.T) {
	if testing.Short() {
		t.Skip("long run")
	}
	for _, tc := range []struct {
		name string
		edit func(*verlet3d.Config)
	}{
		// Sleeping off: ten minutes of a cloth that could fall asleep
		// would prove nothing.
		{"DefaultConfig", func(c *verlet3d.Config) { c.SleepSpeed = 0 }},
		{"1 x 4", func(c *verlet3d.Config) { c.Substeps = 1; c.Iterations = 4; c.SleepSpeed = 0 }},
	} {
		t.Run(tc.name, func(t *testing.T) { longRun(t, tc.edit) })
	}
}

func longRun(t *testing.T, edit func(*verlet3d.Config)) {
	w := newWorld(t, edit)
	ps := buildCloth(t, w, 12, 0.1)
	if _, err := w.AddTether(ps[0], ps[len(ps)-1], 0); err != nil {
		t.Fatal(err)
	}
	if err := w.AddCollider(mustSphere(mgl32.Vec3{0.5, 1.3, 0.6}, 0.3), verlet3d.ContactSettings{Friction: 0.2}); err != nil {
		t.Fatal(err)
	}
	energy := func() float64 {
		var e float64
		g := float64(9.81)
		for _, p := range ps {
			m := float64(w.Mass(p))
			if w.Pinned(p) {
				continue
			}
			v := w.Velocity(p)
			e += float64(0.5*m*float64(vecmath.Dot(v, v))) + float64(m*g*float64(w.Position(p)[1]))
		}
		return e
	}
	// Let it settle one second first; from then on energy may only fall
	// (a small tolerance for the constraint solve's jitter).
	for i := 0; i < 60; i++ {
		w.Step()
	}
	start := energy()
	peak := start
	for i := 0; i < 60*600; i++ {
		w.Step()
		if i%60 == 0 {
			e := energy()
			if e > peak {
				peak = e
			}
			for _, x := range w.Positions() {
				if !vecmath.Finite(x) {
					t.Fatalf("non-finite position after %.0f s", w.Time())
				}
			}
		}
	}
	// The tolerance is an energy, not a fraction of the total: the total
	// depends on where y = 0 is, a gain does not. 1% of what the cloth
	// would gain rising by its own size (1.1 m).
	var mass float64
	for _, p := range ps {
		if !w.Pinned(p) {
			mass += float64(w.Mass(p))
		}
	}
	if tol := float64(0.01 * mass * 9.81 * 1.1); peak > start+tol {
		t.Errorf("energy grew from %.4f J to %.4f J", start, peak)
	}
	if s := w.Stats(); s.NonFiniteResets != 0 {
		t.Errorf("%d non-finite resets", s.NonFiniteResets)
	}
}

// A NaN that sneaks in (here through a force field) is reset, not spread.
func TestNonFiniteParticleIsReset(t *testing.T) {
	w := newWorld(t, nil)
	a := add(t, w, mgl32.Vec3{0, 1, 0}, 1)
	b := add(t, w, mgl32.Vec3{1, 1, 0}, 1)
	link(t, w, a, b, verlet3d.LinkSettings{})
	w.AddForceField(poison{a})
	w.Step()
	if !vecmath.Finite(w.Position(a)) || !vecmath.Finite(w.Position(b)) {
		t.Fatalf("NaN spread: %v %v", w.Position(a), w.Position(b))
	}
	if w.Stats().NonFiniteResets == 0 {
		t.Error("reset not counted")
	}
}

type poison struct{ p verlet3d.Particle }

func (f poison) Apply(w *verlet3d.World, _ verlet3d.Substep) {
	w.AddAcceleration(f.p, mgl32.Vec3{nan, 0, 0})
}

func TestKinematicTargetIsReachedEachStep(t *testing.T) {
	w := newWorld(t, nil)
	anchor := add(t, w, mgl32.Vec3{0, 1, 0}, 1)
	bob := add(t, w, mgl32.Vec3{0, 0, 0}, 1)
	link(t, w, anchor, bob, verlet3d.LinkSettings{})
	for i := 0; i < 60; i++ {
		target := mgl32.Vec3{float32(math.Sin(float64(float64(i) * 0.1))), 1, 0}
		w.SetTarget(anchor, target)
		w.Step()
		if got := w.Position(anchor); vecmath.Len(got.Sub(target)) > 1e-6 {
			t.Fatalf("step %d: anchor at %v, target %v", i, got, target)
		}
	}
	if l := vecmath.Len(w.Position(bob).Sub(w.Position(anchor))); math.Abs(float64(l)-1) > 1e-3 {
		t.Errorf("link length %.4f, want 1", l)
	}
}

func TestTetherLimitsDistance(t *testing.T) {
	w := newWorld(t, func(c *verlet3d.Config) { c.Iterations = 2 })
	ps := buildCloth(t, w, 16, 0.05)
	// Soft links sag; tethers from the pinned row cap the stretch.
	for _, p := range ps[16:] {
		c := int(p) % 16
		if _, err := w.AddTether(ps[c], p, 0); err != nil {
			t.Fatal(err)
		}
	}
	for i := 0; i < 300; i++ {
		w.Step()
	}
	for _, p := range ps[16:] {
		c := int(p) % 16
		r := int(p) / 16
		if d := vecmath.Len(w.Position(p).Sub(w.Position(ps[c]))); d > float32(float32(r)*0.05)+1e-4 {
			t.Fatalf("particle %d is %.4f m from its anchor, tether %.4f", p, d, float32(float32(r)*0.05))
		}
	}
}

func TestLinksBreakAndReport(t *testing.T) {
	w := newWorld(t, nil)
	top := add(t, w, mgl32.Vec3{0, 1, 0}, 0)
	weight := add(t, w, mgl32.Vec3{0, 0, 0}, 1)
	l := link(t, w, top, weight, verlet3d.LinkSettings{Compliance: 0.03, BreakStrain: 0.2})
	var called []verlet3d.Link
	w.OnBreak(func(b verlet3d.Link) { called = append(called, b) })
	broke := false
	for i := 0; i < 120 && !broke; i++ {
		w.Step()
		for _, b := range w.Broken() {
			broke = broke || b == l
		}
	}
	if !broke || !w.LinkBroken(l) || len(called) != 1 {
		t.Fatalf("a 0.03 m/N link holding 1 kg (29%% strain at rest) did not break at 20%%: broken=%v callbacks=%d strain=%.2f", broke, len(called), w.LinkStrain(l))
	}
	// Once broken the weight falls freely.
	y := w.Position(weight)[1]
	for i := 0; i < 30; i++ {
		w.Step()
	}
	if w.Position(weight)[1] > y-0.5 {
		t.Errorf("weight did not fall after the link broke")
	}
}

func TestTensionOnlyLinkIsAString(t *testing.T) {
	w := newWorld(t, func(c *verlet3d.Config) { c.Gravity = mgl32.Vec3{} })
	a := add(t, w, mgl32.Vec3{0, 0, 0}, 1)
	b := add(t, w, mgl32.Vec3{0.5, 0, 0}, 1)
	link(t, w, a, b, verlet3d.LinkSettings{Rest: 1, TensionOnly: true})
	w.Step()
	if d := vecmath.Len(w.Position(b).Sub(w.Position(a))); math.Abs(float64(d)-0.5) > 1e-6 {
		t.Errorf("slack string pushed its ends apart to %.3f m", d)
	}
}

func TestAdvanceRunsWholeStepsAndCaps(t *testing.T) {
	w := newWorld(t, func(c *verlet3d.Config) { c.MaxStepsPerFrame = 3 })
	add(t, w, mgl32.Vec3{}, 1)
	if n := w.Advance(1.0 / 120); n != 0 || math.Abs(float64(w.Alpha())-0.5) > 1e-4 {
		t.Errorf("half a step: ran %d, alpha %.3f; want 0 and 0.5", n, w.Alpha())
	}
	if n := w.Advance(1.0 / 120); n != 1 {
		t.Errorf("second half: ran %d steps, want 1", n)
	}
	if n := w.Advance(1); n != 3 || w.Stats().DroppedSteps == 0 {
		t.Errorf("a 1 s frame ran %d steps (dropped %d), want the cap of 3", n, w.Stats().DroppedSteps)
	}
}

func TestPickAndDrag(t *testing.T) {
	w := newWorld(t, func(c *verlet3d.Config) { c.Gravity = mgl32.Vec3{} })
	near := add(t, w, mgl32.Vec3{0, 0, -5}, 1)
	add(t, w, mgl32.Vec3{0.05, 0, -8}, 1)
	add(t, w, mgl32.Vec3{1, 0, -3}, 1)
	p, ok := w.Pick(mgl32.Vec3{0, 0, 0}, mgl32.Vec3{0, 0, -1}, 0.1)
	if !ok || p != near {
		t.Fatalf("Pick = %d, %v; want %d", p, ok, near)
	}
	if _, ok := w.Pick(mgl32.Vec3{0, 0, 0}, mgl32.Vec3{0, 1, 0}, 0.1); ok {
		t.Error("picked a particle far from the ray")
	}
	w.DragTo(p, mgl32.Vec3{0, 1, -5})
	w.Step()
	if !w.Position(p).ApproxEqualThreshold(mgl32.Vec3{0, 1, -5}, 1e-6) {
		t.Errorf("dragged particle at %v", w.Position(p))
	}
	w.Release(p)
	if w.Pinned(p) {
		t.Error("released particle still held")
	}
	// It keeps the velocity it was dragged with: 1 m in one step.
	if v := w.Velocity(p)[1]; v < 1 {
		t.Errorf("released velocity %.2f m/s, want the drag's", v)
	}
}

func TestTeleportKeepsShapeAndVelocity(t *testing.T) {
	w := newWorld(t, nil)
	ps := buildCloth(t, w, 8, 0.1)
	for i := 0; i < 30; i++ {
		w.Step()
	}
	before := append([]mgl32.Vec3(nil), w.Positions()...)
	v := w.Velocity(ps[40])
	off := mgl32.Vec3{100, 0, -50}
	w.Teleport(off)
	for i, x := range w.Positions() {
		if !x.ApproxEqualThreshold(before[i].Add(off), 1e-4) {
			t.Fatalf("particle %d moved to %v, want %v", i, x, before[i].Add(off))
		}
	}
	// float32 positions 100 m out resolve ulp = 7.6e-6 m, so a velocity
	// (x - prev)/h there is known to ulp/h per axis (4.6e-3 m/s at
	// DefaultConfig's h = 1/600 s): allow that on the two moved axes.
	ulp := math.Nextafter32(100, 200) - 100
	if tol := 1.5 * ulp / w.SubstepLength(); vecmath.Len(w.Velocity(ps[40]).Sub(v)) > tol {
		t.Errorf("velocity changed from %v to %v", v, w.Velocity(ps[40]))
	}
}

func TestWindIsSmoothAndSteadyWithoutGusts(t *testing.T) {
	steady := verlet3d.Wind{Steady: mgl32.Vec3{3, 0, 1}}
	if v := steady.Velocity(mgl32.Vec3{1, 2, 3}, 7); v != steady.Steady {
		t.Errorf("steady wind = %v, want %v", v, steady.Steady)
	}
	gusty := verlet3d.Wind{Steady: mgl32.Vec3{5, 0, 0}, Gust: 0.5, GustPeriod: 3, Turbulence: 1, TurbulenceScale: 0.5}
	prev := gusty.Velocity(mgl32.Vec3{}, 0)
	lo, hi := float32(1e9), float32(-1e9)
	for i := 1; i < 600; i++ {
		v := gusty.Velocity(mgl32.Vec3{}, float32(i)/60)
		if vecmath.Len(v.Sub(prev)) > 0.5 {
			t.Fatalf("wind jumps %.2f m/s in one frame", vecmath.Len(v.Sub(prev)))
		}
		prev = v
		lo, hi = float32(math.Min(float64(lo), float64(v[0]))), float32(math.Max(float64(hi), float64(v[0])))
	}
	if hi-lo < 2 {
		t.Errorf("gusts vary the wind by only %.2f m/s", hi-lo)
	}
}

func TestDisabledTetherLetsGo(t *testing.T) {
	w := newWorld(t, func(c *verlet3d.Config) { c.Gravity = mgl32.Vec3{} })
	a := add(t, w, mgl32.Vec3{}, 0)
	p := add(t, w, mgl32.Vec3{1, 0, 0}, 1)
	tt, err := w.AddTether(a, p, 0)
	if err != nil {
		t.Fatal(err)
	}
	w.SetVelocity(p, mgl32.Vec3{1, 0, 0})
	w.Step()
	if d := vecmath.Len(w.Position(p)); d > 1+1e-6 {
		t.Fatalf("tether let the particle reach %.4f m", d)
	}
	w.SetTetherEnabled(tt, false)
	w.SetVelocity(p, mgl32.Vec3{1, 0, 0})
	w.Step()
	if d := vecmath.Len(w.Position(p)); d < 1.01 {
		t.Errorf("disabled tether still holds the particle at %.4f m", d)
	}
	if w.Group(p) != 1 {
		t.Errorf("default group %d, want 1", w.Group(p))
	}
}

// TestLinkBetweenPinnedParticles: a link whose two ends are pinned moves
// nothing, whatever its compliance. A 10 x 10 grid pinned along its top
// row, with links of compliance 4e-45 m/N (a denormal the validation
// accepts: FuzzCloth found it), put NaN into the pinned row in the first
// pass, from 1/(alpha/h²) overflowing to +Inf.
func TestLinkBetweenPinnedParticles(t *testing.T) {
	for _, comp := range []float32{0, 4e-45, 1e-39, 1e-3} {
		w := newWorld(t, nil)
		const n = 10
		var ps [n][n]verlet3d.Particle
		for r := 0; r < n; r++ {
			for c := 0; c < n; c++ {
				p, err := w.AddParticle(mgl32.Vec3{float32(float32(c) * 0.05), 3, float32(float32(r) * 0.05)}, 0.005)
				if err != nil {
					t.Fatal(err)
				}
				ps[r][c] = p
			}
		}
		for c := 0; c < n; c++ {
			w.Pin(ps[0][c])
		}
		for r := 0; r < n; r++ {
			for c := 0; c < n; c++ {
				if c+1 < n {
					if _, err := w.AddLink(ps[r][c], ps[r][c+1], verlet3d.LinkSettings{Compliance: comp}); err != nil {
						t.Fatal(err)
					}
				}
				if r+1 < n {
					if _, err := w.AddLink(ps[r][c], ps[r+1][c], verlet3d.LinkSettings{Compliance: comp}); err != nil {
						t.Fatal(err)
					}
				}
			}
		}
		for i := 0; i < 30; i++ {
			w.Step()
		}
		if k := w.Stats().NonFiniteResets; k != 0 {
			t.Errorf("compliance %v: %d non-finite resets", comp, k)
		}
		for c := 0; c < n; c++ {
			if x, want := w.Position(ps[0][c]), (mgl32.Vec3{float32(float32(c) * 0.05), 3, 0}); x != want {
				t.Errorf("compliance %v: pinned particle %d at %v, want %v", comp, c, x, want)
			}
		}
		// The free rows hang below the pins.
		if y := w.Position(ps[n-1][n/2])[1]; !(y < 3) {
			t.Errorf("compliance %v: bottom row at height %v, want below the pins at 3", comp, y)
		}
	}
}
