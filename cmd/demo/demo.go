package main

import (
	"bytes"
	"fmt"
	"github.com/drape3d/drape/bodies"
	"github.com/drape3d/drape/internal/vecmath"
	"image"
	"image/color"
	"image/png"
	"math"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/drape3d/drape/assets"
	"github.com/drape3d/drape/cloth"
	"github.com/drape3d/drape/scene"
	"github.com/drape3d/drape/verlet3d"
	"github.com/g3n/engine/app"
	"github.com/g3n/engine/camera"
	"github.com/g3n/engine/core"
	"github.com/g3n/engine/geometry"
	"github.com/g3n/engine/gls"
	"github.com/g3n/engine/graphic"
	"github.com/g3n/engine/gui"
	"github.com/g3n/engine/material"
	"github.com/g3n/engine/math32"
	"github.com/g3n/engine/texture"
	"github.com/g3n/engine/window"
	"github.com/go-gl/mathgl/mgl32"
)

// demoBackground is the clear color; GL tests look for it.
var demoBackground = math32.Color{R: 0.62, G: 0.72, B: 0.82}

type keyBinding struct {
	key  window.Key
	help string
	f    func()
}

// Demo is what a scene's Build function gets: the g3n scene graph, the
// camera, and hooks into the frame loop. A new Demo is made for every scene
// the shell builds (at start, on a scene switch, on a settings rebuild); the
// window, camera and HUD belong to the shell and outlive it.
type Demo struct {
	Scene    *core.Node     // add your nodes here; lights exist already
	Camera   *camera.Camera // perspective camera
	Orbit    *orbit         // the camera's orbit around a target
	Headless bool           // -frames given: dt is a fixed 1/60 s per frame
	Workers  int            // -workers flag
	// WorkerSpin is the -worker-spin flag: Config.WorkerSpin, seconds.
	WorkerSpin float32
	Frame      int // frames rendered so far

	app      *app.Application
	sh       *shell // nil in tests that build a scene without a window
	driver   *scene.Driver
	cubes    *bodies.System // the scene's cubes, for the grab tool
	updates  []func(dt float32)
	steps    []func(h float64)
	clock    stepClock // with OnStep: the Driver's steps, counted ahead
	keys     []keyBinding
	status   string
	about    string
	gui      *gui.Panel
	textures map[string]*texture.Texture2D
	camSet   bool
	grids    []*cloth.Grid                 // cloth the cut tool cuts and the strain view colors
	focus    func() (math32.Vector3, bool) // what F looks at when nothing is grabbed
	probes   []func(*probeReport)          // a scene's own figures for script probes (OnProbe)
}

// DotsOn reports whether the particle-dots view (D) is on: scenes show
// their own state with it too (the cubes scene grays asleep crates).
func (d *Demo) DotsOn() bool { return d.sh != nil && d.sh.views.dotsOn }

// SetWorld hands the scene's World to the demo, which advances it every frame
// through the returned Driver.
func (d *Demo) SetWorld(w *verlet3d.World) *scene.Driver {
	d.driver = scene.NewDriver(w)
	d.clock = newStepClock(d.driver)
	return d.driver
}

// OnUpdate adds a function called every frame before physics, with the frame
// time in seconds.
func (d *Demo) OnUpdate(f func(dt float32)) { d.updates = append(d.updates, f) }

// OnStep adds a function called before every physics step with the
// step's length in seconds. A scene with one is stepped one fixed step at a
// time, so what it animates (a head, a walking body) moves by each step
// the physics takes: the same distance, at any frame rate, as the physics
// sees, never a long raw frame time, and smoothly across the steps of a
// slow frame.
func (d *Demo) OnStep(f func(h float64)) { d.steps = append(d.steps, f) }

// OnProbe adds a function that writes the scene's own figures into every
// script probe's report.
func (d *Demo) OnProbe(f func(r *probeReport)) { d.probes = append(d.probes, f) }

// Cloth registers a cloth grid of the scene: the knife cuts it and the
// strain view colors it.
func (d *Demo) Cloth(g *cloth.Grid) { d.grids = append(d.grids, g) }

// Cubes registers the scene's cubes: the grab tool (Shift+drag) holds a
// cube it points at.
func (d *Demo) Cubes(sys *bodies.System) { d.cubes = sys }

// OnKey binds a key; help is shown on screen.
func (d *Demo) OnKey(key window.Key, help string, f func()) {
	d.keys = append(d.keys, keyBinding{key, help, f})
}

// Status sets the scene's line of the on-screen text.
func (d *Demo) Status(format string, args ...any) { d.status = fmt.Sprintf(format, args...) }

// LookAt places the camera; -cam and -look flags win over it.
func (d *Demo) LookAt(eye, target math32.Vector3) {
	if d.camSet {
		return
	}
	d.Orbit.Place(eye, target)
}

// GUI returns a panel at the top right of the window for the scene's
// controls; children are stacked vertically.
func (d *Demo) GUI() *gui.Panel {
	if d.gui == nil {
		d.gui = stackPanel(260, 0.6, 6, 4)
		d.Scene.Add(d.gui)
		d.placeGUI()
		if d.sh != nil {
			d.sh.panels = append(d.sh.panels, d.gui)
		}
	}
	return d.gui
}

// stackPanel returns a dark panel of the given width and opacity that
// stacks its children vertically, padding and spacing them by pad and
// gap pixels, and grows to hold them.
func stackPanel(width, opacity, pad, gap float32) *gui.Panel {
	p := gui.NewPanel(width, 10)
	p.SetColor4(&math32.Color4{R: 0.1, G: 0.12, B: 0.15, A: opacity})
	p.SetPaddings(pad, pad, pad, pad)
	l := gui.NewVBoxLayout()
	l.SetSpacing(gap)
	l.SetAutoHeight(true)
	p.SetLayout(l)
	return p
}

