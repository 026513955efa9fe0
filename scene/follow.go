package scene

import (
	"fmt"
	"github.com/drape3d/drape/internal/errctx"
	"github.com/drape3d/drape/internal/vecmath"
	"math"
	"strings"

	"github.com/drape3d/drape/verlet3d"
	"github.com/g3n/engine/core"
	"github.com/g3n/engine/graphic"
	"github.com/g3n/engine/math32"
	"github.com/go-gl/mathgl/mgl32"
)

// Anchor is a point fixed in a g3n node's local space: a spot on a shoulder
// node, or on a bone of a graphic.Skeleton (bones are *core.Node).
type Anchor struct {
	Node   *core.Node
	Offset math32.Vector3 // in the node's local space, m
}

// Position returns the anchor in world space from the node's current world
// matrix. It does not update the matrix: call UpdateMatrixWorld on the scene
// after animating, before reading anchors.
func (a Anchor) Position() mgl32.Vec3 {
	m := a.Node.MatrixWorld()
	return nodePoint(&m, a.Offset)
}

func nodePoint(m *math32.Matrix4, p math32.Vector3) mgl32.Vec3 {
	p.ApplyMatrix4(m)
	return mgl32.Vec3{p.X, p.Y, p.Z}
}

func (a Anchor) validate(what string) error {
	if a.Node == nil {
		return fmt.Errorf("scene: %s.Node is nil", what)
	}
	if !vecmath.Finite(mgl32.Vec3{a.Offset.X, a.Offset.Y, a.Offset.Z}) {
		return fmt.Errorf("scene: %s.Offset = %v, want finite meters", what, a.Offset)
	}
	return nil
}

// Follower moves kinematic particles (pins) and colliders with g3n nodes.
// Call Sync once per frame after the animation has run and the scene's
// world matrices are updated, before the World steps (a Driver BeforeStep
// hook does this): pins then reach their node's pose at the end of the step
// instead of lagging a frame.
//
// Colliders do not jump from last frame's pose to this frame's at the first
// substep: the Follower is also a verlet3d.ForceField (it adds no force) that
// moves every collider along the frame's motion substep by substep, in step
// with the pins, so a fast limb sweeps through the cloth instead of
// teleporting into it.
type Follower struct {
	world    *verlet3d.World
	pins     []followPin
	spheres  []followSphere
	capsules []followCapsule
	hooks    followHooks
	bad      int   // Sync calls that held a pose
	badErr   error // why the last one did
}

type followPin struct {
	p    verlet3d.Particle
	a, b Anchor
	wb   float32 // weight of b; b.Node nil means a alone
}

type followSphere struct {
	s          *verlet3d.Sphere
	node       *core.Node
	center     math32.Vector3
	radius     float32
	from, to   mgl32.Vec3
	rFrom, rTo float32
}

type followCapsule struct {
	c            *verlet3d.Capsule
	node         *core.Node
	a, b         math32.Vector3
	radius       float32
	fromA, fromB mgl32.Vec3
	toA, toB     mgl32.Vec3
	rFrom, rTo   float32
}

// NewFollower makes a Follower for w and adds its hook to w (it moves the
// colliders to their pose of each substep); Remove takes it out.
func NewFollower(w *verlet3d.World) *Follower {
	if w == nil {
		panic("scene: NewFollower: World is nil")
	}
	f := &Follower{world: w}
	f.hooks = followHooks{f}
	w.AddForceField(f.hooks)
	return f
}

// Remove takes the Follower's hook and colliders out of the World; pinned
// particles keep their last targets.
func (f *Follower) Remove() {
	f.world.RemoveForceField(f.hooks)
	for _, s := range f.spheres {
		f.world.RemoveCollider(s.s)
	}
	for _, c := range f.capsules {
		f.world.RemoveCollider(c.c)
	}
}

// followHooks is the Follower's verlet3d.ForceField, unexported so that a
// game never sees solver plumbing: it adds no force but moves the colliders
// to where they are at the end of the substep (Substep.Frac of the way from
// their pose at the last Sync's step start to the synced pose), matching
// how kinematic pins move.
type followHooks struct{ f *Follower }

