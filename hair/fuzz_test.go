package hair_test

import (
	"math"
	"strings"
	"testing"

	"github.com/drape3d/drape/hair"
	"github.com/drape3d/drape/internal/checks"
	"github.com/drape3d/drape/internal/vecmath"
	"github.com/drape3d/drape/verlet3d"
	"github.com/go-gl/mathgl/mgl32"
)

// FuzzHair grows hair from fuzzed hair.Settings and Head, then shakes,
// snaps and teleports the head through fuzzed frames, with fuzzed wind and
// style changes.
//
//	go test ./hair -run '^$' -fuzz '^FuzzHair$' -fuzztime 5m -parallel 1
func FuzzHair(f *testing.F) {
	f.Add([]byte{})
	f.Add([]byte("\x00\x00\x05\x00\x00\x01\x01\x01\x02\x02\x03\x03\x04\x05\x06"))
	f.Add([]byte("\x08\x03\xff\x81\x9c\x00\x00\x00\x00\x00\x00\x00\x01\x00\x02\x00\x03\x00\x04\x00"))
	f.Fuzz(func(t *testing.T, data []byte) {
		in := checks.NewInput(data)
		w := checks.World(t, in, hair.WorldConfig(), true)
		head := hair.DefaultHead()
		s := hair.DefaultSettings()
		s.Strands, s.Segments = 1+in.Intn(12), 1+in.Intn(10)
		flags := in.U8()
		if flags&1 != 0 {
			s.Strands, s.Segments = int(int32(uint32(in.U8())<<in.Intn(32))), int(int32(uint32(in.U8())<<in.Intn(32)))
		}
		if flags&2 != 0 {
			s.Length, s.LengthVariation, s.CapAngle, s.CapTilt = in.Maybe(s.Length), in.Maybe(s.LengthVariation), in.Maybe(s.CapAngle), in.Maybe(s.CapTilt)
			s.Parting, s.PartingWidth, s.Lift, s.Volume = in.Maybe(s.Parting), in.Maybe(s.PartingWidth), in.Maybe(s.Lift), in.Maybe(s.Volume)
		}
		if flags&4 != 0 {
			s.Mass, s.Radius, s.StretchCompliance, s.BendCompliance = in.Maybe(s.Mass), in.Maybe(s.Radius), in.Maybe(0), in.Maybe(s.BendCompliance)
		}
		if flags&8 != 0 {
			s.StyleStiffness, s.StyleTip, s.WindDrag, s.HeadFriction = in.Maybe(s.StyleStiffness), in.Maybe(s.StyleTip), in.Maybe(s.WindDrag), in.Maybe(s.HeadFriction)
			s.CarryLinear, s.CarryAngular, s.TeleportDistance = in.Maybe(s.CarryLinear), in.Maybe(s.CarryAngular), in.Maybe(s.TeleportDistance)
			s.FollowDamping = in.Maybe(s.FollowDamping)
		}
		if flags&16 != 0 {
			s.Group = uint32(in.U8()) << in.Intn(32)
			s.HeadMask = uint32(in.U8()) << in.Intn(32)
		}
		if flags&32 != 0 {
			head.Center, head.Radius = in.Vec(), in.Maybe(head.Radius)
			head.Rotation = mgl32.Quat{W: in.F32(), V: in.Vec()}
		}
		checks.Tracef(t, "Settings %+v Head %+v", s, head)
		if s.Strands > 0 && s.Segments > 0 && s.Strands < 1<<20 && s.Segments < 1<<10 && s.Strands*(s.Segments+1) > 5000 {
			// Big heads of hair are valid but slow to fuzz: check the
			// settings only.
			_ = s.Validate()
			return
		}
		before := checks.Snapshot(w)
		h, err := hair.New(w, head, s)
		if err != nil {
			checks.MustName(t, err, "hair.New", "Settings.", "Head.", "Strands", "Segments")
			before.Same(t, w, "hair.New")
			return
		}
		checks.CheckWorld(t, w, "after New")
		// The shakes compose rotations onto q: keep it unit length, as
		// the hair reads it (a quaternion near float32's range composed
		// with a turn overflows).
		c, q := head.Center, unitRotation(head.Rotation)
		for op := 0; op < 64 && in.Len() > 0; op++ {
			switch code := in.Intn(8); code {
			case 0, 1, 2:
				// A violent shake: up to ±1 rad and ±0.5 m per frame.
				d := vecmath.Scale(mgl32.Vec3{float32(int8(in.U8())), float32(int8(in.U8())), float32(int8(in.U8()))}, 0.5/128)
				a := float32(float32(int8(in.U8())) / 128)
				c, q = c.Add(d), vecmath.QuatMul(vecmath.QuatAxisAngle(a, vecmath.Normalize(mgl32.Vec3{0, 1, 0.3})), q)
				if err := h.SetHead(c, q); err != nil {
					t.Fatalf("SetHead(%v, %v): %v", c, q, err)
				}
				w.Advance(1.0 / 60)
				checks.CheckWorld(t, w, "frame")
			case 3:
				p, r := in.Vec(), mgl32.Quat{W: in.F32(), V: in.Vec()}
				checks.Tracef(t, "SetHead(%v, %v)", p, r)
				if err := h.SetHead(p, r); err != nil {
					checks.MustName(t, err, "SetHead", "center", "center", "rotation", "Center", "Rotation")
				} else {
					c, q = p, unitRotation(r)
				}
			case 4:
				p, r := in.Vec(), mgl32.Quat{W: in.F32(), V: in.Vec()}
				checks.Tracef(t, "Teleport(%v, %v)", p, r)
				if err := h.Teleport(p, r); err != nil {
					checks.MustName(t, err, "Teleport", "center", "center", "rotation", "Center", "Rotation")
				} else {
					c, q = p, unitRotation(r)
				}
			case 5:
				wd := verlet3d.Wind{Steady: in.Vec(), Gust: in.Maybe(0), GustPeriod: in.Maybe(2), Turbulence: in.Maybe(0), TurbulenceScale: in.Maybe(0.5)}
				checks.Tracef(t, "SetWind(%+v)", wd)
				if err := h.SetWind(wd); err != nil {
					checks.MustName(t, err, "SetWind", "Wind.")
				}
			case 6:
				a, b := in.F32(), in.F32()
				checks.Tracef(t, "SetStyle(%v, %v) / SetWindDrag", a, b)
				if err := h.SetStyle(a, b); err != nil {
					checks.MustName(t, err, "SetStyle", "stiffness", "tip", "Style")
				}
				if err := h.SetWindDrag(in.F32()); err != nil {
					checks.MustName(t, err, "SetWindDrag", "drag", "Drag")
				}
			default:
				dt := float32(in.Intn(100)) / 100
				checks.Tracef(t, "Advance(%v)", dt)
				w.Advance(dt)
				checks.CheckWorld(t, w, "long frame")
			}
		}
		checks.CheckWorld(t, w, "after the sequence")
		for _, v := range h.Tangents(nil) {
			if !vecmath.Finite(v) {
				t.Fatalf("tangent %v", v)
			}
		}
		checks.SteadyAllocs(t, w)
	})
}

