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
