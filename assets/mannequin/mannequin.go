package mannequin

import (
	"fmt"
	"math"
	"sort"

	"github.com/g3n/engine/core"
	"github.com/g3n/engine/geometry"
	"github.com/g3n/engine/graphic"
	"github.com/g3n/engine/material"
	"github.com/g3n/engine/math32"
)

// Node names of the hierarchy. L is the character's left (+X).
const (
	NodeRoot      = "root"
	NodePelvis    = "pelvis"
	NodeSpine     = "spine"
	NodeChest     = "chest"
	NodeNeck      = "neck"
	NodeHead      = "head"
	NodeShoulderL = "shoulder.L"
	NodeShoulderR = "shoulder.R"
	NodeUpperArmL = "upperarm.L"
	NodeUpperArmR = "upperarm.R"
	NodeForearmL  = "forearm.L"
	NodeForearmR  = "forearm.R"
	NodeHandL     = "hand.L"
	NodeHandR     = "hand.R"
	NodeThighL    = "thigh.L"
	NodeThighR    = "thigh.R"
	NodeShinL     = "shin.L"
	NodeShinR     = "shin.R"
	NodeFootL     = "foot.L"
	NodeFootR     = "foot.R"
)

// Capsule is one body part: every point within Radius of the segment A-B,
// with A and B in the local space of the node called Node. A == B is a
// sphere.
type Capsule struct {
	Node   string         // name of the node the part moves with
	A, B   math32.Vector3 // segment ends in node-local space, m
	Radius float32        // m
}

// Options configure New. The zero value gives the default mannequin.
type Options struct {
	// Color of the body. Default a light wood tone.
	Color math32.Color
	// JointColor of the spheres at the joints. Default a darker wood tone.
	JointColor math32.Color
	// Steer is the path curvature in 1/m while walking or running: the
	// mannequin walks a circle of radius 1/Steer. 0 (default) walks straight.
	Steer float32
	// InPlace keeps the root where it is: the limbs move but Update does not
	// translate or turn the character.
	InPlace bool
}

// Mannequin is the animated character. Add Root to a scene, call Update
// every frame, then UpdateMatrixWorld on the scene (or Root) before reading
// node transforms.
type Mannequin struct {
	// Root is the placement node on the ground, facing +Z in its own space.
	Root *core.Node

	opts     Options
	nodes    map[string]*core.Node
	capsules []Capsule
	// footCapsule is the foot part, for planting the feet.
	footCapsule Capsule

	gait    Gait
	pose    gaitParams // current, blended toward the target gait
	phase   float64    // cycle phase in cycles, [0, 1)
	heading float32    // yaw of Root about +Y, rad
	time    float64
	// BlendTime is how long a gait change takes to blend, in seconds
	// (exponential, this is the time constant). Default 0.35.
	BlendTime float32
}

// joint describes one node of the hierarchy at its rest pose.
type joint struct {
	name, parent string
	at           math32.Vector3 // position in the parent, m
}

// The skeleton: a 1.8 m figure standing on y = 0, facing +Z.
var joints = []joint{
	{NodePelvis, NodeRoot, v3(0, 0.95, 0)},
	{NodeSpine, NodePelvis, v3(0, 0.08, 0)},
	{NodeChest, NodeSpine, v3(0, 0.20, 0)},
	{NodeNeck, NodeChest, v3(0, 0.24, 0)},
	{NodeHead, NodeNeck, v3(0, 0.08, 0)},
	{NodeShoulderL, NodeChest, v3(0.15, 0.19, 0)},
	{NodeShoulderR, NodeChest, v3(-0.15, 0.19, 0)},
	{NodeUpperArmL, NodeShoulderL, v3(0.06, 0, 0)},
	{NodeUpperArmR, NodeShoulderR, v3(-0.06, 0, 0)},
	{NodeForearmL, NodeUpperArmL, v3(0, -0.28, 0)},
	{NodeForearmR, NodeUpperArmR, v3(0, -0.28, 0)},
	{NodeHandL, NodeForearmL, v3(0, -0.25, 0)},
	{NodeHandR, NodeForearmR, v3(0, -0.25, 0)},
	{NodeThighL, NodePelvis, v3(0.095, -0.05, 0)},
	{NodeThighR, NodePelvis, v3(-0.095, -0.05, 0)},
	{NodeShinL, NodeThighL, v3(0, -0.42, 0)},
	{NodeShinR, NodeThighR, v3(0, -0.42, 0)},
	{NodeFootL, NodeShinL, v3(0, -0.40, 0)},
	{NodeFootR, NodeShinR, v3(0, -0.40, 0)},
}

