package hair_test

import (
	"github.com/drape3d/drape/internal/vecmath"
	"testing"

	"github.com/drape3d/drape/hair"
	"github.com/drape3d/drape/verlet3d"
	"github.com/go-gl/mathgl/mgl32"
)

// benchHair measures one 1/60 s frame of strands x segments hair on a head
// (head sphere collision, style keeping, still-air drag) while the head
// turns, in a World with hair.WorldConfig (2 substeps, 3 iterations) and
// the given workers. Particles: strands·(segments+1).
func benchHair(b *testing.B, strands, segments, workers int) {
	benchHairFrames(b, strands, segments, workers, nil)
}

// benchHairFrames is benchHair with extra, if not nil, made from the hair
// before the settling steps and run after every frame's step (a render
// update).
func benchHairFrames(b *testing.B, strands, segments, workers int, extra func(*hair.Hair) func()) {
	cfg := hair.WorldConfig()
	cfg.Workers = workers
	w, err := verlet3d.NewWorld(cfg)
	if err != nil {
		b.Fatal(err)
	}
	defer w.Close()
	s := hair.DefaultSettings()
	s.Strands, s.Segments = strands, segments
	h, err := hair.New(w, hair.DefaultHead(), s)
	if err != nil {
		b.Fatal(err)
	}
	after := func() {}
	if extra != nil {
		after = extra(h)
	}
	for i := 0; i < 30; i++ { // settle
		w.Step()
	}
	c := h.Head().Center
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		h.SetHead(c, vecmath.QuatAxisAngle(0.5*float32(i%120)/120, mgl32.Vec3{0, 1, 0}))
		w.Step()
		after()
	}
	b.StopTimer()
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/1e6, "ms/frame")
}

func BenchmarkHair2000x16Workers1(b *testing.B) { benchHair(b, 2000, 16, 1) }
func BenchmarkHair2000x16Workers2(b *testing.B) { benchHair(b, 2000, 16, 2) }
func BenchmarkHair500x12Workers1(b *testing.B)  { benchHair(b, 500, 12, 1) }

// benchHairShoulders is benchHair's 2,000 x 16 frame with a neck and two
// shoulder capsules in the World: strands resting on them make collider
// contacts every substep, so the hair takes its pass-by-pass path (one
// World.Parallel call per iteration, the World's contacts between passes)
// instead of solving a whole substep in one call.
func benchHairShoulders(b *testing.B, workers int) {
	benchHairFrames(b, 2000, 16, workers, func(h *hair.Hair) func() {
		w := h.World()
		c := h.Head().Center
		var cs []verlet3d.Collider
		for _, k := range [][3]mgl32.Vec3{
			{{0, -0.1, 0}, {0, -0.22, 0}, {0.055}},
			{{-0.05, -0.24, 0}, {-0.2, -0.26, 0}, {0.065}},
			{{0.05, -0.24, 0}, {0.2, -0.26, 0}, {0.065}},
		} {
			cp, err := verlet3d.NewCapsule(c.Add(k[0]), c.Add(k[1]), k[2][0])
			if err != nil {
				b.Fatal(err)
			}
			if err := w.AddCollider(cp, verlet3d.ContactSettings{Friction: 0.3}); err != nil {
				b.Fatal(err)
			}
			cs = append(cs, cp)
		}
		h.Drape(cs...)
		return func() {}
	})
}

func BenchmarkHair2000x16ShouldersWorkers1(b *testing.B) { benchHairShoulders(b, 1) }
func BenchmarkHair2000x16ShouldersWorkers2(b *testing.B) { benchHairShoulders(b, 2) }

// BenchmarkWorldFloor34000 is what the core alone costs for the same
// particle count (2000 x 17) with one sphere collider and nothing else: a
// floor under BenchmarkHair2000x16 that the hair package cannot go below.
func BenchmarkWorldFloor34000(b *testing.B) {
	w, _ := verlet3d.NewWorld(hair.WorldConfig())
	for i := 0; i < 34000; i++ {
		w.AddParticle(mgl32.Vec3{float32(float32(i%100)*0.01) - 0.5, 1 + float32(float32(i/100)*0.001), 0}, 1)
	}
	sph, _ := verlet3d.NewSphere(mgl32.Vec3{0, 1.1, 0}, 0.1)
	w.AddCollider(sph, verlet3d.ContactSettings{})
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		w.Step()
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/1e6, "ms/frame")
}

