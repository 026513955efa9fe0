package mannequin

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/g3n/engine/math32"
)

func worldPoint(m *Mannequin, node string, p math32.Vector3) math32.Vector3 {
	n, _ := m.Node(node)
	mw := n.MatrixWorld()
	p.ApplyMatrix4(&mw)
	return p
}

// lowestPoint returns the lowest point of any body capsule in world space.
func lowestPoint(m *Mannequin) float32 {
	low := float32(math.Inf(1))
	for _, c := range m.Capsules() {
		for _, e := range []math32.Vector3{c.A, c.B} {
			if y := worldPoint(m, c.Node, e).Y - c.Radius; y < low {
				low = y
			}
		}
	}
	return low
}

// Every gait keeps the feet on the ground: the lowest body point stays
// within a few centimeters of y = 0 and never sinks far below it.
func TestGaitsStayOnGround(t *testing.T) {
	for _, g := range []Gait{Idle, Walk, Run, Turn} {
		m, err := New(Options{})
		if err != nil {
			t.Fatal(err)
		}
		m.BlendTime = 0
		if err := m.SetGait(g); err != nil {
			t.Fatal(err)
		}
		lo, hi := float32(math.Inf(1)), float32(math.Inf(-1))
		for i := 0; i < 240; i++ {
			m.Update(1.0 / 60)
			m.Root.UpdateMatrixWorld()
			y := lowestPoint(m)
			lo = min(lo, y)
			hi = max(hi, y)
		}
		if lo < -1e-3 || hi > 0.045 {
			t.Errorf("%v: lowest body point between %.3f and %.3f m, want within [-0.001, 0.045] (feet planted; a run flies 4 cm)", g, lo, hi)
		}
	}
}

// Walking moves the root forward at the gait speed; a steered walk comes
// back round a circle of radius 1/Steer.
func TestWalkSpeedAndLoop(t *testing.T) {
	m, _ := New(Options{})
	m.BlendTime = 0
	m.SetGait(Walk)
	for i := 0; i < 120; i++ {
		m.Update(1.0 / 60)
	}
	if p := m.Root.Position(); math.Abs(float64(p.Z-2*gaits[Walk].speed)) > 1e-3 || math.Abs(float64(p.X)) > 1e-4 {
		t.Errorf("after 2 s of walking root at %v, want (0, 0, %v)", p, 2*gaits[Walk].speed)
	}

	m, _ = New(Options{Steer: 1.0 / 3})
	m.BlendTime = 0
	m.SetGait(Run)
	period := 2 * math.Pi * 3 / float64(gaits[Run].speed)
	steps := int(math.Round(period * 600))
	maxR := float32(0)
	for i := 0; i < steps; i++ {
		m.Update(1.0 / 600)
		p := m.Root.Position()
		// The circle's center is 3 m to the left (+X).
		d := math32.Vector3{X: p.X - 3, Z: p.Z}
		maxR = max(maxR, float32(math.Abs(float64(d.Length()-3))))
	}
	if p := m.Root.Position(); p.Length() > 0.05 || maxR > 0.01 {
		t.Errorf("after one loop root at %v (radius error %.3f), want back at the origin", p, maxR)
	}
}

func TestNodesAndCapsules(t *testing.T) {
	m, _ := New(Options{})
	for _, c := range m.Capsules() {
		if _, err := m.Node(c.Node); err != nil {
			t.Errorf("capsule on missing node: %v", err)
		}
		if c.Radius <= 0 {
			t.Errorf("capsule %s radius %v", c.Node, c.Radius)
		}
	}
	if _, err := m.Node("LeftShoulder"); err == nil || !strings.Contains(err.Error(), `no node "LeftShoulder"`) || !strings.Contains(err.Error(), "shoulder.L") {
		t.Errorf("unknown node error = %v, want one naming it and listing shoulder.L", err)
	}
	if _, err := ParseGait("sprint"); err == nil || !strings.Contains(err.Error(), `"sprint"`) {
		t.Errorf("ParseGait(sprint) error = %v", err)
	}
	if err := m.SetGait(Gait(9)); err == nil {
		t.Error("SetGait(9) succeeded")
	}
	if _, err := New(Options{Steer: float32(math.NaN())}); err == nil || !strings.Contains(err.Error(), "Steer") {
		t.Errorf("New with NaN Steer: error %v", err)
	}
	// The head is the top of a 1.8 m figure.
	head := worldPoint(m, NodeHead, math32.Vector3{Y: 0.12})
	if top := head.Y + 0.11; math.Abs(float64(top-1.8)) > 0.03 {
		t.Errorf("head top at %.3f m, want 1.8 m", top)
	}
}

func ExampleMannequin() {
	m, err := New(Options{Steer: 1.0 / 4}) // walk a circle of 4 m radius
	if err != nil {
		panic(err)
	}
	m.SetGait(Walk)
	for i := 0; i < 60; i++ {
		m.Update(1.0 / 60)
	}
	m.Root.UpdateMatrixWorld()
	shoulder, _ := m.Node(NodeShoulderL)
	var p math32.Vector3
	shoulder.WorldPosition(&p)
	fmt.Printf("%v at %.1f m/s, left shoulder %.1f m up\n", m.Gait(), m.Speed(), p.Y)
	// Output: walk at 1.3 m/s, left shoulder 1.4 m up
}
