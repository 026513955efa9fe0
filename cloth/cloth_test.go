package cloth_test

import (
	"github.com/drape3d/drape/internal/vecmath"
	"math"
	"strings"
	"testing"

	"github.com/drape3d/drape/cloth"
	"github.com/drape3d/drape/verlet3d"
	"github.com/go-gl/mathgl/mgl32"
)

func newWorld(t testing.TB, edit func(*verlet3d.Config)) *verlet3d.World {
	t.Helper()
	cfg := verlet3d.DefaultConfig()
	if edit != nil {
		edit(&cfg)
	}
	w, err := verlet3d.NewWorld(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(w.Close)
	return w
}

func newGrid(t testing.TB, w *verlet3d.World, s cloth.Settings) *cloth.Grid {
	t.Helper()
	g, err := cloth.New(w, s)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func run(w *verlet3d.World, seconds float32) {
	n := int(seconds/w.Config().TimeStep + 0.5)
	for i := 0; i < n; i++ {
		w.Step()
	}
}

func TestBadSettings(t *testing.T) {
	nan := float32(math.NaN())
	ok := cloth.DefaultSettings()
	cases := []struct {
		name string
		edit func(*cloth.Settings)
		want string
	}{
		{"zero cols", func(s *cloth.Settings) { s.Cols = 0 }, "Cols = 0"},
		{"one row", func(s *cloth.Settings) { s.Rows = 1 }, "Rows = 1"},
		{"negative rows", func(s *cloth.Settings) { s.Rows = -3 }, "Rows = -3"},
		{"zero spacing", func(s *cloth.Settings) { s.Spacing = 0 }, "Spacing = 0"},
		{"negative spacing", func(s *cloth.Settings) { s.Spacing = -0.1 }, "Spacing = -0.1"},
		{"NaN spacing", func(s *cloth.Settings) { s.Spacing = nan }, "Spacing = NaN"},
		{"zero mass", func(s *cloth.Settings) { s.Mass = 0 }, "Mass = 0"},
		{"negative mass", func(s *cloth.Settings) { s.Mass = -1 }, "Mass = -1"},
		{"negative particle mass", func(s *cloth.Settings) { s.Mass = 0; s.ParticleMass = -2 }, "ParticleMass = -2"},
		{"both masses", func(s *cloth.Settings) { s.ParticleMass = 0.01 }, "both set"},
		{"MassAt zero", func(s *cloth.Settings) {
			s.MassAt = func(r, c int) float32 {
				if r == 3 && c == 4 {
					return 0
				}
				return 1
			}
		}, "MassAt(3, 4) = 0"},
		{"NaN origin", func(s *cloth.Settings) { s.Origin[1] = nan }, "Origin"},
		{"parallel axes", func(s *cloth.Settings) { s.Across = mgl32.Vec3{0, 1, 0} }, "parallel"},
		{"negative compliance", func(s *cloth.Settings) { s.Bend.Compliance = -1 }, "Bend.Compliance = -1"},
		{"NaN tear", func(s *cloth.Settings) { s.TearStrain = nan }, "TearStrain = NaN"},
		{"pin row out of range", func(s *cloth.Settings) { s.PinRows = []int{32} }, "PinRows has 32"},
		{"pin col negative", func(s *cloth.Settings) { s.PinCols = []int{-1} }, "PinCols has -1"},
		{"tethers without pins", func(s *cloth.Settings) { s.Tethers = true }, "no particle"},
		{"negative radius", func(s *cloth.Settings) { s.Radius = -0.01 }, "Radius = -0.01"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w := newWorld(t, nil)
			s := ok
			c.edit(&s)
			_, err := cloth.New(w, s)
			if err == nil {
				t.Fatalf("no error, want one containing %q", c.want)
			}
			if !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %q, want it to contain %q", err, c.want)
			}
			if c.want != "no particle" && w.NumParticles() != 0 {
				t.Errorf("invalid settings left %d particles in the world", w.NumParticles())
			}
		})
	}
	if _, err := cloth.New(newWorld(t, nil), ok); err != nil {
		t.Fatalf("DefaultSettings: %v", err)
	}
}

