package hair_test

import (
	"fmt"
	"github.com/drape3d/drape/internal/vecmath"
	"math"
	"testing"

	"github.com/drape3d/drape/hair"
	"github.com/drape3d/drape/verlet3d"
	"github.com/go-gl/mathgl/mgl32"
)

// motion is a head pose over time, as a game drives it: a center and a
// rotation at each frame time t (s). moving reports whether the motion is
// still going at t (strand lengths are checked once it has stopped).
type motion struct {
	name   string
	pose   func(t float64) (mgl32.Vec3, mgl32.Quat)
	until  float64 // the motion stops at this time; the test runs 1.5 s more
	wind   verlet3d.Wind
	jump   func(h *hair.Hair, t float64) // a one-off call at t = 1 s, if any
	hitch  bool                          // a 0.25 s frame every second
	frames float64                       // frame time, s (1/60 when 0)
}

var start = mgl32.Vec3{0, 1.6, 0}

func still(float64) (mgl32.Vec3, mgl32.Quat) { return start, mgl32.QuatIdent() }

// run moves forward along +Z at speed v (m/s) from t = 0.5 s, starting in
// one frame, with a vertical bob of amplitude bob (m) at f Hz, until 3 s.
func run(v, bob, f float64) func(float64) (mgl32.Vec3, mgl32.Quat) {
	return func(t float64) (mgl32.Vec3, mgl32.Quat) {
		d := math.Max(0, math.Min(t, 3)-0.5)
		y := float64(bob * math.Sin(float64(2*math.Pi*f*d)))
		return start.Add(mgl32.Vec3{0, float32(y), float32(v * d)}), mgl32.QuatIdent()
	}
}

// swing turns the head about axis by ±amp (rad) at f Hz from 0.5 s to 3 s.
func swing(axis mgl32.Vec3, amp, f float64) func(float64) (mgl32.Vec3, mgl32.Quat) {
	return func(t float64) (mgl32.Vec3, mgl32.Quat) {
		a := 0.0
		if t > 0.5 && t < 3 {
			a = float64(amp * math.Sin(float64(2*math.Pi*f*(t-0.5))))
		}
		return start, vecmath.QuatAxisAngle(float32(a), axis)
	}
}

// step holds the pose, then at 1 s changes it in one frame.
func step(off mgl32.Vec3, angle float32) func(float64) (mgl32.Vec3, mgl32.Quat) {
	return func(t float64) (mgl32.Vec3, mgl32.Quat) {
		if t < 1 {
			return start, mgl32.QuatIdent()
		}
		return start.Add(off), vecmath.QuatAxisAngle(angle, mgl32.Vec3{0, 1, 0})
	}
}

func motions() []motion {
	gust := func(v float32) verlet3d.Wind {
		return verlet3d.Wind{Steady: mgl32.Vec3{v, 0, float32(0.3 * v)}, Gust: 0.5, GustPeriod: 1.5, Turbulence: float32(0.2 * v), TurbulenceScale: 0.3}
	}
	return []motion{
		{name: "rest", pose: still, until: 1},
		{name: "walk 1.1 m/s bob 2.5 cm", pose: run(1.1, 0.025, 2), until: 3},
		{name: "run 4 m/s bob 6 cm", pose: run(4, 0.06, 3), until: 3},
		{name: "run 8 m/s bob 6 cm", pose: run(8, 0.06, 3), until: 3},
		{name: "shake 30 deg 2 Hz", pose: swing(mgl32.Vec3{0, 1, 0}, 30*math.Pi/180, 2), until: 3},
		{name: "nod 20 deg 2 Hz", pose: swing(mgl32.Vec3{1, 0, 0}, 20*math.Pi/180, 2), until: 3},
		{name: "snap 0.5 rad", pose: step(mgl32.Vec3{}, 0.5), until: 1},
		{name: "jump 10 cm", pose: step(mgl32.Vec3{0.1, 0, 0}, 0), until: 1},
		{name: "jump 1 m", pose: step(mgl32.Vec3{0, 0.3, 0.95}, 0), until: 1},
		{name: "teleport 100 m", pose: step(mgl32.Vec3{100, 0, -20}, 1), until: 1,
			jump: func(h *hair.Hair, _ float64) {
				if err := h.Teleport(start.Add(mgl32.Vec3{100, 0, -20}), vecmath.QuatAxisAngle(1, mgl32.Vec3{0, 1, 0})); err != nil {
					panic(err)
				}
			}},
		{name: "wind 8 m/s", pose: still, until: 0, wind: verlet3d.Wind{Steady: mgl32.Vec3{8, 0, 0}}},
		{name: "gusts 8 m/s", pose: still, until: 0, wind: gust(8)},
		{name: "gusts 20 m/s", pose: still, until: 0, wind: gust(20)},
		{name: "gusts 30 m/s", pose: still, until: 0, wind: gust(30)},
		{name: "run 4 m/s in 20 m/s gusts with hitches", pose: run(4, 0.06, 3), until: 3, wind: gust(20), hitch: true},
		{name: "shake at 10 fps", pose: swing(mgl32.Vec3{0, 1, 0}, 30*math.Pi/180, 2), until: 3, frames: 0.1},
	}
}

