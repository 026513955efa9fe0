package main

import (
	"bytes"
	"fmt"
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
	"github.com/drape3d/drape/scene"
	"github.com/drape3d/drape/verlet3d"
	"github.com/g3n/engine/app"
	"github.com/g3n/engine/camera"
	"github.com/g3n/engine/core"
	"github.com/g3n/engine/geometry"
	"github.com/g3n/engine/gls"
	"github.com/g3n/engine/graphic"
	"github.com/g3n/engine/gui"
	"github.com/g3n/engine/light"
	"github.com/g3n/engine/material"
	"github.com/g3n/engine/math32"
	"github.com/g3n/engine/renderer"
	"github.com/g3n/engine/texture"
	"github.com/g3n/engine/window"
	"github.com/go-gl/mathgl/mgl32"
)

// demoBackground is the clear colour; GL tests look for it.
var demoBackground = math32.Color{R: 0.62, G: 0.72, B: 0.82}

type options struct {
	scene, shot, cam, look string
	list                   bool
	frames, width, height  int
	workers                int
}

type keyBinding struct {
	key  window.Key
	help string
	f    func()
}

// Demo is what a scene's Build function gets: the g3n scene graph, the
// camera, and hooks into the frame loop.
type Demo struct {
	Scene    *core.Node           // add your nodes here; lights exist already
	Camera   *camera.Camera       // perspective camera
	Orbit    *camera.OrbitControl // mouse orbit around a target
	Headless bool                 // -frames given: dt is a fixed 1/60 s per frame
	Workers  int                  // -workers flag
	Frame    int                  // frames rendered so far

	app      *app.Application
	driver   *scene.Driver
	updates  []func(dt float32)
	steps    []func(h float64)
	clock    stepClock // with OnStep: the Driver's steps, counted ahead
	resets   []func()
	keys     []keyBinding
	status   string
	about    string
	hud      *gui.Label
	gui      *gui.Panel
	textures map[string]*texture.Texture2D
	camSet   bool

	grab  grabber    // Shift+drag
	meter frameMeter // the HUD's frame and physics times
}

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

// OnReset adds a function called after R has reset the World.
func (d *Demo) OnReset(f func()) { d.resets = append(d.resets, f) }

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
	d.Camera.SetPositionVec(&eye)
	d.Camera.LookAt(&target, &math32.Vector3{X: 0, Y: 1, Z: 0})
	d.Orbit.SetTarget(target)
}

