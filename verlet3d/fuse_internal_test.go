package verlet3d

import (
	"fmt"
	"github.com/drape3d/drape/internal/vecmath"
	"math"
	"slices"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
)

// fuseWorld is an n x n cloth (structural, shear and distance-2 bend links,
// the top row pinned but for one corner moved as a kinematic anchor), with
// the lower-left corner tethered and every link of one column breakable:
// the cloth tears there as it falls, while post runs the links' passes with
// the integration.
func fuseWorld(t *testing.T, cfg Config, n int) (*World, func(step int)) {
	t.Helper()
	w, err := NewWorld(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(w.Close)
	at := func(r, c int) Particle { return Particle(r*n + c) }
	for r := 0; r < n; r++ {
		for c := 0; c < n; c++ {
			m := float32(0.01)
			if r == 0 {
				m = 0
			}
			if _, err := w.AddParticle(mgl32.Vec3{float32(0.03 * float32(c)), 2, float32(0.03 * float32(r))}, m); err != nil {
				t.Fatal(err)
			}
		}
	}
	for r := 0; r < n; r++ {
		for c := 0; c < n; c++ {
			for _, d := range [][2]int{{0, 1}, {1, 0}, {1, 1}, {0, 2}, {2, 0}, {1, -1}} {
				r2, c2 := r+d[0], c+d[1]
				if r2 >= n || c2 < 0 || c2 >= n {
					continue
				}
				s := LinkSettings{Compliance: 1e-6}
				if c == n/2 && d[1] == 1 {
					s.BreakStrain = 0.05
				}
				if _, err := w.AddLink(at(r, c), at(r2, c2), s); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	if _, err := w.AddTether(at(0, 0), at(n-1, 0), 0); err != nil {
		t.Fatal(err)
	}
	corner := at(0, n-1)
	start := w.Position(corner)
	move := func(step int) {
		a := float32(0.05 * float32(step))
		w.SetTarget(corner, start.Add(mgl32.Vec3{float32(0.3 * float32(math.Sin(float64(a)))), 0, float32(0.2 * float32(math.Cos(float64(a))))}))
	}
	return w, move
}

// A substep's integration, contact detection and first link pass run as
// one job when nothing else runs between them (solveLinksFused), with the
// last substep's guard too when no force is applied in between. That must
// give the bits of the jobs it replaces, which one worker runs one after
// the other: with a kinematic anchor, frames that hitch, a tether, links
// that break as the cloth falls, speed clamps and a particle made NaN, with and without
// colliders it falls onto and a force field, on 2 and 3 workers, 1 and 2
// iterations, and on a 48 x 48 cloth whose units (288 particles) do not
// start on the broad phase's blocks of 64. And it must run only when
// nothing does come between: not with a ConstraintSet or a Collider of the
// game's own.
func TestFusedPassMatchesTwoJobs(t *testing.T) {
	const steps = 40
	var ball *Sphere // moved every step, when there
	shapes := func(w *World) {
		var err error
		ball, err = NewSphere(mgl32.Vec3{0.95, 1.3, 0.7}, 0.35)
		if err != nil {
			t.Fatal(err)
		}
		box, err := NewBox(mgl32.Vec3{0.4, 0.9, 0.5}, mgl32.Vec3{0.3, 0.05, 0.3}, vecmath.QuatAxisAngle(0.3, mgl32.Vec3{0, 0, 1}))
		if err != nil {
			t.Fatal(err)
		}
		floor, err := NewPlane(mgl32.Vec3{0, 0.6, 0}, mgl32.Vec3{0, 1, 0})
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range []Collider{ball, box, floor} {
			if err := w.AddCollider(c, ContactSettings{Friction: 0.4}); err != nil {
				t.Fatal(err)
			}
		}
	}
	type result struct {
		w        *World
		pos      []mgl32.Vec3
		contacts int     // summed over the steps
		last     []int32 // the particles of the last substep's contacts, in order
	}
	run := func(n, workers, iterations int, extra func(w *World)) result {
		cfg := DefaultConfig()
		cfg.Workers, cfg.Substeps, cfg.Iterations = workers, 10, iterations
		cfg.MaxSpeed = 3 // clamps the fall and the torn edge
		w, move := fuseWorld(t, cfg, n)
		ball = nil
		if extra != nil {
			extra(w)
		}
		contacts := 0
		for i := 0; i < steps; i++ {
			if i == 20 {
				w.pos[n*n/2+5][1] = float32(math.NaN())
				w.prev[3*n*n/4][0] = float32(math.Inf(1))
			}
			move(i)
			if ball != nil {
				ball.Center[0] = 0.95 + float32(0.3*float32(math.Sin(float64(0.2*float64(i)))))
			}
			if i%7 == 3 {
				// A hitch: a 70 ms frame runs MaxStepsPerFrame steps,
				// the anchor's motion spread over them.
				w.Advance(0.07)
			} else {
				w.Step()
			}
			contacts += w.Stats().Contacts
		}
		var last []int32
		for _, c := range w.contacts {
			last = append(last, c.p)
		}
		return result{w, append([]mgl32.Vec3(nil), w.pos...), contacts, last}
	}
	for _, tc := range []struct {
		name   string
		n      int
		extra  func(w *World)
		forces bool
	}{
		{"no collider", 64, nil, false},
		{"colliders", 64, shapes, false},
		{"a force field and colliders", 64, func(w *World) { shapes(w); w.AddForceField(swayField{}) }, true},
		// Units of 288 particles: a unit's first block is partly the
		// previous unit's.
		{"48 x 48 and colliders", 48, shapes, false},
	} {
		for _, iterations := range []int{1, 2} {
			ref := run(tc.n, 1, iterations, tc.extra)
			st := ref.w.Stats()
			if st.NonFiniteResets == 0 || st.SpeedClamps == 0 || st.LinksBroken == 0 {
				t.Fatalf("%s, %d iterations: %d resets, %d clamps, %d links broken: the scene must have all three", tc.name, iterations, st.NonFiniteResets, st.SpeedClamps, st.LinksBroken)
			}
			if tc.extra != nil && (ref.contacts == 0 || len(ref.last) == 0) {
				t.Fatalf("%s: no contact: the cloth must fall onto the colliders", tc.name)
			}
			if ref.w.run.fused != [2]int{} {
				t.Fatalf("1 worker ran %d fused passes, want none", ref.w.run.fused)
			}
			for _, workers := range []int{2, 3} {
				got := run(tc.n, workers, iterations, tc.extra)
				where := fmt.Sprintf("%s, %d workers, %d iterations", tc.name, workers, iterations)
				// With no force, post runs each substep's but the first
				// with the guard before it.
				n := got.w.Stats().Steps
				want := [2]int{n, n * 9}
				if tc.forces {
					want = [2]int{n * 10, 0}
				}
				if got.w.run.fused != want {
					t.Errorf("%s: %v fused passes without and with the guard, want %v", where, got.w.run.fused, want)
				}
				for i := range ref.pos {
					if !samebits(got.pos[i], ref.pos[i]) {
						t.Fatalf("%s: particle %d at %v, %v on 1 worker", where, i, got.pos[i], ref.pos[i])
					}
				}
				if !slices.Equal(got.last, ref.last) {
					t.Errorf("%s: the last contacts are of particles %v, on 1 worker %v", where, got.last, ref.last)
				}
				gs := got.w.Stats()
				if gs.NonFiniteResets != st.NonFiniteResets || gs.SpeedClamps != st.SpeedClamps || gs.LinksBroken != st.LinksBroken || got.contacts != ref.contacts {
					t.Errorf("%s: %d resets, %d clamps, %d broken, %d contacts; 1 worker %d, %d, %d, %d", where,
						gs.NonFiniteResets, gs.SpeedClamps, gs.LinksBroken, got.contacts, st.NonFiniteResets, st.SpeedClamps, st.LinksBroken, ref.contacts)
				}
			}
		}
	}
	for _, tc := range []struct {
		name  string
		n     int
		extra func(w *World)
		fused bool
	}{
		{"a constraint set", 64, func(w *World) { w.AddConstraintSet(nopSet{}) }, false},
		{"a game's own collider", 64, func(w *World) {
			ball, _ := NewSphere(mgl32.Vec3{0.95, 1.3, 0.7}, 0.35)
			if err := w.AddCollider(ownCollider{ball}, ContactSettings{}); err != nil {
				t.Fatal(err)
			}
		}, false},
	} {
		if w := run(tc.n, 2, 1, tc.extra).w; (w.run.fused != [2]int{}) != tc.fused {
			t.Errorf("with %s: %d fused passes, want some: %v", tc.name, w.run.fused, tc.fused)
		}
	}
}

// ownCollider is a game's Collider: a sphere the World cannot tell is one.
type ownCollider struct{ s *Sphere }

func (c ownCollider) Bounds() (lo, hi mgl32.Vec3)                  { return c.s.Bounds() }
func (c ownCollider) Closest(p mgl32.Vec3) (surface, n mgl32.Vec3) { return c.s.Closest(p) }

type nopSet struct{}

func (nopSet) Prepare(*World, Substep) {}
func (nopSet) Solve(*World, Substep)   {}

// swayField pushes every particle sideways, by its height.
type swayField struct{}

func (swayField) Apply(w *World, _ Substep) {
	for i := range w.pos {
		w.AddForce(Particle(i), mgl32.Vec3{float32(0.02 * float32(math.Sin(float64(3*float64(w.pos[i][1]))))), 0, 0.01})
	}
}
