package scene

import (
	"fmt"

	"github.com/drape3d/drape/cloth"
	"github.com/drape3d/drape/internal/errctx"
	"github.com/drape3d/drape/internal/vecmath"
	"github.com/drape3d/drape/verlet3d"
	"github.com/g3n/engine/core"
	"github.com/g3n/engine/math32"
	"github.com/go-gl/mathgl/mgl32"
)

// BodyPart is a collider on a character: every point within Radius of the
// segment A-B, with A and B in Node's local space (a sphere when A == B).
type BodyPart struct {
	Node   *core.Node
	A, B   math32.Vector3 // m, node-local
	Radius float32        // m, whatever the node's scale
}

// CapeSettings describe a cape. Start from DefaultCapeSettings and set
// Anchors (required) and Body; zero means zero (Friction 0 is a
// frictionless cape), and each field's comment gives its default.
type CapeSettings struct {
	// Anchors are the points the top edge is pinned to, in order along the
	// edge as cloth.CapeSettings.Anchors says (the left shoulder, the neck,
	// the right shoulder). At least one is required.
	Anchors []Anchor
	// Reference is the node that stands for the character as a whole (its
	// root or hips): it gives the Back direction, the frame for inertia and
	// the lag limit, and teleport detection. Default Anchors[0].Node.
	Reference *core.Node
	// Back is the direction the cape falls away from the body, in
	// Reference's local space: finite and not zero. DefaultCapeSettings
	// sets (0, 0, -1): glTF characters face +Z.
	Back math32.Vector3
	// Body are the colliders that follow the character.
	Body []BodyPart
	// Contact settings of the body colliders. Default friction 0.3.
	Contact verlet3d.ContactSettings
	// CapeFabric is the cloth and how it moves: Standoff, Width, Length,
	// Spacing, Mass, Thickness, Shear, Bend, TetherSlack, CarryLinear,
	// CarryAngular, MaxLag and TeleportDistance (see cloth.CapeFabric).
	// They are fields of CapeSettings through this embedding: set them on
	// a value (cs.Standoff = 0.17), or in a composite literal through
	// CapeFabric: cloth.CapeFabric{Standoff: 0.17, ...}; a literal naming
	// Standoff directly does not compile ("unknown field Standoff").
	cloth.CapeFabric
}

// DefaultCapeSettings returns the settings of a knee-length wool cape;
// set Anchors and Body for your character.
func DefaultCapeSettings() CapeSettings {
	return CapeSettings{
		Back:       math32.Vector3{Z: -1},
		Contact:    verlet3d.ContactSettings{Friction: 0.3},
		CapeFabric: cloth.DefaultCapeFabric(),
	}
}

// validate checks what only scene knows (the nodes); cloth.NewCape checks
// the numbers.
func (s *CapeSettings) validate() error {
	if len(s.Anchors) == 0 {
		return fmt.Errorf("scene: CapeSettings.Anchors is empty, want at least one node to pin the cape to")
	}
	for i, a := range s.Anchors {
		if err := a.validate(fmt.Sprintf("CapeSettings.Anchors[%d]", i)); err != nil {
			return err
		}
	}
	if s.Reference == nil {
		s.Reference = s.Anchors[0].Node
	}
	if b := s.Back; !vecmath.Finite(mgl32.Vec3{b.X, b.Y, b.Z}) || b.Length() < 1e-6 {
		return fmt.Errorf("scene: CapeSettings.Back = %v, want a finite non-zero direction in Reference's local space (DefaultCapeSettings has (0, 0, -1))", b)
	}
	for i, b := range s.Body {
		if b.Node == nil {
			return fmt.Errorf("scene: CapeSettings.Body[%d].Node is nil", i)
		}
	}
	return nil
}

