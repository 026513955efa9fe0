package verlet3d_test

import (
	"fmt"
	"math"
	"os"
	"strings"
	"testing"

	"github.com/drape3d/drape/verlet3d"
	"github.com/go-gl/mathgl/mgl32"
)

// fuzzIn turns fuzzer bytes into API arguments: mostly game-scale numbers,
// sometimes the absurd ones a careless caller passes (denormals, 1e30,
// NaN, ±Inf). Running out of bytes gives zeros, so every input decodes.
type fuzzIn struct{ b []byte }

var fuzzSpecial = []float32{
	0, 1, -1, 0.5, 1e-45, -1e-45, 1e-39, 1e-9, 1e-6, 1e-5, 1e-3, 0.01, 0.1, 1.0 / 60, 0.25,
	10, 100, 1e3, 1e6, 1e9, 1e12, 1e20, 1e30, 3.4e38, -1e30, -3.4e38,
	float32(math.NaN()), float32(math.Inf(1)), float32(math.Inf(-1)),
}

func (f *fuzzIn) u8() byte {
	if len(f.b) == 0 {
		return 0
	}
	c := f.b[0]
	f.b = f.b[1:]
	return c
}

func (f *fuzzIn) intn(n int) int { return int(f.u8()) % n }

// f32: half the time -8..8 in steps of 1/16, else a special value, a byte
// times a power of ten, or raw bits.
func (f *fuzzIn) f32() float32 {
	switch m := f.u8(); {
	case m < 128:
		return float32(int8(f.u8())) / 16
	case m < 192:
		return fuzzSpecial[int(m)%len(fuzzSpecial)]
	case m < 232:
		return float32(int8(f.u8())) * float32(math.Pow(10, float64(f.intn(80))-40))
	default:
		u := uint32(f.u8()) | uint32(f.u8())<<8 | uint32(f.u8())<<16 | uint32(f.u8())<<24
		return math.Float32frombits(u)
	}
}

func (f *fuzzIn) vec() mgl32.Vec3 { return mgl32.Vec3{f.f32(), f.f32(), f.f32()} }

// traceFuzz logs every decoded call when DRAPE_FUZZ_TRACE is set, to
// read a failing corpus entry: DRAPE_FUZZ_TRACE=1 go test -run FuzzWorld/ID -v
var traceFuzz = os.Getenv("DRAPE_FUZZ_TRACE") != ""

func tracef(t *testing.T, format string, args ...any) {
	if traceFuzz {
		t.Helper()
		t.Logf(format, args...)
	}
}

func finite32(x float32) bool { return !math.IsNaN(float64(x)) && !math.IsInf(float64(x), 0) }

func finiteV(v mgl32.Vec3) bool { return finite32(v[0]) && finite32(v[1]) && finite32(v[2]) }

// worldState is what a failed constructor must leave as it was.
type worldState struct {
	particles, links, tethers, colliders int
	pos                                  []mgl32.Vec3
}

func snapshot(w *verlet3d.World) worldState {
	return worldState{w.NumParticles(), w.NumLinks(), w.NumTethers(), len(w.Colliders()),
		append([]mgl32.Vec3(nil), w.Positions()...)}
}

func (s worldState) same(t *testing.T, w *verlet3d.World, what string) {
	t.Helper()
	now := snapshot(w)
	if now.particles != s.particles || now.links != s.links || now.tethers != s.tethers || now.colliders != s.colliders {
		t.Fatalf("%s failed but changed the World: particles %d->%d links %d->%d tethers %d->%d colliders %d->%d",
			what, s.particles, now.particles, s.links, now.links, s.tethers, now.tethers, s.colliders, now.colliders)
	}
	for i := range s.pos {
		if s.pos[i] != now.pos[i] && !(math.IsNaN(float64(s.pos[i][0])) || math.IsNaN(float64(now.pos[i][0]))) {
			t.Fatalf("%s failed but moved particle %d: %v -> %v", what, i, s.pos[i], now.pos[i])
		}
	}
}

