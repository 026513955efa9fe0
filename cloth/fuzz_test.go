package cloth_test

import (
	"math"
	"os"
	"strings"
	"testing"

	"github.com/drape3d/drape/cloth"
	"github.com/drape3d/drape/verlet3d"
	"github.com/go-gl/mathgl/mgl32"
)

var settingsFields = []string{"Settings.", "Tethers"}

// FuzzCloth builds a grid from fuzzed cloth.Settings (sizes, spacing,
// masses, compliances, pins, tethers, tearing), adds fuzzed wind and a
// collider, then plays fuzzed frames, pin targets, wind changes and cuts.
//
//	go test ./cloth -run '^$' -fuzz '^FuzzCloth$' -fuzztime 5m -parallel 1
func FuzzCloth(f *testing.F) {
	f.Add([]byte{})
	f.Add([]byte("\x00\x00\x01\x00\x00\x00\x00\x00\x00\x00\x05\x05\x05\x05\x05"))
	f.Add([]byte("\x02\x03\x00\x01\x80\xa0\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x03\x03\x03\x03\x04\x04\x05"))
	f.Fuzz(func(t *testing.T, data []byte) {
		in := &fuzzIn{data}
		cfg := verlet3d.DefaultConfig()
		cfg.Workers = 1 + in.intn(2)
		w, err := verlet3d.NewWorld(cfg)
		if err != nil {
			t.Fatal(err)
		}
		defer w.Close()
		// Something already in the World, which a failed New must keep.
		if _, err := w.AddParticle(mgl32.Vec3{0, 5, 0}, 1); err != nil {
			t.Fatal(err)
		}
		s := cloth.DefaultSettings()
		s.Cols, s.Rows = 2+in.intn(10), 2+in.intn(10)
		s.PinRows = []int{0}
		flags := in.u8()
		if flags&1 != 0 {
			switch in.intn(4) {
			case 0:
				s.Cols = int(int8(in.u8()))
			case 1:
				s.Rows = 1 << in.intn(64)
			case 2:
				s.Cols, s.Rows = 1<<in.intn(64), 1<<in.intn(64)
			default:
				s.Rows = -s.Rows
			}
		}
		if flags&2 != 0 {
			s.Spacing, s.Origin, s.Across, s.Down = in.maybe(s.Spacing), in.vec(), in.vec(), in.vec()
		}
		if flags&4 != 0 {
			s.Mass, s.ParticleMass, s.Radius = in.maybe(s.Mass), in.maybe(0), in.maybe(0)
		}
		if flags&8 != 0 {
			s.Structural.Compliance, s.Shear.Compliance, s.Bend.Compliance = in.maybe(0), in.maybe(0), in.maybe(1e-3)
		}
		if flags&16 != 0 {
			s.TearStrain, s.TetherSlack = in.maybe(0.3), in.maybe(0)
		}
		if flags&32 != 0 {
			s.PinRows, s.PinCols = nil, nil
			for i, n := 0, in.intn(4); i < n; i++ {
				s.PinRows = append(s.PinRows, int(int8(in.u8()))%16)
			}
			for i, n := 0, in.intn(3); i < n; i++ {
				s.PinCols = append(s.PinCols, int(int8(in.u8()))%16)
			}
		}
		s.Tethers = flags&64 != 0
		tracef(t, "cloth.Settings %+v", s)
		if s.Cols > 0 && s.Rows > 0 && s.Cols < 1<<31/s.Rows && s.Cols*s.Rows > 4096 {
			// Big grids are valid but slow to fuzz: check the settings only.
			_ = s.Validate()
			return
		}
		before := snapshot(w)
		g, err := cloth.New(w, s)
		if err != nil {
			mustName(t, err, "cloth.New", settingsFields...)
			before.same(t, w, "cloth.New")
			return
		}

		ws := cloth.DefaultWindSettings()
		ws.Air = verlet3d.Wind{Steady: mgl32.Vec3{in.f32(), in.f32(), in.f32()}, Gust: in.maybe(0.5), GustPeriod: in.maybe(3),
			Turbulence: in.maybe(2), TurbulenceScale: in.maybe(0.5)}
		if in.u8()&1 != 0 {
			ws.Density, ws.Drag, ws.Lift, ws.SampleStride = in.maybe(1.2), in.maybe(1), in.maybe(0.5), int(int8(in.u8()))
		}
		tracef(t, "WindSettings %+v", ws)
		before = snapshot(w)
		wind, err := cloth.NewWindForce(g, ws)
		if err != nil {
			mustName(t, err, "NewWindForce", "WindSettings.")
			before.same(t, w, "NewWindForce")
		}
		if in.u8()&1 != 0 {
			c, err := verlet3d.NewSphere(in.vec(), in.f32())
			tracef(t, "NewSphere %+v %v", c, err)
			if err == nil {
				if err := w.AddCollider(c, verlet3d.ContactSettings{Friction: 0.3}); err != nil {
					t.Fatal(err)
				}
			}
		}
		checkWorld(t, w, "after building")

		for op := 0; op < 48 && len(in.b) > 0; op++ {
			switch code := in.intn(8); code {
			case 0, 1, 2:
				w.Advance(1.0 / 60)
				checkWorld(t, w, "frame")
			case 3:
				dt := float32(in.intn(200)) / 100
				tracef(t, "Advance(%v)", dt)
				w.Advance(dt)
				checkWorld(t, w, "long frame")
			case 4:
				r, c, v := in.intn(g.Rows()), in.intn(g.Cols()), in.vec()
				tracef(t, "SetTarget(%d, %d, %v)", r, c, v)
				if finiteV(v) {
					g.SetTarget(r, c, v)
				}
			case 5:
				if wind != nil {
					air := verlet3d.Wind{Steady: in.vec(), Gust: in.maybe(0), GustPeriod: in.maybe(2), Turbulence: in.maybe(0), TurbulenceScale: in.maybe(1)}
					tracef(t, "SetAir(%+v)", air)
					if err := wind.SetAir(air); err != nil {
						mustName(t, err, "SetAir", "Wind.")
					}
				}
			case 6:
				a, b, r := in.vec(), in.vec(), in.f32()
				tracef(t, "Cut(%v, %v, %v)", a, b, r)
				if _, err := g.Cut(a, b, r); err != nil {
					mustName(t, err, "Cut", "radius", "Cut", "finite")
				}
			default:
				v := in.vec()
				tracef(t, "Teleport(%v)", v)
				if finiteV(v) {
					w.Teleport(v)
				}
			}
		}
		checkWorld(t, w, "after the sequence")
		var buf []mgl32.Vec3
		for _, n := range g.Normals(buf) {
			if !finiteV(n) {
				t.Fatalf("normal %v", n)
			}
		}
		steadyAllocs(t, w)
	})
}

