package main

import (
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

// check validates the hair scene's flags.
func (o *hairOptions) check() error {
	switch {
	case o.strands < 1 || o.strands > 20000:
		return fmt.Errorf("-hair-strands = %d, want 1..20000", o.strands)
	case o.segments < 1 || o.segments > 64:
		return fmt.Errorf("-hair-segments = %d, want 1..64", o.segments)
	case !(o.length >= 0.01 && o.length <= 1):
		return fmt.Errorf("-hair-length = %v, want meters in 0.01..1", o.length)
	case !(o.wind >= 0 && o.wind <= 60):
		return fmt.Errorf("-hair-wind = %v, want m/s in [0, 60]", o.wind)
	case o.dense < 1 || o.dense > hairMaxDense:
		return fmt.Errorf("-hair-dense = %d, want 1..%d", o.dense, hairMaxDense)
	case o.walk && o.run:
		return fmt.Errorf("-hair-walk and -hair-run: give one of them")
	}
	return nil
}

// hairMaxDense is the most render strands per guide the demo offers.
const hairMaxDense = 16

// The head sits on a neck above shoulders; all in meters, in the body's
// frame (the body stands at the origin facing +Z until it walks).
var (
	hairHeadCenter = mgl32.Vec3{0, 1.6, 0}
	hairTorso      = mgl32.Vec3{0, 1.08, -0.015} // center of the torso box
)

const hairHeadRadius float32 = 0.1 // m

// hairScene is the state of the hair demo.
type hairScene struct {
	d      *Demo
	o      *hairOptions
	drv    *scene.Driver
	set    hair.Settings
	h      *hair.Hair
	mesh   *scene.HairMesh
	head   *core.Node // head and nose meshes, posed every frame
	body   *core.Node // neck, shoulders and torso meshes, moved by the walk
	legs   [2]*core.Node
	follow *scene.Follower
	torso  *verlet3d.Box

	floor *graphic.Mesh // shown once the character walks

	motion hairMotion
	// the character's frame at the last frame, for the following camera
	lastPos mgl32.Vec3
	lastYaw float64

	dense     int     // render strands per guide (1: the guides alone)
	meshAt    float64 // remake the mesh at this clockTime (the ratio changed), or -1
	windOn    bool
	windSpeed float32
	rebuildAt float64 // rebuild the hair at this clockTime (after a slider moved), or -1
	clockTime float64 // frame time summed, s (runs while paused)
}

// buildHair builds the hair scene in w (hair.WorldConfig); a slider
// that changes the strands builds a new World of the same config.
func buildHair(d *Demo, w *verlet3d.World, o *hairOptions) error {
	s, err := newHairScene(d, w, o)
	if err != nil {
		return err
	}
	if o.wind > 0 {
		s.windOn, s.windSpeed = true, float32(o.wind)
		s.applyWind()
	}
	if o.turn {
		s.motion.turnAt = 1
	}
	switch {
	case o.walk:
		s.motion.gait = gaitWalk
	case o.run:
		s.motion.gait = gaitRun
	}
	scene.AddHairShader(d.app.Renderer())
	s.buildGUI()

	m := &s.motion
	d.OnKey(window.KeyLeft, "←/→ turn", func() { m.yawT = hairClamp(m.yawT+0.5, -hairMaxYaw, hairMaxYaw) })
	d.OnKey(window.KeyRight, "", func() { m.yawT = hairClamp(m.yawT-0.5, -hairMaxYaw, hairMaxYaw) })
	d.OnKey(window.KeyUp, "↑/↓ tilt", func() { m.pitchT = hairClamp(m.pitchT-0.25, hairMinPitch, hairMaxPitch) })
	d.OnKey(window.KeyDown, "", func() { m.pitchT = hairClamp(m.pitchT+0.25, hairMinPitch, hairMaxPitch) })
	d.OnKey(window.KeyH, "H shake", func() { m.startGesture("shake") })
	d.OnKey(window.KeyN, "N nod", func() { m.startGesture("nod") })
	d.OnKey(window.KeyT, "T fast turn", func() { m.startGesture("turn") })
	d.OnKey(window.KeyC, "C center", func() { m.yawT, m.pitchT = 0, 0 })
	d.OnKey(window.KeyG, "G walk/run/stop", func() { m.gait = (m.gait + 1) % numGaits })
	d.OnKey(window.KeyJ, "J jump ahead", s.jump)
	d.OnKey(window.KeyW, "W wind", func() { s.windOn = !s.windOn; s.applyWind() })
	d.OnKey(window.KeyEqual, "+/- wind speed", func() { s.windSpeed = min(s.windSpeed+1, 30); s.applyWind() })
	d.OnKey(window.KeyMinus, "", func() { s.windSpeed = max(s.windSpeed-1, 1); s.applyWind() })

	d.OnUpdate(s.update)
	d.OnStep(s.step)
	if m.gait != gaitStand {
		// From the outside of the circle: the walker's right profile,
		// hair trailing behind, the floor in view.
		d.LookAt(math32.Vector3{X: -2.1, Y: 1.7, Z: 0.45}, math32.Vector3{X: 0, Y: 1.3, Z: 0.1})
	} else {
		d.LookAt(math32.Vector3{X: 0.3, Y: 1.68, Z: 0.62}, math32.Vector3{X: 0, Y: 1.56, Z: 0})
	}
	return nil
}

// newHairScene builds the body, the floor and the hair in w with the
// flags' settings: everything but the GUI, the keys and the GL shader, so
// tests can drive it without a window.
func newHairScene(d *Demo, w *verlet3d.World, o *hairOptions) (*hairScene, error) {
	s := &hairScene{d: d, o: o, rebuildAt: -1, meshAt: -1, windSpeed: 6, dense: o.dense}
	s.motion = newHairMotion()
	s.set = hair.DefaultSettings()
	s.set.Strands = o.strands
	s.set.Segments = o.segments
	s.set.Length = float32(o.length)
	s.buildBody()
	if err := s.grow(w); err != nil {
		return nil, err
	}
	return s, nil
}

// Neck and shoulders are capsules, the torso a box, in the body's frame.
var (
	hairNeckA, hairNeckB = mgl32.Vec3{0, 1.56, -0.012}, mgl32.Vec3{0, 1.36, -0.012}
	hairShA, hairShB     = mgl32.Vec3{-0.17, 1.32, -0.015}, mgl32.Vec3{0.17, 1.32, -0.015}
)

const (
	hairNeckR = 0.052
	hairShR   = 0.07
)

// buildBody adds the head, neck, shoulders and torso meshes, and the floor
// the character walks on (shown once it walks: the close-up views of the
// head at rest look past where it would be).
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

	// The body: a neck capsule under the head, a shoulder capsule across
	// and a box torso below. Its colliders follow this node.
	s.body = core.NewNode()
	s.body.Add(hairCapsuleMesh(hairNeckA, hairNeckB, hairNeckR, skin))
	shirt := material.NewStandard(&math32.Color{R: 0.22, G: 0.33, B: 0.5})
	shirt.SetShininess(6)
	shirt.SetSpecularColor(&math32.Color{R: 0.05, G: 0.05, B: 0.05})
	s.body.Add(hairCapsuleMesh(hairShA, hairShB, hairShR, shirt))
	box := graphic.NewMesh(geometry.NewBox(0.42, 0.48, 0.14), shirt)
	box.SetPosition(hairTorso[0], hairTorso[1], hairTorso[2])
	s.body.Add(box)
	// Legs, so a walker does not float: two capsules from the hips to
	// the floor that swing with the stride.
	trousers := material.NewStandard(&math32.Color{R: 0.16, G: 0.16, B: 0.2})
	for i, x := range []float32{0.1, -0.1} { // left, right
		leg := core.NewNode()
		leg.SetPosition(x, 0.8, -0.015)
		leg.Add(hairCapsuleMesh(mgl32.Vec3{}, mgl32.Vec3{0, -0.74, 0}, 0.07, trousers))
		s.body.Add(leg)
		s.legs[i] = leg
	}
	d.Scene.Add(s.body)
	if d.app != nil {
		s.floor = d.AddFloor(0, 40)
		s.floor.SetVisible(false)
	}
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

// rebuild grows the hair with the current settings in a new World: a
// World never removes particles, so a new strand count needs a new one.
func (s *hairScene) rebuild() error {
	w, err := s.d.NewWorld(hair.WorldConfig())
	if err != nil {
		return err
	}
	return s.grow(w)
}

// grow puts the hair with the current settings, the body's colliders and
// the ribbons in the fresh World w, around the head's current pose, and
// hands w to the demo in place of the old hair's.
func (s *hairScene) grow(w *verlet3d.World) error {
	d := s.d
	pose := s.motion.pose()
	s.placeBody(pose)
	head := hair.DefaultHead()
	head.Center, head.Rotation = pose.head, pose.headRot
	head.Radius = hairHeadRadius
	h, err := hair.New(w, head, s.set)
	if err != nil {
		return err
	}
	// Neck and shoulders follow the body node, swept along each step;
	// the torso box is moved by hand (the Follower has no boxes).
	s.body.UpdateMatrixWorld()
	f := scene.NewFollower(w)
	cs := verlet3d.ContactSettings{Friction: 0.4}
	neck, err := f.AddCapsule(s.body, vec3(hairNeckA), vec3(hairNeckB), hairNeckR, cs)
	if err != nil {
		return err
	}
	shoulders, err := f.AddCapsule(s.body, vec3(hairShA), vec3(hairShB), hairShR, cs)
	if err != nil {
		return err
	}
	torso, err := verlet3d.NewBox(pose.at(hairTorso), mgl32.Vec3{0.21, 0.24, 0.07}, pose.bodyRot)
	if err != nil {
		return err
	}
	if err := w.AddCollider(torso, cs); err != nil {
		return err
	}
	h.Drape(neck, shoulders, torso)
	mesh, err := s.newMesh(h)
	if err != nil {
		return err
	}
	if s.h != nil {
		// Out with the old hair.
		s.drv.World.Close()
		d.Scene.Remove(s.mesh)
		s.mesh.Dispose()
		s.drv.World = w
	} else {
		s.drv = d.SetWorld(w)
		s.drv.BeforeStep(func() { s.follow.Sync() })
		s.drv.AfterStep(func() { s.mesh.Sync() })
	}
	s.h, s.mesh, s.follow, s.torso = h, mesh, f, torso
	d.Scene.Add(mesh)
	s.applyWind()
	return nil
}

// newMesh makes the ribbons for h: its guides alone, or s.dense render
// strands per guide. Ribbons are thinner the more strands there are, so the
// hair's cover stays about the same.
func (s *hairScene) newMesh(h *hair.Hair) (*scene.HairMesh, error) {
	var mesh *scene.HairMesh
	strands := h.NumStrands()
	if s.dense > 1 {
		dn, err := hair.NewDense(h, s.dense, s.set.Seed)
		if err != nil {
			return nil, err
		}
		if s.o.denseCPU {
			mesh = scene.NewDenseHairMeshCPU(dn, hair.DefaultPalette())
		} else {
			mesh = scene.NewDenseHairMesh(dn, hair.DefaultPalette())
		}
		strands = dn.NumStrands()
	} else {
		mesh = scene.NewHairMesh(h, hair.DefaultPalette())
	}
	k := float32(math.Sqrt(2000 / float64(strands)))
	lo := float32(0.6)
	if s.dense > 1 {
		lo = 0.3
	}
	k = max(lo, min(k, 2.5))
	mesh.Material.RootWidth *= k
	mesh.Material.TipWidth *= k
	return mesh, nil
}

// remesh swaps the ribbons for ones with the current ratio of render
// strands per guide; the simulation goes on untouched.
func (s *hairScene) remesh() error {
	mesh, err := s.newMesh(s.h)
	if err != nil {
		return err
	}
	s.d.Scene.Remove(s.mesh)
	s.mesh.Dispose()
	s.mesh = mesh
	s.d.Scene.Add(mesh)
	return nil
}

func vec3(v mgl32.Vec3) math32.Vector3 { return math32.Vector3{X: v[0], Y: v[1], Z: v[2]} }

func (s *hairScene) applyWind() {
	air := verlet3d.Wind{}
	if s.windOn {
		// From the viewer's left and a little from the front, gusty.
		dir := mgl32.Vec3{1, 0.05, -0.35}.Normalize()
		air = verlet3d.Wind{Steady: dir.Mul(s.windSpeed), Gust: 0.35, GustPeriod: 2.5, Turbulence: 0.2 * s.windSpeed, TurbulenceScale: 0.3}
	}
	if err := s.h.SetWind(air); err != nil {
		s.d.Status("wind: %v", err)
	}
}

// placeBody puts the body and head nodes at pose.
func (s *hairScene) placeBody(p hairPose) {
	s.body.SetPosition(p.pos[0], p.pos[1], p.pos[2])
	q := p.bodyRot
	s.body.SetQuaternion(q.V[0], q.V[1], q.V[2], q.W)
	s.legs[0].SetRotationX(float32(-p.stride))
	s.legs[1].SetRotationX(float32(p.stride))
	s.head.SetPosition(p.head[0], p.head[1], p.head[2])
	q = p.headRot
	s.head.SetQuaternion(q.V[0], q.V[1], q.V[2], q.W)
}

// jump (J) moves the walker 2 m ahead along its path at once: the hair
// and colliders jump with it, keeping their shape (Hair.Teleport).
func (s *hairScene) jump() {
	s.motion.dist += 2
	p := s.motion.pose()
	s.placeBody(p)
	s.body.UpdateMatrixWorld()
	if err := s.h.Teleport(p.head, p.headRot); err != nil {
		s.d.Status("jump: %v", err)
		return
	}
	s.follow.Sync()
	s.follow.Snap()
	s.torso.Center, s.torso.Rotation = p.at(hairTorso), p.bodyRot
	s.followCamera(p)
}

// update rebuilds the hair when a slider asked for it and shows the
// status; it runs once a frame.
func (s *hairScene) update(dt float32) {
	s.clockTime += float64(dt)
	if s.rebuildAt >= 0 && s.clockTime >= s.rebuildAt {
		s.rebuildAt = -1
		if err := s.rebuild(); err != nil {
			s.d.Status("rebuild: %v", err)
		}
	}
	if s.meshAt >= 0 && s.clockTime >= s.meshAt {
		s.meshAt = -1
		if err := s.remesh(); err != nil {
			s.d.Status("render strands: %v", err)
		}
	}
	p := s.motion.pose()
	wind := "off"
	if s.windOn {
		wind = fmt.Sprintf("%.0f m/s", s.windSpeed)
	}
	drawn := ""
	if s.dense > 1 {
		drawn = fmt.Sprintf(" (%d drawn)", s.dense*s.set.Strands)
	}
	s.d.Status("%d strands%s x %d segments, %.2f m; style %.2f; wind %s; head yaw %.0f°; %s %.1f m/s",
		s.set.Strands, drawn, s.set.Segments, s.set.Length, s.set.StyleStiffness, wind, p.yaw*180/math.Pi,
		gaits[s.motion.gait].name, s.motion.speed)
}

// step advances the character and its head by one physics step of h
// seconds (not the raw frame time: at 3 fps the World steps 4 × 1/60 s a
// frame, and so does the head, one step at a time), and poses the body,
// its colliders and the hair's head for that step.
func (s *hairScene) step(h float64) {
	s.motion.step(h)
	p := s.motion.pose()
	s.placeBody(p)
	if err := s.h.SetHead(p.head, p.headRot); err != nil {
		s.d.Status("head: %v", err)
		return
	}
	s.torso.Center, s.torso.Rotation = p.at(hairTorso), p.bodyRot
	if s.floor != nil && p.pos != (mgl32.Vec3{}) {
		s.floor.SetVisible(true)
	}
	s.followCamera(p)
}

// followCamera moves the camera with the walker: by its step and by its
// turn about the vertical, so the view of the character stays the same
// while the mouse can still orbit around it.
func (s *hairScene) followCamera(p hairPose) {
	dYaw := p.bodyYaw - s.lastYaw
	move := p.pos.Sub(s.lastPos)
	s.lastPos, s.lastYaw = p.pos, p.bodyYaw
	if s.d.Camera == nil || (dYaw == 0 && move == (mgl32.Vec3{})) {
		return
	}
	rot := mgl32.QuatRotate(float32(dYaw), mgl32.Vec3{0, 1, 0})
	// Turn about the vertical through the walker's previous spot, then
	// step along.
	about := p.pos.Sub(move)
	tr := func(v math32.Vector3) math32.Vector3 {
		x := mgl32.Vec3{v.X, 0, v.Z}.Sub(mgl32.Vec3{about[0], 0, about[2]})
		x = rot.Rotate(x).Add(mgl32.Vec3{about[0], 0, about[2]}).Add(move)
		return math32.Vector3{X: x[0], Y: v.Y, Z: x[2]}
	}
	s.d.Orbit.Place(tr(s.d.Orbit.Eye()), tr(s.d.Orbit.Target()))
}

// buildGUI adds sliders that restyle the hair live.
func (s *hairScene) buildGUI() {
	d := s.d
	// regrow wraps a slider's setting that needs the hair grown again, a
	// moment after the slider stops.
	regrow := func(set func(v float32)) func(v float32) {
		return func(v float32) {
			set(v)
			s.rebuildAt = s.clockTime + 0.25
		}
	}
	d.Slider("strands", 100, 4000, float32(s.set.Strands), "%.0f", regrow(func(v float32) { s.set.Strands = int(v) }))
	d.Slider("render strands per guide", 1, hairMaxDense, float32(s.dense), "%.0f", func(v float32) {
		if n := int(v + 0.5); n != s.dense {
			s.dense = n
			s.meshAt = s.clockTime + 0.25
		}
	})
	d.Slider("length (m)", 0.06, 0.45, s.set.Length, "%.2f", regrow(func(v float32) { s.set.Length = v }))
	d.Slider("segments", 3, 24, float32(s.set.Segments), "%.0f", regrow(func(v float32) { s.set.Segments = int(v + 0.5) }))
	d.Slider("style stiffness", 0, 0.4, s.set.StyleStiffness, "%.2f", func(v float32) {
		s.set.StyleStiffness = v
		s.h.SetStyle(v, s.set.StyleTip)
	})
	d.Slider("wind (m/s)", 1, 20, s.windSpeed, "%.0f", func(v float32) { s.windSpeed = v; s.applyWind() })
	p := d.GUI()
	cb := gui.NewCheckBox("wind on")
	cb.SetValue(s.windOn)
	cb.Subscribe(gui.OnChange, func(string, interface{}) { s.windOn = cb.Value(); s.applyWind() })
	p.Add(cb)
}

func hairClamp(x, lo, hi float64) float64 { return math.Max(lo, math.Min(hi, x)) }
