package verlet3d_test

import (
	"fmt"
	"github.com/drape3d/drape/internal/checks"
	"github.com/drape3d/drape/internal/vecmath"
	"math"
	"strings"
	"testing"

	"github.com/drape3d/drape/verlet3d"
	"github.com/go-gl/mathgl/mgl32"
)

var configFields = []string{"Gravity", "Damping", "TimeStep", "Substeps", "Iterations", "MaxStepsPerFrame", "Workers", "MaxSpeed", "ContactMargin", "WorkerSpin"}

// fuzzConfig edits a DefaultConfig field by field; a zero flag byte keeps
// the defaults, so most inputs build a World. Substeps, Iterations and
// MaxStepsPerFrame stay small (|n| <= 16) so an input costs milliseconds;
// their upper limits are checked by TestFrameSettingsLimits.
func fuzzConfig(in *checks.Input) verlet3d.Config {
	cfg := verlet3d.DefaultConfig()
	flags := in.U8()
	if flags&1 != 0 {
		cfg.Gravity = in.Vec()
	}
	if flags&2 != 0 {
		cfg.Damping = in.F32()
	}
	if flags&4 != 0 {
		cfg.TimeStep = in.F32()
	}
	if flags&8 != 0 {
		cfg.Substeps = int(int8(in.U8())) % 9
	}
	if flags&16 != 0 {
		cfg.Iterations = int(int8(in.U8())) % 17
	}
	if flags&32 != 0 {
		cfg.MaxStepsPerFrame = int(int8(in.U8())) % 9
	}
	if flags&64 != 0 {
		cfg.MaxSpeed = in.F32()
	}
	if flags&128 != 0 {
		cfg.ContactMargin = in.F32()
		cfg.Workers = 1 + in.Intn(4)
		cfg.WorkerSpin = float32(in.F32() * 1e-3) // a huge spin would only be slow
	}
	if flags&128 != 0 && flags&1 != 0 {
		cfg.WorkerSpin = in.F32()
	}
	return cfg
}

func fuzzCollider(t *testing.T, in *checks.Input) (verlet3d.Collider, error) {
	switch in.Intn(4) {
	case 0:
		return verlet3d.NewPlane(in.Vec(), in.Vec())
	case 1:
		return verlet3d.NewSphere(in.Vec(), in.F32())
	case 2:
		return verlet3d.NewCapsule(in.Vec(), in.Vec(), in.F32())
	default:
		return verlet3d.NewBox(in.Vec(), in.Vec(), mgl32.Quat{W: in.F32(), V: in.Vec()})
	}
}

func addFuzzCollider(t *testing.T, w *verlet3d.World, in *checks.Input) {
	c, err := fuzzCollider(t, in)
	if err != nil {
		checks.MustName(t, err, "collider", "radius", "normal", "half extents", "rotation", "center", "point", "ends", "Radius", "Center", "HalfExtents")
		return
	}
	cs := verlet3d.ContactSettings{Friction: in.F32(), Restitution: in.F32(), Mask: uint32(in.U8())}
	checks.Tracef(t, "AddCollider(%+v, %+v)", c, cs)
	before := checks.Snapshot(w)
	if err := w.AddCollider(c, cs); err != nil {
		checks.MustName(t, err, "AddCollider", "Friction", "Restitution", "Center", "Radius", "HalfExtents", "Point", "A", "B")
		before.Same(t, w, "AddCollider")
	}
}

