package scene

import (
	"fmt"
	"github.com/drape3d/drape/internal/vecmath"
	"math"

	"github.com/drape3d/drape/cloth"
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
	// Anchors are the points the top edge is pinned to, in order across the
	// back: for example the right shoulder, the neck, the left shoulder. Each
	// top-edge particle follows the blend of the two anchors it lies between,
	// keeping its offset from them as built. At least one is required; with a
	// single anchor the top edge is centred on it.
	Anchors []Anchor
	// Reference is the node that stands for the character as a whole (its
	// root or hips): it gives the Back direction, the frame for inertia and
	// the lag limit, and teleport detection. Default Anchors[0].Node.
	Reference *core.Node
	// Back is the direction the cape falls away from the body, in
	// Reference's local space. Default (0, 0, -1): glTF characters face +Z.
	Back math32.Vector3
	// Standoff moves the top edge this far (m) along Back from the anchors
	// as built, for anchors that sit inside the body (bone origins do).
	// Default 0.
	Standoff float32
	// Width of the cape in metres. 0 (the default) fits it to the
	// character: 1.6 times the length of the anchor line (0.5 m with a
	// single anchor), so the part beyond the end anchors hangs over the
	// arms' backs.
	Width float32
	// Length of the cape from the top edge down, in metres. Default 1.
	Length float32
	// Spacing between particles in metres. Default 0.05.
	Spacing float32
	// Mass of the whole cape in kg. Default 0.6.
	Mass float32
	// Thickness is the particles' collision radius in metres: the cloth stays
	// this far from the body. Default 0.015.
	Thickness float32
	// Shear and Bend are the XPBD compliances (m/N) of the shear and bend
	// links; structural links are rigid. Defaults 1e-3 and 0.05.
	Shear, Bend float32
	// TetherSlack lets the tethers from the top edge stretch by this fraction
	// before they act. Default 0.001 (tight: at a run, 2% slack lets the hem
	// links stretch 10%).
	TetherSlack float32
	// Body are the colliders that follow the character.
	Body []BodyPart
	// Contact settings of the body colliders. Default friction 0.3.
	Contact verlet3d.ContactSettings
	// CarryLinear is the fraction in [0, 1] of the character's frame-to-frame
	// translation applied directly to every cape particle, so the cape does
	// not feel the full inertial kick of a start or stop. NvCloth's linear
	// inertia is 1 - CarryLinear. Default 0: pure physics.
	CarryLinear float32
	// CarryAngular is the same for the character's rotation about
	// Reference. Default 0.
	CarryAngular float32
	// MaxLag bounds how far a particle may be from where it hangs as built
	// below its column's pinned top particle, turned with Reference, in
	// metres per metre of its distance down from the top edge (NvCloth's
	// motion constraints, relative to the pins). 1.5 lets the hem
	// fly out behind a runner yet never trail further; 0 (default) is off.
	MaxLag float32
	// TeleportDistance in metres: when Reference moves farther than this
	// between two Syncs, the whole cape jumps with it instead of stretching
	// across the gap. Default 1.
	TeleportDistance float32
}

