package cloth

import (
	"fmt"
	"math"

	"github.com/drape3d/drape/internal/vecmath"
	"github.com/drape3d/drape/verlet3d"
	"github.com/go-gl/mathgl/mgl32"
)

// CapeSettings describe a cape hanging from a character, in world space at
// the pose it is built in. Start from DefaultCapeSettings and set Anchors,
// Reference and Body; zero means zero, and each field's comment gives its
// default.
type CapeSettings struct {
	// Anchors are the poses the top edge is pinned to, in order along the
	// edge: the left shoulder, the neck, the right shoulder. The first
	// anchor is at the grid's first column (texture u = 0), so in this
	// order the grid's front side (Settings.Down) faces out from the back
	// and a texture reads unmirrored from behind; the opposite order
	// hangs the same way with the front side toward the body. Each
	// top-edge particle follows the blend of the two anchors it lies
	// between, keeping its offset from them (in their frames) as built.
	// At least one is required; with a single anchor the top edge is
	// centered on it.
	Anchors []verlet3d.Pose
	// Reference is the pose of the character as a whole (its root or
	// hips): it gives the Back direction, the frame for carry and the lag
	// limit, and teleport detection. Default the identity pose.
	Reference verlet3d.Pose
	// Back is the direction the cape falls away from the body, in
	// Reference's frame. Default (0, 0, -1): glTF characters face +Z.
	Back mgl32.Vec3
	// Body are the character's colliders as built (a sphere when A == B),
	// in meters: the cape is tilted back from vertical until it clears
	// them. The Cape does not add colliders to the World; the caller owns
	// them and passes their pose to SetPose for Penetration.
	Body []verlet3d.Capsule
	// CapeFabric is the cloth and how it moves, shared with scene.CapeSettings.
	CapeFabric
}

// CapeFabric is what a cape is made of and how it follows its character,
// the settings cloth.CapeSettings and scene.CapeSettings share. Start from
// DefaultCapeFabric; zero means zero, and each field's comment gives its
// default.
type CapeFabric struct {
	// Standoff moves the top edge this far (m) along Back from the anchors
	// as built, for anchors that sit inside the body. Default 0.
	Standoff float32
	// Width of the cape in meters. 0 (the default) fits it to the
	// character: 1.6 times the length of the anchor line (0.5 m with a
	// single anchor).
	Width float32
	// Length of the cape from the top edge down, in meters. Default 1.
	Length float32
	// Spacing between particles in meters. Default 0.05.
	Spacing float32
	// Mass of the whole cape in kg. Default 0.6.
	Mass float32
	// Thickness is the particles' collision radius in meters. Default 0.015.
	Thickness float32
	// Shear and Bend are the XPBD compliances (m/N) of the shear and bend
	// links; structural links are rigid. Defaults 1e-3 and 0.05.
	Shear, Bend float32
	// TetherSlack lets the tethers from the top edge stretch by this
	// fraction before they act, at most MaxTetherSlack. Default 0.001.
	TetherSlack float32
	// CarryLinear is the fraction in [0, 1] of the character's
	// frame-to-frame translation applied directly to every free particle
	// (NvCloth's linear inertia is 1 - CarryLinear). Default 0.
	CarryLinear float32
	// CarryAngular is the same for the character's rotation about
	// Reference. Default 0.
	CarryAngular float32
	// MaxLag bounds how far a particle may be from where it hangs as built
	// below its column's pinned top particle, turned with Reference, in
	// meters per meter of its distance down from the top edge (NvCloth's
	// motion constraints, Jolt's skinned max distance). 0 (default) is off.
	MaxLag float32
	// TeleportDistance in meters: when Reference moves farther than this
	// between two SetPose calls, the whole cape jumps with it. Default 1.
	TeleportDistance float32
}

