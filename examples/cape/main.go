// Command cape puts a cape on a character built from plain g3n nodes (a
// torso and two shoulder nodes) that walks in a circle: the whole game side
// of a cape in one file. Run it with `go run ./examples/cape` (under
// xvfb-run without a display); Esc quits.
package main

import (
	"log"
	"math"
	"time"

	"github.com/drape3d/drape/assets"
	"github.com/drape3d/drape/scene"
	"github.com/drape3d/drape/verlet3d"
	"github.com/g3n/engine/app"
	"github.com/g3n/engine/camera"
	"github.com/g3n/engine/core"
	"github.com/g3n/engine/geometry"
	"github.com/g3n/engine/gls"
	"github.com/g3n/engine/graphic"
	"github.com/g3n/engine/light"
	"github.com/g3n/engine/material"
	"github.com/g3n/engine/math32"
	"github.com/g3n/engine/renderer"
	"github.com/g3n/engine/window"
)

func main() {
	a := app.App(1024, 640, "drape: a cape on your character")
	root := core.NewNode()
	cam := camera.New(1.6)
	cam.SetPosition(0, 2.2, 5)
	cam.LookAt(&math32.Vector3{Y: 1}, &math32.Vector3{Y: 1})
	root.Add(cam)
	camera.NewOrbitControl(cam).SetTarget(math32.Vector3{Y: 1})
	root.Add(light.NewAmbient(&math32.Color{R: 1, G: 1, B: 1}, 0.5))
	sun := light.NewDirectional(&math32.Color{R: 1, G: 1, B: 1}, 0.9)
	sun.SetPosition(2, 5, 3)
	root.Add(sun)

	// The character: a torso box with shoulder and neck nodes on it.
	body := core.NewNode()
	body.SetPosition(1.5, 1.1, 0)
	root.Add(body)
	torso := graphic.NewMesh(geometry.NewBox(0.36, 0.6, 0.2), material.NewStandard(&math32.Color{R: 0.3, G: 0.4, B: 0.7}))
	body.Add(torso)
	anchor := func(x float32) *core.Node {
		n := core.NewNode()
		n.SetPosition(x, 0.3, -0.1) // the top of the back, m
		body.Add(n)
		return n
	}
	right, neck, left := anchor(-0.17), anchor(0), anchor(0.17)
	root.UpdateMatrixWorld()

	world, err := verlet3d.NewWorld(verlet3d.DefaultConfig())
	if err != nil {
		log.Fatal(err)
	}
	defer world.Close()
	driver := scene.NewDriver(world)
	cs := scene.DefaultCapeSettings()
	cs.Anchors = []scene.Anchor{{Node: left}, {Node: neck}, {Node: right}}
	cs.Reference, cs.Length = body, 0.9
	cs.Body = []scene.BodyPart{{Node: body, A: math32.Vector3{Y: 0.2}, B: math32.Vector3{Y: -0.3}, Radius: 0.14}}
	cs.MaxLag = 1.5
	cape, err := scene.NewCape(world, cs)
	if err != nil {
		log.Fatal(err)
	}
	cape.Attach(driver)
	img, err := assets.Texture("cape")
	if err != nil {
		log.Fatal(err)
	}
	mesh := scene.NewClothMesh(cape.Grid, scene.TextureFromImage(img))
	root.Add(mesh)
	driver.AfterStep(mesh.Sync)

	a.Subscribe(window.OnKeyDown, func(_ string, ev interface{}) {
		if ev.(*window.KeyEvent).Key == window.KeyEscape {
			a.Exit()
		}
	})
	var t float64
	a.Gls().ClearColor(0.62, 0.72, 0.82, 1)
	a.Run(func(r *renderer.Renderer, delta time.Duration) {
		dt := delta.Seconds()
		t += dt
		// Walk a circle of radius 1.5 m at 1.2 m/s, facing the way it goes.
		ang := t * 1.2 / 1.5
		body.SetPosition(float32(1.5*math.Cos(ang)), 1.1+float32(0.02*math.Sin(8*t)), float32(-1.5*math.Sin(ang)))
		body.SetRotationY(float32(ang))
		root.UpdateMatrixWorld() // animation first, then physics
		driver.Update(float32(dt))
		a.Gls().Clear(gls.DEPTH_BUFFER_BIT | gls.STENCIL_BUFFER_BIT | gls.COLOR_BUFFER_BIT)
		if err := r.Render(root, cam); err != nil {
			log.Fatal(err)
		}
	})
}