// checkPoses reports a node whose world pose, read by pose, is no pose for
// the physics (a NaN or infinite bone, one beyond verlet3d.MaxCoordinate,
// or for an anchor or the reference, axes collapsed by a scale through
// zero), naming the setting that holds it.
func (c *Cape) checkPoses(ref verlet3d.Pose) error {
	bad := func(p verlet3d.Pose, n *core.Node) string {
		if !inWorld(p.Position) || !vecmath.FiniteQuat(p.Rotation) {
			return fmt.Sprintf("is at %v, %v in the world, want a finite pose within ±%g m (verlet3d.MaxCoordinate)", p.Position, p.Rotation, float32(verlet3d.MaxCoordinate))
		}
		m := mat4(n)
		return badFrame(&m)
	}
	for i, a := range c.anchors {
		if f := bad(a, c.s.Anchors[i].Node); f != "" {
			return fmt.Errorf("scene: CapeSettings.Anchors[%d]: node %q %s", i, c.s.Anchors[i].Node.Name(), f)
		}
	}
	if f := bad(ref, c.s.Reference); f != "" {
		return fmt.Errorf("scene: CapeSettings.Reference: node %q %s", c.s.Reference.Name(), f)
	}
	for i, b := range c.body {
		if !inWorld(b.A) || !inWorld(b.B) {
			return fmt.Errorf("scene: CapeSettings.Body[%d]: node %q puts the part at %v-%v in the world, want finite ends within ±%g m (verlet3d.MaxCoordinate)", i, c.s.Body[i].Node.Name(), b.A, b.B, float32(verlet3d.MaxCoordinate))
		}
	}
	return nil
}

// Cape is a cloth grid hanging from a character's shoulders: a
// cloth.Cape (the physics: pins, tethers, carry, teleports, lag limits)
// driven by the poses of g3n nodes, with body colliders that follow the
// limbs. Call Sync every frame after the animation and UpdateMatrixWorld,
// before the World steps (Attach does this on a Driver).
type Cape struct {
	Grid *cloth.Grid
	// Follower moves the body colliders with their nodes (the top edge's
	// pins are the cloth.Cape's).
	Follower *Follower
	// Spheres and Capsules are the body colliders, in the order of
	// CapeSettings.Body (each part is one or the other).
	Spheres  []*verlet3d.Sphere
	Capsules []*verlet3d.Capsule
	// Teleports counts the jumps Sync made (detected or asked for).
	Teleports int

	bad    int   // Sync calls that held the pose
	badErr error // why the last one did

	s       CapeSettings
	phys    *cloth.Cape
	anchors []verlet3d.Pose    // per Sync, reused
	body    []verlet3d.Capsule // per Sync, reused
}

// NewCape builds a cape in w from s: a cloth.Cape hanging from the
// anchors' current world positions (so update the scene's world matrices
// first), tilted back just enough to clear the body colliders, its top row
// pinned to the anchors, tethered, with the body colliders added. Errors
// name the bad setting and leave w without new particles.
func NewCape(w *verlet3d.World, s CapeSettings) (*Cape, error) {
	if w == nil {
		panic("scene: NewCape: World is nil")
	}
	var c *Cape
	err := w.Atomically(func() (err error) { c, err = newCape(w, s); return err })
	if err != nil {
		return nil, err
	}
	return c, nil
}

// newCape builds what NewCape returns.
func newCape(w *verlet3d.World, s CapeSettings) (*Cape, error) {
	if err := s.validate(); err != nil {
		return nil, err
	}
	c := &Cape{s: s}
	c.anchors = make([]verlet3d.Pose, len(s.Anchors))
	c.body = make([]verlet3d.Capsule, len(s.Body))
	ref := c.pose()
	if err := c.checkPoses(ref); err != nil {
		return nil, err
	}
	cs := cloth.CapeSettings{
		Anchors:    c.anchors,
		Reference:  ref,
		Back:       mgl32.Vec3{s.Back.X, s.Back.Y, s.Back.Z},
		Body:       c.body,
		CapeFabric: s.CapeFabric,
	}
	phys, err := cloth.NewCape(w, cs)
	if err != nil {
		// The fabric and Back are fields of this CapeSettings too: name
		// them as the caller wrote them.
		return nil, errctx.Rename(err, "cloth: CapeSettings.", "scene: CapeSettings.")
	}
	c.phys, c.Grid, c.Follower = phys, phys.Grid(), NewFollower(w)
	for _, b := range s.Body {
		if b.A == b.B {
			sph, err := c.Follower.AddSphere(b.Node, b.A, b.Radius, s.Contact)
			if err != nil {
				return nil, err
			}
			c.Spheres = append(c.Spheres, sph)
			continue
		}
		k, err := c.Follower.AddCapsule(b.Node, b.A, b.B, b.Radius, s.Contact)
		if err != nil {
			return nil, err
		}
		c.Capsules = append(c.Capsules, k)
	}
	return c, nil
}

