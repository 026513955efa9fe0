package character

import (
	"math"
	"path/filepath"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/qmuntal/gltf"
	"github.com/qmuntal/gltf/modeler"
)

// rigFixture describes a generated character with the quirks of real
// exports (../shared/models/README.md).
type rigFixture struct {
	name   string
	binary bool   // .glb, else .gltf with an external .bin
	unit   string // "cm": bones in centimeters under a 0.01 armature; "m": meters
	prefix string // bone name prefix, e.g. "mixamorig:"
	// skinnedHead: the head box is a skinned mesh of its own skin (its
	// lower corners weighted 60% to the head, 40% to the neck) with a neck
	// box weighted to the neck only, as in a single-mesh export; the
	// rigid head mesh under the Head bone shrinks to a 2 cm box inside it
	// (it keeps the morph target).
	skinnedHead bool
}

// bone of the fixture skeleton: name (without prefix), parent index, local
// translation in meters.
type fixBone struct {
	name   string
	parent int
	t      mgl32.Vec3
}

var fixBones = []fixBone{
	{"Hips", -1, mgl32.Vec3{0, 1.0, 0}},              // 0
	{"Spine", 0, mgl32.Vec3{0, 0.10, 0}},             // 1
	{"Spine1", 1, mgl32.Vec3{0, 0.12, 0}},            // 2
	{"Spine2", 2, mgl32.Vec3{0, 0.12, 0}},            // 3
	{"Neck", 3, mgl32.Vec3{0, 0.15, 0}},              // 4
	{"Head", 4, mgl32.Vec3{0, 0.10, 0}},              // 5
	{"LeftShoulder", 3, mgl32.Vec3{0.06, 0.10, 0}},   // 6
	{"LeftArm", 6, mgl32.Vec3{0.12, 0, 0}},           // 7
	{"RightShoulder", 3, mgl32.Vec3{-0.06, 0.10, 0}}, // 8
	{"RightArm", 8, mgl32.Vec3{-0.12, 0, 0}},         // 9
	{"LeftUpLeg", 0, mgl32.Vec3{0.09, -0.05, 0}},     // 10
	{"LeftLeg", 10, mgl32.Vec3{0, -0.45, 0}},         // 11
	{"RightUpLeg", 0, mgl32.Vec3{-0.09, -0.05, 0}},   // 12
	{"RightLeg", 12, mgl32.Vec3{0, -0.45, 0}},        // 13
}

// box returns the 8 corners and 36 indices of an axis-aligned box.
func box(lo, hi [3]float32) ([][3]float32, []uint16) {
	var p [][3]float32
	for i := 0; i < 8; i++ {
		v := lo
		if i&1 != 0 {
			v[0] = hi[0]
		}
		if i&2 != 0 {
			v[1] = hi[1]
		}
		if i&4 != 0 {
			v[2] = hi[2]
		}
		p = append(p, v)
	}
	idx := []uint16{0, 2, 1, 1, 2, 3, 4, 5, 6, 5, 7, 6, 0, 1, 4, 1, 5, 4, 2, 6, 3, 3, 6, 7, 0, 4, 2, 2, 4, 6, 1, 3, 5, 3, 7, 5}
	return p, idx
}

