package checks

import (
	"fmt"
	"math"
	"os"
	"strings"
	"testing"

	"github.com/drape3d/drape/internal/vecmath"
	"github.com/drape3d/drape/verlet3d"
	"github.com/go-gl/mathgl/mgl32"
)

// Input turns fuzzer bytes into API arguments: mostly game-scale numbers,
// sometimes the absurd ones a careless caller passes (denormals, 1e30,
// NaN, ±Inf). Running out of bytes gives zeros, so every input decodes.
type Input struct{ b []byte }

// NewInput decodes data.
func NewInput(data []byte) *Input { return &Input{data} }

// Len returns how many bytes are left.
func (f *Input) Len() int { return len(f.b) }

var special = []float32{
	0, 1, -1, 0.5, 1e-45, -1e-45, 1e-39, 1e-9, 1e-6, 1e-5, 1e-3, 0.01, 0.1, 1.0 / 60, 0.25,
	10, 100, 1e3, 1e6, 1e9, 1e12, 1e20, 1e30, 3.4e38, -1e30, -3.4e38,
	float32(math.NaN()), float32(math.Inf(1)), float32(math.Inf(-1)),
}

// U8 returns the next byte (0 once the input is used up).
func (f *Input) U8() byte {
	if len(f.b) == 0 {
		return 0
	}
	c := f.b[0]
	f.b = f.b[1:]
	return c
}

// Intn returns a number in [0, n).
func (f *Input) Intn(n int) int { return int(f.U8()) % n }

// F32 returns, half the time, -8..8 in steps of 1/16, else a special
// value, a byte times a power of ten, or raw bits.
func (f *Input) F32() float32 {
	switch m := f.U8(); {
	case m < 128:
		return float32(float32(int8(f.U8())) / 16)
	case m < 192:
		return special[int(m)%len(special)]
	case m < 232:
		return float32(float32(int8(f.U8())) * float32(math.Pow(10, float64(f.Intn(80))-40)))
	default:
		u := uint32(f.U8()) | uint32(f.U8())<<8 | uint32(f.U8())<<16 | uint32(f.U8())<<24
		return math.Float32frombits(u)
	}
}

// Maybe returns def three times in four, else a fuzzed value.
func (f *Input) Maybe(def float32) float32 {
	if f.U8()&3 == 0 {
		return f.F32()
	}
	return def
}

// Vec returns three fuzzed numbers.
func (f *Input) Vec() mgl32.Vec3 { return mgl32.Vec3{f.F32(), f.F32(), f.F32()} }

var trace = os.Getenv("DRAPE_FUZZ_TRACE") != ""

// Tracef logs decoded calls when DRAPE_FUZZ_TRACE is set, to read a
// failing corpus entry: DRAPE_FUZZ_TRACE=1 go test -run FuzzX/ID -v
func Tracef(t *testing.T, format string, args ...any) {
	if trace {
		t.Helper()
		t.Logf(format, args...)
	}
}

// WorldState is what a failed constructor must leave as it was.
type WorldState struct {
	particles, links, tethers, colliders int
	pos                                  []mgl32.Vec3
}

// Snapshot records w's counts and positions.
func Snapshot(w *verlet3d.World) WorldState {
	return WorldState{w.NumParticles(), w.NumLinks(), w.NumTethers(), len(w.Colliders()),
		append([]mgl32.Vec3(nil), w.Positions()...)}
}

// Same fails unless w still has the counts and positions of s (a NaN
// position compares equal to itself).
func (s WorldState) Same(t *testing.T, w *verlet3d.World, what string) {
	t.Helper()
	now := Snapshot(w)
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

// MustName fails unless err names one of the fields.
func MustName(t *testing.T, err error, what string, fields ...string) {
	t.Helper()
	msg := err.Error()
	for _, f := range fields {
		if strings.Contains(msg, f) {
			return
		}
	}
	t.Fatalf("%s: error %q names none of %v", what, msg, fields)
}

// ErrorReads fails unless err is an error whose message starts with want
// (the package, the type and field the caller wrote) and names its package
// once: "scene: CapeFit.Anchors: no bone ...", not "scene: CapeFit.Anchors:
// scene: no bone ...". notPkgs are packages the message must not name (the
// package whose type the caller did not write).
func ErrorReads(t *testing.T, what string, err error, want string, notPkgs ...string) {
	t.Helper()
	if err == nil {
		t.Errorf("%s: no error, want one starting %q", what, want)
		return
	}
	msg := err.Error()
	t.Logf("%s: %v", what, msg)
	if !strings.HasPrefix(msg, want) {
		t.Errorf("%s: error %q, want it to start with %q", what, msg, want)
	}
	pkg := msg[:strings.Index(msg, ":")+1]
	if strings.Count(msg, pkg+" ") != 1 {
		t.Errorf("%s: error %q says %q more than once", what, msg, pkg)
	}
	for _, p := range notPkgs {
		if strings.Contains(msg, p+": ") {
			t.Errorf("%s: error %q names %s, not the type the caller wrote", what, msg, p)
		}
	}
}

// ExpectPanic runs f, which the docs say panics (a handle misuse, a
// non-finite argument), and fails unless it does with a message containing
// want (the package's name, or the words the docs promise).
func ExpectPanic(t *testing.T, want, what string, f func()) {
	t.Helper()
	defer func() {
		r := recover()
		if r == nil {
			t.Fatalf("%s: no panic, documented to panic", what)
		}
		if !strings.Contains(fmt.Sprint(r), want) {
			t.Fatalf("%s: panic %v does not mention %q", what, r, want)
		}
	}()
	f()
}

// CheckWorld fails on a non-finite particle, a reset by the NaN guard (an
// input the API accepted went non-finite) or Alpha out of [0, 1).
func CheckWorld(t *testing.T, w *verlet3d.World, when string) {
	t.Helper()
	prev := w.PrevPositions()
	for i, p := range w.Positions() {
		if !vecmath.Finite(p) || !vecmath.Finite(prev[i]) {
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

// SteadyAllocs steps w 30 times, then fails if the next steps allocate on
// average once or more per step, and go on doing so for 5 s of simulated
// time: growing a contact list to a new maximum allocates now and then
// while things are still falling and landing (a fuzzed throw lands after
// the first 30 steps), and the process-wide malloc count also sees the
// fuzzing engine's own goroutines. Steps in which links break are not
// steady: a tear re-meshes the cloth.
func SteadyAllocs(t *testing.T, w *verlet3d.World) {
	t.Helper()
	for i := 0; i < 30; i++ {
		w.Step()
	}
	var a float64
	for try := 0; try < 10; try++ {
		broken := w.Stats().LinksBroken
		a = testing.AllocsPerRun(10, w.Step)
		CheckWorld(t, w, "steady state")
		if a < 1 || w.Stats().LinksBroken != broken {
			return
		}
		for i := 0; i < 20; i++ {
			w.Step()
		}
	}
	t.Fatalf("steady steps allocated %v times per step", a)
}

// World makes the World a fuzz target plays in: cfg on 1 or 2 workers (the
// next byte of in), closed when t ends. With held set it already holds one
// particle, which a constructor that fails must leave as it was.
func World(t *testing.T, in *Input, cfg verlet3d.Config, held bool) *verlet3d.World {
	t.Helper()
	cfg.Workers = 1 + in.Intn(2)
	w, err := verlet3d.NewWorld(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(w.Close)
	if held {
		if _, err := w.AddParticle(mgl32.Vec3{0, 5, 0}, 1); err != nil {
			t.Fatal(err)
		}
	}
	return w
}
