package verlet3d_test

import (
	"fmt"
	"github.com/drape3d/drape/internal/vecmath"
	"math"
	"testing"

	"github.com/drape3d/drape/verlet3d"
	"github.com/go-gl/mathgl/mgl32"
)

// The physical references that hold at DefaultConfig: what a user
// gets without tuning anything. Each measurement is a function of the
// Config so the survey in defaults_test.go can compare candidates.

// pendulumLoss releases a rigid 1 m pendulum at amp radians and returns the
// mean fractional amplitude lost per full swing over the first 5 swings.
func pendulumLoss(cfg verlet3d.Config, amp float64) float64 {
	w, err := verlet3d.NewWorld(cfg)
	if err != nil {
		panic(err)
	}
	defer w.Close()
	pivot, _ := w.AddParticle(mgl32.Vec3{}, 0)
	bob, _ := w.AddParticle(mgl32.Vec3{float32(math.Sin(amp)), float32(-math.Cos(amp)), 0}, 1)
	if _, err := w.AddLink(pivot, bob, verlet3d.LinkSettings{}); err != nil {
		panic(err)
	}
	// Amplitude of each swing: the largest x between upward zero crossings.
	var peaks []float64
	peak, lastX := 0.0, float64(w.Position(bob)[0])
	steps := int(12 / cfg.TimeStep)
	for i := 0; i < steps && len(peaks) < 6; i++ {
		w.Step()
		x := float64(w.Position(bob)[0])
		if lastX < 0 && x >= 0 {
			peaks = append(peaks, peak)
			peak = 0
		}
		peak = math.Max(peak, x)
		lastX = x
	}
	first := math.Sin(amp)
	last := peaks[len(peaks)-1]
	return 1 - math.Pow(last/first, 1/float64(len(peaks)))
}

// catenary hangs a 3 m chain of 40 links between pins 2 m apart, starting
// on the analytic catenary (a = 0.6165, sag 1.005 m), and returns its mean
// sag over the last of 4 s and the largest link strain seen then.
func catenary(cfg verlet3d.Config) (sag, strain float64) {
	w, err := verlet3d.NewWorld(cfg)
	if err != nil {
		panic(err)
	}
	defer w.Close()
	const n, a = 40, 0.6165
	// Points equally spaced in arc length: s(x) = a sinh(x/a), from -1.5 to 1.5.
	ps := make([]verlet3d.Particle, n+1)
	for i := range ps {
		s := -1.5 + 3*float64(i)/n
		x := float64(a * math.Asinh(s/a))
		y := float64(a*math.Cosh(x/a)) - float64(a*math.Cosh(1/a))
		m := float32(0.075)
		if i == 0 || i == n {
			m = 0
		}
		ps[i], _ = w.AddParticle(mgl32.Vec3{float32(x), float32(y), 0}, m)
	}
	for i := 0; i < n; i++ {
		if _, err := w.AddLink(ps[i], ps[i+1], verlet3d.LinkSettings{Rest: 3.0 / n}); err != nil {
			panic(err)
		}
	}
	steps := int(4 / cfg.TimeStep)
	last := int(1 / cfg.TimeStep)
	for i := 0; i < steps; i++ {
		w.Step()
		if i >= steps-last {
			sag += -float64(w.Position(ps[n/2])[1])
			strain = math.Max(strain, float64(w.MaxLinkStrain()))
		}
	}
	return sag / float64(last), strain
}

// pendulumPeriod returns the mean period over 5 swings of a rigid 1 m
// pendulum released at amp radians.
func pendulumPeriod(cfg verlet3d.Config, amp float64) float64 {
	w, err := verlet3d.NewWorld(cfg)
	if err != nil {
		panic(err)
	}
	defer w.Close()
	pivot, _ := w.AddParticle(mgl32.Vec3{}, 0)
	bob, _ := w.AddParticle(mgl32.Vec3{float32(math.Sin(amp)), float32(-math.Cos(amp)), 0}, 1)
	if _, err := w.AddLink(pivot, bob, verlet3d.LinkSettings{}); err != nil {
		panic(err)
	}
	dt := float64(cfg.TimeStep)
	var crossings []float64
	lastX := w.Position(bob)[0]
	for i := 0; i < int(12/dt) && len(crossings) < 6; i++ {
		w.Step()
		if x := w.Position(bob)[0]; lastX < 0 && x >= 0 {
			crossings = append(crossings, w.Time()-float64((1-float64(-lastX/(x-lastX)))*dt))
			lastX = x
		} else {
			lastX = x
		}
	}
	return (crossings[5] - crossings[0]) / 5
}

