package main

import (
	"flag"
	"fmt"
	"math"

	"github.com/drape3d/drape/hair"
	"github.com/drape3d/drape/scene"
	"github.com/drape3d/drape/verlet3d"
	"github.com/g3n/engine/core"
	"github.com/g3n/engine/geometry"
	"github.com/g3n/engine/graphic"
	"github.com/g3n/engine/gui"
	"github.com/g3n/engine/material"
	"github.com/g3n/engine/math32"
	"github.com/g3n/engine/window"
	"github.com/go-gl/mathgl/mgl32"
)

var (
	hairWind     = flag.Float64("hair-wind", 0, "hair scene: start with wind of this speed in m/s blowing from the viewer's left")
	hairTurn     = flag.Bool("hair-turn", false, "hair scene: after 1 s of settling, start a fast head turn (yaw to 70° and back with a nod, 1.2 s)")
	hairStrands  = flag.Int("hair-strands", 2000, "hair scene: number of strands")
	hairSegments = flag.Int("hair-segments", 14, "hair scene: segments per strand")
	hairLength   = flag.Float64("hair-length", 0.24, "hair scene: longest strand length in metres")
)

func init() {
	register(sceneDef{
		Name:  "hair",
		About: "strands rooted on a head: turn, shake and nod it, blow wind, restyle live",
		Build: buildHair,
		Check: checkHair,
	})
}

func checkHair() error {
	switch {
	case *hairStrands < 1 || *hairStrands > 20000:
		return fmt.Errorf("-hair-strands = %d, want 1..20000", *hairStrands)
	case *hairSegments < 1 || *hairSegments > 64:
		return fmt.Errorf("-hair-segments = %d, want 1..64", *hairSegments)
	case !(*hairLength >= 0.01 && *hairLength <= 1):
		return fmt.Errorf("-hair-length = %v, want metres in 0.01..1", *hairLength)
	case !(*hairWind >= 0 && *hairWind <= 60):
		return fmt.Errorf("-hair-wind = %v, want m/s in [0, 60]", *hairWind)
	}
	return nil
}

// The head sits on a neck above shoulders; all in metres.
var (
	hairHeadCenter = mgl32.Vec3{0, 1.6, 0}
	hairHeadRadius = float32(0.1)
)

// hairScene is the state of the hair demo.
type hairScene struct {
	d      *Demo
	drv    *scene.Driver
	set    hair.Settings
	h      *hair.Hair
	mesh   *scene.HairMesh
	extras []verlet3d.Collider
	head   *core.Node

	// Head motion: yaw (turn) and pitch (nod) in radians, driven toward
	// targets by a critically damped spring, plus timed gestures.
	yaw, pitch, yawV, pitchV float64
	yawT, pitchT             float64
	gesture                  string
	gestureT                 float64
	turnAt                   float64 // sim time at which -hair-turn starts, or -1
	time                     float64

	windOn    bool
	windSpeed float32
	rebuildAt float64 // rebuild the hair at this time (after a slider moved), or -1
}

func buildHair(d *Demo) error {
	s := &hairScene{d: d, turnAt: -1, rebuildAt: -1, windSpeed: 6}
	s.set = hair.DefaultSettings()
	s.set.Strands = *hairStrands
	s.set.Segments = *hairSegments
	s.set.Length = float32(*hairLength)
	if *hairWind > 0 {
		s.windOn, s.windSpeed = true, float32(*hairWind)
	}
	if *hairTurn {
		s.turnAt = 1
	}
	scene.AddHairShader(d.app.Renderer())
	s.buildBody()
	if err := s.rebuild(); err != nil {
		return err
	}
	s.buildGUI()

	d.OnKey(window.KeyLeft, "←/→ turn", func() { s.yawT = hairClamp(s.yawT+0.5, -1.3, 1.3) })
	d.OnKey(window.KeyRight, "", func() { s.yawT = hairClamp(s.yawT-0.5, -1.3, 1.3) })
	d.OnKey(window.KeyUp, "↑/↓ tilt", func() { s.pitchT = hairClamp(s.pitchT-0.25, -0.5, 0.6) })
	d.OnKey(window.KeyDown, "", func() { s.pitchT = hairClamp(s.pitchT+0.25, -0.5, 0.6) })
	d.OnKey(window.KeyH, "H shake", func() { s.startGesture("shake") })
	d.OnKey(window.KeyN, "N nod", func() { s.startGesture("nod") })
	d.OnKey(window.KeyT, "T fast turn", func() { s.startGesture("turn") })
	d.OnKey(window.KeyC, "C centre", func() { s.yawT, s.pitchT = 0, 0 })
	d.OnKey(window.KeyW, "W wind", func() { s.windOn = !s.windOn; s.applyWind() })
	d.OnKey(window.KeyEqual, "+/- wind speed", func() { s.windSpeed = min(s.windSpeed+1, 20); s.applyWind() })
	d.OnKey(window.KeyMinus, "", func() { s.windSpeed = max(s.windSpeed-1, 1); s.applyWind() })

	d.OnUpdate(s.update)
	d.LookAt(math32.Vector3{X: 0.3, Y: 1.68, Z: 0.62}, math32.Vector3{X: 0, Y: 1.56, Z: 0})
	return nil
}

