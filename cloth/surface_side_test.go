package cloth_test

import (
	"math"
	"strings"
	"testing"

	"github.com/drape3d/drape/cloth"
	"github.com/drape3d/drape/internal/vecmath"
	"github.com/drape3d/drape/verlet3d"
	"github.com/go-gl/mathgl/mgl32"
)

// With a fixed side a point belongs on that side of the cloth wherever it
// came from. On the trampoline (front up) a corner starting 3 cm under
// the cloth at rest is taken up through it within the first step with
// SideFront and BringOut(0.05), and rests on top Thickness above the
// surface, at rest (taken through as a teleport, not flung); one 8 cm
// under, beyond reach, falls away, as does the one 3 cm under without
// BringOut; with SideCameFrom or SideBack the one 3 cm under stays under.
func TestSurfaceCollisionFixedSide(t *testing.T) {
	const th = 0.01
	for _, c := range []struct {
		name  string
		side  cloth.Side
		reach float32 // BringOut
		y     float32 // start height; the cloth lies at 1 m
		above bool
	}{
		{"front, 3 cm under", cloth.SideFront, 0.05, 0.97, true},
		{"front, 8 cm under (beyond reach)", cloth.SideFront, 0.05, 0.92, false},
		{"front, 3 cm under, no BringOut", cloth.SideFront, 0, 0.97, false},
		{"came from, 3 cm under", cloth.SideCameFrom, 0.05, 0.97, false},
		{"back, 3 cm under", cloth.SideBack, 0.05, 0.97, false},
		{"back, 1 cm over", cloth.SideBack, 0, 1.01, false},
	} {
		w, g, p := trampoline(t, c.y, mgl32.Vec3{})
		sc, err := cloth.NewSurfaceCollision(g, []verlet3d.Particle{p}, th)
		if err != nil {
			t.Fatal(err)
		}
		if err := sc.SetSide(c.side, 0); err != nil {
			t.Fatal(err)
		}
		if err := sc.BringOut(c.reach); err != nil {
			t.Fatal(err)
		}
		if sc.Side() != c.side {
			t.Fatalf("%s: Side() = %v after SetSide(%v)", c.name, sc.Side(), c.side)
		}
		w.Step()
		if c.above {
			if h := heightOver(w, g, p); h < th-1e-3 {
				t.Errorf("%s: %.4f m over the cloth after one step, want taken through to at least %v", c.name, h, th)
			}
			if v := vecmath.Len(w.Velocity(p)); v > 0.5 {
				t.Errorf("%s: taken through at %.2f m/s, want at rest (under 0.5)", c.name, v)
			}
		}
		for range 119 {
			w.Step()
		}
		h := heightOver(w, g, p)
		switch {
		case c.above && math.Abs(float64(h-th)) > 2e-3:
			t.Errorf("%s: %.4f m over the cloth after 2 s, want resting %v over it (±2 mm)", c.name, h, th)
		case !c.above && h > -th+1e-3:
			t.Errorf("%s: %.4f m over the cloth after 2 s, want under it by at least %v", c.name, h, th)
		}
	}
}

// SetSide refuses an unknown side, and SetSide and BringOut a reach that
// is not a finite number of meters in [0, 1], naming the value; the side
// stays.
func TestSurfaceCollisionSetSideBadInput(t *testing.T) {
	_, g, p := trampoline(t, 1.1, mgl32.Vec3{})
	sc, err := cloth.NewSurfaceCollision(g, []verlet3d.Particle{p}, 0.01)
	if err != nil {
		t.Fatal(err)
	}
	if err := sc.SetSide(cloth.Side(7), 0); err == nil || !strings.Contains(err.Error(), "side = Side(7)") {
		t.Errorf("SetSide(Side(7), 0) = %v, want an error naming Side(7)", err)
	}
	for _, c := range []struct {
		reach float32
		want  string
	}{
		{-0.01, "reach = -0.01"},
		{float32(math.NaN()), "reach = NaN"},
		{2, "reach = 2"},
	} {
		if err := sc.SetSide(cloth.SideFront, c.reach); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("SetSide(SideFront, %v) = %v, want an error containing %q", c.reach, err, c.want)
		}
		if err := sc.BringOut(c.reach); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("BringOut(%v) = %v, want an error containing %q", c.reach, err, c.want)
		}
	}
	if sc.Side() != cloth.SideCameFrom {
		t.Errorf("failed SetSide calls changed the side to %v", sc.Side())
	}
}

