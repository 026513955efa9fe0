package cloth_test

import (
	"testing"

	"github.com/drape3d/drape/cloth"
	"github.com/drape3d/drape/verlet3d"
	"github.com/go-gl/mathgl/mgl32"
)

// The demo's tablecloth (48 x 48, 1.9 m, 0.5 kg) dropped onto a box and a
// ball, with still-air drag from a WindForce, at DefaultConfig: it drapes,
// comes to rest and the World falls asleep within 15 s, so a game's table
// costs nothing once it rests. Without settling (SettleDamping 0) the edges
// hanging off the box still swing by millimetres at 15 s and keep the
// World awake: the check is not blind.
func TestDrapedTableclothSleeps(t *testing.T) {
	if testing.Short() {
		t.Skip("15 s of a 2,304-particle tablecloth, twice")
	}
	run := func(settle float32) (asleepAt float32, moving float32) {
		w := newWorld(t, func(c *verlet3d.Config) { c.SettleDamping = settle })
		floor, _ := verlet3d.NewPlane(mgl32.Vec3{}, mgl32.Vec3{0, 1, 0})
		box, _ := verlet3d.NewBox(mgl32.Vec3{-0.35, 0.4, 0}, mgl32.Vec3{0.3, 0.4, 0.3}, mgl32.QuatIdent())
		ball, _ := verlet3d.NewSphere(mgl32.Vec3{0.45, 0.35, 0}, 0.35)
		for _, c := range []verlet3d.Collider{floor, box, ball} {
			if err := w.AddCollider(c, verlet3d.ContactSettings{Friction: 0.6}); err != nil {
				t.Fatal(err)
			}
		}
		const n, side = 48, 1.9
		s := cloth.DefaultSettings()
		s.Cols, s.Rows = n, n
		s.Spacing = side / (n - 1)
		s.Mass = 0.5
		s.Origin = mgl32.Vec3{-side/2 - 0.05, 1.3, -side / 2}
		s.Down = mgl32.Vec3{0, 0, 1}
		s.Radius = 0.01
		g := newGrid(t, w, s)
		if _, err := cloth.NewWindForce(g, cloth.DefaultWindSettings()); err != nil {
			t.Fatal(err)
		}
		asleepAt = -1
		for i := 0; i < 900; i++ {
			start := append([]mgl32.Vec3(nil), w.Positions()...)
			w.Step()
			if asleepAt < 0 && w.Sleeping() {
				asleepAt = float32(i+1) / 60
			}
			if i == 899 {
				for k, x := range w.Positions() {
					moving = max(moving, x.Sub(start[k]).Len()*60)
				}
			}
		}
		return asleepAt, moving
	}
	if at, v := run(verlet3d.DefaultConfig().SettleDamping); at < 0 {
		t.Errorf("the tablecloth is still awake after 15 s (fastest particle %.3f m/s)", v)
	} else {
		t.Logf("asleep at %.1f s", at)
	}
	if at, v := run(0); at >= 0 || v < verlet3d.DefaultConfig().SleepSpeed {
		t.Errorf("without settling: asleep at %.1f s, fastest particle %.3f m/s at 15 s: want it awake and moving (the check is blind)", at, v)
	} else {
		t.Logf("without settling: awake at 15 s, fastest particle %.3f m/s", v)
	}
}
