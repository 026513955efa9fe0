package character

import (
	"fmt"
	"math"
	"strings"

	"github.com/drape3d/drape/internal/errctx"
	"github.com/drape3d/drape/scene"
	"github.com/g3n/engine/core"
	"github.com/g3n/engine/graphic"
	"github.com/g3n/engine/math32"
	"github.com/go-gl/mathgl/mgl32"
)

// Character is a loaded glTF character ready for cloth: its scene under a
// Root you place in your game, an animation player, bone lookup by the
// usual naming schemes, and unit-scale mounts for colliders and anchors.
//
//	ch, err := character.Load("hero.glb")
//	scn.Add(ch.Root)
//	ch.Play("Walking")
//	s, err := ch.CapeSettings(character.CapeFit{})
//	cape, err := scene.NewCape(world, s)
//	// every frame: ch.Update(dt), then the driver (cape.Sync, World step)
type Character struct {
	// Root holds the model: move and turn it to place the character (a
	// uniform scale is fine).
	Root *core.Node
	// Model is the loaded file.
	Model *GLTFModel
	// Player plays the current clip (nil when the file has none).
	Player *Player
	// FadeTime is how long Play blends from one clip to the next, in
	// seconds; New sets 0.3.
	FadeTime float64

	mounts []mount
	bad    int   // Update calls in which a mount held its pose
	badErr error // the last mount's reason
}

// Load loads a .gltf or .glb file with DefaultGLTFLimits (see
// LoadGLTF) and plays its walk cycle when it has one (a clip whose name
// contains "walk"), else its first animation.
func Load(file string) (*Character, error) {
	m, err := LoadGLTF(file, DefaultGLTFLimits())
	if err != nil {
		return nil, err
	}
	return New(m), nil
}

// New wraps a loaded model.
func New(m *GLTFModel) *Character {
	c := &Character{Root: core.NewNode(), Model: m, FadeTime: 0.3}
	c.Root.SetName("character")
	c.Root.Add(m.Root)
	if len(m.Clips) > 0 {
		clip := m.Clips[0]
		if w, err := m.Clip("walk"); err == nil {
			clip = w
		}
		c.Player = NewPlayer(clip)
	}
	c.Root.UpdateMatrixWorld()
	return c
}

// Play switches to the clip called name (see GLTFModel.Clip) from its
// start, fading from the current one over FadeTime. Playing the current
// clip again does nothing.
func (c *Character) Play(name string) error {
	clip, err := c.Model.Clip(name)
	if err != nil {
		return err
	}
	switch {
	case c.Player == nil:
		c.Player = NewPlayer(clip)
	case c.Player.Clip() != clip:
		c.Player.CrossFade(clip, c.FadeTime)
	}
	return nil
}

// Update advances the animation by dt seconds, updates the world matrices
// under Root and moves the mounts. Call it every frame before the physics
// step (before Driver.Update).
//
// A bad frame of the animation (a bone thrown to 1e30 m or scaled through
// zero, a sample that overflows) does not reach the physics: the clip keeps
// a node's last value for a sample that is not finite (Player.NumBadSamples
// counts them), and a mount whose bone has no pose holds its last good one
// (scene.Mount.Update); NumBadPoses counts the Update calls in which one
// did.
func (c *Character) Update(dt float32) {
	if c.Player != nil {
		c.Player.Update(dt)
	}
	c.Root.UpdateMatrixWorld()
	held := false
	for _, m := range c.mounts {
		n := m.NumBadPoses()
		m.Update()
		if m.NumBadPoses() != n {
			held, c.badErr = true, m.BadPose()
		}
	}
	if held {
		c.bad++
	}
}

// NumBadPoses returns how many Update calls found a bone with no pose (not
// finite, beyond verlet3d.MaxCoordinate or scaled through zero) under a
// mount and held the mount's last good pose.
func (c *Character) NumBadPoses() int { return c.bad }

// BadPose returns why a mount last held its pose ("scene: Mount.Update:
// bone ..."), or nil when none has.
func (c *Character) BadPose() error { return c.badErr }

// Bone returns the bone (or, failing that, node) called name by the naming
// rules of BoneKey: "LeftShoulder" finds ShoulderL, shoulder.L or
// mixamorig:LeftShoulder; "Head" finds Head_1 when there is no Head.
func (c *Character) Bone(name string) (*core.Node, error) { return c.Model.Node(name) }

// Mount returns a node that follows bone with a world scale of 1 (see
// Mount), made on first use and moved by Update.
func (c *Character) Mount(bone *core.Node) *core.Node {
	return c.mount(bone, mgl32.QuatIdent()).Node
}

