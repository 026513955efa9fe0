package bodies

import (
	"testing"

	"github.com/drape3d/drape/verlet3d"
	"github.com/go-gl/mathgl/mgl32"
)

// quietSet is a constraint set that does nothing: another component in
// the World, which might push particles.
type quietSet struct{}

func (quietSet) Prepare(*verlet3d.World, verlet3d.Substep) {}
func (quietSet) Solve(*verlet3d.World, verlet3d.Substep)   {}

// An asleep cube's links are idle only while nothing but the System can
// push its particles: not while another constraint set is in the World,
// nor while a link of the game's joins one of them (a slack rope here,
// which does not wake it); a link elsewhere (a pendulum) changes nothing.
// Idle under a cloth's SurfaceCollision, a sleeping crate's corner gave
// way alone to the cloth, and a tablecloth in a draught slid off its pile
// (TestSoakDrapedCratesInWind, package cloth).
func TestAsleepCubeLinksIdleOnlyWhenAlone(t *testing.T) {
	w, s := floorWorld(t)
	c, err := s.AddCube(CubeSettings{Size: 0.4, Mass: 1, Position: mgl32.Vec3{0, 0.2, 0}})
	if err != nil {
		t.Fatal(err)
	}
	// A pendulum far away keeps the World awake.
	pivot, _ := w.AddParticle(mgl32.Vec3{20, 3, 0}, 0)
	bob, _ := w.AddParticle(mgl32.Vec3{21, 3, 0}, 1)
	if _, err := w.AddLink(pivot, bob, verlet3d.LinkSettings{}); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 300 && !s.Sleeping(c); i++ {
		w.Step()
	}
	cb := &s.cubes[c]
	step := func(want bool, what string) {
		t.Helper()
		w.Step()
		if !s.Sleeping(c) {
			t.Fatalf("%s: the cube woke", what)
		}
		if cb.linksIdle != want {
			t.Errorf("%s: links idle %v, want %v", what, cb.linksIdle, want)
		}
	}
	step(true, "asleep, the System alone (a pendulum elsewhere)")
	hook, _ := w.AddParticle(s.Position(c).Add(mgl32.Vec3{0, 2, 0}), 0)
	rope, err := w.AddLink(hook, s.Corners(c)[7], verlet3d.LinkSettings{Rest: 3, TensionOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	step(false, "a slack rope tied to a corner")
	w.RemoveLink(rope)
	step(true, "the rope taken off")
	w.AddConstraintSet(quietSet{})
	step(false, "another constraint set in the World")
	w.RemoveConstraintSet(quietSet{})
	step(true, "the set taken out")
}
