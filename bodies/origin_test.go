package bodies_test

import (
	"math"
	"testing"

	"github.com/drape3d/drape/bodies"
	"github.com/drape3d/drape/verlet3d"
	"github.com/go-gl/mathgl/mgl32"
)

// Crates dropped on a floor 5 km from the origin, in a World that also
// holds a particle there (a cape, a rope), land and rest as at home on
// either engine: the World moves its frame to its content
// (verlet3d.World.Origin) and the System reads its floor, given in world
// coordinates, in that frame. Positions come back in world coordinates.
func TestCratesFarFromOrigin(t *testing.T) {
	for _, e := range engines {
		t.Run(e.String(), func(t *testing.T) {
			run := func(at mgl32.Vec3) (heights [3]float64, asleep int, origin [3]float64) {
				w, err := verlet3d.NewWorld(verlet3d.DefaultConfig())
				if err != nil {
					t.Fatal(err)
				}
				defer w.Close()
				set := bodies.DefaultSettings()
				set.Engine = e
				s, err := bodies.NewSystem(w, set)
				if err != nil {
					t.Fatal(err)
				}
				floor, _ := verlet3d.NewPlane(at, mgl32.Vec3{0, 1, 0})
				if err := s.AddCollider(floor, verlet3d.ContactSettings{Friction: 0.6}); err != nil {
					t.Fatal(err)
				}
				if _, err := w.AddParticle(at.Add(mgl32.Vec3{3, 2, 0}), 0); err != nil { // a pinned particle
					t.Fatal(err)
				}
				var cubes [3]bodies.Cube
				for i := range cubes {
					c, err := s.AddCube(bodies.CubeSettings{Size: 0.4, Mass: 1, Position: at.Add(mgl32.Vec3{float32(i), 0.5 + float32(0.3*float32(i)), 0})})
					if err != nil {
						t.Fatal(err)
					}
					cubes[i] = c
				}
				for range 240 {
					w.Step()
				}
				for i, c := range cubes {
					heights[i] = float64(s.Position(c)[1]) - float64(at[1])
				}
				return heights, s.Stats().Sleeping, w.Origin()
			}
			home, homeAsleep, _ := run(mgl32.Vec3{})
			far, farAsleep, o := run(mgl32.Vec3{5000, 0, -3000})
			t.Logf("rest heights at home %.4f, 5 km out %.4f; asleep %d and %d; frame at %v", home, far, homeAsleep, farAsleep, o)
			if o == ([3]float64{}) {
				t.Errorf("the World's frame stayed at the origin")
			}
			for i := range far {
				if math.Abs(far[i]-0.2) > 0.002 || math.Abs(far[i]-home[i]) > 0.002 {
					t.Errorf("crate %d rests %.4f m above the floor 5 km out, %.4f at home, want 0.2", i, far[i], home[i])
				}
			}
			if farAsleep != homeAsleep {
				t.Errorf("%d crates asleep 5 km out, %d at home", farAsleep, homeAsleep)
			}
		})
	}
}
