package bodies_test

import (
	"math"
	"os"
	"strings"
	"testing"

	"github.com/drape3d/drape/bodies"
	"github.com/drape3d/drape/verlet3d"
	"github.com/go-gl/mathgl/mgl32"
)

// FuzzBodies adds cubes from fuzzed CubeSettings and colliders from fuzzed
// shapes, then plays fuzzed frames, impulses and throws.
//
//	go test ./bodies -run '^$' -fuzz '^FuzzBodies$' -fuzztime 5m -parallel 1
func FuzzBodies(f *testing.F) {
	f.Add([]byte{})
	f.Add([]byte("\x00\x03\x00\x00\x01\x00\x00\x00\x02\x02\x02\x05\x05\x05\x05\x06"))
	f.Add([]byte("\x01\x04\xff\x80\x90\x01\x02\x03\x04\x05\x06\x07\x00\x01\x02\x03\x04\x05\x06\x07"))
	f.Fuzz(func(t *testing.T, data []byte) {
		in := &fuzzIn{data}
		cfg := verlet3d.DefaultConfig()
		cfg.Workers = 1 + in.intn(2)
		w, err := verlet3d.NewWorld(cfg)
		if err != nil {
			t.Fatal(err)
		}
		defer w.Close()
		set := bodies.DefaultSettings()
		if in.u8()&1 != 0 {
			set = bodies.Settings{Friction: in.maybe(set.Friction), ParticleFriction: in.maybe(set.ParticleFriction),
				Restitution: in.maybe(0), Margin: in.maybe(set.Margin), Passes: int(int8(in.u8()))}
		}
		tracef(t, "Settings %+v", set)
		sys, err := bodies.NewSystem(w, set)
		if err != nil {
			mustName(t, err, "NewSystem", "Settings.")
			return
		}
		floor, _ := verlet3d.NewPlane(mgl32.Vec3{}, mgl32.Vec3{0, 1, 0})
		if err := sys.AddCollider(floor, verlet3d.ContactSettings{Friction: 0.5}); err != nil {
			t.Fatal(err)
		}
		for i, n := 0, in.intn(4); i < n; i++ {
			var c verlet3d.Collider
			var err error
			switch in.intn(3) {
			case 0:
				c, err = verlet3d.NewSphere(in.vec(), in.f32())
			case 1:
				c, err = verlet3d.NewCapsule(in.vec(), in.vec(), in.f32())
			default:
				c, err = verlet3d.NewBox(in.vec(), in.vec(), mgl32.Quat{W: in.f32(), V: in.vec()})
			}
			tracef(t, "collider %+v %v", c, err)
			if err != nil {
				continue
			}
			if lo, hi := c.Bounds(); hi.Sub(lo).Len() > 2e3 {
				// Open finding (reported in issue 16's note): a cube inside
				// a sphere of radius 1e6 m is thrown 1e6 m in one substep
				// and its particles go NaN. Not fixed here: it is in the
				// cube solver. Colliders stay under 1 km in this target.
				continue
			}
			cs := verlet3d.ContactSettings{Friction: in.maybe(0.5), Restitution: in.maybe(0)}
			before := snapshot(w)
			if err := sys.AddCollider(c, cs); err != nil {
				mustName(t, err, "AddCollider", "Friction", "Restitution")
				before.same(t, w, "AddCollider")
			}
		}
		var cubes []bodies.Cube
		for i, n := 0, 1+in.intn(6); i < n; i++ {
			cs := bodies.CubeSettings{Size: 0.5, Mass: 1, Position: mgl32.Vec3{float32(i) * 0.2, 0.5 + float32(i)*0.7, 0}}
			if fl := in.u8(); fl&1 != 0 {
				cs.Size, cs.Mass, cs.Compliance = in.maybe(cs.Size), in.maybe(cs.Mass), in.maybe(0)
				cs.Hollow = fl&2 != 0
				if fl&4 != 0 {
					cs.Position, cs.Rotation = in.vec(), mgl32.Quat{W: in.f32(), V: in.vec()}
				}
				if fl&8 != 0 {
					cs.Velocity, cs.AngularVelocity = in.vec(), in.vec()
				}
			}
			tracef(t, "AddCube(%+v)", cs)
			before := snapshot(w)
			c, err := sys.AddCube(cs)
			if err != nil {
				mustName(t, err, "AddCube", "CubeSettings.")
				before.same(t, w, "AddCube")
				continue
			}
			cubes = append(cubes, c)
		}
		checkWorld(t, w, "after building")
		for op := 0; op < 48 && len(in.b) > 0; op++ {
			switch code := in.intn(6); code {
			case 0, 1, 2:
				w.Advance(1.0 / 60)
				checkWorld(t, w, "frame")
			case 3:
				if len(cubes) > 0 {
					c := cubes[in.intn(len(cubes))]
					at, imp := in.vec(), in.vec()
					tracef(t, "ApplyImpulse(%d, %v, %v)", c, at, imp)
					if err := sys.ApplyImpulse(c, at, imp); err != nil {
						mustName(t, err, "ApplyImpulse", "impulse", "at", "point")
					}
				}
			case 4:
				if len(cubes) > 0 {
					c := cubes[in.intn(len(cubes))]
					v, om := in.vec(), in.vec()
					tracef(t, "Throw(%d, %v, %v)", c, v, om)
					if err := sys.Throw(c, v, om); err != nil {
						mustName(t, err, "Throw", "velocity", "omega", "spin", "v ")
					}
				}
			default:
				dt := float32(in.intn(100)) / 100
				tracef(t, "Advance(%v)", dt)
				w.Advance(dt)
				checkWorld(t, w, "long frame")
			}
		}
		checkWorld(t, w, "after the sequence")
		for _, c := range cubes {
			p, q := sys.Transform(c)
			if !finiteV(p) || !finite32(q.W) || !finiteV(q.V) {
				t.Fatalf("cube %d transform %v %v", c, p, q)
			}
		}
		steadyAllocs(t, w)
	})
}