// DefaultCapeFabric returns a knee-length wool cape.
func DefaultCapeFabric() CapeFabric {
	return CapeFabric{
		Length:           1,
		Spacing:          0.05,
		Mass:             0.6,
		Thickness:        0.015,
		Shear:            1e-3,
		Bend:             0.05,
		TetherSlack:      0.001,
		TeleportDistance: 1,
	}
}

// DefaultCapeSettings returns the settings of a knee-length wool cape; set
// Anchors, Reference and Body for your character.
func DefaultCapeSettings() CapeSettings {
	return CapeSettings{
		Reference:  verlet3d.Pose{Rotation: mgl32.QuatIdent()},
		Back:       mgl32.Vec3{0, 0, -1},
		CapeFabric: DefaultCapeFabric(),
	}
}

func validPose(p verlet3d.Pose, what string) error {
	if !vecmath.Finite(p.Position) {
		return fmt.Errorf("cloth: %s.Position = %v, want finite meters", what, p.Position)
	}
	if !vecmath.FiniteQuat(p.Rotation) {
		return fmt.Errorf("cloth: %s.Rotation = %v, want a finite quaternion", what, p.Rotation)
	}
	return nil
}

func (s *CapeSettings) validate() error {
	if len(s.Anchors) == 0 {
		return fmt.Errorf("cloth: CapeSettings.Anchors is empty, want at least one anchor pose")
	}
	for i, a := range s.Anchors {
		if err := validPose(a, fmt.Sprintf("CapeSettings.Anchors[%d]", i)); err != nil {
			return err
		}
	}
	if err := validPose(s.Reference, "CapeSettings.Reference"); err != nil {
		return err
	}
	if !vecmath.Finite(s.Back) || vecmath.Len(s.Back) < 1e-6 {
		return fmt.Errorf("cloth: CapeSettings.Back = %v, want a finite direction", s.Back)
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
			return fmt.Errorf("cloth: CapeSettings.%s = %v, want a finite value %s", f.name, f.v, want)
		}
	}
	if s.TetherSlack > MaxTetherSlack {
		return fmt.Errorf("cloth: CapeSettings.TetherSlack = %v, want a fraction in [0, %d]", s.TetherSlack, MaxTetherSlack)
	}
	if s.CarryLinear > 1 || s.CarryAngular > 1 {
		return fmt.Errorf("cloth: CapeSettings.CarryLinear = %v, CarryAngular = %v, want fractions in [0, 1]", s.CarryLinear, s.CarryAngular)
	}
	for i, b := range s.Body {
		if err := validCapsule(b, fmt.Sprintf("CapeSettings.Body[%d]", i)); err != nil {
			return err
		}
	}
	return nil
}

func validCapsule(b verlet3d.Capsule, what string) error {
	if !vecmath.Finite(b.A) || !vecmath.Finite(b.B) {
		return fmt.Errorf("cloth: %s = %v-%v, want finite ends in meters", what, b.A, b.B)
	}
	if !(b.Radius > 0) || math.IsInf(float64(b.Radius), 0) {
		return fmt.Errorf("cloth: %s.Radius = %v, want meters > 0", what, b.Radius)
	}
	return nil
}

// Cape is a Grid hanging from a character's shoulders, driven by poses:
// its top edge follows anchor poses, tethers keep it from stretching, and
// it carries a configurable part of the character's motion, jumps with it
// on a teleport and (with MaxLag) never trails further than a set distance
// from where it hangs. Call SetPose every frame before the World steps.
// The body colliders are the caller's (scene.Cape makes them follow g3n
// nodes).
type Cape struct {
	grid   *Grid
	s      CapeSettings
	w      *verlet3d.World
	parts  []verlet3d.Particle // every cape particle, row by row
	free   []verlet3d.Particle // particles not on the top edge
	top    []verlet3d.Particle // pinned top edge
	pins   []capePin           // per top particle
	local  []mgl32.Vec3        // bind-pose position in Reference's frame, per parts entry
	hang   []mgl32.Vec3        // bind-pose offset from the column's top particle, Reference's axes
	lagMax []float32           // MaxLag radius per parts entry, m (0: none)
	lagAt  []mgl32.Vec3        // this step's lag-limit centers
	// The last SetPose's, in the World's frame (verlet3d.World.Origin).
	ref    verlet3d.Pose      // Reference at the last SetPose
	anch   []verlet3d.Pose    // anchors at the last SetPose
	body   []verlet3d.Capsule // body at the last SetPose
	anchIn []verlet3d.Pose    // SetPose's anchors converted to the frame
	bodyIn []verlet3d.Capsule // SetPose's body converted to the frame
	out    Side               // the grid's side that faces away from the body
	tele   bool               // jump at the next SetPose
	jumps  int
	bad    int   // poses SetPose held
	badErr error // why it held the last one
	hooks  capeHooks
}

