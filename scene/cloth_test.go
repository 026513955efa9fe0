package scene

import (
	"github.com/drape3d/drape/internal/vecmath"
	"math"
	"testing"

	"github.com/drape3d/drape/cloth"
	"github.com/drape3d/drape/verlet3d"
	"github.com/g3n/engine/gls"
	"github.com/go-gl/mathgl/mgl32"
)

func clothFixture(t testing.TB, n int) (*verlet3d.World, *cloth.Grid) {
	t.Helper()
	w, err := verlet3d.NewWorld(verlet3d.DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	s := cloth.DefaultSettings()
	s.Cols, s.Rows = n, n
	s.PinRows = []int{0}
	g, err := cloth.New(w, s)
	if err != nil {
		t.Fatal(err)
	}
	return w, g
}

func TestClothMeshSync(t *testing.T) {
	w, g := clothFixture(t, 12)
	m := NewClothMesh(g, nil)
	for i := 0; i < 30; i++ {
		w.Step()
	}
	m.Sync()
	// Positions are the particles'.
	buf := *m.geom.VBO(gls.VertexPosition).Buffer()
	if got, want := len(buf), 3*(len(g.Vertices())+2); got != want {
		t.Fatalf("position buffer has %d floats, want %d (vertices and two padding corners)", got, want)
	}
	for i, p := range g.Vertices() {
		x := w.Position(p)
		if buf[3*i] != x[0] || buf[3*i+1] != x[1] || buf[3*i+2] != x[2] {
			t.Fatalf("vertex %d at (%v %v %v), particle at %v", i, buf[3*i], buf[3*i+1], buf[3*i+2], x)
		}
	}
	// Normals are unit, and a second Sync gives the same (zeroed first,
	// not accumulated).
	nrm := append([]float32(nil), *m.geom.VBO(gls.VertexNormal).Buffer()...)
	m.Sync()
	again := *m.geom.VBO(gls.VertexNormal).Buffer()
	for i := 0; i < len(nrm)-6; i += 3 {
		l := math.Sqrt(float64(float32(nrm[i]*nrm[i]) + float32(nrm[i+1]*nrm[i+1]) + float32(nrm[i+2]*nrm[i+2])))
		if math.Abs(l-1) > 1e-4 || nrm[i] != again[i] || nrm[i+2] != again[i+2] {
			t.Fatalf("normal %d = %v (length %v), then %v", i/3, nrm[i:i+3], l, again[i:i+3])
		}
	}
	// The cached bounds follow the cloth: move it 5 m and the bounding box
	// the renderer culls with moves too.
	before := m.geom.BoundingBox()
	w.Teleport(mgl32.Vec3{5, 0, 0})
	m.Sync()
	after := m.geom.BoundingBox()
	if d := after.Min.X - before.Min.X; math.Abs(float64(d-5)) > 0.5 {
		t.Fatalf("bounding box moved %v m, want 5 (before %v, after %v)", d, before, after)
	}
	// The cached box holds the cloth with a margin of at most half its size
	// plus 5 cm on each side.
	lo, hi := g.Bounds()
	size := hi.Sub(lo)
	margin := float32(0.25*max(size[0], size[1], size[2])) + 0.05 + 1e-5
	for k, v := range [][2]float32{{after.Min.X, after.Max.X}, {after.Min.Y, after.Max.Y}, {after.Min.Z, after.Max.Z}} {
		if v[0] > lo[k] || v[1] < hi[k] || lo[k]-v[0] > margin || v[1]-hi[k] > margin {
			t.Fatalf("axis %d: bounding box %v..%v, cloth %v..%v (margin %v)", k, v[0], v[1], lo[k], hi[k], margin)
		}
	}
	// Moving a little inside the padding keeps the cached box.
	w.Teleport(mgl32.Vec3{0.01, 0, 0})
	m.Sync()
	if m.geom.BoundingBox() != after {
		t.Fatal("a 1 cm move recomputed the bounds")
	}
	if s := m.geom.BoundingSphere(); s.Center.X < 4 {
		t.Fatalf("bounding sphere center %v did not follow", s.Center)
	}
}

// After a tear the mesh takes the new vertices and the shorter index list.
func TestClothMeshTear(t *testing.T) {
	w, g := clothFixture(t, 12)
	m := NewClothMesh(g, nil)
	tris := len(m.geom.Indices()) / 3
	pos := func(r, c int) mgl32.Vec3 { return w.Position(g.Particle(r, c)) }
	for k := 0; k < 5; k++ {
		r, c := 3+k, 3+k
		center := vecmath.Scale(pos(r, c).Add(pos(r+1, c)).Add(pos(r, c+1)).Add(pos(r+1, c+1)), 0.25)
		if _, err := g.CutNear(center, 0.005); err != nil {
			t.Fatal(err)
		}
	}
	m.Sync()
	n := len(g.Vertices())
	if n <= 144 {
		t.Fatalf("%d vertices after a diagonal cut, want split vertices beyond 144", n)
	}
	if got := len(m.geom.Indices()) / 3; got != tris-10 {
		t.Fatalf("%d triangles after cutting 5 cells, want %d", got, tris-10)
	}
	for _, a := range []gls.AttribType{gls.VertexPosition, gls.VertexNormal} {
		if got := m.geom.VBO(a).Buffer().Size(); got != 3*(n+2) {
			t.Fatalf("%v buffer has %d floats, want %d", a, got, 3*(n+2))
		}
	}
	if got := m.geom.VBO(gls.VertexTexcoord).Buffer().Size(); got != 2*(n+2) {
		t.Fatalf("UV buffer has %d floats, want %d", got, 2*(n+2))
	}
	for _, i := range m.geom.Indices() {
		if int(i) >= n {
			t.Fatalf("index %d beyond %d vertices", i, n)
		}
	}
}

func TestClothMeshSyncAllocations(t *testing.T) {
	w, g := clothFixture(t, 16)
	m := NewClothMesh(g, nil)
	w.Step()
	// Include frames where the cloth leaves the padded bounds.
	if a := testing.AllocsPerRun(50, func() {
		w.Teleport(mgl32.Vec3{0.3, 0, 0})
		m.Sync()
		m.geom.BoundingBox()
	}); a != 0 {
		t.Fatalf("Sync allocates %v times per frame, want 0", a)
	}
}

// BenchmarkClothMeshSync64 is the per-frame render update of a 64 x 64
// cloth: positions copied, normals recomputed, bounds invalidated.
func BenchmarkClothMeshSync64(b *testing.B) {
	w, g := clothFixture(b, 64)
	m := NewClothMesh(g, nil)
	w.Step()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		m.Sync()
		m.geom.BoundingBox() // what the renderer's culling then computes
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/1e6, "ms/frame")
}
