package scene

import (
	"github.com/drape3d/drape/internal/vecmath"
	"testing"

	"github.com/drape3d/drape/hair"
	"github.com/drape3d/drape/verlet3d"
	"github.com/go-gl/mathgl/mgl32"
)

func newHairMesh(t testing.TB, strands, segments int) *HairMesh {
	t.Helper()
	w, err := verlet3d.NewWorld(hair.WorldConfig())
	if err != nil {
		t.Fatal(err)
	}
	s := hair.DefaultSettings()
	s.Strands, s.Segments = strands, segments
	h, err := hair.New(w, hair.DefaultHead(), s)
	if err != nil {
		t.Fatal(err)
	}
	w.Step()
	return NewHairMesh(h, hair.DefaultPalette())
}

// The ribbon buffers hold two vertices per strand vertex, both at the
// particle with its tangent, on opposite sides, and triangles that join
// consecutive vertices of one strand only.
func TestHairMeshBuffers(t *testing.T) {
	m := newHairMesh(t, 40, 8)
	h := m.Hair()
	h.World().Step()
	m.Sync()
	first, n := h.Particles()
	pos := h.World().Positions()
	tan := h.Tangents(nil)
	dyn := *m.dyn.Buffer()
	stat := *m.stat.Buffer()
	if len(dyn) != 2*n*hairDynStride || len(stat) != 2*n*hairStatStride {
		t.Fatalf("buffers hold %d and %d floats for %d vertices", len(dyn), len(stat), n)
	}
	for i := 0; i < n; i++ {
		for k := 0; k < 2; k++ {
			o := (2*i + k) * hairDynStride
			p := mgl32.Vec3{dyn[o], dyn[o+1], dyn[o+2]}
			tg := mgl32.Vec3{dyn[o+3], dyn[o+4], dyn[o+5]}
			if p != pos[int(first)+i] || tg != tan[i] {
				t.Fatalf("ribbon vertex %d/%d: %v %v, want %v %v", i, k, p, tg, pos[int(first)+i], tan[i])
			}
			side := stat[(2*i+k)*hairStatStride+3]
			if want := float32(2*k - 1); side != want {
				t.Fatalf("ribbon vertex %d/%d side %v, want %v", i, k, side, want)
			}
		}
	}
	checkRibbonMesh(t, m, h.NumStrands(), h.NumSegments(), n)
}

// checkRibbonMesh checks that m has two triangles per segment of every
// strand, none joining two strands, and that Sync does not allocate.
func checkRibbonMesh(t *testing.T, m *HairMesh, strands, segments, vertices int) {
	t.Helper()
	per := uint32(segments + 1)
	idx := m.geom.Indices()
	if len(idx) != strands*segments*6 {
		t.Fatalf("%d indices, want %d", len(idx), strands*segments*6)
	}
	for k := 0; k < len(idx); k += 3 {
		s := idx[k] / 2 / per
		for _, v := range idx[k : k+3] {
			if v/2/per != s || int(v) >= 2*vertices {
				t.Fatalf("triangle %d joins strands %d and %d", k/3, s, v/2/per)
			}
		}
	}
	if a := testing.AllocsPerRun(20, m.Sync); a != 0 {
		t.Errorf("Sync allocates %.1f times", a)
	}
}

func benchHairSync(b *testing.B, strands, segments int) {
	m := newHairMesh(b, strands, segments)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		m.Sync()
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/1e6, "ms/frame")
}

// The ribbon buffer update per frame (tangents and the buffer copy; the GPU
// upload happens at render).
func BenchmarkHairSync2000x16(b *testing.B) { benchHairSync(b, 2000, 16) }
func BenchmarkHairSync500x12(b *testing.B)  { benchHairSync(b, 500, 12) }

