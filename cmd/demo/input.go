package main

import (
	"github.com/drape3d/drape/bodies"
	"math"

	"github.com/drape3d/drape/internal/vecmath"
	"github.com/drape3d/drape/verlet3d"
	"github.com/g3n/engine/camera"
	"github.com/g3n/engine/core"
	"github.com/g3n/engine/geometry"
	"github.com/g3n/engine/graphic"
	"github.com/g3n/engine/gui"
	"github.com/g3n/engine/material"
	"github.com/g3n/engine/math32"
	"github.com/g3n/engine/window"
	"github.com/go-gl/mathgl/mgl32"
)

// orbit is the demo's camera control: the camera looks at a target from a
// yaw, a pitch and a distance. Only the input router moves it (and scenes
// that follow a character, through Place), so it never reacts to keys or
// releases meant for something else, and it keeps the eye above Floor.
type orbit struct {
	cam        *camera.Camera
	target     math32.Vector3
	yaw, pitch float32 // rad; pitch > 0 looks down on the target
	dist       float32 // m
	// Floor is the height the eye never goes below (plus a margin); the
	// scene's floor sets it.
	Floor float32

	home       [2]math32.Vector3 // eye and target Home returns to
	homeSet    bool
	userMovedN int // drags, pans and zooms by the user (tests read it)
}

const (
	floorMargin = 0.08 // m the eye stays above the floor
	maxPitch    = 1.5  // rad, just short of straight down or up
	minDist     = 0.2  // m
	maxDist     = 200  // m
)

func newOrbit(cam *camera.Camera) *orbit {
	o := &orbit{cam: cam}
	o.Place(math32.Vector3{X: 0, Y: 1.5, Z: 5}, math32.Vector3{X: 0, Y: 1, Z: 0})
	return o
}

// Place puts the eye at eye looking at target (the eye is raised above the
// floor if needed).
func (o *orbit) Place(eye, target math32.Vector3) {
	off := eye
	off.Sub(&target)
	d := off.Length()
	if !(d > 1e-4) {
		off, d = math32.Vector3{Z: 1}, 1
	}
	o.target = target
	o.dist = min(max(d, minDist), maxDist)
	o.pitch = float32(math.Asin(float64(min(max(off.Y/d, -1), 1))))
	o.yaw = float32(math.Atan2(float64(off.X), float64(off.Z)))
	o.apply()
}

// Target returns the point the camera looks at.
func (o *orbit) Target() math32.Vector3 { return o.target }

// Eye returns the camera's position.
func (o *orbit) Eye() math32.Vector3 { return o.cam.Position() }

// SetTarget moves the target and the eye with it.
func (o *orbit) SetTarget(t math32.Vector3) {
	o.target = t
	o.apply()
}

// setHome records the current view as the one Home returns to.
func (o *orbit) setHome() {
	o.home = [2]math32.Vector3{o.Eye(), o.target}
	o.homeSet = true
}

// Home returns to the view the scene started with.
func (o *orbit) Home() {
	if o.homeSet {
		o.Place(o.home[0], o.home[1])
	}
}

// Rotate turns the view by yaw and pitch, in radians.
func (o *orbit) Rotate(dyaw, dpitch float32) {
	o.yaw += dyaw
	o.pitch += dpitch
	o.userMovedN++
	o.apply()
}

// Zoom scales the distance to the target by f.
func (o *orbit) Zoom(f float32) {
	o.dist = min(max(float32(o.dist*f), minDist), maxDist)
	o.userMovedN++
	o.apply()
}

// Pan moves the target and the eye across the view by dx, dy in meters at
// the target's distance.
func (o *orbit) Pan(dx, dy float32) {
	right, up := o.axes()
	right.MultiplyScalar(-dx)
	up.MultiplyScalar(dy)
	o.target.Add(&right).Add(&up)
	o.userMovedN++
	o.apply()
}

func (o *orbit) axes() (right, up math32.Vector3) {
	s, c := math32.Sin(o.yaw), math32.Cos(o.yaw)
	right = math32.Vector3{X: c, Z: -s}
	sp, cp := math32.Sin(o.pitch), math32.Cos(o.pitch)
	up = math32.Vector3{X: float32(-sp * s), Y: cp, Z: float32(-sp * c)}
	return right, up
}