func (d *Demo) placeGUI() {
	if d.gui == nil {
		return
	}
	w, _ := d.app.GetSize()
	d.gui.SetPosition(float32(w)-d.gui.Width()-10, 10)
}

// Texture returns an embedded texture by name, loaded once.
func (d *Demo) Texture(name string) *texture.Texture2D {
	if t, ok := d.textures[name]; ok {
		return t
	}
	img, err := assets.Texture(name)
	if err != nil {
		panic(err)
	}
	t := scene.TextureFromImage(img)
	d.textures[name] = t
	return t
}

// parseVec reads "x,y,z": three finite numbers within maxCoord.
func parseVec(s string) (math32.Vector3, error) {
	f := strings.Split(s, ",")
	if len(f) != 3 {
		return math32.Vector3{}, fmt.Errorf("want x,y,z")
	}
	var v [3]float32
	for i := range f {
		x, err := strconv.ParseFloat(strings.TrimSpace(f[i]), 64)
		if err != nil {
			return math32.Vector3{}, fmt.Errorf("%q is not a number", strings.TrimSpace(f[i]))
		}
		if !(math.Abs(x) <= maxCoord) {
			return math32.Vector3{}, fmt.Errorf("%v: want finite meters within ±%g", x, float64(maxCoord))
		}
		v[i] = float32(x)
	}
	return math32.Vector3{X: v[0], Y: v[1], Z: v[2]}, nil
}

// openWindow opens g3n's window. GLFW panics when it cannot (no display,
// no OpenGL): that becomes an error that says what to do.
func openWindow(width, height int, title string) (a *app.Application, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("cannot open a %dx%d OpenGL window: %v (without a display, run under xvfb-run)", width, height, r)
		}
	}()
	return app.App(width, height, title), nil
}

// simulate runs one frame of dt seconds of the scene: its updates, the
// world matrices, then the physics. It returns how many steps ran and the
// time they took.
func (d *Demo) simulate(dt float32) (steps int, physics time.Duration) {
	for _, f := range d.updates {
		f(dt)
	}
	d.Scene.UpdateMatrixWorld()
	if d.driver == nil {
		return 0, 0
	}
	if len(d.steps) == 0 {
		steps = d.driver.Update(dt)
		return steps, d.driver.Physics
	}
	// One step at a time, each after the step hooks. The clock applies
	// the Driver's rule (frame cap, step cap), and feeding the Driver
	// exactly one TimeStep runs exactly one step.
	n := 0
	if !d.driver.Paused() {
		n = d.clock.advance(float64(dt))
	}
	h := d.clock.step
	for i := 0; i < n; i++ {
		for _, f := range d.steps {
			f(h)
		}
		d.Scene.UpdateMatrixWorld()
		steps += d.driver.Update(float32(h))
		physics += d.driver.Physics
	}
	if n == 0 {
		// Paused, or a frame shorter than a step: hooks still run (and
		// Space's single step).
		steps = d.driver.Update(0)
		physics = d.driver.Physics
	}
	return steps, physics
}

// writeShot reads the frame just rendered (before the buffer swap) and
// writes it as PNG. GL rows run bottom-up.
func (d *Demo) writeShot(path string) error {
	w, h := d.app.GetFramebufferSize()
	px := d.app.Gls().ReadPixels(0, 0, w, h, gls.RGBA, gls.UNSIGNED_BYTE)
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		copy(img.Pix[y*img.Stride:y*img.Stride+4*w], px[(h-1-y)*4*w:(h-y)*4*w])
	}
	for i := 3; i < len(img.Pix); i += 4 {
		img.Pix[i] = 255
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		return err
	}
	return os.WriteFile(path, buf.Bytes(), 0o644)
}

// ray returns the physics-space ray under the cursor at window position x, y.
func (d *Demo) ray(x, y float32) (origin, dir mgl32.Vec3) {
	w, h := d.app.GetSize()
	nx, ny := 2*x/float32(w)-1, 1-2*y/float32(h)
	near := d.Camera.Unproject(&math32.Vector3{X: nx, Y: ny, Z: -1})
	far := d.Camera.Unproject(&math32.Vector3{X: nx, Y: ny, Z: 1})
	o := mgl32.Vec3{near.X, near.Y, near.Z}
	return o, vecmath.Normalize(mgl32.Vec3{far.X, far.Y, far.Z}.Sub(o))
}

// colorOf converts an image color for tests and tools.
func colorOf(c math32.Color) color.NRGBA {
	return color.NRGBA{uint8(float32(c.R*255) + 0.5), uint8(float32(c.G*255) + 0.5), uint8(float32(c.B*255) + 0.5), 255}
}

// AddFloor adds a textured floor of the given size (m) at height y and returns
// its mesh. It is only a picture: add a verlet3d.Plane for physics.
func (d *Demo) AddFloor(y, size float32) *graphic.Mesh {
	geom := geometry.NewPlane(size, size)
	mat := material.NewStandard(&math32.Color{R: 1, G: 1, B: 1})
	tex := d.Texture("floor")
	tex.SetRepeat(float32(size/2), float32(size/2))
	mat.AddTexture(tex)
	m := graphic.NewMesh(geom, mat)
	if d.Orbit != nil {
		d.Orbit.Floor = y
	}
	m.SetRotationX(-math32.Pi / 2)
	m.SetPosition(0, y, 0)
	d.Scene.Add(m)
	return m
}