// FuzzWorld builds a World from a fuzzed Config, particles, links, tethers
// and colliders, then plays a fuzzed sequence of frames and calls. Run it
// with
//
//	go test ./verlet3d -run '^$' -fuzz '^FuzzWorld$' -fuzztime 5m -parallel 1
func FuzzWorld(f *testing.F) {
	f.Add([]byte{})
	f.Add([]byte("\x00\x08\x00\x00\x00\x00\x00\x00\x00\x10\x00\x10\x00\x00\x10\x10\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00"))
	f.Add([]byte("\x04\x84\xff\x05\x00\x00\x10\x00\x00\x00\x00\x00\x00\x00\x00\x01\x00\x00\x00\x00\x10\x00\x02\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x01\x01\x01\x01"))
	f.Fuzz(func(t *testing.T, data []byte) {
		in := checks.NewInput(data)
		cfg := fuzzConfig(in)
		checks.Tracef(t, "config %+v", cfg)
		w, err := verlet3d.NewWorld(cfg)
		if err != nil {
			checks.MustName(t, err, "NewWorld", configFields...)
			return
		}
		defer w.Close()

		// Particles: a few free and pinned ones at fuzzed places.
		np := 1 + in.Intn(24)
		for i := 0; i < np; i++ {
			before := checks.Snapshot(w)
			pos, m := in.Vec(), in.F32()
			checks.Tracef(t, "AddParticle(%v, %v)", pos, m)
			if _, err := w.AddParticle(pos, m); err != nil {
				checks.MustName(t, err, "AddParticle", "position", "mass")
				before.Same(t, w, "AddParticle")
			}
		}
		n := w.NumParticles()
		if n == 0 {
			return
		}
		pick := func() verlet3d.Particle { return verlet3d.Particle(in.Intn(n)) }
		var links []verlet3d.Link
		for i, nl := 0, in.Intn(3*n+1); i < nl; i++ {
			a, b := pick(), pick()
			s := verlet3d.LinkSettings{}
			if in.U8()&1 != 0 {
				s = verlet3d.LinkSettings{Rest: in.F32(), Compliance: in.F32(), Stiffness: in.F32(), TensionOnly: in.U8()&1 != 0, BreakStrain: in.F32()}
			}
			before := checks.Snapshot(w)
			checks.Tracef(t, "AddLink(%d, %d, %+v)", a, b, s)
			l, err := w.AddLink(a, b, s)
			if err != nil {
				checks.MustName(t, err, "AddLink", "Rest", "Compliance", "Stiffness", "BreakStrain", "two different", "length")
				before.Same(t, w, "AddLink")
				continue
			}
			links = append(links, l)
		}
		for i, nt := 0, in.Intn(4); i < nt; i++ {
			before := checks.Snapshot(w)
			a, b, d := pick(), pick(), in.F32()
			checks.Tracef(t, "AddTether(%d, %d, %v)", a, b, d)
			if _, err := w.AddTether(a, b, d); err != nil {
				checks.MustName(t, err, "AddTether", "maxDist", "same")
				before.Same(t, w, "AddTether")
			}
		}
		for i, nc := 0, in.Intn(4); i < nc; i++ {
			addFuzzCollider(t, w, in)
		}
		checks.CheckWorld(t, w, "after building")

		for op := 0; op < 64 && in.Len() > 0; op++ {
			code := in.Intn(16)
			checks.Tracef(t, "op %d", code)
			switch code {
			case 0, 1, 2:
				w.Step()
				checks.CheckWorld(t, w, "Step")
			case 3, 4:
				dt := in.F32()
				checks.Tracef(t, "Advance(%v)", dt)
				if !vecmath.Finite32(dt) || dt < 0 {
					checks.ExpectPanic(t, "verlet3d", "Advance", func() { w.Advance(dt) })
					break
				}
				steps := w.Advance(dt)
				if steps < 0 || steps > cfg.MaxStepsPerFrame {
					t.Fatalf("Advance(%v) ran %d steps, cap %d", dt, steps, cfg.MaxStepsPerFrame)
				}
				checks.CheckWorld(t, w, fmt.Sprintf("Advance(%v)", dt))
			case 5:
				p, v := pick(), in.Vec()
				checks.Tracef(t, "SetTarget(%d, %v)", p, v)
				if !vecmath.Finite(v) {
					checks.ExpectPanic(t, "verlet3d", "SetTarget", func() { w.SetTarget(p, v) })
					break
				}
				w.SetTarget(p, v)
			case 6:
				p, v := pick(), in.Vec()
				checks.Tracef(t, "SetVelocity(%d, %v)", p, v)
				if !vecmath.Finite(v) {
					checks.ExpectPanic(t, "verlet3d", "SetVelocity", func() { w.SetVelocity(p, v) })
					break
				}
				w.SetVelocity(p, v)
			case 7:
				v := in.Vec()
				checks.Tracef(t, "Teleport(%v)", v)
				if !vecmath.Finite(v) {
					checks.ExpectPanic(t, "verlet3d", "Teleport", func() { w.Teleport(v) })
					break
				}
				if in.U8()&1 == 0 {
					w.Teleport(v)
				} else {
					w.Teleport(v, pick())
				}
			case 8:
				p, v := pick(), in.Vec()
				checks.Tracef(t, "DragTo(%d, %v)", p, v)
				if !vecmath.Finite(v) {
					checks.ExpectPanic(t, "verlet3d", "DragTo", func() { w.DragTo(p, v) })
					break
				}
				w.DragTo(p, v)
			case 9:
				w.Release(pick())
			case 10:
				p, m := pick(), in.F32()
				checks.Tracef(t, "SetMass(%d, %v)", p, m)
				if err := w.SetMass(p, m); err != nil {
					checks.MustName(t, err, "SetMass", "mass")
				}
			case 11:
				if p := pick(); in.U8()&1 == 0 {
					w.Pin(p)
				} else {
					w.Unpin(p)
				}
			case 12:
				p, v := pick(), in.Vec()
				checks.Tracef(t, "SetPosition(%d, %v)", p, v)
				if !vecmath.Finite(v) {
					checks.ExpectPanic(t, "verlet3d", "SetPosition", func() { w.SetPosition(p, v) })
					break
				}
				w.SetPosition(p, v)
			case 13:
				g := in.Vec()
				checks.Tracef(t, "SetGravity(%v)", g)
				if err := w.SetGravity(g); err != nil {
					checks.MustName(t, err, "SetGravity", "gravity")
				}
			case 14:
				p, r := pick(), in.F32()
				checks.Tracef(t, "SetRadius(%d, %v)", p, r)
				if err := w.SetRadius(p, r); err != nil {
					checks.MustName(t, err, "SetRadius", "radius")
				}
			default:
				switch in.Intn(3) {
				case 0:
					w.Reset()
				case 1:
					addFuzzCollider(t, w, in)
				default:
					if len(links) > 0 {
						w.BreakLink(links[in.Intn(len(links))])
					}
				}
			}
		}
		checks.CheckWorld(t, w, "after the sequence")

		// Steady state: a built World steps without allocating.
		checks.SteadyAllocs(t, w)
	})
}