// freeFall returns the drop of a particle released from rest after t s.
func freeFall(cfg verlet3d.Config, t float64) float64 {
	w, err := verlet3d.NewWorld(cfg)
	if err != nil {
		panic(err)
	}
	defer w.Close()
	p, _ := w.AddParticle(mgl32.Vec3{}, 1)
	for i := 0; i < int(math.Round(t/float64(cfg.TimeStep))); i++ {
		w.Step()
	}
	return -float64(w.Position(p)[1])
}

func TestReferencesAtDefaults(t *testing.T) {
	cfg := verlet3d.DefaultConfig()
	t.Run("pendulum 1 m 20 deg loses under 2% per swing", func(t *testing.T) {
		c := cfg
		c.Damping = 0
		if loss := pendulumLoss(c, 20*math.Pi/180); loss > 0.02 {
			t.Errorf("amplitude loss %.2f%% per swing, want < 2%%", float64(loss*100))
		} else {
			t.Logf("amplitude loss %.3f%% per swing", float64(loss*100))
		}
	})
	t.Run("pendulum 1 m 10 deg period within 1%", func(t *testing.T) {
		within(t, "period", pendulumPeriod(cfg, 10*math.Pi/180), 2.010, 0.01)
	})
	t.Run("free fall 1 s within 1%", func(t *testing.T) {
		within(t, "drop", freeFall(cfg, 1), 4.905, 0.01)
	})
	t.Run("free fall 1.5 s within 2%", func(t *testing.T) {
		within(t, "drop", freeFall(cfg, 1.5), 9.81*1.5*1.5/2, 0.02)
	})
	t.Run("chain of 40 links sags within 1% with strain under 0.5%", func(t *testing.T) {
		sag, strain := catenary(cfg)
		if strain > 0.005 {
			t.Errorf("link strain %.3f%%, want < 0.5%%", float64(strain*100))
		}
		within(t, "sag", sag, 1.005, 0.01)
	})
	t.Run("80 m/s is not clamped", func(t *testing.T) {
		w := newWorld(t, func(c *verlet3d.Config) { c.Gravity = mgl32.Vec3{} })
		p := add(t, w, mgl32.Vec3{}, 1)
		w.SetVelocity(p, mgl32.Vec3{80, 0, 0})
		for i := 0; i < 30; i++ {
			w.Step()
		}
		within(t, "speed", float64(vecmath.Len(w.Velocity(p))), 80, 1e-3)
		if n := w.Stats().SpeedClamps; n != 0 {
			t.Errorf("%d clamps", n)
		}
	})
}

