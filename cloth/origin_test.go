package cloth_test

import (
	"math"
	"testing"

	"github.com/drape3d/drape/verlet3d"

	"github.com/go-gl/mathgl/mgl32"
)

// A cape on a character walking 5 km (and 10 km) from the origin behaves
// as at home with no help from the game: the World keeps its frame near
// the cape (verlet3d.World.Origin), so the largest structural strain and
// the deepest particle inside the body stay within 10% of the walk at the
// origin. A game that keeps a floating origin of its own
// (World.ShiftOrigin every 2 m of walking) gets the same. The walk covers
// 15 m, so the World moves its frame on the way.
func TestCapeFarFromOrigin(t *testing.T) {
	// run walks from start; with every > 0 the game moves its origin to
	// the character whenever it is more than every meters from it.
	run := func(start [2]float64, every float64) capeRun {
		w := newWorld(t, capeConfig)
		k := newWalker(t, w)
		// The game's own position in float64, its coordinates = game - origin.
		var origin [2]float64
		heading := 0.0
		gx, gz := start[0], start[1]
		pose := func(tm float64) {
			k.swing = float32(2 * math.Pi * 1.8 * tm)
			bob := float64(0.03 * math.Sin(float64(4*math.Pi*1.8*tm)))
			k.place(mgl32.Vec3{float32(gx - origin[0]), float32(bob), float32(gz - origin[1])}, float32(heading))
		}
		pose(0)
		c := newCape(t, w, k, nil)
		var r capeRun
		for i := 0; i < 600; i++ {
			tm := float64(i) / 60
			heading += 0.5 / 60
			gx += float64(1.5 / 60 * math.Sin(heading))
			gz += float64(1.5 / 60 * math.Cos(heading))
			if every > 0 && math.Hypot(gx-origin[0], gz-origin[1]) > every {
				off := mgl32.Vec3{float32(gx - origin[0]), 0, float32(gz - origin[1])}
				if err := w.ShiftOrigin(off); err != nil {
					t.Fatal(err)
				}
				origin[0] += float64(off[0])
				origin[1] += float64(off[2])
			}
			pose(tm)
			r.frame(w, c, k)
		}
		if n := c.NumTeleports(); n != 0 {
			t.Errorf("%d teleports", n)
		}
		if o := w.Origin(); start != ([2]float64{}) && math.Hypot(o[0]+origin[0]-gx, o[2]+origin[1]-gz) > 2*verlet3d.RecenterDistance {
			t.Errorf("the World's frame is at %v, the character at (%.1f, %.1f)", o, gx-origin[0], gz-origin[1])
		}
		return r
	}
	home := run([2]float64{0, 0}, 0)
	t.Logf("home: %v", home)
	for _, c := range []struct {
		name  string
		start [2]float64
		every float64
	}{
		{"x = 5 km", [2]float64{5000, 0}, 0},
		{"10 km, 10 km", [2]float64{1e4, 1e4}, 0},
		{"10 km, the game's floating origin", [2]float64{1e4, 1e4}, 2},
	} {
		r := run(c.start, c.every)
		t.Logf("%s: %v", c.name, r)
		if r.strain >= 0.1 || r.pen > 1e-3 || r.pin > 1e-4 {
			t.Errorf("%s: %v", c.name, r)
		}
		if math.Abs(float64(r.strain-home.strain)) > 0.1*float64(home.strain) {
			t.Errorf("%s: strain %.2f%%, at home %.2f%%, want within 10%%", c.name, float32(100*r.strain), float32(100*home.strain))
		}
		if r.pen > float32(1.1*home.pen)+1e-6 {
			t.Errorf("%s: %.2g m inside the body, at home %.2g m, want within 10%%", c.name, r.pen, home.pen)
		}
	}
}
