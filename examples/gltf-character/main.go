// Command gltf-character loads a skinned glTF character, plays its walk,
// and dresses it with a cape fitted to its skeleton and hair on its head
// bone. Run it with a model: `go run ./examples/gltf-character hero.glb`
// (under xvfb-run without a display). Flags set the head sphere, which
// defaults to a human's proportions; the three.js RobotExpressive.glb wears
// its cape well but its barrel head hides most of a head of hair. Esc
// quits.
package main

import (
	"flag"
	"fmt"
	"log"
	"os"
	"time"

	"github.com/drape3d/drape/assets"
	"github.com/drape3d/drape/hair"
	"github.com/drape3d/drape/scene"
	"github.com/drape3d/drape/verlet3d"
	"github.com/g3n/engine/app"
	"github.com/g3n/engine/camera"
	"github.com/g3n/engine/core"
	"github.com/g3n/engine/gls"
	"github.com/g3n/engine/light"
	"github.com/g3n/engine/math32"
	"github.com/g3n/engine/renderer"
	"github.com/g3n/engine/window"
	"github.com/go-gl/mathgl/mgl32"
)

func main() {
	radius := flag.Float64("head-radius", 0, "head sphere radius in metres (0: 6.5% of the head bone's height, a human's proportion)")
	up := flag.Float64("head-up", -1, "head sphere centre above the head bone in metres (-1: the radius)")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: gltf-character [-head-radius m] [-head-up m] model.glb")
		os.Exit(2)
	}
	a := app.App(1024, 640, "drape: a glTF character with a cape and hair")
	root := core.NewNode()
	root.Add(light.NewAmbient(&math32.Color{R: 1, G: 1, B: 1}, 0.5))
	sun := light.NewDirectional(&math32.Color{R: 1, G: 1, B: 1}, 0.9)
	sun.SetPosition(2, 5, -3)
	root.Add(sun)

	ch, err := scene.LoadCharacter(flag.Arg(0)) // clear errors for bad or hostile files
	if err != nil {
		log.Fatal(err)
	}
	root.Add(ch.Root)
	ch.Update(0)

	world, err := verlet3d.NewWorld(hair.WorldConfig())
	if err != nil {
		log.Fatal(err)
	}
	defer world.Close()
	driver := scene.NewDriver(world)

	// The cape, fitted to the skeleton: anchors, size and body colliders.
	cs, err := ch.CapeSettings(scene.CapeFit{})
	if err != nil {
		log.Fatal(err)
	}
	cape, err := scene.NewCape(world, cs)
	if err != nil {
		log.Fatal(err)
	}
	cape.Attach(driver)
	img, err := assets.Texture("cape")
	if err != nil {
		log.Fatal(err)
	}
	capeMesh := scene.NewClothMesh(cape.Grid, scene.TextureFromImage(img))
	root.Add(capeMesh)
	driver.AfterStep(capeMesh.Sync)

	// Hair on the head bone: radius and offset in metres whatever the
	// armature's scale.
	headBone, err := ch.Bone("Head")
	if err != nil {
		log.Fatal(err)
	}
	bonePos, _, _ := scene.NodePose(headBone)
	if *radius <= 0 {
		*radius = 0.065 * float64(bonePos[1])
	}
	if *up < 0 {
		*up = *radius
	}
	head := hair.DefaultHead()
	head.Radius = float32(*radius)
	hs := hair.DefaultSettings()
	hs.Strands = 800
	hs.Length *= float32(*radius) / 0.1 // the default style scaled to this head
	h, err := hair.New(world, head, hs)
	if err != nil {
		log.Fatal(err)
	}
	follow, err := scene.FollowHead(h, headBone, mgl32.Vec3{0, float32(*up), 0}, mgl32.QuatIdent())
	if err != nil {
		log.Fatal(err)
	}
	follow.Attach(driver)
	r := a.Renderer()
	scene.AddHairShader(r)
	strands := scene.NewHairMesh(h, hair.DefaultPalette())
	root.Add(strands)
	driver.AfterStep(strands.Sync)

	c, _, _ := scene.NodePose(headBone)
	cam := camera.New(1.6)
	target := math32.Vector3{X: c[0], Y: c[1] * 0.75, Z: c[2]}
	cam.SetPosition(c[0]+1.2*c[1], c[1]*1.1, c[2]-2.2*c[1]) // behind and to the side, scaled to the height
	cam.LookAt(&target, &math32.Vector3{Y: 1})
	root.Add(cam)
	camera.NewOrbitControl(cam).SetTarget(target)

	a.Subscribe(window.OnKeyDown, func(_ string, ev interface{}) {
		if ev.(*window.KeyEvent).Key == window.KeyEscape {
			a.Exit()
		}
	})
	a.Gls().ClearColor(0.62, 0.72, 0.82, 1)
	a.Run(func(r *renderer.Renderer, delta time.Duration) {
		dt := float32(delta.Seconds())
		ch.Update(dt)     // animation and world matrices first,
		driver.Update(dt) // then physics (the cape and the head read the bones),
		a.Gls().Clear(gls.DEPTH_BUFFER_BIT | gls.STENCIL_BUFFER_BIT | gls.COLOR_BUFFER_BIT)
		if err := r.Render(root, cam); err != nil {
			log.Fatal(err)
		}
	})
}
