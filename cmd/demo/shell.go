package main

import (
	"fmt"
	"math"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/drape3d/drape/verlet3d"
	"github.com/g3n/engine/app"
	"github.com/g3n/engine/camera"
	"github.com/g3n/engine/core"
	"github.com/g3n/engine/gls"
	"github.com/g3n/engine/gui"
	"github.com/g3n/engine/light"
	"github.com/g3n/engine/math32"
	"github.com/g3n/engine/renderer"
	"github.com/g3n/engine/texture"
	"github.com/g3n/engine/window"
)

// shell is what outlives a scene: the window, the camera and its orbit, the
// lights, the HUD, the scene menu, the input router and its tools, the
// overlays and the script. It builds the current scene into a fresh Demo
// and switches scenes inside the running app.
type shell struct {
	app   *app.Application
	opt   *options   // the flags; scenes' sliders change their parts
	root  *core.Node // rendered: camera, lights, HUD, menu, tools, scene
	cam   *camera.Camera
	orbit *orbit
	// The key and fill lights turn with the camera (lightRig).
	sun, fill *light.Directional
	hud       *gui.Label
	menu      *gui.Panel
	panels    []gui.IPanel // clickable panels: the router leaves their events to the GUI
	router    router
	grab      *grabber
	knife     knife
	brush     brush
	views     *overlays
	script    *script

	d          *Demo
	name       string
	textures   map[string]*texture.Texture2D
	overrides  configOverrides // the settings panel's physics changes, kept across rebuilds
	pending    string          // scene to switch to before the next frame
	rebuild    bool            // rebuild the current scene before the next frame, keeping the camera
	rebuildAt  float64         // clock time of a rebuild asked for by a slider
	clock      float64         // frame time summed, s (the script's clock)
	frames     int             // frames rendered since start
	meter      frameMeter
	wallStart  time.Time
	err        error
	showHelp   bool
	hideGUI    bool // F2: the HUD and panels hidden, for pictures
	fresh      int  // frames since the scene was built
	menuButton map[string]*gui.Button
}

// configOverrides are the settings panel's changes to a scene's World
// config: zero means the scene's own value.
type configOverrides struct {
	substeps, iterations int
	damping, gravity     float32
	dampingSet           bool
}

func run(def sceneDef, opt *options) error {
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
	a, err := openWindow(opt.width, opt.height, "drape demo")
	if err != nil {
		return err
	}
	sh := &shell{app: a, opt: opt, root: core.NewNode(), textures: map[string]*texture.Texture2D{}, showHelp: true}
	sh.router.sh = sh
	sh.script = opt.scriptData
	gui.Manager().Set(sh.root)
	// The router takes the window's events beside g3n's GUI manager, which
	// delivers them to panels; the router leaves events on a panel alone.
	a.Subscribe(window.OnMouseDown, sh.router.onMouseDown)
	a.Subscribe(window.OnMouseUp, sh.router.onMouseUp)
	a.Subscribe(window.OnCursor, sh.router.onCursor)
	a.Subscribe(window.OnScroll, sh.router.onScroll)
	a.Subscribe(window.OnKeyDown, sh.router.onKey)

	fw, fh := a.GetFramebufferSize()
	sh.cam = camera.New(float32(fw) / float32(fh))
	sh.root.Add(sh.cam)
	sh.orbit = newOrbit(sh.cam)

	sh.root.Add(light.NewAmbient(&math32.Color{R: 1, G: 1, B: 1}, 0.45))
	sh.sun = light.NewDirectional(&math32.Color{R: 1, G: 0.97, B: 0.9}, 0.9)
	sh.root.Add(sh.sun)
	sh.fill = light.NewDirectional(&math32.Color{R: 0.6, G: 0.7, B: 1}, 0.35)
	sh.root.Add(sh.fill)
	sh.lightRig()

	sh.hud = gui.NewLabel("")
	sh.hud.SetPosition(10, 10)
	sh.hud.SetFontSize(15)
	sh.hud.SetColor(&math32.Color{R: 0.05, G: 0.05, B: 0.1})
	sh.root.Add(sh.hud)
	sh.grab = newGrabber(sh.root)
	sh.views = newOverlays(sh.root)
	sh.buildMenu()

	if err := sh.build(def.Name, false); err != nil {
		return err
	}
	if camPos != nil || camLook != nil {
		eye, look := sh.orbit.Eye(), sh.orbit.Target()
		if camPos != nil {
			eye = *camPos
		}
		if camLook != nil {
			look = *camLook
		}
		sh.orbit.Place(eye, look)
		sh.orbit.setHome()
		sh.d.camSet = true
	}
	onResize := func(string, interface{}) {
		w, h := a.GetFramebufferSize()
		a.Gls().Viewport(0, 0, int32(w), int32(h))
		sh.cam.SetAspect(float32(w) / float32(h))
		sh.place()
	}
	a.Subscribe(window.OnWindowSize, onResize)
	onResize("", nil)

	gs := a.Gls()
	gs.ClearColor(demoBackground.R, demoBackground.G, demoBackground.B, 1)
	sh.meter.span = 500 * time.Millisecond
	sh.wallStart = time.Now()
	a.Run(func(r *renderer.Renderer, delta time.Duration) { sh.frame(r, delta) })
	return sh.err
}