// buildBody adds the head, neck and shoulders: meshes, and the colliders
// the hair meets besides the head sphere.
func (s *hairScene) buildBody() {
	d := s.d
	skin := material.NewStandard(&math32.Color{R: 1, G: 1, B: 1})
	skin.AddTexture(d.Texture("hair_skin"))
	skin.SetShininess(12)
	skin.SetSpecularColor(&math32.Color{R: 0.12, G: 0.1, B: 0.1})

	// The head: a textured sphere (its face looks along +Z) and a nose, so
	// that turning reads clearly. Drawn a hair smaller than the collider
	// so roots sit on the skin.
	s.head = core.NewNode()
	faceMat := material.NewStandard(&math32.Color{R: 1, G: 1, B: 1})
	faceMat.AddTexture(d.Texture("hair_head"))
	faceMat.SetShininess(16)
	faceMat.SetSpecularColor(&math32.Color{R: 0.15, G: 0.13, B: 0.12})
	s.head.Add(graphic.NewMesh(geometry.NewSphere(float64(hairHeadRadius)*0.995, 64, 48), faceMat))
	noseMat := material.NewStandard(&math32.Color{R: 0.89, G: 0.7, B: 0.58})
	noseMat.SetShininess(16)
	nose := graphic.NewMesh(geometry.NewSphere(0.018, 16, 12), noseMat)
	nose.SetPosition(0, -0.017, 0.094)
	nose.SetScale(0.8, 1, 1)
	s.head.Add(nose)
	s.head.SetPositionVec(&math32.Vector3{X: hairHeadCenter[0], Y: hairHeadCenter[1], Z: hairHeadCenter[2]})
	d.Scene.Add(s.head)

	// Neck: a vertical capsule under the head.
	neckA, neckB := mgl32.Vec3{0, 1.56, -0.012}, mgl32.Vec3{0, 1.36, -0.012}
	neck, _ := verlet3d.NewCapsule(neckA, neckB, 0.052)
	// Shoulders: a horizontal capsule, with a box torso below.
	shA, shB := mgl32.Vec3{-0.17, 1.32, -0.015}, mgl32.Vec3{0.17, 1.32, -0.015}
	shoulders, _ := verlet3d.NewCapsule(shA, shB, 0.07)
	torso, _ := verlet3d.NewBox(mgl32.Vec3{0, 1.08, -0.015}, mgl32.Vec3{0.21, 0.24, 0.07}, mgl32.QuatIdent())
	s.extras = []verlet3d.Collider{neck, shoulders, torso}

	d.Scene.Add(hairCapsuleMesh(neckA, neckB, 0.052, skin))
	shirt := material.NewStandard(&math32.Color{R: 0.22, G: 0.33, B: 0.5})
	shirt.SetShininess(6)
	shirt.SetSpecularColor(&math32.Color{R: 0.05, G: 0.05, B: 0.05})
	d.Scene.Add(hairCapsuleMesh(shA, shB, 0.07, shirt))
	box := graphic.NewMesh(geometry.NewBox(0.42, 0.48, 0.14), shirt)
	box.SetPosition(0, 1.08, -0.015)
	d.Scene.Add(box)
}