// mustName fails unless err names one of the fields and says "=" or shows
// the value.
func mustName(t *testing.T, err error, what string, fields ...string) {
	t.Helper()
	msg := err.Error()
	for _, f := range fields {
		if strings.Contains(msg, f) {
			return
		}
	}
	t.Fatalf("%s: error %q names none of %v", what, msg, fields)
}

// expectPanic runs f, which the docs say panics (a handle misuse), and
// checks that it does with a message from the package.
func expectPanic(t *testing.T, what string, f func()) {
	t.Helper()
	defer func() {
		r := recover()
		if r == nil {
			t.Fatalf("%s: no panic, documented to panic", what)
		}
		if !strings.Contains(fmt.Sprint(r), "verlet3d") {
			t.Fatalf("%s: panic %v is not the documented one", what, r)
		}
	}()
	f()
}

// checkWorld fails on a non-finite particle, a reset by the NaN guard (a
// finite input the API accepted went non-finite) or Alpha out of [0, 1).
func checkWorld(t *testing.T, w *verlet3d.World, when string) {
	t.Helper()
	for i, p := range w.Positions() {
		if !finiteV(p) || !finiteV(w.PrevPositions()[i]) {
			t.Fatalf("%s: particle %d at %v (prev %v)", when, i, p, w.PrevPositions()[i])
		}
	}
	if n := w.Stats().NonFiniteResets; n != 0 {
		t.Fatalf("%s: %d non-finite resets: accepted input produced NaN/Inf", when, n)
	}
	if a := w.Alpha(); !(a >= 0 && a < 1) {
		t.Fatalf("%s: Alpha %v outside [0, 1)", when, a)
	}
}

var configFields = []string{"Gravity", "Damping", "TimeStep", "Substeps", "Iterations", "MaxStepsPerFrame", "Workers", "MaxSpeed", "ContactMargin"}

// fuzzConfig edits a DefaultConfig field by field; a zero flag byte keeps
// the defaults, so most inputs build a World. Substeps, Iterations and
// MaxStepsPerFrame stay small (|n| <= 16) so an input costs milliseconds;
// their upper limits are checked by TestFrameSettingsLimits.
func fuzzConfig(in *fuzzIn) verlet3d.Config {
	cfg := verlet3d.DefaultConfig()
	flags := in.u8()
	if flags&1 != 0 {
		cfg.Gravity = in.vec()
	}
	if flags&2 != 0 {
		cfg.Damping = in.f32()
	}
	if flags&4 != 0 {
		cfg.TimeStep = in.f32()
	}
	if flags&8 != 0 {
		cfg.Substeps = int(int8(in.u8())) % 9
	}
	if flags&16 != 0 {
		cfg.Iterations = int(int8(in.u8())) % 17
	}
	if flags&32 != 0 {
		cfg.MaxStepsPerFrame = int(int8(in.u8())) % 9
	}
	if flags&64 != 0 {
		cfg.MaxSpeed = in.f32()
	}
	if flags&128 != 0 {
		cfg.ContactMargin = in.f32()
		cfg.Workers = 1 + in.intn(4)
	}
	return cfg
}

func fuzzCollider(t *testing.T, in *fuzzIn) (verlet3d.Collider, error) {
	switch in.intn(4) {
	case 0:
		return verlet3d.NewPlane(in.vec(), in.vec())
	case 1:
		return verlet3d.NewSphere(in.vec(), in.f32())
	case 2:
		return verlet3d.NewCapsule(in.vec(), in.vec(), in.f32())
	default:
		return verlet3d.NewBox(in.vec(), in.vec(), mgl32.Quat{W: in.f32(), V: in.vec()})
	}
}

