package cloth_test

import (
	"math"
	"strings"
	"testing"

	"github.com/drape3d/drape/cloth"
	"github.com/drape3d/drape/internal/vecmath"
	"github.com/drape3d/drape/verlet3d"
	"github.com/go-gl/mathgl/mgl32"
)

// One bad frame of animation (a NaN key, a bone scaled through zero, a bone
// thrown to 1e30 m) reaching Cape.SetPose is refused: the cape holds the
// last good pose, NumBadPoses counts it and BadPose names the field. No
// panic, no non-finite particle, no reset by the World's guard, no pop,
// and the walk goes on from the held pose without a jump.
func TestCapeSetPoseHoldsBadPoses(t *testing.T) {
	nan, inf := float32(math.NaN()), float32(math.Inf(1))
	cases := []struct {
		name string
		edit func(ref *verlet3d.Pose, anchors []verlet3d.Pose, body []verlet3d.Capsule)
		want string // in BadPose; "" for a pose SetPose takes
	}{
		{"NaN anchor", func(_ *verlet3d.Pose, a []verlet3d.Pose, _ []verlet3d.Capsule) { a[1].Position[0] = nan },
			"cloth: Cape.SetPose: anchors[1].Position = [NaN"},
		{"infinite anchor", func(_ *verlet3d.Pose, a []verlet3d.Pose, _ []verlet3d.Capsule) { a[2].Position[1] = -inf },
			"anchors[2].Position"},
		{"anchor 1e30 m away", func(_ *verlet3d.Pose, a []verlet3d.Pose, _ []verlet3d.Capsule) { a[0].Position[2] = 1e30 },
			"anchors[0].Position = [-0.18 1.4323665 1e+30], want finite meters within ±1e+09 (verlet3d.MaxCoordinate)"},
		{"NaN anchor rotation", func(_ *verlet3d.Pose, a []verlet3d.Pose, _ []verlet3d.Capsule) { a[0].Rotation.W = nan },
			"anchors[0].Rotation"},
		{"NaN reference", func(r *verlet3d.Pose, _ []verlet3d.Pose, _ []verlet3d.Capsule) { r.Position[1] = nan },
			"cloth: Cape.SetPose: reference.Position"},
		{"NaN reference rotation", func(r *verlet3d.Pose, _ []verlet3d.Pose, _ []verlet3d.Capsule) { r.Rotation.V[2] = nan },
			"reference.Rotation"},
		{"reference 1e20 m away", func(r *verlet3d.Pose, _ []verlet3d.Pose, _ []verlet3d.Capsule) { r.Position[0] = 1e20 },
			"reference.Position = [1e+20"},
		{"hips at 1e30: everything", func(r *verlet3d.Pose, a []verlet3d.Pose, b []verlet3d.Capsule) {
			far := mgl32.Vec3{1e30, 1e30, 1e30}
			r.Position = r.Position.Add(far)
			for i := range a {
				a[i].Position = a[i].Position.Add(far)
			}
			for i := range b {
				b[i].A, b[i].B = b[i].A.Add(far), b[i].B.Add(far)
			}
		}, "reference.Position"},
		{"NaN body end", func(_ *verlet3d.Pose, _ []verlet3d.Pose, b []verlet3d.Capsule) { b[2].B[1] = nan },
			"body[2].B"},
		{"NaN body radius", func(_ *verlet3d.Pose, _ []verlet3d.Pose, b []verlet3d.Capsule) { b[0].Radius = nan },
			"body[0].Radius"},
		// A zero quaternion is the identity (the walker does not turn).
		{"zero rotations", func(r *verlet3d.Pose, a []verlet3d.Pose, _ []verlet3d.Capsule) {
			r.Rotation = mgl32.Quat{}
			for i := range a {
				a[i].Rotation = mgl32.Quat{}
			}
		}, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w := newWorld(t, capeConfig)
			k := newWalker(t, w)
			cp := newCape(t, w, k, func(s *cloth.CapeSettings) { s.MaxLag = 0.5; s.CarryLinear = 0.3 })
			g := walk{speed: 1.5}
			frame := 0
			good := func() {
				g.step(k, 1.0/60, float32(frame)/60)
				frame++
				cp.SetPose(k.ref, k.anchors, k.body)
				w.Step()
			}
			for range 60 {
				good()
			}
			resets, jumps := w.Stats().NonFiniteResets, cp.NumTeleports()
			before := append([]mgl32.Vec3(nil), w.Positions()...)

			g.step(k, 1.0/60, float32(frame)/60)
			frame++
			ref := k.ref
			anchors := append([]verlet3d.Pose(nil), k.anchors...)
			body := append([]verlet3d.Capsule(nil), k.body...)
			c.edit(&ref, anchors, body)
			jumped := cp.SetPose(ref, anchors, body)
			w.Step()

			wantBad := 0
			if c.want != "" {
				wantBad = 1
			}
			if n := cp.NumBadPoses(); n != wantBad {
				t.Errorf("NumBadPoses = %d, want %d", n, wantBad)
			}
			if err := cp.BadPose(); c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)) {
				t.Errorf("BadPose() = %v, want it to contain %q", err, c.want)
			} else if c.want == "" && err != nil {
				t.Errorf("BadPose() = %v, want nil", err)
			}
			if jumped {
				t.Errorf("SetPose jumped on the bad frame")
			}
			var pop float32
			for i, x := range w.Positions() {
				if !vecmath.Finite(x) {
					t.Fatalf("particle %d at %v after the bad frame", i, x)
				}
				pop = max(pop, vecmath.Len(x.Sub(before[i])))
			}
			// A walk at 1.5 m/s moves 2.5 cm a frame.
			if pop > 0.1 {
				t.Errorf("a particle moved %.3g m in the bad frame's step, want a held cape", pop)
			}
			for range 60 {
				good()
			}
			for i, x := range w.Positions() {
				if !vecmath.Finite(x) {
					t.Fatalf("particle %d at %v after the walk went on", i, x)
				}
			}
			if n := w.Stats().NonFiniteResets; n != resets {
				t.Errorf("NonFiniteResets went from %d to %d", resets, n)
			}
			if n := cp.NumTeleports(); n != jumps {
				t.Errorf("NumTeleports went from %d to %d: the walk did not go on from the held pose", jumps, n)
			}
			if e := cp.PinError(); e > 1e-3 {
				t.Errorf("PinError = %.3g m after the walk went on", e)
			}
			if n := cp.NumBadPoses(); n != wantBad {
				t.Errorf("NumBadPoses = %d after good frames, want %d", n, wantBad)
			}
		})
	}
}

