package scene

import (
	"fmt"

	"github.com/drape3d/drape/hair"
	"github.com/drape3d/drape/internal/errctx"
	"github.com/drape3d/drape/internal/vecmath"
	"github.com/g3n/engine/core"
	"github.com/go-gl/mathgl/mgl32"
)

// HeadFollower keeps a Hair's head on a g3n node, such as a glTF
// character's Head bone: every step it reads the node's world pose the way
// a cape reads its anchors (position and a unit-scale rotation, whatever
// the armature's scale) and calls Hair.SetHead, so the roots follow the
// bone exactly. A jump farther than the hair's TeleportDistance in one
// step moves the strands with it (the hair's own rule); call Teleport for
// a respawn.
type HeadFollower struct {
	h    *hair.Hair
	node *core.Node
	// offset is the head sphere's center from the node's origin in meters,
	// along the node's axes (not scaled with it).
	offset mgl32.Vec3
	// turn takes the node's axes to the head's frame (+Y crown, +Z face).
	turn   mgl32.Quat
	bad    int   // Sync calls that held the head
	badErr error // why the last one did
}

// FollowHead makes a HeadFollower that puts h's head offset meters from
// node's origin (along the node's axes, whatever its scale), turned by turn
// from the node's axes to the head's frame (+Y to the crown, +Z out of the
// face; the identity, or the zero quaternion, when the bone's axes already
// are so: rotations follow verlet3d's rule). It moves the
// head there now, with the strands (Teleport). A nil h or node panics;
// non-finite values return an error.
func FollowHead(h *hair.Hair, node *core.Node, offset mgl32.Vec3, turn mgl32.Quat) (*HeadFollower, error) {
	if h == nil || node == nil {
		panic("scene: FollowHead: nil Hair or node")
	}
	if !vecmath.Finite(offset) {
		return nil, fmt.Errorf("scene: FollowHead: offset = %v, want finite meters", offset)
	}
	if !vecmath.FiniteQuat(turn) {
		return nil, fmt.Errorf("scene: FollowHead: turn = %v, want a finite quaternion", turn)
	}
	f := &HeadFollower{h: h, node: node, offset: offset, turn: vecmath.Rotation(turn)}
	c, q := f.Pose()
	if err := h.Teleport(c, q); err != nil {
		return nil, errctx.Wrap("scene", "FollowHead", err)
	}
	return f, nil
}

// Pose returns where the head is now by the node's world matrix: the head
// center in meters and its rotation.
func (f *HeadFollower) Pose() (center mgl32.Vec3, rotation mgl32.Quat) {
	pos, rot, _ := NodePose(f.node)
	return pos.Add(vecmath.QuatRotate(rot, f.offset)), vecmath.QuatNormalize(vecmath.QuatMul(rot, f.turn))
}

// Sync reads the node and moves the head there over the next step. Call it
// after the animation and UpdateMatrixWorld, before the World steps
// (Attach does this on a Driver).
//
// A node's pose is data from an animation: when it is no pose (an origin
// that is not finite or beyond verlet3d.MaxCoordinate, axes that are not
// finite or collapsed by a scale through zero) or Hair.SetHead refuses it
// (a head farther than hair.MaxHeadDistance from the origin), the head
// holds its last good pose; NumBadPoses counts such calls and BadPose
// tells the last one's fault.
func (f *HeadFollower) Sync() {
	m := mgl32.Mat4(f.node.MatrixWorld())
	if fault := badFrame(&m); fault != "" {
		f.held(fmt.Errorf("scene: HeadFollower.Sync: node %q: %s; the last good pose is held", f.node.Name(), fault))
		return
	}
	c, q := f.Pose()
	if err := f.h.SetHead(c, q); err != nil {
		f.held(errctx.Wrap("scene", fmt.Sprintf("HeadFollower.Sync: node %q", f.node.Name()), err))
	}
}

func (f *HeadFollower) held(err error) {
	f.bad++
	f.badErr = err
}

// NumBadPoses returns how many Sync calls held the head's last good pose.
func (f *HeadFollower) NumBadPoses() int { return f.bad }

// BadPose returns why Sync last held the head's pose, naming the node, or
// nil when it never has.
func (f *HeadFollower) BadPose() error { return f.badErr }

// Teleport moves the head and its strands to the node's pose at once.
func (f *HeadFollower) Teleport() error {
	c, q := f.Pose()
	return f.h.Teleport(c, q)
}

// Attach syncs the follower before every step of d.
func (f *HeadFollower) Attach(d *Driver) { d.BeforeStep(f.Sync) }
