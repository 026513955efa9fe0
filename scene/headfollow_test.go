package scene

import (
	"github.com/drape3d/drape/internal/vecmath"
	"math"
	"testing"

	"github.com/drape3d/drape/hair"
	"github.com/drape3d/drape/verlet3d"
	"github.com/g3n/engine/core"
	"github.com/go-gl/mathgl/mgl32"
)

// Hair on a bone of a Mixamo-style armature (a 0.01-scaled root with the
// bones in centimeters) that walks at 1.5 m/s with a bob and turns: the
// head sphere keeps its radius in meters, sits at the offset from the bone
// in meters, the roots stay on the scalp and nothing goes non-finite.
func TestHairFollowsScaledBone(t *testing.T) {
	w, err := verlet3d.NewWorld(hair.WorldConfig())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(w.Close)
	s := hair.DefaultSettings()
	s.Strands = 300
	h, err := hair.New(w, hair.DefaultHead(), s)
	if err != nil {
		t.Fatal(err)
	}
	armature := core.NewNode()
	armature.SetScale(0.01, 0.01, 0.01)
	bone := core.NewNode()
	bone.SetPosition(0, 160, 0) // cm
	armature.Add(bone)
	armature.UpdateMatrixWorld()
	offset := mgl32.Vec3{0, 0.08, 0.01}
	f, err := FollowHead(h, bone, offset, mgl32.QuatIdent())
	if err != nil {
		t.Fatal(err)
	}
	d := NewDriver(w)
	f.Attach(d)
	var worstRoot, worstCenter float64
	for i := 0; i < 300; i++ {
		tm := float64(i+1) / 60
		armature.SetPosition(0, float32(0.025*math.Sin(float64(4*math.Pi*tm))), float32(1.5*tm))
		armature.SetRotationY(float32(0.5 * math.Sin(tm)))
		armature.UpdateMatrixWorld()
		d.Update(1.0 / 60)
		head := h.Head()
		pos, rot, _ := NodePose(bone)
		worstCenter = math.Max(worstCenter, float64(vecmath.Len(head.Center.Sub(pos.Add(vecmath.QuatRotate(rot, offset))))))
		for k := 0; k < h.NumStrands(); k++ {
			b, _ := h.Strand(k)
			worstRoot = math.Max(worstRoot, float64(vecmath.Len(w.Position(b).Sub(head.ToWorld(h.RestLocal(k, 0))))))
		}
	}
	if r := h.HeadCollider().Radius; r != hair.DefaultHead().Radius {
		t.Errorf("head radius %v m, want %v m whatever the bone's scale", r, hair.DefaultHead().Radius)
	}
	t.Logf("worst head center error %.2g m, root error %.2g m", worstCenter, worstRoot)
	if worstCenter > 1e-5 || worstRoot > 1e-5 {
		t.Errorf("head center off by %.3g m, a root off its scalp point by %.3g m", worstCenter, worstRoot)
	}
	if n := w.Stats().NonFiniteResets; n != 0 || h.NumRecovered() != 0 {
		t.Errorf("%d non-finite resets, %d recovered strands", n, h.NumRecovered())
	}
}