// A CPU dense mesh draws every render strand of a hair.Dense as the guides
// are drawn: two ribbon vertices per render vertex at its position with its
// tangent, triangles within a strand, and Sync (which updates the render
// strands) does not allocate, on 1 or 2 workers.
func TestHairMeshDense(t *testing.T) {
	for _, workers := range []int{1, 2} {
		w, h, d := newDenseHair(t, workers, 60, 8, 5)
		m := NewDenseHairMeshCPU(d, hair.DefaultPalette())
		if m.Dense() != d || m.Hair() != h {
			t.Fatal("Dense or Hair is not what the mesh was made from")
		}
		h.SetHead(mgl32.Vec3{0.01, 0, 0}, vecmath.QuatAxisAngle(0.2, mgl32.Vec3{0, 1, 0}))
		w.Step()
		m.Sync()
		n := d.NumVertices()
		dyn := *m.dyn.Buffer()
		if len(dyn) != 2*n*hairDynStride || len(*m.stat.Buffer()) != 2*n*hairStatStride {
			t.Fatalf("buffers hold %d and %d floats for %d render vertices", len(dyn), len(*m.stat.Buffer()), n)
		}
		pos, tan := d.Positions(), d.Tangents()
		for i := 0; i < n; i++ {
			for k := 0; k < 2; k++ {
				o := (2*i + k) * hairDynStride
				p := mgl32.Vec3{dyn[o], dyn[o+1], dyn[o+2]}
				tg := mgl32.Vec3{dyn[o+3], dyn[o+4], dyn[o+5]}
				if p != pos[i] || tg != tan[i] {
					t.Fatalf("ribbon vertex %d/%d: %v %v, want %v %v", i, k, p, tg, pos[i], tan[i])
				}
			}
		}
		checkRibbonMesh(t, m, d.NumStrands(), d.NumSegments(), n)
		w.Close()
	}
}

// A GPU dense mesh keeps what its vertex shader needs: per ribbon vertex
// its color, side, place along the strand and (render strand, vertex);
// per render strand its guides, weights, segment length, root and offset
// per segment as hair.Dense reports them; and after Sync every guide's
// segment vectors from the World's positions and the head's pose. Sync
// does not allocate.
func TestHairMeshDenseGPU(t *testing.T) {
	w, h, d := newDenseHair(t, 1, 60, 8, 5)
	m := NewDenseHairMesh(d, hair.DefaultPalette())
	if m.Dense() != d || m.Hair() != h || m.gpu == nil || m.dyn != nil {
		t.Fatal("not a GPU dense mesh of d")
	}
	head := vecmath.QuatAxisAngle(0.3, mgl32.Vec3{0, 1, 0})
	h.SetHead(mgl32.Vec3{0.01, 0.02, 0}, head)
	for i := 0; i < 5; i++ {
		w.Step()
	}
	m.Sync()
	g := m.gpu
	per := d.NumSegments() + 1
	stat := *m.stat.Buffer()
	cols := d.Colors(nil, hair.DefaultPalette())
	for i := 0; i < d.NumVertices(); i++ {
		for k := 0; k < 2; k++ {
			v := stat[(2*i+k)*7 : (2*i+k+1)*7]
			want := []float32{cols[i][0], cols[i][1], cols[i][2], float32(2*k - 1), h.StrandParam(i % per), float32(i / per), float32(i % per)}
			for c := range want {
				if v[c] != want[c] {
					t.Fatalf("ribbon vertex %d/%d: %v, want %v", i, k, v, want)
				}
			}
		}
	}
	for i := 0; i < d.NumStrands(); i++ {
		gs, ws := d.Guides(i)
		root, off, seg := d.Layout(i)
		tx := g.strands[16*i : 16*i+16]
		segs := float32(d.NumSegments())
		want := []float32{float32(gs[0]), float32(gs[1]), float32(gs[2]), ws[0], ws[1], ws[2], seg, 0,
			root[0], root[1], root[2], 0, off[0] / segs, off[1] / segs, off[2] / segs, 0}
		if ws[0] == 1 {
			want[7] = 1
		}
		for c := range want {
			if tx[c] != want[c] {
				t.Fatalf("render strand %d texels %v, want %v", i, tx, want)
			}
		}
	}
	first, n := h.Particles()
	pos := w.Positions()[first : int(first)+n]
	for i := range pos {
		var want mgl32.Vec3
		if i%per > 0 {
			want = pos[i].Sub(pos[i-1])
		}
		if got := (mgl32.Vec3{g.guides[3*i], g.guides[3*i+1], g.guides[3*i+2]}); got != want {
			t.Fatalf("guide texel %d: %v, want %v", i, got, want)
		}
	}
	if g.headC != h.Head().Center || !g.headRot.ApproxEqual(vecmath.QuatMat4(head).Mat3()) {
		t.Errorf("head pose %v %v, want %v %v", g.headC, g.headRot, h.Head().Center, vecmath.QuatMat4(head).Mat3())
	}
	if r := h.Head().Radius + h.Settings().Radius; g.minR != r {
		t.Errorf("push-out radius %v, want %v", g.minR, r)
	}
	idx := m.geom.Indices()
	if len(idx) != d.NumStrands()*d.NumSegments()*6 {
		t.Fatalf("%d indices", len(idx))
	}
	if a := testing.AllocsPerRun(20, m.Sync); a != 0 {
		t.Errorf("Sync allocates %.1f times", a)
	}
}

