package scene_test

import (
	"github.com/drape3d/drape/scene"
	"github.com/drape3d/drape/verlet3d"
	"github.com/g3n/engine/core"
	"github.com/g3n/engine/math32"
	"github.com/go-gl/mathgl/mgl32"
)

// A rope hanging over a ball, shown as points and lines in a g3n scene and
// advanced from the game loop. (This is the README's example.)
func Example() {
	myScene := core.NewNode()

	world, err := verlet3d.NewWorld(verlet3d.DefaultConfig())
	if err != nil {
		panic(err)
	}
	var rope []verlet3d.Particle
	var links []verlet3d.Link
	for i := 0; i <= 20; i++ {
		mass := float32(0.02)
		if i == 0 {
			mass = 0 // pinned
		}
		p, _ := world.AddParticle(mgl32.Vec3{float32(i) * 0.05, 2, 0}, mass)
		rope = append(rope, p)
	}
	for i := 0; i < 20; i++ {
		l, _ := world.AddLink(rope[i], rope[i+1], verlet3d.LinkSettings{Compliance: 1e-6})
		links = append(links, l)
	}
	ball, _ := verlet3d.NewSphere(mgl32.Vec3{0.4, 1.4, 0}, 0.3)
	world.AddCollider(ball, verlet3d.ContactSettings{Friction: 0.4})

	view := scene.NewNetView(world, rope, links, math32.Color{R: 1}, math32.Color{}, 4)
	myScene.Add(view)
	driver := scene.NewDriver(world)
	driver.AfterStep(view.Sync)

	// In app.Run's update function, before rendering:
	driver.Update(1.0 / 60)
}
