package character

import (
	"flag"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/qmuntal/gltf"
	"github.com/qmuntal/gltf/modeler"
)

// xbotOut makes TestXbotFixtureFile write the Xbot-like fixture there (for
// the demo: -scene cape -cape-gltf FILE).
var xbotOut = flag.String("xbot-out", "", "TestXbotFixtureFile writes the Xbot-like fixture (.glb) to this file")

// The Xbot-like fixture: the skeleton of a Mixamo Xbot (bones in
// centimeters under a 0.01 armature, mixamorig: names, a 0.29 m span
// between the upper arms) and one skinned body mesh of a slim adult in
// T-pose with the arms down: elliptic rings from the crotch to the top of
// the head and down each leg, each ring weighted to one bone, or 70/30 to
// two at a joint. The hips and buttocks (0.34 m wide, 0.12 m behind the
// hips bone) are wider than the skeleton suggests.
var xbotBones = []fixBone{
	{"Hips", -1, mgl32.Vec3{0, 1.0, 0}},               // 0
	{"Spine", 0, mgl32.Vec3{0, 0.10, 0}},              // 1
	{"Spine1", 1, mgl32.Vec3{0, 0.12, 0}},             // 2
	{"Spine2", 2, mgl32.Vec3{0, 0.135, 0}},            // 3
	{"Neck", 3, mgl32.Vec3{0, 0.15, 0}},               // 4
	{"Head", 4, mgl32.Vec3{0, 0.10, 0}},               // 5
	{"LeftShoulder", 3, mgl32.Vec3{0.045, 0.10, 0}},   // 6
	{"LeftArm", 6, mgl32.Vec3{0.10, 0, 0}},            // 7
	{"RightShoulder", 3, mgl32.Vec3{-0.045, 0.10, 0}}, // 8
	{"RightArm", 8, mgl32.Vec3{-0.10, 0, 0}},          // 9
	{"LeftUpLeg", 0, mgl32.Vec3{0.09, -0.065, 0}},     // 10
	{"LeftLeg", 10, mgl32.Vec3{0, -0.44, 0}},          // 11
	{"LeftFoot", 11, mgl32.Vec3{0, -0.41, 0}},         // 12
	{"RightUpLeg", 0, mgl32.Vec3{-0.09, -0.065, 0}},   // 13
	{"RightLeg", 13, mgl32.Vec3{0, -0.44, 0}},         // 14
	{"RightFoot", 14, mgl32.Vec3{0, -0.41, 0}},        // 15
}

// xbotRing is a ring of the body mesh in bind pose, in meters: an ellipse
// of half-width a (along X) and half-depth b (along Z) centered at (x, y,
// z), its vertices weighted w to bone and 1-w to bone2.
type xbotRing struct {
	y, x, z, a, b float32
	bone, bone2   int
	w             float32
}

// xbotChains are the body's tubes, each from its first ring to its last
// (closed at both ends).
func xbotChains() [][]xbotRing {
	torso := []xbotRing{
		{0.86, 0, -0.020, 0.150, 0.100, 0, 0, 1},
		{0.92, 0, -0.025, 0.168, 0.118, 0, 0, 1},
		{0.98, 0, -0.020, 0.168, 0.112, 0, 0, 1},
		{1.05, 0, -0.010, 0.152, 0.100, 0, 1, 0.7},
		{1.10, 0, 0, 0.140, 0.095, 1, 1, 1},
		{1.17, 0, 0, 0.140, 0.095, 1, 2, 0.7},
		{1.24, 0, 0, 0.150, 0.100, 2, 2, 1},
		{1.30, 0, 0.005, 0.160, 0.105, 2, 3, 0.7},
		{1.37, 0, 0.010, 0.170, 0.110, 3, 3, 1},
		{1.44, 0, 0.010, 0.175, 0.110, 3, 3, 1},
		{1.50, 0, 0, 0.150, 0.095, 3, 4, 0.7},
		{1.52, 0, 0, 0.050, 0.050, 4, 4, 1},
		{1.60, 0, 0, 0.050, 0.050, 4, 5, 0.7},
		{1.62, 0, 0.01, 0.080, 0.090, 5, 5, 1},
		{1.72, 0, 0.01, 0.095, 0.105, 5, 5, 1},
		{1.80, 0, 0.01, 0.090, 0.100, 5, 5, 1},
		{1.84, 0, 0.01, 0.050, 0.060, 5, 5, 1},
	}
	out := [][]xbotRing{torso}
	for _, side := range []struct {
		s                float32
		upLeg, leg, foot int
		arm              int
	}{{1, 10, 11, 12, 7}, {-1, 13, 14, 15, 9}} {
		out = append(out, []xbotRing{
			{0.90, 0.09 * side.s, -0.010, 0.085, 0.090, side.upLeg, side.upLeg, 1},
			{0.80, 0.092 * side.s, -0.005, 0.080, 0.085, side.upLeg, side.upLeg, 1},
			{0.70, 0.095 * side.s, 0, 0.070, 0.075, side.upLeg, side.upLeg, 1},
			{0.58, 0.098 * side.s, 0, 0.060, 0.065, side.upLeg, side.leg, 0.7},
			{0.50, 0.10 * side.s, 0, 0.055, 0.058, side.leg, side.leg, 1},
			{0.30, 0.10 * side.s, 0, 0.050, 0.055, side.leg, side.leg, 1},
			{0.10, 0.10 * side.s, 0, 0.040, 0.045, side.leg, side.foot, 0.7},
			{0.08, 0.10 * side.s, 0.05, 0.050, 0.110, side.foot, side.foot, 1},
			{0.01, 0.10 * side.s, 0.05, 0.050, 0.110, side.foot, side.foot, 1},
		}, []xbotRing{
			// The arm hangs down beside the body, rigidly on the upper arm.
			{1.45, 0.215 * side.s, 0, 0.045, 0.045, side.arm, side.arm, 1},
			{1.20, 0.225 * side.s, 0, 0.040, 0.040, side.arm, side.arm, 1},
			{0.85, 0.235 * side.s, 0, 0.030, 0.030, side.arm, side.arm, 1},
		})
	}
	return out
}