// DefaultCapeSettings returns the settings of a knee-length wool cape;
// set Anchors and Body for your character.
func DefaultCapeSettings() CapeSettings {
	return CapeSettings{
		Back:             math32.Vector3{Z: -1},
		Length:           1,
		Spacing:          0.05,
		Mass:             0.6,
		Thickness:        0.015,
		Shear:            1e-3,
		Bend:             0.05,
		TetherSlack:      0.001,
		Contact:          verlet3d.ContactSettings{Friction: 0.3},
		TeleportDistance: 1,
	}
}

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
	if s.Back == (math32.Vector3{}) {
		return fmt.Errorf("scene: CapeSettings.Back = %v, want a direction", s.Back)
	}
	for _, f := range []struct {
		name     string
		v        float32
		positive bool
	}{
		{"Width", s.Width, false}, {"Length", s.Length, true}, {"Spacing", s.Spacing, true},
		{"Mass", s.Mass, true}, {"Thickness", s.Thickness, false}, {"Shear", s.Shear, false},
		{"Bend", s.Bend, false}, {"TetherSlack", s.TetherSlack, false}, {"MaxLag", s.MaxLag, false},
		{"TeleportDistance", s.TeleportDistance, true}, {"Standoff", s.Standoff, false},
		{"CarryLinear", s.CarryLinear, false}, {"CarryAngular", s.CarryAngular, false},
	} {
		if v := float64(f.v); math.IsNaN(v) || math.IsInf(v, 0) || v < 0 || (f.positive && v == 0) {
			want := ">= 0"
			if f.positive {
				want = "> 0"
			}
			return fmt.Errorf("scene: CapeSettings.%s = %v, want a finite value %s", f.name, f.v, want)
		}
	}
	if s.CarryLinear > 1 || s.CarryAngular > 1 {
		return fmt.Errorf("scene: CapeSettings.CarryLinear = %v, CarryAngular = %v, want fractions in [0, 1]", s.CarryLinear, s.CarryAngular)
	}
	for i, b := range s.Body {
		if b.Node == nil {
			return fmt.Errorf("scene: CapeSettings.Body[%d].Node is nil", i)
		}
		if !(b.Radius > 0) || math.IsInf(float64(b.Radius), 0) {
			return fmt.Errorf("scene: CapeSettings.Body[%d].Radius = %v, want metres > 0", i, b.Radius)
		}
	}
	return nil
}

// Cape is a cloth grid hanging from a character's shoulders: its top edge
// follows anchor nodes, tethers keep it from stretching, body colliders
// follow the limbs. Call Sync every frame after the animation and
// UpdateMatrixWorld, before the World steps (Attach does this on a Driver).
type Cape struct {
	Grid     *cloth.Grid
	Follower *Follower
	// Spheres and Capsules are the body colliders, in the order of
	// CapeSettings.Body (each part is one or the other).
	Spheres  []*verlet3d.Sphere
	Capsules []*verlet3d.Capsule

	s        CapeSettings
	w        *verlet3d.World
	parts    []verlet3d.Particle // every cape particle
	free     []verlet3d.Particle // particles not on the top edge
	top      []verlet3d.Particle // pinned top edge
	local    []mgl32.Vec3        // bind-pose position in Reference's frame, per parts entry
	hang     []mgl32.Vec3        // bind-pose offset from the column's top particle, Reference's axes
	lagMax   []float32           // MaxLag radius per parts entry, m (0: none)
	lagAt    []mgl32.Vec3        // this step's lag-limit centres
	refPos   mgl32.Vec3          // Reference world position at the last Sync
	refRot   mgl32.Quat          // Reference world rotation at the last Sync
	refMat   mgl32.Mat4          // Reference world matrix at the last Sync
	teleport bool                // jump the cape at the next Sync
	// Teleports counts the jumps Sync made (detected or asked for).
	Teleports int
	hooks     capeHooks
}