func TestBadWind(t *testing.T) {
	nan := float32(math.NaN())
	w := newWorld(t, nil)
	g := newGrid(t, w, cloth.DefaultSettings())
	cases := []struct {
		name string
		s    cloth.WindSettings
		want string
	}{
		{"NaN steady", cloth.WindSettings{Air: verlet3d.Wind{Steady: mgl32.Vec3{nan, 0, 0}}}, "Steady"},
		{"negative gust", cloth.WindSettings{Air: verlet3d.Wind{Gust: -1}}, "Gust"},
		{"NaN turbulence", cloth.WindSettings{Air: verlet3d.Wind{Turbulence: nan}}, "Turbulence"},
		{"negative density", cloth.WindSettings{Density: -1}, "Density = -1"},
		{"NaN drag", cloth.WindSettings{Drag: nan}, "Drag = NaN"},
		{"infinite lift", cloth.WindSettings{Lift: float32(math.Inf(1))}, "Lift = +Inf"},
		{"zero stride", cloth.WindSettings{SampleStride: 0}, "SampleStride = 0"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := cloth.NewWindForce(g, c.s)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("NewWind error %v, want one containing %q", err, c.want)
			}
		})
	}
	wd, err := cloth.NewWindForce(g, cloth.DefaultWindSettings())
	if err != nil {
		t.Fatal(err)
	}
	if err := wd.SetAir(verlet3d.Wind{Steady: mgl32.Vec3{0, 0, nan}}); err == nil || !strings.Contains(err.Error(), "Steady") {
		t.Fatalf("SetAir(NaN) error %v, want one naming Steady", err)
	}
	if s := wd.Settings().Air.Steady; s != (mgl32.Vec3{}) {
		t.Fatalf("a rejected SetAir changed the wind to %v", s)
	}
	if _, err := cloth.NewSelfCollision(g, 0); err == nil {
		t.Fatal("NewSelfCollision(0): no error")
	}
	if _, err := g.Cut(mgl32.Vec3{nan, 0, 0}, mgl32.Vec3{}, 0.1); err == nil {
		t.Fatal("Cut(NaN): no error")
	}
}

func TestMeshLayout(t *testing.T) {
	w := newWorld(t, nil)
	s := cloth.DefaultSettings()
	s.Cols, s.Rows = 5, 4
	g := newGrid(t, w, s)
	if got, want := len(g.Vertices()), 20; got != want {
		t.Fatalf("%d vertices, want %d", got, want)
	}
	if got, want := g.NumTriangles(), 2*4*3; got != want {
		t.Fatalf("%d triangles, want %d", got, want)
	}
	// Every triangle faces +Z (Down x Across with the defaults).
	nrm := g.Normals(nil)
	for i, n := range nrm {
		if vecmath.Len(n.Sub(mgl32.Vec3{0, 0, 1})) > 1e-5 {
			t.Fatalf("normal %d = %v, want +Z", i, n)
		}
	}
	uv := g.UVs()
	if uv[0] != (mgl32.Vec2{0, 1}) || uv[19] != (mgl32.Vec2{1, 0}) {
		t.Fatalf("UV corners %v %v, want (0,1) and (1,0)", uv[0], uv[19])
	}
	if p := w.Position(g.Particle(3, 4)); vecmath.Len(p.Sub(mgl32.Vec3{0.2, -0.15, 0})) > 1e-6 {
		t.Fatalf("particle (3,4) at %v, want (0.2, -0.15, 0)", p)
	}
	// A flat tablecloth: Down = +Z puts the front side up.
	w2 := newWorld(t, nil)
	s.Down = mgl32.Vec3{0, 0, 1}
	g2 := newGrid(t, w2, s)
	if n := g2.Normals(nil)[7]; vecmath.Len(n.Sub(mgl32.Vec3{0, 1, 0})) > 1e-5 {
		t.Fatalf("tablecloth normal %v, want +Y", n)
	}
}

// windForce returns the net wind force on a flat, resting, unlinked grid in
// the XY plane (normal +Z) for a given air velocity, measured two ways: as
// the Wind reports it and from the particles' motion over one substep.
func windForce(t *testing.T, air mgl32.Vec3) (reported, measured mgl32.Vec3, area float32) {
	w := newWorld(t, func(c *verlet3d.Config) {
		c.Gravity = mgl32.Vec3{}
		c.Damping = 0
		c.Substeps = 1
	})
	s := cloth.DefaultSettings()
	s.Cols, s.Rows, s.Spacing = 11, 11, 0.1
	s.Structural.Off, s.Shear.Off, s.Bend.Off = true, true, true
	g := newGrid(t, w, s)
	ws := cloth.DefaultWindSettings()
	ws.Air.Steady = air
	wd, err := cloth.NewWindForce(g, ws)
	if err != nil {
		t.Fatal(err)
	}
	before := g.Positions(nil)
	w.Step()
	h := w.SubstepLength()
	m := s.Mass / float32(len(before))
	for i, p := range g.Positions(nil) {
		measured = measured.Add(vecmath.Scale(p.Sub(before[i]), m/(h*h)))
	}
	return wd.NetForce(), measured, 1
}

