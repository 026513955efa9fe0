package bodies_test

import (
	"testing"

	"github.com/drape3d/drape/bodies"
	"github.com/drape3d/drape/verlet3d"
	"github.com/go-gl/mathgl/mgl32"
)

// sweeper moves a sphere along -x at speed m/s within every substep, as a
// game's kinematic collider that follows an animation does (scene.Follower
// moves its colliders from a force field, by Substep.Frac).
type sweeper struct {
	s        *verlet3d.Sphere
	x0, v, y float32
}

func (k *sweeper) Apply(_ *verlet3d.World, s verlet3d.Substep) {
	t := float32(s.Time) + s.H // where it is at the end of the substep
	k.s.Center = mgl32.Vec3{k.x0 - float32(k.v*t), k.y, 0}
}

// A crate at rest keeps its contacts for the rest of a step (reuse.go),
// but not against a System collider that moves within the step: a ball
// rolled into its side at 1 m/s, moving every substep, pushes it along
// and never sinks into it by more than the contact's own give.
func TestBallMovingWithinTheStepPushesARestingCrate(t *testing.T) {
	for _, e := range engines {
		t.Run(e.String(), func(t *testing.T) {
			w, s := newWorldOn(t, e, nil)
			floor(t, s, mgl32.Vec3{0, 1, 0}, 0.6)
			const half, r = 0.2, 0.15
			c := addCube(t, s, bodies.CubeSettings{Size: 2 * half, Mass: 1, Position: mgl32.Vec3{0, half, 0}})
			for i := 0; i < 60; i++ { // at rest first, contacts kept
				w.Step()
			}
			sph, err := verlet3d.NewSphere(mgl32.Vec3{10, half, 0}, r)
			if err != nil {
				t.Fatal(err)
			}
			if err := s.AddCollider(sph, verlet3d.ContactSettings{Friction: 0.2}); err != nil {
				t.Fatal(err)
			}
			// 3 cm from the crate's side when it starts, at 1 m/s: it reaches the
			// side in the middle of a step.
			sw := &sweeper{s: sph, v: 1, y: half}
			sw.x0 = half + r + 0.03 + float32(sw.v*float32(w.Time()))
			w.AddForceField(sw)
			deepest := float32(0)
			for i := 0; i < 30; i++ {
				w.Step()
				side := s.Position(c)[0] + half
				deepest = max(deepest, side-(sph.Center[0]-r))
			}
			if moved := s.Position(c)[0]; moved > -0.1 {
				t.Fatalf("the crate moved %.3f m along x, want pushed along -x by the ball", moved)
			}
			t.Logf("the ball sank at most %.2f mm into the crate's side", float32(deepest*1000))
			if deepest > 0.002 {
				t.Errorf("the ball sank %.1f mm into the crate's side, want < 2 mm", float32(deepest*1000))
			}
		})
	}
}

// A crate at rest keeps its contacts across steps, but not past a change
// of the System: a floor added 3 cm above the one it rests on, between
// two steps, lifts it onto the new one.
func TestColliderAddedUnderARestingCrateLiftsIt(t *testing.T) {
	for _, e := range engines {
		t.Run(e.String(), func(t *testing.T) {
			w, s := newWorldOn(t, e, nil)
			floor(t, s, mgl32.Vec3{0, 1, 0}, 0.6)
			const half = 0.2
			c := addCube(t, s, bodies.CubeSettings{Size: 2 * half, Mass: 1, Position: mgl32.Vec3{0, half, 0}})
			for i := 0; i < 60; i++ {
				w.Step()
			}
			raised, err := verlet3d.NewPlane(mgl32.Vec3{0, 0.03, 0}, mgl32.Vec3{0, 1, 0})
			if err != nil {
				t.Fatal(err)
			}
			if err := s.AddCollider(raised, verlet3d.ContactSettings{Friction: 0.6}); err != nil {
				t.Fatal(err)
			}
			for i := 0; i < 60; i++ {
				w.Step()
			}
			if y := s.Position(c)[1]; y < half+0.03-0.001 {
				t.Errorf("crate center at %.4f m a second after a floor was added at 0.03 m, want %.3f within 1 mm", y, half+0.03)
			}
		})
	}
}