// NewCape builds a cape in w from s: a cloth.Grid hanging from the anchors'
// current world positions (so update the scene's world matrices first),
// tilted back just enough to clear the body colliders, its top row pinned to
// the anchors, tethered, with the body colliders added. Errors name the bad
// setting.
func NewCape(w *verlet3d.World, s CapeSettings) (*Cape, error) {
	if w == nil {
		panic("scene: NewCape: World is nil")
	}
	if err := s.validate(); err != nil {
		return nil, err
	}
	// The top edge: the anchors' world positions, a straight line from the
	// first to the last, centred on their middle.
	pts := make([]mgl32.Vec3, len(s.Anchors))
	for i, a := range s.Anchors {
		pts[i] = a.Position()
	}
	refM := mat4(s.Reference)
	back := refM.Mul4x1(mgl32.Vec4{s.Back.X, s.Back.Y, s.Back.Z, 0}).Vec3()
	back[1] = 0
	if back.Len() < 1e-6 {
		return nil, fmt.Errorf("scene: CapeSettings.Back = %v is vertical in the world, want a horizontal direction", s.Back)
	}
	back = back.Normalize()
	across := pts[len(pts)-1].Sub(pts[0])
	lineLen := float32(0)
	for i := 1; i < len(pts); i++ {
		lineLen += pts[i].Sub(pts[i-1]).Len()
	}
	if across.Len() < 1e-4 {
		// One anchor (or all at one point): across is the character's side.
		across = mgl32.Vec3{0, 1, 0}.Cross(back)
		lineLen = 0
	}
	across = across.Normalize()
	width := s.Width
	if width == 0 {
		width = 1.6 * lineLen
		if width < 0.1 {
			width = 0.5
		}
	}
	centre := mgl32.Vec3{}
	for _, p := range pts {
		centre = centre.Add(p)
	}
	centre = centre.Mul(1 / float32(len(pts)))
	cols := int(math.Round(float64(width/s.Spacing))) + 1
	rows := int(math.Round(float64(s.Length/s.Spacing))) + 1
	if cols < 2 || rows < 2 {
		return nil, fmt.Errorf("scene: cape of %v x %v m with Spacing %v has fewer than 2 particles a side", width, s.Length, s.Spacing)
	}
	sp := width / float32(cols-1)
	origin := centre.Sub(across.Mul(width / 2)).Add(back.Mul(s.Standoff))

	// Tilt the cape back from vertical just enough to clear the body.
	bodyNow := make([]verlet3d.Capsule, len(s.Body))
	for i, b := range s.Body {
		m := b.Node.MatrixWorld()
		bodyNow[i] = verlet3d.Capsule{A: nodePoint(&m, b.A), B: nodePoint(&m, b.B), Radius: b.Radius}
	}
	var down mgl32.Vec3
	for deg := 0.0; deg <= 80; deg += 2.5 {
		a := deg * math.Pi / 180
		down = mgl32.Vec3{0, -float32(math.Cos(a)), 0}.Add(back.Mul(float32(math.Sin(a))))
		if clears(bodyNow, origin, across, down, sp, cols, rows, s.Thickness+0.01) {
			break
		}
	}

	g, err := cloth.New(w, cloth.Settings{
		Cols: cols, Rows: rows, Spacing: sp,
		Origin: origin, Across: across, Down: down,
		Mass:       s.Mass,
		Radius:     s.Thickness,
		Structural: cloth.Spring{Compliance: 0},
		Shear:      cloth.Spring{Compliance: s.Shear},
		Bend:       cloth.Spring{Compliance: s.Bend},
		PinRows:    []int{0},
		Tethers:    true, TetherSlack: s.TetherSlack,
	})
	if err != nil {
		return nil, err
	}
	c := &Cape{Grid: g, Follower: NewFollower(w), s: s, w: w}
	// Pin the top edge to the anchors: each particle to the two anchors of
	// the segment of the anchor line it is nearest to.
	for col := 0; col < cols; col++ {
		p := g.Particle(0, col)
		x := w.Position(p)
		i, t := nearestOnLine(pts, x.Sub(back.Mul(s.Standoff)))
		a := Anchor{Node: s.Anchors[i].Node, Offset: LocalPoint(s.Anchors[i].Node, x)}
		var b Anchor
		if t > 0 {
			b = Anchor{Node: s.Anchors[i+1].Node, Offset: LocalPoint(s.Anchors[i+1].Node, x)}
		}
		if err := c.Follower.PinBlend(p, a, b, t); err != nil {
			return nil, err
		}
		c.top = append(c.top, p)
	}
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
	// Bind pose in the reference frame, for carrying, lag limits, resets.
	inv := refM.Inv()
	_, refRot := decompose(refM)
	for r := 0; r < rows; r++ {
		for col := 0; col < cols; col++ {
			p := g.Particle(r, col)
			c.parts = append(c.parts, p)
			c.local = append(c.local, inv.Mul4x1(w.Position(p).Vec4(1)).Vec3())
			c.hang = append(c.hang, refRot.Inverse().Rotate(w.Position(p).Sub(w.Position(c.top[col]))))
			c.lagMax = append(c.lagMax, s.MaxLag*float32(r)*sp)
			if r > 0 {
				c.free = append(c.free, p)
			}
		}
	}
	c.lagAt = make([]mgl32.Vec3, len(c.parts))
	c.refMat = refM
	c.refPos, c.refRot = decompose(refM)
	c.updateLag()
	c.hooks = capeHooks{c}
	w.AddConstraintSet(c.hooks)
	return c, nil
}