// GUI returns a panel at the top right of the window for the scene's
// controls; children are stacked vertically.
func (d *Demo) GUI() *gui.Panel {
	if d.gui == nil {
		d.gui = gui.NewPanel(260, 10)
		d.gui.SetColor4(&math32.Color4{R: 0.1, G: 0.12, B: 0.15, A: 0.6})
		d.gui.SetPaddings(6, 6, 6, 6)
		l := gui.NewVBoxLayout()
		l.SetSpacing(4)
		l.SetAutoHeight(true)
		d.gui.SetLayout(l)
		d.Scene.Add(d.gui)
		d.placeGUI()
	}
	return d.gui
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
			return math32.Vector3{}, fmt.Errorf("%v: want finite metres within ±%g", x, float64(maxCoord))
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

func run(def sceneDef, opt options) error {
	var camPos, camLook *math32.Vector3
	if opt.cam != "" {
		v, err := parseVec(opt.cam)
		if err != nil {
			return fmt.Errorf("-cam %v", err)
		}
		camPos = &v
	}
	if opt.look != "" {
		v, err := parseVec(opt.look)
		if err != nil {
			return fmt.Errorf("-look %v", err)
		}
		camLook = &v
	}
	a, err := openWindow(opt.width, opt.height, "drape: "+def.Name)
	if err != nil {
		return err
	}
	d := &Demo{
		Scene:    core.NewNode(),
		Headless: opt.frames > 0,
		Workers:  opt.workers,
		app:      a,
		about:    def.About,
		textures: map[string]*texture.Texture2D{},
	}
	gui.Manager().Set(d.Scene)
	// Subscribe before the orbit control so a Shift+drag can switch orbiting
	// off before the orbit control sees the press.
	a.Subscribe(window.OnMouseDown, d.onMouse)
	a.Subscribe(window.OnMouseUp, d.onMouse)
	a.Subscribe(window.OnCursor, d.onCursor)

	fw, fh := a.GetFramebufferSize()
	d.Camera = camera.New(float32(fw) / float32(fh))
	d.Camera.SetPosition(0, 1.5, 5)
	d.Scene.Add(d.Camera)
	d.Orbit = camera.NewOrbitControl(d.Camera)
	d.Camera.LookAt(&math32.Vector3{X: 0, Y: 1, Z: 0}, &math32.Vector3{X: 0, Y: 1, Z: 0})
	d.Orbit.SetTarget(math32.Vector3{X: 0, Y: 1, Z: 0})

	d.Scene.Add(light.NewAmbient(&math32.Color{R: 1, G: 1, B: 1}, 0.45))
	sun := light.NewDirectional(&math32.Color{R: 1, G: 0.97, B: 0.9}, 0.9)
	sun.SetPosition(3, 6, 4)
	d.Scene.Add(sun)
	fill := light.NewDirectional(&math32.Color{R: 0.6, G: 0.7, B: 1}, 0.35)
	fill.SetPosition(-4, 2, -3)
	d.Scene.Add(fill)

	d.hud = gui.NewLabel("")
	d.hud.SetPosition(10, 10)
	d.hud.SetFontSize(15)
	d.hud.SetColor(&math32.Color{R: 0.05, G: 0.05, B: 0.1})
	d.Scene.Add(d.hud)

	if err := def.Build(d); err != nil {
		return fmt.Errorf("scene %s: %w", def.Name, err)
	}
	if camPos != nil || camLook != nil {
		eye, look := d.Camera.Position(), d.Orbit.Target()
		if camPos != nil {
			eye = *camPos
		}
		if camLook != nil {
			look = *camLook
		}
		d.LookAt(eye, look)
		d.camSet = true
	}
	d.bindDefaultKeys()
	a.Subscribe(window.OnKeyDown, func(_ string, ev interface{}) {
		kev := ev.(*window.KeyEvent)
		for _, k := range d.keys {
			if k.key == kev.Key {
				k.f()
			}
		}
	})
	onResize := func(string, interface{}) {
		w, h := a.GetFramebufferSize()
		a.Gls().Viewport(0, 0, int32(w), int32(h))
		d.Camera.SetAspect(float32(w) / float32(h))
		d.placeGUI()
	}
	a.Subscribe(window.OnWindowSize, onResize)
	onResize("", nil)

	gs := a.Gls()
	gs.ClearColor(demoBackground.R, demoBackground.G, demoBackground.B, 1)
	var runErr error
	d.meter.span = 500 * time.Millisecond
	a.Run(func(r *renderer.Renderer, delta time.Duration) {
		dt := float32(delta.Seconds())
		if d.Headless {
			dt = 1.0 / 60
		}
		steps, physics := d.simulate(dt)
		d.meter.frame(time.Now(), physics, steps)
		d.hud.SetText(fmt.Sprintf("%s: %s\n%s\n%s\n%s", def.Name, d.about, d.hudTimes(), d.status, d.keyHelp()))
		gs.Clear(gls.DEPTH_BUFFER_BIT | gls.STENCIL_BUFFER_BIT | gls.COLOR_BUFFER_BIT)
		if err := r.Render(d.Scene, d.Camera); err != nil {
			runErr = err
			a.Exit()
			return
		}
		d.Frame++
		if d.Headless && d.Frame >= opt.frames {
			if opt.shot != "" {
				runErr = d.writeShot(opt.shot)
			}
			a.Exit()
		}
	})
	return runErr
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

func (d *Demo) bindDefaultKeys() {
	d.OnKey(window.KeyEscape, "Esc quit", d.app.Exit)
	if d.driver == nil {
		return
	}
	d.OnKey(window.KeyR, "R reset", func() {
		d.grab.end()
		d.driver.World.Reset()
		for _, f := range d.resets {
			f()
		}
	})
	d.OnKey(window.KeyP, "P pause", func() { d.driver.SetPaused(!d.driver.Paused()) })
	d.OnKey(window.KeySpace, "Space step", d.driver.StepOnce)
}

func (d *Demo) keyHelp() string {
	var b strings.Builder
	for i, k := range d.keys {
		if i > 0 {
			b.WriteString("  ")
		}
		b.WriteString(k.help)
	}
	b.WriteString("  Shift+drag grab")
	return b.String()
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
	return o, mgl32.Vec3{far.X, far.Y, far.Z}.Sub(o).Normalize()
}

func (d *Demo) onMouse(evname string, ev interface{}) {
	mev := ev.(*window.MouseEvent)
	if d.driver == nil || mev.Button != window.MouseButtonLeft {
		return
	}
	switch evname {
	case window.OnMouseDown:
		if mev.Mods&window.ModShift == 0 {
			return
		}
		o, dir := d.ray(mev.Xpos, mev.Ypos)
		if d.grab.begin(d.driver.World, o, dir) {
			d.Orbit.SetEnabled(camera.OrbitNone)
		}
	case window.OnMouseUp:
		if d.grab.on {
			d.grab.end()
			d.Orbit.SetEnabled(camera.OrbitAll)
		}
	}
}

func (d *Demo) onCursor(_ string, ev interface{}) {
	if !d.grab.on {
		return
	}
	cev := ev.(*window.CursorEvent)
	d.grab.move(d.ray(cev.Xpos, cev.Ypos))
}

// hudTimes is the HUD's line of measured times: frame rate and frame time
// from wall time over the meter's window, physics time and steps per
// frame, and the World's size and non-finite resets.
func (d *Demo) hudTimes() string {
	m := &d.meter
	var b strings.Builder
	if m.ready() {
		fmt.Fprintf(&b, "%.1f fps  frame %.1f ms", m.fps, m.frameMS)
	} else {
		b.WriteString("-- fps  frame -- ms")
	}
	if d.driver != nil {
		w := d.driver.World
		if m.ready() {
			fmt.Fprintf(&b, "  physics %.2f ms/frame  %.2f steps/frame", m.physicsMS, m.stepsPerFrm)
		}
		fmt.Fprintf(&b, "  %d particles", w.NumParticles())
		if n := w.Stats().NonFiniteResets; n > 0 {
			fmt.Fprintf(&b, "  %d non-finite resets", n)
		}
	}
	return b.String()
}

// grabber is the Shift+drag tool: it holds the particle picked under the
// cursor on the plane through it facing the camera, at the depth where it
// was picked, and lets it go on release (World.Release gives it back the
// state it had, with the velocity it was dragged at).
type grabber struct {
	w     *verlet3d.World
	p     verlet3d.Particle
	depth float32 // distance along the pick ray, m
	on    bool
}

// pickRadius is how far from the cursor's ray a particle can be picked, m.
const pickRadius = 0.2

// begin picks the particle nearest the ray and holds it where it is; it
// reports whether one was near enough.
func (g *grabber) begin(w *verlet3d.World, origin, dir mgl32.Vec3) bool {
	g.end()
	p, ok := w.Pick(origin, dir, pickRadius)
	if !ok {
		return false
	}
	g.w, g.p, g.on = w, p, true
	g.depth = w.Position(p).Sub(origin).Dot(dir)
	w.DragTo(p, w.Position(p))
	return true
}

// move drags the held particle to the point of the ray at the pick depth.
func (g *grabber) move(origin, dir mgl32.Vec3) {
	if !g.on {
		return
	}
	t := origin.Add(dir.Mul(g.depth))
	if !vecmath.Finite(t) {
		return
	}
	g.w.DragTo(g.p, t)
}

// end lets go of the held particle, if any.
func (g *grabber) end() {
	if g.on {
		g.w.Release(g.p)
		g.on = false
	}
}

// colorOf converts an image colour for tests and tools.
func colorOf(c math32.Color) color.NRGBA {
	return color.NRGBA{uint8(c.R*255 + 0.5), uint8(c.G*255 + 0.5), uint8(c.B*255 + 0.5), 255}
}

// AddFloor adds a textured floor of the given size (m) at height y and returns
// its mesh. It is only a picture: add a verlet3d.Plane for physics.
func (d *Demo) AddFloor(y, size float32) *graphic.Mesh {
	geom := geometry.NewPlane(size, size)
	mat := material.NewStandard(&math32.Color{R: 1, G: 1, B: 1})
	tex := d.Texture("floor")
	tex.SetRepeat(size/2, size/2)
	mat.AddTexture(tex)
	m := graphic.NewMesh(geom, mat)
	m.SetRotationX(-math32.Pi / 2)
	m.SetPosition(0, y, 0)
	d.Scene.Add(m)
	return m
}