// Regressions from issue 16 and the fuzz corpus (testdata/fuzz/FuzzBodies):
// huge finite impulses, throws and velocities return errors naming the
// values (they used to panic inside SetVelocity), tiny cubes are refused.
func TestAbsurdBodiesInput(t *testing.T) {
	w, s := newWorld(t, nil)
	c := addCube(t, s, bodies.CubeSettings{Size: 1, Mass: 1})
	for _, tc := range []struct {
		name, want string
		err        error
	}{
		{"impulse 1e30", "impulse = [1e+30 0 0]", s.ApplyImpulse(c, mgl32.Vec3{}, mgl32.Vec3{1e30, 0, 0})},
		{"impulse 1e30 at 1e30", "at = [1e+30 0 0]", s.ApplyImpulse(c, mgl32.Vec3{1e30, 0, 0}, mgl32.Vec3{0, 1e30, 0})},
		{"impulse at +Inf (5e4b96c965b85134)", "at = [+Inf 0 0]", s.ApplyImpulse(c, mgl32.Vec3{float32(math.Inf(1)), 0, 0}, mgl32.Vec3{})},
		{"throw 1e30", "v = [1e+30 0 0]", s.Throw(c, mgl32.Vec3{1e30, 0, 0}, mgl32.Vec3{})},
		{"spin 3e38", "omega = [0 3e+38 0]", s.Throw(c, mgl32.Vec3{}, mgl32.Vec3{0, 3e38, 0})},
		{"size 1e-5", "Size = 1e-05", func() error { _, err := s.AddCube(bodies.CubeSettings{Size: 1e-5, Mass: 1}); return err }()},
		{"velocity 1e30", "Velocity = [1e+30 0 0]", func() error {
			_, err := s.AddCube(bodies.CubeSettings{Size: 1, Mass: 1, Velocity: mgl32.Vec3{1e30, 0, 0}})
			return err
		}()},
		{"position 1e30", "Position = [1e+30 0 0]", func() error {
			_, err := s.AddCube(bodies.CubeSettings{Size: 1, Mass: 1, Position: mgl32.Vec3{1e30, 0, 0}})
			return err
		}()},
		{"compliance 3e38", "Compliance = 3e+38", func() error { _, err := s.AddCube(bodies.CubeSettings{Size: 1, Mass: 1, Compliance: 3e38}); return err }()},
	} {
		if tc.err == nil || !strings.Contains(tc.err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one containing %q", tc.name, tc.err, tc.want)
		}
	}
	// The largest impulse accepted leaves the World finite.
	if err := s.ApplyImpulse(c, mgl32.Vec3{0.5, 0.5, 0}, mgl32.Vec3{0, 0, 2e4}); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 60; i++ {
		w.Step()
	}
	checkWorld(t, w, "after a 2e4 N·s impulse")
}

// fuzzIn turns fuzzer bytes into API arguments: mostly game-scale numbers,
// sometimes the absurd ones a careless caller passes (denormals, 1e30,
// NaN, ±Inf). Running out of bytes gives zeros, so every input decodes.
// (The same decoder as verlet3d's fuzz_test.go: test files cannot share.)
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

// maybe returns def three times in four, else a fuzzed value.
func (f *fuzzIn) maybe(def float32) float32 {
	if f.u8()&3 == 0 {
		return f.f32()
	}
	return def
}

func (f *fuzzIn) vec() mgl32.Vec3 { return mgl32.Vec3{f.f32(), f.f32(), f.f32()} }

var traceFuzz = os.Getenv("DRAPE_FUZZ_TRACE") != ""

// tracef logs decoded calls when DRAPE_FUZZ_TRACE is set, to read a
// failing corpus entry: DRAPE_FUZZ_TRACE=1 go test -run FuzzX/ID -v
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
		if s.pos[i] != now.pos[i] {
			t.Fatalf("%s failed but moved particle %d: %v -> %v", what, i, s.pos[i], now.pos[i])
		}
	}
}

// mustName fails unless err names one of the fields.
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

// checkWorld fails on a non-finite particle or a reset by the NaN guard
// (an input the API accepted went non-finite).
func checkWorld(t *testing.T, w *verlet3d.World, when string) {
	t.Helper()
	prev := w.PrevPositions()
	for i, p := range w.Positions() {
		if !finiteV(p) || !finiteV(prev[i]) {
			t.Fatalf("%s: particle %d at %v (prev %v)", when, i, p, prev[i])
		}
	}
	if n := w.Stats().NonFiniteResets; n != 0 {
		t.Fatalf("%s: %d non-finite resets: accepted input produced NaN/Inf", when, n)
	}
	if a := w.Alpha(); !(a >= 0 && a < 1) {
		t.Fatalf("%s: Alpha %v outside [0, 1)", when, a)
	}
}

// steadyAllocs steps w 30 times, then fails if the next steps allocate
// on average once or more per step (growing a contact list to a new
// maximum may allocate now and then; the process-wide malloc count also
// sees the fuzzing engine's own goroutines). Steps in which links break
// are not steady: a tear re-meshes the cloth.
func steadyAllocs(t *testing.T, w *verlet3d.World) {
	t.Helper()
	for i := 0; i < 30; i++ {
		w.Step()
	}
	broken := w.Stats().LinksBroken
	a := testing.AllocsPerRun(10, w.Step)
	checkWorld(t, w, "steady state")
	if a >= 1 && w.Stats().LinksBroken == broken {
		t.Fatalf("steady steps allocated %v times per step", a)
	}
}
