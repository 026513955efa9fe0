package scene_test

import (
	"testing"

	"github.com/drape3d/drape/cloth"
	"github.com/drape3d/drape/hair"
	"github.com/drape3d/drape/scene"
	"github.com/drape3d/drape/verlet3d"
	"github.com/g3n/engine/core"
	"github.com/go-gl/mathgl/mgl32"
)

// Every API that takes a rotation reads the zero quaternion as the
// identity (verlet3d's package doc, "Rotations"): built with the zero
// quaternion, each gives exactly what it gives with mgl32.QuatIdent().
func TestZeroQuaternionIsIdentity(t *testing.T) {
	// Each case builds something with rotation q and returns numbers that
	// tell what it made.
	for _, c := range []struct {
		name  string
		build func(t *testing.T, q mgl32.Quat) []float32
	}{
		{"verlet3d.NewBox", func(t *testing.T, q mgl32.Quat) []float32 {
			b, err := verlet3d.NewBox(mgl32.Vec3{1, 2, 3}, mgl32.Vec3{0.5, 0.2, 0.3}, q)
			if err != nil {
				t.Fatal(err)
			}
			p, n := b.Closest(mgl32.Vec3{2, 2.5, 3.1})
			return flat(b.Rotation.V, mgl32.Vec3{b.Rotation.W}, p, n)
		}},
		{"hair.Head.Rotation", func(t *testing.T, q mgl32.Quat) []float32 {
			w := newRotWorld(t, hair.WorldConfig())
			head := hair.DefaultHead()
			head.Center, head.Rotation = mgl32.Vec3{0, 1.6, 0}, q
			s := hair.DefaultSettings()
			s.Strands = 20
			if _, err := hair.New(w, head, s); err != nil {
				t.Fatal(err)
			}
			w.Step()
			return flat(w.Positions()...)
		}},
		{"cloth.CapeSettings poses", func(t *testing.T, q mgl32.Quat) []float32 {
			w := newRotWorld(t, verlet3d.DefaultConfig())
			s := cloth.DefaultCapeSettings()
			s.Reference = verlet3d.Pose{Position: mgl32.Vec3{0, 1, 0}, Rotation: q}
			for _, x := range []float32{0.18, 0, -0.18} {
				s.Anchors = append(s.Anchors, verlet3d.Pose{Position: mgl32.Vec3{x, 1.5, -0.15}, Rotation: q})
			}
			cape, err := cloth.NewCape(w, s)
			if err != nil {
				t.Fatal(err)
			}
			cape.SetPose(s.Reference, s.Anchors, nil)
			w.Step()
			return append(flat(w.Positions()...), cape.PinError())
		}},
		{"scene.FollowHead turn", func(t *testing.T, q mgl32.Quat) []float32 {
			w := newRotWorld(t, hair.WorldConfig())
			s := hair.DefaultSettings()
			s.Strands = 20
			h, err := hair.New(w, hair.DefaultHead(), s)
			if err != nil {
				t.Fatal(err)
			}
			bone := core.NewNode()
			bone.SetPosition(0, 1.6, 0)
			bone.SetRotationY(0.4)
			bone.UpdateMatrixWorld()
			f, err := scene.FollowHead(h, bone, mgl32.Vec3{0, 0.05, 0}, q)
			if err != nil {
				t.Fatal(err)
			}
			c, r := f.Pose()
			return flat(c, r.V, mgl32.Vec3{r.W})
		}},
		{"scene.HeadSphere.Turn", func(t *testing.T, q mgl32.Quat) []float32 {
			bone := core.NewNode()
			bone.SetRotationX(0.3)
			bone.UpdateMatrixWorld()
			hd := scene.HeadSphere{Bone: bone, Offset: mgl32.Vec3{0, 0.1, 0}, Turn: q, Radius: 0.1}.Head()
			return flat(hd.Center, hd.Rotation.V, mgl32.Vec3{hd.Rotation.W})
		}},
		{"scene.NewMount turn", func(t *testing.T, q mgl32.Quat) []float32 {
			root, bone := core.NewNode(), core.NewNode()
			root.Add(bone)
			bone.SetPosition(0.1, 1.4, 0)
			bone.SetRotationZ(0.7)
			root.UpdateMatrixWorld()
			m := scene.NewMount(root, bone, q)
			mw := m.Node.MatrixWorld()
			return mw[:]
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			want := c.build(t, mgl32.QuatIdent())
			got := c.build(t, mgl32.Quat{})
			if len(got) != len(want) {
				t.Fatalf("zero quaternion: %d numbers, identity %d", len(got), len(want))
			}
			for i := range want {
				if got[i] != want[i] {
					t.Fatalf("zero quaternion: number %d is %v, with the identity %v", i, got[i], want[i])
				}
			}
		})
	}
}

func newRotWorld(t *testing.T, cfg verlet3d.Config) *verlet3d.World {
	w, err := verlet3d.NewWorld(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(w.Close)
	return w
}

// flat lists the components of vs.
func flat(vs ...mgl32.Vec3) []float32 {
	var out []float32
	for _, v := range vs {
		out = append(out, v[:]...)
	}
	return out
}
