package character

import (
	"math"
	"slices"

	"github.com/drape3d/drape/hair"
	"github.com/drape3d/drape/internal/errctx"
	"github.com/drape3d/drape/internal/vecmath"
	"github.com/drape3d/drape/scene"
	"github.com/g3n/engine/core"
	"github.com/g3n/engine/gls"
	"github.com/g3n/engine/graphic"
	"github.com/g3n/engine/math32"
	"github.com/go-gl/mathgl/mgl32"
)

// HairFit chooses what HairSettings derives; the zero value derives
// everything.
type HairFit struct {
	// Bone is the head bone, by the naming rules of BoneKey. Default
	// "Head" (Head, head, mixamorig:Head, Head_1, ...).
	Bone string
}

// HeadSphere returns the sphere fitted inside the character's head (see
// HairSettings): its center and radius in meters, whatever the armature's
// scale.
func (c *Character) HeadSphere() (scene.HeadSphere, error) {
	s, err := c.HairSettings(HairFit{})
	return s.Head, err
}

// HairSettings returns hair settings fitted to the character as it stands
// now (in the first frame of its clip; Update first to choose another).
//
// The head is fitted to its mesh in meters, whatever the armature's
// scale: the meshes carried by the head bone or its children (a robot's
// rigid head) and the skinned vertices weighted at least half to them, in
// bind pose relative to the head bone (so an open jaw in the first frame
// does not count). The roots sit on that mesh: Hair.Scalp is the head's
// outer surface seen from the sphere's center, so the default style lies
// on a head that is far from round (RobotExpressive's flat-topped barrel)
// rather than on a sphere floating above it. The head sphere, which keeps
// the moving strands out, is the largest sphere inside the mesh along the
// default scalp cap's directions (hair.Settings CapAngle and CapTilt),
// centered on the vertical line through the middle of the head's
// bounding box (the highest such center of equal spheres): on a box head
// its inscribed sphere, on a human head about the skull. Where the mesh
// stands above the sphere (a barrel's corners) moving strands can sink
// toward the sphere as far as style keeping lets them. The style's sizes
// follow the sphere that encloses the head.
//
// With no head mesh (or a mesh no center sees in 90% of the cap's
// directions) the head is the sphere that encloses the head's vertices,
// or, with no vertices, a human's proportion: a radius of 6.5% of the
// bone's height above the feet, centered one radius above the bone.
//
// The head's frame is the character's own as it stands now: +Y up, +Z to
// the character's front (the Root's +Z).
func (c *Character) HairSettings(fit HairFit) (scene.HairSettings, error) {
	c.Update(0)
	name := fit.Bone
	if name == "" {
		name = "Head"
	}
	var out scene.HairSettings
	bone, err := c.Bone(name)
	if err != nil {
		return out, errctx.Wrap("character", "HairFit.Bone", err)
	}
	pos, rot, _ := scene.NodePose(bone)
	_, rr, _ := scene.NodePose(c.Root)
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
	var radius float32 // encloses the head: the style's scale
	if len(pts) > 0 {
		center = lo.Add(hi).Mul(0.5)
		for _, p := range pts {
			radius = max(radius, p.Sub(center).Len())
		}
	}
	sphere := radius // the head sphere
	var scalp *scalpMap
	if radius >= 1e-3 {
		var tris [][3]mgl32.Vec3
		c.headTriangles(bone, func(a, b, cc mgl32.Vec3) {
			tris = append(tris, [3]mgl32.Vec3{inv.Rotate(a.Sub(pos)), inv.Rotate(b.Sub(pos)), inv.Rotate(cc.Sub(pos))})
		})
		if len(tris) > 0 {
			if ct, r, m, ok := fitScalp(tris, center, lo, hi, hair.DefaultSettings()); ok && r >= 1e-3 {
				center, sphere, scalp = ct, r, m
			}
		}
	}
	if radius < 1e-3 {
		// No head mesh (or a point): a human's proportion.
		low := pos[1]
		for _, n := range c.Model.Nodes {
			if n != nil && c.Model.joints[n] {
				p, _, _ := scene.NodePose(n)
				low = min(low, p[1])
			}
		}
		if r, _, _ := scene.NodePose(c.Root); r[1] < low {
			low = r[1]
		}
		radius = max(0.065*(pos[1]-low), 0.01)
		center = mgl32.Vec3{0, radius, 0}
		sphere = radius
	}
	out.Head = scene.HeadSphere{Bone: bone, Offset: turn.Rotate(center), Turn: turn, Radius: sphere}
	out.Hair = hair.DefaultSettings()
	if scalp != nil {
		out.Hair.Scalp = scalp.distance
	}
	k := radius / hair.DefaultHead().Radius
	out.Hair.Length *= k
	out.Hair.Volume *= k
	out.Hair.Radius *= k
	if neck, ok := c.neck(bone); ok {
		h := out.Head.Head()
		_, rr, _ := scene.NodePose(c.Root)
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
	at, _, _ := scene.NodePose(p.GetNode())
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
	skinnedPoints(rm, func(b *core.Node) bool { return isUnder(b, head) }, head, func(_ int, p mgl32.Vec3) { f(p) })
}

// skinnedPoints calls f with the index and bind pose of every vertex of
// rm weighted
// at least half (of its total weight) to the joints in reports true for,
// placed by the bind matrix of the joint place (relative to place as
// bound, moved to where place is now), or by the blend of those joints
// when place is not a joint of rm's skin.
func skinnedPoints(rm *graphic.RiggedMesh, in func(*core.Node) bool, place *core.Node, f func(int, mgl32.Vec3)) {
	sk := rm.Skeleton()
	if sk == nil || len(sk.Bones()) == 0 {
		return
	}
	bones := sk.Bones()
	inSet := make([]bool, len(bones))
	placeIdx, some := -1, false
	for i, b := range bones {
		inSet[i] = in(b)
		some = some || inSet[i]
		if b == place {
			placeIdx = i
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
		var onSet, all float32
		var sum mgl32.Vec4
		var wsum float32
		for i := 0; i < 4; i++ {
			j, w := int(jb[a+i]), wb[b+i]
			if !(w > 0) || j < 0 || j >= len(bones) {
				continue
			}
			all += w
			if inSet[j] {
				onSet += w
				m := mgl32.Mat4(mats[j])
				sum = sum.Add(m.Mul4x1(mgl32.Vec4{v.X, v.Y, v.Z, 1}).Mul(w))
				wsum += w
			}
		}
		if all <= 0 || onSet < 0.5*all {
			return false
		}
		if placeIdx >= 0 {
			m := mgl32.Mat4(mats[placeIdx])
			f(k-1, m.Mul4x1(mgl32.Vec4{v.X, v.Y, v.Z, 1}).Vec3())
			return false
		}
		f(k-1, sum.Vec3().Mul(1/wsum))
		return false
	})
}

// headTriangles calls f with the world corners of every triangle of the
// head's mesh: the triangles of the meshes under head that are not skinned
// (where they are now), and the skinned triangles whose three corners
// headPoints takes (placed as it places them).
func (c *Character) headTriangles(head *core.Node, f func(a, b, c mgl32.Vec3)) {
	var walk func(n core.INode, under bool)
	walk = func(n core.INode, under bool) {
		under = under || n.GetNode() == head
		switch g := n.(type) {
		case *graphic.RiggedMesh:
			geom := g.GetGeometry()
			var pos []mgl32.Vec3
			nan := float32(math.NaN())
			geom.ReadVertices(func(math32.Vector3) bool {
				pos = append(pos, mgl32.Vec3{nan, nan, nan})
				return false
			})
			skinnedPoints(g, func(b *core.Node) bool { return isUnder(b, head) }, head, func(k int, p mgl32.Vec3) {
				if k >= 0 && k < len(pos) {
					pos[k] = p
				}
			})
			triangles(geom.Indexed(), geom.Indices(), pos, f)
		case graphic.IGraphic:
			if under && g.IGeometry() != nil {
				geom := g.IGeometry().GetGeometry()
				m := mgl32.Mat4(n.GetNode().MatrixWorld())
				var pos []mgl32.Vec3
				geom.ReadVertices(func(v math32.Vector3) bool {
					pos = append(pos, m.Mul4x1(mgl32.Vec4{v.X, v.Y, v.Z, 1}).Vec3())
					return false
				})
				triangles(geom.Indexed(), geom.Indices(), pos, f)
			}
		}
		for _, ch := range n.Children() {
			walk(ch, under)
		}
	}
	walk(c.Root, false)
}

// triangles calls f with the triangles of a mesh (by its indices, or
// every three vertices when it has none) whose corners are all finite.
func triangles(indexed bool, idx math32.ArrayU32, pos []mgl32.Vec3, f func(a, b, c mgl32.Vec3)) {
	n := len(pos)
	if indexed {
		n = len(idx)
	}
	at := func(i int) (mgl32.Vec3, bool) {
		if indexed {
			i = int(idx[i])
		}
		if i < 0 || i >= len(pos) || !vecmath.Finite(pos[i]) {
			return mgl32.Vec3{}, false
		}
		return pos[i], true
	}
	for i := 0; i+2 < n; i += 3 {
		a, okA := at(i)
		b, okB := at(i + 1)
		c, okC := at(i + 2)
		if okA && okB && okC {
			f(a, b, c)
		}
	}
}
