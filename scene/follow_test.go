package scene

import (
	"github.com/drape3d/drape/internal/vecmath"
	"math"
	"strings"
	"testing"

	"github.com/drape3d/drape/verlet3d"
	"github.com/g3n/engine/core"
	"github.com/g3n/engine/graphic"
	"github.com/g3n/engine/math32"
	"github.com/go-gl/mathgl/mgl32"
)

func newTestWorld(t testing.TB, cfg func(*verlet3d.Config)) *verlet3d.World {
	t.Helper()
	c := verlet3d.DefaultConfig()
	if cfg != nil {
		cfg(&c)
	}
	w, err := verlet3d.NewWorld(c)
	if err != nil {
		t.Fatal(err)
	}
	return w
}

// A pin on a child of a spinning, translating parent sits exactly on its
// anchor after every step.
func TestFollowerPinTracksNode(t *testing.T) {
	w := newTestWorld(t, nil)
	root := core.NewNode()
	arm := core.NewNode()
	arm.SetPosition(0.5, 0, 0)
	root.Add(arm)
	root.UpdateMatrixWorld()

	f := NewFollower(w)
	p, _ := w.AddParticle(mgl32.Vec3{0, 0, 0}, 1)
	q, _ := w.AddParticle(mgl32.Vec3{0, -0.3, 0}, 1)
	if _, err := w.AddLink(p, q, verlet3d.LinkSettings{}); err != nil {
		t.Fatal(err)
	}
	if err := f.Pin(p, Anchor{Node: arm, Offset: math32.Vector3{X: 0, Y: 0.1, Z: 0}}); err != nil {
		t.Fatal(err)
	}
	var worst float32
	for i := 0; i < 240; i++ {
		tm := float32(i) / 60
		root.SetPosition(float32(tm*2), float32(math.Sin(float64(tm*5))), 0)
		root.SetRotation(0, float32(tm*3), float32(0.3*tm))
		root.UpdateMatrixWorld()
		f.Sync()
		w.Step()
		if e := f.PinError(); e > worst {
			worst = e
		}
	}
	if worst > 1e-4 {
		t.Errorf("pin strayed %.2g m from its anchor, want <= 1e-4", worst)
	}
	// And the anchor really is where the node's transform puts it.
	var want math32.Vector3
	arm.WorldPosition(&want)
	got := w.Position(p)
	m := arm.MatrixWorld()
	off := nodePoint(&m, math32.Vector3{X: 0, Y: 0.1, Z: 0})
	if vecmath.Len(got.Sub(off)) > 1e-4 || vecmath.Len(off.Sub(mgl32.Vec3{want.X, want.Y, want.Z})) > 0.1001 {
		t.Errorf("pin at %v, anchor at %v, node at %v", got, off, want)
	}
}

// Bind keeps the particle's current offset from the node.
func TestFollowerBind(t *testing.T) {
	w := newTestWorld(t, nil)
	n := core.NewNode()
	n.SetPosition(1, 2, 3)
	n.SetRotation(0, math.Pi/2, 0)
	n.UpdateMatrixWorld()
	f := NewFollower(w)
	p, _ := w.AddParticle(mgl32.Vec3{1, 2, 4}, 1) // the yaw turns local -X to world +Z
	if err := f.Bind(p, n); err != nil {
		t.Fatal(err)
	}
	n.SetPosition(0, 0, 0)
	n.SetRotation(0, 0, 0)
	n.UpdateMatrixWorld()
	f.Sync()
	w.Step()
	if got, want := w.Position(p), (mgl32.Vec3{-1, 0, 0}); vecmath.Len(got.Sub(want)) > 1e-5 {
		t.Errorf("bound particle at %v, want %v", got, want)
	}
}

