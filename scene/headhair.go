package scene

import (
	"fmt"

	"github.com/drape3d/drape/hair"
	"github.com/drape3d/drape/internal/errctx"
	"github.com/drape3d/drape/internal/vecmath"
	"github.com/drape3d/drape/verlet3d"
	"github.com/g3n/engine/core"
	"github.com/go-gl/mathgl/mgl32"
)

// HeadSphere is the sphere hair grows on (or around, when
// hair.Settings.Scalp puts the roots on a head mesh outside it), carried
// by a head bone: its
// center sits Offset meters from the bone's origin along the bone's axes
// (whatever the bone's scale), and Turn takes the bone's axes to the
// head's frame of package hair (+Y to the crown, +Z out of the face; the
// zero Turn is the identity, by verlet3d's rule for rotations).
type HeadSphere struct {
	Bone   *core.Node
	Offset mgl32.Vec3 // m, along Bone's axes
	Turn   mgl32.Quat // Bone's axes to the head's frame
	Radius float32    // m
}

// Head returns the sphere where the bone is now (update the world matrices
// first), as package hair takes it.
func (s HeadSphere) Head() hair.Head {
	pos, rot, _ := NodePose(s.Bone)
	return hair.Head{Center: pos.Add(vecmath.QuatRotate(rot, s.Offset)), Rotation: vecmath.QuatNormalize(vecmath.QuatMul(rot, vecmath.OrIdentity(s.Turn))), Radius: s.Radius}
}

// HairSettings are hair fitted to a character's head: where the head
// sphere is on its bone, and the hair's style scaled to it. Change any
// field before NewHeadHair.
type HairSettings struct {
	Head HeadSphere
	// Hair is hair.DefaultSettings with the sizes (Length, Volume and the
	// particles' Radius) scaled by the head's size / 0.1 m, the default
	// head's radius: the default style on this head (character.HairSettings
	// sizes it by the sphere that encloses the head mesh, and sets Scalp to
	// the mesh, so the roots sit on it). Length is at most the drop
	// from the sphere's center to the neck (the head bone's parent node),
	// so that hair hanging from the sides of the head ends at the neck, as
	// the default style does on a human head: on a big or boxy head the
	// scaled length alone would bury the character (RobotExpressive's 2.6 m wide head: 3.4 m of hair over
	// a body whose neck is 0.9 m below the head's center). A sphere that
	// encloses the neck (the robot's, again) stops no other particle
	// (HeadMask 0): it would push a cape pinned at the neck and shoulders
	// off its pins; the hair still stays out of it.
	Hair hair.Settings
}

// HeadHair is hair on a character's head bone: the hair.Hair and the
// HeadFollower that keeps its head sphere on the bone.
type HeadHair struct {
	*hair.Hair
	Follower *HeadFollower
}

// NewHeadHair grows hair in w with s.Hair on the head sphere s.Head, where
// the bone is now (update the world matrices first), and makes it follow
// the bone. Errors name the bad setting and leave w as it was. A nil w or
// s.Head.Bone panics.
//
//	hs, err := ch.HairSettings(character.HairFit{}) // or fill in HeadSphere yourself
//	hs.Hair.Strands = 800 // change anything before
//	h, err := scene.NewHeadHair(world, hs)
//	h.Attach(driver)
//	mesh := scene.NewHairMesh(h.Hair, hair.DefaultPalette())
func NewHeadHair(w *verlet3d.World, s HairSettings) (*HeadHair, error) {
	if w == nil {
		panic("scene: NewHeadHair: World is nil")
	}
	if s.Head.Bone == nil {
		panic("scene: NewHeadHair: HairSettings.Head.Bone is nil")
	}
	if !vecmath.Finite(s.Head.Offset) {
		return nil, fmt.Errorf("scene: HairSettings.Head.Offset = %v, want finite meters", s.Head.Offset)
	}
	if t := s.Head.Turn; !vecmath.FiniteQuat(t) {
		return nil, fmt.Errorf("scene: HairSettings.Head.Turn = %v, want a finite quaternion", t)
	}
	var hh *HeadHair
	err := w.Atomically(func() error {
		hd := s.Head.Head()
		h, err := hair.New(w, hd, s.Hair)
		if err != nil {
			// Name the fields as the caller wrote them.
			if e := errctx.Rename(err, "hair: Settings.", "scene: HairSettings.Hair."); e != err {
				return e
			}
			if e := errctx.Rename(err, "hair: Head.Radius", "scene: HairSettings.Head.Radius"); e != err {
				return e
			}
			return errctx.Wrap("scene", "NewHeadHair", err)
		}
		f, err := FollowHead(h, s.Head.Bone, s.Head.Offset, s.Head.Turn)
		if err != nil {
			h.Remove()
			return err
		}
		hh = &HeadHair{Hair: h, Follower: f}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return hh, nil
}

// Attach moves the head with its bone before every step of d.
func (h *HeadHair) Attach(d *Driver) { h.Follower.Attach(d) }