func (c *Character) mount(bone *core.Node, turn mgl32.Quat) *scene.Mount {
	return c.mountAxes(bone, bone, turn)
}

func (c *Character) mountAxes(bone, axes *core.Node, turn mgl32.Quat) *scene.Mount {
	for _, m := range c.mounts {
		if m.bone == bone && m.axes == axes && m.turn.ApproxEqual(turn) {
			return m.Mount
		}
	}
	m := scene.NewMountAxes(c.Root, bone, axes, turn)
	c.mounts = append(c.mounts, mount{m, bone, axes, turn})
	return m
}

// mount is a scene.Mount the Character made and moves, with what it was
// made from (a level reference is never looked up: its axes are nil).
type mount struct {
	*scene.Mount
	bone, axes *core.Node
	turn       mgl32.Quat
}

// findRole returns the first bone matching any of names.
func (c *Character) findRole(names ...string) *core.Node {
	for _, n := range names {
		if b, err := c.Bone(n); err == nil {
			return b
		}
	}
	return nil
}

// BodyBone names a bone to put a capsule on, from the bone to its child
// along the body, with a radius in meters.
type BodyBone struct {
	Bone   string
	Radius float32 // m
}

// CapeFit chooses what CapeSettings derives from the skeleton; the zero
// value derives everything.
type CapeFit struct {
	// Anchors are the bones the top edge is pinned to, in the order of
	// scene.CapeSettings.Anchors. Default: the shoulders (clavicles) and the
	// neck, found by the naming schemes of BoneKey.
	Anchors []string
	// Body are the colliders, each a capsule from its bone to the bone's
	// child along the body. Default: capsules along the spine from the
	// hips to the neck, and on both thighs, each with its radius fitted to
	// the skinned vertices the bone carries (see CapeSettings); a bone that
	// carries none (a model without skin weights) gets a radius from the shoulder
	// span: 36% of it on the spine (more where a rigid torso mesh reaches
	// farther behind the spine) and 40% of that on the thighs.
	Body []BodyBone
}

