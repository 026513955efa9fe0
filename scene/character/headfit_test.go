package character

import (
	"math"
	"testing"

	"github.com/drape3d/drape/hair"
	"github.com/drape3d/drape/internal/vecmath"
	"github.com/drape3d/drape/scene"
	"github.com/drape3d/drape/verlet3d"
	"github.com/go-gl/mathgl/mgl32"
)

// hairRun is the worst seen while hair walks and runs on a character.
type hairRun struct {
	inside  float64 // deepest a hair particle went inside the fitted sphere, m
	root    float64 // farthest a root strayed from its scalp point, m
	center  float64 // farthest the head center strayed from the bone + offset, m
	surface float64 // farthest a root lay from the sphere's surface, m
	// aboveHips is the lowest a hair particle hung, as its height above
	// the Hips bone along the character's up axis, m.
	aboveHips float64
}

// runCharacterHair grows hair fitted to ch's head and plays each clip for
// secs seconds at 60 frames per second.
func runCharacterHair(t *testing.T, ch *Character, clips []string, secs float64) (scene.HairSettings, hairRun) {
	t.Helper()
	if err := ch.Play(clips[0]); err != nil {
		t.Fatal(err)
	}
	hs, err := ch.HairSettings(HairFit{})
	if err != nil {
		t.Fatal(err)
	}
	hs.Hair.Strands = 300
	w, err := verlet3d.NewWorld(hair.WorldConfig())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(w.Close)
	h, err := scene.NewHeadHair(w, hs)
	if err != nil {
		t.Fatal(err)
	}
	first, n := h.Particles()
	r := hairRun{aboveHips: math.Inf(1)}
	hips, err := ch.Bone("Hips")
	if err != nil {
		t.Fatal(err)
	}
	for _, clip := range clips {
		if err := ch.Play(clip); err != nil {
			t.Fatal(err)
		}
		for i := 0; i < int(secs*60); i++ {
			ch.Update(1.0 / 60)
			h.Follower.Sync()
			w.Step()
			head := h.Head()
			pos, rot, _ := scene.NodePose(hs.Head.Bone)
			r.center = math.Max(r.center, float64(head.Center.Sub(pos.Add(rot.Rotate(hs.Head.Offset))).Len()))
			hipsAt, _, _ := scene.NodePose(hips)
			_, rootRot, _ := scene.NodePose(ch.Root)
			up := rootRot.Rotate(mgl32.Vec3{0, 1, 0})
			for k := 0; k < n; k++ {
				p := w.Position(first + verlet3d.Particle(k))
				if !vecmath.Finite(p) {
					t.Fatalf("%s frame %d: hair particle %d at %v", clip, i, k, p)
				}
				r.inside = math.Max(r.inside, float64(head.Radius-p.Sub(head.Center).Len()))
				r.aboveHips = math.Min(r.aboveHips, float64(p.Sub(hipsAt).Dot(up)))
			}
			for k := 0; k < h.NumStrands(); k++ {
				b, _ := h.Strand(k)
				p := w.Position(b)
				r.root = math.Max(r.root, float64(p.Sub(head.ToWorld(h.RestLocal(k, 0))).Len()))
				r.surface = math.Max(r.surface, math.Abs(float64(p.Sub(head.Center).Len()-head.Radius)))
			}
		}
	}
	if nr := w.Stats().NonFiniteResets; nr != 0 || h.NumRecovered() != 0 {
		t.Errorf("%d non-finite resets, %d recovered strands", nr, h.NumRecovered())
	}
	return hs, r
}