// Colliders follow their node; between frames they sweep through the
// substeps, so a fast sphere pushes a particle ahead instead of jumping
// over it.
func TestFollowerColliderSweeps(t *testing.T) {
	w := newTestWorld(t, func(c *verlet3d.Config) {
		c.Gravity = mgl32.Vec3{}
		c.Substeps = 4
		c.Damping = 0
	})
	hand := core.NewNode()
	hand.SetPosition(-0.3, 0, 0)
	hand.UpdateMatrixWorld()
	f := NewFollower(w)
	sp, err := f.AddSphere(hand, math32.Vector3{}, 0.2, verlet3d.ContactSettings{})
	if err != nil {
		t.Fatal(err)
	}
	p, _ := w.AddParticle(mgl32.Vec3{0, 0, 0}, 1)
	hand.SetPosition(0.3, 0, 0) // 0.6 m in one step: through the particle
	hand.UpdateMatrixWorld()
	f.Sync()
	w.Step()
	if vecmath.Len(sp.Center.Sub(mgl32.Vec3{0.3, 0, 0})) > 1e-6 {
		t.Fatalf("sphere center %v after the step, want (0.3, 0, 0)", sp.Center)
	}
	if x := w.Position(p)[0]; x < 0.5-1e-4 {
		t.Errorf("particle at x = %.3f, want pushed ahead of the sphere to >= 0.5", x)
	}

	// A capsule on a scaled, rotated node: its end points scale with the
	// node, its radius is meters whatever the node's scale.
	leg := core.NewNode()
	leg.SetPosition(2, 0, 0)
	leg.SetRotation(0, 0, math.Pi/2) // local -Y points along world +X
	leg.SetScale(2, 2, 2)
	leg.UpdateMatrixWorld()
	c, err := f.AddCapsule(leg, math32.Vector3{}, math32.Vector3{X: 0, Y: -0.5, Z: 0}, 0.1, verlet3d.ContactSettings{})
	if err != nil {
		t.Fatal(err)
	}
	if vecmath.Len(c.A.Sub(mgl32.Vec3{2, 0, 0})) > 1e-5 || vecmath.Len(c.B.Sub(mgl32.Vec3{3, 0, 0})) > 1e-5 || math.Abs(float64(c.Radius-0.1)) > 1e-6 {
		t.Errorf("capsule %v-%v r %v, want (2,0,0)-(3,0,0) r 0.1", c.A, c.B, c.Radius)
	}
}

