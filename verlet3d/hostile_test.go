package verlet3d_test

import (
	"math"
	"strings"
	"testing"

	"github.com/drape3d/drape/internal/vecmath"
	"github.com/drape3d/drape/verlet3d"
	"github.com/go-gl/mathgl/mgl32"
)

// SetTime refuses a clock that is not finite, negative or beyond MaxTime,
// naming the value, and leaves the clock as it was; within MaxTime a gusty,
// turbulent wind stays finite.
func TestSetTimeRefusesAbsurdClocks(t *testing.T) {
	cases := []struct {
		t    float64
		want string // "" accepted
	}{
		{0, ""},
		{12*3600 + 0.37, ""},
		{verlet3d.MaxTime, ""},
		{-1, "SetTime(-1)"},
		{math.NaN(), "SetTime(NaN)"},
		{math.Inf(1), "SetTime(+Inf)"},
		{verlet3d.MaxTime * 1.0001, "SetTime(100010)"},
		{1e300, "SetTime(1e+300)"},
	}
	for _, c := range cases {
		w := newWorld(t, nil)
		before := w.Time()
		err := w.SetTime(c.t)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("SetTime(%v) = %v, want nil", c.t, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "MaxTime")):
			t.Errorf("SetTime(%v) = %v, want an error naming %q and MaxTime", c.t, err, c.want)
		case c.want != "" && w.Time() != before:
			t.Errorf("SetTime(%v) refused but moved the clock to %v", c.t, w.Time())
		}
		// The wind at the clock the World keeps is finite.
		wd := verlet3d.Wind{Steady: mgl32.Vec3{30, 0, 0}, Gust: 0.5, GustPeriod: 3, Turbulence: 5, TurbulenceScale: 0.5}
		if v := wd.Velocity(mgl32.Vec3{1, 2, 3}, float32(w.Time())); !vecmath.Finite(v) {
			t.Errorf("after SetTime(%v): wind %v at t = %v", c.t, v, w.Time())
		}
	}
}

// ShiftOrigin refuses an offset that is not finite or beyond
// MaxCoordinate, or one that would carry a particle beyond it, naming the
// offset, and leaves every particle where it was.
func TestShiftOriginRefusesAbsurdOffsets(t *testing.T) {
	inf := float32(math.Inf(1))
	cases := []struct {
		name   string
		at     mgl32.Vec3 // the particle
		offset mgl32.Vec3
		want   string // "" accepted
	}{
		{"100 m", mgl32.Vec3{0, 1, 0}, mgl32.Vec3{100, 0, 0}, ""},
		{"10 km", mgl32.Vec3{1e4, 1, 0}, mgl32.Vec3{1e4, 0, 0}, ""},
		{"2e9 m", mgl32.Vec3{0, 1, 0}, mgl32.Vec3{2e9, 0, 0}, "ShiftOrigin([2e+09 0 0]): offset"},
		{"-2e9 m in z", mgl32.Vec3{0, 1, 0}, mgl32.Vec3{0, 0, -2e9}, "ShiftOrigin([0 0 -2e+09]): offset"},
		{"NaN", mgl32.Vec3{0, 1, 0}, mgl32.Vec3{nan, 0, 0}, "ShiftOrigin([NaN 0 0]): offset"},
		{"Inf", mgl32.Vec3{0, 1, 0}, mgl32.Vec3{0, inf, 0}, "ShiftOrigin([0 +Inf 0]): offset"},
		{"carries a particle out", mgl32.Vec3{-8e8, 1, 0}, mgl32.Vec3{8e8, 0, 0}, "particle 0 at"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w := newWorld(t, nil)
			p, err := w.AddParticle(c.at, 1)
			if err != nil {
				t.Fatal(err)
			}
			err = w.ShiftOrigin(c.offset)
			if c.want == "" {
				if err != nil {
					t.Fatalf("ShiftOrigin(%v) = %v, want nil", c.offset, err)
				}
				if got, want := w.Position(p), c.at.Sub(c.offset); got != want {
					t.Errorf("particle at %v after the shift, want %v", got, want)
				}
			} else {
				if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "MaxCoordinate") {
					t.Fatalf("ShiftOrigin(%v) = %v, want an error naming %q and MaxCoordinate", c.offset, err, c.want)
				}
				if got := w.Position(p); got != c.at {
					t.Errorf("refused shift moved the particle to %v", got)
				}
			}
			before := w.Stats().NonFiniteResets
			for range 10 {
				w.Step()
			}
			for i, x := range w.Positions() {
				if !vecmath.Finite(x) {
					t.Errorf("particle %d at %v", i, x)
				}
			}
			if n := w.Stats().NonFiniteResets; n != before {
				t.Errorf("NonFiniteResets went from %d to %d", before, n)
			}
		})
	}
}