// Regressions from issue 16 and the fuzz corpus (testdata/fuzz/FuzzHair):
// errors name the hair's own field, and the World is left as it was.
func TestAbsurdHairSettings(t *testing.T) {
	for _, tc := range []struct {
		name, want string
		edit       func(*hair.Settings, *hair.Head)
	}{
		{"269 million particles", "Strands x (Segments+1) = 1048576 x 257", func(s *hair.Settings, _ *hair.Head) { s.Strands, s.Segments = 1<<20, 256 }},
		{"head at 7.7e14 m (86eb60f9fffb8387)", "Head.Center = [0 0 7.7e+14]", func(_ *hair.Settings, h *hair.Head) { h.Center[2] = 7.7e14 }},
		{"head radius 1e30", "Head.Radius = 1e+30", func(_ *hair.Settings, h *hair.Head) { h.Radius = 1e30 }},
		{"bend compliance 3e38", "BendCompliance = 3e+38", func(s *hair.Settings, _ *hair.Head) { s.BendCompliance = 3e38 }},
		{"mass 1e-39", "Mass = 1e-39", func(s *hair.Settings, _ *hair.Head) { s.Mass = 1e-39 }},
		{"wind drag 1e30 (afc10d32a9992ad6)", "WindDrag = 1e+30", func(s *hair.Settings, _ *hair.Head) { s.WindDrag = 1e30 }},
		{"length 4.8e-31 (6ff9e49edf36e78b: NaN roots)", "Length = 4.8e-31", func(s *hair.Settings, _ *hair.Head) { s.Length, s.Lift, s.Volume = 4.8e-31, 0, 0 }},
		{"head radius 1e-45 (0f97a7ee1781a114: NaN roots)", "Head.Radius = 1e-45", func(_ *hair.Settings, h *hair.Head) { h.Radius = 1e-45 }},
		{"volume 1e30", "Volume = 1e+30", func(s *hair.Settings, _ *hair.Head) { s.Volume = 1e30 }},
		{"cap 5.5e-35 rad inside the parting (b77578bb72452351: New never returned)", "PartingWidth = 0.05 leaves no room", func(s *hair.Settings, _ *hair.Head) {
			s.CapAngle, s.CapTilt, s.Parting = 5.5e-35, 7e-24, 0.001
		}},
	} {
		w, err := verlet3d.NewWorld(hair.WorldConfig())
		if err != nil {
			t.Fatal(err)
		}
		s, h := hair.DefaultSettings(), hair.DefaultHead()
		s.Strands = 10
		tc.edit(&s, &h)
		before := checks.Snapshot(w)
		if _, err := hair.New(w, h, s); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one containing %q", tc.name, err, tc.want)
		}
		before.Same(t, w, tc.name)
	}
}

// unitRotation is q at unit length (in float64, so that a quaternion near
// float32's range does not overflow), the identity for a zero one.
func unitRotation(q mgl32.Quat) mgl32.Quat {
	w, x, y, z := float64(q.W), float64(q.V[0]), float64(q.V[1]), float64(q.V[2])
	l := math.Sqrt(float64(w*w) + float64(x*x) + float64(y*y) + float64(z*z))
	if !(l > 1e-6) || math.IsInf(l, 0) {
		return mgl32.QuatIdent()
	}
	return mgl32.Quat{W: float32(w / l), V: mgl32.Vec3{float32(x / l), float32(y / l), float32(z / l)}}
}