func (k followHooks) Apply(_ *verlet3d.World, s verlet3d.Substep) {
	if s.First() {
		// Each step blends on from where the colliders are: a long
		// frame's motion is spread over its steps (Substep.Frac).
		k.f.hold()
	}
	k.f.setColliders(s.Frac)
}

// World returns the World the Follower was made for.
func (f *Follower) World() *verlet3d.World { return f.world }

// Pin makes p follow a: kinematic, reaching the anchor's world position at
// the end of every step after Sync. p moves there at the next step.
func (f *Follower) Pin(p verlet3d.Particle, a Anchor) error {
	return f.PinBlend(p, a, Anchor{}, 0)
}

// Bind makes p follow node at p's current position: the offset in the
// node's local space is taken from the node's current world matrix.
func (f *Follower) Bind(p verlet3d.Particle, node *core.Node) error {
	if node == nil {
		return fmt.Errorf("scene: Follower.Bind(%d): node is nil", p)
	}
	if !f.world.Valid(p) {
		return fmt.Errorf("scene: Follower.Bind: particle %d is not in the world (len %d)", p, f.world.NumParticles())
	}
	return f.Pin(p, Anchor{Node: node, Offset: LocalPoint(node, f.world.Position(p))})
}

// PinBlend makes p follow the blend (1-wb)·a + wb·b of two anchors, wb in
// [0, 1]: a cape's top edge between the neck and a shoulder. b may be the
// zero Anchor when wb is 0.
func (f *Follower) PinBlend(p verlet3d.Particle, a, b Anchor, wb float32) error {
	if !f.world.Valid(p) {
		return fmt.Errorf("scene: Follower pin: particle %d is not in the world (len %d)", p, f.world.NumParticles())
	}
	if err := a.validate("pin anchor"); err != nil {
		return err
	}
	if !(wb >= 0 && wb <= 1) {
		return fmt.Errorf("scene: Follower pin weight = %v, want [0, 1]", wb)
	}
	if wb > 0 {
		if err := b.validate("second pin anchor"); err != nil {
			return err
		}
	} else {
		b = Anchor{}
	}
	f.pins = append(f.pins, followPin{p, a, b, wb})
	f.world.SetTarget(p, f.pinTarget(&f.pins[len(f.pins)-1]))
	return nil
}

// AddSphere adds a sphere collider of radius r in meters (whatever the
// node's scale) centered at center in node's local space, and returns the
// verlet3d shape whose fields Sync updates.
func (f *Follower) AddSphere(node *core.Node, center math32.Vector3, r float32, s verlet3d.ContactSettings) (*verlet3d.Sphere, error) {
	if node == nil {
		return nil, fmt.Errorf("scene: Follower.AddSphere: node is nil")
	}
	if !(r > 0) || math.IsInf(float64(r), 0) {
		return nil, fmt.Errorf("scene: Follower.AddSphere: radius = %v, want meters > 0", r)
	}
	fs := followSphere{node: node, center: center, radius: r}
	fs.to, fs.rTo = fs.pose()
	fs.from, fs.rFrom = fs.to, fs.rTo
	sp, err := verlet3d.NewSphere(fs.to, fs.rTo)
	if err != nil {
		return nil, err
	}
	if err := f.world.AddCollider(sp, s); err != nil {
		return nil, err
	}
	fs.s = sp
	f.spheres = append(f.spheres, fs)
	return sp, nil
}

// AddCapsule adds a capsule collider between a and b (node-local points)
// of radius r in meters (whatever the node's scale), and returns the
// verlet3d shape whose fields Sync updates.
func (f *Follower) AddCapsule(node *core.Node, a, b math32.Vector3, r float32, s verlet3d.ContactSettings) (*verlet3d.Capsule, error) {
	if node == nil {
		return nil, fmt.Errorf("scene: Follower.AddCapsule: node is nil")
	}
	if !(r > 0) || math.IsInf(float64(r), 0) {
		return nil, fmt.Errorf("scene: Follower.AddCapsule: radius = %v, want meters > 0", r)
	}
	fc := followCapsule{node: node, a: a, b: b, radius: r}
	fc.toA, fc.toB, fc.rTo = fc.pose()
	fc.fromA, fc.fromB, fc.rFrom = fc.toA, fc.toB, fc.rTo
	c, err := verlet3d.NewCapsule(fc.toA, fc.toB, fc.rTo)
	if err != nil {
		return nil, err
	}
	if err := f.world.AddCollider(c, s); err != nil {
		return nil, err
	}
	fc.c = c
	f.capsules = append(f.capsules, fc)
	return c, nil
}

