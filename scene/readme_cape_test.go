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
// (Without the carry line the run reaches 9.97%, at the limit.)
func TestREADMECapeOnWalkingMannequin(t *testing.T) {
	m, err := mannequin.New(mannequin.Options{Steer: 1.0 / 3})
	if err != nil {
		t.Fatal(err)
	}
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

	for _, phase := range []struct {
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
		t.Logf("%v: max link strain %.2f%%, pin error %.2g m, deepest %.2g m inside the spine", phase.gait, 100*strain, pin, pen)
		if strain >= 0.1 {
			t.Errorf("%v: link strain %.1f%%, want < 10%%", phase.gait, 100*strain)
		}
		if pin > 1e-4 || pen > 1e-3 {
			t.Errorf("%v: pins %.2g m off their bones (want <= 1e-4), cloth %.2g m inside the body (want <= 1e-3)", phase.gait, pin, pen)
		}
	}
	if n := world.Stats().NonFiniteResets; n != 0 {
		t.Errorf("%d non-finite resets", n)
	}
}
