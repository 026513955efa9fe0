package scene

import (
	"fmt"
	"math"
	"slices"

	"github.com/drape3d/drape/hair"
	"github.com/drape3d/drape/internal/bridge"
	"github.com/drape3d/drape/internal/errctx"
	"github.com/drape3d/drape/internal/vecmath"
	"github.com/drape3d/drape/verlet3d"
	"github.com/g3n/engine/core"
	"github.com/g3n/engine/gls"
	"github.com/g3n/engine/graphic"
	"github.com/g3n/engine/math32"
	"github.com/go-gl/mathgl/mgl32"
)

// HeadSphere is the sphere hair grows on, carried by a head bone: its
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
	return hair.Head{Center: pos.Add(rot.Rotate(s.Offset)), Rotation: rot.Mul(vecmath.OrIdentity(s.Turn)).Normalize(), Radius: s.Radius}
}

// HairFit chooses what HairSettings derives; the zero value derives
// everything.
type HairFit struct {
	// Bone is the head bone, by the naming rules of BoneKey. Default
	// "Head" (Head, head, mixamorig:Head, Head_1, ...).
	Bone string
}

// HairSettings are hair fitted to a character's head: where the head
// sphere is on its bone, and the hair's style scaled to it. Change any
// field before NewHeadHair.
type HairSettings struct {
	Head HeadSphere
	// Hair is hair.DefaultSettings with the sizes (Length, Volume and the
	// particles' Radius) scaled by Head.Radius / 0.1 m, the default head's
	// radius: the default style on this head. Length is at most the drop
	// from the sphere's center to the neck (the head bone's parent node),
	// so that hair hanging from the sides of the head ends at the neck, as
	// the default style does on a human head: on a big or boxy head (the
	// sphere encloses a box's corners) the scaled length alone would bury
	// the character (RobotExpressive's 2.6 m wide head: 3.4 m of hair over
	// a body whose neck is 0.9 m below the head's center). A sphere that
	// encloses the neck (the robot's, again) stops no other particle
	// (HeadMask 0): it would push a cape pinned at the neck and shoulders
	// off its pins; the hair still stays out of it.
	Hair hair.Settings
}

// HeadSphere returns the sphere fitted to the character's head (see
// HairSettings): its center and radius in meters, whatever the armature's
// scale.
func (c *Character) HeadSphere() (HeadSphere, error) {
	s, err := c.HairSettings(HairFit{})
	return s.Head, err
}

// HairSettings returns hair settings fitted to the character as it stands
// now (in the first frame of its clip; Update first to choose another).
//
// The head sphere is fitted to the head's mesh in meters, whatever the
// armature's scale: the vertices of the meshes carried by the head bone or
// its children (a robot's rigid head) and the skinned vertices weighted at
// least half to them, in bind pose relative to the head bone (so an open
// jaw in the first frame does not count). The center is the middle of
// their bounding box in the character's upright frame and the radius the
// farthest of them from it: the sphere encloses the head, so the roots sit
// on or just above its surface, never hidden inside (on a human head the
// sphere is a little larger than the skull; set Head.Radius and
// Head.Offset to taste). With no such vertices the head is the human
// proportion: a radius of 6.5% of the bone's height above the feet,
// centered one radius above the bone.
//
// The head's frame is the character's own as it stands now: +Y up, +Z to
// the character's front (the Root's +Z).
func (c *Character) HairSettings(fit HairFit) (HairSettings, error) {
	c.Update(0)
	name := fit.Bone
	if name == "" {
		name = "Head"
	}
	var out HairSettings
	bone, err := c.Bone(name)
	if err != nil {
		return out, errctx.Wrap("scene", "HairFit.Bone", err)
	}
	pos, rot, _ := NodePose(bone)
	_, rr, _ := NodePose(c.Root)
	turn := rot.Inverse().Mul(rr).Normalize()
	head := rot.Mul(turn) // the head's frame in the world
	inv := head.Inverse()
	lo := mgl32.Vec3{float32(math.Inf(1)), float32(math.Inf(1)), float32(math.Inf(1))}
	hi := lo.Mul(-1)
	var pts []mgl32.Vec3
	c.headPoints(bone, func(w mgl32.Vec3) {
		if !vecmath.Finite(w) {
			return
		}
		p := inv.Rotate(w.Sub(pos))
		pts = append(pts, p)
		for i := range p {
			lo[i], hi[i] = min(lo[i], p[i]), max(hi[i], p[i])
		}
	})
	var center mgl32.Vec3
	var radius float32
	if len(pts) > 0 {
		center = lo.Add(hi).Mul(0.5)
		for _, p := range pts {
			radius = max(radius, p.Sub(center).Len())
		}
	}
	if radius < 1e-3 {
		// No head mesh (or a point): a human's proportion.
		low := pos[1]
		for _, n := range c.Model.Nodes {
			if n != nil && c.Model.joints[n] {
				p, _, _ := NodePose(n)
				low = min(low, p[1])
			}
		}
		if r, _, _ := NodePose(c.Root); r[1] < low {
			low = r[1]
		}
		radius = max(0.065*(pos[1]-low), 0.01)
		center = mgl32.Vec3{0, radius, 0}
	}
	out.Head = HeadSphere{Bone: bone, Offset: turn.Rotate(center), Turn: turn, Radius: radius}
	out.Hair = hair.DefaultSettings()
	k := radius / hair.DefaultHead().Radius
	out.Hair.Length *= k
	out.Hair.Volume *= k
	out.Hair.Radius *= k
	if neck, ok := c.neck(bone); ok {
		h := out.Head.Head()
		_, rr, _ := NodePose(c.Root)
		drop := h.Center.Sub(neck).Dot(rr.Rotate(mgl32.Vec3{0, 1, 0}))
		if drop > 0 && drop < out.Hair.Length {
			out.Hair.Length = drop
		}
		if neck.Sub(h.Center).Len() < h.Radius {
			out.Hair.HeadMask = 0
		}
	}
	return out, nil
}

