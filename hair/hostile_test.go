package hair_test

import (
	"math"
	"strings"
	"testing"

	"github.com/drape3d/drape/hair"
	"github.com/drape3d/drape/internal/vecmath"
	"github.com/drape3d/drape/verlet3d"
	"github.com/go-gl/mathgl/mgl32"
)

// hostileHair is a head of hair nodding in a gusty, turbulent wind.
func hostileHair(t *testing.T) (*verlet3d.World, *hair.Hair) {
	t.Helper()
	w, err := verlet3d.NewWorld(hair.WorldConfig())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(w.Close)
	s := hair.DefaultSettings()
	s.Strands = 100
	head := hair.DefaultHead()
	head.Center = mgl32.Vec3{0, 1.7, 0}
	h, err := hair.New(w, head, s)
	if err != nil {
		t.Fatal(err)
	}
	if err := h.SetWind(verlet3d.Wind{Steady: mgl32.Vec3{8, 0, 0}, Gust: 0.5, GustPeriod: 3, Turbulence: 3, TurbulenceScale: 0.5}); err != nil {
		t.Fatal(err)
	}
	return w, h
}

// nod moves the head by frame i of a nod and steps.
func nod(t *testing.T, w *verlet3d.World, h *hair.Hair, i int) {
	t.Helper()
	a := float32(0.3 * math.Sin(float64(i)/10))
	if err := h.SetHead(mgl32.Vec3{0, 1.7, 0}, vecmath.QuatAxisAngle(a, mgl32.Vec3{1, 0, 0})); err != nil {
		t.Fatal(err)
	}
	w.Step()
}

// checkHairFinite fails on a non-finite particle, a strand put back by the
// hair's recovery or a reset by the World's guard since resets.
func checkHairFinite(t *testing.T, w *verlet3d.World, h *hair.Hair, resets int) {
	t.Helper()
	for i, x := range w.Positions() {
		if !vecmath.Finite(x) {
			t.Fatalf("particle %d at %v", i, x)
		}
	}
	if n := w.Stats().NonFiniteResets; n != resets {
		t.Errorf("NonFiniteResets went from %d to %d", resets, n)
	}
	if n := h.NumRecovered(); n != 0 {
		t.Errorf("NumRecovered = %d, want 0", n)
	}
}

// SetHead refuses one bad frame of a head bone (NaN, infinite, 1e30 m,
// a NaN rotation) with an error naming SetHead and the field, and the head
// holds its last pose: nothing non-finite reaches the strands. A zero
// rotation is the identity.
func TestSetHeadRefusesBadPoses(t *testing.T) {
	nan, inf := float32(math.NaN()), float32(math.Inf(1))
	cases := []struct {
		name   string
		center mgl32.Vec3
		rot    mgl32.Quat
		want   string // "" accepted
	}{
		{"NaN center", mgl32.Vec3{0, nan, 0}, mgl32.QuatIdent(), "hair: SetHead: Head.Center = [0 NaN 0]"},
		{"infinite center", mgl32.Vec3{inf, 1.7, 0}, mgl32.QuatIdent(), "hair: SetHead: Head.Center = [+Inf 1.7 0]"},
		{"center 1e30 m away", mgl32.Vec3{1e30, 1.7, 0}, mgl32.QuatIdent(), "hair: SetHead: Head.Center = [1e+30 1.7 0]"},
		{"NaN rotation", mgl32.Vec3{0, 1.7, 0}, mgl32.Quat{W: nan}, "hair: SetHead: Head.Rotation"},
		{"infinite rotation", mgl32.Vec3{0, 1.7, 0}, mgl32.Quat{W: 1, V: mgl32.Vec3{0, -inf, 0}}, "hair: SetHead: Head.Rotation"},
		{"zero rotation", mgl32.Vec3{0, 1.7, 0}, mgl32.Quat{}, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w, h := hostileHair(t)
			for i := range 30 {
				nod(t, w, h, i)
			}
			resets, held := w.Stats().NonFiniteResets, h.Head()
			err := h.SetHead(c.center, c.rot)
			switch {
			case c.want == "" && err != nil:
				t.Fatalf("SetHead(%v, %v) = %v, want nil", c.center, c.rot, err)
			case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
				t.Fatalf("SetHead(%v, %v) = %v, want an error containing %q", c.center, c.rot, err, c.want)
			case c.want != "" && h.Head() != held:
				t.Fatalf("refused SetHead moved the head to %+v, want %+v held", h.Head(), held)
			}
			w.Step()
			checkHairFinite(t, w, h, resets)
			for i := 30; i < 60; i++ {
				nod(t, w, h, i)
			}
			checkHairFinite(t, w, h, resets)
		})
	}
}

// An absurd clock is refused (World.SetTime), so the hair's turbulent wind
// never reads a float32 time that has overflowed; the hair steps on finite.
func TestHairWindClockRefused(t *testing.T) {
	for _, tm := range []float64{1e300, 1e39, math.Inf(1), math.NaN(), 2 * verlet3d.MaxTime} {
		w, h := hostileHair(t)
		for i := range 10 {
			nod(t, w, h, i)
		}
		resets := w.Stats().NonFiniteResets
		if err := w.SetTime(tm); err == nil || !strings.Contains(err.Error(), "SetTime(") {
			t.Errorf("SetTime(%v) = %v, want an error naming SetTime and the value", tm, err)
		}
		for i := 10; i < 40; i++ {
			nod(t, w, h, i)
		}
		checkHairFinite(t, w, h, resets)
	}
}
