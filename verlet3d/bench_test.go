package verlet3d_test

import (
	"fmt"
	"math"
	"testing"
	"time"

	"github.com/drape3d/drape/verlet3d"
	"github.com/go-gl/mathgl/mgl32"
)

// naiveCloth is the baseline the benchmarks report against: the textbook
// array-of-structs Jakobsen loop (Verlet, then every link in creation order,
// ten times), with the same topology as buildCloth.
type naiveCloth struct {
	ps    []naiveParticle
	links []naiveLink
}

type naiveParticle struct {
	pos, prev mgl32.Vec3
	invMass   float32
}

type naiveLink struct {
	a, b int
	rest float32
}

func newNaiveCloth(w *verlet3d.World) *naiveCloth {
	c := &naiveCloth{}
	for i, x := range w.Positions() {
		c.ps = append(c.ps, naiveParticle{x, x, w.InvMasses()[i]})
	}
	for l := verlet3d.Link(0); int(l) < w.NumLinks(); l++ {
		a, b := w.LinkParticles(l)
		c.links = append(c.links, naiveLink{int(a), int(b), w.LinkRest(l)})
	}
	return c
}

func (c *naiveCloth) frame(h float32, iterations int) {
	g := mgl32.Vec3{0, -9.81 * h * h, 0}
	for i := range c.ps {
		p := &c.ps[i]
		if p.invMass == 0 {
			continue
		}
		v := p.pos.Sub(p.prev)
		p.prev = p.pos
		p.pos = p.pos.Add(v.Mul(0.99)).Add(g)
	}
	for it := 0; it < iterations; it++ {
		for _, l := range c.links {
			pa, pb := &c.ps[l.a], &c.ps[l.b]
			d := pb.pos.Sub(pa.pos)
			n := d.Len()
			if n == 0 {
				continue
			}
			w := pa.invMass + pb.invMass
			if w == 0 {
				continue
			}
			diff := (n - l.rest) / (n * w)
			pa.pos = pa.pos.Add(d.Mul(diff * pa.invMass))
			pb.pos = pb.pos.Sub(d.Mul(diff * pb.invMass))
		}
	}
}

// benchCloth steps an n x n cloth (structural, shear and distance-2 bend
// links, top row pinned) by one 1/60 s frame with 10 iterations per op, and
// reports ns per constraint-iteration, ms per frame and the speed-up over
// the naive loop timed in the same run.
func benchCloth(b *testing.B, n, workers int) { benchClothSplit(b, n, workers, 1, 10) }

// benchClothSplit is benchCloth with a frame split into substeps x
// iterations; the naive loop always does 1 x 10.
func benchClothSplit(b *testing.B, n, workers, substeps, iterations int) {
	cfg := verlet3d.DefaultConfig()
	cfg.Substeps = substeps
	cfg.Iterations = iterations
	cfg.Workers = workers
	w, err := verlet3d.NewWorld(cfg)
	if err != nil {
		b.Fatal(err)
	}
	defer w.Close()
	buildCloth(b, w, n, 0.02)
	naive := newNaiveCloth(w)
	w.Step() // colour the links and start the workers outside the timing
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		w.Step()
	}
	b.StopTimer()
	per := float64(b.Elapsed().Nanoseconds()) / float64(b.N)
	ci := float64(w.NumLinks() * cfg.Iterations * cfg.Substeps)
	b.ReportMetric(per/ci, "ns/constraint-iter")
	b.ReportMetric(per/1e6, "ms/frame")
	// The baseline, same topology, same run.
	frames := int(math.Max(10, float64(b.N)))
	start := time.Now()
	for i := 0; i < frames; i++ {
		naive.frame(cfg.TimeStep, 10)
	}
	naivePer := float64(time.Since(start).Nanoseconds()) / float64(frames)
	b.ReportMetric(naivePer/1e6, "naive-ms/frame")
	b.ReportMetric(naivePer/per, "x-naive")
}

func BenchmarkStepCloth32(b *testing.B)         { benchCloth(b, 32, 1) }
func BenchmarkStepCloth64(b *testing.B)         { benchCloth(b, 64, 1) }
func BenchmarkStepCloth64Workers2(b *testing.B) { benchCloth(b, 64, 2) }
func BenchmarkStepCloth128(b *testing.B)        { benchCloth(b, 128, 1) }

// The defaults survey's cost side: the new default split (10 x 2), the old
// one (2 x 10) and Jolt's like-for-like 10 x 1, in one run.
func BenchmarkStepCloth64Split(b *testing.B) {
	for _, c := range [][2]int{{10, 2}, {2, 10}, {10, 1}} {
		b.Run(fmt.Sprintf("%dx%d", c[0], c[1]), func(b *testing.B) { benchClothSplit(b, 64, 1, c[0], c[1]) })
	}
}

// Stepping allocates nothing once running, with colliders, fields, tethers
// and two workers.
func TestStepDoesNotAllocate(t *testing.T) {
	for _, workers := range []int{1, 2} {
		w := newWorld(t, func(c *verlet3d.Config) { c.Workers = workers })
		ps := buildCloth(t, w, 16, 0.05)
		if _, err := w.AddTether(ps[0], ps[len(ps)-1], 0); err != nil {
			t.Fatal(err)
		}
		if err := w.AddCollider(mustSphere(mgl32.Vec3{0.4, 1.5, 0.4}, 0.3), verlet3d.ContactSettings{Friction: 0.3}); err != nil {
			t.Fatal(err)
		}
		w.AddForceField(&verlet3d.Drag{Coefficient: 0.001})
		for i := 0; i < 30; i++ {
			w.Step()
		}
		if a := testing.AllocsPerRun(50, func() { w.Advance(1.0 / 60) }); a != 0 {
			t.Errorf("workers %d: %.1f allocations per step, want 0", workers, a)
		}
	}
}
