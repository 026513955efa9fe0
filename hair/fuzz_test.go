package hair_test

import (
	"math"
	"os"
	"strings"
	"testing"

	"github.com/drape3d/drape/hair"
	"github.com/drape3d/drape/verlet3d"
	"github.com/go-gl/mathgl/mgl32"
)

// FuzzHair grows hair from fuzzed hair.Settings and Head, then shakes,
// snaps and teleports the head through fuzzed frames, with fuzzed wind and
// style changes.
//
//	go test ./hair -run '^$' -fuzz '^FuzzHair$' -fuzztime 5m -parallel 1
func FuzzHair(f *testing.F) {
	f.Add([]byte{})
	f.Add([]byte("\x00\x00\x05\x00\x00\x01\x01\x01\x02\x02\x03\x03\x04\x05\x06"))
	f.Add([]byte("\x08\x03\xff\x81\x9c\x00\x00\x00\x00\x00\x00\x00\x01\x00\x02\x00\x03\x00\x04\x00"))
	f.Fuzz(func(t *testing.T, data []byte) {
		in := &fuzzIn{data}
		cfg := hair.WorldConfig()
		cfg.Workers = 1 + in.intn(2)
		w, err := verlet3d.NewWorld(cfg)
		if err != nil {
			t.Fatal(err)
		}
		defer w.Close()
		if _, err := w.AddParticle(mgl32.Vec3{0, 5, 0}, 1); err != nil {
			t.Fatal(err)
		}
		head := hair.DefaultHead()
		s := hair.DefaultSettings()
		s.Strands, s.Segments = 1+in.intn(12), 1+in.intn(10)
		flags := in.u8()
		if flags&1 != 0 {
			s.Strands, s.Segments = int(int32(uint32(in.u8())<<in.intn(32))), int(int32(uint32(in.u8())<<in.intn(32)))
		}
		if flags&2 != 0 {
			s.Length, s.LengthVariation, s.CapAngle, s.CapTilt = in.maybe(s.Length), in.maybe(s.LengthVariation), in.maybe(s.CapAngle), in.maybe(s.CapTilt)
			s.Parting, s.PartingWidth, s.Lift, s.Volume = in.maybe(s.Parting), in.maybe(s.PartingWidth), in.maybe(s.Lift), in.maybe(s.Volume)
		}
		if flags&4 != 0 {
			s.Mass, s.Radius, s.StretchCompliance, s.BendCompliance = in.maybe(s.Mass), in.maybe(s.Radius), in.maybe(0), in.maybe(s.BendCompliance)
		}
		if flags&8 != 0 {
			s.StyleStiffness, s.StyleTip, s.WindDrag, s.HeadFriction = in.maybe(s.StyleStiffness), in.maybe(s.StyleTip), in.maybe(s.WindDrag), in.maybe(s.HeadFriction)
			s.CarryLinear, s.CarryAngular, s.TeleportDistance = in.maybe(s.CarryLinear), in.maybe(s.CarryAngular), in.maybe(s.TeleportDistance)
		}
		if flags&16 != 0 {
			s.Group = uint32(in.u8()) << in.intn(32)
		}
		if flags&32 != 0 {
			head.Center, head.Radius = in.vec(), in.maybe(head.Radius)
			head.Rotation = mgl32.Quat{W: in.f32(), V: in.vec()}
		}
		tracef(t, "Settings %+v Head %+v", s, head)
		if s.Strands > 0 && s.Segments > 0 && s.Strands < 1<<20 && s.Segments < 1<<10 && s.Strands*(s.Segments+1) > 5000 {
			// Big heads of hair are valid but slow to fuzz: check the
			// settings only.
			_ = s.Validate()
			return
		}
		before := snapshot(w)
		h, err := hair.New(w, head, s)
		if err != nil {
			mustName(t, err, "hair.New", "Settings.", "Head.", "Strands", "Segments")
			before.same(t, w, "hair.New")
			return
		}
		checkWorld(t, w, "after New")
		c, q := head.Center, head.Rotation
		if q == (mgl32.Quat{}) {
			q = mgl32.QuatIdent()
		}
		for op := 0; op < 64 && len(in.b) > 0; op++ {
			switch code := in.intn(8); code {
			case 0, 1, 2:
				// A violent shake: up to ±1 rad and ±0.5 m per frame.
				d := mgl32.Vec3{float32(int8(in.u8())), float32(int8(in.u8())), float32(int8(in.u8()))}.Mul(0.5 / 128)
				a := float32(int8(in.u8())) / 128
				c, q = c.Add(d), mgl32.QuatRotate(a, mgl32.Vec3{0, 1, 0.3}.Normalize()).Mul(q)
				if err := h.SetHead(c, q); err != nil {
					t.Fatalf("SetHead(%v, %v): %v", c, q, err)
				}
				w.Advance(1.0 / 60)
				checkWorld(t, w, "frame")
			case 3:
				p, r := in.vec(), mgl32.Quat{W: in.f32(), V: in.vec()}
				tracef(t, "SetHead(%v, %v)", p, r)
				if err := h.SetHead(p, r); err != nil {
					mustName(t, err, "SetHead", "centre", "center", "rotation", "Center", "Rotation")
				} else {
					c, q = p, r
				}
			case 4:
				p, r := in.vec(), mgl32.Quat{W: in.f32(), V: in.vec()}
				tracef(t, "Teleport(%v, %v)", p, r)
				if err := h.Teleport(p, r); err != nil {
					mustName(t, err, "Teleport", "centre", "center", "rotation", "Center", "Rotation")
				} else {
					c, q = p, r
				}
			case 5:
				wd := verlet3d.Wind{Steady: in.vec(), Gust: in.maybe(0), GustPeriod: in.maybe(2), Turbulence: in.maybe(0), TurbulenceScale: in.maybe(0.5)}
				tracef(t, "SetWind(%+v)", wd)
				if err := h.SetWind(wd); err != nil {
					mustName(t, err, "SetWind", "Wind.")
				}
			case 6:
				a, b := in.f32(), in.f32()
				tracef(t, "SetStyle(%v, %v) / SetWindDrag", a, b)
				if err := h.SetStyle(a, b); err != nil {
					mustName(t, err, "SetStyle", "stiffness", "tip", "Style")
				}
				if err := h.SetWindDrag(in.f32()); err != nil {
					mustName(t, err, "SetWindDrag", "drag", "Drag")
				}
			default:
				dt := float32(in.intn(100)) / 100
				tracef(t, "Advance(%v)", dt)
				w.Advance(dt)
				checkWorld(t, w, "long frame")
			}
		}
		checkWorld(t, w, "after the sequence")
		for _, v := range h.Tangents(nil) {
			if !finiteV(v) {
				t.Fatalf("tangent %v", v)
			}
		}
		steadyAllocs(t, w)
	})
}