// checkHairRun checks the hair against the head sphere's reference: no
// vertex inside it, roots on the scalp, the head on its bone.
func checkHairRun(t *testing.T, hs scene.HairSettings, r hairRun) {
	t.Helper()
	t.Logf("head radius %.4g m at %v from the bone: deepest inside %.2g m, root off its scalp point %.2g m, off the sphere %.2g m, center off the bone %.2g m",
		hs.Head.Radius, hs.Head.Offset, r.inside, r.root, r.surface, r.center)
	if r.inside > 1e-4 {
		t.Errorf("a hair vertex went %.3g m inside the fitted head sphere, want <= 1e-4", r.inside)
	}
	// The fitted length ends the hair at the neck at the sides (lower at
	// the nape, where the scalp reaches below the sphere's equator):
	// walking and running, it does not bury the character. (The robot's
	// head, 3.42 m of hair long before the length stopped at the neck,
	// hid it to the knees.)
	t.Logf("lowest hair vertex %.3g m above the hips (hair length %.3g m)", r.aboveHips, hs.Hair.Length)
	if r.aboveHips < 0 {
		t.Errorf("a hair vertex hung %.3g m below the hips (hair length %.3g m), want none", -r.aboveHips, hs.Hair.Length)
	}
	// Float32 rounding grows with the distance from the origin (the
	// robot's head is 3.5 m up): 1e-4 m of a 1.5 m sphere is 7e-5.
	tol := 1e-4 * math.Max(1, float64(hs.Head.Radius))
	if r.root > tol || r.surface > tol || r.center > tol {
		t.Errorf("roots %.3g m off their scalp points and %.3g m off the sphere, head center %.3g m off its bone, want <= %.2g", r.root, r.surface, r.center, tol)
	}
}

// The fixtures' head is a 0.2 x 0.22 x 0.2 m box on the Head bone (in
// centimeters under a 0.01 armature, or in meters): the fitted sphere is
// the box's circumscribed sphere, in meters either way.
func TestHairFitFixtures(t *testing.T) {
	dir := t.TempDir()
	for _, f := range rigFixtures {
		t.Run(f.name, func(t *testing.T) {
			ch, err := Load(writeRig(t, dir, f))
			if err != nil {
				t.Fatal(err)
			}
			hs, r := runCharacterHair(t, ch, []string{"walk", "run"}, 10)
			want := float32(math.Sqrt(0.1*0.1 + 0.11*0.11 + 0.1*0.1))
			if d := hs.Head.Radius - want; d > 1e-4 || d < -1e-4 {
				t.Errorf("head radius %.5g m, want %.5g m (the box's circumscribed sphere)", hs.Head.Radius, want)
			}
			if hs.Head.Offset.Sub(mgl32.Vec3{0, 0.11, 0}).Len() > 1e-4 {
				t.Errorf("head center %v m from the bone, want (0, 0.11, 0)", hs.Head.Offset)
			}
			// The default style scaled to the head would hang 0.39 m, past
			// the shoulders: the length stops at the neck, 0.21 m below the
			// head's center (1.70 m against 1.49 m).
			if l := hs.Hair.Length; math.Abs(float64(l-0.21)) > 1e-4 {
				t.Errorf("hair length %.4g m, want 0.21 m (from the head's center down to the neck)", l)
			}
			if s := hs.Hair.Volume / hair.DefaultSettings().Volume; math.Abs(float64(s-want/0.1)) > 1e-3 {
				t.Errorf("hair volume scaled by %v, want the head's %v", s, want/0.1)
			}
			checkHairRun(t, hs, r)
			if !f.skinnedHead {
				return
			}
			// With the head nodding 20 degrees on its neck, the skinned
			// head's lower corners (60% on the head, 40% on the neck) are
			// placed by the head alone, as the rigid head of the first
			// fixture is, so both fit the same sphere (skinned with the
			// neck's share, those corners would sit 1.4 cm off the box).
			rigid, err := Load(writeRig(t, dir, rigFixtures[0]))
			if err != nil {
				t.Fatal(err)
			}
			ch, err = Load(writeRig(t, dir, f))
			if err != nil {
				t.Fatal(err)
			}
			for _, c := range []*Character{rigid, ch} {
				hb, err := c.Bone("Head")
				if err != nil {
					t.Fatal(err)
				}
				hb.SetRotationX(0.35)
			}
			a, err := rigid.HeadSphere()
			if err != nil {
				t.Fatal(err)
			}
			b, err := ch.HeadSphere()
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("nodding: skinned head %v m from the bone, radius %.6g m; rigid %v, %.6g m", b.Offset, b.Radius, a.Offset, a.Radius)
			if a.Offset.Sub(b.Offset).Len() > 1e-4 || math.Abs(float64(a.Radius-b.Radius)) > 1e-4 {
				t.Errorf("nodding, the skinned head fits %v m from the bone, radius %.5g m; the rigid head %v, %.5g m", b.Offset, b.Radius, a.Offset, a.Radius)
			}
		})
	}
}