// capePin pins a top particle to the blend (1-wb)·a + wb·b of two anchors,
// each offset in its anchor's frame.
type capePin struct {
	a, b       int
	wb         float32
	offA, offB mgl32.Vec3
}

// NewCape builds a cape in w from s: a Grid hanging from the anchors,
// tilted back just enough to clear the body, its top row pinned to the
// anchors and tethered, and adds its lag-limit hook to w (Remove takes it
// out). Errors name the bad setting and leave w unchanged; a nil w panics.
func NewCape(w *verlet3d.World, s CapeSettings) (*Cape, error) {
	if w == nil {
		panic("cloth: NewCape: World is nil")
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
	given := s
	// Everything below is in the World's frame (verlet3d.World.Origin),
	// moved to the character first when nothing else is near it.
	w.Recenter(s.Reference.Position)
	s.Anchors = append([]verlet3d.Pose(nil), s.Anchors...)
	s.Body = append([]verlet3d.Capsule(nil), s.Body...)
	localPoses(w, s.Anchors, s.Anchors)
	localCapsules(w, s.Body, s.Body)
	s.Reference.Position = w.ToLocal(s.Reference.Position)
	s.Reference.Rotation = vecmath.Rotation(s.Reference.Rotation)
	pts := make([]mgl32.Vec3, len(s.Anchors))
	for i, a := range s.Anchors {
		pts[i] = a.Position
		s.Anchors[i].Rotation = vecmath.Rotation(a.Rotation)
	}
	back := vecmath.QuatRotate(s.Reference.Rotation, s.Back)
	back[1] = 0
	if vecmath.Len(back) < 1e-6 {
		return nil, fmt.Errorf("cloth: CapeSettings.Back = %v is vertical in the world, want a horizontal direction", s.Back)
	}
	back = vecmath.Normalize(back)
	across := pts[len(pts)-1].Sub(pts[0])
	lineLen := float32(0)
	for i := 1; i < len(pts); i++ {
		lineLen += vecmath.Len(pts[i].Sub(pts[i-1]))
	}
	if vecmath.Len(across) < 1e-4 {
		// One anchor (or all at one point): across is the character's side.
		across = vecmath.Cross(mgl32.Vec3{0, 1, 0}, back)
		lineLen = 0
	}
	across = vecmath.Normalize(across)
	width := s.Width
	if width == 0 {
		width = float32(1.6 * lineLen)
		if width < 0.1 {
			width = 0.5
		}
	}
	center := mgl32.Vec3{}
	for _, p := range pts {
		center = center.Add(p)
	}
	center = vecmath.Scale(center, 1/float32(len(pts)))
	// The size in floats first: anchors far apart give a width (and a
	// column count) no int holds, and the tilt search below visits
	// every particle.
	colsF := math.Round(float64(width/s.Spacing)) + 1
	rowsF := math.Round(float64(s.Length/s.Spacing)) + 1
	if colsF*rowsF > maxParticles {
		ws := fmt.Sprint(width)
		if s.Width == 0 {
			ws = fmt.Sprintf("0 (1.6 times the anchors' line: %v m)", width)
		}
		return nil, fmt.Errorf("cloth: CapeSettings.Width = %s, Length = %v and Spacing = %v make %.3g particles, want at most %d", ws, s.Length, s.Spacing, float64(colsF*rowsF), maxParticles)
	}
	cols, rows := int(colsF), int(rowsF)
	if cols < 2 || rows < 2 {
		return nil, fmt.Errorf("cloth: cape of %v x %v m with Spacing %v has fewer than 2 particles a side", width, s.Length, s.Spacing)
	}
	sp := width / float32(cols-1)
	origin := center.Sub(vecmath.Scale(across, float32(width/2))).Add(vecmath.Scale(back, s.Standoff))

	// Tilt the cape back from vertical just enough to clear the body.
	var down mgl32.Vec3
	for deg := 0.0; deg <= 80; deg += 2.5 {
		a := deg * math.Pi / 180
		down = mgl32.Vec3{0, -float32(math.Cos(a)), 0}.Add(vecmath.Scale(back, float32(math.Sin(a))))
		if clears(s.Body, origin, across, down, sp, cols, rows, s.Thickness+0.01) {
			break
		}
	}

	g, err := New(w, Settings{
		Cols: cols, Rows: rows, Spacing: sp,
		Origin: w.ToWorld(origin), Across: across, Down: down,
		Mass:       s.Mass,
		Radius:     s.Thickness,
		Structural: Spring{Compliance: 0},
		Shear:      Spring{Compliance: s.Shear},
		Bend:       Spring{Compliance: s.Bend},
		PinRows:    []int{0},
		Tethers:    true, TetherSlack: s.TetherSlack,
	})
	if err != nil {
		return nil, err
	}
	c := &Cape{grid: g, s: given, w: w, out: SideBack}
	if ga, gd := g.Axes(); vecmath.Dot(vecmath.Cross(gd, ga), back) > 0 {
		c.out = SideFront
	}
	c.s.Anchors = append([]verlet3d.Pose(nil), given.Anchors...)
	for i := range c.s.Anchors {
		c.s.Anchors[i].Rotation = s.Anchors[i].Rotation
	}
	c.s.Reference.Rotation = s.Reference.Rotation
	c.anch = append([]verlet3d.Pose(nil), s.Anchors...)
	c.anchIn = make([]verlet3d.Pose, len(s.Anchors))
	c.s.Body = append([]verlet3d.Capsule(nil), given.Body...)
	c.body = append([]verlet3d.Capsule(nil), s.Body...)
	c.bodyIn = make([]verlet3d.Capsule, len(s.Body))
	pos := w.Positions()
	// Pin the top edge: each particle to the two anchors of the segment of
	// the anchor line it is nearest to.
	for col := 0; col < cols; col++ {
		p := g.Particle(0, col)
		x := pos[p]
		i, t := nearestOnLine(pts, x.Sub(vecmath.Scale(back, s.Standoff)))
		pin := capePin{a: i, b: i, wb: t}
		pin.offA = vecmath.QuatRotate(vecmath.QuatInverse(s.Anchors[i].Rotation), x.Sub(pts[i]))
		if t > 0 {
			pin.b = i + 1
			pin.offB = vecmath.QuatRotate(vecmath.QuatInverse(s.Anchors[i+1].Rotation), x.Sub(pts[i+1]))
		} else {
			pin.wb = 0
		}
		c.pins = append(c.pins, pin)
		c.top = append(c.top, p)
		w.SetTargetLocal(p, x)
	}
	// Bind pose in the reference frame, for carrying, lag limits, resets.
	inv := vecmath.QuatInverse(s.Reference.Rotation)
	for r := 0; r < rows; r++ {
		for col := 0; col < cols; col++ {
			p := g.Particle(r, col)
			x := pos[p]
			c.parts = append(c.parts, p)
			c.local = append(c.local, vecmath.QuatRotate(inv, x.Sub(s.Reference.Position)))
			c.hang = append(c.hang, vecmath.QuatRotate(inv, x.Sub(pos[c.top[col]])))
			c.lagMax = append(c.lagMax, float32(s.MaxLag*float32(r)*sp))
			if r > 0 {
				c.free = append(c.free, p)
			}
		}
	}
	c.lagAt = make([]mgl32.Vec3, len(c.parts))
	c.ref = s.Reference
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
			x := origin.Add(vecmath.Scale(across, float32(float32(col)*sp))).Add(vecmath.Scale(down, float32(float32(r)*sp)))
			for i := range body {
				b := &body[i]
				if vecmath.Len(vecmath.ClosestOnSegment(b.A, b.B, x).Sub(x)) < b.Radius+margin {
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
		if l2 := vecmath.Dot(ab, ab); l2 > 1e-12 {
			t = vecmath.Dot(x.Sub(pts[i]), ab) / l2
		}
		t = float32(math.Max(0, math.Min(1, float64(t))))
		if d := vecmath.Len(pts[i].Add(vecmath.Scale(ab, t)).Sub(x)); d < best {
			best, bi, bt = d, i, t
		}
	}
	if bt == 1 && bi+2 < len(pts) {
		return bi + 1, 0
	}
	return bi, bt
}

// Grid returns the cape's cloth grid.
func (c *Cape) Grid() *Grid { return c.grid }

// Settings returns the settings the cape was built with (CarryLinear and
// CarryAngular as last set).
func (c *Cape) Settings() CapeSettings { return c.s }

// Outside returns the side of the cape's Grid that faces away from the
// body, as built (SideFront with the anchors ordered from the left
// shoulder to the right): pass it to SurfaceCollision.SetSide to keep
// long hair, or anything worn over the cape, on its outside.
func (c *Cape) Outside() Side { return c.out }

// Particles returns every particle of the cape, row by row (row 0 is the
// pinned top edge). The slice is shared: do not change it.
func (c *Cape) Particles() []verlet3d.Particle { return c.parts }

// NumTeleports returns the number of jumps SetPose made (detected or asked
// for with Teleport).
func (c *Cape) NumTeleports() int { return c.jumps }

// Teleport makes the next SetPose move the whole cape rigidly with the
// character, whatever the distance.
func (c *Cape) Teleport() { c.tele = true }

// SetCarry changes CarryLinear and CarryAngular (fractions in [0, 1]).
func (c *Cape) SetCarry(linear, angular float32) error {
	if !(linear >= 0 && linear <= 1 && angular >= 0 && angular <= 1) {
		return fmt.Errorf("cloth: Cape.SetCarry(%v, %v): want fractions in [0, 1]", linear, angular)
	}
	c.s.CarryLinear, c.s.CarryAngular = linear, angular
	return nil
}

// Remove takes the cape's hook (the lag limit) out of the World, and the
// grid's. Its particles stay.
func (c *Cape) Remove() {
	c.w.RemoveConstraintSet(c.hooks)
	c.grid.Remove()
}

// SetPose tells the cape where the character is for the end of the next
// step: reference is its root pose, anchors the poses of the anchors (as
// many as built, in the same order) and body its colliders (as many as
// built; nil keeps the last). It carries the cape by the configured
// fraction of the reference's motion since the last call (all of it for a
// teleport, when the reference moved farther than TeleportDistance or
// Teleport was called, and after a World.Reset), sets the top edge's
// kinematic targets and the lag-limit centers. It reports whether the cape
// jumped, so that the caller can snap its colliders instead of sweeping
// them across the gap. It does not allocate; wrong counts panic.
//
// A pose is data from an animation, and one bad frame (a NaN key, a bone
// scaled through zero, a bone thrown to 1e30 m) must not reach the
// particles: when a position (reference, anchor or body end) has a
// coordinate that is not finite or beyond ±verlet3d.MaxCoordinate, a
// rotation has a non-finite component, or a body radius is not in
// (0, MaxCoordinate], SetPose changes nothing: the cape holds the last good
// pose, NumBadPoses counts the call and BadPose tells what was wrong. The
// next good pose goes on from the last good one (a pending Teleport
// included).
func (c *Cape) SetPose(reference verlet3d.Pose, anchors []verlet3d.Pose, body []verlet3d.Capsule) (jumped bool) {
	if len(anchors) != len(c.s.Anchors) {
		panic(fmt.Sprintf("cloth: Cape.SetPose: %d anchors, want %d", len(anchors), len(c.s.Anchors)))
	}
	if body != nil && len(body) != len(c.body) {
		panic(fmt.Sprintf("cloth: Cape.SetPose: %d body parts, want %d", len(body), len(c.body)))
	}
	if err := checkPose(reference, anchors, body); err != nil {
		c.bad++
		c.badErr = err
		return false
	}
	// The pose in the World's frame (verlet3d.World.Origin).
	reference.Position = c.w.ToLocal(reference.Position)
	anchors = localPoses(c.w, c.anchIn, anchors)
	if body != nil {
		body = localCapsules(c.w, c.bodyIn, body)
	}
	rot := vecmath.Rotation(reference.Rotation)
	move := reference.Position.Sub(c.ref.Position)
	dq := vecmath.QuatMul(rot, vecmath.QuatInverse(c.ref.Rotation))
	switch {
	case !c.w.Pinned(c.top[0]):
		// World.Reset sends the particles home and frees the kinematic top
		// edge: put the cape back on the character rigidly.
		c.place(verlet3d.Pose{Position: reference.Position, Rotation: rot})
		jumped = true
	case c.tele || vecmath.Len(move) > c.s.TeleportDistance:
		c.carry(move, dq, 1, 1, c.parts)
		c.jumps++
		jumped = true
	case c.s.CarryLinear > 0 || c.s.CarryAngular > 0:
		c.carry(move, dq, c.s.CarryLinear, c.s.CarryAngular, c.free)
	}
	c.tele = false
	for i := range c.pins {
		c.w.SetTargetLocal(c.top[i], c.pinTarget(&c.pins[i], anchors))
	}
	copy(c.anch, anchors)
	if body != nil {
		copy(c.body, body)
	}
	c.ref = verlet3d.Pose{Position: reference.Position, Rotation: rot}
	c.updateLag()
	return jumped
}

// NumBadPoses returns how many SetPose calls were refused (their pose
// held) for a position, rotation or radius out of range.
func (c *Cape) NumBadPoses() int { return c.bad }

// BadPose returns why SetPose last refused a pose, naming the call and the
// field ("cloth: Cape.SetPose: anchors[1].Position = ..."), or nil when it
// never has.
func (c *Cape) BadPose() error { return c.badErr }

// checkPose reports the first value of a SetPose call out of range.
func checkPose(reference verlet3d.Pose, anchors []verlet3d.Pose, body []verlet3d.Capsule) error {
	if err := checkPosePart(reference, "reference", -1); err != nil {
		return err
	}
	for i, a := range anchors {
		if err := checkPosePart(a, "anchors", i); err != nil {
			return err
		}
	}
	for i := range body {
		b := &body[i]
		switch {
		case !inWorld(b.A):
			return fmt.Errorf("cloth: Cape.SetPose: body[%d].A = %v, want finite meters within ±%g (verlet3d.MaxCoordinate); the last good pose is held", i, b.A, float32(verlet3d.MaxCoordinate))
		case !inWorld(b.B):
			return fmt.Errorf("cloth: Cape.SetPose: body[%d].B = %v, want finite meters within ±%g (verlet3d.MaxCoordinate); the last good pose is held", i, b.B, float32(verlet3d.MaxCoordinate))
		case !(b.Radius > 0 && b.Radius <= verlet3d.MaxCoordinate):
			return fmt.Errorf("cloth: Cape.SetPose: body[%d].Radius = %v, want meters in (0, %g]; the last good pose is held", i, b.Radius, float32(verlet3d.MaxCoordinate))
		}
	}
	return nil
}

// checkPosePart checks one pose of a SetPose call: what, or what[i] when
// i >= 0.
func checkPosePart(p verlet3d.Pose, what string, i int) error {
	if inWorld(p.Position) && vecmath.FiniteQuat(p.Rotation) {
		return nil
	}
	if i >= 0 {
		what = fmt.Sprintf("%s[%d]", what, i)
	}
	if !inWorld(p.Position) {
		return fmt.Errorf("cloth: Cape.SetPose: %s.Position = %v, want finite meters within ±%g (verlet3d.MaxCoordinate); the last good pose is held", what, p.Position, float32(verlet3d.MaxCoordinate))
	}
	return fmt.Errorf("cloth: Cape.SetPose: %s.Rotation = %v, want a finite quaternion; the last good pose is held", what, p.Rotation)
}

// inWorld reports whether every coordinate of x is finite and within
// ±verlet3d.MaxCoordinate.
func inWorld(x mgl32.Vec3) bool {
	const m = verlet3d.MaxCoordinate
	return x[0] >= -m && x[0] <= m && x[1] >= -m && x[1] <= m && x[2] >= -m && x[2] <= m
}

func (c *Cape) pinTarget(p *capePin, anchors []verlet3d.Pose) mgl32.Vec3 {
	a := anchors[p.a]
	t := a.Position.Add(vecmath.QuatRotate(vecmath.OrIdentity(a.Rotation), p.offA))
	if p.wb > 0 {
		b := anchors[p.b]
		t = vecmath.Scale(t, 1-p.wb).Add(vecmath.Scale(b.Position.Add(vecmath.QuatRotate(vecmath.OrIdentity(b.Rotation), p.offB)), p.wb))
	}
	return t
}

// PinError returns the largest distance in meters between a top-edge
// particle and its target from the anchors of the last SetPose.
func (c *Cape) PinError() float32 {
	var worst float32
	for i := range c.pins {
		if d := vecmath.Len(c.w.Positions()[c.top[i]].Sub(c.pinTarget(&c.pins[i], c.anch))); d > worst {
			worst = d
		}
	}
	return worst
}

// carry moves ps (positions and previous positions alike, so velocities
// turn with them) by fraction kl of the translation move and fraction ka of
// the rotation dq about the reference's old position.
func (c *Cape) carry(move mgl32.Vec3, dq mgl32.Quat, kl, ka float32, ps []verlet3d.Particle) {
	if dq.W < 0 {
		dq = vecmath.QuatScale(dq, -1)
	}
	q := vecmath.QuatSlerp(mgl32.QuatIdent(), dq, ka)
	shift := vecmath.Scale(move, kl)
	o := c.ref.Position
	if shift != (mgl32.Vec3{}) || q != mgl32.QuatIdent() {
		c.w.Wake()
	}
	pos, prev := c.w.Positions(), c.w.PrevPositions()
	for _, p := range ps {
		pos[p] = o.Add(shift).Add(vecmath.QuatRotate(q, pos[p].Sub(o)))
		prev[p] = o.Add(shift).Add(vecmath.QuatRotate(q, prev[p].Sub(o)))
	}
}

// place puts every particle at its bind-pose place in the frame ref, at
// rest.
func (c *Cape) place(ref verlet3d.Pose) {
	c.w.Wake()
	pos, prev := c.w.Positions(), c.w.PrevPositions()
	for i, p := range c.parts {
		x := ref.Position.Add(vecmath.QuatRotate(ref.Rotation, c.local[i]))
		pos[p], prev[p] = x, x
	}
}

// updateLag puts each lag-limit center where the particle hangs as built
// below its column's top particle, turned with the character: the limit is
// relative to the pinned neighbors, so a torso that leans or twists
// relative to Reference does not fight it.
func (c *Cape) updateLag() {
	if c.s.MaxLag == 0 {
		return
	}
	cols := len(c.top)
	for i := range c.parts {
		top := c.w.TargetLocal(c.top[i%cols])
		c.lagAt[i] = top.Add(vecmath.QuatRotate(c.ref.Rotation, c.hang[i]))
	}
}

// LagExcess returns how far in meters the particle farthest outside its
// lag limit lies beyond it (0 when all are inside or MaxLag is 0).
func (c *Cape) LagExcess() float32 {
	var worst float32
	pos := c.w.Positions()
	for i, p := range c.parts {
		if c.lagMax[i] == 0 {
			continue
		}
		if over := vecmath.Len(pos[p].Sub(c.lagAt[i])) - c.lagMax[i]; over > worst {
			worst = over
		}
	}
	return worst
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

// limitLag pulls every particle back inside the sphere around its lag
// center. It runs every iteration, so it stays lean: the top row (radius
// 0) is skipped and the test is one squared distance per particle.
func (c *Cape) limitLag(w *verlet3d.World) {
	pos, inv := w.Positions(), w.InvMasses()
	cols := len(c.top)
	parts, at, lim := c.parts[cols:], c.lagAt[cols:], c.lagMax[cols:]
	at, lim = at[:len(parts)], lim[:len(parts)]
	for i, p := range parts {
		x, a, r := &pos[p], at[i], lim[i]
		dx, dy, dz := x[0]-a[0], x[1]-a[1], x[2]-a[2]
		l2 := float32(dx*dx) + float32(dy*dy) + float32(dz*dz)
		if l2 <= r*r || r == 0 || inv[p] == 0 {
			continue
		}
		k := r / float32(math.Sqrt(float64(l2)))
		*x = mgl32.Vec3{a[0] + float32(dx*k), a[1] + float32(dy*k), a[2] + float32(dz*k)}
	}
}

// Penetration returns the deepest a free cape particle lies inside a body
// part of the last SetPose, in meters (0 when none is inside). It measures
// against the parts' surfaces, not the particles' thickness.
func (c *Cape) Penetration() float32 {
	var worst float32
	pos := c.w.Positions()
	for _, p := range c.free {
		x := pos[p]
		for i := range c.body {
			k := &c.body[i]
			if d := k.Radius - vecmath.Len(vecmath.ClosestOnSegment(k.A, k.B, x).Sub(x)); d > worst {
				worst = d
			}
		}
	}
	return worst
}

// ShiftOrigin keeps the cape's last poses in the World's frame when the
// World moves it (verlet3d.World.Origin), so the next SetPose is not taken
// for a jump.
func (k capeHooks) ShiftOrigin(offset mgl32.Vec3) {
	c := k.c
	c.ref.Position = c.ref.Position.Sub(offset)
	for i := range c.anch {
		c.anch[i].Position = c.anch[i].Position.Sub(offset)
	}
	for i := range c.body {
		c.body[i].A = c.body[i].A.Sub(offset)
		c.body[i].B = c.body[i].B.Sub(offset)
	}
	for i := range c.lagAt {
		c.lagAt[i] = c.lagAt[i].Sub(offset)
	}
}

// localPoses writes poses converted to w's frame into dst and returns it.
func localPoses(w *verlet3d.World, dst, poses []verlet3d.Pose) []verlet3d.Pose {
	for i, p := range poses {
		dst[i] = verlet3d.Pose{Position: w.ToLocal(p.Position), Rotation: p.Rotation}
	}
	return dst
}

// localCapsules writes capsules converted to w's frame into dst and
// returns it.
func localCapsules(w *verlet3d.World, dst, body []verlet3d.Capsule) []verlet3d.Capsule {
	for i, b := range body {
		dst[i] = verlet3d.Capsule{A: w.ToLocal(b.A), B: w.ToLocal(b.B), Radius: b.Radius}
	}
	return dst
}