// Cape.Outside is the grid side facing away from the body: the front
// with the anchors from the left shoulder to the right (the grid's
// normals point back, away from the torso), the back with them reversed
// (the normals point at the torso). The test walker faces +Z and lists
// its anchors from x = -0.18 (its right shoulder) to +0.18.
func TestCapeOutside(t *testing.T) {
	for _, reversed := range []bool{false, true} {
		w := newWorld(t, capeConfig)
		k := newWalker(t, w)
		c := newCape(t, w, k, func(s *cloth.CapeSettings) {
			if reversed {
				a := s.Anchors
				s.Anchors = []verlet3d.Pose{a[2], a[1], a[0]}
			}
		})
		want := cloth.SideBack // right to left
		if reversed {
			want = cloth.SideFront
		}
		if got := c.Outside(); got != want {
			t.Errorf("reversed %v: Outside() = %v, want %v", reversed, got, want)
		}
		// The mean normal against the back (-Z for this walker).
		var dot float32
		ns := c.Grid().Normals(nil)
		for _, n := range ns {
			dot += vecmath.Dot(n, mgl32.Vec3{0, 0, -1})
		}
		dot /= float32(len(ns))
		if out := dot > 0; out != (want == cloth.SideFront) {
			t.Errorf("reversed %v: the normals point %.2f along the back, but Outside() = %v", reversed, dot, c.Outside())
		}
	}
}

// With one-way contacts a heavy corner (2 kg) resting on the trampoline
// is held on top as with two-way ones, Thickness over the cloth, but the
// cloth does not sag under it: the cell's
// corners stay where the cloth alone hangs (within 0.1 mm), where two-way
// contacts sag them by millimeters.
func TestSurfaceCollisionOneWay(t *testing.T) {
	sag := map[bool]float32{}
	for _, oneWay := range []bool{false, true} {
		w, g, p := trampoline(t, 1.05, mgl32.Vec3{})
		w.SetMass(p, 2)
		sc, err := cloth.NewSurfaceCollision(g, []verlet3d.Particle{p}, 0.01)
		if err != nil {
			t.Fatal(err)
		}
		sc.SetOneWay(oneWay)
		if sc.OneWay() != oneWay {
			t.Fatalf("OneWay() = %v after SetOneWay(%v)", sc.OneWay(), oneWay)
		}
		for range 120 {
			w.Step()
		}
		h := heightOver(w, g, p)
		if h <= 0 || oneWay && (h < 0.009 || h > 0.012) {
			t.Errorf("one-way %v: the corner %.4f m over the cloth, want on top (one-way: resting 0.01 over it)", oneWay, h)
		}
		sag[oneWay] = 1 - w.Position(g.Particle(10, 10))[1]
	}
	// The cloth alone, for its own sag under gravity.
	w, g, _ := trampoline(t, 5, mgl32.Vec3{})
	for range 120 {
		w.Step()
	}
	alone := 1 - w.Position(g.Particle(10, 10))[1]
	if d := sag[true] - alone; d > 1e-4 || d < -1e-4 {
		t.Errorf("one-way: the cloth sags %.5f m under the corner, %.5f alone: want the same (±0.1 mm)", sag[true], alone)
	}
	if d := sag[false] - alone; d < 1e-3 {
		t.Errorf("two-way: the cloth sags %.5f m under a 2 kg corner, %.5f alone: want more by 1 mm at least", sag[false], alone)
	}
}