func TestFollowerSyncAllocs(t *testing.T) {
	w := newTestWorld(t, nil)
	n := core.NewNode()
	f := NewFollower(w)
	for i := 0; i < 10; i++ {
		p, _ := w.AddParticle(mgl32.Vec3{float32(i), 0, 0}, 1)
		if err := f.Bind(p, n); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := f.AddCapsule(n, math32.Vector3{}, math32.Vector3{X: 0, Y: 1, Z: 0}, 0.1, verlet3d.ContactSettings{}); err != nil {
		t.Fatal(err)
	}
	if _, err := f.AddSphere(n, math32.Vector3{}, 0.1, verlet3d.ContactSettings{}); err != nil {
		t.Fatal(err)
	}
	x := float32(0)
	if a := testing.AllocsPerRun(100, func() {
		x += 0.01
		n.SetPosition(x, 0, 0)
		n.UpdateMatrixWorld()
		f.Sync()
		w.Step()
	}); a != 0 {
		t.Errorf("Sync + Step allocates %v times, want 0", a)
	}
}

// Pins on the bones of a skeleton made through g3n's API.
func TestFollowerSkeletonBones(t *testing.T) {
	root := core.NewNode()
	hips := core.NewNode()
	hips.SetName("mixamorig:Hips")
	hips.SetPosition(0, 1, 0)
	root.Add(hips)
	neck := core.NewNode()
	neck.SetName("mixamorig:Neck")
	neck.SetPosition(0, 0.5, 0)
	hips.Add(neck)
	sk := graphic.NewSkeleton()
	sk.AddBone(hips, nil)
	sk.AddBone(neck, nil)
	root.UpdateMatrixWorld()

	b, err := FindBone(sk, "Neck")
	if err != nil || b != neck {
		t.Fatalf("FindBone(Neck) = %v, %v; want the neck bone", b, err)
	}
	w := newTestWorld(t, nil)
	f := NewFollower(w)
	p, _ := w.AddParticle(mgl32.Vec3{}, 1)
	if err := f.Pin(p, Anchor{Node: b}); err != nil {
		t.Fatal(err)
	}
	hips.SetRotation(0.5, 0, 0)
	root.UpdateMatrixWorld()
	f.Sync()
	w.Step()
	var want math32.Vector3
	neck.WorldPosition(&want)
	if d := vecmath.Len(w.Position(p).Sub(mgl32.Vec3{want.X, want.Y, want.Z})); d > 1e-5 {
		t.Errorf("pin %v from the bone, want <= 1e-5", d)
	}
}

func TestFollowerBadInput(t *testing.T) {
	w := newTestWorld(t, nil)
	f := NewFollower(w)
	n := core.NewNode()
	n.SetName("hips")
	p, _ := w.AddParticle(mgl32.Vec3{}, 1)
	sk := graphic.NewSkeleton()
	sk.AddBone(n, nil)
	nan := float32(math.NaN())
	tests := []struct {
		name string
		err  error
		want string
	}{
		{"nil node pin", f.Pin(p, Anchor{}), "Node is nil"},
		{"bad particle", f.Pin(99, Anchor{Node: n}), "particle 99"},
		{"NaN offset", f.Pin(p, Anchor{Node: n, Offset: math32.Vector3{X: nan}}), "Offset"},
		{"bad weight", f.PinBlend(p, Anchor{Node: n}, Anchor{Node: n}, 2), "weight = 2"},
		{"blend nil", f.PinBlend(p, Anchor{Node: n}, Anchor{}, 0.5), "second pin anchor.Node"},
		{"bind nil", f.Bind(p, nil), "node is nil"},
		{"sphere radius", second(f.AddSphere(n, math32.Vector3{}, 0, verlet3d.ContactSettings{})), "radius = 0"},
		{"capsule radius", second(f.AddCapsule(n, math32.Vector3{}, math32.Vector3{}, nan, verlet3d.ContactSettings{})), "radius = NaN"},
		{"capsule node", second(f.AddCapsule(nil, math32.Vector3{}, math32.Vector3{}, 1, verlet3d.ContactSettings{})), "node is nil"},
		{"unknown node", second(FindNode(n, "Neck")), `no node named "Neck" under "hips" (have hips)`},
		{"unknown bone", second(FindBone(sk, "Neck")), `no bone "Neck" (have hips)`},
		{"nil skeleton", second(FindBone(nil, "Neck")), "skeleton is nil"},
	}
	for _, tc := range tests {
		if tc.err == nil || !strings.Contains(tc.err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one containing %q", tc.name, tc.err, tc.want)
		}
	}
	if f.NumPins() != 0 {
		t.Errorf("%d pins after only bad input, want 0", f.NumPins())
	}
}

func second[T any](_ T, err error) error { return err }

// A radius documented in meters stays in meters under a scaled armature:
// a Mixamo-style 0.01 node with bones in centimeters, and a bone with a
// large world scale.
func TestColliderRadiusInMeters(t *testing.T) {
	for _, scale := range []float32{0.01, 1, 58} {
		w := newTestWorld(t, nil)
		root := core.NewNode()
		root.SetScale(scale, scale, scale)
		bone := core.NewNode()
		root.Add(bone)
		root.UpdateMatrixWorld()
		f := NewFollower(w)
		sp, err := f.AddSphere(bone, math32.Vector3{}, 0.13, verlet3d.ContactSettings{})
		if err != nil {
			t.Fatal(err)
		}
		cp, err := f.AddCapsule(bone, math32.Vector3{}, math32.Vector3{Y: 1}, 0.2, verlet3d.ContactSettings{})
		if err != nil {
			t.Fatal(err)
		}
		f.Sync()
		w.Step()
		if sp.Radius != 0.13 || cp.Radius != 0.2 {
			t.Errorf("scale %v: sphere radius %v m, capsule %v m, want 0.13 and 0.2", scale, sp.Radius, cp.Radius)
		}
		if l := vecmath.Len(cp.B.Sub(cp.A)); math.Abs(float64(l-scale)) > 1e-4*float64(scale) {
			t.Errorf("scale %v: capsule length %v m, want %v (node-local points do scale)", scale, l, scale)
		}
	}
}
