package scene

import (
	"math"
	"strings"
	"testing"

	"github.com/drape3d/drape/cloth"
	"github.com/drape3d/drape/hair"
	"github.com/drape3d/drape/verlet3d"
	"github.com/g3n/engine/core"
	"github.com/g3n/engine/math32"
	"github.com/go-gl/mathgl/mgl32"
)

// Errors name the type and field the caller wrote, and each package once:
// a scene.CapeSettings mistake reads "scene: CapeSettings.Length = 0 ...",
// not "cloth: CapeSettings.Length" (cloth's type, which builds the cape),
// and a wrapped error does not repeat its package ("scene: CapeFit.Anchors:
// no bone ...", not "scene: CapeFit.Anchors: scene: no bone ...").
func TestErrorsNameWhatTheCallerWrote(t *testing.T) {
	dir := t.TempDir()
	ch, err := LoadCharacter(writeRig(t, dir, rigFixtures[0]))
	if err != nil {
		t.Fatal(err)
	}
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
		{"CapeFit.Anchors", func() error {
			_, err := ch.CapeSettings(CapeFit{Anchors: []string{"Tail"}})
			return err
		}, "scene: CapeFit.Anchors: no bone"},
		{"CapeFit.Body", func() error {
			_, err := ch.CapeSettings(CapeFit{Body: []BodyBone{{Bone: "Tail", Radius: 0.1}}})
			return err
		}, "scene: CapeFit.Body[0]: no bone"},
		{"HairFit.Bone", func() error {
			_, err := ch.HairSettings(HairFit{Bone: "Tail"})
			return err
		}, "scene: HairFit.Bone: no bone"},
		{"HairSettings.Hair", func() error {
			hs, err := ch.HairSettings(HairFit{})
			if err != nil {
				t.Fatal(err)
			}
			hs.Hair.Strands = 0
			_, err = NewHeadHair(newWorld(hair.WorldConfig()), hs)
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
		err := c.err()
		if err == nil {
			t.Errorf("%s: no error", c.name)
			continue
		}
		msg := err.Error()
		t.Logf("%s: %v", c.name, msg)
		if !strings.HasPrefix(msg, c.want) {
			t.Errorf("%s: error %q, want it to start with %q", c.name, msg, c.want)
		}
		pkg := msg[:strings.Index(msg, ":")+1]
		if strings.Count(msg, pkg+" ") != 1 {
			t.Errorf("%s: error %q says %q more than once", c.name, msg, pkg)
		}
		if pkg == "scene:" && strings.Contains(msg, "cloth:") {
			t.Errorf("%s: error %q names cloth's type, not the caller's", c.name, msg)
		}
	}
}
