package character

import (
	"strings"
	"testing"

	"github.com/drape3d/drape/internal/vecmath"
	"github.com/drape3d/drape/scene"
	"github.com/drape3d/drape/verlet3d"
	"github.com/go-gl/mathgl/mgl32"
)

// A character whose Hips bone is animated for a frame to 1e30 m, to a
// scale of zero, or between keys that interpolate past float32's range,
// keeps its cape and hair where they were: the mounts hold their last good
// pose (Character.NumBadPoses) or the clip keeps the node's last value
// (Player.NumBadSamples); no panic, no non-finite particle, no reset by the
// World's guard, no pop, and the walk goes on without a jump.
func TestCharacterBadAnimationFrame(t *testing.T) {
	const huge = 3e38
	cases := []struct {
		name        string
		path        trsPath
		a, b        mgl32.Vec4 // the two keys of the bad clip
		poses, samp int        // NumBadPoses, NumBadSamples after it
		want        string     // in BadPose
	}{
		{"hips at 1e30", pathTranslation, mgl32.Vec4{1e30, 1e30, 1e30}, mgl32.Vec4{1e30, 1e30, 1e30}, 1, 0,
			`want finite meters within ±1e+09 (verlet3d.MaxCoordinate); the last good pose is held`},
		{"hips scaled through zero", pathScale, mgl32.Vec4{}, mgl32.Vec4{}, 1, 0,
			`axis 0 = [0 0 0], want a finite axis, not collapsed`},
		{"keys past float32's range", pathTranslation, mgl32.Vec4{-huge, 0, 0}, mgl32.Vec4{huge, 0, 0}, 0, 1, ""},
		{"NaN-making rotation keys", pathRotation, mgl32.Vec4{huge, huge, huge, huge}, mgl32.Vec4{-huge, huge, huge, huge}, 0, 1, ""},
	}
	dir := t.TempDir()
	path := writeRig(t, dir, rigFixtures[0])
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ch, err := Load(path)
			if err != nil {
				t.Fatal(err)
			}
			cfg := verlet3d.DefaultConfig()
			cfg.Iterations = 3
			w, cape, hh := dressCharacter(t, ch, cfg, "mixamo.com|Walk", 100, func(s *scene.CapeSettings) {
				s.MaxLag = 1.5
			})
			t.Cleanup(w.Close)
			frame := func(dt float32) {
				ch.Update(dt)
				cape.Sync()
				hh.Follower.Sync()
				w.Step()
			}
			for range 60 {
				frame(1.0 / 60)
			}
			resets, jumps := w.Stats().NonFiniteResets, cape.Teleports
			before := append([]mgl32.Vec3(nil), w.Positions()...)

			hips, err := ch.Bone("Hips")
			if err != nil {
				t.Fatal(err)
			}
			pos, rot, scale := hips.Position(), hips.Quaternion(), hips.Scale()
			bad := &Clip{Name: "bad", Duration: 1, tracks: []track{{
				node: hips, path: c.path, interp: interpLinear,
				times: []float32{0, 1}, values: []mgl32.Vec4{c.a, c.b},
			}}}
			walkPlayer := ch.Player
			ch.Player = NewPlayer(bad)
			ch.Player.Time = 0.25
			frame(1.0 / 4) // the clock lands half way between the keys
			samples := ch.Player.NumBadSamples()
			ch.Player = walkPlayer
			hips.SetPositionVec(&pos)
			hips.SetQuaternionQuat(&rot)
			hips.SetScaleVec(&scale)

			if n := ch.NumBadPoses(); n != c.poses {
				t.Errorf("Character.NumBadPoses = %d, want %d", n, c.poses)
			}
			if samples != c.samp {
				t.Errorf("Player.NumBadSamples = %d, want %d", samples, c.samp)
			}
			if err := ch.BadPose(); c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), `scene: Mount.Update: bone "mixamorig:`)) {
				t.Errorf("BadPose() = %v, want it to contain %q", err, c.want)
			}
			checkFinite(t, w, resets, "after the bad frame")
			var pop float32
			for i, x := range w.Positions() {
				pop = max(pop, vecmath.Len(x.Sub(before[i])))
			}
			// The cape and hair hold (a walk moves 2.5 cm a frame; the
			// bad frame's step is one frame long).
			if pop > 0.15 {
				t.Errorf("a particle moved %.3g m in the bad frame's step, want a held cape and hair", pop)
			}
			for range 60 {
				frame(1.0 / 60)
			}
			checkFinite(t, w, resets, "after the walk went on")
			if cape.Teleports != jumps {
				t.Errorf("Teleports went from %d to %d: the walk did not go on from the held pose", jumps, cape.Teleports)
			}
			if e := cape.PinError(); e > 1e-3 {
				t.Errorf("cape PinError = %.3g m after the walk went on", e)
			}
			if n := hh.NumRecovered(); n != 0 {
				t.Errorf("hair NumRecovered = %d, want 0", n)
			}
		})
	}
}

func checkFinite(t *testing.T, w *verlet3d.World, resets int, when string) {
	t.Helper()
	for i, x := range w.Positions() {
		if !vecmath.Finite(x) {
			t.Fatalf("%s: particle %d at %v", when, i, x)
		}
	}
	if n := w.Stats().NonFiniteResets; n != resets {
		t.Errorf("%s: NonFiniteResets went from %d to %d", when, resets, n)
	}
}
