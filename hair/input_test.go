package hair_test

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/drape3d/drape/hair"
	"github.com/drape3d/drape/verlet3d"
	"github.com/go-gl/mathgl/mgl32"
)

func TestBadInput(t *testing.T) {
	nan := float32(math.NaN())
	cases := []struct {
		name string
		head func(*hair.Head)
		set  func(*hair.Settings)
		want string // the error must name this
	}{
		{"zero strands", nil, func(s *hair.Settings) { s.Strands = 0 }, "Strands = 0"},
		{"negative strands", nil, func(s *hair.Settings) { s.Strands = -3 }, "Strands = -3"},
		{"zero segments", nil, func(s *hair.Settings) { s.Segments = 0 }, "Segments = 0"},
		{"zero iterations", nil, func(s *hair.Settings) { s.Iterations = 0 }, "Iterations = 0"},
		{"65 iterations", nil, func(s *hair.Settings) { s.Iterations = 65 }, "Iterations = 65"},
		{"zero length", nil, func(s *hair.Settings) { s.Length = 0 }, "Length = 0"},
		{"negative length", nil, func(s *hair.Settings) { s.Length = -0.2 }, "Length = -0.2"},
		{"NaN length", nil, func(s *hair.Settings) { s.Length = nan }, "Length = NaN"},
		{"zero cap angle", nil, func(s *hair.Settings) { s.CapAngle = 0 }, "CapAngle = 0"},
		{"negative cap angle", nil, func(s *hair.Settings) { s.CapAngle = -1 }, "CapAngle = -1"},
		{"cap angle above pi", nil, func(s *hair.Settings) { s.CapAngle = 3.2 }, "CapAngle = 3.2"},
		{"length variation 1", nil, func(s *hair.Settings) { s.LengthVariation = 1 }, "LengthVariation = 1"},
		{"zero mass", nil, func(s *hair.Settings) { s.Mass = 0 }, "Mass = 0"},
		{"negative radius", nil, func(s *hair.Settings) { s.Radius = -0.001 }, "Radius = -0.001"},
		{"style above 1", nil, func(s *hair.Settings) { s.StyleStiffness = 1.5 }, "StyleStiffness = 1.5"},
		{"negative bend", nil, func(s *hair.Settings) { s.BendCompliance = -1 }, "BendCompliance = -1"},
		{"follow damping above 1", nil, func(s *hair.Settings) { s.FollowDamping = 1.2 }, "FollowDamping = 1.2"},
		{"NaN follow damping", nil, func(s *hair.Settings) { s.FollowDamping = nan }, "FollowDamping = NaN"},
		{"wide parting", nil, func(s *hair.Settings) { s.PartingWidth = 1 }, "PartingWidth = 1"},
		{"infinite drag", nil, func(s *hair.Settings) { s.WindDrag = float32(math.Inf(1)) }, "WindDrag = +Inf"},
		{"negative head radius", func(h *hair.Head) { h.Radius = -0.1 }, nil, "Head.Radius = -0.1"},
		{"zero head radius", func(h *hair.Head) { h.Radius = 0 }, nil, "Head.Radius = 0"},
		{"NaN head center", func(h *hair.Head) { h.Center[1] = nan }, nil, "Head.Center"},
		{"NaN head rotation", func(h *hair.Head) { h.Rotation.W = nan }, nil, "Head.Rotation"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w, _ := verlet3d.NewWorld(hair.WorldConfig())
			head := hair.DefaultHead()
			s := hair.DefaultSettings()
			s.Strands = 10
			if c.head != nil {
				c.head(&head)
			}
			if c.set != nil {
				c.set(&s)
			}
			h, err := hair.New(w, head, s)
			if err == nil {
				t.Fatalf("New accepted it (%d strands)", h.NumStrands())
			}
			if !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %q does not name %q", err, c.want)
			}
			if w.NumParticles() != 0 {
				t.Errorf("a failed New left %d particles in the World", w.NumParticles())
			}
		})
	}
	// The largest cap angle, π, is a whole-head cover and is valid.
	w, _ := verlet3d.NewWorld(hair.WorldConfig())
	s := hair.DefaultSettings()
	s.Strands, s.CapAngle = 50, math.Pi
	if _, err := hair.New(w, hair.DefaultHead(), s); err != nil {
		t.Errorf("CapAngle = π rejected: %v", err)
	}
	func() {
		defer func() {
			if r := recover(); r == nil || !strings.Contains(fmt.Sprint(r), "World is nil") {
				t.Errorf("New(nil World): panic %v, want one saying the World is nil", r)
			}
		}()
		_, _ = hair.New(nil, hair.DefaultHead(), s)
	}()
}

func TestBadRuntimeInput(t *testing.T) {
	r := newRig(t, func(s *hair.Settings) { s.Strands = 20 }, 1)
	nan := float32(math.NaN())
	if err := r.h.SetHead(mgl32.Vec3{nan, 0, 0}, mgl32.QuatIdent()); err == nil || !strings.Contains(err.Error(), "Head.Center") {
		t.Errorf("SetHead(NaN center) = %v", err)
	}
	if err := r.h.SetStyle(-0.1, 0); err == nil || !strings.Contains(err.Error(), "StyleStiffness = -0.1") {
		t.Errorf("SetStyle(-0.1) = %v", err)
	}
	if err := r.h.SetWind(verlet3d.Wind{Gust: -1}); err == nil || !strings.Contains(err.Error(), "Gust") {
		t.Errorf("SetWind(Gust -1) = %v", err)
	}
	if err := r.h.SetWindDrag(nan); err == nil || !strings.Contains(err.Error(), "WindDrag") {
		t.Errorf("SetWindDrag(NaN) = %v", err)
	}
	// None of them changed anything: the hair still steps cleanly.
	for i := 0; i < 10; i++ {
		r.w.Step()
	}
	if n := r.w.Stats().NonFiniteResets; n != 0 {
		t.Errorf("%d NaN resets after rejected input", n)
	}
}

// A New that fails leaves the World as it was (issue 16), even for a Length
// of 1e-45.
func TestFailedNewLeavesWorldUnchanged(t *testing.T) {
	w, err := verlet3d.NewWorld(hair.WorldConfig())
	if err != nil {
		t.Fatal(err)
	}
	ok := hair.DefaultSettings()
	ok.Strands = 10
	if _, err := hair.New(w, hair.DefaultHead(), ok); err != nil {
		t.Fatal(err)
	}
	before := [3]int{w.NumParticles(), w.NumLinks(), len(w.Colliders())}
	for _, edit := range []func(*hair.Settings){
		func(s *hair.Settings) { s.Length = 1e-45 },
		func(s *hair.Settings) { s.Length, s.Segments = 1e-30, 256 },
		func(s *hair.Settings) { s.Mass = 1e-44 },
	} {
		s := ok
		edit(&s)
		h, err := hair.New(w, hair.DefaultHead(), s)
		if err == nil {
			// Accepted: it must then be a working hair, not a NaN.
			for i := 0; i < 30; i++ {
				w.Step()
			}
			if w.Stats().NonFiniteResets != 0 || h.NumRecovered() != 0 {
				t.Errorf("settings %+v accepted and went non-finite", s)
			}
			return
		}
		if after := [3]int{w.NumParticles(), w.NumLinks(), len(w.Colliders())}; after != before {
			t.Errorf("failed New (%v): particles, links, colliders %v before, %v after", err, before, after)
		}
	}
}
