package cloth_test

import (
	"github.com/drape3d/drape/internal/vecmath"
	"testing"

	"github.com/drape3d/drape/cloth"
	"github.com/drape3d/drape/verlet3d"
	"github.com/go-gl/mathgl/mgl32"
)

// checkMesh verifies that every index is a vertex, no triangle uses a
// vertex twice and every intact link joins two vertices of one triangle
// neighborhood (no link spans a hole longer than it can stretch).
func checkMesh(t *testing.T, g *cloth.Grid) {
	t.Helper()
	n := uint32(len(g.Vertices()))
	idx := g.Indices()
	for k := 0; k+2 < len(idx); k += 3 {
		a, b, c := idx[k], idx[k+1], idx[k+2]
		if a >= n || b >= n || c >= n || a == b || b == c || a == c {
			t.Fatalf("triangle %d = (%d %d %d) with %d vertices", k/3, a, b, c, n)
		}
	}
}

// A diagonal cut across a curtain removes the triangles along it, splits
// the vertices where the remaining triangles only touch at a corner, and
// the two sides come apart: the hole opens.
func TestTearSplitsMesh(t *testing.T) {
	w := newWorld(t, nil)
	s := cloth.DefaultSettings()
	s.Cols, s.Rows, s.Spacing = 16, 16, 0.05
	s.PinRows = []int{0}
	g := newGrid(t, w, s)
	run(w, 0.5)
	tris, verts, ver := g.NumTriangles(), len(g.Vertices()), g.Version()
	// Cut out the cells (4,3), (5,4) ... (11,10) on a diagonal: each cut
	// at a cell center breaks its two diagonals and removes its two
	// triangles, and consecutive cells touch only at a corner, which must
	// split for the sides to come apart.
	pos := func(r, c int) mgl32.Vec3 { return w.Position(g.Particle(r, c)) }
	cut := 0
	for k := 0; k < 8; k++ {
		r, c := 4+k, 3+k
		center := vecmath.Scale(pos(r, c).Add(pos(r+1, c)).Add(pos(r, c+1)).Add(pos(r+1, c+1)), 0.25)
		n, err := g.CutNear(center, 0.005)
		if err != nil {
			t.Fatal(err)
		}
		cut += n
	}
	checkMesh(t, g)
	t.Logf("cut %d links: triangles %d -> %d, vertices %d -> %d", cut, tris, g.NumTriangles(), verts, len(g.Vertices()))
	if cut == 0 || g.NumTriangles() >= tris {
		t.Fatalf("cut %d links, triangles %d -> %d: want fewer triangles", cut, tris, g.NumTriangles())
	}
	if len(g.Vertices()) <= verts {
		t.Fatalf("vertices %d -> %d: want split vertices added", verts, len(g.Vertices()))
	}
	if g.Version() == ver {
		t.Fatal("Version did not change after a tear")
	}
	if w.NumParticles() != len(g.Vertices()) {
		t.Fatalf("world has %d particles, grid %d vertices", w.NumParticles(), len(g.Vertices()))
	}
	// Split vertices start where their original is, with its velocity.
	for v := verts; v < len(g.Vertices()); v++ {
		r, c := g.Origin(v)
		p, q := g.Vertices()[v], g.Particle(r, c)
		if w.Position(p) != w.Position(q) || w.Velocity(p) != w.Velocity(q) {
			t.Fatalf("split vertex %d of (%d,%d) at %v moving %v, original at %v moving %v", v, r, c,
				w.Position(p), w.Velocity(p), w.Position(q), w.Velocity(q))
		}
	}
	// Pull the bottom-left corner out to the left: the part below the slit
	// moves away from the part above it, and the split copies of each cut
	// corner drift apart.
	start := pos(15, 0)
	for i := 1; i <= 120; i++ {
		g.SetTarget(15, 0, start.Add(vecmath.Scale(mgl32.Vec3{-0.3, -0.1, 0.1}, float32(i)/120)))
		w.Step()
	}
	checkMesh(t, g)
	var gap float32
	for v := verts; v < len(g.Vertices()); v++ {
		r, c := g.Origin(v)
		if d := vecmath.Len(w.Position(g.Vertices()[v]).Sub(w.Position(g.Particle(r, c)))); d > gap {
			gap = d
		}
	}
	t.Logf("widest split after the pull: %.3f m", gap)
	if gap < s.Spacing {
		t.Errorf("split vertices stayed within %.3f m of their originals: no hole opened", gap)
	}
	if st := w.Stats(); st.NonFiniteResets != 0 {
		t.Errorf("%d non-finite resets", st.NonFiniteResets)
	}
}

