package cloth_test

import (
	"github.com/drape3d/drape/internal/vecmath"
	"math"
	"os"
	"runtime"
	"testing"

	"github.com/drape3d/drape/cloth"
	"github.com/drape3d/drape/verlet3d"
	"github.com/go-gl/mathgl/mgl32"
)

// soakSeconds is the simulated length of a soak: 20 s in `make test`,
// 10 minutes with DRAPE_SOAK=1 (`make soak`).
func soakSeconds() float64 {
	if os.Getenv("DRAPE_SOAK") == "1" {
		return 600
	}
	return 20
}

// heapAfterGC is the live heap in bytes.
func heapAfterGC() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// soakWatch checks a World every frame (finite, no NaN-guard reset) and
// keeps the largest kinetic energy of each 10 s window.
type soakWatch struct {
	t      *testing.T
	w      *verlet3d.World
	window []float64
}

func (s *soakWatch) frame(tm float64, ke float64) {
	s.t.Helper()
	for i, p := range s.w.Positions() {
		if !vecmath.Finite(p) {
			s.t.Fatalf("t = %.2f s: particle %d at %v", tm, i, p)
		}
	}
	if n := s.w.Stats().NonFiniteResets; n != 0 {
		s.t.Fatalf("t = %.2f s: %d non-finite resets", tm, n)
	}
	if math.IsNaN(ke) || math.IsInf(ke, 0) {
		s.t.Fatalf("t = %.2f s: kinetic energy %v", tm, ke)
	}
	k := int(tm / 10)
	for len(s.window) <= k {
		s.window = append(s.window, 0)
	}
	s.window[k] = max(s.window[k], ke)
}

// bounded fails if a later window's peak energy exceeds factor times the
// largest of the first two windows (the input is steady: the energy must
// not grow without bound).
func (s *soakWatch) bounded(factor float64) {
	s.t.Helper()
	ref := s.window[0]
	if len(s.window) > 1 {
		ref = max(ref, s.window[1])
	}
	for k, e := range s.window {
		if e > factor*ref+1e-9 {
			s.t.Errorf("kinetic energy peak %.3g J in window %d (t = %d..%d s), over %g x the first windows' %.3g J",
				e, k, 10*k, 10*k+10, factor, ref)
		}
	}
	s.t.Logf("peak kinetic energy per 10 s window: first %.3g J, last %.3g J, %d windows", s.window[0], s.window[len(s.window)-1], len(s.window))
}

// A tearing flag in a gusty, turbulent 25 m/s gale over a floor for the
// soak time: no NaN, energy bounded, the heap flat.
func TestSoakFlagGale(t *testing.T) {
	w := newWorld(t, nil)
	s := cloth.DefaultSettings()
	s.Cols, s.Rows, s.Spacing, s.Mass = 24, 16, 0.06, 0.3
	s.Origin = mgl32.Vec3{0, 2.5, 0}
	s.PinRows, s.PinCols = nil, []int{0}
	s.TearStrain = 0.2 // the small-step defaults hold 0.6 in this gale: 0.2 tears it
	g := newGrid(t, w, s)
	ws := cloth.DefaultWindSettings()
	ws.Air = verlet3d.Wind{Steady: mgl32.Vec3{25, 0, 3}, Gust: 0.6, GustPeriod: 2.5, Turbulence: 4, TurbulenceScale: 0.5}
	if _, err := cloth.NewWindForce(g, ws); err != nil {
		t.Fatal(err)
	}
	floor, _ := verlet3d.NewPlane(mgl32.Vec3{0, -1, 0}, mgl32.Vec3{0, 1, 0})
	if err := w.AddCollider(floor, verlet3d.ContactSettings{Friction: 0.5}); err != nil {
		t.Fatal(err)
	}
	watch := &soakWatch{t: t, w: w}
	dur := soakSeconds()
	var heap0 uint64
	frames := int(dur * 60)
	for f := 0; f < frames; f++ {
		tm := float64(f) / 60
		dt := float32(1.0 / 60)
		if f%300 == 299 {
			dt = 0.25 // a hitch every 5 s
		}
		w.Advance(dt)
		watch.frame(tm, g.KineticEnergy())
		if f == 120 {
			heap0 = heapAfterGC()
		}
	}
	watch.bounded(4)
	heap1 := heapAfterGC()
	t.Logf("%.0f s simulated: %d links broken, heap %d -> %d KiB", dur, w.Stats().LinksBroken, heap0>>10, heap1>>10)
	if w.Stats().LinksBroken == 0 {
		t.Errorf("a 25 m/s gale with TearStrain 0.2 tore nothing: the soak did not exercise tearing")
	}
	if heap1 > heap0+1<<20 {
		t.Errorf("heap grew from %d to %d KiB", heap0>>10, heap1>>10)
	}
}

// A cape on a walking body with a 0.25 s hitch every 5 s and a 40 m
// teleport every 7 s: no NaN, pins back on target within a second of each
// teleport, structure intact, energy bounded, heap flat.
func TestSoakCapeTeleports(t *testing.T) {
	w := newWorld(t, capeConfig)
	k := newWalker(t, w)
	c := newCape(t, w, k, nil)
	g := &walk{speed: 1.5, turn: 0.3}
	watch := &soakWatch{t: t, w: w}
	dur := soakSeconds()
	frames := int(dur * 60)
	var heap0 uint64
	since := 0.0 // time since the last teleport
	var worstPin, worstStrain float32
	for f := 0; f < frames; f++ {
		tm := float64(f) / 60
		dt := float32(1.0 / 60)
		if f%300 == 299 {
			dt = 0.25
		}
		if f%420 == 419 {
			g.pos = g.pos.Add(mgl32.Vec3{40, 0, -25})
			since = 0
		}
		g.step(k, dt, float32(math.Mod(tm, 1000)))
		c.SetPose(k.ref, k.anchors, k.body)
		w.Advance(dt)
		since += float64(dt)
		watch.frame(tm, c.Grid().KineticEnergy())
		if since > 1 {
			worstPin = max(worstPin, c.PinError())
			worstStrain = max(worstStrain, c.Grid().MaxStrain())
		}
		if f == 120 {
			heap0 = heapAfterGC()
		}
	}
	watch.bounded(4)
	heap1 := heapAfterGC()
	t.Logf("%.0f s simulated, %d teleports: worst pin error %.3g m and strain %.1f%% a second after a teleport, heap %d -> %d KiB",
		dur, c.NumTeleports(), worstPin, 100*worstStrain, heap0>>10, heap1>>10)
	if c.NumTeleports() < int(dur/7)-1 {
		t.Errorf("%d teleports detected, want about %d", c.NumTeleports(), int(dur/7))
	}
	if worstPin > 0.01 {
		t.Errorf("pin error %.3g m a second after a teleport, want under 1 cm", worstPin)
	}
	if worstStrain > 0.5 {
		t.Errorf("structural strain %.1f%% a second after a teleport, want under 50%%", 100*worstStrain)
	}
	if heap1 > heap0+1<<20 {
		t.Errorf("heap grew from %d to %d KiB", heap0>>10, heap1>>10)
	}
}
