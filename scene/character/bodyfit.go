package character

import (
	"slices"

	"github.com/drape3d/drape/internal/vecmath"
	"github.com/drape3d/drape/scene"
	"github.com/g3n/engine/core"
	"github.com/g3n/engine/graphic"
	"github.com/go-gl/mathgl/mgl32"
)

// minBodyVertices is the fewest vertices a bone must carry for its capsule
// to be fitted to the mesh; with fewer it keeps the skeleton's radius.
const minBodyVertices = 4

// bodyStray is how far past the 90th percentile of the vertices'
// distances to the bone's segment a vertex may lie and still widen the
// capsule: farther ones are strays (a vertex of another limb weighted to
// the bone by mistake).
const bodyStray = 1.25

// boneVertices calls f with the world position of every skinned vertex
// weighted at least half to bone, in bind pose relative to bone (placed by
// bone's bind matrix, so the pose of the first frame does not count).
// Rigid meshes do not count: a robot's torso and limbs keep the
// skeleton's radii (and, for the torso, backDepth).
func (c *Character) boneVertices(bone *core.Node, f func(mgl32.Vec3)) {
	var walk func(n core.INode)
	walk = func(n core.INode) {
		if g, ok := n.(*graphic.RiggedMesh); ok {
			skinnedPoints(g, func(b *core.Node) bool { return b == bone }, bone, func(_ int, p mgl32.Vec3) { f(p) })
		}
		for _, ch := range n.Children() {
			walk(ch)
		}
	}
	walk(c.Root)
}

// fitBodyRadius returns the radius in meters of the capsule part (on a
// unit-scale mount of bone) that covers the vertices bone carries (see
// boneVertices): the farthest of their distances to the capsule's segment,
// leaving out strays more than bodyStray times the 90th percentile of
// those distances. ok is false when bone carries fewer than
// minBodyVertices vertices.
func (c *Character) fitBodyRadius(bone *core.Node, part scene.BodyPart, mt *scene.Mount) (r float32, ok bool) {
	a := mgl32.Vec3{part.A.X, part.A.Y, part.A.Z}
	b := mgl32.Vec3{part.B.X, part.B.Y, part.B.Z}
	var d []float32
	c.boneVertices(bone, func(w mgl32.Vec3) {
		if !vecmath.Finite(w) {
			return
		}
		l := mt.Local(w)
		d = append(d, segmentDistance(mgl32.Vec3{l.X, l.Y, l.Z}, a, b))
	})
	if len(d) < minBodyVertices {
		return 0, false
	}
	slices.Sort(d)
	lim := bodyStray * d[(len(d)-1)*9/10]
	for _, x := range d {
		if x <= lim {
			r = x
		}
	}
	return r, r > 1e-3
}

// segmentDistance is the distance from p to the segment ab.
func segmentDistance(p, a, b mgl32.Vec3) float32 {
	ab := b.Sub(a)
	t := float32(0)
	if l := ab.Dot(ab); l > 1e-12 {
		t = min(max(p.Sub(a).Dot(ab)/l, 0), 1)
	}
	return p.Sub(a.Add(ab.Mul(t))).Len()
}