// frame runs one frame: the script's input, a pending switch or rebuild,
// the scene and its physics, the tools and overlays, the HUD, the render,
// then the script's probes and captures.
func (sh *shell) frame(r *renderer.Renderer, delta time.Duration) {
	dt := float32(delta.Seconds())
	if sh.opt.frames > 0 {
		dt = 1.0 / 60
	}
	if sh.fresh < 5 {
		// The first frames after a build carry the time spent building
		// and compiling shaders: do not let the scene fall through them
		// before it is seen.
		dt = min(dt, 1.0/60)
	}
	sh.fresh++
	sh.clock += float64(dt)
	if sh.script != nil {
		if err := sh.script.input(sh); err != nil {
			sh.fail(err)
			return
		}
	}
	if sh.rebuildAt > 0 && sh.clock >= sh.rebuildAt {
		sh.rebuildAt, sh.rebuild = 0, true
	}
	if sh.pending != "" || sh.rebuild {
		name, keep := sh.pending, sh.rebuild && sh.pending == ""
		if name == "" {
			name = sh.name
		}
		sh.pending, sh.rebuild = "", false
		if err := sh.build(name, keep); err != nil {
			sh.fail(err)
			return
		}
	}
	d := sh.d
	t0 := time.Now()
	steps, physics := d.simulate(dt)
	sceneTime := time.Since(t0) - physics
	sh.grab.sync()
	sh.views.sync(d)
	sh.hud.SetText(sh.hudText())
	t1 := time.Now()
	sh.lightRig()
	gs := sh.app.Gls()
	gs.Clear(gls.DEPTH_BUFFER_BIT | gls.STENCIL_BUFFER_BIT | gls.COLOR_BUFFER_BIT)
	if err := r.Render(sh.root, sh.cam); err != nil {
		sh.fail(err)
		return
	}
	render := time.Since(t1)
	sh.meter.phases(sceneTime, render)
	if d.driver != nil {
		sh.meter.observe(d.driver.World.Stats().Phases)
	}
	sh.meter.frame(time.Now(), physics, steps)
	d.Frame++
	sh.frames++
	if sh.script != nil {
		if err := sh.script.output(sh); err != nil {
			sh.fail(err)
			return
		}
	}
	if sh.opt.frames > 0 && sh.frames >= sh.opt.frames {
		if sh.opt.shot != "" {
			sh.err = d.writeShot(sh.opt.shot)
		}
		sh.app.Exit()
	}
}

func timeSince(t time.Time) float64 { return time.Since(t).Seconds() }

func (sh *shell) fail(err error) {
	if sh.err == nil {
		sh.err = err
	}
	sh.app.Exit()
}

