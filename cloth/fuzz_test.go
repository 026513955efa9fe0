package cloth_test

import (
	"github.com/drape3d/drape/internal/checks"
	"github.com/drape3d/drape/internal/vecmath"
	"strings"
	"testing"

	"github.com/drape3d/drape/cloth"
	"github.com/drape3d/drape/verlet3d"
	"github.com/go-gl/mathgl/mgl32"
)

var settingsFields = []string{"Settings.", "Tethers"}

// FuzzCloth builds a grid from fuzzed cloth.Settings (sizes, spacing,
// masses, compliances, pins, tethers, tearing), adds fuzzed wind, a
// collider and points held by a SurfaceCollision, then plays fuzzed frames,
// pin targets, wind changes, cuts and throws.
//
//	go test ./cloth -run '^$' -fuzz '^FuzzCloth$' -fuzztime 5m -parallel 1
func FuzzCloth(f *testing.F) {
	f.Add([]byte{})
	f.Add([]byte("\x00\x00\x01\x00\x00\x00\x00\x00\x00\x00\x05\x05\x05\x05\x05"))
	f.Add([]byte("\x02\x03\x00\x01\x80\xa0\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x03\x03\x03\x03\x04\x04\x05"))
	f.Fuzz(func(t *testing.T, data []byte) {
		in := checks.NewInput(data)
		w := checks.World(t, in, verlet3d.DefaultConfig(), true)
		s := cloth.DefaultSettings()
		s.Cols, s.Rows = 2+in.Intn(10), 2+in.Intn(10)
		s.PinRows = []int{0}
		flags := in.U8()
		if flags&1 != 0 {
			switch in.Intn(4) {
			case 0:
				s.Cols = int(int8(in.U8()))
			case 1:
				s.Rows = 1 << in.Intn(64)
			case 2:
				s.Cols, s.Rows = 1<<in.Intn(64), 1<<in.Intn(64)
			default:
				s.Rows = -s.Rows
			}
		}
		if flags&2 != 0 {
			s.Spacing, s.Origin, s.Across, s.Down = in.Maybe(s.Spacing), in.Vec(), in.Vec(), in.Vec()
		}
		if flags&4 != 0 {
			s.Mass, s.ParticleMass, s.Radius = in.Maybe(s.Mass), in.Maybe(0), in.Maybe(0)
		}
		if flags&8 != 0 {
			s.Structural.Compliance, s.Shear.Compliance, s.Bend.Compliance = in.Maybe(0), in.Maybe(0), in.Maybe(1e-3)
		}
		if flags&16 != 0 {
			s.TearStrain, s.TetherSlack = in.Maybe(0.3), in.Maybe(0)
		}
		if flags&32 != 0 {
			s.PinRows, s.PinCols = nil, nil
			for i, n := 0, in.Intn(4); i < n; i++ {
				s.PinRows = append(s.PinRows, int(int8(in.U8()))%16)
			}
			for i, n := 0, in.Intn(3); i < n; i++ {
				s.PinCols = append(s.PinCols, int(int8(in.U8()))%16)
			}
		}
		s.Tethers = flags&64 != 0
		checks.Tracef(t, "cloth.Settings %+v", s)
		if s.Cols > 0 && s.Rows > 0 && s.Cols < 1<<31/s.Rows && s.Cols*s.Rows > 4096 {
			// Big grids are valid but slow to fuzz: check the settings only.
			_ = s.Validate()
			return
		}
		before := checks.Snapshot(w)
		g, err := cloth.New(w, s)
		if err != nil {
			checks.MustName(t, err, "cloth.New", settingsFields...)
			before.Same(t, w, "cloth.New")
			return
		}

		ws := cloth.DefaultWindSettings()
		ws.Air = verlet3d.Wind{Steady: mgl32.Vec3{in.F32(), in.F32(), in.F32()}, Gust: in.Maybe(0.5), GustPeriod: in.Maybe(3),
			Turbulence: in.Maybe(2), TurbulenceScale: in.Maybe(0.5)}
		if in.U8()&1 != 0 {
			ws.Density, ws.Drag, ws.Lift, ws.SampleStride = in.Maybe(1.2), in.Maybe(1), in.Maybe(0.5), int(int8(in.U8()))
		}
		checks.Tracef(t, "WindSettings %+v", ws)
		before = checks.Snapshot(w)
		wind, err := cloth.NewWindForce(g, ws)
		if err != nil {
			checks.MustName(t, err, "NewWindForce", "WindSettings.")
			before.Same(t, w, "NewWindForce")
		}
		if in.U8()&1 != 0 {
			c, err := verlet3d.NewSphere(in.Vec(), in.F32())
			checks.Tracef(t, "NewSphere %+v %v", c, err)
			if err == nil {
				if err := w.AddCollider(c, verlet3d.ContactSettings{Friction: 0.3}); err != nil {
					t.Fatal(err)
				}
			}
		}
		// Points kept out of the cloth's triangles (a crate's corners, a
		// thrown ball), some of them thrown at it.
		var points []verlet3d.Particle
		if flags&128 != 0 {
			for i, n := 0, 1+in.Intn(4); i < n; i++ {
				p, err := w.AddParticle(in.Vec(), in.Maybe(1))
				checks.Tracef(t, "AddParticle %v %v", p, err)
				if err == nil {
					points = append(points, p)
				}
			}
			th := in.Maybe(0.02)
			checks.Tracef(t, "NewSurfaceCollision(%v, %v)", points, th)
			before = checks.Snapshot(w)
			if _, err := cloth.NewSurfaceCollision(g, points, th); err != nil {
				checks.MustName(t, err, "NewSurfaceCollision", "thickness", "points")
				before.Same(t, w, "NewSurfaceCollision")
				points = nil
			}
		}
		checks.CheckWorld(t, w, "after building")

		for op := 0; op < 48 && in.Len() > 0; op++ {
			code := in.Intn(8)
			if len(points) > 0 && code == 7 && in.U8()&1 != 0 {
				p, v := points[in.Intn(len(points))], in.Vec()
				checks.Tracef(t, "SetVelocity(%v, %v)", p, v)
				if vecmath.Finite(v) {
					w.SetVelocity(p, v)
				}
				continue
			}
			switch code {
			case 0, 1, 2:
				w.Advance(1.0 / 60)
				checks.CheckWorld(t, w, "frame")
			case 3:
				dt := float32(in.Intn(200)) / 100
				checks.Tracef(t, "Advance(%v)", dt)
				w.Advance(dt)
				checks.CheckWorld(t, w, "long frame")
			case 4:
				r, c, v := in.Intn(g.Rows()), in.Intn(g.Cols()), in.Vec()
				checks.Tracef(t, "SetTarget(%d, %d, %v)", r, c, v)
				if vecmath.Finite(v) {
					g.SetTarget(r, c, v)
				}
			case 5:
				if wind != nil {
					air := verlet3d.Wind{Steady: in.Vec(), Gust: in.Maybe(0), GustPeriod: in.Maybe(2), Turbulence: in.Maybe(0), TurbulenceScale: in.Maybe(1)}
					checks.Tracef(t, "SetAir(%+v)", air)
					if err := wind.SetAir(air); err != nil {
						checks.MustName(t, err, "SetAir", "Wind.")
					}
				}
			case 6:
				a, b, r := in.Vec(), in.Vec(), in.F32()
				checks.Tracef(t, "Cut(%v, %v, %v)", a, b, r)
				if _, err := g.Cut(a, b, r); err != nil {
					checks.MustName(t, err, "Cut", "radius", "Cut", "finite")
				}
			default:
				v := in.Vec()
				checks.Tracef(t, "Teleport(%v)", v)
				if vecmath.Finite(v) {
					w.Teleport(v)
				}
			}
		}
		checks.CheckWorld(t, w, "after the sequence")
		var buf []mgl32.Vec3
		for _, n := range g.Normals(buf) {
			if !vecmath.Finite(n) {
				t.Fatalf("normal %v", n)
			}
		}
		checks.SteadyAllocs(t, w)
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
		{"Cols x Rows whose product wraps to 0", "Cols x Rows = 1099511627776 x 1099511627776", func(s *cloth.Settings, _ *cloth.WindSettings) { s.Cols, s.Rows = 1<<40, 1<<40 }},
		{"spacing 4.8e9 (0994f94cbb4c0a2d)", "Settings.Spacing = 4.8e+09", func(s *cloth.Settings, _ *cloth.WindSettings) { s.Spacing = 4.8e9 }},
		{"origin 1e30", "Origin = [1e+30", func(s *cloth.Settings, _ *cloth.WindSettings) { s.Origin[0] = 1e30 }},
		{"radius 1e30", "Settings.Radius = 1e+30", func(s *cloth.Settings, _ *cloth.WindSettings) { s.Radius = 1e30 }},
		{"compliance 3e38", "Settings.Bend.Compliance = 3e+38", func(s *cloth.Settings, _ *cloth.WindSettings) { s.Bend.Compliance = 3e38 }},
		{"wind 1e30", "Wind.Steady", func(_ *cloth.Settings, ws *cloth.WindSettings) { ws.Air.Steady[0] = 1e30 }},
		{"turbulence scale 1e-45", "Wind.TurbulenceScale = 1e-45", func(_ *cloth.Settings, ws *cloth.WindSettings) {
			ws.Air.Turbulence, ws.Air.TurbulenceScale = 2, 1e-45
		}},
		{"gust period 1e-45", "Wind.GustPeriod = 1e-45", func(_ *cloth.Settings, ws *cloth.WindSettings) { ws.Air.Gust, ws.Air.GustPeriod = 0.5, 1e-45 }},
		{"tether slack 4.8e9 (cbdf92f5984a01b5)", "Settings.TetherSlack = 4.8e+09", func(s *cloth.Settings, _ *cloth.WindSettings) { s.Tethers, s.TetherSlack = true, 4.8e9 }},
		{"tethers of 5.6e9 m", "AddTethers: slack 10", func(s *cloth.Settings, _ *cloth.WindSettings) {
			s.Cols, s.Rows, s.Spacing, s.Tethers, s.TetherSlack = 10, 10, 4e7, true, 10
		}},
	} {
		w := newWorld(t, nil)
		s, ws := cloth.DefaultSettings(), cloth.DefaultWindSettings()
		s.PinRows = []int{0}
		tc.edit(&s, &ws)
		before := checks.Snapshot(w)
		g, err := cloth.New(w, s)
		if err == nil {
			before = checks.Snapshot(w)
			_, err = cloth.NewWindForce(g, ws)
		}
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one containing %q", tc.name, err, tc.want)
			continue
		}
		before.Same(t, w, tc.name)
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
	checks.CheckWorld(t, w, "cloth inside a 1e9 m sphere")
}