const xbotSegments = 24 // vertices of a ring

// writeXbot writes the Xbot-like fixture as a .glb in dir and returns its
// path; it walks ("mixamo.com|Walk", 1 s a cycle): the hips bob 2 cm twice
// a cycle, the thighs swing +-25 degrees and the knees bend up to 30.
func writeXbot(t testing.TB, dir string) string {
	t.Helper()
	const k = 100 // bone units (cm) per meter
	doc := gltf.NewDocument()
	doc.Buffers = []*gltf.Buffer{{}}
	world := make([]mgl32.Vec3, len(xbotBones))
	for i, b := range xbotBones {
		n := &gltf.Node{Name: "mixamorig:" + b.name, Matrix: gltf.DefaultMatrix, Rotation: gltf.DefaultRotation, Scale: gltf.DefaultScale,
			Translation: [3]float64{float64(b.t[0] * k), float64(b.t[1] * k), float64(b.t[2] * k)}}
		doc.Nodes = append(doc.Nodes, n)
		world[i] = b.t
		if b.parent >= 0 {
			world[i] = world[b.parent].Add(b.t)
			doc.Nodes[b.parent].Children = append(doc.Nodes[b.parent].Children, i)
		}
	}
	doc.Nodes = append(doc.Nodes, &gltf.Node{Name: "Armature", Children: []int{0}, Matrix: gltf.DefaultMatrix, Rotation: gltf.DefaultRotation,
		Scale: [3]float64{1.0 / k, 1.0 / k, 1.0 / k}})
	armIdx := len(doc.Nodes) - 1
	joints := make([]int, len(xbotBones))
	ibms := make([][4][4]float32, len(xbotBones))
	for i := range xbotBones {
		joints[i] = i
		m := mgl32.Translate3D(world[i][0], world[i][1], world[i][2]).Mul4(mgl32.Scale3D(1.0/k, 1.0/k, 1.0/k)).Inv()
		for c := 0; c < 4; c++ {
			for r := 0; r < 4; r++ {
				ibms[i][r][c] = m.At(r, c)
			}
		}
	}
	doc.Skins = []*gltf.Skin{{Name: "Skin", Joints: joints, InverseBindMatrices: gltf.Index(modeler.WriteInverseBindMatrices(doc, ibms))}}
	// Skin-colored: where the cape lets the body through, it shows.
	doc.Materials = []*gltf.Material{{Name: "Skin", PBRMetallicRoughness: &gltf.PBRMetallicRoughness{BaseColorFactor: &[4]float64{0.85, 0.62, 0.48, 1}}}}
	mat := 0
	var pos, nrm [][3]float32
	var js [][4]uint16
	var ws [][4]float32
	var idx []uint16
	vert := func(p, n [3]float32, r xbotRing) uint16 {
		pos = append(pos, p)
		nrm = append(nrm, n)
		js = append(js, [4]uint16{uint16(r.bone), uint16(r.bone2), 0, 0})
		w := [4]float32{r.w, 1 - r.w, 0, 0}
		if r.bone == r.bone2 {
			w = [4]float32{1, 0, 0, 0}
		}
		ws = append(ws, w)
		return uint16(len(pos) - 1)
	}
	for _, chain := range xbotChains() {
		first := make([]uint16, len(chain))
		for i, r := range chain {
			first[i] = uint16(len(pos))
			for s := 0; s < xbotSegments; s++ {
				th := 2 * math.Pi * float64(s) / xbotSegments
				c, sn := float32(math.Cos(th)), float32(math.Sin(th))
				n := mgl32.Vec3{c / r.a, 0, sn / r.b}.Normalize()
				vert([3]float32{r.x + r.a*c, r.y, r.z + r.b*sn}, n, r)
			}
		}
		for i := 0; i+1 < len(chain); i++ {
			for s := 0; s < xbotSegments; s++ {
				a, b := first[i]+uint16(s), first[i]+uint16((s+1)%xbotSegments)
				c, d := first[i+1]+uint16(s), first[i+1]+uint16((s+1)%xbotSegments)
				idx = append(idx, a, c, b, b, c, d)
			}
		}
		for k, end := range []int{0, len(chain) - 1} {
			r := chain[end]
			n := [3]float32{0, 1, 0}
			if (k == 0) == (chain[0].y < chain[len(chain)-1].y) {
				n[1] = -1
			}
			m := vert([3]float32{r.x, r.y, r.z}, n, r)
			for s := 0; s < xbotSegments; s++ {
				idx = append(idx, m, first[end]+uint16(s), first[end]+uint16((s+1)%xbotSegments))
			}
		}
	}
	prim := &gltf.Primitive{Indices: gltf.Index(modeler.WriteIndices(doc, idx)), Material: &mat,
		Attributes: gltf.PrimitiveAttributes{gltf.POSITION: modeler.WritePosition(doc, pos), gltf.NORMAL: modeler.WriteNormal(doc, nrm), gltf.JOINTS_0: modeler.WriteJoints(doc, js), gltf.WEIGHTS_0: modeler.WriteWeights(doc, ws)}}
	doc.Meshes = []*gltf.Mesh{{Name: "Body", Primitives: []*gltf.Primitive{prim}}}
	doc.Nodes = append(doc.Nodes, &gltf.Node{Name: "Alpha_Surface", Mesh: gltf.Index(0), Skin: gltf.Index(0),
		Matrix: gltf.DefaultMatrix, Rotation: gltf.DefaultRotation, Scale: gltf.DefaultScale})
	doc.Scenes = []*gltf.Scene{{Nodes: []int{armIdx, len(doc.Nodes) - 1}}}
	doc.Scene = gltf.Index(0)

	quatX := func(deg float64) [4]float32 {
		a := deg * math.Pi / 360
		return [4]float32{float32(math.Sin(a)), 0, 0, float32(math.Cos(a))}
	}
	a := &gltf.Animation{Name: "mixamo.com|Walk"}
	add := func(node int, path gltf.TRSProperty, in []float32, out any) {
		a.Samplers = append(a.Samplers, &gltf.AnimationSampler{Input: modeler.WriteAccessor(doc, gltf.TargetNone, in),
			Output: modeler.WriteAccessor(doc, gltf.TargetNone, out), Interpolation: gltf.InterpolationLinear})
		a.Channels = append(a.Channels, &gltf.AnimationChannel{Sampler: len(a.Samplers) - 1, Target: gltf.AnimationChannelTarget{Node: gltf.Index(node), Path: path}})
	}
	five := []float32{0, 0.25, 0.5, 0.75, 1}
	add(0, gltf.TRSTranslation, five, [][3]float32{{0, 100, 0}, {0, 98, 0}, {0, 100, 0}, {0, 98, 0}, {0, 100, 0}})
	add(10, gltf.TRSRotation, five, [][4]float32{quatX(25), quatX(0), quatX(-25), quatX(0), quatX(25)})
	add(13, gltf.TRSRotation, five, [][4]float32{quatX(-25), quatX(0), quatX(25), quatX(0), quatX(-25)})
	add(11, gltf.TRSRotation, five, [][4]float32{quatX(30), quatX(15), quatX(0), quatX(5), quatX(30)})
	add(14, gltf.TRSRotation, five, [][4]float32{quatX(0), quatX(5), quatX(30), quatX(15), quatX(0)})
	doc.Animations = []*gltf.Animation{a}

	path := filepath.Join(dir, "xbot.glb")
	if err := gltf.SaveBinary(doc, path); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestXbotFixtureFile writes the fixture where -xbot-out says (and skips
// without it).
func TestXbotFixtureFile(t *testing.T) {
	if *xbotOut == "" {
		t.Skip("no -xbot-out file")
	}
	p := writeXbot(t, t.TempDir())
	ch, err := Load(p)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ch.CapeSettings(CapeFit{}); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(*xbotOut, b, 0o644); err != nil {
		t.Fatal(err)
	}
}