// A particle thrown at 40 m/s (and 80) at a 2 cm thick box or a sphere of
// radius 3 cm never comes out on the other side, whatever the angle and the
// offset along the way: continuous collision against the swept path.
func TestNoTunnelling(t *testing.T) {
	thin, _ := verlet3d.NewBox(mgl32.Vec3{}, mgl32.Vec3{0.5, 0.5, 0.01}, vecmath.QuatAxisAngle(0.3, mgl32.Vec3{0, 1, 0}))
	ball := mustSphere(mgl32.Vec3{}, 0.03)
	cases := []struct {
		name string
		c    verlet3d.Collider
		aim  float32 // lateral spread of the aim points, m
	}{
		{"box 2 cm", thin, 0.3},
		{"sphere 3 cm", ball, 0.025},
	}
	for _, tc := range cases {
		for _, speed := range []float32{40, 80} {
			for _, radius := range []float32{0, 0.005} {
				t.Run(fmt.Sprintf("%s %v m/s radius %v", tc.name, speed, radius), func(t *testing.T) {
					w := newWorld(t, func(c *verlet3d.Config) { c.Gravity = mgl32.Vec3{}; c.Damping = 0 })
					if err := w.AddCollider(tc.c, verlet3d.ContactSettings{}); err != nil {
						t.Fatal(err)
					}
					var ps []verlet3d.Particle
					var dirs []mgl32.Vec3
					for i := 0; i < 7; i++ {
						for j := 0; j < 7; j++ {
							// Aim at a grid of points, from a start 1 m away on
							// a slant, with a start phase that varies per particle.
							aim := mgl32.Vec3{float32(tc.aim * (float32(i)/3 - 1)), float32(tc.aim * (float32(j)/3 - 1)), 0}
							dir := vecmath.Normalize(mgl32.Vec3{0.3 * float32(i-3) / 3, 0.2 * float32(j-3) / 3, 1})
							start := aim.Sub(vecmath.Scale(dir, 1+float32(0.013*float32(i*7+j))))
							p := add(t, w, start, 1)
							if err := w.SetRadius(p, radius); err != nil {
								t.Fatal(err)
							}
							w.SetVelocity(p, vecmath.Scale(dir, speed))
							ps = append(ps, p)
							dirs = append(dirs, dir)
						}
					}
					// A particle whose straight path meets the shape must be
					// stopped or turned by it; one that keeps its velocity
					// went through.
					mustHit := make([]bool, len(ps))
					hits := 0
					for k, p := range ps {
						a := w.Position(p)
						for d := float32(0); d < 2.5; d += 5e-4 {
							q := a.Add(vecmath.Scale(dirs[k], d))
							s, n := tc.c.Closest(q)
							if vecmath.Dot(q.Sub(s), n) < radius {
								mustHit[k] = true
								hits++
								break
							}
						}
					}
					if hits < len(ps)/2 {
						t.Fatalf("only %d of %d throws aim at the shape", hits, len(ps))
					}
					for s := 0; s < 30; s++ {
						w.Step()
					}
					passed := 0
					for k, p := range ps {
						if mustHit[k] && vecmath.Len(w.Velocity(p).Sub(vecmath.Scale(dirs[k], speed))) < 0.01*speed {
							passed++
						}
					}
					if passed > 0 {
						t.Errorf("%d of %d particles passed through", passed, hits)
					}
				})
			}
		}
	}
}

// Static friction holds a particle on a slope 3 degrees below the friction
// angle (mu 0.5) with no creep: under 0.5 mm in 5 s, on a plane and on a
// rotated box; 3 degrees above it, it slides.
func TestStaticFrictionHoldsOnSlope(t *testing.T) {
	const mu = 0.5
	critical := math.Atan(mu)
	for _, shape := range []string{"plane", "box"} {
		for _, tc := range []struct {
			delta float64
			hold  bool
		}{{-3, true}, {3, false}} {
			t.Run(fmt.Sprintf("%s %+v deg", shape, tc.delta), func(t *testing.T) {
				angle := critical + tc.delta*math.Pi/180
				q := vecmath.QuatAxisAngle(float32(angle), mgl32.Vec3{0, 0, 1})
				normal := vecmath.QuatRotate(q, mgl32.Vec3{0, 1, 0})
				var c verlet3d.Collider
				if shape == "plane" {
					c, _ = verlet3d.NewPlane(mgl32.Vec3{}, normal)
				} else {
					c, _ = verlet3d.NewBox(vecmath.Scale(normal, -0.5), mgl32.Vec3{5, 0.5, 5}, q)
				}
				// Sleeping off: the creep is measured on the solver, not
				// hidden by a World that fell asleep.
				w := newWorld(t, func(c *verlet3d.Config) { c.SleepSpeed = 0 })
				if err := w.AddCollider(c, verlet3d.ContactSettings{Friction: mu}); err != nil {
					t.Fatal(err)
				}
				p := add(t, w, mgl32.Vec3{}, 1)
				for i := 0; i < 30; i++ { // settle onto the surface
					w.Step()
				}
				start := w.Position(p)
				for i := 0; i < 300; i++ {
					w.Step()
				}
				moved := vecmath.Len(w.Position(p).Sub(start))
				if tc.hold && moved > 5e-4 {
					t.Errorf("crept %.2f mm in 5 s, want < 0.5 mm", float32(moved*1000))
				}
				if !tc.hold && moved < 0.5 {
					t.Errorf("slid only %.3f m in 5 s above the friction angle", moved)
				}
				t.Logf("moved %.4g m in 5 s", moved)
			})
		}
	}
}

