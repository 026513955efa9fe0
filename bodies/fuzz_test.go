package bodies_test

import (
	"github.com/drape3d/drape/internal/checks"
	"github.com/drape3d/drape/internal/vecmath"
	"math"
	"strings"
	"testing"

	"github.com/drape3d/drape/bodies"
	"github.com/drape3d/drape/verlet3d"
	"github.com/go-gl/mathgl/mgl32"
)

// FuzzBodies adds cubes from fuzzed CubeSettings and colliders from fuzzed
// shapes, then plays fuzzed frames, impulses and throws.
//
//	go test ./bodies -run '^$' -fuzz '^FuzzBodies$' -fuzztime 5m -parallel 1
func FuzzBodies(f *testing.F) {
	f.Add([]byte{})
	f.Add([]byte("\x00\x03\x00\x00\x01\x00\x00\x00\x02\x02\x02\x05\x05\x05\x05\x06"))
	f.Add([]byte("\x01\x04\xff\x80\x90\x01\x02\x03\x04\x05\x06\x07\x00\x01\x02\x03\x04\x05\x06\x07"))
	f.Fuzz(func(t *testing.T, data []byte) {
		in := checks.NewInput(data)
		w := checks.World(t, in, verlet3d.DefaultConfig(), false)
		set := bodies.DefaultSettings()
		if in.U8()&1 != 0 {
			set = bodies.Settings{Friction: in.Maybe(set.Friction), ParticleFriction: in.Maybe(set.ParticleFriction),
				Restitution: in.Maybe(0), Margin: in.Maybe(set.Margin), Passes: int(int8(in.U8()))}
		}
		checks.Tracef(t, "Settings %+v", set)
		sys, err := bodies.NewSystem(w, set)
		if err != nil {
			checks.MustName(t, err, "NewSystem", "Settings.")
			return
		}
		floor, _ := verlet3d.NewPlane(mgl32.Vec3{}, mgl32.Vec3{0, 1, 0})
		if err := sys.AddCollider(floor, verlet3d.ContactSettings{Friction: 0.5}); err != nil {
			t.Fatal(err)
		}
		for i, n := 0, in.Intn(4); i < n; i++ {
			var c verlet3d.Collider
			var err error
			switch in.Intn(3) {
			case 0:
				c, err = verlet3d.NewSphere(in.Vec(), in.F32())
			case 1:
				c, err = verlet3d.NewCapsule(in.Vec(), in.Vec(), in.F32())
			default:
				c, err = verlet3d.NewBox(in.Vec(), in.Vec(), mgl32.Quat{W: in.F32(), V: in.Vec()})
			}
			checks.Tracef(t, "collider %+v %v", c, err)
			if err != nil {
				continue
			}
			if lo, hi := c.Bounds(); vecmath.Len(hi.Sub(lo)) > 2e3 {
				// Open finding (reported in issue 16's note): a cube inside
				// a sphere of radius 1e6 m is thrown 1e6 m in one substep
				// and its particles go NaN. Not fixed here: it is in the
				// cube solver. Colliders stay under 1 km in this target.
				continue
			}
			cs := verlet3d.ContactSettings{Friction: in.Maybe(0.5), Restitution: in.Maybe(0)}
			before := checks.Snapshot(w)
			if err := sys.AddCollider(c, cs); err != nil {
				checks.MustName(t, err, "AddCollider", "Friction", "Restitution")
				before.Same(t, w, "AddCollider")
			}
		}
		var cubes []bodies.Cube
		for i, n := 0, 1+in.Intn(6); i < n; i++ {
			cs := bodies.CubeSettings{Size: 0.5, Mass: 1, Position: mgl32.Vec3{float32(float32(i) * 0.2), 0.5 + float32(float32(i)*0.7), 0}}
			if fl := in.U8(); fl&1 != 0 {
				cs.Size, cs.Mass, cs.Compliance = in.Maybe(cs.Size), in.Maybe(cs.Mass), in.Maybe(0)
				cs.Hollow = fl&2 != 0
				if fl&4 != 0 {
					cs.Position, cs.Rotation = in.Vec(), mgl32.Quat{W: in.F32(), V: in.Vec()}
				}
				if fl&8 != 0 {
					cs.Velocity, cs.AngularVelocity = in.Vec(), in.Vec()
				}
			}
			checks.Tracef(t, "AddCube(%+v)", cs)
			before := checks.Snapshot(w)
			c, err := sys.AddCube(cs)
			if err != nil {
				checks.MustName(t, err, "AddCube", "CubeSettings.")
				before.Same(t, w, "AddCube")
				continue
			}
			cubes = append(cubes, c)
		}
		checks.CheckWorld(t, w, "after building")
		for op := 0; op < 48 && in.Len() > 0; op++ {
			switch code := in.Intn(8); code {
			case 0, 1, 2:
				w.Advance(1.0 / 60)
				checks.CheckWorld(t, w, "frame")
			case 3:
				if len(cubes) > 0 {
					c := cubes[in.Intn(len(cubes))]
					at, imp := in.Vec(), in.Vec()
					checks.Tracef(t, "ApplyImpulse(%d, %v, %v)", c, at, imp)
					if err := sys.ApplyImpulse(c, at, imp); err != nil {
						checks.MustName(t, err, "ApplyImpulse", "impulse", "at", "point")
					}
				}
			case 4:
				if len(cubes) > 0 {
					c := cubes[in.Intn(len(cubes))]
					v, om := in.Vec(), in.Vec()
					checks.Tracef(t, "Throw(%d, %v, %v)", c, v, om)
					if err := sys.Throw(c, v, om); err != nil {
						checks.MustName(t, err, "Throw", "velocity", "omega", "spin", "v ")
					}
				}
			case 5:
				// The mouse drags a corner up to 2.5 m a frame, into the
				// floor, other cubes or a collider.
				if len(cubes) > 0 {
					c := cubes[in.Intn(len(cubes))]
					p := sys.Corners(c)[in.Intn(8)]
					d := vecmath.Scale(mgl32.Vec3{float32(int8(in.U8())), float32(int8(in.U8())), float32(int8(in.U8()))}, 2.5/128)
					checks.Tracef(t, "DragTo(%d, +%v)", p, d)
					w.DragTo(p, w.Position(p).Add(d))
					w.Advance(1.0 / 60)
					checks.CheckWorld(t, w, "drag")
				}
			case 6:
				if len(cubes) > 0 {
					p := sys.Corners(cubes[in.Intn(len(cubes))])[in.Intn(8)]
					checks.Tracef(t, "Release(%d)", p)
					w.Release(p)
				}
			default:
				dt := float32(in.Intn(100)) / 100
				checks.Tracef(t, "Advance(%v)", dt)
				w.Advance(dt)
				checks.CheckWorld(t, w, "long frame")
			}
		}
		checks.CheckWorld(t, w, "after the sequence")
		for _, c := range cubes {
			p, q := sys.Transform(c)
			if !vecmath.Finite(p) || !vecmath.Finite32(q.W) || !vecmath.Finite(q.V) {
				t.Fatalf("cube %d transform %v %v", c, p, q)
			}
		}
		checks.SteadyAllocs(t, w)
	})
}

