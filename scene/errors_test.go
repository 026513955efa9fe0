package scene

import (
	"math"
	"testing"

	"github.com/drape3d/drape/cloth"
	"github.com/drape3d/drape/hair"
	"github.com/drape3d/drape/internal/checks"
	"github.com/drape3d/drape/verlet3d"
	"github.com/g3n/engine/core"
	"github.com/g3n/engine/math32"
	"github.com/go-gl/mathgl/mgl32"
)

// Errors name the type and field the caller wrote, and each package once:
// a scene.CapeSettings mistake reads "scene: CapeSettings.Length = 0 ...",
// not "cloth: CapeSettings.Length" (cloth's type, which builds the cape),
// and a wrapped error does not repeat its package.
func TestErrorsNameWhatTheCallerWrote(t *testing.T) {
	newWorld := func(cfg verlet3d.Config) *verlet3d.World {
		w, err := verlet3d.NewWorld(cfg)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(w.Close)
		return w
	}
	node := func(x float32) *core.Node {
		n := core.NewNode()
		n.SetPosition(x, 1.5, -0.1)
		n.UpdateMatrixWorld()
		return n
	}
	capeWith := func(edit func(*CapeSettings)) error {
		s := DefaultCapeSettings()
		s.Anchors = []Anchor{{Node: node(0.18)}, {Node: node(0)}, {Node: node(-0.18)}}
		edit(&s)
		_, err := NewCape(newWorld(verlet3d.DefaultConfig()), s)
		return err
	}
	nan := float32(math.NaN())

	for _, c := range []struct {
		name string
		err  func() error
		want string // the error starts with it
	}{
		{"CapeSettings literal without Back", func() error {
			return capeWith(func(s *CapeSettings) {
				*s = CapeSettings{Anchors: s.Anchors, CapeFabric: cloth.DefaultCapeFabric()}
			})
		}, "scene: CapeSettings.Back = {0 0 0}"},
		{"fabric field", func() error {
			return capeWith(func(s *CapeSettings) { s.Length = 0 })
		}, "scene: CapeSettings.Length = 0"},
		{"carry", func() error {
			return capeWith(func(s *CapeSettings) { s.CarryLinear = 2 })
		}, "scene: CapeSettings.CarryLinear = 2"},
		{"vertical Back", func() error {
			return capeWith(func(s *CapeSettings) { s.Back = math32.Vector3{Y: 1} })
		}, "scene: CapeSettings.Back = [0 1 0] is vertical"},
		{"body radius", func() error {
			return capeWith(func(s *CapeSettings) { s.Body = []BodyPart{{Node: node(0)}} })
		}, "scene: CapeSettings.Body[0].Radius = 0"},
		{"NaN anchor node", func() error {
			return capeWith(func(s *CapeSettings) {
				n := core.NewNode()
				n.SetPosition(nan, 0, 0)
				n.UpdateMatrixWorld()
				s.Anchors[1].Node = n
			})
		}, "scene: CapeSettings.Anchors[1]: node"},
		{"HairSettings.Hair", func() error {
			hs := HairSettings{Head: HeadSphere{Bone: node(0), Radius: 0.1}, Hair: hair.DefaultSettings()}
			hs.Hair.Strands = 0
			_, err := NewHeadHair(newWorld(hair.WorldConfig()), hs)
			return err
		}, "scene: HairSettings.Hair.Strands = 0"},
		{"hair.Teleport", func() error {
			h, err := hair.New(newWorld(hair.WorldConfig()), hair.DefaultHead(), hair.DefaultSettings())
			if err != nil {
				t.Fatal(err)
			}
			return h.Teleport(mgl32.Vec3{nan}, mgl32.QuatIdent())
		}, "hair: Teleport: Head.Center = "},
	} {
		checks.ErrorReads(t, c.name, c.err(), c.want, "cloth")
	}
}
