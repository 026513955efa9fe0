package hair_test

import (
	"math"
	"strings"
	"testing"

	"github.com/drape3d/drape/hair"
	"github.com/drape3d/drape/internal/vecmath"
	"github.com/drape3d/drape/verlet3d"
	"github.com/go-gl/mathgl/mgl32"
)

// denseWorst is the worst of each measure over a run of a Dense.
type denseWorst struct {
	rootErr, depth, stretch float64
}

// checkDense fails the test if a render root is off the scalp by more than
// 1e-5 m, a render vertex is inside the head by more than 1e-4 m or not
// finite, and, when settled, if a render strand is more than 5% off its rest
// length.
func checkDense(t *testing.T, when string, d *hair.Dense, settled bool, wst *denseWorst) {
	t.Helper()
	head := d.Hair().Head()
	pos, tan := d.Positions(), d.Tangents()
	per := d.NumSegments() + 1
	for s := 0; s < d.NumStrands(); s++ {
		st := pos[s*per : (s+1)*per]
		if e := math.Abs(float64(vecmath.Len(st[0].Sub(head.Center)) - head.Radius)); e > wst.rootErr {
			wst.rootErr = e
			if e > 1e-5 {
				t.Fatalf("%s: render root %d is %.3g m off the scalp", when, s, e)
			}
		}
		var length float64
		for j, p := range st {
			if !vecmath.Finite(p) || !vecmath.Finite(tan[s*per+j]) {
				t.Fatalf("%s: render strand %d vertex %d at %v, tangent %v", when, s, j, p, tan[s*per+j])
			}
			if d := float64(head.Radius - vecmath.Len(p.Sub(head.Center))); d > wst.depth {
				wst.depth = d
				if d > 1e-4 {
					t.Fatalf("%s: render strand %d vertex %d is %.3g m inside the head", when, s, j, d)
				}
			}
			if j > 0 {
				length += float64(vecmath.Len(p.Sub(st[j-1])))
			}
		}
		if settled {
			rest := float64(d.StrandLength(s))
			if e := math.Abs(length-rest) / rest; e > wst.stretch {
				wst.stretch = e
				if e > 0.05 {
					t.Fatalf("%s: render strand %d length %.4f m, rest %.4f m (%.1f%%)", when, s, length, rest, float64(100*e))
				}
			}
		}
	}
}

// driveDense runs hair with perGuide render strands per guide through a
// fast head turn (peaking near 7 rad/s) in wind of the given speed with
// gusts, then a still second, checking the render strands every frame.
func driveDense(t *testing.T, wind float32) {
	h := newGameHair(t, 300, 16)
	d, err := hair.NewDense(h, 8, 7)
	if err != nil {
		t.Fatal(err)
	}
	if wind > 0 {
		if err := h.SetWind(verlet3d.Wind{Steady: mgl32.Vec3{wind, 0, float32(-0.3 * wind)}, Gust: 0.35, GustPeriod: 2.5, Turbulence: float32(0.2 * wind), TurbulenceScale: 0.3}); err != nil {
			t.Fatal(err)
		}
	}
	w := h.World()
	var wst denseWorst
	const frames = 180
	for f := 0; f < frames; f++ {
		tm := float64(f) / 60
		if err := h.SetHead(start, turn(tm)); err != nil {
			t.Fatal(err)
		}
		w.Step()
		d.Update()
		checkDense(t, "turning", d, false, &wst)
	}
	// The motion stops; so does the wind; a second to settle.
	h.SetWind(verlet3d.Wind{})
	for f := 0; f < 90; f++ {
		w.Step()
		d.Update()
		checkDense(t, "after the turn", d, f > 60, &wst)
	}
	t.Logf("%d render strands from %d guides, wind %v m/s: root error %.2g m, deepest in head %.2g m, settled length error %.2f%%",
		d.NumStrands(), h.NumStrands(), wind, wst.rootErr, wst.depth, float64(100*wst.stretch))
}

// Render roots stay on the scalp, no render vertex enters the head, and
// render strands keep their length once still, through a fast head turn in
// still air and in a gusty 20 m/s wind.
func TestDenseTurn(t *testing.T)   { driveDense(t, 0) }
func TestDenseWind20(t *testing.T) { driveDense(t, 20) }

