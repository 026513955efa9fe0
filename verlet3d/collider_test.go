package verlet3d_test

import (
	"github.com/drape3d/drape/internal/vecmath"
	"math"
	"math/rand"
	"testing"

	"github.com/drape3d/drape/verlet3d"
	"github.com/go-gl/mathgl/mgl32"
)

func mustSphere(c mgl32.Vec3, r float32) *verlet3d.Sphere {
	s, err := verlet3d.NewSphere(c, r)
	if err != nil {
		panic(err)
	}
	return s
}

// A rain of particles, some thrown straight at the shape, may never end a
// step inside a plane, sphere, capsule or box by more than 1e-4 m.
func TestNoPenetration(t *testing.T) {
	plane, _ := verlet3d.NewPlane(mgl32.Vec3{0, 0, 0}, mgl32.Vec3{0.1, 1, 0})
	capsule, _ := verlet3d.NewCapsule(mgl32.Vec3{-0.5, 0.5, 0}, mgl32.Vec3{0.5, 0.9, 0.2}, 0.3)
	box, _ := verlet3d.NewBox(mgl32.Vec3{0, 0.6, 0}, mgl32.Vec3{0.5, 0.3, 0.4}, vecmath.QuatAxisAngle(0.6, vecmath.Normalize(mgl32.Vec3{1, 1, 0})))
	cases := []struct {
		name   string
		c      verlet3d.Collider
		radius float32
	}{
		{"plane", plane, 0},
		{"sphere", mustSphere(mgl32.Vec3{0, 0.6, 0}, 0.5), 0},
		{"sphere radius 2cm", mustSphere(mgl32.Vec3{0, 0.6, 0}, 0.5), 0.02},
		{"capsule", capsule, 0},
		{"box", box, 0.01},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			w := newWorld(t, nil)
			if err := w.AddCollider(tc.c, verlet3d.ContactSettings{Friction: 0.3, Restitution: 0.2}); err != nil {
				t.Fatal(err)
			}
			rng := rand.New(rand.NewSource(1))
			var ps []verlet3d.Particle
			for i := 0; i < 300; i++ {
				pos := mgl32.Vec3{float32(rng.Float32()*2) - 1, 1.5 + rng.Float32(), float32(rng.Float32()*2) - 1}
				p := add(t, w, pos, 0.1)
				w.SetRadius(p, tc.radius)
				// Throw a third of them hard at the center: 20 m/s.
				if i%3 == 0 {
					w.SetVelocity(p, vecmath.Scale(vecmath.Normalize(mgl32.Vec3{0, 0.6, 0}.Sub(pos)), 20))
				}
				ps = append(ps, p)
			}
			// Tie some into pairs so links drag particles towards the shape
			// after their contacts were solved.
			for i := 0; i+1 < len(ps); i += 7 {
				link(t, w, ps[i], ps[i+1], verlet3d.LinkSettings{})
			}
			worst := float32(0)
			for step := 0; step < 240; step++ {
				w.Step()
				for _, p := range ps {
					x := w.Position(p)
					s, n := tc.c.Closest(x)
					if d := vecmath.Dot(x.Sub(s), n) - tc.radius; d < worst {
						worst = d
					}
				}
			}
			if worst < -1e-4 {
				t.Errorf("deepest penetration %.2g m, want at most 1e-4", -worst)
			}
		})
	}
}

// Closest must report the nearest surface point with an outward normal, from
// inside and outside.
func TestColliderClosest(t *testing.T) {
	box, _ := verlet3d.NewBox(mgl32.Vec3{1, 0, 0}, mgl32.Vec3{1, 2, 3}, mgl32.QuatIdent())
	capsule, _ := verlet3d.NewCapsule(mgl32.Vec3{0, 0, 0}, mgl32.Vec3{0, 2, 0}, 0.5)
	cases := []struct {
		name         string
		c            verlet3d.Collider
		p, surf, nrm mgl32.Vec3
	}{
		{"sphere outside", mustSphere(mgl32.Vec3{}, 1), mgl32.Vec3{0, 3, 0}, mgl32.Vec3{0, 1, 0}, mgl32.Vec3{0, 1, 0}},
		{"sphere inside", mustSphere(mgl32.Vec3{}, 1), mgl32.Vec3{0.5, 0, 0}, mgl32.Vec3{1, 0, 0}, mgl32.Vec3{1, 0, 0}},
		{"box inside nearest face", box, mgl32.Vec3{1.8, 0, 0}, mgl32.Vec3{2, 0, 0}, mgl32.Vec3{1, 0, 0}},
		{"box outside corner", box, mgl32.Vec3{3, 3, 4}, mgl32.Vec3{2, 2, 3}, vecmath.Normalize(mgl32.Vec3{1, 1, 1})},
		{"capsule side", capsule, mgl32.Vec3{2, 1, 0}, mgl32.Vec3{0.5, 1, 0}, mgl32.Vec3{1, 0, 0}},
		{"capsule cap", capsule, mgl32.Vec3{0, 4, 0}, mgl32.Vec3{0, 2.5, 0}, mgl32.Vec3{0, 1, 0}},
	}
	for _, tc := range cases {
		s, n := tc.c.Closest(tc.p)
		if !s.ApproxEqualThreshold(tc.surf, 1e-5) || !n.ApproxEqualThreshold(tc.nrm, 1e-5) {
			t.Errorf("%s: Closest(%v) = %v, %v; want %v, %v", tc.name, tc.p, s, n, tc.surf, tc.nrm)
		}
	}
}

