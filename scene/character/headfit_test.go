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
	inside float64 // deepest a hair particle went inside the fitted sphere, m
	root   float64 // farthest a root strayed from its scalp point, m
	center float64 // farthest the head center strayed from the bone + offset, m
	// surface is the farthest a root lay from the scalp: the sphere, or
	// Settings.Scalp where it stands above the sphere, m.
	surface float64
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
				r.surface = math.Max(r.surface, math.Abs(float64(p.Sub(head.Center).Len()-scalpAt(hs.Hair, head, p))))
			}
		}
	}
	if nr := w.Stats().NonFiniteResets; nr != 0 || h.NumRecovered() != 0 {
		t.Errorf("%d non-finite resets, %d recovered strands", nr, h.NumRecovered())
	}
	return hs, r
}

// scalpAt returns the scalp's distance from the head's center toward p:
// the head's radius, or s.Scalp's distance where it is larger (as package
// hair places roots).
func scalpAt(s hair.Settings, head hair.Head, p mgl32.Vec3) float32 {
	if s.Scalp == nil {
		return head.Radius
	}
	d := s.Scalp(head.Rotation.Inverse().Rotate(p.Sub(head.Center)).Normalize())
	if !(d > 0 && d <= 100) {
		return head.Radius
	}
	return max(d, head.Radius)
}

// checkHairRun checks the hair against the head sphere's reference: no
// vertex inside it, roots on the scalp (the sphere, or the fitted scalp
// above it), the head on its bone.
func checkHairRun(t *testing.T, hs scene.HairSettings, r hairRun) {
	t.Helper()
	t.Logf("head radius %.4g m at %v from the bone: deepest inside %.2g m, root off its scalp point %.2g m, off the scalp %.2g m, center off the bone %.2g m",
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
		t.Errorf("roots %.3g m off their scalp points and %.3g m off the scalp, head center %.3g m off its bone, want <= %.2g", r.root, r.surface, r.center, tol)
	}
}

