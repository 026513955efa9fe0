package verlet3d_test

import (
	"errors"
	"testing"

	"github.com/drape3d/drape/verlet3d"
	"github.com/go-gl/mathgl/mgl32"
)

// A user's component built through World.Atomically: what a failed build
// added is gone, a successful one's stays, and the World steps on.
func TestAtomically(t *testing.T) {
	w, err := verlet3d.NewWorld(verlet3d.DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	a, _ := w.AddParticle(mgl32.Vec3{0, 1, 0}, 1)
	floor, _ := verlet3d.NewPlane(mgl32.Vec3{}, mgl32.Vec3{0, 1, 0})
	if err := w.AddCollider(floor, verlet3d.ContactSettings{}); err != nil {
		t.Fatal(err)
	}
	add := func(fail bool) error {
		return w.Atomically(func() error {
			b, err := w.AddParticle(mgl32.Vec3{0, 2, 0}, 1)
			if err != nil {
				return err
			}
			if _, err := w.AddLink(a, b, verlet3d.LinkSettings{}); err != nil {
				return err
			}
			if _, err := w.AddTether(a, b, 2); err != nil {
				return err
			}
			box, _ := verlet3d.NewBox(mgl32.Vec3{3, 0, 0}, mgl32.Vec3{1, 1, 1}, mgl32.QuatIdent())
			if err := w.AddCollider(box, verlet3d.ContactSettings{}); err != nil {
				return err
			}
			w.AddForceField(&verlet3d.Drag{Coefficient: 0.1})
			if fail {
				return errors.New("refused")
			}
			return nil
		})
	}
	type counts struct{ particles, links, tethers, colliders int }
	count := func() counts {
		return counts{w.NumParticles(), w.NumLinks(), w.NumTethers(), len(w.Colliders())}
	}
	before := count()
	if err := add(true); err == nil || err.Error() != "refused" {
		t.Fatalf("a failed build returned %v, want its own error", err)
	}
	if got := count(); got != before {
		t.Errorf("after a failed build the World holds %+v, want %+v as before it", got, before)
	}
	if err := add(false); err != nil {
		t.Fatal(err)
	}
	want := counts{before.particles + 1, before.links + 1, before.tethers + 1, before.colliders + 1}
	if got := count(); got != want {
		t.Errorf("after a successful build the World holds %+v, want %+v", got, want)
	}
	for i := 0; i < 60; i++ {
		w.Step()
	}
	if p := w.Position(a); p[1] < 0 || p[1] > 1 {
		t.Errorf("the World steps on wrongly after the builds: particle at %v", p)
	}
}