// apply places the camera from target, yaw, pitch and distance, raising
// the eye (by pitch, or the target with it when the target itself is too
// low) so it stays above the floor.
func (o *orbit) apply() {
	o.pitch = min(max(o.pitch, -maxPitch), maxPitch)
	low := o.Floor + floorMargin
	if o.target.Y < low {
		o.target.Y = low
	}
	if y := o.target.Y + float32(o.dist*math32.Sin(o.pitch)); y < low {
		o.pitch = float32(math.Asin(float64((low - o.target.Y) / o.dist)))
	}
	cp := math32.Cos(o.pitch)
	eye := math32.Vector3{
		X: o.target.X + float32(o.dist*cp*math32.Sin(o.yaw)),
		Y: o.target.Y + float32(o.dist*math32.Sin(o.pitch)),
		Z: o.target.Z + float32(o.dist*cp*math32.Cos(o.yaw)),
	}
	o.cam.SetPositionVec(&eye)
	t := o.target
	o.cam.LookAt(&t, &math32.Vector3{Y: 1})
}

// owner is who a mouse drag belongs to, from press to release.
type owner int

const (
	ownNone owner = iota
	ownGUI
	ownOrbit
	ownPan
	ownGrab
	ownCut
	ownPush
)

func (o owner) String() string {
	return [...]string{"none", "gui", "orbit", "pan", "grab", "cut", "push"}[o]
}

// router gives every window event to exactly one of the GUI, a tool and the
// camera. A press decides who owns the drag until its release: over a GUI
// panel the GUI (g3n's manager delivers it; the router does nothing),
// Shift+left the grab tool, Ctrl+left the knife, Alt+left the push brush,
// left alone the orbit, right the pan. Cursor moves go only to the owner;
// with no owner they move nothing. Keys go to the scene's bindings, then to
// the demo's; no key orbits the camera.
type router struct {
	sh     *shell
	owner  owner
	button window.MouseButton
	x, y   float32 // last cursor position, window pixels
	mods   window.ModifierKey
}

func (r *router) onMouseDown(_ string, ev interface{}) {
	mev := ev.(*window.MouseEvent)
	r.x, r.y, r.mods = mev.Xpos, mev.Ypos, mev.Mods
	if r.owner != ownNone {
		return // a second button during a drag: the first one keeps it
	}
	r.button = mev.Button
	if r.sh.overGUI(mev.Xpos, mev.Ypos) {
		r.owner = ownGUI
		return
	}
	d := r.sh.d
	switch mev.Button {
	case window.MouseButtonLeft:
		switch {
		case mev.Mods&window.ModShift != 0:
			r.owner = ownGrab
			// Nothing under the cursor: the drag does nothing (it does
			// not orbit either).
			r.sh.grab.beginAt(d, mev.Xpos, mev.Ypos)
		case mev.Mods&window.ModControl != 0:
			r.owner = ownCut
			r.sh.knife.begin(d, mev.Xpos, mev.Ypos)
		case mev.Mods&window.ModAlt != 0:
			r.owner = ownPush
			r.sh.brush.begin(d, mev.Xpos, mev.Ypos)
		default:
			r.owner = ownOrbit
		}
	case window.MouseButtonRight, window.MouseButtonMiddle:
		r.owner = ownPan
	}
}

func (r *router) onMouseUp(_ string, ev interface{}) {
	mev := ev.(*window.MouseEvent)
	r.x, r.y = mev.Xpos, mev.Ypos
	if mev.Button != r.button {
		return
	}
	switch r.owner {
	case ownGrab:
		r.sh.grab.end()
	case ownCut:
		r.sh.knife.end()
	case ownPush:
		r.sh.brush.end()
	}
	r.owner = ownNone
}