func addFuzzCollider(t *testing.T, w *verlet3d.World, in *fuzzIn) {
	c, err := fuzzCollider(t, in)
	if err != nil {
		mustName(t, err, "collider", "radius", "normal", "half extents", "rotation", "centre", "point", "ends", "Radius", "Center", "HalfExtents")
		return
	}
	cs := verlet3d.ContactSettings{Friction: in.f32(), Restitution: in.f32(), Mask: uint32(in.u8())}
	tracef(t, "AddCollider(%+v, %+v)", c, cs)
	before := snapshot(w)
	if err := w.AddCollider(c, cs); err != nil {
		mustName(t, err, "AddCollider", "Friction", "Restitution", "Center", "Radius", "HalfExtents", "Point", "A", "B")
		before.same(t, w, "AddCollider")
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
		in := &fuzzIn{data}
		cfg := fuzzConfig(in)
		tracef(t, "config %+v", cfg)
		w, err := verlet3d.NewWorld(cfg)
		if err != nil {
			mustName(t, err, "NewWorld", configFields...)
			return
		}
		defer w.Close()

		// Particles: a few free and pinned ones at fuzzed places.
		np := 1 + in.intn(24)
		for i := 0; i < np; i++ {
			before := snapshot(w)
			pos, m := in.vec(), in.f32()
			tracef(t, "AddParticle(%v, %v)", pos, m)
			if _, err := w.AddParticle(pos, m); err != nil {
				mustName(t, err, "AddParticle", "position", "mass")
				before.same(t, w, "AddParticle")
			}
		}
		n := w.NumParticles()
		if n == 0 {
			return
		}
		pick := func() verlet3d.Particle { return verlet3d.Particle(in.intn(n)) }
		var links []verlet3d.Link
		for i, nl := 0, in.intn(3*n+1); i < nl; i++ {
			a, b := pick(), pick()
			s := verlet3d.LinkSettings{}
			if in.u8()&1 != 0 {
				s = verlet3d.LinkSettings{Rest: in.f32(), Compliance: in.f32(), Stiffness: in.f32(), TensionOnly: in.u8()&1 != 0, BreakStrain: in.f32()}
			}
			before := snapshot(w)
			tracef(t, "AddLink(%d, %d, %+v)", a, b, s)
			l, err := w.AddLink(a, b, s)
			if err != nil {
				mustName(t, err, "AddLink", "Rest", "Compliance", "Stiffness", "BreakStrain", "two different", "length")
				before.same(t, w, "AddLink")
				continue
			}
			links = append(links, l)
		}
		for i, nt := 0, in.intn(4); i < nt; i++ {
			before := snapshot(w)
			a, b, d := pick(), pick(), in.f32()
			tracef(t, "AddTether(%d, %d, %v)", a, b, d)
			if _, err := w.AddTether(a, b, d); err != nil {
				mustName(t, err, "AddTether", "maxDist", "same")
				before.same(t, w, "AddTether")
			}
		}
		for i, nc := 0, in.intn(4); i < nc; i++ {
			addFuzzCollider(t, w, in)
		}
		checkWorld(t, w, "after building")

		for op := 0; op < 64 && len(in.b) > 0; op++ {
			code := in.intn(16)
			tracef(t, "op %d", code)
			switch code {
			case 0, 1, 2:
				w.Step()
				checkWorld(t, w, "Step")
			case 3, 4:
				dt := in.f32()
				tracef(t, "Advance(%v)", dt)
				if !finite32(dt) || dt < 0 {
					expectPanic(t, "Advance", func() { w.Advance(dt) })
					break
				}
				steps := w.Advance(dt)
				if steps < 0 || steps > cfg.MaxStepsPerFrame {
					t.Fatalf("Advance(%v) ran %d steps, cap %d", dt, steps, cfg.MaxStepsPerFrame)
				}
				checkWorld(t, w, fmt.Sprintf("Advance(%v)", dt))
			case 5:
				p, v := pick(), in.vec()
				tracef(t, "SetTarget(%d, %v)", p, v)
				if !finiteV(v) {
					expectPanic(t, "SetTarget", func() { w.SetTarget(p, v) })
					break
				}
				w.SetTarget(p, v)
			case 6:
				p, v := pick(), in.vec()
				tracef(t, "SetVelocity(%d, %v)", p, v)
				if !finiteV(v) {
					expectPanic(t, "SetVelocity", func() { w.SetVelocity(p, v) })
					break
				}
				w.SetVelocity(p, v)
			case 7:
				v := in.vec()
				tracef(t, "Teleport(%v)", v)
				if !finiteV(v) {
					expectPanic(t, "Teleport", func() { w.Teleport(v) })
					break
				}
				if in.u8()&1 == 0 {
					w.Teleport(v)
				} else {
					w.Teleport(v, pick())
				}
			case 8:
				p, v := pick(), in.vec()
				tracef(t, "DragTo(%d, %v)", p, v)
				if !finiteV(v) {
					expectPanic(t, "DragTo", func() { w.DragTo(p, v) })
					break
				}
				w.DragTo(p, v)
			case 9:
				w.Release(pick())
			case 10:
				p, m := pick(), in.f32()
				tracef(t, "SetMass(%d, %v)", p, m)
				if err := w.SetMass(p, m); err != nil {
					mustName(t, err, "SetMass", "mass")
				}
			case 11:
				if p := pick(); in.u8()&1 == 0 {
					w.Pin(p)
				} else {
					w.Unpin(p)
				}
			case 12:
				p, v := pick(), in.vec()
				tracef(t, "SetPosition(%d, %v)", p, v)
				if !finiteV(v) {
					expectPanic(t, "SetPosition", func() { w.SetPosition(p, v) })
					break
				}
				w.SetPosition(p, v)
			case 13:
				g := in.vec()
				tracef(t, "SetGravity(%v)", g)
				if err := w.SetGravity(g); err != nil {
					mustName(t, err, "SetGravity", "gravity")
				}
			case 14:
				p, r := pick(), in.f32()
				tracef(t, "SetRadius(%d, %v)", p, r)
				if err := w.SetRadius(p, r); err != nil {
					mustName(t, err, "SetRadius", "radius")
				}
			default:
				switch in.intn(3) {
				case 0:
					w.Reset()
				case 1:
					addFuzzCollider(t, w, in)
				default:
					if len(links) > 0 {
						w.BreakLink(links[in.intn(len(links))])
					}
				}
			}
		}
		checkWorld(t, w, "after the sequence")

		// Steady state: a built World steps without allocating; growing
		// the contact list to a new maximum may allocate now and then, and
		// the process-wide malloc count also sees the fuzzing engine.
		for i := 0; i < 30; i++ {
			w.Step()
		}
		broken := w.Stats().LinksBroken
		a := testing.AllocsPerRun(10, w.Step)
		checkWorld(t, w, "steady state")
		if a >= 1 && w.Stats().LinksBroken == broken {
			t.Fatalf("steady steps allocated %v times per step", a)
		}
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
		{"sphere at 1e30", "centre = [1e+30", func() error { _, err := verlet3d.NewSphere(mgl32.Vec3{1e30, 0, 0}, 1); return err }()},
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
	checkWorld(t, w, "after SetVelocity(1e30) and tiny and huge compliances")
	w.SetPosition(c, mgl32.Vec3{0, 3e38, 0})
	if got := w.Position(c)[1]; got != verlet3d.MaxCoordinate {
		t.Errorf("SetPosition(3e38) put the particle at y = %v, want the clamp %v", got, float32(verlet3d.MaxCoordinate))
	}
	for i := 0; i < 60; i++ {
		w.Step()
	}
	checkWorld(t, w, "after SetPosition(3e38)")
	w.Teleport(mgl32.Vec3{3e38, 0, 0})
	w.Teleport(mgl32.Vec3{3e38, 0, 0})
	for i := 0; i < 60; i++ {
		w.Step()
	}
	checkWorld(t, w, "after absurd setters")
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
	if !finiteV(w.Position(a)) || !finiteV(w.Position(b)) || !finiteV(w.PrevPositions()[a]) {
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
	mustPanic(t, "SetPosition", "not finite", func() { w.SetPosition(p, bad) })
	mustPanic(t, "SetVelocity", "not finite", func() { w.SetVelocity(p, bad) })
	mustPanic(t, "SetTarget", "not finite", func() { w.SetTarget(p, bad) })
	mustPanic(t, "DragTo", "not finite", func() { w.DragTo(p, bad) })
	mustPanic(t, "Teleport", "not finite", func() { w.Teleport(bad) })
	mustPanic(t, "Advance(NaN)", "Advance", func() { w.Advance(float32(math.NaN())) })
	mustPanic(t, "Advance(+Inf)", "Advance", func() { w.Advance(float32(math.Inf(1))) })
	checkWorld(t, w, "after the refused calls")
}
