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

// A jelly cube (Compliance > 0) needs ParticleEngine, whose cubes are
// particles of the World joined by links (Corners gives them to a game);
// here one lands and rests beside a rigid crate of the same engine.
func ExampleSystem_particleEngine() {
	w, _ := verlet3d.NewWorld(verlet3d.DefaultConfig())
	set := bodies.DefaultSettings()
	set.Engine = bodies.ParticleEngine
	sys, _ := bodies.NewSystem(w, set)
	floor, _ := verlet3d.NewPlane(mgl32.Vec3{}, mgl32.Vec3{0, 1, 0})
	sys.AddCollider(floor, verlet3d.ContactSettings{Friction: 0.6})
	jelly, err := sys.AddCube(bodies.CubeSettings{Size: 0.5, Mass: 2, Compliance: 2e-3, Position: mgl32.Vec3{0, 1, 0}})
	if err != nil {
		fmt.Println(err)
		return
	}
	crate, _ := sys.AddCube(bodies.CubeSettings{Size: 0.5, Mass: 2, Position: mgl32.Vec3{1, 1, 0}})
	for i := 0; i < 180; i++ { // 3 s
		w.Step()
	}
	fmt.Printf("jelly at %.3f m, crate at %.3f m\n", sys.Position(jelly)[1], sys.Position(crate)[1])
	fmt.Println("jelly corner particles:", len(sys.Corners(jelly)))
	// Output:
	// jelly at 0.250 m, crate at 0.250 m
	// jelly corner particles: 8
}