// Finite but absurd values (issue 16 and the fuzz corpus) are refused with
// an error naming the field and value, or clamped as documented, and
// never turn into NaN.
func TestAbsurdFiniteValues(t *testing.T) {
	for _, tc := range []struct {
		name, want string
		err        error
	}{
		{"wind 1e30", "Wind.Steady", verlet3d.Wind{Steady: mgl32.Vec3{1e30, 0, 0}}.Validate()},
		{"turbulence 1e30", "Wind.Turbulence = 1e+30", verlet3d.Wind{Turbulence: 1e30, TurbulenceScale: 1}.Validate()},
		{"turbulence scale 1e-45", "Wind.TurbulenceScale = 1e-45", verlet3d.Wind{Turbulence: 1, TurbulenceScale: 1e-45}.Validate()},
		{"gust period 1e-45", "Wind.GustPeriod = 1e-45", verlet3d.Wind{Gust: 0.5, GustPeriod: 1e-45}.Validate()},
		{"gust 1e30", "Wind.Gust = 1e+30", verlet3d.Wind{Gust: 1e30, GustPeriod: 1}.Validate()},
		{"sphere radius 1e30", "radius = 1e+30", func() error { _, err := verlet3d.NewSphere(mgl32.Vec3{}, 1e30); return err }()},
		{"sphere at 1e30", "center = [1e+30", func() error { _, err := verlet3d.NewSphere(mgl32.Vec3{1e30, 0, 0}, 1); return err }()},
		{"capsule radius 1e30", "radius = 1e+30", func() error { _, err := verlet3d.NewCapsule(mgl32.Vec3{}, mgl32.Vec3{0, 1, 0}, 1e30); return err }()},
		{"box 1e30", "half extents = [1e+30", func() error {
			_, err := verlet3d.NewBox(mgl32.Vec3{}, mgl32.Vec3{1e30, 1, 1}, mgl32.QuatIdent())
			return err
		}()},
		{"plane at 1e30", "point = [0 1e+30", func() error { _, err := verlet3d.NewPlane(mgl32.Vec3{0, 1e30, 0}, mgl32.Vec3{0, 1, 0}); return err }()},
		{"MaxSpeed 1e30", "Config.MaxSpeed = 1e+30", func() error {
			c := verlet3d.DefaultConfig()
			c.MaxSpeed = 1e30
			_, err := verlet3d.NewWorld(c)
			return err
		}()},
		{"ContactMargin 1e30", "Config.ContactMargin = 1e+30", func() error {
			c := verlet3d.DefaultConfig()
			c.ContactMargin = 1e30
			_, err := verlet3d.NewWorld(c)
			return err
		}()},
	} {
		if tc.err == nil || !strings.Contains(tc.err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one containing %q", tc.name, tc.err, tc.want)
		}
	}

	w := newWorld(t, nil)
	a := add(t, w, mgl32.Vec3{}, 0)
	b := add(t, w, mgl32.Vec3{0, -1, 0}, 1)
	c := add(t, w, mgl32.Vec3{0, -2, 0}, 1)
	if _, err := w.AddParticle(mgl32.Vec3{1e30, 0, 0}, 1); err == nil || !strings.Contains(err.Error(), "position = [1e+30") {
		t.Errorf("particle at 1e30: error %v", err)
	}
	// The corpus entries 948cee3f699b0124 and 98853337fd22c664.
	if _, err := w.AddLink(a, b, verlet3d.LinkSettings{Rest: 4.8e26}); err == nil || !strings.Contains(err.Error(), "Rest = 4.8e+26") {
		t.Errorf("rest 4.8e26: error %v", err)
	}
	if err := w.SetRadius(b, 4.8e26); err == nil || !strings.Contains(err.Error(), "radius = 4.8e+26") {
		t.Errorf("radius 4.8e26: error %v", err)
	}
	if _, err := w.AddTether(a, c, 1e30); err == nil || !strings.Contains(err.Error(), "maxDist = 1e+30") {
		t.Errorf("tether 1e30: error %v", err)
	}
	// Compliance from 1e-45 to MaxCompliance is accepted and stays finite.
	link(t, w, a, b, verlet3d.LinkSettings{Compliance: 1e-45})
	link(t, w, b, c, verlet3d.LinkSettings{Compliance: verlet3d.MaxCompliance})
	if _, err := w.AddLink(b, c, verlet3d.LinkSettings{Compliance: 3.4e38}); err == nil || !strings.Contains(err.Error(), "Compliance = 3.4e+38") {
		t.Errorf("compliance 3.4e38: error %v", err)
	}
	// The setters without an error clamp to ±MaxCoordinate and ±MaxSpeedLimit.
	w.SetVelocity(c, mgl32.Vec3{1e30, 0, 0})
	for i := 0; i < 120; i++ {
		w.Step()
	}
	checks.CheckWorld(t, w, "after SetVelocity(1e30) and tiny and huge compliances")
	w.SetPosition(c, mgl32.Vec3{0, 3e38, 0})
	if got := w.Position(c)[1]; got != verlet3d.MaxCoordinate {
		t.Errorf("SetPosition(3e38) put the particle at y = %v, want the clamp %v", got, float32(verlet3d.MaxCoordinate))
	}
	for i := 0; i < 60; i++ {
		w.Step()
	}
	checks.CheckWorld(t, w, "after SetPosition(3e38)")
	w.Teleport(mgl32.Vec3{3e38, 0, 0})
	w.Teleport(mgl32.Vec3{3e38, 0, 0})
	for i := 0; i < 60; i++ {
		w.Step()
	}
	checks.CheckWorld(t, w, "after absurd setters")
}

