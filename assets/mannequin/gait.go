package mannequin

import (
	"fmt"
	"math"
	"strings"

	"github.com/g3n/engine/math32"
)

// Gait is a locomotion cycle.
type Gait int

// The gaits. Idle breathes in place, Walk and Run move forward, Turn steps
// in place while turning left.
const (
	Idle Gait = iota
	Walk
	Run
	Turn
)

var gaitNames = [...]string{"idle", "walk", "run", "turn"}

// String returns the gait's lower-case name.
func (g Gait) String() string {
	if g < 0 || int(g) >= len(gaitNames) {
		return fmt.Sprintf("Gait(%d)", int(g))
	}
	return gaitNames[g]
}

// ParseGait returns the gait called s ("idle", "walk", "run" or "turn").
func ParseGait(s string) (Gait, error) {
	for i, n := range gaitNames {
		if strings.EqualFold(s, n) {
			return Gait(i), nil
		}
	}
	return 0, fmt.Errorf("mannequin: unknown gait %q, want one of %v", s, gaitNames)
}

// SetGait switches to g; the pose blends over BlendTime.
func (m *Mannequin) SetGait(g Gait) error {
	if g < 0 || int(g) >= len(gaits) {
		return fmt.Errorf("mannequin: SetGait(%d): unknown gait", int(g))
	}
	m.gait = g
	return nil
}

// Gait returns the gait being played (or blended toward).
func (m *Mannequin) Gait() Gait { return m.gait }

// gaitParams are the keyframe-curve amplitudes of one gait. Blending two
// gaits blends these numbers, so every in-between pose is a valid pose.
type gaitParams struct {
	freq     float32 // stride cycles per second (two steps per cycle)
	speed    float32 // forward speed of the root, m/s
	turnRate float32 // yaw rate of the root, rad/s
	hip      float32 // thigh swing amplitude, rad
	knee     float32 // extra knee bend in swing, rad
	kneeBase float32 // knee bend at all times, rad
	arm      float32 // upper-arm swing amplitude, rad
	elbow    float32 // elbow bend, rad
	lean     float32 // forward lean of the spine, rad
	bob      float32 // flight height of a run, m
	twist    float32 // pelvis yaw amplitude, rad
	breathe  float32 // chest pitch amplitude of breathing, rad
}

var gaits = [...]gaitParams{
	Idle: {freq: 0.25, breathe: 0.03, elbow: 0.1, kneeBase: 0.03},
	Walk: {freq: 0.9, speed: 1.4, hip: 0.42, knee: 0.75, kneeBase: 0.08, arm: 0.38, elbow: 0.25,
		lean: 0.05, twist: 0.08},
	Run: {freq: 1.35, speed: 3.6, hip: 0.7, knee: 1.5, kneeBase: 0.35, arm: 0.65, elbow: 1.35,
		lean: 0.22, bob: 0.04, twist: 0.12},
	Turn: {freq: 0.8, turnRate: 1.2, hip: 0.15, knee: 0.5, kneeBase: 0.06, arm: 0.1, elbow: 0.2,
		twist: 0.05},
}

func lerp(a, b, k float32) float32 { return a + (b-a)*k }

func (p *gaitParams) blend(t *gaitParams, k float32) {
	p.freq = lerp(p.freq, t.freq, k)
	p.speed = lerp(p.speed, t.speed, k)
	p.turnRate = lerp(p.turnRate, t.turnRate, k)
	p.hip = lerp(p.hip, t.hip, k)
	p.knee = lerp(p.knee, t.knee, k)
	p.kneeBase = lerp(p.kneeBase, t.kneeBase, k)
	p.arm = lerp(p.arm, t.arm, k)
	p.elbow = lerp(p.elbow, t.elbow, k)
	p.lean = lerp(p.lean, t.lean, k)
	p.bob = lerp(p.bob, t.bob, k)
	p.twist = lerp(p.twist, t.twist, k)
	p.breathe = lerp(p.breathe, t.breathe, k)
}

func sin(x float64) float32 { return float32(math.Sin(x)) }
func cos(x float64) float32 { return float32(math.Cos(x)) }

// applyPose sets every joint's rotation (and the pelvis height) from the
// blended parameters at the current phase. Angles follow the right-hand
// rule: a negative X rotation swings a hanging limb forward (+Z).
func (m *Mannequin) applyPose() {
	p := &m.pose
	th := 2 * math.Pi * m.phase
	n := m.nodes

	// Pelvis: yaw twist; its height is set below from the legs.
	n[NodePelvis].SetRotation(0, p.twist*sin(th), 0)
	n[NodeSpine].SetRotation(p.lean*0.5+p.breathe*sin(2*math.Pi*m.time*0.25), -p.twist*0.6*sin(th), 0)
	n[NodeChest].SetRotation(p.lean*0.5+p.breathe*sin(2*math.Pi*m.time*0.25+0.5), -p.twist*0.6*sin(th), 0)
	n[NodeNeck].SetRotation(-p.lean*0.6, 0, 0)
	n[NodeHead].SetRotation(-p.lean*0.3, 0, 0)

	// Legs: left leads at phase 0; the right is half a cycle behind.
	leg := func(thigh, shin, foot string, ph float64) {
		swing := p.hip * sin(ph) // > 0: thigh forward
		// The knee flexes while the leg swings forward (cos > 0) and
		// stays nearly straight in stance.
		c := 0.5 + 0.5*cos(ph-0.4)
		knee := p.kneeBase + p.knee*c*c
		n[thigh].SetRotation(-swing-p.lean*0.5, 0, 0)
		n[shin].SetRotation(knee, 0, 0)
		// Keep the sole roughly level.
		n[foot].SetRotation(-(knee-swing)*0.6, 0, 0)
	}
	leg(NodeThighL, NodeShinL, NodeFootL, th)
	leg(NodeThighR, NodeShinR, NodeFootR, th+math.Pi)

	// Arms swing against the legs and hang slightly away from the body.
	arm := func(upper, fore string, ph float64, side float32) {
		swing := -p.arm * sin(ph) // left arm back while the left leg is forward
		n[upper].SetRotation(-swing-p.lean*0.4, 0, side*(0.1+p.arm*0.1))
		n[fore].SetRotation(-p.elbow-0.3*p.arm*(1+sin(ph)), 0, 0)
	}
	arm(NodeUpperArmL, NodeForearmL, th, 1)
	arm(NodeUpperArmR, NodeForearmR, th+math.Pi, -1)

	// Plant the feet: the pelvis sits so the lower foot touches y = 0,
	// which gives the walk its natural bob; a run adds a flight phase.
	low := min(m.footLow(NodeThighL, NodeShinL, NodeFootL), m.footLow(NodeThighR, NodeShinR, NodeFootR))
	n[NodePelvis].SetPosition(0, -low+p.bob*(0.5-0.5*cos(2*th)), 0)
}

// footLow returns the lowest point of a foot capsule relative to the pelvis
// origin (the pelvis only yaws, so this is a height).
func (m *Mannequin) footLow(thigh, shin, foot string) float32 {
	var mt math32.Matrix4
	mt.Identity()
	for _, name := range []string{thigh, shin, foot} {
		nd := m.nodes[name]
		nd.UpdateMatrix()
		ml := nd.Matrix()
		mt.Multiply(&ml)
	}
	c := &m.footCapsule
	a, b := c.A, c.B
	a.ApplyMatrix4(&mt)
	b.ApplyMatrix4(&mt)
	return min(a.Y, b.Y) - c.Radius
}
