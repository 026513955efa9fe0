package scene_test

import (
	"testing"

	"github.com/drape3d/drape/assets/mannequin"
	"github.com/drape3d/drape/scene"
	"github.com/drape3d/drape/verlet3d"
	"github.com/g3n/engine/math32"
)

// The README's cape, built line for line as the README shows (DefaultConfig,
// DefaultCapeSettings, three anchors from the left shoulder to the right,
// Standoff 0.17, one spine capsule of 0.13 m, MaxLag 1.5, carry 0.3), on
// the walking mannequin: 10 s of walking and 5 s of running keep every link
// under 10% strain, the pins on their bones and the cloth out of the body.
// (Without the carry line the run reaches 9.97%, at the limit.) The same
// walk 5 km from the origin matches it.
func TestREADMECapeOnWalkingMannequin(t *testing.T) {
	home := readmeCapeWalk(t, math32.Vector3{})
	// 5 km out the World keeps its own frame near the cape
	// (verlet3d.World.Origin): the same strain and depth within 10%.
	far := readmeCapeWalk(t, math32.Vector3{X: 5000})
	for i := range home {
		if d := far[i].strain - home[i].strain; d > 0.1*home[i].strain || d < -0.1*home[i].strain {
			t.Errorf("phase %d at x = 5 km: strain %.2f%%, at the origin %.2f%%, want within 10%%", i, float32(100*far[i].strain), float32(100*home[i].strain))
		}
		if far[i].pen > float32(1.1*home[i].pen)+1e-6 {
			t.Errorf("phase %d at x = 5 km: %.2g m inside the spine, at the origin %.2g m, want within 10%%", i, far[i].pen, home[i].pen)
		}
	}
}

type readmeCapeRun struct{ strain, pin, pen float32 }

// readmeCapeWalk runs the README's cape on the mannequin placed at at,
// walking then running, and returns each phase's worst.
func readmeCapeWalk(t *testing.T, at math32.Vector3) (out [2]readmeCapeRun) {
	m, err := mannequin.New(mannequin.Options{Steer: 1.0 / 3})
	if err != nil {
		t.Fatal(err)
	}
	m.SetPlacement(at, 0)
	m.Root.UpdateMatrixWorld()
	bone := func(name string) *scene.Anchor {
		n, err := m.Node(name)
		if err != nil {
			t.Fatal(err)
		}
		return &scene.Anchor{Node: n}
	}

	world, err := verlet3d.NewWorld(verlet3d.DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	defer world.Close()
	driver := scene.NewDriver(world)
	neck, lSh, rSh := bone(mannequin.NodeNeck), bone(mannequin.NodeShoulderL), bone(mannequin.NodeShoulderR)
	spine := bone(mannequin.NodeSpine).Node
	cs := scene.DefaultCapeSettings()
	cs.Anchors = []scene.Anchor{*lSh, *neck, *rSh}
	cs.Standoff = 0.17
	cs.Body = []scene.BodyPart{{Node: spine, B: math32.Vector3{Y: 0.3}, Radius: 0.13}}
	cs.MaxLag = 1.5
	cs.CarryLinear, cs.CarryAngular = 0.3, 0.3
	cape, err := scene.NewCape(world, cs)
	if err != nil {
		t.Fatal(err)
	}
	cape.Attach(driver)

	for k, phase := range []struct {
		gait mannequin.Gait
		secs int
	}{{mannequin.Walk, 10}, {mannequin.Run, 5}} {
		if err := m.SetGait(phase.gait); err != nil {
			t.Fatal(err)
		}
		var strain, pin, pen float32
		for i := 0; i < 60*phase.secs; i++ {
			m.Update(1.0 / 60)
			m.Root.UpdateMatrixWorld()
			driver.Update(1.0 / 60)
			strain = max(strain, world.MaxLinkStrain())
			pin = max(pin, cape.PinError())
			pen = max(pen, cape.Penetration())
		}
		t.Logf("at %v, %v: max link strain %.2f%%, pin error %.2g m, deepest %.2g m inside the spine", at, phase.gait, float32(100*strain), pin, pen)
		if strain >= 0.1 {
			t.Errorf("at %v, %v: link strain %.1f%%, want < 10%%", at, phase.gait, float32(100*strain))
		}
		if pin > 1e-4 || pen > 1e-3 {
			t.Errorf("at %v, %v: pins %.2g m off their bones (want <= 1e-4), cloth %.2g m inside the body (want <= 1e-3)", at, phase.gait, pin, pen)
		}
		out[k] = readmeCapeRun{strain, pin, pen}
	}
	if n := world.Stats().NonFiniteResets; n != 0 {
		t.Errorf("%d non-finite resets", n)
	}
	return out
}