// Regressions from issue 16 and the fuzz corpus (testdata/fuzz/FuzzHair):
// errors name the hair's own field, and the World is left as it was.
func TestAbsurdHairSettings(t *testing.T) {
	for _, tc := range []struct {
		name, want string
		edit       func(*hair.Settings, *hair.Head)
	}{
		{"269 million particles", "Strands x (Segments+1) = 1048576 x 257", func(s *hair.Settings, _ *hair.Head) { s.Strands, s.Segments = 1<<20, 256 }},
		{"head at 7.7e14 m (86eb60f9fffb8387)", "Head.Center = [0 0 7.7e+14]", func(_ *hair.Settings, h *hair.Head) { h.Center[2] = 7.7e14 }},
		{"head radius 1e30", "Head.Radius = 1e+30", func(_ *hair.Settings, h *hair.Head) { h.Radius = 1e30 }},
		{"bend compliance 3e38", "BendCompliance = 3e+38", func(s *hair.Settings, _ *hair.Head) { s.BendCompliance = 3e38 }},
		{"mass 1e-39", "Mass = 1e-39", func(s *hair.Settings, _ *hair.Head) { s.Mass = 1e-39 }},
		{"wind drag 1e30 (afc10d32a9992ad6)", "WindDrag = 1e+30", func(s *hair.Settings, _ *hair.Head) { s.WindDrag = 1e30 }},
		{"length 4.8e-31 (6ff9e49edf36e78b: NaN roots)", "Length = 4.8e-31", func(s *hair.Settings, _ *hair.Head) { s.Length, s.Lift, s.Volume = 4.8e-31, 0, 0 }},
		{"head radius 1e-45 (0f97a7ee1781a114: NaN roots)", "Head.Radius = 1e-45", func(_ *hair.Settings, h *hair.Head) { h.Radius = 1e-45 }},
		{"volume 1e30", "Volume = 1e+30", func(s *hair.Settings, _ *hair.Head) { s.Volume = 1e30 }},
	} {
		w, err := verlet3d.NewWorld(hair.WorldConfig())
		if err != nil {
			t.Fatal(err)
		}
		s, h := hair.DefaultSettings(), hair.DefaultHead()
		s.Strands = 10
		tc.edit(&s, &h)
		before := snapshot(w)
		if _, err := hair.New(w, h, s); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one containing %q", tc.name, err, tc.want)
		}
		before.same(t, w, tc.name)
	}
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
