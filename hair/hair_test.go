package hair_test

import (
	"github.com/drape3d/drape/internal/vecmath"
	"math"
	"testing"

	"github.com/drape3d/drape/hair"
	"github.com/drape3d/drape/verlet3d"
	"github.com/go-gl/mathgl/mgl32"
)

const frame = 1.0 / 60

// rig is a head with hair, a neck and shoulders in a World.
type rig struct {
	w      *verlet3d.World
	h      *hair.Hair
	extras []*verlet3d.Capsule
}

func newRig(t testing.TB, edit func(*hair.Settings), workers int) *rig {
	t.Helper()
	cfg := hair.WorldConfig()
	cfg.Workers = workers
	w, err := verlet3d.NewWorld(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(w.Close)
	s := hair.DefaultSettings()
	s.Strands = 200
	if edit != nil {
		edit(&s)
	}
	head := hair.DefaultHead()
	head.Center = mgl32.Vec3{0, 1.6, 0}
	h, err := hair.New(w, head, s)
	if err != nil {
		t.Fatal(err)
	}
	r := &rig{w: w, h: h}
	for _, c := range [][3]mgl32.Vec3{
		{{0, 1.55, -0.01}, {0, 1.38, -0.01}, {0.055}},        // neck
		{{-0.16, 1.33, -0.02}, {0.16, 1.33, -0.02}, {0.065}}, // shoulders
	} {
		cp, err := verlet3d.NewCapsule(c[0], c[1], c[2][0])
		if err != nil {
			t.Fatal(err)
		}
		if err := w.AddCollider(cp, verlet3d.ContactSettings{Friction: 0.3}); err != nil {
			t.Fatal(err)
		}
		r.extras = append(r.extras, cp)
	}
	h.Drape(r.extras[0], r.extras[1])
	return r
}

// check fails the test if any hair vertex is inside the head or an extra
// collider by more than 1e-4 m, if a root is off its scalp point by more
// than 1e-5 m, or a strand is not within 2% of its rest length. It returns
// the worst values seen.
type worst struct {
	headDepth, extraDepth, rootErr, stretch float64
}

func (r *rig) check(t *testing.T, when string, wst *worst) {
	t.Helper()
	pos := r.w.Positions()
	head := r.h.Head()
	sph := r.h.HeadCollider()
	if sph.Center != head.Center {
		t.Fatalf("%s: head collider at %v, head at %v", when, sph.Center, head.Center)
	}
	for i := 0; i < r.h.NumStrands(); i++ {
		b, n := r.h.Strand(i)
		want := head.ToWorld(r.h.RestLocal(i, 0))
		if d := float64(vecmath.Len(pos[b].Sub(want))); d > wst.rootErr {
			wst.rootErr = d
			if d > 1e-5 {
				t.Fatalf("%s: root of strand %d is %.3g m off its scalp point", when, i, d)
			}
		}
		var length float64
		for j := 0; j < n; j++ {
			p := pos[int(b)+j]
			if j > 0 {
				length += float64(vecmath.Len(p.Sub(pos[int(b)+j-1])))
			}
			if d := float64(head.Radius - vecmath.Len(p.Sub(head.Center))); d > wst.headDepth {
				wst.headDepth = d
				if d > 1e-4 {
					t.Fatalf("%s: strand %d vertex %d is %.3g m inside the head", when, i, j, d)
				}
			}
			for ci, c := range r.extras {
				s, nn := c.Closest(p)
				if d := -float64(vecmath.Dot(p.Sub(s), nn)); d > wst.extraDepth {
					wst.extraDepth = d
					if d > 1e-4 {
						t.Fatalf("%s: strand %d vertex %d is %.3g m inside extra collider %d", when, i, j, d, ci)
					}
				}
			}
		}
		rest := float64(r.h.StrandLength(i))
		if s := math.Abs(length-rest) / rest; s > wst.stretch {
			wst.stretch = s
			if s > 0.02 {
				t.Fatalf("%s: strand %d length %.4f m, rest %.4f m (%.2f%%)", when, i, length, rest, float64(100*s))
			}
		}
	}
}

// turn returns the head rotation at time t of a fast turn: yaw to 80° and
// back with a nod, over 1.2 s, peaking near 7 rad/s.
func turn(t float64) mgl32.Quat {
	if t > 1.2 {
		t = 1.2
	}
	s := math.Sin(math.Pi * t / 1.2)
	yaw := float64(1.4 * s * math.Sin(float64(math.Pi*t/1.2*2)))
	nod := float64(0.35 * s)
	return vecmath.QuatMul(vecmath.QuatAxisAngle(float32(yaw), mgl32.Vec3{0, 1, 0}), vecmath.QuatAxisAngle(float32(nod), mgl32.Vec3{1, 0, 0}))
}

// After 5 s under gravity and during and after a fast head turn, no hair
// vertex is inside the head or the neck and shoulders, roots stay on their
// scalp points and strands keep their length.
func TestCollisionRootsAndLength(t *testing.T) {
	r := newRig(t, nil, 1)
	var wst worst
	for f := 0; f < 300; f++ {
		r.w.Step()
		r.check(t, "gravity", &wst)
	}
	t.Logf("after 5 s: deepest in head %.2g m, in extras %.2g m, root error %.2g m, stretch %.3f%%",
		wst.headDepth, wst.extraDepth, wst.rootErr, float64(100*wst.stretch))
	c := r.h.Head().Center
	for f := 0; f < 120; f++ {
		tm := float64(float64(f+1) * frame)
		// Turn and sway: the center moves too, as a head on a neck does.
		off := mgl32.Vec3{float32(0.03 * float32(math.Sin(float64(tm*6)))), 0, 0}
		if err := r.h.SetHead(c.Add(off), turn(tm)); err != nil {
			t.Fatal(err)
		}
		r.w.Step()
		r.check(t, "turn", &wst)
	}
	t.Logf("with the turn: deepest in head %.2g m, in extras %.2g m, root error %.2g m, stretch %.3f%%",
		wst.headDepth, wst.extraDepth, wst.rootErr, float64(100*wst.stretch))
	if st := r.w.Stats(); st.NonFiniteResets != 0 {
		t.Errorf("NaN resets: %d", st.NonFiniteResets)
	}
}

// meanTip is the mean distance of strand tips from their rest positions
// at the current head pose.
func meanTip(h *hair.Hair) float64 {
	pos := h.World().Positions()
	head := h.Head()
	var sum float64
	for i := 0; i < h.NumStrands(); i++ {
		b, n := h.Strand(i)
		sum += float64(vecmath.Len(pos[int(b)+n-1].Sub(head.ToWorld(h.RestLocal(i, n-1)))))
	}
	return sum / float64(h.NumStrands())
}

// Style keeping holds the shape: under gravity the tips sag less with it
// than without, and after a fast turn stops they settle back near the
// style instead of staying wherever the turn flung them.
func TestStyleKeeping(t *testing.T) {
	run := func(stiff float32) (sag, after, peak float64) {
		r := newRig(t, func(s *hair.Settings) { s.StyleStiffness = stiff }, 1)
		for f := 0; f < 180; f++ {
			r.w.Step()
		}
		sag = meanTip(r.h)
		c := r.h.Head().Center
		for f := 0; f < 72; f++ {
			r.h.SetHead(c, turn(float64(float64(f+1)*frame)))
			r.w.Step()
			peak = math.Max(peak, meanTip(r.h))
		}
		for f := 0; f < 180; f++ {
			r.w.Step()
			peak = math.Max(peak, meanTip(r.h))
		}
		return sag, meanTip(r.h), peak
	}
	sagOn, afterOn, peakOn := run(hair.DefaultSettings().StyleStiffness)
	sagOff, afterOff, peakOff := run(0)
	t.Logf("mean tip displacement: style on: sag %.4f m, 3 s after the turn %.4f m, peak %.4f m", sagOn, afterOn, peakOn)
	t.Logf("                       style off: sag %.4f m, 3 s after the turn %.4f m, peak %.4f m", sagOff, afterOff, peakOff)
	if !(sagOn < 0.7*sagOff) {
		t.Errorf("style keeping does not hold the shape: sag %.4f m with it, %.4f m without", sagOn, sagOff)
	}
	// Bounded: back within 50% above the gravity sag (plus 5 mm) once the
	// head has been still for 3 s.
	if afterOn > float64(1.5*sagOn)+0.005 {
		t.Errorf("after the head stops the tips stay %.4f m from the style, gravity alone gives %.4f m", afterOn, sagOn)
	}
	if l := float64(hair.DefaultSettings().Length); peakOn > l {
		t.Errorf("tips moved %.3f m from the style, more than a strand length %.3f m", peakOn, l)
	}
}

// faceVertices counts hair vertices in front of the face: in the head's
// frame, ahead of the center by more than half the radius, between the
// chin and the brows and within the width of the eyes.
func faceVertices(h *hair.Hair) int {
	pos := h.World().Positions()
	head := h.Head()
	first, n := h.Particles()
	count := 0
	for _, p := range pos[first : int(first)+n] {
		l := vecmath.Scale(head.ToLocal(p), 1/head.Radius)
		if l[2] > 0.5 && l[1] > -0.8 && l[1] < 0.25 && math.Abs(float64(l[0])) < 0.5 {
			count++
		}
	}
	return count
}

// Hair keeps off the face: the style combs it back and aside, and neither
// gravity nor a fast turn brings more than a few strand vertices over the
// eyes, nose and mouth.
func TestFaceClear(t *testing.T) {
	r := newRig(t, func(s *hair.Settings) { s.Strands = 1000 }, 1)
	if n := faceVertices(r.h); n != 0 {
		t.Errorf("rest shape: %d hair vertices over the face", n)
	}
	for f := 0; f < 180; f++ {
		r.w.Step()
	}
	rest := faceVertices(r.h)
	c := r.h.Head().Center
	most := 0
	for f := 0; f < 72; f++ {
		r.h.SetHead(c, turn(float64(float64(f+1)*frame)))
		r.w.Step()
		most = max(most, faceVertices(r.h))
	}
	_, n := r.h.Particles()
	t.Logf("hair vertices over the face: %d after 3 s, at most %d during a fast turn (of %d)", rest, most, n)
	if rest > 0 {
		t.Errorf("%d hair vertices over the face at rest", rest)
	}
	if most > n/200 {
		t.Errorf("%d hair vertices over the face during the turn, more than 0.5%%", most)
	}
}

// A head's rotation is used at unit length, however long the quaternion:
// one near float32's range (found by FuzzHair) turns the head as the unit
// one does and does not collapse the head's frame to its center.
func TestHeadRotationOfAnyLength(t *testing.T) {
	unit := vecmath.QuatAxisAngle(0.7, vecmath.Normalize(mgl32.Vec3{0.2, 1, -0.3}))
	local := mgl32.Vec3{0.05, 0.08, -0.02}
	want := hair.Head{Rotation: unit, Radius: 0.1}.ToWorld(local)
	for _, scale := range []float32{1e-3, 1, 1e20, 3e38} {
		q := mgl32.Quat{W: float32(unit.W * scale), V: vecmath.Scale(unit.V, scale)}
		if got := (hair.Head{Rotation: q, Radius: 0.1}).ToWorld(local); vecmath.Len(got.Sub(want)) > 1e-6 {
			t.Errorf("rotation scaled by %g: %v to world is %v, want %v", scale, local, got, want)
		}
	}
}

// The head's sphere collider stops the World's other particles in
// HeadMask's groups (a ball dropped on the head rests on its crown) and
// lets the rest through.
func TestHeadMask(t *testing.T) {
	for _, c := range []struct {
		name  string
		mask  uint32
		group uint32
		rests bool
	}{
		{"default", hair.DefaultSettings().HeadMask, 1, true},
		{"none", 0, 1, false},
		{"other group", ^uint32(2), 2, false},
		{"this group", 2, 2, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			w, err := verlet3d.NewWorld(hair.WorldConfig())
			if err != nil {
				t.Fatal(err)
			}
			defer w.Close()
			s := hair.DefaultSettings()
			s.Strands, s.HeadMask = 50, c.mask
			head := hair.DefaultHead()
			if _, err := hair.New(w, head, s); err != nil {
				t.Fatal(err)
			}
			// A particle dropped from 0.5 m onto the crown, past every
			// strand (the crown's parting is bare).
			p, err := w.AddParticle(mgl32.Vec3{0, 0.5, 0}, 0.01)
			if err != nil {
				t.Fatal(err)
			}
			w.SetGroup(p, c.group)
			for i := 0; i < 120; i++ {
				w.Step()
			}
			y := w.Position(p)[1]
			t.Logf("HeadMask %#x, group %#x: the particle is at y = %.3f m after 2 s", c.mask, c.group, y)
			if rests := y > head.Radius*0.9; rests != c.rests {
				t.Errorf("the particle is at y = %.3f m (crown at %.2f m): rests on the head %v, want %v", y, head.Radius, rests, c.rests)
			}
		})
	}
}