func (s *followSphere) pose() (mgl32.Vec3, float32) {
	m := s.node.MatrixWorld()
	return nodePoint(&m, s.center), s.radius
}

func (c *followCapsule) pose() (a, b mgl32.Vec3, r float32) {
	m := c.node.MatrixWorld()
	return nodePoint(&m, c.a), nodePoint(&m, c.b), c.radius
}

func (f *Follower) pinTarget(p *followPin) mgl32.Vec3 {
	t := p.a.Position()
	if p.wb > 0 {
		t = vecmath.Scale(t, 1-p.wb).Add(vecmath.Scale(p.b.Position(), p.wb))
	}
	return t
}

// Sync reads every followed node's world matrix: pins get their new
// kinematic targets and colliders their end-of-step pose. It does not
// allocate.
//
// A node's pose is data from an animation: a pin target or collider end
// that is not finite or beyond ±verlet3d.MaxCoordinate (one bad frame: a
// NaN key, a bone thrown to 1e30 m) is not taken; that pin or collider
// holds its last good pose while the others move. NumBadPoses counts the
// Sync calls that held one and BadPose tells the last one's fault.
func (f *Follower) Sync() {
	w := f.world
	held := false
	for i := range f.pins {
		p := &f.pins[i]
		t := f.pinTarget(p)
		if !inWorld(t) {
			nodes := fmt.Sprintf("node %q", p.a.Node.Name())
			if p.wb > 0 {
				nodes = fmt.Sprintf("nodes %q and %q", p.a.Node.Name(), p.b.Node.Name())
			}
			held = f.hold1(held, "pin %d (particle %d, %s): target %v", i, p.p, nodes, t)
			continue
		}
		w.SetTarget(p.p, t)
	}
	for i := range f.spheres {
		s := &f.spheres[i]
		to, r := s.pose()
		if !inWorld(to) {
			held = f.hold1(held, "sphere %d (node %q): center %v", i, s.node.Name(), to)
			to, r = s.to, s.rTo
		}
		s.from, s.rFrom = s.s.Center, s.s.Radius
		s.to, s.rTo = to, r
	}
	for i := range f.capsules {
		c := &f.capsules[i]
		a, b, r := c.pose()
		if !inWorld(a) || !inWorld(b) {
			held = f.hold1(held, "capsule %d (node %q): ends %v-%v", i, c.node.Name(), a, b)
			a, b, r = c.toA, c.toB, c.rTo
		}
		c.fromA, c.fromB, c.rFrom = c.c.A, c.c.B, c.c.Radius
		c.toA, c.toB, c.rTo = a, b, r
	}
}

// hold1 records a pose Sync held (counting the call once, when held is
// false) and returns true.
func (f *Follower) hold1(held bool, format string, args ...any) bool {
	if !held {
		f.bad++
		f.badErr = fmt.Errorf("scene: Follower.Sync: "+format+", want finite meters within ±%g (verlet3d.MaxCoordinate); the last good pose is held", append(args, float32(verlet3d.MaxCoordinate))...)
	}
	return true
}

// NumBadPoses returns how many Sync calls held a pin or collider at its
// last good pose because its node's pose was out of range.
func (f *Follower) NumBadPoses() int { return f.bad }

// BadPose returns why Sync last held a pose, naming the pin or collider,
// its node and the value, or nil when it never has.
func (f *Follower) BadPose() error { return f.badErr }

// Snap puts every collider at its end-of-step pose now, without sweeping:
// after a teleport, so the body does not drag the cloth across the jump.
func (f *Follower) Snap() {
	f.setColliders(1)
	f.hold()
}

// hold makes where the colliders are now the start of the next blend.
func (f *Follower) hold() {
	for i := range f.spheres {
		s := &f.spheres[i]
		s.from, s.rFrom = s.s.Center, s.s.Radius
	}
	for i := range f.capsules {
		c := &f.capsules[i]
		c.fromA, c.fromB, c.rFrom = c.c.A, c.c.B, c.c.Radius
	}
}

