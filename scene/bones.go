package scene

import (
	"fmt"
	"math"
	"strings"
	"unicode"

	"github.com/drape3d/drape/internal/vecmath"
	"github.com/drape3d/drape/verlet3d"
	"github.com/g3n/engine/core"
	"github.com/g3n/engine/math32"
	"github.com/go-gl/mathgl/mgl32"
)

// BoneKey reduces a bone name, which differs between tools, to the side it
// is on ('L', 'R' or 0) and a lower-case base without namespace, separators
// or side marks, so these all give ('L', "shoulder"):
//
//	LeftShoulder  ShoulderL  shoulder.L  shoulder_l  L_Shoulder
//	mixamorig:LeftShoulder  mixamorig_LeftShoulder  Bip01 L Shoulder
//
// and Neck, neck and mixamorig:Neck give (0, "neck"). Numbers stay: Spine1
// is not Spine.
func BoneKey(name string) (side byte, base string) {
	n := name
	if i := strings.LastIndexByte(n, ':'); i >= 0 {
		n = n[i+1:]
	}
	if low := strings.ToLower(n); strings.HasPrefix(low, "mixamorig") {
		n = strings.TrimLeft(n[len("mixamorig"):], "_.- ")
	}
	// Tokens split at separators and at lower-to-upper case changes.
	var tokens []string
	var cur []rune
	rs := []rune(n)
	flush := func() {
		if len(cur) > 0 {
			tokens = append(tokens, string(cur))
			cur = cur[:0]
		}
	}
	for i, r := range rs {
		switch {
		case r == '_' || r == '.' || r == '-' || r == ' ' || r == '|':
			flush()
			continue
		case unicode.IsUpper(r) && i > 0 && (unicode.IsLower(rs[i-1]) || unicode.IsDigit(rs[i-1])):
			flush()
		}
		cur = append(cur, r)
	}
	flush()
	var keep []string
	for i, t := range tokens {
		low := strings.ToLower(t)
		switch {
		case side == 0 && (low == "left" || low == "l" || (low == "lf" && i == 0)):
			side = 'L'
		case side == 0 && (low == "right" || low == "r" || (low == "rt" && i == 0)):
			side = 'R'
		default:
			keep = append(keep, low)
		}
	}
	return side, strings.Join(keep, "")
}

// NodePose returns n's world position, its world rotation with the scale
// taken out (a unit quaternion), and its largest world scale factor. Use it
// to hand a bone's pose to physics in meters whatever the armature's scale.
// It reads the world matrix as it is: update it first.
func NodePose(n *core.Node) (pos mgl32.Vec3, rot mgl32.Quat, scale float32) {
	m := mgl32.Mat4(n.MatrixWorld())
	pos = m.Col(3).Vec3()
	var r mgl32.Mat3
	for i := 0; i < 3; i++ {
		c := m.Col(i).Vec3()
		l := vecmath.Len(c)
		scale = max(scale, l)
		if l > 1e-12 {
			c = vecmath.Scale(c, 1/l)
		}
		r.SetCol(i, c)
	}
	// A mirrored frame (negative determinant) flips one axis back.
	if r.Det() < 0 {
		r.SetCol(2, vecmath.Scale(r.Col(2), -1))
	}
	rot = vecmath.QuatNormalize(vecmath.Mat4ToQuat(r.Mat4()))
	return pos, rot, scale
}

// inWorld reports whether every coordinate of x is finite and within
// ±verlet3d.MaxCoordinate.
func inWorld(x mgl32.Vec3) bool {
	const m = verlet3d.MaxCoordinate
	return x[0] >= -m && x[0] <= m && x[1] >= -m && x[1] <= m && x[2] >= -m && x[2] <= m
}

// badFrame reports what is wrong with the world pose of a node whose world
// matrix is m, as a pose handed to the physics ("" when nothing is): its
// origin must be finite and within ±verlet3d.MaxCoordinate, its axes finite
// and none collapsed (a bone scaled through zero has no rotation to read).
func badFrame(m *mgl32.Mat4) string {
	if !inWorld(m.Col(3).Vec3()) {
		return fmt.Sprintf("origin %v, want finite meters within ±%g (verlet3d.MaxCoordinate)", m.Col(3).Vec3(), float32(verlet3d.MaxCoordinate))
	}
	for i := 0; i < 3; i++ {
		c := m.Col(i).Vec3()
		if l := vecmath.Len(c); !(l > 1e-12) || math.IsInf(float64(l), 0) {
			return fmt.Sprintf("axis %d = %v, want a finite axis, not collapsed (a bone scaled through zero)", i, c)
		}
	}
	return ""
}

// Mount is a node that follows a bone's world position and rotation with a
// world scale of 1, so that what is attached to it (a collider, an anchor
// offset, a hair root) is measured in meters whatever the armature's scale:
// Mixamo's centimeter bones under a 0.01 node and RobotExpressive's large
// bone scale alike. Call Update after the bone's world matrix is updated.
type Mount struct {
	// Node is the unit-scale node to attach things to.
	Node *core.Node
	bone *core.Node // gives the position
	axes *core.Node // gives the rotation (bone itself for NewMount)
	turn mgl32.Quat // fixed rotation after the axes'
	// level keeps only the heading (rotation about world +Y) of the
	// mount's +Z axis: a character's frame that does not pitch or roll
	// with the hips.
	level bool
	yaw   float64
	// The pose Update last took, and the calls it refused.
	good    mgl32.Mat4
	hasGood bool
	bad     int
	badErr  error
}

