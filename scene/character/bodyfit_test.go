package character

import (
	"fmt"
	"math"
	"testing"

	"github.com/drape3d/drape/internal/vecmath"
	"github.com/drape3d/drape/scene"
	"github.com/drape3d/drape/verlet3d"
	"github.com/go-gl/mathgl/mgl32"
)

// hullSlab is the part of the Xbot-like fixture's body between two rings,
// in bind pose, carried by bone: the convex hull of the two rings, whose
// cross-section between them is (within the rings' polygon, a few tenths
// of a millimeter) the ellipse interpolated between theirs. Testing
// against the ellipse counts a point as inside a little early: the test
// is conservative.
type hullSlab struct {
	lo, hi xbotRing
	bone   int
}

// xbotHull returns the slabs of the hips, the back up to the shoulders and
// the thighs, each in the frame of its lower ring's main bone (a thigh's
// slabs in the thigh's).
func xbotHull() []hullSlab {
	var out []hullSlab
	chains := xbotChains()
	torso := chains[0]
	for i := 0; i+1 < len(torso) && torso[i+1].y <= 1.50; i++ {
		out = append(out, hullSlab{torso[i], torso[i+1], torso[i].bone})
	}
	for _, leg := range []int{1, 3} {
		c := chains[leg]
		for i := 0; i+1 < len(c) && c[i+1].y >= 0.58; i++ {
			out = append(out, hullSlab{c[i], c[i+1], c[i].bone})
		}
	}
	return out
}

// hullDepth returns how deep p (world) lies inside the body's bind-pose
// hull, each slab moved with its bone as it stands now, in meters (0 when
// outside), and which bone's slab holds it deepest.
func hullDepth(slabs []hullSlab, bones []mgl32.Mat4, p mgl32.Vec3) (float32, int) {
	var deep float32
	at := -1
	for _, s := range slabs {
		q := bones[s.bone].Mul4x1(p.Vec4(1)).Vec3()
		t := (q[1] - s.lo.y) / (s.hi.y - s.lo.y)
		if !(t >= 0 && t <= 1) {
			continue
		}
		lerp := func(a, b float32) float32 { return a + t*(b-a) }
		x, z := lerp(s.lo.x, s.hi.x), lerp(s.lo.z, s.hi.z)
		a, b := lerp(s.lo.a, s.hi.a), lerp(s.lo.b, s.hi.b)
		e := float32(math.Hypot(float64((q[0]-x)/a), float64((q[2]-z)/b)))
		if d := (1 - e) * min(a, b); d > deep {
			deep, at = d, s.bone
		}
	}
	return deep, at
}