// build makes the named scene in a fresh Demo, replacing the current one.
// keepView keeps the camera where it is (a reset or a settings rebuild).
func (sh *shell) build(name string, keepView bool) error {
	def, ok := findScene(name)
	if !ok {
		return fmt.Errorf("no scene %q", name)
	}
	sh.router.end()
	sh.grab.forget()
	if old := sh.d; old != nil {
		sh.root.Remove(old.Scene)
		if old.driver != nil {
			old.driver.World.Close()
		}
		// Free the old scene's GPU buffers and textures. Its materials
		// delete the textures they hold, cached ones included, and a
		// deleted g3n texture comes back empty, so the cache goes too and
		// the next scene loads its own.
		old.Scene.DisposeChildren(true)
		clear(sh.textures)
	}
	if name != sh.name {
		sh.overrides = configOverrides{}
	}
	sh.name = name
	sh.panels = sh.panels[:0]
	sh.panels = append(sh.panels, sh.menu)
	d := &Demo{
		Scene:      core.NewNode(),
		Camera:     sh.cam,
		Orbit:      sh.orbit,
		Headless:   sh.opt.frames > 0,
		Workers:    sh.opt.workers,
		WorkerSpin: float32(sh.opt.workerSpin),
		app:        sh.app,
		sh:         sh,
		about:      def.About,
		textures:   sh.textures,
		camSet:     keepView,
	}
	sh.d = d
	sh.fresh = 0
	sh.root.Add(d.Scene)
	eye, target := sh.orbit.Eye(), sh.orbit.Target()
	sh.orbit.Floor = -math32.Infinity
	w, err := d.NewWorld(def.Config())
	if err != nil {
		return fmt.Errorf("scene %s: %w", name, err)
	}
	if err := def.Build(d, w, sh.opt); err != nil {
		return fmt.Errorf("scene %s: %w", name, err)
	}
	if keepView {
		sh.orbit.Place(eye, target)
	} else {
		sh.orbit.setHome()
	}
	d.bindDefaultKeys()
	d.addPhysicsSettings()
	sh.views.reset(d)
	for n, b := range sh.menuButton {
		if n == name {
			b.Label.SetColor(&math32.Color{R: 1, G: 0.8, B: 0.2})
		} else {
			b.Label.SetColor(&math32.Color{R: 0, G: 0, B: 0})
		}
	}
	// A capture without a script shows the scene and the HUD, not the
	// clickable panels.
	sh.showGUI()
	sh.place()
	return nil
}

// showGUI shows or hides the HUD and the panels: a capture without a
// script shows the scene and the HUD, not the clickable panels; F2 hides
// everything.
func (sh *shell) showGUI() {
	panels := (sh.opt.frames == 0 || sh.script != nil) && !sh.hideGUI
	sh.menu.SetVisible(panels)
	if sh.d.gui != nil {
		sh.d.gui.SetVisible(panels)
	}
	sh.hud.SetVisible(!sh.hideGUI)
}

// switchTo asks for the named scene before the next frame.
func (sh *shell) switchTo(name string) {
	if _, ok := findScene(name); ok {
		sh.pending = name
	}
}

// buildMenu makes the scene menu: one button per scene, at the bottom
// left; number keys choose the same scenes.
func (sh *shell) buildMenu() {
	sh.menu = stackPanel(120, 0.5, 4, 3)
	sh.menuButton = map[string]*gui.Button{}
	for i, n := range sceneNames() {
		name := n
		b := gui.NewButton(fmt.Sprintf("%d %s", i+1, name))
		b.SetWidth(112)
		b.Subscribe(gui.OnClick, func(string, interface{}) { sh.switchTo(name) })
		sh.menu.Add(b)
		sh.menuButton[name] = b
	}
	sh.root.Add(sh.menu)
}

// place puts the menu at the bottom left and the scene's panel at the top
// right of the window.
func (sh *shell) place() {
	w, h := sh.app.GetSize()
	sh.menu.SetPosition(10, float32(h)-sh.menu.Height()-10)
	if sh.d != nil && sh.d.gui != nil {
		sh.d.gui.SetPosition(float32(w)-sh.d.gui.Width()-10, 10)
	}
}

// key handles a key press: the scene's bindings first, then the demo's.
// A key the scene binds is never also a demo key, and no key moves the
// camera but Home and F.
func (sh *shell) key(k window.Key, mods window.ModifierKey) {
	d := sh.d
	for _, b := range d.keys {
		if b.key == k {
			b.f()
			return
		}
	}
	if k >= window.Key1 && k <= window.Key9 {
		names := sceneNames()
		if i := int(k - window.Key1); i < len(names) {
			sh.switchTo(names[i])
		}
	}
}