// clears reports whether every particle below row 0 of the grid lies at
// least margin outside every body part.
func clears(body []verlet3d.Capsule, origin, across, down mgl32.Vec3, sp float32, cols, rows int, margin float32) bool {
	for r := 1; r < rows; r++ {
		for col := 0; col < cols; col++ {
			x := origin.Add(across.Mul(float32(col) * sp)).Add(down.Mul(float32(r) * sp))
			for i := range body {
				b := &body[i]
				if vecmath.ClosestOnSegment(b.A, b.B, x).Sub(x).Len() < b.Radius+margin {
					return false
				}
			}
		}
	}
	return true
}

// nearestOnLine returns the segment i (between pts[i] and pts[i+1]) of the
// polyline nearest to x and the fraction t along it.
func nearestOnLine(pts []mgl32.Vec3, x mgl32.Vec3) (int, float32) {
	if len(pts) == 1 {
		return 0, 0
	}
	best, bi, bt := float32(math.MaxFloat32), 0, float32(0)
	for i := 0; i+1 < len(pts); i++ {
		ab := pts[i+1].Sub(pts[i])
		t := float32(0)
		if l2 := ab.Dot(ab); l2 > 1e-12 {
			t = x.Sub(pts[i]).Dot(ab) / l2
		}
		t = float32(math.Max(0, math.Min(1, float64(t))))
		if d := pts[i].Add(ab.Mul(t)).Sub(x).Len(); d < best {
			best, bi, bt = d, i, t
		}
	}
	if bt == 1 && bi+2 < len(pts) {
		return bi + 1, 0
	}
	return bi, bt
}

func mat4(n *core.Node) mgl32.Mat4 { return mgl32.Mat4(n.MatrixWorld()) }

func decompose(m mgl32.Mat4) (mgl32.Vec3, mgl32.Quat) {
	pos := m.Col(3).Vec3()
	// Remove scale from the rotation columns.
	var r mgl32.Mat3
	for i := 0; i < 3; i++ {
		col := m.Col(i).Vec3()
		if l := col.Len(); l > 1e-12 {
			col = col.Mul(1 / l)
		}
		r.SetCol(i, col)
	}
	return pos, mgl32.Mat4ToQuat(r.Mat4()).Normalize()
}

// Settings returns the settings the cape was built with, defaults filled in.
func (c *Cape) Settings() CapeSettings { return c.s }

// Particles returns every particle of the cape, row by row (row 0 is the
// pinned top edge). The slice is shared: do not change it.
func (c *Cape) Particles() []verlet3d.Particle { return c.parts }

// Attach runs Sync before every Driver step.
func (c *Cape) Attach(d *Driver) { d.BeforeStep(c.Sync) }

// Teleport makes the next Sync move the whole cape rigidly with the
// character, whatever the distance: call it after placing the character
// somewhere new.
func (c *Cape) Teleport() { c.teleport = true }

// SetCarry changes CarryLinear and CarryAngular (fractions in [0, 1]).
func (c *Cape) SetCarry(linear, angular float32) error {
	if !(linear >= 0 && linear <= 1 && angular >= 0 && angular <= 1) {
		return fmt.Errorf("scene: Cape.SetCarry(%v, %v): want fractions in [0, 1]", linear, angular)
	}
	c.s.CarryLinear, c.s.CarryAngular = linear, angular
	return nil
}

// Sync reads the character's pose: it carries the cape by the configured
// fraction of the character's motion (all of it for a teleport or after a
// World.Reset), sets the pins' targets and the colliders' poses, and
// updates the lag limits. Call it once per frame, after the animation and
// UpdateMatrixWorld, before the World steps. It does not allocate.
func (c *Cape) Sync() {
	m := mat4(c.s.Reference)
	pos, rot := decompose(m)
	move := pos.Sub(c.refPos)
	// World.Reset sends the particles home (the bind pose) and frees the
	// kinematic top edge: put the cape back on the character rigidly.
	if !c.w.Pinned(c.top[0]) {
		c.place(m)
		c.Follower.Sync()
		c.Follower.Snap()
	} else if c.teleport || move.Len() > c.s.TeleportDistance {
		c.carry(move, rot.Mul(c.refRot.Inverse()), 1, 1, c.parts)
		c.Follower.Sync()
		c.Follower.Snap()
		c.Teleports++
	} else {
		if c.s.CarryLinear > 0 || c.s.CarryAngular > 0 {
			c.carry(move, rot.Mul(c.refRot.Inverse()), c.s.CarryLinear, c.s.CarryAngular, c.free)
		}
		c.Follower.Sync()
	}
	c.teleport = false
	c.refPos, c.refRot, c.refMat = pos, rot, m
	c.updateLag()
}