func v3(x, y, z float32) math32.Vector3 { return math32.Vector3{X: x, Y: y, Z: z} }

// The body parts, in node-local space. They overlap at the joints like a
// real mannequin's, so no gap opens when limbs bend.
var bodyParts = []Capsule{
	{NodePelvis, v3(-0.075, 0, 0), v3(0.075, 0, 0), 0.12},
	{NodeSpine, v3(0, 0.02, 0), v3(0, 0.14, 0), 0.11},
	{NodeChest, v3(-0.08, 0.07, -0.005), v3(0.08, 0.07, -0.005), 0.125},
	{NodeNeck, v3(0, -0.02, 0), v3(0, 0.1, 0), 0.05},
	{NodeHead, v3(0, 0.12, 0.01), v3(0, 0.12, 0.01), 0.11},
	{NodeUpperArmL, v3(0, 0, 0), v3(0, -0.28, 0), 0.05},
	{NodeUpperArmR, v3(0, 0, 0), v3(0, -0.28, 0), 0.05},
	{NodeForearmL, v3(0, 0, 0), v3(0, -0.24, 0), 0.043},
	{NodeForearmR, v3(0, 0, 0), v3(0, -0.24, 0), 0.043},
	{NodeHandL, v3(0, -0.06, 0), v3(0, -0.06, 0), 0.05},
	{NodeHandR, v3(0, -0.06, 0), v3(0, -0.06, 0), 0.05},
	{NodeThighL, v3(0, 0, 0), v3(0, -0.42, 0), 0.075},
	{NodeThighR, v3(0, 0, 0), v3(0, -0.42, 0), 0.075},
	{NodeShinL, v3(0, 0, 0), v3(0, -0.40, 0), 0.055},
	{NodeShinR, v3(0, 0, 0), v3(0, -0.40, 0), 0.055},
	{NodeFootL, v3(0, -0.04, -0.03), v3(0, -0.04, 0.13), 0.04},
	{NodeFootR, v3(0, -0.04, -0.03), v3(0, -0.04, 0.13), 0.04},
}

// New builds a mannequin standing at the origin, facing +Z, in the Idle gait.
func New(opts Options) (*Mannequin, error) {
	if f := float64(opts.Steer); math.IsNaN(f) || math.IsInf(f, 0) {
		return nil, fmt.Errorf("mannequin: Options.Steer = %v, want a finite curvature in 1/m", opts.Steer)
	}
	if opts.Color == (math32.Color{}) {
		opts.Color = math32.Color{R: 0.80, G: 0.66, B: 0.48}
	}
	if opts.JointColor == (math32.Color{}) {
		opts.JointColor = math32.Color{R: 0.55, G: 0.42, B: 0.30}
	}
	m := &Mannequin{
		Root:      core.NewNode(),
		opts:      opts,
		nodes:     map[string]*core.Node{},
		capsules:  append([]Capsule(nil), bodyParts...),
		pose:      gaits[Idle],
		BlendTime: 0.35,
	}
	for _, c := range m.capsules {
		if c.Node == NodeFootL {
			m.footCapsule = c
		}
	}
	m.Root.SetName(NodeRoot)
	m.nodes[NodeRoot] = m.Root
	for _, j := range joints {
		n := core.NewNode()
		n.SetName(j.name)
		n.SetPositionVec(&j.at)
		m.nodes[j.parent].Add(n)
		m.nodes[j.name] = n
	}
	body := material.NewStandard(&opts.Color)
	joint := material.NewStandard(&opts.JointColor)
	for _, c := range m.capsules {
		addCapsuleMesh(m.nodes[c.Node], c, body, joint)
	}
	m.applyPose()
	m.Root.UpdateMatrixWorld()
	return m, nil
}

