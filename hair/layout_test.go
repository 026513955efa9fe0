package hair_test

import (
	"github.com/drape3d/drape/internal/vecmath"
	"math"
	"sync"
	"testing"

	"github.com/drape3d/drape/hair"
	"github.com/drape3d/drape/verlet3d"
	"github.com/go-gl/mathgl/mgl32"
)

// Roots cover the cap evenly: every root lies on the scalp inside the cap
// and outside the parting gap, and no two crowd together: the closest pair
// is at least half the mean nearest-neighbor distance, where random
// placement would give pairs almost on top of each other.
func TestRootsEven(t *testing.T) {
	for _, n := range []int{50, 400, 2000} {
		w, _ := verlet3d.NewWorld(hair.WorldConfig())
		s := hair.DefaultSettings()
		s.Strands = n
		head := hair.DefaultHead()
		h, err := hair.New(w, head, s)
		if err != nil {
			t.Fatal(err)
		}
		st, ct := math.Sincos(float64(s.CapTilt))
		axis := mgl32.Vec3{0, float32(ct), -float32(st)}
		roots := make([]mgl32.Vec3, n)
		for i := range roots {
			r := h.RestLocal(i, 0)
			if d := math.Abs(float64(vecmath.Len(r) - head.Radius)); d > 1e-6 {
				t.Fatalf("%d strands: root %d is %.2g m off the scalp", n, i, d)
			}
			if a := math.Acos(float64(vecmath.Dot(vecmath.Normalize(r), axis))); a > float64(s.CapAngle)+1e-5 {
				t.Fatalf("%d strands: root %d at %.3f rad from the cap axis, cap is %.3f", n, i, a, s.CapAngle)
			}
			roots[i] = r
		}
		var sum float64
		minNN := math.Inf(1)
		for i, a := range roots {
			nn := math.Inf(1)
			for j, b := range roots {
				if i != j {
					nn = math.Min(nn, float64(vecmath.Len(a.Sub(b))))
				}
			}
			sum += nn
			minNN = math.Min(minNN, nn)
		}
		mean := sum / float64(n)
		t.Logf("%d strands: nearest-neighbor distance mean %.4f m, min %.4f m (ratio %.2f)", n, mean, minNN, minNN/mean)
		if minNN < 0.5*mean {
			t.Errorf("%d strands: roots clump: closest pair %.4f m, mean spacing %.4f m", n, minNN, mean)
		}
	}
}

// The parting is bare: no root lies within PartingWidth/2 of the parting
// plane in front of the crown, and the hair on its two sides is combed
// away from it.
func TestParting(t *testing.T) {
	w, _ := verlet3d.NewWorld(hair.WorldConfig())
	s := hair.DefaultSettings()
	s.Strands, s.PartingWidth = 1500, 0.1
	h, err := hair.New(w, hair.DefaultHead(), s)
	if err != nil {
		t.Fatal(err)
	}
	sp, cp := math.Sincos(float64(s.Parting))
	pn := mgl32.Vec3{float32(cp), -float32(sp), 0}
	near := 0
	for i := 0; i < h.NumStrands(); i++ {
		r := vecmath.Normalize(h.RestLocal(i, 0))
		if r[2] < 0.2 || r[1] < 0.3 { // front top only
			continue
		}
		side := vecmath.Dot(r, pn)
		if math.Abs(float64(side)) < math.Sin(float64(float64(s.PartingWidth)/2))-1e-6 {
			t.Fatalf("root %d is inside the parting gap (sin angle %.4f)", i, side)
		}
		if math.Abs(float64(side)) < 0.15 {
			near++
			// The strand's second particle is farther from the parting
			// plane, on the same side, than its root.
			p1 := h.RestLocal(i, 2)
			if vecmath.Dot(p1, pn)*side <= 0 || math.Abs(float64(vecmath.Dot(p1, pn))) <= math.Abs(float64(vecmath.Dot(h.RestLocal(i, 0), pn))) {
				t.Errorf("strand %d by the parting is not combed away from it", i)
			}
		}
	}
	if near < 10 {
		t.Fatalf("only %d roots near the parting", near)
	}
}

// Wind blows hair downwind, and more wind blows it farther; the drag also
// acts in still air, so a strand swinging after a turn settles faster with
// it than without.
func TestWind(t *testing.T) {
	tipX := func(speed float32) float64 {
		r := newRig(t, func(s *hair.Settings) { s.Strands = 100 }, 1)
		if err := r.h.SetWind(verlet3d.Wind{Steady: mgl32.Vec3{speed, 0, 0}}); err != nil {
			t.Fatal(err)
		}
		for f := 0; f < 120; f++ {
			r.w.Step()
		}
		pos := r.w.Positions()
		var sx float64
		for i := 0; i < r.h.NumStrands(); i++ {
			b, n := r.h.Strand(i)
			sx += float64(pos[int(b)+n-1][0])
		}
		return sx / float64(r.h.NumStrands())
	}
	x0, x3, x8 := tipX(0), tipX(3), tipX(8)
	t.Logf("mean tip x: still %.4f m, 3 m/s %.4f m, 8 m/s %.4f m", x0, x3, x8)
	if !(x3 > x0+0.01 && x8 > x3+0.01) {
		t.Errorf("wind along +x does not blow the tips downwind: %.4f, %.4f, %.4f m", x0, x3, x8)
	}
}