// pose reads the nodes: it fills c.anchors and c.body with their world
// poses and returns Reference's.
func (c *Cape) pose() verlet3d.Pose {
	for i, a := range c.s.Anchors {
		m := a.Node.MatrixWorld()
		_, rot := decompose(mgl32.Mat4(m))
		c.anchors[i] = verlet3d.Pose{Position: nodePoint(&m, a.Offset), Rotation: rot}
	}
	for i, b := range c.s.Body {
		m := b.Node.MatrixWorld()
		c.body[i] = verlet3d.Capsule{A: nodePoint(&m, b.A), B: nodePoint(&m, b.B), Radius: b.Radius}
	}
	pos, rot := decompose(mat4(c.s.Reference))
	return verlet3d.Pose{Position: pos, Rotation: rot}
}

func mat4(n *core.Node) mgl32.Mat4 { return mgl32.Mat4(n.MatrixWorld()) }

// decompose returns the translation and the rotation (scale removed) of m.
func decompose(m mgl32.Mat4) (mgl32.Vec3, mgl32.Quat) {
	pos := m.Col(3).Vec3()
	var r mgl32.Mat3
	for i := 0; i < 3; i++ {
		col := m.Col(i).Vec3()
		if l := vecmath.Len(col); l > 1e-12 {
			col = vecmath.Scale(col, 1/l)
		}
		r.SetCol(i, col)
	}
	return pos, vecmath.QuatNormalize(vecmath.Mat4ToQuat(r.Mat4()))
}

// Remove takes the cape's hooks and body colliders out of the World; its
// particles stay.
func (c *Cape) Remove() {
	c.phys.Remove()
	c.Follower.Remove()
}

// Physics returns the cloth.Cape that this Cape drives.
func (c *Cape) Physics() *cloth.Cape { return c.phys }

// Settings returns the settings the cape was built with, defaults filled in.
func (c *Cape) Settings() CapeSettings { return c.s }

// Particles returns every particle of the cape, row by row (row 0 is the
// pinned top edge). The slice is shared: do not change it.
func (c *Cape) Particles() []verlet3d.Particle { return c.phys.Particles() }

// Attach runs Sync before every Driver step.
func (c *Cape) Attach(d *Driver) { d.BeforeStep(c.Sync) }

// Teleport makes the next Sync move the whole cape rigidly with the
// character, whatever the distance: call it after placing the character
// somewhere new.
func (c *Cape) Teleport() { c.phys.Teleport() }

// SetCarry changes CarryLinear and CarryAngular (fractions in [0, 1]).
func (c *Cape) SetCarry(linear, angular float32) error {
	if err := c.phys.SetCarry(linear, angular); err != nil {
		return err
	}
	c.s.CarryLinear, c.s.CarryAngular = linear, angular
	return nil
}

// Sync reads the character's pose from the nodes and hands it to the
// cloth.Cape (carry, teleports, pin targets, lag limits), then moves the
// body colliders (sweeping them through the step, or snapping them after a
// jump). Call it once per frame, after the animation and
// UpdateMatrixWorld, before the World steps. It does not allocate.
//
// A node's pose is data from an animation: when an anchor, the reference
// or a body part is not finite or beyond ±verlet3d.MaxCoordinate, or an
// anchor's or the reference's axes are collapsed (one bad frame: a NaN
// key, a bone scaled through zero, a hips bone thrown to 1e30 m), Sync
// changes nothing: the cape and its body colliders hold their last good
// pose, NumBadPoses counts the call and BadPose names the setting and the
// node.
func (c *Cape) Sync() {
	ref := c.pose()
	if err := c.checkPoses(ref); err != nil {
		c.bad++
		c.badErr = errctx.Wrap("scene", "Cape.Sync", err)
		return
	}
	jumped := c.phys.SetPose(ref, c.anchors, c.body)
	c.Follower.Sync()
	if jumped {
		c.Follower.Snap()
	}
	c.Teleports = c.phys.NumTeleports()
}

// NumBadPoses returns how many Sync calls held the cape's last good pose
// because a node's pose was out of range.
func (c *Cape) NumBadPoses() int { return c.bad }

// BadPose returns why Sync last held the pose ("scene: Cape.Sync:
// CapeSettings.Anchors[1]: node "Neck" is at ..."), or nil when it never
// has.
func (c *Cape) BadPose() error { return c.badErr }

// PinError returns the largest distance in meters between a top-edge
// particle and its anchors' pose at the last Sync. Right after a step that
// followed a Sync it is rounding error.
func (c *Cape) PinError() float32 { return c.phys.PinError() }

// Penetration returns the deepest a cape particle lies inside a body
// collider, in meters (0 when none is inside). It measures against the
// colliders' surfaces, not the particles' thickness.
func (c *Cape) Penetration() float32 { return c.phys.Penetration() }
