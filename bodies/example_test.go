package bodies_test

import (
	"fmt"
	"github.com/drape3d/drape/internal/vecmath"
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
		Rotation: vecmath.QuatAxisAngle(0.5, vecmath.Normalize(mgl32.Vec3{1, 0, 1})),
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
		up = math.Max(up, math.Abs(float64(vecmath.QuatRotate(q, axis)[1])))
	}
	fmt.Printf("center %.3f m above the floor, an axis %.3f of the way to vertical\n", p[1], up)
	if _, err := sys.AddCube(bodies.CubeSettings{Size: -1, Mass: 1}); err != nil {
		fmt.Println(err)
	}
	// Output:
	// center 0.250 m above the floor, an axis 1.000 of the way to vertical
	// bodies: CubeSettings.Size = -1, want an edge length in [1e-3, 1e3] m
}

// Crates at rest fall asleep on their own while the rest of the World
// moves (here a ball that keeps falling), and a throw wakes one.
func ExampleSystem_Sleeping() {
	w, _ := verlet3d.NewWorld(verlet3d.DefaultConfig()) // SleepSpeed 1 cm/s, SleepDelay 1 s
	sys, _ := bodies.NewSystem(w, bodies.DefaultSettings())
	floor, _ := verlet3d.NewPlane(mgl32.Vec3{}, mgl32.Vec3{0, 1, 0})
	sys.AddCollider(floor, verlet3d.ContactSettings{Friction: 0.6})
	var crates []bodies.Cube
	for i := 0; i < 3; i++ {
		c, _ := sys.AddCube(bodies.CubeSettings{Size: 0.4, Mass: 1, Position: mgl32.Vec3{float32(i), 0.2, 0}})
		crates = append(crates, c)
	}
	w.AddParticle(mgl32.Vec3{10, 50, 0}, 1) // keeps the World awake
	for i := 0; i < 120; i++ {
		w.Step()
	}
	fmt.Println("asleep:", sys.Stats().Sleeping, "of", sys.NumCubes(), "- World asleep:", w.Sleeping())
	sys.Throw(crates[1], mgl32.Vec3{0, 3, 0}, mgl32.Vec3{})
	w.Step()
	fmt.Println("thrown crate asleep:", sys.Sleeping(crates[1]), "- others:", sys.Sleeping(crates[0]), sys.Sleeping(crates[2]))
	// Output:
	// asleep: 3 of 3 - World asleep: false
	// thrown crate asleep: false - others: true true
}

// Crates as poses (PoseEngine), the game case: a stack of three dropped
// a little apart lands, stands and falls asleep.
func ExampleSystem_poseEngine() {
	w, _ := verlet3d.NewWorld(verlet3d.DefaultConfig())
	set := bodies.DefaultSettings()
	set.Engine = bodies.PoseEngine
	sys, _ := bodies.NewSystem(w, set)
	floor, _ := verlet3d.NewPlane(mgl32.Vec3{}, mgl32.Vec3{0, 1, 0})
	sys.AddCollider(floor, verlet3d.ContactSettings{Friction: 0.6})
	for i := 0; i < 3; i++ {
		sys.AddCube(bodies.CubeSettings{Size: 0.5, Mass: 10, Position: mgl32.Vec3{0, 0.3 + float32(0.55*float32(i)), 0}})
	}
	for i := 0; i < 300; i++ { // 5 s
		w.Step()
	}
	for c := 0; c < sys.NumCubes(); c++ {
		fmt.Printf("crate %d at %.3f m, asleep %v\n", c, sys.Position(bodies.Cube(c))[1], sys.Sleeping(bodies.Cube(c)))
	}
	fmt.Println("World asleep:", w.Sleeping())
	// Output:
	// crate 0 at 0.250 m, asleep true
	// crate 1 at 0.750 m, asleep true
	// crate 2 at 1.250 m, asleep true
	// World asleep: true
}