// hairCapsuleMesh draws a capsule from a to b: a cylinder and two spheres.
func hairCapsuleMesh(a, b mgl32.Vec3, r float32, mat material.IMaterial) *core.Node {
	n := core.NewNode()
	mid := a.Add(b).Mul(0.5)
	axis := b.Sub(a)
	l := axis.Len()
	cyl := graphic.NewMesh(geometry.NewCylinder(float64(r), float64(l), 32, 1, false, false), mat)
	// Cylinders stand along +Y: turn +Y onto the axis.
	q := mgl32.QuatBetweenVectors(mgl32.Vec3{0, 1, 0}, axis.Normalize())
	cyl.SetQuaternion(q.V[0], q.V[1], q.V[2], q.W)
	cyl.SetPosition(mid[0], mid[1], mid[2])
	n.Add(cyl)
	for _, e := range []mgl32.Vec3{a, b} {
		sp := graphic.NewMesh(geometry.NewSphere(float64(r), 32, 16), mat)
		sp.SetPosition(e[0], e[1], e[2])
		n.Add(sp)
	}
	return n
}

// rebuild makes a new World with the current settings: a World never
// removes particles, so a new strand count needs a new one.
func (s *hairScene) rebuild() error {
	d := s.d
	cfg := hair.WorldConfig()
	cfg.Workers = d.Workers
	w, err := verlet3d.NewWorld(cfg)
	if err != nil {
		return err
	}
	head := hair.DefaultHead()
	head.Center = hairHeadCenter
	head.Radius = hairHeadRadius
	head.Rotation = s.rotation()
	h, err := hair.New(w, head, s.set)
	if err != nil {
		return err
	}
	for _, c := range s.extras {
		if err := w.AddCollider(c, verlet3d.ContactSettings{Friction: 0.4}); err != nil {
			return err
		}
	}
	h.Drape(s.extras...)
	mesh := scene.NewHairMesh(h, hair.DefaultPalette())
	// Fewer strands each stand for a thicker wisp: keep the hair's cover.
	k := float32(math.Sqrt(2000 / float64(s.set.Strands)))
	k = max(0.6, min(k, 2.5))
	mesh.Material.RootWidth *= k
	mesh.Material.TipWidth *= k
	if s.h != nil {
		// Out with the old hair.
		s.h.Close()
		s.drv.World.Close()
		d.Scene.Remove(s.mesh)
		s.mesh.Dispose()
		s.drv.World = w
	} else {
		s.drv = d.SetWorld(w)
		s.drv.AfterStep(func() { s.mesh.Sync() })
	}
	s.h, s.mesh = h, mesh
	d.Scene.Add(mesh)
	s.applyWind()
	return nil
}

func (s *hairScene) applyWind() {
	air := verlet3d.Wind{}
	if s.windOn {
		// From the viewer's left and a little from the front, gusty.
		dir := mgl32.Vec3{1, 0.05, -0.35}.Normalize()
		air = verlet3d.Wind{Steady: dir.Mul(s.windSpeed), Gust: 0.35, GustPeriod: 2.5, Turbulence: 0.2 * s.windSpeed, TurbulenceScale: 0.3}
	}
	s.h.SetWind(air)
}

func (s *hairScene) startGesture(g string) {
	s.gesture, s.gestureT = g, 0
}

// rotation is the head's current orientation.
func (s *hairScene) rotation() mgl32.Quat {
	return mgl32.QuatRotate(float32(s.yaw), mgl32.Vec3{0, 1, 0}).
		Mul(mgl32.QuatRotate(float32(s.pitch), mgl32.Vec3{1, 0, 0}))
}