// Regressions from the fuzz corpus (testdata/fuzz/FuzzCloth) and issue 16:
// absurd finite settings fail with an error naming the cloth field, and the
// World is left as it was.
func TestAbsurdClothSettings(t *testing.T) {
	for _, tc := range []struct {
		name, want string
		edit       func(*cloth.Settings, *cloth.WindSettings)
	}{
		{"particle mass 6.4e-10 (d4caf39c3ac81122)", "Settings.ParticleMass = 6.4e-10", func(s *cloth.Settings, _ *cloth.WindSettings) { s.Mass, s.ParticleMass = 0, 6.4e-10 }},
		{"mass 1e-8 over 1024 particles", "Settings.Mass = 1e-08", func(s *cloth.Settings, _ *cloth.WindSettings) { s.Mass = 1e-8 }},
		{"Cols x Rows overflow (makeslice panic)", "Cols x Rows = 2147483648 x 2147483648", func(s *cloth.Settings, _ *cloth.WindSettings) { s.Cols, s.Rows = 1<<31, 1<<31 }},
		{"spacing 4.8e9 (0994f94cbb4c0a2d)", "Settings.Spacing = 4.8e+09", func(s *cloth.Settings, _ *cloth.WindSettings) { s.Spacing = 4.8e9 }},
		{"origin 1e30", "Origin = [1e+30", func(s *cloth.Settings, _ *cloth.WindSettings) { s.Origin[0] = 1e30 }},
		{"radius 1e30", "Settings.Radius = 1e+30", func(s *cloth.Settings, _ *cloth.WindSettings) { s.Radius = 1e30 }},
		{"compliance 3e38", "Settings.Bend.Compliance = 3e+38", func(s *cloth.Settings, _ *cloth.WindSettings) { s.Bend.Compliance = 3e38 }},
		{"wind 1e30", "Wind.Steady", func(_ *cloth.Settings, ws *cloth.WindSettings) { ws.Air.Steady[0] = 1e30 }},
		{"turbulence scale 1e-45", "Wind.TurbulenceScale = 1e-45", func(_ *cloth.Settings, ws *cloth.WindSettings) {
			ws.Air.Turbulence, ws.Air.TurbulenceScale = 2, 1e-45
		}},
		{"gust period 1e-45", "Wind.GustPeriod = 1e-45", func(_ *cloth.Settings, ws *cloth.WindSettings) { ws.Air.Gust, ws.Air.GustPeriod = 0.5, 1e-45 }},
	} {
		w := newWorld(t, nil)
		s, ws := cloth.DefaultSettings(), cloth.DefaultWindSettings()
		s.PinRows = []int{0}
		tc.edit(&s, &ws)
		before := snapshot(w)
		g, err := cloth.New(w, s)
		if err == nil {
			before = snapshot(w)
			_, err = cloth.NewWindForce(g, ws)
		}
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one containing %q", tc.name, err, tc.want)
			continue
		}
		before.same(t, w, tc.name)
	}
	// A cloth inside a sphere of the largest accepted radius stays finite.
	w := newWorld(t, nil)
	s := cloth.DefaultSettings()
	s.Cols, s.Rows, s.PinRows = 8, 8, []int{0}
	newGrid(t, w, s)
	big, err := verlet3d.NewSphere(mgl32.Vec3{}, verlet3d.MaxCoordinate)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.AddCollider(big, verlet3d.ContactSettings{}); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 60; i++ {
		w.Step()
	}
	checkWorld(t, w, "cloth inside a 1e9 m sphere")
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