// bindDefaultKeys adds the demo's keys after the scene's own; a scene that
// binds one of these keys keeps it (its binding is found first).
func (d *Demo) bindDefaultKeys() {
	sh := d.sh
	d.OnKey(window.KeyEscape, "Esc quit", d.app.Exit)
	d.OnKey(window.KeyHome, "Home view", sh.orbit.Home)
	d.OnKey(window.KeyF, "F focus", sh.focus)
	d.OnKey(window.KeyF1, "F1 help", func() { sh.showHelp = !sh.showHelp })
	d.OnKey(window.KeyF2, "F2 hide text", func() { sh.hideGUI = !sh.hideGUI; sh.showGUI() })
	if d.driver == nil {
		return
	}
	d.OnKey(window.KeyR, "R reset", func() { sh.rebuild = true })
	d.OnKey(window.KeyP, "P pause", func() { d.driver.SetPaused(!d.driver.Paused()) })
	d.OnKey(window.KeySpace, "Space step", func() {
		if !d.driver.Paused() {
			d.driver.SetPaused(true)
		}
		d.driver.StepOnce()
	})
	d.OnKey(window.KeyV, "V strain", sh.views.toggleStrain)
	d.OnKey(window.KeyO, "O colliders", sh.views.toggleColliders)
	d.OnKey(window.KeyD, "D dots", sh.views.toggleDots)
	d.OnKey(window.KeyL, "L links", sh.views.toggleLinks)
	d.OnKey(window.KeyK, "K contacts", sh.views.toggleContacts)
}

// focus points the camera at the grabbed (or last grabbed) particle, or at
// what the scene says is its subject.
func (sh *shell) focus() {
	g := sh.grab
	if g.hasLst && sh.d.driver != nil && g.w == sh.d.driver.World {
		p := g.w.Position(g.last)
		sh.orbit.SetTarget(math32.Vector3{X: p[0], Y: p[1], Z: p[2]})
		return
	}
	if sh.d.focus != nil {
		if t, ok := sh.d.focus(); ok {
			sh.orbit.SetTarget(t)
		}
	}
}

// keyHelpWidth is the longest line of key help, in characters: longer
// ones wrap, so that the help stays left of the settings panel.
const keyHelpWidth = 90

func (d *Demo) keyHelp() string {
	var b strings.Builder
	line := 0 // characters on the current line
	for _, k := range d.keys {
		if k.help == "" {
			continue
		}
		n := utf8.RuneCountInString(k.help)
		if line > 0 && line+2+n > keyHelpWidth {
			b.WriteString("\n")
			line = 0
		} else if line > 0 {
			b.WriteString("  ")
			line += 2
		}
		b.WriteString(k.help)
		line += n
	}
	b.WriteString("\nmouse: drag orbit, right-drag pan, wheel zoom, Shift+drag grab, Ctrl+drag cut, Alt+drag push; 1-9 scenes")
	return b.String()
}

// lightRig places the lights as a photographer would around whatever the
// camera looks at: the key light high and a little to the right of the
// camera, the cooler fill low from the opposite side. Fixed world lights
// left the side of a subject that faced away from them (a cape seen from
// behind on a character walking away from the sun) in fill light only.
func (sh *shell) lightRig() {
	eye, at := sh.orbit.Eye(), sh.orbit.Target()
	az := math.Atan2(float64(eye.X-at.X), float64(eye.Z-at.Z))
	place := func(l *light.Directional, az, el float64) {
		l.SetPosition(float32(math.Sin(az)*math.Cos(el)), float32(math.Sin(el)), float32(math.Cos(az)*math.Cos(el)))
	}
	place(sh.sun, az+0.6, 0.9)
	place(sh.fill, az+math.Pi-0.9, 0.35)
}