func (r *router) onCursor(_ string, ev interface{}) {
	cev := ev.(*window.CursorEvent)
	dx, dy := cev.Xpos-r.x, cev.Ypos-r.y
	r.x, r.y, r.mods = cev.Xpos, cev.Ypos, cev.Mods
	d := r.sh.d
	o := r.sh.orbit
	_, h := r.sh.app.GetSize()
	switch r.owner {
	case ownOrbit:
		k := -2 * math32.Pi / float32(h)
		o.Rotate(float32(k*dx), float32(-k*dy))
	case ownPan:
		// Meters per pixel at the target's distance.
		k := 2 * o.dist * math32.Tan(r.sh.cam.Fov()/2*math32.Pi/180) / float32(h)
		o.Pan(float32(k*dx), float32(k*dy))
	case ownGrab:
		r.sh.grab.moveTo(d, cev.Xpos, cev.Ypos)
	case ownCut:
		r.sh.knife.move(d, cev.Xpos, cev.Ypos)
	case ownPush:
		r.sh.brush.move(d, cev.Xpos, cev.Ypos)
	}
}

func (r *router) onScroll(_ string, ev interface{}) {
	sev := ev.(*window.ScrollEvent)
	if r.owner == ownGUI || r.sh.overGUI(r.x, r.y) {
		return
	}
	r.sh.orbit.Zoom(math32.Pow(0.9, sev.Yoffset))
}

func (r *router) onKey(_ string, ev interface{}) {
	kev := ev.(*window.KeyEvent)
	r.sh.key(kev.Key, kev.Mods)
}

// end drops whatever drag is going on (a scene switch or reset).
func (r *router) end() {
	r.sh.grab.end()
	r.sh.knife.end()
	r.sh.brush.end()
	r.owner = ownNone
}

// pickRadius is how far from the cursor's ray a particle can be picked, m.
const pickRadius = 0.2

// grabber is the Shift+drag tool: it holds the particle picked under the
// cursor on the plane through it facing the camera, at the depth where it
// was picked, and lets it go on release (World.Release gives it back the
// state it had, with the velocity it was dragged at). A marker shows the
// held particle and a line joins it to the cursor's point.
type grabber struct {
	w      *verlet3d.World
	p      verlet3d.Particle
	sys    *bodies.System // the cube held instead of a particle, if any
	cube   bodies.Cube
	grip   mgl32.Vec3 // the held point in the cube's frame, m
	depth  float32    // distance along the pick ray, m
	on     bool
	target mgl32.Vec3 // where the cursor holds it
	last   verlet3d.Particle
	hasLst bool

	marker *graphic.Mesh
	line   *lineSet
}

func newGrabber(root *core.Node) *grabber {
	g := &grabber{}
	mat := material.NewStandard(&math32.Color{R: 1, G: 0.85, B: 0.1})
	mat.SetEmissiveColor(&math32.Color{R: 0.6, G: 0.45, B: 0})
	g.marker = graphic.NewMesh(geometry.NewSphere(0.035, 12, 8), mat)
	g.marker.SetVisible(false)
	root.Add(g.marker)
	g.line = newLineSet(root, true)
	return g
}

// beginAt starts a grab under the window point x, y.
func (g *grabber) beginAt(d *Demo, x, y float32) bool {
	if d == nil || d.driver == nil {
		g.end()
		return false
	}
	o, dir := d.ray(x, y)
	if d.cubes != nil && g.beginCube(d.driver.World, d.cubes, o, dir) {
		return true
	}
	return g.begin(d.driver.World, o, dir)
}

// beginCube holds the cube of sys that the ray meets, unless a particle of
// w lies nearer along it; it reports whether it took one.
func (g *grabber) beginCube(w *verlet3d.World, sys *bodies.System, origin, dir mgl32.Vec3) bool {
	c, at, ok := sys.Pick(origin, dir)
	if !ok {
		return false
	}
	dir = vecmath.Normalize(dir)
	depth := vecmath.Dot(at.Sub(origin), dir)
	if p, ok := w.Pick(origin, dir, pickRadius); ok && vecmath.Dot(w.Position(p).Sub(origin), dir) < depth-0.05 {
		return false
	}
	g.end()
	if sys.Grab(c, at) != nil {
		return false
	}
	pos, q := sys.Transform(c)
	g.w, g.sys, g.cube, g.on = w, sys, c, true
	g.grip = vecmath.QuatRotate(vecmath.QuatConjugate(q), at.Sub(pos))
	g.depth, g.target = depth, at
	return true
}

