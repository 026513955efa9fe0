package bodies_test

import (
	"fmt"
	"github.com/drape3d/drape/internal/vecmath"
	"math"
	"strings"
	"testing"

	"github.com/drape3d/drape/bodies"
	"github.com/drape3d/drape/verlet3d"
	"github.com/go-gl/mathgl/mgl32"
)

// Bad settings are refused at construction with an error naming the field
// and the value, and nothing is added to the World.
func TestBadInput(t *testing.T) {
	nan := float32(math.NaN())
	inf := float32(math.Inf(1))
	ok := bodies.CubeSettings{Size: 1, Mass: 1}
	for _, tc := range []struct {
		name string
		edit func(*bodies.CubeSettings)
		want string
	}{
		{"zero size", func(s *bodies.CubeSettings) { s.Size = 0 }, "Size = 0"},
		{"negative size", func(s *bodies.CubeSettings) { s.Size = -0.5 }, "Size = -0.5"},
		{"NaN size", func(s *bodies.CubeSettings) { s.Size = nan }, "Size = NaN"},
		{"infinite size", func(s *bodies.CubeSettings) { s.Size = inf }, "Size = +Inf"},
		{"zero mass", func(s *bodies.CubeSettings) { s.Mass = 0 }, "Mass = 0"},
		{"negative mass", func(s *bodies.CubeSettings) { s.Mass = -2 }, "Mass = -2"},
		{"NaN mass", func(s *bodies.CubeSettings) { s.Mass = nan }, "Mass = NaN"},
		{"infinite mass", func(s *bodies.CubeSettings) { s.Mass = inf }, "Mass = +Inf"},
		{"NaN position", func(s *bodies.CubeSettings) { s.Position[1] = nan }, "Position"},
		{"NaN rotation", func(s *bodies.CubeSettings) { s.Rotation = mgl32.Quat{W: nan} }, "Rotation"},
		{"tiny rotation", func(s *bodies.CubeSettings) { s.Rotation = mgl32.Quat{W: 1e-9} }, "Rotation"},
		{"infinite velocity", func(s *bodies.CubeSettings) { s.Velocity[0] = inf }, "Velocity"},
		{"NaN spin", func(s *bodies.CubeSettings) { s.AngularVelocity[2] = nan }, "AngularVelocity"},
		{"negative compliance", func(s *bodies.CubeSettings) { s.Compliance = -1 }, "Compliance = -1"},
	} {
		w, s := newWorld(t, nil)
		cs := ok
		tc.edit(&cs)
		c, err := s.AddCube(cs)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: AddCube error %v, want one naming %q", tc.name, err, tc.want)
		}
		if c != -1 || s.NumCubes() != 0 || w.NumParticles() != 0 {
			t.Errorf("%s: handle %d, %d cubes, %d particles after a refused cube", tc.name, c, s.NumCubes(), w.NumParticles())
		}
	}
	for _, tc := range []struct {
		name string
		set  bodies.Settings
		want string
	}{
		{"negative friction", bodies.Settings{Friction: -1}, "Friction = -1"},
		{"NaN particle friction", bodies.Settings{ParticleFriction: float32(math.NaN())}, "ParticleFriction = NaN"},
		{"restitution above 1", bodies.Settings{Restitution: 1.5}, "Restitution = 1.5"},
		{"negative margin", bodies.Settings{Margin: -0.01}, "Margin = -0.01"},
		{"negative passes", bodies.Settings{Passes: -1}, "Passes = -1"},
	} {
		w, err := verlet3d.NewWorld(verlet3d.DefaultConfig())
		if err != nil {
			t.Fatal(err)
		}
		if _, err := bodies.NewSystem(w, tc.set); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: NewSystem error %v, want one naming %q", tc.name, err, tc.want)
		}
	}
	func() {
		defer func() {
			if r := recover(); r == nil || !strings.Contains(fmt.Sprint(r), "World is nil") {
				t.Errorf("NewSystem(nil World): panic %v, want one saying the World is nil", r)
			}
		}()
		_, _ = bodies.NewSystem(nil, bodies.DefaultSettings())
	}()
	_, s := newWorld(t, nil)
	c := addCube(t, s, ok)
	if err := s.Throw(c, mgl32.Vec3{float32(math.NaN()), 0, 0}, mgl32.Vec3{}); err == nil {
		t.Error("Throw with a NaN velocity gave no error")
	}
	if err := s.ApplyImpulse(c, mgl32.Vec3{}, mgl32.Vec3{0, inf, 0}); err == nil {
		t.Error("ApplyImpulse with an infinite impulse gave no error")
	}
	defer func() {
		if r := recover(); r == nil || !strings.Contains(r.(string), "out of range") {
			t.Errorf("unknown cube handle: panic %v, want one saying out of range", r)
		}
	}()
	s.Position(bodies.Cube(7))
}