// neck returns where the head bone's parent is, if it is a node of the
// file.
func (c *Character) neck(bone *core.Node) (mgl32.Vec3, bool) {
	p := bone.Parent()
	if p == nil || !slices.Contains(c.Model.Nodes, p.GetNode()) {
		return mgl32.Vec3{}, false
	}
	at, _, _ := NodePose(p.GetNode())
	return at, vecmath.Finite(at)
}

// headPoints calls f with the world position of every vertex that the
// head bone carries (see HairSettings): vertices of meshes under head that
// are not skinned, and skinned vertices weighted at least half to head or
// the joints under it, placed by head's own bind matrix (relative to the
// head bone as bound, moved to where the bone is now).
func (c *Character) headPoints(head *core.Node, f func(mgl32.Vec3)) {
	var walk func(n core.INode, under bool)
	walk = func(n core.INode, under bool) {
		under = under || n.GetNode() == head
		switch g := n.(type) {
		case *graphic.RiggedMesh:
			c.skinnedHeadPoints(head, g, f)
		case graphic.IGraphic:
			if under && g.IGeometry() != nil {
				m := mgl32.Mat4(n.GetNode().MatrixWorld())
				g.IGeometry().GetGeometry().ReadVertices(func(v math32.Vector3) bool {
					f(m.Mul4x1(mgl32.Vec4{v.X, v.Y, v.Z, 1}).Vec3())
					return false
				})
			}
		}
		for _, ch := range n.Children() {
			walk(ch, under)
		}
	}
	walk(c.Root, false)
}

// skinnedHeadPoints is headPoints for one skinned mesh.
func (c *Character) skinnedHeadPoints(head *core.Node, rm *graphic.RiggedMesh, f func(mgl32.Vec3)) {
	sk := rm.Skeleton()
	if sk == nil || len(sk.Bones()) == 0 {
		return
	}
	bones := sk.Bones()
	inHead := make([]bool, len(bones))
	headIdx, some := -1, false
	for i, b := range bones {
		inHead[i] = isUnder(b, head)
		some = some || inHead[i]
		if b == head {
			headIdx = i
		}
	}
	if !some {
		return
	}
	// Each joint's world matrix times its inverse bind matrix: a vertex
	// rigidly on joint j is at mats[j]·v.
	var ident math32.Matrix4
	ident.Identity()
	mats := sk.BoneMatrices(&ident)
	geom := rm.GetGeometry()
	ji, wi := geom.VBO(gls.SkinIndex), geom.VBO(gls.SkinWeight)
	if ji == nil || wi == nil {
		return
	}
	jb, wb := *ji.Buffer(), *wi.Buffer()
	js, jo := ji.Stride(), ji.AttribOffset(gls.SkinIndex)
	ws, wo := wi.Stride(), wi.AttribOffset(gls.SkinWeight)
	k := 0
	geom.ReadVertices(func(v math32.Vector3) bool {
		a, b := jo+k*js, wo+k*ws
		k++
		if a+4 > len(jb) || b+4 > len(wb) {
			return true
		}
		var onHead, all float32
		var sum mgl32.Vec4
		var wsum float32
		for i := 0; i < 4; i++ {
			j, w := int(jb[a+i]), wb[b+i]
			if !(w > 0) || j < 0 || j >= len(bones) {
				continue
			}
			all += w
			if inHead[j] {
				onHead += w
				m := mgl32.Mat4(mats[j])
				sum = sum.Add(m.Mul4x1(mgl32.Vec4{v.X, v.Y, v.Z, 1}).Mul(w))
				wsum += w
			}
		}
		if all <= 0 || onHead < 0.5*all {
			return false
		}
		if headIdx >= 0 {
			// Bind pose relative to the head: the head's own matrix.
			m := mgl32.Mat4(mats[headIdx])
			f(m.Mul4x1(mgl32.Vec4{v.X, v.Y, v.Z, 1}).Vec3())
			return false
		}
		f(sum.Vec3().Mul(1 / wsum))
		return false
	})
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
//	hs, err := ch.HairSettings(scene.HairFit{})
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
	return bridge.Build(w, func() (*HeadHair, error) {
		hd := s.Head.Head()
		h, err := hair.New(w, hd, s.Hair)
		if err != nil {
			// Name the fields as the caller wrote them.
			if e := errctx.Rename(err, "hair: Settings.", "scene: HairSettings.Hair."); e != err {
				return nil, e
			}
			if e := errctx.Rename(err, "hair: Head.Radius", "scene: HairSettings.Head.Radius"); e != err {
				return nil, e
			}
			return nil, errctx.Wrap("scene", "NewHeadHair", err)
		}
		f, err := FollowHead(h, s.Head.Bone, s.Head.Offset, s.Head.Turn)
		if err != nil {
			h.Remove()
			return nil, err
		}
		return &HeadHair{Hair: h, Follower: f}, nil
	})
}

// Attach moves the head with its bone before every step of d.
func (h *HeadHair) Attach(d *Driver) { h.Follower.Attach(d) }