// windyTurn runs a head of strands hairs turning in the wind for frames
// frames on workers workers and returns where the particles end, and how
// many jobs ran on the workers.
func windyTurn(t *testing.T, strands, workers, frames int) ([]mgl32.Vec3, int) {
	r := newRig(t, func(s *hair.Settings) { s.Strands = strands }, workers)
	defer r.w.Close()
	r.h.SetWind(verlet3d.Wind{Steady: mgl32.Vec3{2, 0, 1}, Turbulence: 1, TurbulenceScale: 0.5})
	c := r.h.Head().Center
	for f := 0; f < frames; f++ {
		r.h.SetHead(c, turn(float64(float64(f)*frame)))
		r.w.Step()
	}
	return append([]mgl32.Vec3(nil), r.w.Positions()...), r.w.Stats().ParallelJobs
}

// Workers split strands between goroutines; the result is bit-identical.
func TestWorkersIdentical(t *testing.T) {
	a, _ := windyTurn(t, 150, 1, 60)
	for _, workers := range []int{2, 4} {
		b, jobs := windyTurn(t, 150, workers, 60)
		// The strands must really have been split between workers.
		if jobs < 60*2*3 {
			t.Fatalf("%d workers: only %d jobs ran in parallel", workers, jobs)
		}
		for i := range a {
			if a[i] != b[i] {
				t.Fatalf("particle %d: %v with 1 worker, %v with %d", i, a[i], b[i], workers)
			}
		}
	}
}

// Four hair Worlds of four workers each stepping at once on however many
// cores the machine has: most of the time some worker waits for a core and
// the others take its chunks of strands (World.Parallel). Each still ends
// where one worker puts it, bit for bit.
func TestWorkersIdenticalWhenLate(t *testing.T) {
	a, _ := windyTurn(t, 600, 1, 30)
	const worlds = 4
	got := make([][]mgl32.Vec3, worlds)
	var wg sync.WaitGroup
	for k := range worlds {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got[k], _ = windyTurn(t, 600, 4, 30)
		}()
	}
	wg.Wait()
	for k := range worlds {
		for i := range a {
			if a[i] != got[k][i] {
				t.Fatalf("world %d of 4 workers: particle %d at %v, %v on one worker", k, i, got[k][i], a[i])
			}
		}
	}
}

// A step allocates nothing once running, with or without workers, wind and
// a moving head; render data neither.
func TestNoAllocs(t *testing.T) {
	for _, workers := range []int{1, 2} {
		r := newRig(t, func(s *hair.Settings) { s.Strands = 100 }, workers)
		r.h.SetWind(verlet3d.Wind{Steady: mgl32.Vec3{3, 0, 0}, Gust: 0.5, GustPeriod: 3, Turbulence: 1, TurbulenceScale: 0.5})
		c := r.h.Head().Center
		r.w.Step()
		tan := r.h.Tangents(nil)
		i := 0
		allocs := testing.AllocsPerRun(50, func() {
			i++
			r.h.SetHead(c, vecmath.QuatAxisAngle(float32(float32(i)*0.01), mgl32.Vec3{0, 1, 0}))
			r.w.Step()
			tan = r.h.Tangents(tan)
		})
		if allocs != 0 {
			t.Errorf("%d workers: %.1f allocations per step", workers, allocs)
		}
	}
}

// Tangents are unit vectors along the strand, colors follow the palette
// from root to tip.
func TestRenderData(t *testing.T) {
	r := newRig(t, func(s *hair.Settings) { s.Strands = 30 }, 1)
	r.w.Step()
	pos := r.w.Positions()
	first, n := r.h.Particles()
	tan := r.h.Tangents(nil)
	if len(tan) != n || n != r.h.NumVertices() {
		t.Fatalf("%d tangents for %d vertices", len(tan), n)
	}
	per := r.h.NumSegments() + 1
	for i, tg := range tan {
		if math.Abs(float64(vecmath.Len(tg))-1) > 1e-5 {
			t.Fatalf("tangent %d has length %v", i, vecmath.Len(tg))
		}
		j := i % per
		a, b := j-1, j+1
		if a < 0 {
			a = 0
		}
		if b >= per {
			b = per - 1
		}
		d := vecmath.Normalize(pos[int(first)+i-j+b].Sub(pos[int(first)+i-j+a]))
		if vecmath.Dot(tg, d) < 0.9999 {
			t.Fatalf("tangent %d %v does not follow the strand %v", i, tg, d)
		}
	}
	p := hair.DefaultPalette()
	p.Variation = 0
	col := r.h.Colors(nil, p)
	if col[0] != p.Root || vecmath.Len(col[per-1].Sub(p.Tip)) > 1e-6 {
		t.Errorf("without variation root color %v tip %v, want %v and %v", col[0], col[per-1], p.Root, p.Tip)
	}
	p.Variation = 0.4
	col = r.h.Colors(col, p)
	differ := 0
	for i := 1; i < r.h.NumStrands(); i++ {
		if col[i*per] != col[0] {
			differ++
		}
	}
	if differ < r.h.NumStrands()/2 {
		t.Errorf("with variation only %d of %d strands differ in color", differ, r.h.NumStrands())
	}
}

// Reset puts the strands back in their style around the head's current
// pose, at rest.
func TestReset(t *testing.T) {
	r := newRig(t, func(s *hair.Settings) { s.Strands = 60 }, 1)
	c := r.h.Head().Center
	for f := 0; f < 40; f++ {
		r.h.SetHead(c, turn(float64(float64(f+1)*frame)))
		r.w.Step()
	}
	if meanTip(r.h) < 0.01 {
		t.Fatalf("the turn did not move the tips (%.4f m)", meanTip(r.h))
	}
	r.h.Reset()
	if d := meanTip(r.h); d != 0 {
		t.Errorf("after Reset the tips are %.2g m from the style", d)
	}
	first, n := r.h.Particles()
	for i := 0; i < n; i++ {
		if v := r.w.Velocity(first + verlet3d.Particle(i)); vecmath.Len(v) != 0 {
			t.Fatalf("particle %d moves at %v after Reset", i, v)
		}
	}
}