// Stepping a pile of cubes with cloth on it allocates nothing once the
// contact buffers have grown.
func TestStepAllocations(t *testing.T) {
	w, s := tumblingSys(t, 30, testConfig())
	for i := 0; i < 120; i++ {
		w.Step()
	}
	_ = s
	if n := testing.AllocsPerRun(60, w.Step); n != 0 {
		t.Errorf("%v allocations per step, want 0", n)
	}
}

// An impulse through the center moves a cube without turning it, and one
// at a corner also turns it, as a rigid box would (solid cube: I = M·s²/6).
func TestImpulse(t *testing.T) {
	w, s := newWorld(t, func(c *verlet3d.Config) { c.Gravity = mgl32.Vec3{}; c.Damping = 0 })
	c := addCube(t, s, bodies.CubeSettings{Size: 1, Mass: 2})
	if err := s.ApplyImpulse(c, mgl32.Vec3{}, mgl32.Vec3{4, 0, 0}); err != nil {
		t.Fatal(err)
	}
	if v := s.Velocity(c); vecmath.Len(v.Sub(mgl32.Vec3{2, 0, 0})) > 1e-3 {
		t.Errorf("after 4 N·s through the center of 2 kg: velocity %v, want (2, 0, 0)", v)
	}
	// 1 N·s along z at the +x face center: ω = (r × J)/I = 0.5/(2/6) = 1.5
	// rad/s about -y.
	_, s2 := newWorld(t, func(c *verlet3d.Config) { c.Gravity = mgl32.Vec3{}; c.Damping = 0 })
	c2 := addCube(t, s2, bodies.CubeSettings{Size: 1, Mass: 2})
	if err := s2.ApplyImpulse(c2, mgl32.Vec3{0.5, 0, 0}, mgl32.Vec3{0, 0, 1}); err != nil {
		t.Fatal(err)
	}
	w2 := s2.World()
	for i := 0; i < 30; i++ {
		w2.Step()
	}
	want := vecmath.QuatAxisAngle(-1.5*0.5, mgl32.Vec3{0, 1, 0})
	if a := angle(want, s2.Rotation(c2)); a > 0.01 {
		t.Errorf("after 0.5 s the cube turned %.4f rad away from 0.75 rad about -y", a)
	}
	_ = w
}

// A refused cube leaves the World as it was (Mass 1e38 leaves no corner
// particle behind).
func TestRefusedCubeLeavesWorldUnchanged(t *testing.T) {
	w, s := newWorld(t, nil)
	before := [2]int{w.NumParticles(), w.NumLinks()}
	for _, cs := range []bodies.CubeSettings{
		{Size: 0.5, Mass: 1e38, Position: mgl32.Vec3{0, 1, 0}},
		{Size: 1e-30, Mass: 1, Position: mgl32.Vec3{0, 1, 0}},
		{Size: 0.5, Mass: 1e-44, Position: mgl32.Vec3{0, 1, 0}},
	} {
		if _, err := s.AddCube(cs); err == nil {
			continue // accepted is fine if it is valid; the World must step
		}
		if after := [2]int{w.NumParticles(), w.NumLinks()}; after != before {
			t.Errorf("refused cube %+v: particles, links %v before, %v after", cs, before, after)
		}
	}
	for i := 0; i < 60; i++ {
		w.Step()
	}
	if n := w.Stats().NonFiniteResets; n != 0 {
		t.Errorf("%d non-finite resets after the refused cubes", n)
	}
}