// Strain tears: a cloth pinned at two top corners and pulled hard at the
// bottom tears by itself, and the mesh follows during Step.
func TestTearByStrain(t *testing.T) {
	w := newWorld(t, nil)
	s := cloth.DefaultSettings()
	s.Cols, s.Rows, s.Spacing = 12, 12, 0.05
	s.TearStrain = 0.3
	s.Pin = func(r, c int) bool { return r == 0 && (c == 0 || c == 11) }
	g := newGrid(t, w, s)
	tris := g.NumTriangles()
	run(w, 0.2)
	if g.NumTriangles() != tris {
		t.Fatalf("cloth tore under its own weight: %d -> %d triangles", tris, g.NumTriangles())
	}
	// Yank the bottom corners down hard.
	for i := 0; i < 60; i++ {
		y := -0.55 - float32(0.05*float32(i))
		g.SetTarget(11, 0, mgl32.Vec3{0, y, 0})
		g.SetTarget(11, 11, mgl32.Vec3{0.55, y, 0})
		w.Step()
	}
	checkMesh(t, g)
	t.Logf("links broken %d, triangles %d -> %d, vertices %d", w.Stats().LinksBroken, tris, g.NumTriangles(), len(g.Vertices()))
	if w.Stats().LinksBroken == 0 || g.NumTriangles() >= tris {
		t.Fatalf("no tear: %d links broken, %d of %d triangles", w.Stats().LinksBroken, g.NumTriangles(), tris)
	}
	if m := w.MaxLinkStrain(); m > 1 {
		t.Errorf("a surviving link is strained %.0f%%: a torn link was left spanning the hole", float32(100*m))
	}
}

// The tether of a particle cut off from its pin stops holding it: the
// lower half of a tethered curtain cut across falls.
func TestTetherReleasedByTear(t *testing.T) {
	w := newWorld(t, nil)
	s := cloth.DefaultSettings()
	s.Cols, s.Rows, s.Spacing = 10, 10, 0.05
	s.PinRows = []int{0}
	s.Tethers = true
	g := newGrid(t, w, s)
	run(w, 0.2)
	y := w.Position(g.Particle(5, 0))[1] - 0.025
	if _, err := g.Cut(mgl32.Vec3{-1, y, 0}, mgl32.Vec3{2, y, 0}, 0.001); err != nil {
		t.Fatal(err)
	}
	before := w.Position(g.Particle(9, 5))[1]
	run(w, 0.5)
	if drop := before - w.Position(g.Particle(9, 5))[1]; drop < 0.5 {
		t.Fatalf("the cut-off half fell %.3f m in 0.5 s, want about 1.2 m: its tethers still hold it", drop)
	}
}

// Cloth dropped on a sphere drapes over it and no particle ends inside.
func TestClothOnSphere(t *testing.T) {
	w := newWorld(t, nil)
	sph, _ := verlet3d.NewSphere(mgl32.Vec3{0, 0.5, 0}, 0.4)
	if err := w.AddCollider(sph, verlet3d.ContactSettings{Friction: 0.5}); err != nil {
		t.Fatal(err)
	}
	s := cloth.DefaultSettings()
	s.Cols, s.Rows, s.Spacing = 24, 24, 0.05
	s.Origin = mgl32.Vec3{-0.575, 1.1, -0.575}
	s.Down = mgl32.Vec3{0, 0, 1}
	g := newGrid(t, w, s)
	var worst float32
	for i := 0; i < 180; i++ {
		w.Step()
		for _, p := range g.Positions(nil) {
			if d := sph.Radius - vecmath.Len(p.Sub(sph.Center)); d > worst {
				worst = d
			}
		}
	}
	t.Logf("deepest particle inside the sphere over 3 s: %.2g m", worst)
	if worst > 1e-4 {
		t.Fatalf("a particle was %.3g m inside the sphere, want <= 1e-4", worst)
	}
	// It draped: the corners hang well below the top of the sphere.
	if y := w.Position(g.Particle(0, 0))[1]; y > 0.7 {
		t.Errorf("corner at height %.2f m: the cloth did not drape", y)
	}
}

