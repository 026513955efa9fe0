package cloth_test

import (
	"fmt"

	"github.com/drape3d/drape/cloth"
	"github.com/drape3d/drape/verlet3d"
	"github.com/go-gl/mathgl/mgl32"
)

// A curtain hangs from its top row with tethers, in a breeze.
func Example() {
	w, _ := verlet3d.NewWorld(verlet3d.DefaultConfig())
	s := cloth.DefaultSettings()
	s.Cols, s.Rows = 20, 30
	s.Origin = mgl32.Vec3{-0.5, 2, 0}
	s.PinRows = []int{0}
	s.Tethers = true
	g, err := cloth.New(w, s)
	if err != nil {
		panic(err)
	}
	ws := cloth.DefaultWindSettings()
	ws.Air.Steady = mgl32.Vec3{0, 0, -3}                 // blowing into the front side
	if _, err := cloth.NewWindForce(g, ws); err != nil { // adds itself to the World
		panic(err)
	}
	for i := 0; i < 120; i++ {
		w.Step()
	}
	fmt.Printf("%d vertices, %d triangles\n", len(g.Vertices()), g.NumTriangles())
	fmt.Printf("blown back: %v, stretched under 5%%: %v\n", w.Position(g.Particle(29, 10))[2] < -0.1, g.MaxStrain() < 0.05)
	// Output:
	// 600 vertices, 1102 triangles
	// blown back: true, stretched under 5%: true
}