// CapeSettings returns cape settings fitted to the character's skeleton as
// it stands now (update it first): anchors on the shoulders and neck, width
// from the shoulder span, length from the neck's height, standoff and body
// colliders from the torso's size, all in meters whatever the armature's
// scale (colliders sit on unit-scale mounts). Reference is a mount on the
// hips facing the character's front, so Back is the default (0, 0, -1).
// Change any field before scene.NewCape.
//
// The default body capsules are fitted to the mesh: each covers the
// vertices its bone carries (the skinned vertices weighted at least half to
// it, in bind pose relative to the bone): its radius is the farthest of their distances to the
// capsule's segment, leaving out strays that lie more than 1.25 times
// the 90th percentile of those distances away. A bone that carries fewer
// than 4 such vertices (a model without skin weights, or one whose body
// is rigid meshes on bones, as RobotExpressive's) keeps the skeleton's
// radius (see CapeFit.Body). The
// standoff is at least each capsule's radius plus 3 cm.
func (c *Character) CapeSettings(fit CapeFit) (scene.CapeSettings, error) {
	c.Update(0)
	s := scene.DefaultCapeSettings()
	names := fit.Anchors
	var anchors []*core.Node
	if len(names) == 0 {
		l := c.findRole("LeftShoulder", "LeftClavicle", "LeftCollar", "LeftUpperArm", "LeftArm")
		n := c.findRole("Neck", "Neck1", "Neck01", "Spine3", "Spine2", "Chest", "UpperChest")
		r := c.findRole("RightShoulder", "RightClavicle", "RightCollar", "RightUpperArm", "RightArm")
		for _, b := range []*core.Node{l, n, r} {
			if b != nil {
				anchors = append(anchors, b)
			}
		}
		if len(anchors) < 2 {
			return s, fmt.Errorf("character: Character.CapeSettings: found no shoulder or neck bones (tried LeftShoulder, Neck, RightShoulder and their spellings); name them in CapeFit.Anchors")
		}
	}
	for _, n := range names {
		b, err := c.Bone(n)
		if err != nil {
			return s, errctx.Wrap("character", "CapeFit.Anchors", err)
		}
		anchors = append(anchors, b)
	}
	// The anchors: at each bone, with the chest's axes (the neck's parent),
	// so the standoff behind a shoulder does not swing with the arm and the
	// pinned edge keeps its length.
	chest := anchors[len(anchors)/2]
	if p := chest.Parent(); p != nil && c.Model.joints[p.GetNode()] {
		chest = p.GetNode()
	}
	for _, b := range anchors {
		s.Anchors = append(s.Anchors, scene.Anchor{Node: c.mountAxes(b, chest, mgl32.QuatIdent()).Node})
	}
	pos := func(n *core.Node) mgl32.Vec3 { p, _, _ := scene.NodePose(n); return p }
	// Sizes from the skeleton, in world meters.
	span := float32(0)
	la := c.findRole("LeftUpperArm", "LeftArm")
	ra := c.findRole("RightUpperArm", "RightArm")
	if la != nil && ra != nil {
		span = pos(la).Sub(pos(ra)).Len()
	}
	line := float32(0)
	for i := 1; i < len(anchors); i++ {
		line += pos(anchors[i]).Sub(pos(anchors[i-1])).Len()
	}
	span = max(span, line)
	if span < 1e-3 {
		return s, fmt.Errorf("character: Character.CapeSettings: the shoulders are %v m apart: no cape to fit", span)
	}
	torso := 0.36 * span
	s.Width = max(1.3*span, 1.6*line)
	neck := c.findRole("Neck", "Neck1", "Head")
	top := pos(anchors[len(anchors)/2])
	if neck != nil {
		top = pos(neck)
	}
	// The feet: the lowest joint, or the Root's origin (characters are
	// modelled standing on it) when that is lower, as for a rig without
	// leg bones.
	low := pos(c.Root)[1]
	for _, n := range c.Model.Nodes {
		if n != nil && c.Model.joints[n] {
			low = min(low, pos(n)[1])
		}
	}
	height := top[1] - low
	s.Length = max(0.2, 0.6*height)
	s.Standoff = torso + 0.03
	// About 20 columns on a big character (a 2 m wide cape on the robot
	// costs no more than the mannequin's), but never finer than the default
	// cape's spacing (at least 8 columns): a finer grid on a human-sized
	// cape converges worse for the same solver work, and a running leg
	// left its hem links 13% stretched at Width/20 (0.023 m; 6% at 0.047).
	d := scene.DefaultCapeSettings().Spacing
	s.Spacing = min(0.15, max(d, s.Width/20), s.Width/8)

	// The reference: a mount on the hips turned to face the character's
	// front (the Root's +Z) as it stands now.
	hips := c.findRole("Hips", "Pelvis", "Hip", "Root")
	if hips == nil {
		hips = anchors[len(anchors)/2]
	}
	_, hr, _ := scene.NodePose(hips)
	_, rr, _ := scene.NodePose(c.Root)
	// Level: the hips pitch and roll in a run, and the cape's lag limits and
	// carry follow the heading only.
	ref := scene.NewMount(c.Root, hips, hr.Inverse().Mul(rr))
	ref.SetLevel(true)
	c.mounts = append(c.mounts, mount{Mount: ref})
	s.Reference = ref.Node

	body := fit.Body
	fitted := len(body) == 0 // radii from the mesh where the bones carry vertices
	if fitted {
		chain := c.spineChain(hips, neck)
		// The back's surface: the mesh may stand farther behind the spine
		// than the shoulder span suggests (a robot's bell-shaped torso).
		if d := c.backDepth(chain, neck, mgl32.Vec3(rr.Rotate(mgl32.Vec3{0, 0, -1})), span); d > torso {
			torso = min(d, 0.8*span)
			s.Standoff = torso + 0.03
		}
		for _, b := range chain {
			body = append(body, BodyBone{Bone: c.nameOf(b), Radius: torso})
		}
		for _, n := range []string{"LeftUpperLeg", "RightUpperLeg"} {
			if b := c.findRole(n, strings.Replace(n, "UpperLeg", "UpLeg", 1), strings.Replace(n, "UpperLeg", "Thigh", 1)); b != nil {
				body = append(body, BodyBone{Bone: c.nameOf(b), Radius: 0.4 * torso})
			}
		}
	}
	for i, bb := range body {
		if !(bb.Radius > 0) || math.IsInf(float64(bb.Radius), 0) {
			return s, fmt.Errorf("character: CapeFit.Body[%d].Radius = %v, want meters > 0", i, bb.Radius)
		}
		b, err := c.Bone(bb.Bone)
		if err != nil {
			return s, errctx.Wrap("character", fmt.Sprintf("CapeFit.Body[%d]", i), err)
		}
		part := c.capsule(b, bb.Radius, neck)
		if fitted {
			if r, ok := c.fitBodyRadius(b, part, c.mount(b, mgl32.QuatIdent())); ok {
				part.Radius = r
				if part.B == (math32.Vector3{Y: 2 * bb.Radius}) {
					part.B = math32.Vector3{Y: 2 * r} // a bone with no child
				}
			}
		}
		s.Body = append(s.Body, part)
		s.Standoff = max(s.Standoff, part.Radius+0.03)
	}
	return s, nil
}