// A tablecloth dropped over a box and a sphere lands, drapes and comes to
// rest: its kinetic energy falls below 1 mJ (from about 4 J at impact)
// within 5 s.
func TestTableclothComesToRest(t *testing.T) {
	w := newWorld(t, nil)
	floor, _ := verlet3d.NewPlane(mgl32.Vec3{}, mgl32.Vec3{0, 1, 0})
	box, _ := verlet3d.NewBox(mgl32.Vec3{-0.35, 0.4, 0}, mgl32.Vec3{0.3, 0.4, 0.3}, mgl32.QuatIdent())
	sph, _ := verlet3d.NewSphere(mgl32.Vec3{0.45, 0.35, 0}, 0.35)
	for _, c := range []verlet3d.Collider{floor, box, sph} {
		if err := w.AddCollider(c, verlet3d.ContactSettings{Friction: 0.6}); err != nil {
			t.Fatal(err)
		}
	}
	s := cloth.DefaultSettings()
	s.Cols, s.Rows, s.Spacing, s.Mass = 40, 30, 0.04, 0.5
	s.Origin = mgl32.Vec3{-0.78, 1.3, -0.58}
	s.Down = mgl32.Vec3{0, 0, 1}
	s.Radius = 0.01
	g := newGrid(t, w, s)
	var peak float64
	restAt := -1.0
	for i := 0; i < 300; i++ {
		w.Step()
		e := g.KineticEnergy()
		if e > peak {
			peak = e
		}
		if e < 1e-3 && restAt < 0 {
			restAt = w.Time()
		} else if e >= 1e-3 {
			restAt = -1
		}
	}
	t.Logf("peak kinetic energy %.3f J, at rest (< 1 mJ) from t = %.2f s, final %.2g J", peak, restAt, g.KineticEnergy())
	if restAt < 0 {
		t.Fatalf("kinetic energy %.3g J after 5 s, want < 1e-3 J", g.KineticEnergy())
	}
	for i, p := range g.Positions(nil) {
		if d := sph.Radius + s.Radius - vecmath.Len(p.Sub(sph.Center)); d > 1e-4 {
			t.Fatalf("vertex %d is %.3g m inside the sphere", i, d)
		}
		if p[1] < s.Radius-1e-4 {
			t.Fatalf("vertex %d is below the floor at %v", i, p)
		}
	}
}

// Steps allocate nothing with wind (turbulent), tearing armed and
// self-collision on.
func TestStepAllocations(t *testing.T) {
	w := newWorld(t, nil)
	s := cloth.DefaultSettings()
	s.Cols, s.Rows = 24, 24
	s.PinRows = []int{0}
	s.Tethers = true
	s.TearStrain = 2
	g := newGrid(t, w, s)
	ws := cloth.DefaultWindSettings()
	ws.Air = verlet3d.Wind{Steady: mgl32.Vec3{1, 0, 4}, Gust: 0.5, GustPeriod: 3, Turbulence: 1, TurbulenceScale: 0.5}
	_, err := cloth.NewWindForce(g, ws)
	if err != nil {
		t.Fatal(err)
	}
	_, err = cloth.NewSelfCollision(g, 0.04)
	if err != nil {
		t.Fatal(err)
	}
	run(w, 1)
	var nrm, pos []mgl32.Vec3
	if a := testing.AllocsPerRun(20, func() {
		w.Step()
		nrm = g.Normals(nrm)
		pos = g.Positions(pos)
	}); a != 0 {
		t.Fatalf("%v allocations per step, want 0", a)
	}
}