// carry moves ps (positions and previous positions alike, so velocities
// turn with them) by fraction kl of the translation move and fraction ka of
// the rotation dq about the reference's old position.
func (c *Cape) carry(move mgl32.Vec3, dq mgl32.Quat, kl, ka float32, ps []verlet3d.Particle) {
	if dq.W < 0 {
		dq = dq.Scale(-1)
	}
	q := mgl32.QuatSlerp(mgl32.QuatIdent(), dq, ka)
	shift := move.Mul(kl)
	o := c.refPos
	pos, prev := c.w.Positions(), c.w.PrevPositions()
	for _, p := range ps {
		pos[p] = o.Add(shift).Add(q.Rotate(pos[p].Sub(o)))
		prev[p] = o.Add(shift).Add(q.Rotate(prev[p].Sub(o)))
	}
}

// place puts every particle at its bind-pose place in the frame m, at rest.
func (c *Cape) place(m mgl32.Mat4) {
	pos, prev := c.w.Positions(), c.w.PrevPositions()
	for i, p := range c.parts {
		x := m.Mul4x1(c.local[i].Vec4(1)).Vec3()
		pos[p], prev[p] = x, x
	}
}

// updateLag puts each lag-limit centre where the particle hangs as built
// below its column's top particle, turned with the character: the limit
// is relative to the pinned neighbours, so a torso that leans or twists
// relative to Reference does not fight it.
func (c *Cape) updateLag() {
	if c.s.MaxLag == 0 {
		return
	}
	cols := len(c.top)
	for i := range c.parts {
		top := c.w.Target(c.top[i%cols])
		c.lagAt[i] = top.Add(c.refRot.Rotate(c.hang[i]))
	}
}

// capeHooks is the cape's verlet3d.ConstraintSet (the lag limit),
// unexported so that a game never sees solver plumbing.
type capeHooks struct{ c *Cape }

func (capeHooks) Prepare(*verlet3d.World, verlet3d.Substep) {}
func (k capeHooks) Solve(w *verlet3d.World, _ verlet3d.Substep) {
	if k.c.s.MaxLag > 0 {
		k.c.limitLag(w)
	}
}

// limitLag pulls every particle back inside the sphere around its
// bind-pose place in the character's frame. It runs every iteration, so it
// stays lean: the top row (radius 0) is skipped and the test is one squared
// distance per particle.
func (c *Cape) limitLag(w *verlet3d.World) {
	pos, inv := w.Positions(), w.InvMasses()
	cols := len(c.top)
	parts, at, lim := c.parts[cols:], c.lagAt[cols:], c.lagMax[cols:]
	at, lim = at[:len(parts)], lim[:len(parts)]
	for i, p := range parts {
		x, a, r := &pos[p], at[i], lim[i]
		dx, dy, dz := x[0]-a[0], x[1]-a[1], x[2]-a[2]
		l2 := dx*dx + dy*dy + dz*dz
		if l2 <= r*r || r == 0 || inv[p] == 0 {
			continue
		}
		k := r / float32(math.Sqrt(float64(l2)))
		*x = mgl32.Vec3{a[0] + dx*k, a[1] + dy*k, a[2] + dz*k}
	}
}

// Penetration returns the deepest a cape particle lies inside a body
// collider, in metres (0 when none is inside). It measures against the
// colliders' surfaces, not the particles' thickness.
func (c *Cape) Penetration() float32 {
	var worst float32
	pos := c.w.Positions()
	for _, p := range c.free {
		x := pos[p]
		for _, s := range c.Spheres {
			if d := s.Radius - x.Sub(s.Center).Len(); d > worst {
				worst = d
			}
		}
		for _, k := range c.Capsules {
			if d := k.Radius - vecmath.ClosestOnSegment(k.A, k.B, x).Sub(x).Len(); d > worst {
				worst = d
			}
		}
	}
	return worst
}