// xbotWalk walks the Xbot-like fixture for secs seconds at 60 frames a
// second in the cape fit fits, with the README's cape settings, and
// returns the deepest a cape particle went into the body's hull (sampled
// every frame), the bone whose slab held it, and the cape's own
// Penetration (against its capsules).
func xbotWalk(t *testing.T, ch *Character, fit CapeFit, secs float64) (deep float32, bone string, pen float32, s scene.CapeSettings) {
	t.Helper()
	w, err := verlet3d.NewWorld(verlet3d.DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(w.Close)
	s, err = ch.CapeSettings(fit)
	if err != nil {
		t.Fatal(err)
	}
	s.CarryLinear, s.CarryAngular, s.MaxLag = 0.3, 0.3, 1.5
	cape, err := scene.NewCape(w, s)
	if err != nil {
		t.Fatal(err)
	}
	slabs := xbotHull()
	// bind[i]·inverse(world matrix of bone i) takes a point where the bone
	// is now to where it was bound.
	bind := make([]mgl32.Mat4, len(xbotBones))
	for i := range xbotBones {
		p := mgl32.Vec3{}
		for j := i; j >= 0; j = xbotBones[j].parent {
			p = p.Add(xbotBones[j].t)
		}
		bind[i] = mgl32.Translate3D(p[0], p[1], p[2]).Mul4(mgl32.Scale3D(0.01, 0.01, 0.01))
	}
	toBind := make([]mgl32.Mat4, len(xbotBones))
	at := -1
	for i := 0; i < int(secs*60); i++ {
		ch.Update(1.0 / 60)
		cape.Sync()
		w.Step()
		for j, b := range xbotBones {
			n, err := ch.Bone("mixamorig:" + b.name)
			if err != nil {
				t.Fatal(err)
			}
			toBind[j] = bind[j].Mul4(mgl32.Mat4(n.MatrixWorld()).Inv())
		}
		for _, p := range cape.Particles() {
			x := w.Position(p)
			if !vecmath.Finite(x) {
				t.Fatalf("frame %d: cape particle %d at %v", i, p, x)
			}
			if d, b := hullDepth(slabs, toBind, x); d > deep {
				deep, at = d, b
			}
		}
		pen = max(pen, cape.Penetration())
	}
	if at >= 0 {
		bone = xbotBones[at].name
	}
	return deep, bone, pen, s
}

func capeRadii(s scene.CapeSettings) string {
	out := ""
	for _, b := range s.Body {
		out += fmt.Sprintf(" %s %.3f", b.Node.Name(), b.Radius)
	}
	return out
}

// On the Xbot-like fixture (a Mixamo armature at 0.01 with a skinned body
// wider at the hips than its skeleton suggests) the fitted capsules keep
// the cape out of the body's bind-pose hull over a 10 s walk; the
// skeleton's radii (the fit of a model without skin weights, and what
// CapeSettings fitted to every model before) let the buttocks and thighs
// through.
func TestBodyFitXbot(t *testing.T) {
	dir := t.TempDir()
	ch, err := Load(writeXbot(t, dir))
	if err != nil {
		t.Fatal(err)
	}
	deep, bone, pen, s := xbotWalk(t, ch, CapeFit{}, 10)
	t.Logf("fitted:%s; standoff %.3f m, width %.3f m: deepest in the body hull %.4f m (%s), in a capsule %.4f m", capeRadii(s), s.Standoff, s.Width, deep, bone, pen)
	// Every capsule covers the vertices its bone carries.
	for _, b := range s.Body {
		bn, err := ch.Bone(b.Node.Name()[:len(b.Node.Name())-len(" (mount)")])
		if err != nil {
			t.Fatal(err)
		}
		mt := ch.mount(bn, mgl32.QuatIdent())
		n, out := 0, float32(0)
		ch.boneVertices(bn, func(w mgl32.Vec3) {
			l := mt.Local(w)
			d := segmentDistance(mgl32.Vec3{l.X, l.Y, l.Z}, mgl32.Vec3{b.A.X, b.A.Y, b.A.Z}, mgl32.Vec3{b.B.X, b.B.Y, b.B.Z})
			n++
			out = max(out, d-b.Radius)
		})
		if n < minBodyVertices || out > 1e-4 {
			t.Errorf("%s: %d vertices, the farthest %.4f m outside its capsule (radius %.3f m)", b.Node.Name(), n, out, b.Radius)
		}
	}
	if deep > 1e-3 {
		t.Errorf("a cape particle went %.4f m into the body's hull (%s), want <= 1 mm", deep, bone)
	}
	if pen > 1e-3 {
		t.Errorf("cape %.4f m inside a capsule, want <= 1 mm", pen)
	}

	// The skeleton's radii: 36% of the 0.29 m span on the spine, 40% of
	// that on the thighs.
	ch, err = Load(writeXbot(t, dir))
	if err != nil {
		t.Fatal(err)
	}
	torso := float32(0.36 * 0.29)
	var body []BodyBone
	for _, n := range []string{"Hips", "Spine", "Spine1", "Spine2"} {
		body = append(body, BodyBone{"mixamorig:" + n, torso})
	}
	body = append(body, BodyBone{"mixamorig:LeftUpLeg", 0.4 * torso}, BodyBone{"mixamorig:RightUpLeg", 0.4 * torso})
	deep0, bone0, pen0, s0 := xbotWalk(t, ch, CapeFit{Body: body}, 10)
	t.Logf("skeleton's radii:%s; standoff %.3f m: deepest in the body hull %.4f m (%s), in a capsule %.4f m", capeRadii(s0), s0.Standoff, deep0, bone0, pen0)
	if deep0 < 0.01 {
		t.Errorf("with the skeleton's radii the cape went only %.4f m into the body; the fixture no longer shows what the fit is for", deep0)
	}
}