// A contact with restitution 0 stops the particle: after landing, nothing
// moves into the floor (the velocity into the surface is removed, so the
// particle does not push in again next substep).
func TestLandingStops(t *testing.T) {
	w := newWorld(t, nil)
	floor, _ := verlet3d.NewPlane(mgl32.Vec3{}, mgl32.Vec3{0, 1, 0})
	if err := w.AddCollider(floor, verlet3d.ContactSettings{}); err != nil {
		t.Fatal(err)
	}
	p := add(t, w, mgl32.Vec3{0, 1, 0}, 1)
	w.SetVelocity(p, mgl32.Vec3{0, -20, 0})
	landed := false
	for i := 0; i < 60; i++ {
		w.Step()
		y, vy := w.Position(p)[1], w.Velocity(p)[1]
		if y < -1e-4 {
			t.Fatalf("step %d: %.2g m inside the floor", i, y)
		}
		on := y < 1e-6
		// On the floor, the only speed into it is one substep of gravity.
		if on && vy < -9.81*w.SubstepLength()*1.01 {
			t.Fatalf("step %d: moving into the floor at %.3f m/s", i, vy)
		}
		if landed && y > 1e-3 {
			t.Fatalf("step %d: bounced to %.3f m with restitution 0", i, y)
		}
		landed = landed || on
	}
}

// Far from the origin float32 positions distort motion (a fall from rest
// at 200 m used to be 12% off, one at 1,000 m never started); the World's
// own frame (World.Origin) keeps a far-off World as at home. A particle
// dropped from rest falls g t²/2 within 1% after 2.3 s, read through
// World.Position in world coordinates, at every height and also 5 km out
// along x, at the default 10 substeps, at 20 and at hair's 2 (its
// Damping 0.5 compared with the same run at the origin).
func TestFreeFallFarFromOrigin(t *testing.T) {
	const steps = 138 // 2.3 s
	tm := float64(steps) / 60
	exact := float64(9.81 * tm * tm / 2)
	configs := []struct {
		name string
		edit func(*verlet3d.Config)
		want float64 // 0: the run at the origin
	}{
		{"DefaultConfig", nil, exact},
		{"20 substeps", func(c *verlet3d.Config) { c.Substeps = 20 }, exact},
		{"hair's 2 x 3, Damping 0.5", func(c *verlet3d.Config) { c.Substeps, c.Iterations, c.Damping = 2, 3, 0.5 }, 0},
	}
	starts := []mgl32.Vec3{{0, 0, 0}, {0, 200, 0}, {0, 1000, 0}, {0, 4000, 0}, {5000, 0, 0}, {5000, 1000, -3000}}
	drop := func(edit func(*verlet3d.Config), at mgl32.Vec3) (drop float64, side float32) {
		w := newWorld(t, edit)
		p := add(t, w, at, 1)
		for range steps {
			w.Step()
		}
		x := w.Position(p)
		return float64(at[1]) - float64(x[1]), max(absf(x[0]-at[0]), absf(x[2]-at[2]))
	}
	for _, c := range configs {
		home, _ := drop(c.edit, mgl32.Vec3{})
		want := c.want
		if want == 0 {
			want = home
		}
		for _, at := range starts {
			got, side := drop(c.edit, at)
			within(t, fmt.Sprintf("%s: drop from %v", c.name, at), got, want, 0.01)
			if side > 1e-3 {
				t.Errorf("%s: dropped from %v the particle moved %g m sideways", c.name, at, side)
			}
		}
	}
}

func absf(x float32) float32 { return max(x, -x) }