// Coulomb friction: a particle sliding on a floor with friction stops; on a
// frictionless floor it keeps going.
func TestFriction(t *testing.T) {
	for _, tc := range []struct {
		mu       float32
		wantStop bool
	}{{0, false}, {0.5, true}} {
		w := newWorld(t, func(c *verlet3d.Config) { c.Damping = 0 })
		floor, _ := verlet3d.NewPlane(mgl32.Vec3{}, mgl32.Vec3{0, 1, 0})
		if err := w.AddCollider(floor, verlet3d.ContactSettings{Friction: tc.mu}); err != nil {
			t.Fatal(err)
		}
		p := add(t, w, mgl32.Vec3{0, 0, 0}, 1)
		w.SetVelocity(p, mgl32.Vec3{2, 0, 0})
		for i := 0; i < 120; i++ {
			w.Step()
		}
		v := w.Velocity(p)[0]
		// Sliding distance with friction: v²/(2µg) = 0.41 m.
		x := w.Position(p)[0]
		if tc.wantStop {
			if math.Abs(float64(v)) > 1e-3 {
				t.Errorf("mu %v: still sliding at %v m/s", tc.mu, v)
			}
			if want := 4 / (2 * tc.mu * 9.81); math.Abs(float64(x-want)) > 0.1*float64(want) {
				t.Errorf("mu %v: slid %.3f m, want %.3f within 10%%", tc.mu, x, want)
			}
		} else if math.Abs(float64(v-2)) > 1e-3 {
			t.Errorf("mu 0: speed %v m/s, want 2", v)
		}
	}
}

// Restitution: a ball dropped from 1 m with e = 0.5 rebounds to about 0.25 m.
func TestRestitution(t *testing.T) {
	w := newWorld(t, func(c *verlet3d.Config) { c.Damping = 0; c.Substeps = 8 })
	floor, _ := verlet3d.NewPlane(mgl32.Vec3{}, mgl32.Vec3{0, 1, 0})
	if err := w.AddCollider(floor, verlet3d.ContactSettings{Restitution: 0.5}); err != nil {
		t.Fatal(err)
	}
	p := add(t, w, mgl32.Vec3{0, 1, 0}, 1)
	bounced, peak := false, float32(0)
	for i := 0; i < 120; i++ {
		w.Step()
		y := w.Position(p)[1]
		if y < 0.01 {
			bounced = true
		}
		if bounced && y > peak {
			peak = y
		}
	}
	if math.Abs(float64(peak)-0.25) > 0.03 {
		t.Errorf("rebound peak %.3f m, want 0.25 ± 0.03", peak)
	}
}

// presser is a component that holds a particle down: at the end of every
// substep it moves it to depth below the plane y = 0, as a crate's last
// projection of cloth out of its face does to cloth pinched between it
// and the floor.
type presser struct {
	p     verlet3d.Particle
	depth float32
}

func (k presser) Prepare(*verlet3d.World, verlet3d.Substep) {}
func (k presser) Solve(*verlet3d.World, verlet3d.Substep)   {}
func (k presser) Finish(w *verlet3d.World, _ verlet3d.Substep) {
	w.Positions()[k.p][1] = -k.depth
}

// A particle that a component presses into a floor at rest at the end of
// every substep is pushed back out by the floor's contact in the next one;
// it stays at rest instead of taking the depth as speed (2 cm in a substep
// of 1/600 s would be 12 m/s, gained every substep). Against
// a moving collider the depth is the collider's motion and does become
// speed: a box swept into a particle throws it.
func TestPressedIntoFloorRests(t *testing.T) {
	w := newWorld(t, nil)
	floor, _ := verlet3d.NewPlane(mgl32.Vec3{}, mgl32.Vec3{0, 1, 0})
	if err := w.AddCollider(floor, verlet3d.ContactSettings{Friction: 0.5}); err != nil {
		t.Fatal(err)
	}
	p := add(t, w, mgl32.Vec3{0, 0.01, 0}, 0.001)
	w.AddConstraintSet(presser{p: p, depth: 0.02})
	var fastest float32
	for i := 0; i < 120; i++ {
		w.Step()
		if i >= 60 {
			fastest = max(fastest, vecmath.Len(w.Velocity(p)))
		}
	}
	if fastest > 0.05 {
		t.Errorf("pressed particle moves at up to %.2f m/s in its second second, want at rest (< 0.05)", fastest)
	}

	// The same particle resting on a box that is swept up into it at 1 m/s
	// leaves with the box's speed.
	w2 := newWorld(t, nil)
	box, _ := verlet3d.NewBox(mgl32.Vec3{0, -0.5, 0}, mgl32.Vec3{1, 0.5, 1}, mgl32.QuatIdent())
	if err := w2.AddCollider(box, verlet3d.ContactSettings{}); err != nil {
		t.Fatal(err)
	}
	q := add(t, w2, mgl32.Vec3{0, 0.01, 0}, 0.001)
	w2.Step()
	for i := 0; i < 6; i++ {
		box.Center = mgl32.Vec3{0, -0.5 + float32(i+1)/60, 0}
		w2.Step()
	}
	if v := w2.Velocity(q)[1]; v < 0.7 {
		t.Errorf("particle on a box swept up at 1 m/s moves up at %.2f m/s, want about 1 (>= 0.7)", v)
	}
}