// Absurd input from the fuzz corpus (testdata/fuzz/FuzzBodies): huge
// finite impulses, throws and velocities return errors naming the values
// rather than panic inside SetVelocity, and tiny cubes are refused.
func TestAbsurdBodiesInput(t *testing.T) {
	w, s := newWorld(t, nil)
	c := addCube(t, s, bodies.CubeSettings{Size: 1, Mass: 1})
	for _, tc := range []struct {
		name, want string
		err        error
	}{
		{"impulse 1e30", "impulse = [1e+30 0 0]", s.ApplyImpulse(c, mgl32.Vec3{}, mgl32.Vec3{1e30, 0, 0})},
		{"impulse 1e30 at 1e30", "at = [1e+30 0 0]", s.ApplyImpulse(c, mgl32.Vec3{1e30, 0, 0}, mgl32.Vec3{0, 1e30, 0})},
		{"impulse at +Inf (5e4b96c965b85134)", "at = [+Inf 0 0]", s.ApplyImpulse(c, mgl32.Vec3{float32(math.Inf(1)), 0, 0}, mgl32.Vec3{})},
		{"throw 1e30", "v = [1e+30 0 0]", s.Throw(c, mgl32.Vec3{1e30, 0, 0}, mgl32.Vec3{})},
		{"spin 3e38", "omega = [0 3e+38 0]", s.Throw(c, mgl32.Vec3{}, mgl32.Vec3{0, 3e38, 0})},
		{"size 1e-5", "Size = 1e-05", func() error { _, err := s.AddCube(bodies.CubeSettings{Size: 1e-5, Mass: 1}); return err }()},
		{"velocity 1e30", "Velocity = [1e+30 0 0]", func() error {
			_, err := s.AddCube(bodies.CubeSettings{Size: 1, Mass: 1, Velocity: mgl32.Vec3{1e30, 0, 0}})
			return err
		}()},
		{"position 1e30", "Position = [1e+30 0 0]", func() error {
			_, err := s.AddCube(bodies.CubeSettings{Size: 1, Mass: 1, Position: mgl32.Vec3{1e30, 0, 0}})
			return err
		}()},
		{"compliance 3e38", "Compliance = 3e+38", func() error { _, err := s.AddCube(bodies.CubeSettings{Size: 1, Mass: 1, Compliance: 3e38}); return err }()},
	} {
		if tc.err == nil || !strings.Contains(tc.err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one containing %q", tc.name, tc.err, tc.want)
		}
	}
	// The largest impulse accepted leaves the World finite.
	if err := s.ApplyImpulse(c, mgl32.Vec3{0.5, 0.5, 0}, mgl32.Vec3{0, 0, 2e4}); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 60; i++ {
		w.Step()
	}
	checks.CheckWorld(t, w, "after a 2e4 N·s impulse")
}