// NewMount makes a Mount following bone, added as a child of parent (the
// character's root: a parent with a uniform scale is compensated). turn
// is a fixed rotation applied after the bone's own (the identity, or the
// zero quaternion, keeps the bone's axes: rotations follow verlet3d's
// rule).
func NewMount(parent, bone *core.Node, turn mgl32.Quat) *Mount {
	return NewMountAxes(parent, bone, bone, turn)
}

// NewMountAxes is NewMount with the position from bone and the rotation
// from axes: a shoulder's position with the chest's axes, so that an offset
// behind the shoulder stays behind the back when the arm swings.
func NewMountAxes(parent, bone, axes *core.Node, turn mgl32.Quat) *Mount {
	m := &Mount{Node: core.NewNode(), bone: bone, axes: axes, turn: vecmath.Rotation(turn)}
	m.Node.SetName(bone.Name() + " (mount)")
	parent.Add(m.Node)
	m.Update()
	return m
}

// SetLevel makes the mount keep only the heading of its +Z axis (its turn
// about world +Y), or its whole rotation again: a character's frame that
// does not pitch or roll with the hips as they do in a run.
func (m *Mount) SetLevel(level bool) {
	m.level = level
	m.Update()
}

// Bone returns the followed bone.
func (m *Mount) Bone() *core.Node { return m.bone }

// Update moves the mount to the bone's current world pose (position and
// rotation, scale 1) and updates its world matrix. A bone (or axes node)
// whose pose is no pose (an origin that is not finite or beyond
// verlet3d.MaxCoordinate, axes that are not finite or collapsed: one bad
// animation frame) leaves the mount at its last good pose; NumBadPoses
// counts such calls and BadPose tells the last one's fault.
func (m *Mount) Update() {
	if err := m.check(); err != nil {
		m.bad++
		m.badErr = err
		if m.hasGood {
			lm := math32.Matrix4(m.good)
			m.Node.SetMatrix(&lm)
		}
		m.Node.UpdateMatrixWorld()
		return
	}
	pos, rot := m.pose()
	world := mgl32.Translate3D(pos[0], pos[1], pos[2]).Mul4(vecmath.QuatMat4(rot))
	local := world
	if p := m.Node.Parent(); p != nil {
		pm := mgl32.Mat4(p.GetNode().MatrixWorld())
		if math.Abs(float64(pm.Det())) > 1e-30 {
			local = pm.Inv().Mul4(world)
		}
	}
	lm := math32.Matrix4(local)
	m.Node.SetMatrix(&lm)
	m.Node.UpdateMatrixWorld()
	m.good, m.hasGood = local, true
}

// check reports a bone or axes node whose pose Update cannot take.
func (m *Mount) check() error {
	b := mgl32.Mat4(m.bone.MatrixWorld())
	if f := badFrame(&b); f != "" {
		return fmt.Errorf("scene: Mount.Update: bone %q: %s; the last good pose is held", m.bone.Name(), f)
	}
	if m.axes != m.bone {
		a := mgl32.Mat4(m.axes.MatrixWorld())
		if f := badFrame(&a); f != "" {
			return fmt.Errorf("scene: Mount.Update: axes node %q: %s; the last good pose is held", m.axes.Name(), f)
		}
	}
	return nil
}

// NumBadPoses returns how many Update calls found no pose in the bone and
// held the mount's last good one.
func (m *Mount) NumBadPoses() int { return m.bad }

// BadPose returns why Update last held the mount's pose, naming the node
// and what was wrong, or nil when it never has.
func (m *Mount) BadPose() error { return m.badErr }

// Local returns the world point p in the mount's frame, in meters.
func (m *Mount) Local(p mgl32.Vec3) math32.Vector3 {
	pos, rot := m.pose()
	v := vecmath.QuatRotate(vecmath.QuatInverse(rot), p.Sub(pos))
	return math32.Vector3{X: v[0], Y: v[1], Z: v[2]}
}

func (m *Mount) pose() (mgl32.Vec3, mgl32.Quat) {
	pos, rot, _ := NodePose(m.bone)
	if m.axes != m.bone {
		_, rot, _ = NodePose(m.axes)
	}
	rot = vecmath.QuatMul(rot, m.turn)
	if m.level {
		f := vecmath.QuatRotate(rot, mgl32.Vec3{0, 0, 1})
		if float32(f[0]*f[0])+float32(f[2]*f[2]) > 1e-6 {
			m.yaw = math.Atan2(float64(f[0]), float64(f[2]))
		}
		rot = vecmath.QuatAxisAngle(float32(m.yaw), mgl32.Vec3{0, 1, 0})
	}
	return pos, rot
}