// benchDenseMesh is a frame of dense hair as a game pays it on the CPU:
// 2,000 x 16 guide strands at hair.WorldConfig on a turning head, stepped,
// then the Sync of a dense mesh of 10 render strands per guide (20,000):
// for NewDenseHairMesh the guides' segments (the render strands are built
// in the vertex shader), for NewDenseHairMeshCPU Dense.Update and the copy
// into the ribbon buffer. The upload to the GPU happens at render.
func benchDenseMesh(b *testing.B, workers int, gpu bool) {
	w, h, d := newDenseHair(b, workers, 2000, 16, 10)
	m := NewDenseHairMeshCPU(d, hair.DefaultPalette())
	if gpu {
		m = NewDenseHairMesh(d, hair.DefaultPalette())
	}
	for i := 0; i < 30; i++ {
		w.Step()
	}
	c := h.Head().Center
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		h.SetHead(c, vecmath.QuatAxisAngle(0.5*float32(i%120)/120, mgl32.Vec3{0, 1, 0}))
		w.Step()
		m.Sync()
	}
	b.StopTimer()
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/1e6, "ms/frame")
}

func BenchmarkDenseMeshGPU20000From2000Workers1(b *testing.B) { benchDenseMesh(b, 1, true) }
func BenchmarkDenseMeshGPU20000From2000Workers2(b *testing.B) { benchDenseMesh(b, 2, true) }
func BenchmarkDenseMeshCPU20000From2000Workers1(b *testing.B) { benchDenseMesh(b, 1, false) }
func BenchmarkDenseMeshCPU20000From2000Workers2(b *testing.B) { benchDenseMesh(b, 2, false) }

// newDenseHair is a World at hair.WorldConfig with the given workers
// (closed at the end of the test), strands x segments hair on the default
// head and perGuide render strands per guide.
func newDenseHair(t testing.TB, workers, strands, segments, perGuide int) (*verlet3d.World, *hair.Hair, *hair.Dense) {
	t.Helper()
	cfg := hair.WorldConfig()
	cfg.Workers = workers
	w, err := verlet3d.NewWorld(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(w.Close)
	s := hair.DefaultSettings()
	s.Strands, s.Segments = strands, segments
	h, err := hair.New(w, hair.DefaultHead(), s)
	if err != nil {
		t.Fatal(err)
	}
	d, err := hair.NewDense(h, perGuide, 1)
	if err != nil {
		t.Fatal(err)
	}
	return w, h, d
}
