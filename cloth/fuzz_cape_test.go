package cloth_test

import (
	"testing"

	"github.com/drape3d/drape/cloth"
	"github.com/drape3d/drape/internal/checks"
	"github.com/drape3d/drape/internal/vecmath"
	"github.com/drape3d/drape/verlet3d"
	"github.com/go-gl/mathgl/mgl32"
)

// FuzzCape builds a cape from fuzzed cloth.CapeSettings (sizes, mass,
// compliances, slack, lag, carry, the back direction, anchors and body)
// on a walking character, then walks it with fuzzed speeds and turns,
// teleports it, calls Teleport and SetCarry and resets the World. A bad
// setting must fail with an error naming the field and leave the World as
// it was; an accepted one must never put NaN into it.
//
//	go test ./cloth -run '^$' -fuzz '^FuzzCape$' -fuzztime 5m -parallel 1
func FuzzCape(f *testing.F) {
	f.Add([]byte{})
	f.Add([]byte("\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a"))
	f.Add([]byte("\x3f\x10\x20\x30\x40\x50\x60\x70\x80\x90\xa0\xb0\x00\x01\x02\x03"))
	f.Fuzz(func(t *testing.T, data []byte) {
		in := checks.NewInput(data)
		w := checks.World(t, in, verlet3d.DefaultConfig(), true)
		k := newWalker(t, w)
		s := k.settings()
		flags := in.U8()
		if flags&1 != 0 {
			s.Width, s.Length, s.Spacing, s.Mass = in.Maybe(s.Width), in.Maybe(s.Length), in.Maybe(s.Spacing), in.Maybe(s.Mass)
		}
		if flags&2 != 0 {
			s.Thickness, s.Shear, s.Bend, s.TetherSlack = in.Maybe(s.Thickness), in.Maybe(s.Shear), in.Maybe(s.Bend), in.Maybe(s.TetherSlack)
		}
		if flags&4 != 0 {
			s.MaxLag, s.TeleportDistance, s.Standoff = in.Maybe(s.MaxLag), in.Maybe(s.TeleportDistance), in.Maybe(s.Standoff)
			s.CarryLinear, s.CarryAngular = in.Maybe(0), in.Maybe(0)
		}
		if flags&8 != 0 {
			s.Back = in.Vec()
		}
		if flags&16 != 0 {
			n := in.Intn(4)
			s.Anchors = nil
			for i := 0; i < n; i++ {
				s.Anchors = append(s.Anchors, verlet3d.Pose{Position: in.Vec(), Rotation: mgl32.Quat{W: in.Maybe(1), V: in.Vec()}})
			}
		}
		if flags&32 != 0 {
			s.Body = []verlet3d.Capsule{{A: in.Vec(), B: in.Vec(), Radius: in.Maybe(0.1)}}
		}
		checks.Tracef(t, "CapeSettings %+v", s)
		// Big capes are valid but slow to fuzz: check the settings only.
		// Width 0 takes 1.6 times the anchors' line.
		width := float64(s.Width)
		if width == 0 {
			for i := 1; i < len(s.Anchors); i++ {
				width += float64(1.6 * float64(vecmath.Len(s.Anchors[i].Position.Sub(s.Anchors[i-1].Position))))
			}
		}
		if sp := float64(s.Spacing); sp > 0 && (float64(s.Length)/sp > 60 || width/sp > 60) {
			// Still, NewCape must refuse what is too big at once.
			if width/sp*float64(s.Length)/sp > 1<<23 {
				if _, err := cloth.NewCape(w, s); err == nil {
					t.Fatalf("NewCape accepted a cape of %.3g x %v m at Spacing %v", width, s.Length, s.Spacing)
				}
			}
			return
		}
		before := checks.Snapshot(w)
		c, err := cloth.NewCape(w, s)
		if err != nil {
			checks.MustName(t, err, "NewCape", "CapeSettings.", "Settings.", "fewer than")
			before.Same(t, w, "NewCape")
			return
		}
		checks.CheckWorld(t, w, "after building")
		body := k.body
		if len(c.Settings().Body) != len(body) {
			body = nil // fuzzed body parts: SetPose keeps them as built
		}
		anchors := make([]verlet3d.Pose, len(s.Anchors))
		g := walk{}
		tm := float32(0)
		for op := 0; op < 40 && in.Len() > 0; op++ {
			switch in.Intn(6) {
			case 0, 1, 2:
				g.speed, g.turn = float32(in.Intn(12)), float32(in.Intn(8))-4
			case 3:
				v := in.Vec()
				checks.Tracef(t, "teleport by %v", v)
				if vecmath.Finite(v) && vecmath.Len(v) < 1e6 {
					g.pos = g.pos.Add(v)
				}
			case 4:
				c.Teleport()
			default:
				l, a := in.Maybe(0.5), in.Maybe(0.5)
				checks.Tracef(t, "SetCarry(%v, %v)", l, a)
				if err := c.SetCarry(l, a); err != nil {
					checks.MustName(t, err, "SetCarry", "carry", "Carry")
				}
			}
			for i := 0; i < 3; i++ {
				tm += 1.0 / 60
				g.step(k, 1.0/60, tm)
				// Fuzzed anchors ride with the walker's root.
				for j, a := range s.Anchors {
					anchors[j] = verlet3d.Pose{Position: k.ref.Position.Add(vecmath.QuatRotate(k.ref.Rotation, a.Position)), Rotation: k.ref.Rotation}
				}
				if flags&16 == 0 {
					copy(anchors, k.anchors)
				}
				c.SetPose(k.ref, anchors, body)
				w.Step()
				checks.CheckWorld(t, w, "frame")
			}
		}
		checks.CheckWorld(t, w, "after the sequence")
		checks.SteadyAllocs(t, w)
	})
}