// A World far from the origin moves its frame to its particles on its
// first step, and never while they stay within RecenterDistance of it:
// positions read through Position keep their world coordinates across the
// move, and a built-in collider given in world coordinates catches a
// particle there as at home.
func TestWorldFrameFollowsContent(t *testing.T) {
	w := newWorld(t, nil)
	floor, _ := verlet3d.NewPlane(mgl32.Vec3{0, 1000, 0}, mgl32.Vec3{0, 1, 0})
	if err := w.AddCollider(floor, verlet3d.ContactSettings{Friction: 0.5}); err != nil {
		t.Fatal(err)
	}
	at := mgl32.Vec3{5003, 1000.25, -2000}
	p := add(t, w, at, 1)
	if o := w.Origin(); o != ([3]float64{}) {
		t.Fatalf("origin %v before a step, want 0", o)
	}
	w.Step()
	if o, want := w.Origin(), [3]float64{5003, 1000, -2000}; o != want {
		t.Fatalf("origin %v after the first step, want %v", o, want)
	}
	for range 120 {
		w.Step()
	}
	if x := w.Position(p); math.Abs(float64(x[1])-1000) > 1e-3 || math.Abs(float64(x[0])-5003) > 1e-3 {
		t.Errorf("resting particle at %v, want on the floor at (5003, 1000, -2000)", x)
	}
	if v := w.Velocity(p); vecmath.Len(v) > 1e-3 {
		t.Errorf("resting particle moves at %v", v)
	}
	if o, want := w.Origin(), [3]float64{5003, 1000, -2000}; o != want {
		t.Errorf("origin %v after resting, want %v", o, want)
	}
	if got, want := w.ToWorld64(w.Positions()[p]), w.Position(p); float32(got[0]) != want[0] || float32(got[1]) != want[1] {
		t.Errorf("ToWorld64(Positions()[p]) = %v, Position = %v", got, want)
	}

	// The game's ShiftOrigin moves the world coordinates, floor included,
	// not the particle in the World's frame.
	if err := w.ShiftOrigin(mgl32.Vec3{5003, 1000, -2000}); err != nil {
		t.Fatal(err)
	}
	for range 60 {
		w.Step()
	}
	if x := w.Position(p); vecmath.Len(x) > 1e-4 || vecmath.Len(w.Velocity(p)) > 1e-3 {
		t.Errorf("after the shift the resting particle is at %v moving %v, want the origin at rest", x, w.Velocity(p))
	}
	if floor.Point != (mgl32.Vec3{-5003, 0, 2000}) {
		t.Errorf("floor point %v after the shift, want (-5003, 0, 2000)", floor.Point)
	}
}

// Rigid cloth dropped flat onto a floor gains no energy on impact: kinetic
// plus potential energy never rises above where it started (the contacts
// remove the velocity into the floor instead of bouncing it back).
func TestRigidClothImpactGainsNoEnergy(t *testing.T) {
	w := newWorld(t, nil)
	floor, _ := verlet3d.NewPlane(mgl32.Vec3{0, 1.5, 0}, mgl32.Vec3{0, 1, 0})
	if err := w.AddCollider(floor, verlet3d.ContactSettings{Friction: 0.3}); err != nil {
		t.Fatal(err)
	}
	const n = 16
	ps := buildCloth(t, w, n, 0.05)
	for _, p := range ps[:n] { // buildCloth pins the first row: free it
		if err := w.SetMass(p, 0.01); err != nil {
			t.Fatal(err)
		}
	}
	energy := func() float64 {
		e := 0.0
		for _, p := range ps {
			m := float64(w.Mass(p))
			v := w.Velocity(p)
			e += float64(m * (float64(0.5*float64(vecmath.Dot(v, v))) + float64(9.81*float64(w.Position(p)[1]))))
		}
		return e
	}
	e0 := energy()
	worst := 0.0
	for i := 0; i < 120; i++ {
		w.Step()
		worst = max(worst, (energy()-e0)/(e0-9.81*0.01*n*n*1.5))
	}
	t.Logf("largest energy gain over the drop height's energy: %.3g%%", float64(100*worst))
	if worst > 0.005 {
		t.Errorf("energy rose %.2f%% of the drop's energy, want none (0.5%% for rounding)", float64(100*worst))
	}
}