// update moves the head before the World steps, and rebuilds the hair when
// a slider asked for it.
func (s *hairScene) update(dt float32) {
	if s.rebuildAt >= 0 && s.time >= s.rebuildAt {
		s.rebuildAt = -1
		if err := s.rebuild(); err != nil {
			s.d.Status("rebuild: %v", err)
		}
	}
	step := float64(dt)
	if s.drv != nil && s.drv.Paused() {
		step = 0
	}
	s.time += step
	if s.turnAt >= 0 && s.time >= s.turnAt {
		s.turnAt = -1
		s.startGesture("turn")
	}
	// A critically damped spring toward the key targets, 0.15 s time scale.
	const k = 1 / 0.15
	spring := func(x, v *float64, target float64) {
		a := k*k*(target-*x) - 2*k**v
		*v += a * step
		*x += *v * step
	}
	spring(&s.yaw, &s.yawV, s.yawT)
	spring(&s.pitch, &s.pitchV, s.pitchT)
	yaw, pitch := s.yaw, s.pitch
	if s.gesture != "" {
		s.gestureT += step
		t := s.gestureT
		switch s.gesture {
		case "shake": // "no": 3 quick swings, fading
			if t < 1.2 {
				yaw += 0.45 * math.Sin(2*math.Pi*2.5*t) * (1 - t/1.2)
			} else {
				s.gesture = ""
			}
		case "nod": // "yes"
			if t < 1.2 {
				pitch += 0.3 * math.Sin(2*math.Pi*2*t) * (1 - t/1.2)
			} else {
				s.gesture = ""
			}
		case "turn": // a fast look over the shoulder and back, with a nod
			if t < 1.2 {
				e := math.Sin(math.Pi * t / 1.2)
				yaw += 1.2 * e * math.Sin(math.Pi*t/1.2*2)
				pitch += 0.3 * e
			} else {
				s.gesture = ""
			}
		}
	}
	q := mgl32.QuatRotate(float32(yaw), mgl32.Vec3{0, 1, 0}).Mul(mgl32.QuatRotate(float32(pitch), mgl32.Vec3{1, 0, 0}))
	if err := s.h.SetHead(hairHeadCenter, q); err != nil {
		s.d.Status("head: %v", err)
		return
	}
	s.head.SetQuaternion(q.V[0], q.V[1], q.V[2], q.W)
	wind := "off"
	if s.windOn {
		wind = fmt.Sprintf("%.0f m/s", s.windSpeed)
	}
	s.d.Status("%d strands x %d segments, %.2f m; style %.2f; wind %s; head yaw %.0f°",
		s.set.Strands, s.set.Segments, s.set.Length, s.set.StyleStiffness, wind, yaw*180/math.Pi)
}

// buildGUI adds sliders that restyle the hair live.
func (s *hairScene) buildGUI() {
	p := s.d.GUI()
	later := func() { s.rebuildAt = s.time + 0.25 }
	slider := func(label string, lo, hi, val float32, format string, set func(v float32), rebuild bool) {
		sl := gui.NewHSlider(240, 28)
		show := func(v float32) { sl.SetText(fmt.Sprintf("%s "+format, label, v)) }
		sl.SetValue((val - lo) / (hi - lo))
		show(val)
		sl.Subscribe(gui.OnChange, func(string, interface{}) {
			v := lo + sl.Value()*(hi-lo)
			show(v)
			set(v)
			if rebuild {
				later()
			}
		})
		p.Add(sl)
	}
	slider("strands", 100, 4000, float32(s.set.Strands), "%.0f", func(v float32) { s.set.Strands = int(v) }, true)
	slider("length (m)", 0.06, 0.45, s.set.Length, "%.2f", func(v float32) { s.set.Length = v }, true)
	slider("segments", 3, 24, float32(s.set.Segments), "%.0f", func(v float32) { s.set.Segments = int(v + 0.5) }, true)
	slider("style stiffness", 0, 0.4, s.set.StyleStiffness, "%.2f", func(v float32) {
		s.set.StyleStiffness = v
		s.h.SetStyle(v, s.set.StyleTip)
	}, false)
	slider("wind (m/s)", 1, 20, s.windSpeed, "%.0f", func(v float32) { s.windSpeed = v; s.applyWind() }, false)
	cb := gui.NewCheckBox("wind on")
	cb.SetValue(s.windOn)
	cb.Subscribe(gui.OnChange, func(string, interface{}) { s.windOn = cb.Value(); s.applyWind() })
	p.Add(cb)
}

func hairClamp(x, lo, hi float64) float64 { return math.Max(lo, math.Min(hi, x)) }
