package character

import (
	"testing"

	"github.com/drape3d/drape/internal/checks"
)

// Errors about what the caller named read as the caller wrote it, naming
// the package once: "character: CapeFit.Anchors: no bone ...".
func TestErrorsNameWhatTheCallerWrote(t *testing.T) {
	ch, err := Load(writeRig(t, t.TempDir(), rigFixtures[0]))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		err  func() error
		want string // the error starts with it
	}{
		{"CapeFit.Anchors", func() error {
			_, err := ch.CapeSettings(CapeFit{Anchors: []string{"Tail"}})
			return err
		}, "character: CapeFit.Anchors: no bone"},
		{"CapeFit.Body", func() error {
			_, err := ch.CapeSettings(CapeFit{Body: []BodyBone{{Bone: "Tail", Radius: 0.1}}})
			return err
		}, "character: CapeFit.Body[0]: no bone"},
		{"HairFit.Bone", func() error {
			_, err := ch.HairSettings(HairFit{Bone: "Tail"})
			return err
		}, "character: HairFit.Bone: no bone"},
		{"Clip", func() error {
			_, err := ch.Model.Clip("Dance")
			return err
		}, "character: no animation"},
	} {
		checks.ErrorReads(t, c.name, c.err(), c.want, "scene")
	}
}