// perGuide = 1 shows exactly the guides; for more, render strand
// g·PerGuide is guide g itself and the others are near it.
func TestDenseGuidesExact(t *testing.T) {
	h := newGameHair(t, 200, 12)
	w := h.World()
	d1, err := hair.NewDense(h, 1, 1)
	if err != nil {
		t.Fatal(err)
	}
	d4, err := hair.NewDense(h, 4, 1)
	if err != nil {
		t.Fatal(err)
	}
	if d1.NumStrands() != 200 || d4.NumStrands() != 800 || d4.NumVertices() != 800*13 || d4.NumSegments() != 12 {
		t.Fatalf("sizes %d, %d strands, %d vertices, %d segments", d1.NumStrands(), d4.NumStrands(), d4.NumVertices(), d4.NumSegments())
	}
	for f := 0; f < 40; f++ {
		h.SetHead(start, turn(float64(f)/60))
		w.Step()
	}
	d1.Update()
	d4.Update()
	first, n := h.Particles()
	guides := w.Positions()[first : int(first)+n]
	tans := h.Tangents(nil)
	for i, p := range d1.Positions() {
		if p != guides[i] || d1.Tangents()[i] != tans[i] {
			t.Fatalf("perGuide 1: vertex %d at %v tangent %v, guide at %v tangent %v", i, p, d1.Tangents()[i], guides[i], tans[i])
		}
	}
	per := 13
	var far float64
	for s := 0; s < d4.NumStrands(); s++ {
		g, wt := d4.Guides(s)
		if g[0] != s/4 || math.Abs(float64(wt[0]+wt[1]+wt[2])-1) > 1e-5 {
			t.Fatalf("render strand %d follows %v with weights %v", s, g, wt)
		}
		if s%4 == 0 {
			for j := 0; j < per; j++ {
				if d4.Positions()[s*per+j] != guides[s/4*per+j] {
					t.Fatalf("perGuide 4: render strand %d vertex %d is not its guide's", s, j)
				}
			}
			continue
		}
		// A render strand's tip is near the blend of its guides' tips.
		var blend mgl32.Vec3
		for c := 0; c < 3; c++ {
			blend = blend.Add(vecmath.Scale(guides[g[c]*per+per-1], wt[c]))
		}
		e := float64(vecmath.Len(d4.Positions()[s*per+per-1].Sub(blend)) / d4.StrandLength(s))
		far = math.Max(far, e)
	}
	if far > 0.3 {
		t.Errorf("a render strand's tip is %.0f%% of its length from the blend of its guides' tips", float64(100*far))
	}
	t.Logf("farthest render tip from the blend of its guides' tips: %.1f%% of its length", float64(100*far))
}

// Bad input errors name the field.
func TestDenseBadInput(t *testing.T) {
	h := newGameHair(t, 20, 4)
	for _, n := range []int{0, -1, hair.MaxPerGuide + 1} {
		_, err := hair.NewDense(h, n, 1)
		if err == nil || !strings.Contains(err.Error(), "perGuide") {
			t.Errorf("perGuide %d: error %v, want one naming perGuide", n, err)
		}
	}
	d, _ := hair.NewDense(h, 2, 1)
	for _, i := range []int{-1, d.NumStrands()} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("StrandLength(%d) did not panic", i)
				}
			}()
			d.StrandLength(i)
		}()
	}
}

// Update does not allocate, on one worker or two.
func TestDenseNoAllocs(t *testing.T) {
	for _, workers := range []int{1, 2} {
		cfg := hair.WorldConfig()
		cfg.Workers = workers
		w, err := verlet3d.NewWorld(cfg)
		if err != nil {
			t.Fatal(err)
		}
		s := hair.DefaultSettings()
		s.Strands = 200
		h, err := hair.New(w, hair.DefaultHead(), s)
		if err != nil {
			t.Fatal(err)
		}
		d, err := hair.NewDense(h, 5, 1)
		if err != nil {
			t.Fatal(err)
		}
		w.Step()
		d.Update()
		if a := testing.AllocsPerRun(20, d.Update); a != 0 {
			t.Errorf("%d workers: Update allocates %v times", workers, a)
		}
		w.Close()
	}
}

// The same render strands on any worker count.
func TestDenseWorkersIdentical(t *testing.T) {
	var out [2][]mgl32.Vec3
	for k, workers := range []int{1, 2} {
		cfg := hair.WorldConfig()
		cfg.Workers = workers
		w, _ := verlet3d.NewWorld(cfg)
		s := hair.DefaultSettings()
		s.Strands = 150
		h, _ := hair.New(w, hair.DefaultHead(), s)
		d, _ := hair.NewDense(h, 6, 3)
		for f := 0; f < 20; f++ {
			h.SetHead(mgl32.Vec3{}, turn(float64(f)/60))
			w.Step()
		}
		d.Update()
		out[k] = append([]mgl32.Vec3(nil), d.Positions()...)
		w.Close()
	}
	for i := range out[0] {
		if out[0][i] != out[1][i] {
			t.Fatalf("vertex %d: %v on 1 worker, %v on 2", i, out[0][i], out[1][i])
		}
	}
}