// The wind's reference: a cloth edge-on to the wind feels less than 1%
// of the force it feels face-on, and face-on it feels ½ρ·Cd·A·u².
func TestWindEdgeOn(t *testing.T) {
	const u = 10
	face, faceMeasured, area := windForce(t, mgl32.Vec3{0, 0, u})
	want := float32(0.5 * 1.2 * 1 * area * u * u) // 60 N
	if math.Abs(float64(face[2]-want)) > 0.01*float64(want) || face.Vec2().Len() > 1e-3*want {
		t.Fatalf("face-on force %v N, want (0, 0, %v) within 1%%", face, want)
	}
	if vecmath.Len(faceMeasured.Sub(face)) > 0.01*vecmath.Len(face) {
		t.Fatalf("particles moved as if pushed by %v N, the wind reports %v N", faceMeasured, face)
	}
	t.Logf("face-on: %.3f N (reference %.3f N)", vecmath.Len(face), want)
	for _, dir := range []mgl32.Vec3{{1, 0, 0}, {0, 1, 0}, {0.6, -0.8, 0}} {
		edge, edgeMeasured, _ := windForce(t, vecmath.Scale(dir, u))
		ratio := vecmath.Len(edge) / vecmath.Len(face)
		mratio := vecmath.Len(edgeMeasured) / vecmath.Len(face)
		t.Logf("edge-on along %v: %.3g N reported, %.3g N measured (%.4f%% of face-on)", dir, vecmath.Len(edge), vecmath.Len(edgeMeasured), float32(100*ratio))
		if ratio > 0.01 || mratio > 0.01 {
			t.Errorf("edge-on along %v: force %v N is %.2f%% of face-on, want < 1%%", dir, edge, float32(100*ratio))
		}
	}
	// At 45 degrees lift appears: the force leans off the normal.
	oblique, _, _ := windForce(t, vecmath.Scale(mgl32.Vec3{u, 0, u}, 1/math.Sqrt2))
	if oblique[0] >= 0 {
		t.Errorf("at 45 degrees the force %v has no lift across the flow", oblique)
	}
}

// flagDeflection hangs a flag from a pole (column 0 pinned) in a steady
// wind across it and returns the mean displacement of its particles along
// the wind over the last second of four.
func flagDeflection(t *testing.T, speed float32) float32 {
	w := newWorld(t, nil)
	s := cloth.DefaultSettings()
	s.Cols, s.Rows, s.Spacing, s.Mass = 15, 10, 0.1, 0.3
	s.PinCols = []int{0}
	s.Origin = mgl32.Vec3{0, 2, 0}
	g := newGrid(t, w, s)
	ws := cloth.DefaultWindSettings()
	ws.Air.Steady = mgl32.Vec3{0, 0, speed}
	_, err := cloth.NewWindForce(g, ws)
	if err != nil {
		t.Fatal(err)
	}
	run(w, 3)
	var sum float64
	n := 0
	for i := 0; i < 60; i++ {
		w.Step()
		for _, p := range g.Positions(nil) {
			sum += float64(p[2])
			n++
		}
	}
	return float32(sum / float64(n))
}

func TestFlagDeflectionGrowsWithWind(t *testing.T) {
	last := float32(-1)
	for _, v := range []float32{0, 1, 2, 4, 8} {
		d := flagDeflection(t, v)
		t.Logf("wind %4.1f m/s: mean deflection %.3f m", v, d)
		if d <= last {
			t.Errorf("wind %v m/s: deflection %.3f m, not more than %.3f m at the slower wind", v, d, last)
		}
		last = d
	}
}

// A curtain pinned along its top row with tethers stretches less than 5%
// even with few iterations; without tethers it stretches more.
func TestTetheredCurtainStrain(t *testing.T) {
	strain := func(tethers bool) float32 {
		w := newWorld(t, func(c *verlet3d.Config) { c.Iterations = 4; c.Substeps = 1 })
		s := cloth.DefaultSettings()
		s.Cols, s.Rows, s.Spacing, s.Mass = 32, 32, 0.05, 1
		s.PinRows = []int{0}
		s.Tethers = tethers
		g := newGrid(t, w, s)
		run(w, 3)
		var m float32
		for i := 0; i < 60; i++ {
			w.Step()
			if s := g.MaxStrain(); s > m {
				m = s
			}
		}
		return m
	}
	with, without := strain(true), strain(false)
	t.Logf("max structural strain: %.2f%% with tethers, %.2f%% without", float32(100*with), float32(100*without))
	if with > 0.05 {
		t.Errorf("tethered curtain stretched %.2f%%, want < 5%%", float32(100*with))
	}
	if with >= without {
		t.Errorf("tethers did not reduce the stretch (%.2f%% vs %.2f%%)", float32(100*with), float32(100*without))
	}
}