// A reference within MaxCoordinate but far away (a teleport of 5e8 m, with
// MaxLag set) is taken: the cape jumps there with no non-finite particle
// and no reset by the World's guard.
func TestCapeFarTeleportStaysFinite(t *testing.T) {
	w := newWorld(t, capeConfig)
	k := newWalker(t, w)
	cp := newCape(t, w, k, func(s *cloth.CapeSettings) { s.MaxLag = 0.5 })
	for range 10 {
		cp.SetPose(k.ref, k.anchors, k.body)
		w.Step()
	}
	k.place(mgl32.Vec3{5e8, 0, -5e8}, 0.3)
	for range 30 {
		cp.SetPose(k.ref, k.anchors, k.body)
		w.Step()
	}
	for i, x := range w.Positions() {
		if !vecmath.Finite(x) {
			t.Fatalf("particle %d at %v", i, x)
		}
	}
	if n := w.Stats().NonFiniteResets; n != 0 {
		t.Errorf("NonFiniteResets = %d, want 0", n)
	}
	if n := cp.NumBadPoses(); n != 0 {
		t.Errorf("NumBadPoses = %d, want 0: the pose is in range", n)
	}
	if n := cp.NumTeleports(); n != 1 {
		t.Errorf("NumTeleports = %d, want 1", n)
	}
}
