package cloth_test

import (
	"github.com/drape3d/drape/internal/vecmath"
	"math"
	"testing"

	"github.com/drape3d/drape/cloth"
	"github.com/drape3d/drape/verlet3d"
	"github.com/go-gl/mathgl/mgl32"
)

// benchCloth steps an n x n curtain pinned along its top row (the reference
// cloth's topology: structural, shear and distance-2 bend links, 10 iterations) for
// one 1/60 s frame per op, with or without turbulent gusty wind and
// self-collision.
func benchCloth(b *testing.B, n int, wind, self bool) { benchClothOn(b, n, wind, self, 1) }

// benchClothOn is benchCloth on a World of the given Config.Workers.
func benchClothOn(b *testing.B, n int, wind, self bool, workers int) {
	w := newWorld(b, func(c *verlet3d.Config) { c.Workers = workers })
	defer w.Close()
	s := cloth.DefaultSettings()
	s.Cols, s.Rows, s.Spacing = n, n, 2.0/float32(n)
	s.PinRows = []int{0}
	g := newGrid(b, w, s)
	if wind {
		ws := cloth.DefaultWindSettings()
		ws.Air = verlet3d.Wind{Steady: mgl32.Vec3{2, 0, 6}, Gust: 0.5, GustPeriod: 3, Turbulence: 1.5, TurbulenceScale: 0.5}
		_, err := cloth.NewWindForce(g, ws)
		if err != nil {
			b.Fatal(err)
		}
	}
	if self {
		_, err := cloth.NewSelfCollision(g, float32(0.9*s.Spacing))
		if err != nil {
			b.Fatal(err)
		}
	}
	for i := 0; i < 30; i++ {
		w.Step()
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		w.Step()
	}
	b.StopTimer()
	ms := float64(b.Elapsed().Nanoseconds()) / float64(b.N) / 1e6
	b.ReportMetric(ms, "ms/frame")
	cfg := w.Config()
	ci := float64(float64(w.NumLinks()) * float64(cfg.Iterations*cfg.Substeps))
	b.ReportMetric(ms*1e6/ci, "ns/link-iter")
}

func BenchmarkCloth32(b *testing.B)         { benchCloth(b, 32, false, false) }
func BenchmarkCloth32Wind(b *testing.B)     { benchCloth(b, 32, true, false) }
func BenchmarkCloth64(b *testing.B)         { benchCloth(b, 64, false, false) }
func BenchmarkCloth64Wind(b *testing.B)     { benchCloth(b, 64, true, false) }
func BenchmarkCloth64WindSelf(b *testing.B) { benchCloth(b, 64, true, true) }
func BenchmarkCloth64WindW2(b *testing.B)   { benchClothOn(b, 64, true, false, 2) }
func BenchmarkCloth128(b *testing.B)        { benchCloth(b, 128, false, false) }
func BenchmarkCloth128Wind(b *testing.B)    { benchCloth(b, 128, true, false) }

// benchNormals measures the per-frame render data of an n x n cloth:
// positions gathered and area-weighted normals.
func benchNormals(b *testing.B, n int) {
	w := newWorld(b, nil)
	s := cloth.DefaultSettings()
	s.Cols, s.Rows = n, n
	g := newGrid(b, w, s)
	w.Step()
	pos, nrm := g.Positions(nil), g.Normals(nil)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		pos = g.Positions(pos)
		nrm = g.Normals(nrm)
	}
}

func BenchmarkNormals64(b *testing.B) { benchNormals(b, 64) }

// naiveLink is the benchmark baseline (BENCHMARKS.md, "Method"): an
// array-of-structs Jakobsen loop with pointers into the particle slice.
type naiveParticle struct {
	pos, prev mgl32.Vec3
	invMass   float32
}

type naiveLink struct {
	a, b *naiveParticle
	rest float32
}

// benchNaive runs the same n x n topology as benchCloth with the naive
// loop: 2 substeps of Verlet with gravity, 10 relaxation passes each.
func benchNaive(b *testing.B, n int) {
	sp := 2.0 / float32(n)
	ps := make([]naiveParticle, n*n)
	for r := 0; r < n; r++ {
		for c := 0; c < n; c++ {
			p := mgl32.Vec3{float32(float32(c) * sp), float32(-float32(r) * sp), 0}
			im := float32(float32(n*n) / 0.5)
			if r == 0 {
				im = 0
			}
			ps[r*n+c] = naiveParticle{p, p, im}
		}
	}
	var ls []naiveLink
	add := func(r0, c0, r1, c1 int) {
		if r1 < n && c1 < n && c1 >= 0 {
			a, bb := &ps[r0*n+c0], &ps[r1*n+c1]
			ls = append(ls, naiveLink{a, bb, vecmath.Len(a.pos.Sub(bb.pos))})
		}
	}
	for r := 0; r < n; r++ {
		for c := 0; c < n; c++ {
			add(r, c, r, c+1)
			add(r, c, r+1, c)
			add(r, c, r+1, c+1)
			add(r, c, r+1, c-1)
			add(r, c, r, c+2)
			add(r, c, r+2, c)
		}
	}
	h := float32(1.0 / 120)
	g := vecmath.Scale(mgl32.Vec3{0, -9.81, 0}, float32(h*h))
	step := func() {
		for s := 0; s < 2; s++ {
			for i := range ps {
				p := &ps[i]
				if p.invMass == 0 {
					continue
				}
				v := vecmath.Scale(p.pos.Sub(p.prev), 0.996)
				p.prev = p.pos
				p.pos = p.pos.Add(v).Add(g)
			}
			for it := 0; it < 10; it++ {
				for i := range ls {
					l := &ls[i]
					d := l.b.pos.Sub(l.a.pos)
					dl := float32(math.Sqrt(float64(vecmath.Dot(d, d))))
					if dl == 0 {
						continue
					}
					ws := l.a.invMass + l.b.invMass
					if ws == 0 {
						continue
					}
					k := (dl - l.rest) / (dl * ws)
					l.a.pos = l.a.pos.Add(vecmath.Scale(d, float32(k*l.a.invMass)))
					l.b.pos = l.b.pos.Sub(vecmath.Scale(d, float32(k*l.b.invMass)))
				}
			}
		}
	}
	for i := 0; i < 30; i++ {
		step()
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		step()
	}
	b.StopTimer()
	ms := float64(b.Elapsed().Nanoseconds()) / float64(b.N) / 1e6
	b.ReportMetric(ms, "ms/frame")
	b.ReportMetric(ms*1e6/float64(len(ls)*20), "ns/link-iter")
}

func BenchmarkNaiveBaseline64(b *testing.B) { benchNaive(b, 64) }

// AddTethers on a 500 x 500 grid pinned along its top row: 250,000
// tethers, each to the nearest pin.
func BenchmarkAddTethers500(b *testing.B) {
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		w, err := verlet3d.NewWorld(verlet3d.DefaultConfig())
		if err != nil {
			b.Fatal(err)
		}
		s := cloth.DefaultSettings()
		s.Cols, s.Rows, s.Spacing = 500, 500, 0.01
		s.PinRows = []int{0}
		g, err := cloth.New(w, s)
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		if err := g.AddTethers(0); err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		w.Close()
		b.StartTimer()
	}
}