// The NaN guard catches infinities too (issue 16: a particle was left at
// (+Inf, -Inf, -Inf) after a step).
func TestGuardCatchesInf(t *testing.T) {
	w := newWorld(t, nil)
	a := add(t, w, mgl32.Vec3{0, 1, 0}, 1)
	b := add(t, w, mgl32.Vec3{1, 1, 0}, 1)
	link(t, w, a, b, verlet3d.LinkSettings{})
	w.AddForceField(infField{a})
	w.Step()
	if !vecmath.Finite(w.Position(a)) || !vecmath.Finite(w.Position(b)) || !vecmath.Finite(w.PrevPositions()[a]) {
		t.Fatalf("Inf got through: %v %v", w.Position(a), w.Position(b))
	}
	if w.Stats().NonFiniteResets == 0 {
		t.Error("reset not counted")
	}
}

type infField struct{ p verlet3d.Particle }

func (f infField) Apply(w *verlet3d.World, _ verlet3d.Substep) {
	inf := float32(math.Inf(1))
	w.AddAcceleration(f.p, mgl32.Vec3{inf, -inf, -inf})
}

// Non-finite input to the setters without an error panics, as the package
// doc says (issue 16: these panics were undocumented).
func TestNonFiniteSettersPanic(t *testing.T) {
	w := newWorld(t, nil)
	p := add(t, w, mgl32.Vec3{}, 1)
	bad := mgl32.Vec3{0, float32(math.Inf(-1)), 0}
	checks.ExpectPanic(t, "not finite", "SetPosition", func() { w.SetPosition(p, bad) })
	checks.ExpectPanic(t, "not finite", "SetVelocity", func() { w.SetVelocity(p, bad) })
	checks.ExpectPanic(t, "not finite", "SetTarget", func() { w.SetTarget(p, bad) })
	checks.ExpectPanic(t, "not finite", "DragTo", func() { w.DragTo(p, bad) })
	checks.ExpectPanic(t, "not finite", "Teleport", func() { w.Teleport(bad) })
	checks.ExpectPanic(t, "Advance", "Advance(NaN)", func() { w.Advance(float32(math.NaN())) })
	checks.ExpectPanic(t, "Advance", "Advance(+Inf)", func() { w.Advance(float32(math.Inf(1))) })
	checks.CheckWorld(t, w, "after the refused calls")
}