// drive plays m on r's hair the way a game does: every frame it sets the
// head pose for the frame's end time and advances the World by the frame
// time. It checks every frame that nothing is non-finite, that no vertex is
// inside the head beyond 1e-4 m and that every root sits on its scalp point
// within 1e-5 m; once the motion has stopped for a second, that strands are
// within 5% of their rest length.
func drive(t *testing.T, h *hair.Hair, m motion) {
	t.Helper()
	w := h.World()
	if err := h.SetWind(m.wind); err != nil {
		t.Fatal(err)
	}
	dt := m.frames
	if dt == 0 {
		dt = 1.0 / 60
	}
	var clock float64
	var deepest, rootErr, stretch float64
	jumped := false
	hitchAt := 1.0
	for clock < math.Max(m.until, 2)+1.5 {
		fdt := dt
		if m.hitch && clock >= hitchAt {
			fdt, hitchAt = 0.25, hitchAt+1
		}
		clock += fdt
		if m.jump != nil && !jumped && clock >= 1 {
			m.jump(h, clock)
			jumped = true
		} else {
			c, q := m.pose(clock)
			if err := h.SetHead(c, q); err != nil {
				t.Fatal(err)
			}
		}
		w.Advance(float32(fdt))
		if n := w.Stats().NonFiniteResets; n != 0 {
			t.Fatalf("t=%.2f s: %d non-finite resets", clock, n)
		}
		// Positions are in the World's frame (verlet3d.World.Origin),
		// which follows a head that runs far: so is the head compared.
		head := h.Head()
		head.Center = w.ToLocal(head.Center)
		pos := w.Positions()
		settled := clock > math.Max(m.until, 0)+1
		var worstStretch float64
		for i := 0; i < h.NumStrands(); i++ {
			b, n := h.Strand(i)
			if d := float64(vecmath.Len(pos[b].Sub(head.ToWorld(h.RestLocal(i, 0))))); d > rootErr {
				rootErr = d
			}
			var length float64
			for j := 0; j < n; j++ {
				p := pos[int(b)+j]
				if !vecmath.Finite(p) {
					t.Fatalf("t=%.2f s: strand %d vertex %d at %v", clock, i, j, p)
				}
				if d := float64(head.Radius - vecmath.Len(p.Sub(head.Center))); d > deepest {
					deepest = d
				}
				if j > 0 {
					length += float64(vecmath.Len(p.Sub(pos[int(b)+j-1])))
				}
			}
			rest := float64(h.StrandLength(i))
			worstStretch = math.Max(worstStretch, math.Abs(length-rest)/rest)
		}
		if settled {
			stretch = math.Max(stretch, worstStretch)
		}
		if deepest > 1e-4 || rootErr > 1e-5*math.Max(1, float64(vecmath.Len(head.Center))/10) {
			t.Fatalf("t=%.2f s: deepest vertex %.3g m inside the head, root %.3g m off its scalp point", clock, deepest, rootErr)
		}
	}
	if stretch > 0.05 {
		t.Errorf("once still, a strand is %.1f%% off its rest length", float64(100*stretch))
	}
	if r := h.NumRecovered(); r != 0 {
		t.Errorf("%d strands were put back on their rest shape", r)
	}
	t.Logf("%s: deepest in head %.2g m, root error %.2g m, settled stretch %.2f%%", m.name, deepest, rootErr, float64(100*stretch))
}

// newGameHair is the README's hair, in a World made from hair.WorldConfig.
func newGameHair(t testing.TB, strands, segments int) *hair.Hair {
	t.Helper()
	w, err := verlet3d.NewWorld(hair.WorldConfig())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(w.Close)
	head := hair.DefaultHead()
	head.Center = start
	s := hair.DefaultSettings()
	s.Strands, s.Segments = strands, segments
	h, err := hair.New(w, head, s)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// Hair on a game's head survives what a game does to it: walking, running
// from rest, shaking, nodding, snapping, jumps, teleports, strong gusty
// wind, frame hitches and low frame rates, with short and long strands.
func TestGameMotions(t *testing.T) {
	for _, m := range motions() {
		for _, segs := range []int{8, 12, 32, 64} {
			if segs != 12 && testing.Short() {
				continue
			}
			t.Run(fmt.Sprintf("%s/%d segments", m.name, segs), func(t *testing.T) {
				drive(t, newGameHair(t, 200, segs), m)
			})
		}
	}
}

// The README's full head of hair (2,000 strands) running in gusts.
func TestGameMotionsDense(t *testing.T) {
	if testing.Short() {
		t.Skip("2,000 strands: skipped with -short")
	}
	ms := motions()
	for _, m := range []motion{ms[3], ms[13]} {
		t.Run(m.name, func(t *testing.T) { drive(t, newGameHair(t, 2000, 16), m) })
	}
}
