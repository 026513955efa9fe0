package cloth_test

import (
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
)

// A cape on a character 10 km from the origin behaves as at home when the
// game keeps a floating origin (World.ShiftOrigin every 50 m of walking),
// and the control without it shows what float32 does out there. (The
// walk covers 15 m: shifting every 2 m exercises the shift mid-walk.)
func TestCapeFarFromOriginWithFloatingOrigin(t *testing.T) {
	// run walks from start; with every > 0 the game moves the origin to
	// the character whenever it is more than every meters from it, having
	// started with the origin at the start point.
	run := func(start [2]float64, every float64) capeRun {
		floating := every > 0
		w := newWorld(t, capeConfig)
		k := newWalker(t, w)
		// The game's own position in float64, physics = game - origin.
		var origin [2]float64
		if floating {
			origin = start
		}
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
			if floating && math.Hypot(gx-origin[0], gz-origin[1]) > every {
				off := mgl32.Vec3{float32(gx - origin[0]), 0, float32(gz - origin[1])}
				w.ShiftOrigin(off)
				origin[0] += float64(off[0])
				origin[1] += float64(off[2])
			}
			pose(tm)
			r.frame(w, c, k)
		}
		if n := c.NumTeleports(); n != 0 {
			t.Errorf("%d teleports", n)
		}
		return r
	}
	home := run([2]float64{0, 0}, 0)
	far := run([2]float64{1e4, 1e4}, 50)
	shifted := run([2]float64{1e4, 1e4}, 2) // seven shifts on the way
	control := run([2]float64{1e4, 1e4}, 0)
	t.Logf("home: %v", home)
	t.Logf("10 km, floating origin: %v", far)
	t.Logf("shifting on the way: %v", shifted)
	t.Logf("10 km, no floating origin: %v", control)
	for _, r := range []struct {
		name string
		r    capeRun
	}{{"10 km", far}, {"shifting", shifted}} {
		if r.r.strain >= 0.1 || r.r.pen > 1e-3 || r.r.pin > 1e-4 {
			t.Errorf("%s: %v", r.name, r.r)
		}
		if math.Abs(float64(r.r.strain-home.strain)) > 0.01 {
			t.Errorf("%s: strain %.2f%%, at home %.2f%%", r.name, float32(100*r.r.strain), float32(100*home.strain))
		}
	}
	if control.pin < 1e-4 && control.strain < home.strain+0.01 {
		t.Errorf("control at 10 km without a floating origin behaves as at home (%v): the test cannot tell", control)
	}
}