// naiveHair is the baseline: the same strands as an array-of-structs
// Jakobsen loop (stretch and bend links, head sphere push-out, gravity),
// no style keeping, 2 substeps x 10 iterations.
type naiveParticle struct{ pos, prev mgl32.Vec3 }
type naiveLink struct {
	a, b int
	rest float32
}

func BenchmarkNaiveHair2000x16(b *testing.B) {
	w, _ := verlet3d.NewWorld(verlet3d.DefaultConfig())
	h, err := hair.New(w, hair.DefaultHead(), func() hair.Settings {
		s := hair.DefaultSettings()
		s.Strands, s.Segments = 2000, 16
		return s
	}())
	if err != nil {
		b.Fatal(err)
	}
	first, n := h.Particles()
	ps := make([]naiveParticle, n)
	for i := range ps {
		p := w.Position(first + verlet3d.Particle(i))
		ps[i] = naiveParticle{p, p}
	}
	var links []naiveLink
	per := h.NumSegments() + 1
	for s := 0; s < h.NumStrands(); s++ {
		o := s * per
		for j := 0; j+1 < per; j++ {
			links = append(links, naiveLink{o + j, o + j + 1, vecmath.Len(ps[o+j].pos.Sub(ps[o+j+1].pos))})
		}
		for j := 0; j+2 < per; j++ {
			links = append(links, naiveLink{o + j, o + j + 2, vecmath.Len(ps[o+j].pos.Sub(ps[o+j+2].pos))})
		}
	}
	const hs = 1.0 / 120
	g := mgl32.Vec3{0, -9.81 * hs * hs, 0}
	rad := float32(0.102)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for sub := 0; sub < 2; sub++ {
			for k := range ps {
				if k%per == 0 {
					continue
				}
				p := &ps[k]
				v := p.pos.Sub(p.prev)
				p.prev = p.pos
				p.pos = p.pos.Add(vecmath.Scale(v, 0.996)).Add(g)
			}
			for it := 0; it < 10; it++ {
				for _, l := range links {
					pa, pb := &ps[l.a], &ps[l.b]
					d := pb.pos.Sub(pa.pos)
					dl := vecmath.Len(d)
					if dl == 0 {
						continue
					}
					diff := float32((dl - l.rest) / dl * 0.5)
					if l.a%per != 0 {
						pa.pos = pa.pos.Add(vecmath.Scale(d, diff))
						pb.pos = pb.pos.Sub(vecmath.Scale(d, diff))
					} else {
						pb.pos = pb.pos.Sub(vecmath.Scale(d, float32(2*diff)))
					}
				}
				for k := range ps {
					if l := vecmath.Len(ps[k].pos); l < rad && l > 0 {
						ps[k].pos = vecmath.Scale(ps[k].pos, rad/l)
					}
				}
			}
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/1e6, "ms/frame")
}

// benchDense is benchHair's frame of 2,000 x 16 guide hair with its head
// turning, plus the Update of perGuide render strands per guide (20,000
// render strands for perGuide 10): what a game pays per frame for dense
// hair, before the copy to the GPU.
func benchDense(b *testing.B, perGuide, workers int) {
	benchHairFrames(b, 2000, 16, workers, func(h *hair.Hair) func() {
		d, err := hair.NewDense(h, perGuide, 1)
		if err != nil {
			b.Fatal(err)
		}
		return d.Update
	})
}

func BenchmarkDense20000From2000Workers1(b *testing.B) { benchDense(b, 10, 1) }
func BenchmarkDense20000From2000Workers2(b *testing.B) { benchDense(b, 10, 2) }

// BenchmarkDenseUpdate20000 is the render-strand update alone (20,000
// render strands x 17 vertices from 2,000 guides), on 1 worker.
func BenchmarkDenseUpdate20000Workers1(b *testing.B) {
	w, _ := verlet3d.NewWorld(hair.WorldConfig())
	s := hair.DefaultSettings()
	s.Strands, s.Segments = 2000, 16
	h, _ := hair.New(w, hair.DefaultHead(), s)
	d, _ := hair.NewDense(h, 10, 1)
	for i := 0; i < 30; i++ {
		w.Step()
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		d.Update()
	}
	b.StopTimer()
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/1e6, "ms/frame")
}