// addCapsuleMesh adds a cylinder and two end spheres showing c to n.
func addCapsuleMesh(n *core.Node, c Capsule, body, joint material.IMaterial) {
	end := func(p math32.Vector3, mat material.IMaterial) {
		s := graphic.NewMesh(geometry.NewSphere(float64(c.Radius), 20, 14), mat)
		s.SetPositionVec(&p)
		n.Add(s)
	}
	d := c.B
	d.Sub(&c.A)
	l := d.Length()
	if l < 1e-6 {
		end(c.A, body)
		return
	}
	cyl := graphic.NewMesh(geometry.NewCylinder(float64(c.Radius), float64(l), 20, 1, false, false), body)
	mid := c.A
	mid.Add(&c.B).MultiplyScalar(0.5)
	cyl.SetPositionVec(&mid)
	d.Normalize()
	var q math32.Quaternion
	q.SetFromUnitVectors(&math32.Vector3{X: 0, Y: 1, Z: 0}, &d)
	cyl.SetQuaternionQuat(&q)
	n.Add(cyl)
	end(c.A, joint)
	end(c.B, joint)
}

// Node returns the node with the given name (the Node* constants); the error
// lists the names that exist.
func (m *Mannequin) Node(name string) (*core.Node, error) {
	if n, ok := m.nodes[name]; ok {
		return n, nil
	}
	return nil, fmt.Errorf("mannequin: no node %q (have %v)", name, m.NodeNames())
}

// NodeNames returns every node name, sorted.
func (m *Mannequin) NodeNames() []string {
	names := make([]string, 0, len(m.nodes))
	for n := range m.nodes {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Capsules returns the body parts in node-local space (a copy).
func (m *Mannequin) Capsules() []Capsule { return append([]Capsule(nil), m.capsules...) }

// Heading returns the yaw of the root about +Y in radians; 0 faces +Z.
func (m *Mannequin) Heading() float32 { return m.heading }

// SetPlacement puts the root at pos facing heading (radians about +Y, 0
// faces +Z): a jump or respawn. It does not blend.
func (m *Mannequin) SetPlacement(pos math32.Vector3, heading float32) {
	m.heading = heading
	m.Root.SetPositionVec(&pos)
	m.Root.SetRotation(0, heading, 0)
}

// Update advances the animation by dt seconds: blends toward the current
// gait, poses every joint and, unless Options.InPlace, moves the root forward
// at the gait's speed and turns it. Call the scene's UpdateMatrixWorld
// afterwards, before anything reads world transforms.
func (m *Mannequin) Update(dt float32) {
	if !(dt > 0) {
		return
	}
	m.time += float64(dt)
	k := float32(1)
	if m.BlendTime > 0 {
		k = 1 - float32(math.Exp(float64(-dt/m.BlendTime)))
	}
	m.pose.blend(&gaits[m.gait], k)
	m.phase += float64(m.pose.freq * dt)
	m.phase -= math.Floor(m.phase)
	m.applyPose()
	if m.opts.InPlace {
		return
	}
	turn := m.pose.turnRate + m.pose.speed*m.opts.Steer
	m.heading += turn * dt
	if m.heading > math.Pi {
		m.heading -= 2 * math.Pi
	} else if m.heading < -math.Pi {
		m.heading += 2 * math.Pi
	}
	p := m.Root.Position()
	s, c := math.Sincos(float64(m.heading))
	step := m.pose.speed * dt
	p.X += step * float32(s)
	p.Z += step * float32(c)
	m.Root.SetPositionVec(&p)
	m.Root.SetRotation(0, m.heading, 0)
}

// Speed returns the current forward speed of the root in m/s (blended).
func (m *Mannequin) Speed() float32 { return m.pose.speed }

// Point is a spot fixed in a named node's local space.
type Point struct {
	Node   string
	Offset math32.Vector3 // m, node-local
}

// CapeAnchors returns where a cape's top edge sits on this figure, from the
// right shoulder over the neck to the left shoulder (so the cape's front
// side faces the body: see cloth.CapeSettings.Anchors): just behind and above the chest, clear of every body part,
// and inside the shoulders so a cape of the default width (1.6 times this
// line, 0.4 m) hangs between the swinging arms: a wider cape is struck by
// the arms at a run and strains past 10% (19% measured at 0.5 m).
func (m *Mannequin) CapeAnchors() []Point {
	return []Point{
		{NodeShoulderR, v3(0.03, 0.0, -0.09)},
		{NodeNeck, v3(0, -0.02, -0.1)},
		{NodeShoulderL, v3(-0.03, 0.0, -0.09)},
	}
}