// writeRig writes the fixture into dir and returns the file's path: a
// skeleton (0.01-scaled with centimeter bones, or meters), three skins (a
// torso, two legs as one mesh of two primitives, arms), a head with a morph
// target under the Head bone (or a skinned head, see rigFixture), a material with KHR_materials_specular, and
// two animations ("mixamo.com|Walk" and "Run") with two-keyframe LINEAR
// channels, a STEP and a CUBICSPLINE channel and a morph weights channel.
func writeRig(t testing.TB, dir string, f rigFixture) string {
	t.Helper()
	k := float32(1) // bone units per meter
	if f.unit == "cm" {
		k = 100
	}
	doc := gltf.NewDocument()
	doc.Buffers = []*gltf.Buffer{{}}
	// Nodes 0..13 bones, 14 armature, then meshes.
	world := make([]mgl32.Vec3, len(fixBones))
	for i, b := range fixBones {
		n := &gltf.Node{Name: f.prefix + b.name, Matrix: gltf.DefaultMatrix, Rotation: gltf.DefaultRotation, Scale: gltf.DefaultScale,
			Translation: [3]float64{float64(b.t[0] * k), float64(b.t[1] * k), float64(b.t[2] * k)}}
		doc.Nodes = append(doc.Nodes, n)
		world[i] = b.t
		if b.parent >= 0 {
			world[i] = world[b.parent].Add(b.t)
			doc.Nodes[b.parent].Children = append(doc.Nodes[b.parent].Children, i)
		}
	}
	arm := &gltf.Node{Name: "Armature", Children: []int{0}, Matrix: gltf.DefaultMatrix, Rotation: gltf.DefaultRotation, Scale: [3]float64{1 / float64(k), 1 / float64(k), 1 / float64(k)}}
	doc.Nodes = append(doc.Nodes, arm)
	armIdx := len(doc.Nodes) - 1
	// Inverse bind matrix of bone i: world bind = T(world) * S(1/k).
	// modeler's [4][4] is indexed [row][column] (it was filled transposed
	// before the skinned head checked it: every bone's matrix times its
	// inverse bind matrix was garbage instead of the identity at bind).
	ibm := func(i int) [4][4]float32 {
		m := mgl32.Translate3D(world[i][0], world[i][1], world[i][2]).Mul4(mgl32.Scale3D(1/k, 1/k, 1/k)).Inv()
		var out [4][4]float32
		for c := 0; c < 4; c++ {
			for r := 0; r < 4; r++ {
				out[r][c] = m.At(r, c)
			}
		}
		return out
	}
	spec := 0
	doc.Materials = []*gltf.Material{{Name: "Body", PBRMetallicRoughness: &gltf.PBRMetallicRoughness{BaseColorFactor: &[4]float64{0.2, 0.4, 0.8, 1}},
		Extensions: gltf.Extensions{"KHR_materials_specular": map[string]any{"specularFactor": 0.5}}}}
	doc.ExtensionsUsed = []string{"KHR_materials_specular"}
	prim := func(lo, hi [3]float32, joints [2]uint16) *gltf.Primitive {
		p, idx := box(lo, hi)
		js := make([][4]uint16, len(p))
		ws := make([][4]float32, len(p))
		for i, v := range p {
			j := joints[0]
			if v[1] == hi[1] {
				j = joints[1]
			}
			js[i] = [4]uint16{j, 0, 0, 0}
			ws[i] = [4]float32{1, 0, 0, 0}
		}
		pos := modeler.WritePosition(doc, p)
		return &gltf.Primitive{Indices: gltf.Index(modeler.WriteIndices(doc, idx)), Material: &spec,
			Attributes: gltf.PrimitiveAttributes{gltf.POSITION: pos, gltf.JOINTS_0: modeler.WriteJoints(doc, js), gltf.WEIGHTS_0: modeler.WriteWeights(doc, ws)}}
	}
	addSkin := func(joints []int) int {
		m := make([][4][4]float32, len(joints))
		for i, j := range joints {
			m[i] = ibm(j)
		}
		doc.Skins = append(doc.Skins, &gltf.Skin{Joints: joints, InverseBindMatrices: gltf.Index(modeler.WriteInverseBindMatrices(doc, m))})
		return len(doc.Skins) - 1
	}
	addMeshNode := func(name string, prims []*gltf.Primitive, skin int) int {
		doc.Meshes = append(doc.Meshes, &gltf.Mesh{Name: name, Primitives: prims})
		doc.Nodes = append(doc.Nodes, &gltf.Node{Name: name, Mesh: gltf.Index(len(doc.Meshes) - 1), Skin: gltf.Index(skin),
			Matrix: gltf.DefaultMatrix, Rotation: gltf.DefaultRotation, Scale: gltf.DefaultScale})
		return len(doc.Nodes) - 1
	}
	// Skin 0: the torso, hips to the top of the chest.
	torso := addMeshNode("Torso", []*gltf.Primitive{prim([3]float32{-0.17, 0.95, -0.1}, [3]float32{0.17, 1.45, 0.1}, [2]uint16{0, 1})}, addSkin([]int{0, 3}))
	// Skin 1: both legs, one mesh of two primitives.
	legs := addMeshNode("Legs", []*gltf.Primitive{
		prim([3]float32{0.04, 0.05, -0.06}, [3]float32{0.14, 0.93, 0.06}, [2]uint16{1, 0}),
		prim([3]float32{-0.14, 0.05, -0.06}, [3]float32{-0.04, 0.93, 0.06}, [2]uint16{3, 2}),
	}, addSkin([]int{10, 11, 12, 13}))
	// Skin 2: the arms.
	arms := addMeshNode("Arms", []*gltf.Primitive{
		prim([3]float32{0.2, 0.9, -0.05}, [3]float32{0.28, 1.45, 0.05}, [2]uint16{0, 0}),
		prim([3]float32{-0.28, 0.9, -0.05}, [3]float32{-0.2, 1.45, 0.05}, [2]uint16{1, 1}),
	}, addSkin([]int{7, 9}))
	scn := []int{armIdx, torso, legs, arms}
	hs := float32(1) // the rigid head's size, a fraction of the 0.2 m box
	if f.skinnedHead {
		hs = 0.1
		// Skin 3: the head and the neck, in meters like the other skins;
		// joint 0 is the Head bone, joint 1 the Neck.
		hw := world[5]
		var p [][3]float32
		var js [][4]uint16
		var ws [][4]float32
		var idx []uint16
		add := func(lo, hi [3]float32, weight func(top bool) [4]float32) {
			bp, bi := box(lo, hi)
			for _, i := range bi {
				idx = append(idx, uint16(len(p))+i)
			}
			for _, v := range bp {
				p = append(p, v)
				js = append(js, [4]uint16{0, 1, 0, 0})
				ws = append(ws, weight(v[1] == hi[1]))
			}
		}
		add([3]float32{hw[0] - 0.1, hw[1], hw[2] - 0.1}, [3]float32{hw[0] + 0.1, hw[1] + 0.22, hw[2] + 0.1}, func(top bool) [4]float32 {
			if top {
				return [4]float32{1, 0, 0, 0}
			}
			return [4]float32{0.6, 0.4, 0, 0}
		})
		add([3]float32{hw[0] - 0.05, hw[1] - 0.14, hw[2] - 0.05}, [3]float32{hw[0] + 0.05, hw[1] - 0.01, hw[2] + 0.05}, func(bool) [4]float32 {
			return [4]float32{0, 1, 0, 0}
		})
		prim := &gltf.Primitive{Indices: gltf.Index(modeler.WriteIndices(doc, idx)), Material: &spec,
			Attributes: gltf.PrimitiveAttributes{gltf.POSITION: modeler.WritePosition(doc, p), gltf.JOINTS_0: modeler.WriteJoints(doc, js), gltf.WEIGHTS_0: modeler.WriteWeights(doc, ws)}}
		scn = append(scn, addMeshNode("HeadSkin", []*gltf.Primitive{prim}, addSkin([]int{5, 4})))
	}
	// A head with a morph target, a child of the Head bone, in bone units.
	hp, hidx := box([3]float32{-0.1 * k * hs, 0, -0.1 * k * hs}, [3]float32{0.1 * k * hs, 0.22 * k * hs, 0.1 * k * hs})
	delta := make([][3]float32, len(hp))
	for i := range delta {
		delta[i] = [3]float32{0, 0, 0.02 * k}
	}
	doc.Meshes = append(doc.Meshes, &gltf.Mesh{Name: "HeadMesh", Weights: []float64{0}, Primitives: []*gltf.Primitive{{
		Indices: gltf.Index(modeler.WriteIndices(doc, hidx)), Material: &spec,
		Attributes: gltf.PrimitiveAttributes{gltf.POSITION: modeler.WritePosition(doc, hp)},
		Targets:    []gltf.PrimitiveAttributes{{gltf.POSITION: modeler.WritePosition(doc, delta)}},
	}}})
	doc.Nodes = append(doc.Nodes, &gltf.Node{Name: "HeadMesh", Mesh: gltf.Index(len(doc.Meshes) - 1), Matrix: gltf.DefaultMatrix, Rotation: gltf.DefaultRotation, Scale: gltf.DefaultScale})
	headMesh := len(doc.Nodes) - 1
	doc.Nodes[5].Children = append(doc.Nodes[5].Children, headMesh)
	doc.Scenes = []*gltf.Scene{{Nodes: scn}}
	doc.Scene = gltf.Index(0)

	// Animations.
	quatX := func(deg float64) [4]float32 {
		a := deg * math.Pi / 360
		return [4]float32{float32(math.Sin(a)), 0, 0, float32(math.Cos(a))}
	}
	anim := func(name string, period, swing float32) {
		a := &gltf.Animation{Name: name}
		add := func(node int, path gltf.TRSProperty, in []float32, out any, ip gltf.Interpolation) {
			a.Samplers = append(a.Samplers, &gltf.AnimationSampler{Input: modeler.WriteAccessor(doc, gltf.TargetNone, in),
				Output: modeler.WriteAccessor(doc, gltf.TargetNone, out), Interpolation: ip})
			a.Channels = append(a.Channels, &gltf.AnimationChannel{Sampler: len(a.Samplers) - 1, Target: gltf.AnimationChannelTarget{Node: gltf.Index(node), Path: path}})
		}
		two := []float32{0, period}
		three := []float32{0, period / 2, period}
		// Two keyframes, as exporters write nearly constant tracks: the hips
		// sink 5 mm and the spine twists 1 degree (a real loop would not
		// jump back at the wrap; these jumps are small).
		hy := fixBones[0].t[1] * k
		add(0, gltf.TRSTranslation, two, [][3]float32{{0, hy, 0}, {0, hy - 0.005*k, 0}}, gltf.InterpolationLinear)
		add(1, gltf.TRSRotation, two, [][4]float32{{0, 0, 0, 1}, {0, 0.0087, 0, 0.99996}}, gltf.InterpolationLinear)
		// Legs swing on three keyframes.
		add(10, gltf.TRSRotation, three, [][4]float32{quatX(float64(swing)), quatX(-float64(swing)), quatX(float64(swing))}, gltf.InterpolationLinear)
		add(12, gltf.TRSRotation, three, [][4]float32{quatX(-float64(swing)), quatX(float64(swing)), quatX(-float64(swing))}, gltf.InterpolationLinear)
		// STEP scale and CUBICSPLINE rotation.
		add(2, gltf.TRSScale, two, [][3]float32{{1, 1, 1}, {1, 1, 1}}, gltf.InterpolationStep)
		add(4, gltf.TRSRotation, two, [][4]float32{{0, 0, 0, 0}, quatX(0), {0, 0, 0, 0}, {0, 0, 0, 0}, quatX(10), {0, 0, 0, 0}}, gltf.InterpolationCubicSpline)
		// Morph weights on the head.
		add(headMesh, gltf.TRSWeights, two, []float32{0, 1}, gltf.InterpolationLinear)
		doc.Animations = append(doc.Animations, a)
	}
	anim("mixamo.com|Walk", 1, 25)
	anim("Run", 0.6, 45)

	ext := ".gltf"
	if f.binary {
		ext = ".glb"
	}
	path := filepath.Join(dir, f.name+ext)
	var err error
	if f.binary {
		err = gltf.SaveBinary(doc, path)
	} else {
		doc.Buffers[0].URI = f.name + ".bin"
		err = gltf.Save(doc, path)
	}
	if err != nil {
		t.Fatal(err)
	}
	return path
}

var rigFixtures = []rigFixture{
	{name: "mixamo", binary: true, unit: "cm", prefix: "mixamorig:"},
	{name: "mixamo_gltf", binary: false, unit: "cm", prefix: "mixamorig:"},
	{name: "metres", binary: true, unit: "m", prefix: ""},
	{name: "skinned_head", binary: true, unit: "cm", prefix: "mixamorig:", skinnedHead: true},
}
