package bodies_test

import (
	"fmt"
	"math"

	"github.com/drape3d/drape/bodies"
	"github.com/drape3d/drape/verlet3d"
	"github.com/go-gl/mathgl/mgl32"
)

// A crate dropped tilted onto the floor lands on an edge, tips over and
// comes to rest flat on a face.
func Example() {
	w, _ := verlet3d.NewWorld(verlet3d.DefaultConfig())
	sys, _ := bodies.NewSystem(w, bodies.DefaultSettings())
	floor, _ := verlet3d.NewPlane(mgl32.Vec3{}, mgl32.Vec3{0, 1, 0})
	sys.AddCollider(floor, verlet3d.ContactSettings{Friction: 0.6})
	crate, err := sys.AddCube(bodies.CubeSettings{
		Size:     0.5, // m
		Mass:     2,   // kg
		Position: mgl32.Vec3{0, 1.5, 0},
		Rotation: mgl32.QuatRotate(0.5, mgl32.Vec3{1, 0, 1}.Normalize()),
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	for i := 0; i < 240; i++ { // 4 s at 60 steps per second
		w.Step()
	}
	p, q := sys.Transform(crate)
	// Flat on a face: one of the crate's axes points straight up.
	up := 0.0
	for _, axis := range []mgl32.Vec3{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}} {
		up = math.Max(up, math.Abs(float64(q.Rotate(axis)[1])))
	}
	fmt.Printf("centre %.3f m above the floor, an axis %.3f of the way to vertical\n", p[1], up)
	if _, err := sys.AddCube(bodies.CubeSettings{Size: -1, Mass: 1}); err != nil {
		fmt.Println(err)
	}
	// Output:
	// centre 0.250 m above the floor, an axis 1.000 of the way to vertical
	// bodies: CubeSettings.Size = -1, want an edge length in [1e-3, 1e3] m
}