// The fixtures' head is a 0.2 x 0.22 x 0.2 m box on the Head bone (in
// centimeters under a 0.01 armature, or in meters): the fitted sphere is
// the box's inscribed sphere at its middle (its walls, 0.1 m from the
// middle, bound every sphere inside the box: the highest of them), in
// meters either way, and the roots sit on the box's faces.
func TestHairFitFixtures(t *testing.T) {
	dir := t.TempDir()
	for _, f := range rigFixtures {
		t.Run(f.name, func(t *testing.T) {
			ch, err := Load(writeRig(t, dir, f))
			if err != nil {
				t.Fatal(err)
			}
			hs, r := runCharacterHair(t, ch, []string{"walk", "run"}, 10)
			if d := hs.Head.Radius - 0.1; d > 1e-3 || d < -1e-4 {
				t.Errorf("head radius %.5g m, want 0.1 m (the box's inscribed sphere)", hs.Head.Radius)
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
			// The style is scaled by the head's size: the sphere that
			// encloses the box.
			want := float32(math.Sqrt(0.1*0.1 + 0.11*0.11 + 0.1*0.1))
			if s := hs.Hair.Volume / hair.DefaultSettings().Volume; math.Abs(float64(s-want/0.1)) > 1e-3 {
				t.Errorf("hair volume scaled by %v, want the head's %v", s, want/0.1)
			}
			if far, _ := rootsOffMesh(t, ch, hs); far > 1e-4 {
				t.Errorf("a root %.3g m from the head's box, want <= 1e-4", far)
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
// world scale is 100, with a flat top, a low dome and a button on it: the
// fitted sphere sits inside it, in meters, and the roots on its mesh. The
// sphere that encloses the head (the fit before the scalp) stood up to
// 0.74 m above the top and floated the hair there.
func TestHairFitRobot(t *testing.T) {
	ch, err := Load(robotPath(t))
	if err != nil {
		t.Fatal(err)
	}
	hs, err := ch.HairSettings(HairFit{})
	if err != nil {
		t.Fatal(err)
	}
	head := hs.Head.Head()
	n := 0
	var far float32
	lo, hi := mgl32.Vec3{1e9, 1e9, 1e9}, mgl32.Vec3{-1e9, -1e9, -1e9}
	inv := head.Rotation.Inverse()
	ch.headPoints(hs.Head.Bone, func(p mgl32.Vec3) {
		n++
		q := inv.Rotate(p.Sub(hs.Head.Head().Center))
		for i := range q {
			lo[i], hi[i] = min(lo[i], q[i]), max(hi[i], q[i])
		}
	})
	mid := lo.Add(hi).Mul(0.5)
	ch.headPoints(hs.Head.Bone, func(p mgl32.Vec3) {
		far = max(far, inv.Rotate(p.Sub(head.Center)).Sub(mid).Len())
	})
	t.Logf("%d head vertices, head sphere radius %.4g m centered %v m from the bone (the head's box: %v to %v m around the center; the enclosing sphere %.4g m)",
		n, hs.Head.Radius, hs.Head.Offset, lo, hi, far)
	if n < 100 {
		t.Fatalf("%d head vertices, want the robot's head meshes", n)
	}
	if hs.Head.Radius < 0.7 || hs.Head.Radius > 1.5 || hs.Head.Offset[1] < 0.2 {
		t.Errorf("head radius %.4g m, %v m from the bone: want a sphere inside the robot's 2.9 m wide, 1.7 m tall head, above its bone", hs.Head.Radius, hs.Head.Offset)
	}
	worst, mean := rootsOffMesh(t, ch, hs)
	t.Logf("fitted: roots off the head mesh: farthest %.4f m, mean %.4f m", worst, mean)
	if worst > 0.01 {
		t.Errorf("a root %.4f m off the head mesh, want <= 0.01 m", worst)
	}
	// The enclosing sphere, as fitted before: its roots float.
	old := hs
	old.Hair.Scalp = nil
	old.Head.Radius = far
	old.Head.Offset = hs.Head.Offset.Add(hs.Head.Turn.Rotate(mid))
	w0, m0 := rootsOffMesh(t, ch, old)
	t.Logf("enclosing sphere (radius %.4g m): roots off the head mesh: farthest %.4f m, mean %.4f m", far, w0, m0)

	hs2, r := runCharacterHair(t, ch, []string{"Walking", "Running"}, 10)
	checkHairRun(t, hs2, r)
}

// rootsOffMesh grows hs's hair on ch as it stands and returns the
// farthest and the mean distance of its roots from the head's mesh (its
// triangles, headTriangles), in meters.
func rootsOffMesh(t *testing.T, ch *Character, hs scene.HairSettings) (far, mean float64) {
	t.Helper()
	ch.Update(0)
	w, err := verlet3d.NewWorld(hair.WorldConfig())
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	h, err := scene.NewHeadHair(w, hs)
	if err != nil {
		t.Fatal(err)
	}
	var tris [][3]mgl32.Vec3
	ch.headTriangles(hs.Head.Bone, func(a, b, c mgl32.Vec3) { tris = append(tris, [3]mgl32.Vec3{a, b, c}) })
	if len(tris) == 0 {
		t.Fatal("no head triangles")
	}
	for k := 0; k < h.NumStrands(); k++ {
		root, _ := h.Strand(k)
		p := w.Position(root)
		d := float32(math.Inf(1))
		for _, tr := range tris {
			d = min(d, p.Sub(closestOnTriangle(p, tr[0], tr[1], tr[2])).Len())
		}
		far = math.Max(far, float64(d))
		mean += float64(d)
	}
	return far, mean / float64(h.NumStrands())
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

// closestOnTriangle returns the point of triangle abc closest to p
// (Ericson, Real-Time Collision Detection, 5.1.5).
func closestOnTriangle(p, a, b, c mgl32.Vec3) mgl32.Vec3 {
	ab, ac, ap := b.Sub(a), c.Sub(a), p.Sub(a)
	d1, d2 := ab.Dot(ap), ac.Dot(ap)
	if d1 <= 0 && d2 <= 0 {
		return a
	}
	bp := p.Sub(b)
	d3, d4 := ab.Dot(bp), ac.Dot(bp)
	if d3 >= 0 && d4 <= d3 {
		return b
	}
	vc := d1*d4 - d3*d2
	if vc <= 0 && d1 >= 0 && d3 <= 0 {
		return a.Add(ab.Mul(d1 / (d1 - d3)))
	}
	cp := p.Sub(c)
	d5, d6 := ab.Dot(cp), ac.Dot(cp)
	if d6 >= 0 && d5 <= d6 {
		return c
	}
	vb := d5*d2 - d1*d6
	if vb <= 0 && d2 >= 0 && d6 <= 0 {
		return a.Add(ac.Mul(d2 / (d2 - d6)))
	}
	va := d3*d6 - d5*d4
	if va <= 0 && d4-d3 >= 0 && d5-d6 >= 0 {
		return b.Add(c.Sub(b).Mul((d4 - d3) / ((d4 - d3) + (d5 - d6))))
	}
	den := 1 / (va + vb + vc)
	return a.Add(ab.Mul(vb * den)).Add(ac.Mul(vc * den))
}