// hudText is the HUD: the scene, the measured times (frame rate and frame
// time from wall time over the meter's window; scene update, physics and
// render ms per frame; steps per frame), the World's counts, the scene's
// status line and the keys.
func (sh *shell) hudText() string {
	d := sh.d
	m := &sh.meter
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %s\n", sh.name, d.about)
	if m.ready() {
		fmt.Fprintf(&b, "%.1f fps  frame %.2f ms (scene %.2f, physics %.2f, render %.2f ms)  %.2f steps/frame",
			m.fps, m.frameMS, m.sceneMS, m.physicsMS, m.renderMS, m.stepsPerFrm)
		if p := m.phasesMS; d.driver != nil && p.Total() > 0 {
			ms := func(t time.Duration) float64 { return t.Seconds() * 1000 }
			fmt.Fprintf(&b, "\nphysics by phase (ms/frame): forces %.2f  integrate %.2f  collide %.2f  solve %.2f  respond %.2f  post %.2f",
				ms(p.Forces), ms(p.Integrate), ms(p.Collide), ms(p.Solve), ms(p.Respond), ms(p.Post))
		}
	} else {
		b.WriteString("-- fps  frame -- ms")
	}
	if d.driver != nil {
		w := d.driver.World
		st := w.Stats()
		fmt.Fprintf(&b, "\n%d particles  %d constraints  %d contacts  %d non-finite resets",
			w.NumParticles(), w.NumLinks()+w.NumTethers(), st.Contacts, st.NonFiniteResets)
		if d.driver.Paused() {
			b.WriteString("  PAUSED")
		}
		if w.Sleeping() {
			b.WriteString("  asleep")
		}
	}
	if d.status != "" {
		b.WriteString("\n" + d.status)
	}
	if sh.showHelp {
		b.WriteString("\n" + d.keyHelp())
	}
	return b.String()
}

// NewWorld makes the scene's World from cfg with the demo's -workers and
// the settings panel's overrides applied.
func (d *Demo) NewWorld(cfg verlet3d.Config) (*verlet3d.World, error) {
	cfg.Workers = max(d.Workers, 1)
	if d.sh != nil { // a scene built for a test keeps the defaults
		cfg.WorkerSpin = d.WorkerSpin
		o := d.sh.overrides
		if o.substeps > 0 {
			cfg.Substeps = o.substeps
		}
		if o.iterations > 0 {
			cfg.Iterations = o.iterations
		}
		if o.dampingSet {
			cfg.Damping = o.damping
		}
		if o.gravity != 0 {
			cfg.Gravity = cfg.Gravity.Normalize().Mul(o.gravity)
		}
	}
	return verlet3d.NewWorld(cfg)
}

// Slider adds a row to the scene's settings panel: label, range, the
// current value, a format for it, and what a change does. A change that
// needs the scene rebuilt calls d.Rebuild from set.
func (d *Demo) Slider(label string, lo, hi, val float32, format string, set func(v float32)) {
	p := d.GUI()
	sl := gui.NewHSlider(240, 26)
	show := func(v float32) { sl.SetText(fmt.Sprintf("%s "+format, label, v)) }
	sl.SetValue((val - lo) / (hi - lo))
	show(val)
	sl.Subscribe(gui.OnChange, func(string, interface{}) {
		v := lo + sl.Value()*(hi-lo)
		show(v)
		set(v)
	})
	p.Add(sl)
}

// Rebuild rebuilds the scene a moment later (so a slider being dragged
// rebuilds once), keeping the camera.
func (d *Demo) Rebuild() {
	if d.sh != nil {
		d.sh.rebuildAt = d.sh.clock + 0.3
	}
}

// addPhysicsSettings adds the physics rows every scene with a World has:
// iterations and gravity apply at once, substeps and damping rebuild the
// scene with the new value.
func (d *Demo) addPhysicsSettings() {
	if d.driver == nil || d.sh == nil {
		return
	}
	o := &d.sh.overrides
	w := d.driver.World
	cfg := w.Config()
	d.Slider("iterations", 1, 40, float32(cfg.Iterations), "%.0f", func(v float32) {
		n := int(v + 0.5)
		o.iterations = n
		_ = d.driver.World.SetIterations(n)
	})
	d.Slider("substeps", 1, 16, float32(cfg.Substeps), "%.0f", func(v float32) {
		if n := int(v + 0.5); n != d.driver.World.Config().Substeps {
			o.substeps = n
			d.Rebuild()
		}
	})
	d.Slider("damping (1/s)", 0, 3, cfg.Damping, "%.2f", func(v float32) {
		o.damping, o.dampingSet = v, true
		d.Rebuild()
	})
	g := cfg.Gravity.Len()
	d.Slider("gravity (m/s²)", 0, 20, g, "%.1f", func(v float32) {
		o.gravity = float32(math.Max(float64(v), 1e-3))
		dir := d.driver.World.Config().Gravity
		if dir.Len() == 0 {
			return
		}
		_ = d.driver.World.SetGravity(dir.Normalize().Mul(o.gravity))
	})
}