// nameOf returns the glTF name of a loaded node.
func (c *Character) nameOf(n *core.Node) string {
	for i, m := range c.Model.Nodes {
		if m == n {
			return c.Model.Names[i]
		}
	}
	return n.Name()
}

// spineChain returns the bones from hips up to (not including) neck, when
// neck descends from hips; else just hips.
func (c *Character) spineChain(hips, neck *core.Node) []*core.Node {
	var up []*core.Node
	if neck != nil {
		for p := neck.Parent(); p != nil; p = p.Parent() {
			n := p.GetNode()
			up = append(up, n)
			if n == hips {
				// Reverse: hips first.
				for i, j := 0, len(up)-1; i < j; i, j = i+1, j-1 {
					up[i], up[j] = up[j], up[i]
				}
				return up
			}
		}
	}
	return []*core.Node{hips}
}

// capsule is a BodyPart from bone to its child along the body (the child
// on the way to toward, else the joint child with the most descendants),
// radius r meters, on a unit-scale mount so r stays in meters.
func (c *Character) capsule(bone *core.Node, r float32, toward *core.Node) scene.BodyPart {
	mt := c.mount(bone, mgl32.QuatIdent())
	var best *core.Node
	bestN := -1
	for _, ch := range bone.Children() {
		n := ch.GetNode()
		if toward != nil && isUnder(toward, n) {
			best = n
			break
		}
		if !c.Model.joints[n] {
			continue
		}
		if k := countNodes(n); k > bestN {
			best, bestN = n, k
		}
	}
	var end math32.Vector3
	if best != nil {
		p, _, _ := scene.NodePose(best)
		end = mt.Local(p)
	}
	if end.Length() < 1e-4 {
		end = math32.Vector3{Y: 2 * r}
	}
	return scene.BodyPart{Node: mt.Node, B: end, Radius: r}
}

func countNodes(n core.INode) int {
	k := 1
	for _, c := range n.Children() {
		k += countNodes(c)
	}
	return k
}

// isUnder reports whether n is anc or one of its descendants.
func isUnder(n, anc *core.Node) bool {
	for p := core.INode(n); p != nil; p = p.Parent() {
		if p.GetNode() == anc {
			return true
		}
	}
	return false
}

// backDepth returns how far behind the spine (the chain of bones up to
// neck) the character's meshes reach, in meters: the largest distance from
// the spine of a vertex that lies behind it, between its ends, within a
// quarter span of the middle of the back. Only meshes carried rigidly by
// nodes count (skinned vertices need their joints: a skinned character
// keeps the shoulder-span rule). 0 when no vertex qualifies.
func (c *Character) backDepth(chain []*core.Node, neck *core.Node, back mgl32.Vec3, span float32) float32 {
	pts := make([]mgl32.Vec3, 0, len(chain)+1)
	for _, b := range chain {
		p, _, _ := scene.NodePose(b)
		pts = append(pts, p)
	}
	if neck != nil {
		p, _, _ := scene.NodePose(neck)
		pts = append(pts, p)
	}
	if len(pts) < 2 {
		return 0
	}
	back[1] = 0
	if back.Len() < 1e-6 {
		return 0
	}
	back = back.Normalize()
	across := mgl32.Vec3{0, 1, 0}.Cross(back)
	var depth float32
	var walk func(n core.INode)
	walk = func(n core.INode) {
		if _, skinned := n.(*graphic.RiggedMesh); skinned {
			return
		}
		if g, ok := n.(graphic.IGraphic); ok && g.IGeometry() != nil {
			m := mgl32.Mat4(n.GetNode().MatrixWorld())
			g.IGeometry().GetGeometry().ReadVertices(func(v math32.Vector3) bool {
				x := m.Mul4x1(mgl32.Vec4{v.X, v.Y, v.Z, 1}).Vec3()
				if x[1] > pts[len(pts)-1][1] {
					return false // the head, not the back
				}
				for i := 0; i+1 < len(pts); i++ {
					a, b := pts[i], pts[i+1]
					ab := b.Sub(a)
					t := x.Sub(a).Dot(ab) / max(ab.Dot(ab), 1e-12)
					if t < 0 || t > 1 {
						continue
					}
					d := x.Sub(a.Add(ab.Mul(t)))
					if d.Dot(back) > 0 && float32(math.Abs(float64(d.Dot(across)))) < span/4 {
						depth = max(depth, d.Len())
					}
				}
				return false
			})
		}
		for _, ch := range n.Children() {
			walk(ch)
		}
	}
	walk(c.Root)
	return depth
}
