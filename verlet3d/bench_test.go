package verlet3d_test

import (
	"fmt"
	"github.com/drape3d/drape/internal/checks"
	"math"
	"testing"
	"time"

	"github.com/drape3d/drape/verlet3d"
	"github.com/go-gl/mathgl/mgl32"
)

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
	naive := checks.NewNaiveGrid(n)
	w.Step() // color the links and start the workers outside the timing
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
	// The baseline: the reference loop on the reference cloth (the same
	// 23,938 links at 64 x 64, in the reference order), same run.
	frames := int(math.Max(10, float64(b.N)))
	start := time.Now()
	for i := 0; i < frames; i++ {
		naive.Frame(cfg.TimeStep, 10)
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