func lerpVec(a, b mgl32.Vec3, k float32) mgl32.Vec3 { return a.Add(vecmath.Scale(b.Sub(a), k)) }

func (f *Follower) setColliders(k float32) {
	for i := range f.spheres {
		s := &f.spheres[i]
		s.s.Center = lerpVec(s.from, s.to, k)
		s.s.Radius = s.rFrom + float32((s.rTo-s.rFrom)*k)
	}
	for i := range f.capsules {
		c := &f.capsules[i]
		c.c.A = lerpVec(c.fromA, c.toA, k)
		c.c.B = lerpVec(c.fromB, c.toB, k)
		c.c.Radius = c.rFrom + float32((c.rTo-c.rFrom)*k)
	}
}

// NumPins returns the number of pinned particles.
func (f *Follower) NumPins() int { return len(f.pins) }

// PinError returns the largest distance in meters between a pinned particle
// and its anchor's current world position. Right after a step that followed
// a Sync it is rounding error.
func (f *Follower) PinError() float32 {
	var worst float32
	for i := range f.pins {
		p := &f.pins[i]
		if d := vecmath.Len(f.world.Position(p.p).Sub(f.pinTarget(p))); d > worst {
			worst = d
		}
	}
	return worst
}

// LocalPoint returns the world point p in node's local space, from the
// node's current world matrix.
func LocalPoint(node *core.Node, p mgl32.Vec3) math32.Vector3 {
	m := node.MatrixWorld()
	var inv math32.Matrix4
	if err := inv.GetInverse(&m); err != nil {
		return math32.Vector3{}
	}
	v := math32.Vector3{X: p[0], Y: p[1], Z: p[2]}
	v.ApplyMatrix4(&inv)
	return v
}

// FindNode returns the first node called name in the hierarchy under root
// (root included, depth first). The error lists the names that exist.
func FindNode(root core.INode, name string) (*core.Node, error) {
	if root == nil {
		return nil, fmt.Errorf("scene: FindNode(%q): root is nil", name)
	}
	var found *core.Node
	var walk func(n core.INode)
	walk = func(n core.INode) {
		if found != nil {
			return
		}
		if n.Name() == name {
			found = n.GetNode()
			return
		}
		for _, c := range n.Children() {
			walk(c)
		}
	}
	walk(root)
	if found == nil {
		return nil, fmt.Errorf("scene: no node named %q under %q (have %s)", name, root.Name(), nodeNames(root))
	}
	return found, nil
}

func nodeNames(root core.INode) string {
	var names []string
	var walk func(n core.INode)
	walk = func(n core.INode) {
		if n.Name() != "" {
			names = append(names, n.Name())
		}
		for _, c := range n.Children() {
			walk(c)
		}
	}
	walk(root)
	return errctx.Names(names)
}

// FindBone returns the bone of sk called name. Names are matched exactly
// first, then ignoring a "prefix:" such as Mixamo's "mixamorig:".
func FindBone(sk *graphic.Skeleton, name string) (*core.Node, error) {
	if sk == nil {
		return nil, fmt.Errorf("scene: FindBone(%q): skeleton is nil", name)
	}
	bones := sk.Bones()
	for _, b := range bones {
		if b.Name() == name {
			return b, nil
		}
	}
	for _, b := range bones {
		n := b.Name()
		if i := strings.LastIndexByte(n, ':'); i >= 0 && n[i+1:] == name {
			return b, nil
		}
	}
	names := make([]string, len(bones))
	for i, b := range bones {
		names[i] = b.Name()
	}
	return nil, fmt.Errorf("scene: skeleton has no bone %q (have %s)", name, errctx.Names(names))
}

// BlocksSleep keeps the World awake while a followed collider still has
// to move to its node (see verlet3d.SleepBlocker): an asleep World does
// not run the hook that moves them.
func (k followHooks) BlocksSleep() bool {
	for i := range k.f.spheres {
		if s := &k.f.spheres[i]; s.s.Center != s.to || s.s.Radius != s.rTo {
			return true
		}
	}
	for i := range k.f.capsules {
		if c := &k.f.capsules[i]; c.c.A != c.toA || c.c.B != c.toB || c.c.Radius != c.rTo {
			return true
		}
	}
	return false
}