// The robot's head is a barrel of rigid meshes under its Head bone, whose
// world scale is 100: the fitted sphere encloses them, in meters.
func TestHairFitRobot(t *testing.T) {
	ch, err := Load(robotPath(t))
	if err != nil {
		t.Fatal(err)
	}
	hs, err := ch.HairSettings(HairFit{})
	if err != nil {
		t.Fatal(err)
	}
	// Every vertex of the head is inside the sphere, and the sphere is not
	// much larger than the head (the farthest vertex touches it).
	head := hs.Head.Head()
	var far float32
	n := 0
	ch.headPoints(hs.Head.Bone, func(p mgl32.Vec3) {
		n++
		far = max(far, p.Sub(head.Center).Len())
	})
	t.Logf("%d head vertices, head sphere radius %.4g m centered %v m from the bone", n, hs.Head.Radius, hs.Head.Offset)
	if n < 100 {
		t.Fatalf("%d head vertices, want the robot's head meshes", n)
	}
	if far > hs.Head.Radius*(1+1e-5) || far < 0.99*hs.Head.Radius {
		t.Errorf("farthest head vertex %.5g m from the center, radius %.5g m: want it on the sphere", far, hs.Head.Radius)
	}
	if hs.Head.Radius < 1 || hs.Head.Radius > 2 || hs.Head.Offset[1] < 0.3 {
		t.Errorf("head radius %.4g m, %v m from the bone: want the robot's 2.6 m wide head above its bone", hs.Head.Radius, hs.Head.Offset)
	}
	hs2, r := runCharacterHair(t, ch, []string{"Walking", "Running"}, 10)
	checkHairRun(t, hs2, r)
}

func TestNewHeadHairErrors(t *testing.T) {
	dir := t.TempDir()
	ch, err := Load(writeRig(t, dir, rigFixtures[0]))
	if err != nil {
		t.Fatal(err)
	}
	w, err := verlet3d.NewWorld(hair.WorldConfig())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(w.Close)
	if _, err := ch.HairSettings(HairFit{Bone: "Tail"}); err == nil {
		t.Error("HairFit.Bone Tail: no error")
	}
	good, err := ch.HairSettings(HairFit{})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		edit func(*scene.HairSettings)
	}{
		{"radius 0", func(s *scene.HairSettings) { s.Head.Radius = 0 }},
		{"NaN offset", func(s *scene.HairSettings) { s.Head.Offset[1] = float32(math.NaN()) }},
		{"NaN turn", func(s *scene.HairSettings) { s.Head.Turn = mgl32.Quat{W: float32(math.NaN())} }},
		{"no strands", func(s *scene.HairSettings) { s.Hair.Strands = 0 }},
	} {
		s := good
		c.edit(&s)
		if _, err := scene.NewHeadHair(w, s); err == nil {
			t.Errorf("%s: no error", c.name)
		} else {
			t.Logf("%s: %v", c.name, err)
		}
		if w.NumParticles() != 0 {
			t.Fatalf("%s: %d particles left in the World", c.name, w.NumParticles())
		}
	}
}