// moveTo drags the held particle under the window point x, y.
func (g *grabber) moveTo(d *Demo, x, y float32) {
	if g.on {
		g.move(d.ray(x, y))
	}
}

// begin picks the particle nearest the ray and holds it where it is; it
// reports whether one was near enough.
func (g *grabber) begin(w *verlet3d.World, origin, dir mgl32.Vec3) bool {
	g.end()
	p, ok := w.Pick(origin, dir, pickRadius)
	if !ok {
		return false
	}
	g.w, g.p, g.on = w, p, true
	g.last, g.hasLst = p, true
	g.depth = vecmath.Dot(w.Position(p).Sub(origin), dir)
	g.target = w.Position(p)
	w.DragTo(p, g.target)
	return true
}

// move drags the held particle to the point of the ray at the pick depth.
func (g *grabber) move(origin, dir mgl32.Vec3) {
	if !g.on {
		return
	}
	t := origin.Add(vecmath.Scale(dir, g.depth))
	if !vecmath.Finite(t) {
		return
	}
	g.target = t
	if g.sys != nil {
		g.sys.DragTo(g.cube, t)
		return
	}
	g.w.DragTo(g.p, t)
}

// end lets go of the held particle, if any.
func (g *grabber) end() {
	if g.on {
		if g.sys != nil {
			g.sys.Release(g.cube)
		} else {
			g.w.Release(g.p)
		}
		g.on = false
	}
	g.sys = nil
	if g.marker != nil {
		g.marker.SetVisible(false)
		g.line.hide()
	}
}

// forget drops the held particle without touching its World (the World is
// gone: a scene switch or rebuild).
func (g *grabber) forget() {
	g.on, g.hasLst, g.sys = false, false, nil
	g.marker.SetVisible(false)
	g.line.hide()
}

// heldAt returns where the held particle or cube point is.
func (g *grabber) heldAt() mgl32.Vec3 {
	if g.sys != nil {
		pos, q := g.sys.Transform(g.cube)
		return pos.Add(vecmath.QuatRotate(q, g.grip))
	}
	return g.w.Position(g.p)
}

// sync places the marker and the spring line; called every frame.
func (g *grabber) sync() {
	if !g.on {
		return
	}
	p := g.heldAt()
	g.marker.SetPosition(p[0], p[1], p[2])
	g.marker.SetVisible(true)
	g.line.begin()
	g.line.seg(p, g.target, math32.Color{R: 1, G: 0.9, B: 0.2})
	g.line.end()
}

// knife is the Ctrl+drag tool: it cuts the scene's cloth along the mouse
// path. Each cursor move is sampled every few pixels; where a sample's ray
// meets a cloth particle, the cloth point under the cursor is the ray's
// point at that particle's depth, and the cloth is cut along the segment
// between consecutive points.
type knife struct {
	on     bool
	x, y   float32
	prev   mgl32.Vec3
	prevG  int // grid index of prev, -1 none
	owner  map[verlet3d.Particle]int
	broken int // links cut since the knife was made
}

const knifeStepPx = 3

func (k *knife) begin(d *Demo, x, y float32) {
	k.on, k.x, k.y, k.prevG = true, x, y, -1
	k.index(d)
	k.sample(d, x, y)
}

func (k *knife) index(d *Demo) {
	k.owner = map[verlet3d.Particle]int{}
	for i, g := range d.grids {
		for _, p := range g.Vertices() {
			k.owner[p] = i
		}
	}
}

func (k *knife) move(d *Demo, x, y float32) {
	if !k.on {
		return
	}
	dx, dy := x-k.x, y-k.y
	n := int(math32.Sqrt(float32(dx*dx)+float32(dy*dy))/knifeStepPx) + 1
	for i := 1; i <= n; i++ {
		t := float32(i) / float32(n)
		k.sample(d, k.x+float32(dx*t), k.y+float32(dy*t))
	}
	k.x, k.y = x, y
}

