// Command crates drops a stack of crates on a floor and a tablecloth over
// them: cube bodies and cloth in one World, each pushing the other. Run it
// with `go run ./examples/crates` (under xvfb-run without a display); Esc
// quits.
package main

import (
	"log"
	"time"

	"github.com/drape3d/drape/assets"
	"github.com/drape3d/drape/bodies"
	"github.com/drape3d/drape/cloth"
	"github.com/drape3d/drape/scene"
	"github.com/drape3d/drape/verlet3d"
	"github.com/g3n/engine/app"
	"github.com/g3n/engine/camera"
	"github.com/g3n/engine/core"
	"github.com/g3n/engine/gls"
	"github.com/g3n/engine/light"
	"github.com/g3n/engine/math32"
	"github.com/g3n/engine/renderer"
	"github.com/g3n/engine/texture"
	"github.com/g3n/engine/window"
	"github.com/go-gl/mathgl/mgl32"
)

func main() {
	a := app.App(1024, 640, "drape: crates under a tablecloth")
	root := core.NewNode()
	cam := camera.New(1.6)
	cam.SetPosition(1.4, 1.5, 2.0)
	cam.LookAt(&math32.Vector3{Y: 0.5}, &math32.Vector3{Y: 1})
	root.Add(cam)
	camera.NewOrbitControl(cam).SetTarget(math32.Vector3{Y: 0.5})
	root.Add(light.NewAmbient(&math32.Color{R: 1, G: 1, B: 1}, 0.5))
	sun := light.NewDirectional(&math32.Color{R: 1, G: 1, B: 1}, 0.9)
	sun.SetPosition(2, 5, 3)
	root.Add(sun)

	world, err := verlet3d.NewWorld(verlet3d.DefaultConfig())
	if err != nil {
		log.Fatal(err)
	}
	defer world.Close()
	floor, err := verlet3d.NewPlane(mgl32.Vec3{}, mgl32.Vec3{0, 1, 0})
	if err != nil {
		log.Fatal(err)
	}
	sys, err := bodies.NewSystem(world, bodies.DefaultSettings())
	if err != nil {
		log.Fatal(err)
	}
	if err := sys.AddCollider(floor, verlet3d.ContactSettings{Friction: 0.6}); err != nil {
		log.Fatal(err)
	}
	for i := 0; i < 3; i++ { // a stack of three crates
		cs := bodies.CubeSettings{Size: 0.4, Mass: 3, Position: mgl32.Vec3{0, 0.2 + 0.42*float32(i), 0}}
		if _, err := sys.AddCube(cs); err != nil {
			log.Fatal(err)
		}
	}
	s := cloth.DefaultSettings()
	s.Cols, s.Rows, s.Spacing = 30, 30, 0.05
	s.Origin = mgl32.Vec3{-0.75, 1.8, -0.75}
	s.Across, s.Down = mgl32.Vec3{1, 0, 0}, mgl32.Vec3{0, 0, 1} // lying flat
	tablecloth, err := cloth.New(world, s)
	if err != nil {
		log.Fatal(err)
	}

	tex := func(name string) *texture.Texture2D {
		img, err := assets.Texture(name)
		if err != nil {
			log.Fatal(err)
		}
		return scene.TextureFromImage(img)
	}
	crates := scene.NewCubesView(sys, tex("crate"))
	root.Add(crates)
	mesh := scene.NewClothMesh(tablecloth, tex("fabric_check"))
	root.Add(mesh)
	driver := scene.NewDriver(world)
	driver.AfterStep(crates.Sync)
	driver.AfterStep(mesh.Sync)

	a.Subscribe(window.OnKeyDown, func(_ string, ev interface{}) {
		if ev.(*window.KeyEvent).Key == window.KeyEscape {
			a.Exit()
		}
	})
	a.Gls().ClearColor(0.62, 0.72, 0.82, 1)
	a.Run(func(r *renderer.Renderer, delta time.Duration) {
		driver.Update(float32(delta.Seconds()))
		a.Gls().Clear(gls.DEPTH_BUFFER_BIT | gls.STENCIL_BUFFER_BIT | gls.COLOR_BUFFER_BIT)
		if err := r.Render(root, cam); err != nil {
			log.Fatal(err)
		}
	})
}
