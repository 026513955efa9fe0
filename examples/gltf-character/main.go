// Command gltf-character loads a skinned glTF character, plays its walk,
// and dresses it with a cape fitted to its skeleton and hair on its head
// bone, rooted on its head's mesh. Run it with a model:
// `go run ./examples/gltf-character hero.glb` (under xvfb-run without a
// display). -view chooses the camera (back, side, or the default three
// quarters from behind); -shot FILE renders -frames frames at a fixed
// 1/60 s and writes the last one as PNG instead of opening a live window.
// Esc quits. The README's pictures of the robot are
//
//	xvfb-run -a go run ./examples/gltf-character -view back \
//	    -shot assets/shots/robot_cape_hair_back.png ../shared/models/RobotExpressive.glb
//
// and the same with -view side.
package main

import (
	"flag"
	"fmt"
	"image"
	"image/png"
	"log"
	"os"
	"time"

	"github.com/drape3d/drape/assets"
	"github.com/drape3d/drape/hair"
	"github.com/drape3d/drape/scene"
	"github.com/drape3d/drape/scene/character"
	"github.com/drape3d/drape/verlet3d"
	"github.com/g3n/engine/app"
	"github.com/g3n/engine/camera"
	"github.com/g3n/engine/core"
	"github.com/g3n/engine/gls"
	"github.com/g3n/engine/light"
	"github.com/g3n/engine/math32"
	"github.com/g3n/engine/renderer"
	"github.com/g3n/engine/window"
)

func main() {
	radius := flag.Float64("head-radius", 0, "head sphere radius in meters (0: the largest inside the head's mesh)")
	strands := flag.Int("strands", 1200, "hair strands")
	length := flag.Float64("hair-length", 0, "hair length in meters (0: the default style scaled to the head, down to the neck at most)")
	view := flag.String("view", "", "camera: back, side, or empty for three quarters from behind")
	shot := flag.String("shot", "", "write the last of -frames frames to this PNG file and exit")
	frames := flag.Int("frames", 240, "frames simulated at 1/60 s before -shot")
	flag.Parse()
	if flag.NArg() != 1 || (*view != "" && *view != "back" && *view != "side") || *frames < 1 || *strands < 1 || !(*radius >= 0) || !(*length >= 0) {
		fmt.Fprintln(os.Stderr, "usage: gltf-character [-head-radius m] [-strands n] [-view back|side] [-shot out.png -frames n] model.glb")
		os.Exit(2)
	}
	a := app.App(960, 540, "drape: a glTF character with a cape and hair")
	root := core.NewNode()
	root.Add(light.NewAmbient(&math32.Color{R: 1, G: 1, B: 1}, 0.5))
	sun := light.NewDirectional(&math32.Color{R: 1, G: 1, B: 1}, 0.9)
	sun.SetPosition(2, 5, -3)
	root.Add(sun)
	fill := light.NewDirectional(&math32.Color{R: 1, G: 1, B: 1}, 0.5)
	fill.SetPosition(4, 2, 3)
	root.Add(fill)

	ch, err := character.Load(flag.Arg(0)) // clear errors for bad or hostile files
	if err != nil {
		log.Fatal(err)
	}
	root.Add(ch.Root)
	ch.Update(0)

	// The default solver settings: the cape needs more iterations than
	// hair alone (hair.WorldConfig) would give it.
	world, err := verlet3d.NewWorld(verlet3d.DefaultConfig())
	if err != nil {
		log.Fatal(err)
	}
	defer world.Close()
	driver := scene.NewDriver(world)

	// The cape, fitted to the skeleton: anchors, size and body colliders.
	cs, err := ch.CapeSettings(character.CapeFit{})
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

	// Hair on the head bone, its sphere fitted to the head's mesh, the
	// default style scaled to it: meters whatever the armature's scale.
	hs, err := ch.HairSettings(character.HairFit{})
	if err != nil {
		log.Fatal(err)
	}
	if *radius > 0 {
		hs.Head.Radius = float32(*radius)
	}
	hs.Hair.Strands = *strands
	// The hair's own passes a substep, whatever the World's: one of each
	// of the defaults' 10 substeps gives it 10 a step, more than the 6
	// hair.WorldConfig gives a hair alone.
	hs.Hair.Iterations = 1
	if *length > 0 {
		hs.Hair.Length = float32(*length)
	}
	h, err := scene.NewHeadHair(world, hs)
	if err != nil {
		log.Fatal(err)
	}
	h.Attach(driver)
	r := a.Renderer()
	scene.AddHairShader(r)
	hairMesh := scene.NewHairMesh(h.Hair, hair.DefaultPalette())
	k := hs.Head.Radius / hair.DefaultHead().Radius // ribbons as wide, for this head, as on the default one
	hairMesh.Material.RootWidth *= k
	hairMesh.Material.TipWidth *= k
	root.Add(hairMesh)
	driver.AfterStep(hairMesh.Sync)

	// The camera, scaled to the head's height (the character faces +Z).
	c, _, _ := scene.NodePose(hs.Head.Bone)
	cam := camera.New(1.6)
	target := math32.Vector3{X: c[0], Y: c[1] * 0.85, Z: c[2]}
	switch *view {
	case "back":
		cam.SetPosition(c[0]+0.4*c[1], c[1]*1.05, c[2]-2.4*c[1])
	case "side":
		cam.SetPosition(c[0]+2.4*c[1], c[1]*0.95, c[2]-0.8*c[1])
	default:
		cam.SetPosition(c[0]+1.2*c[1], c[1]*1.1, c[2]-2.2*c[1])
	}
	cam.LookAt(&target, &math32.Vector3{Y: 1})
	root.Add(cam)
	camera.NewOrbitControl(cam).SetTarget(target)

	a.Subscribe(window.OnKeyDown, func(_ string, ev interface{}) {
		if ev.(*window.KeyEvent).Key == window.KeyEscape {
			a.Exit()
		}
	})
	a.Gls().ClearColor(0.62, 0.72, 0.82, 1)
	if *shot != "" {
		for i := 0; i < *frames; i++ {
			ch.Update(1.0 / 60)
			driver.Update(1.0 / 60)
		}
		a.Gls().Clear(gls.DEPTH_BUFFER_BIT | gls.STENCIL_BUFFER_BIT | gls.COLOR_BUFFER_BIT)
		if err := r.Render(root, cam); err != nil {
			log.Fatal(err)
		}
		if err := writePNG(a, *shot); err != nil {
			log.Fatal(err)
		}
		return
	}
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

// writePNG reads the frame just rendered (GL rows run bottom-up) and
// writes it to path.
func writePNG(a *app.Application, path string) error {
	w, h := a.GetFramebufferSize()
	px := a.Gls().ReadPixels(0, 0, w, h, gls.RGBA, gls.UNSIGNED_BYTE)
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		copy(img.Pix[y*img.Stride:(y+1)*img.Stride], px[(h-1-y)*4*w:(h-y)*4*w])
	}
	for i := 3; i < len(img.Pix); i += 4 {
		img.Pix[i] = 255
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := png.Encode(f, img); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