// SetCompliance is live: a grid softened after it was built behaves
// exactly as one built soft, and stiffening it again pulls the stretch
// back; bad values change nothing and name the field.
func TestSetCompliance(t *testing.T) {
	soft, stiff := float32(2e-3), float32(0)
	build := func(structural float32) (*verlet3d.World, *cloth.Grid) {
		w := newWorld(t, nil)
		s := cloth.DefaultSettings()
		s.Cols, s.Rows, s.Spacing = 12, 12, 0.05
		s.Structural.Compliance = structural
		s.PinRows = []int{0}
		return w, newGrid(t, w, s)
	}
	wSoft, _ := build(soft)
	wLive, gLive := build(stiff)
	def := cloth.DefaultSettings()
	if err := gLive.SetCompliance(soft, def.Shear.Compliance, def.Bend.Compliance); err != nil {
		t.Fatal(err)
	}
	run(wSoft, 1)
	run(wLive, 1)
	a, b := wSoft.Positions(), wLive.Positions()
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("particle %d at %v, built soft at %v: SetCompliance is not the same as building with it", i, b[i], a[i])
		}
	}
	strainSoft := wLive.MaxLinkStrain()
	if err := gLive.SetCompliance(stiff, def.Shear.Compliance, def.Bend.Compliance); err != nil {
		t.Fatal(err)
	}
	run(wLive, 1)
	strainStiff := wLive.MaxLinkStrain()
	t.Logf("max strain hanging: %.2f%% soft, %.2f%% after stiffening live", float32(100*strainSoft), float32(100*strainStiff))
	if !(strainStiff < strainSoft/2) {
		t.Errorf("stiffening live left %.2f%% strain, soft had %.2f%%: want under half", float32(100*strainStiff), float32(100*strainSoft))
	}
	if got := gLive.Settings().Structural.Compliance; got != stiff {
		t.Errorf("Settings().Structural.Compliance = %v after SetCompliance(%v, ...)", got, stiff)
	}
	for _, bad := range []struct {
		s, sh, b float32
		want     string
	}{
		{-1, 0, 0, "structural = -1"},
		{0, float32(math.NaN()), 0, "shear = NaN"},
		{0, 0, 1e30, "bend = 1e+30"},
	} {
		err := gLive.SetCompliance(bad.s, bad.sh, bad.b)
		if err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("SetCompliance(%v, %v, %v) = %v, want an error with %q", bad.s, bad.sh, bad.b, err, bad.want)
		}
		if got := gLive.Settings().Structural.Compliance; got != stiff {
			t.Errorf("a failed SetCompliance changed Structural.Compliance to %v", got)
		}
	}
}

// TestWindAbsurdDragFarPin: a valid but absurd wind (Drag 1e20) on a cloth
// one of whose particles is sent to a target a billion meters off (the
// World clamps SetTarget there) stretches a triangle across the world and
// flings it; the pressure on it overflowed float32 to Inf and the World's
// guard reset the cloth every step (found by FuzzCloth). The force of a
// triangle is now bounded, so nothing goes non-finite.
func TestWindAbsurdDragFarPin(t *testing.T) {
	for _, far := range []bool{false, true} {
		w := newWorld(t, nil)
		s := cloth.DefaultSettings()
		s.Cols, s.Rows, s.Spacing = 10, 10, 0.05
		g := newGrid(t, w, s)
		ws := cloth.DefaultWindSettings()
		ws.Drag = 1e20
		ws.Air = verlet3d.Wind{Steady: mgl32.Vec3{3, 3, 3}}
		if _, err := cloth.NewWindForce(g, ws); err != nil {
			t.Fatal(err)
		}
		if far {
			g.SetTarget(8, 8, mgl32.Vec3{-1e30, 0, 0})
		}
		for i := 0; i < 300; i++ {
			w.Step()
		}
		if n := w.Stats().NonFiniteResets; n != 0 {
			t.Errorf("far pin %v: %d non-finite resets in 300 steps, want 0", far, n)
		}
		w.Close()
	}
}