// sample finds the cloth point under the window point x, y and cuts from
// the previous one to it.
func (k *knife) sample(d *Demo, x, y float32) {
	if d.driver == nil || len(d.grids) == 0 {
		return
	}
	w := d.driver.World
	origin, dir := d.ray(x, y)
	p, ok := w.Pick(origin, dir, 0.08)
	gi, isCloth := k.owner[p]
	if !ok || !isCloth {
		k.prevG = -1
		return
	}
	g := d.grids[gi]
	pt := origin.Add(vecmath.Scale(dir, vecmath.Dot(w.Position(p).Sub(origin), dir)))
	if k.prevG == gi {
		n, err := g.Cut(k.prev, pt, float32(0.2*g.Settings().Spacing))
		if err == nil && n > 0 {
			k.broken += n
			k.index(d) // tears add vertices
		}
	}
	k.prev, k.prevG = pt, gi
}

func (k *knife) end() { k.on = false }

// brush is the Alt+drag tool: it pushes the particles near the cursor's
// ray (within brushRadius of it, in front of the camera) along the
// cursor's motion, as a hand sweeping through hair or cloth.
type brush struct {
	on       bool
	x, y     float32
	depth    float32
	hasDepth bool
	pushed   int
}

const brushRadius = 0.15 // m

func (b *brush) begin(d *Demo, x, y float32) {
	b.on, b.x, b.y, b.hasDepth = true, x, y, false
	if d.driver == nil {
		return
	}
	origin, dir := d.ray(x, y)
	if p, ok := d.driver.World.Pick(origin, dir, 0.3); ok {
		b.depth = vecmath.Dot(d.driver.World.Position(p).Sub(origin), dir)
		b.hasDepth = true
	}
}

func (b *brush) move(d *Demo, x, y float32) {
	if !b.on || d.driver == nil {
		return
	}
	w := d.driver.World
	o0, d0 := d.ray(b.x, b.y)
	o1, d1 := d.ray(x, y)
	b.x, b.y = x, y
	if !b.hasDepth {
		if p, ok := w.Pick(o1, d1, 0.3); ok {
			b.depth = vecmath.Dot(w.Position(p).Sub(o1), d1)
			b.hasDepth = true
		}
		return
	}
	a := o0.Add(vecmath.Scale(d0, b.depth))
	c := o1.Add(vecmath.Scale(d1, b.depth))
	move := c.Sub(a)
	if vecmath.Len(move) == 0 || !vecmath.Finite(move) {
		return
	}
	// The sweep lasts about a frame: give the particles the cursor's
	// speed, capped, so a flick throws and a slow sweep nudges.
	v := vecmath.Scale(move, 60)
	if l := vecmath.Len(v); l > 15 {
		v = vecmath.Scale(v, 15/l)
	}
	pos := w.Positions()
	inv := w.InvMasses()
	for i, x := range pos {
		if inv[i] == 0 {
			continue
		}
		rel := x.Sub(o1)
		t := vecmath.Dot(rel, d1)
		if t <= 0 || vecmath.Len(rel.Sub(vecmath.Scale(d1, t))) > brushRadius {
			continue
		}
		p := verlet3d.Particle(i)
		w.SetVelocity(p, w.Velocity(p).Add(vecmath.Scale(v.Sub(w.Velocity(p)), 0.5)))
		b.pushed++
	}
}

func (b *brush) end() { b.on = false }

// overGUI reports whether the window point x, y is on a visible GUI panel
// the user can click (the scene menu, the settings panel, a scene's panel).
func (sh *shell) overGUI(x, y float32) bool {
	for _, p := range sh.panels {
		if p.Visible() && visibleInTree(p) && p.InsideBorders(x, y) {
			return true
		}
	}
	return false
}

// visibleInTree reports whether p and its parents are visible and p is in
// the rendered scene.
func visibleInTree(p gui.IPanel) bool {
	var n core.INode = p
	for n != nil {
		if !n.GetNode().Visible() {
			return false
		}
		par := n.Parent()
		if par == nil {
			break
		}
		n = par
	}
	return true
}
