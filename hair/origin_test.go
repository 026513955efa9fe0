package hair_test

import (
	"github.com/drape3d/drape/internal/vecmath"
	"math"
	"testing"

	"github.com/drape3d/drape/hair"
	"github.com/drape3d/drape/verlet3d"
	"github.com/go-gl/mathgl/mgl32"
)

// A walking head whose game moves the World's origin (World.ShiftOrigin)
// keeps its hair as one that never shifts: the two run in lockstep and,
// relative to the head, differ only by rounding. (Hair is chaotic: a 1 µm
// nudge grows to about a centimeter in 4 s of walking, so the comparison is
// made over the 10 frames after the first shift, before which both runs
// are bit-identical; without the hair's own shift the strands jump 0.39 m.)
func TestHairFollowsShiftedOrigin(t *testing.T) {
	type run struct {
		w          *verlet3d.World
		h          *hair.Hair
		origin, gx float64
	}
	newRun := func() *run {
		w, err := verlet3d.NewWorld(hair.WorldConfig())
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(w.Close)
		s := hair.DefaultSettings()
		s.Strands = 200
		head := hair.DefaultHead()
		head.Center = mgl32.Vec3{0, 1.7, 0}
		h, err := hair.New(w, head, s)
		if err != nil {
			t.Fatal(err)
		}
		return &run{w: w, h: h}
	}
	frame := func(r *run, i int, every float64) (shifted bool) {
		r.gx += 1.5 / 60
		if every > 0 && r.gx-r.origin > every {
			off := float32(r.gx - r.origin)
			r.w.ShiftOrigin(mgl32.Vec3{off, 0, 0})
			r.origin += float64(off)
			shifted = true
		}
		bob := float64(0.02 * math.Sin(2*math.Pi*2*float64(i)/60))
		turn := vecmath.QuatAxisAngle(float32(0.3*math.Sin(float64(i)/30)), mgl32.Vec3{0, 1, 0})
		if err := r.h.SetHead(mgl32.Vec3{float32(r.gx - r.origin), float32(1.7 + bob), 0}, turn); err != nil {
			t.Fatal(err)
		}
		r.w.Advance(1.0 / 60)
		return shifted
	}
	diff := func(a, b *run) float32 {
		first, n := a.h.Particles()
		ca, cb := a.h.Head(), b.h.Head()
		worst := float32(0)
		for p := first; p < first+verlet3d.Particle(n); p++ {
			worst = max(worst, vecmath.Len(ca.ToLocal(a.w.Position(p)).Sub(cb.ToLocal(b.w.Position(p)))))
		}
		return worst
	}
	home, moved := newRun(), newRun()
	worst, shifts, since := float32(0), 0, -1
	for i := 0; i < 240; i++ {
		frame(home, i, 0)
		if frame(moved, i, 1) {
			shifts++
			if shifts == 1 {
				since = 0
			}
		}
		if since >= 0 && since < 10 {
			worst = max(worst, diff(home, moved))
			since++
		}
	}
	t.Logf("%d shifts; largest difference relative to the head within 10 frames of the first: %.2g m; after 4 s: %.2g m",
		shifts, worst, diff(home, moved))
	if shifts < 5 {
		t.Fatalf("only %d shifts", shifts)
	}
	if worst > 1e-4 {
		t.Errorf("hair relative to the head differs by %.2g m after an origin shift, want < 0.1 mm", worst)
	}
	if n := moved.w.Stats().NonFiniteResets + moved.h.NumRecovered(); n != 0 {
		t.Errorf("%d resets or recoveries", n)
	}
}

// Hair on a head walking 5 km from the origin, with nothing asked of the
// game, keeps its roots on the scalp, its strands out of the head and
// their length as at the origin (within 10%): the World keeps its frame
// near the hair (verlet3d.World.Origin).
func TestHairFarFromOrigin(t *testing.T) {
	type result struct{ root, deepest, stretch float64 }
	walk := func(at mgl32.Vec3) (r result) {
		w, err := verlet3d.NewWorld(hair.WorldConfig())
		if err != nil {
			t.Fatal(err)
		}
		defer w.Close()
		s := hair.DefaultSettings()
		s.Strands = 200
		head := hair.DefaultHead()
		head.Center = at.Add(mgl32.Vec3{0, 1.7, 0})
		h, err := hair.New(w, head, s)
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i < 240; i++ {
			x := float32(1.5 * float64(i) / 60)
			bob := float32(0.02 * math.Sin(2*math.Pi*2*float64(i)/60))
			turn := vecmath.QuatAxisAngle(float32(0.3*math.Sin(float64(i)/30)), mgl32.Vec3{0, 1, 0})
			if err := h.SetHead(at.Add(mgl32.Vec3{x, 1.7 + bob, 0}), turn); err != nil {
				t.Fatal(err)
			}
			w.Advance(1.0 / 60)
			// Measured in the World's frame, where the particles are.
			hd := h.Head()
			hd.Center = w.ToLocal(hd.Center)
			pos := w.Positions()
			for k := 0; k < h.NumStrands(); k++ {
				b, n := h.Strand(k)
				r.root = max(r.root, float64(vecmath.Len(pos[b].Sub(hd.ToWorld(h.RestLocal(k, 0))))))
				length := 0.0
				for j := 1; j < n; j++ {
					p := pos[int(b)+j]
					r.deepest = max(r.deepest, float64(hd.Radius-vecmath.Len(p.Sub(hd.Center))))
					length += float64(vecmath.Len(p.Sub(pos[int(b)+j-1])))
				}
				r.stretch = max(r.stretch, math.Abs(length/float64(h.StrandLength(k))-1))
			}
		}
		if n := w.Stats().NonFiniteResets + h.NumRecovered(); n != 0 {
			t.Errorf("at %v: %d resets or recoveries", at, n)
		}
		if o := w.Origin(); at != (mgl32.Vec3{}) && math.Abs(o[0]-float64(at[0])) > 20 {
			t.Errorf("the World's frame is at %v, the head near %v", o, at)
		}
		return r
	}
	home := walk(mgl32.Vec3{})
	far := walk(mgl32.Vec3{5000, 0, -3000})
	t.Logf("home: root %.2g m off the scalp, deepest %.2g m in the head, stretch %.2f%%; 5 km out: %.2g m, %.2g m, %.2f%%",
		home.root, home.deepest, float64(100*home.stretch), far.root, far.deepest, float64(100*far.stretch))
	if far.root > 1e-5 || far.deepest > 1e-4 {
		t.Errorf("5 km out: roots %.2g m off the scalp, a vertex %.2g m inside the head", far.root, far.deepest)
	}
	if math.Abs(far.stretch-home.stretch) > 0.1*home.stretch {
		t.Errorf("5 km out the strands stretch %.2f%%, at home %.2f%%, want within 10%%", float64(100*far.stretch), float64(100*home.stretch))
	}
}
