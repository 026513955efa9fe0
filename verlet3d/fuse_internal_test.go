package verlet3d

import (
	"math"
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
			if _, err := w.AddParticle(mgl32.Vec3{0.03 * float32(c), 2, 0.03 * float32(r)}, m); err != nil {
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
		a := 0.05 * float32(step)
		w.SetTarget(corner, start.Add(mgl32.Vec3{0.3 * float32(math.Sin(float64(a))), 0, 0.2 * float32(math.Cos(float64(a)))}))
	}
	return w, move
}

// Post runs the next substep's guard, integration and first link pass as
// one job when nothing runs between them (solveLinksFused). That must give
// the bits of the two jobs it replaces, which one worker runs one after the
// other: with a kinematic anchor, a tether, links that break as the cloth
// falls, speed clamps and a particle made NaN, on 2 and 3 workers, 1 and 2
// iterations. And it must run only when nothing does come between: not
// with a collider, a ConstraintSet or a force field.
func TestFusedPassMatchesTwoJobs(t *testing.T) {
	const n, steps = 64, 40
	run := func(workers, iterations int, extra func(w *World)) (*World, []mgl32.Vec3) {
		cfg := DefaultConfig()
		cfg.Workers, cfg.Substeps, cfg.Iterations = workers, 10, iterations
		cfg.MaxSpeed = 3 // clamps the fall and the torn edge
		w, move := fuseWorld(t, cfg, n)
		if extra != nil {
			extra(w)
		}
		for i := 0; i < steps; i++ {
			if i == 20 {
				w.pos[n*n/2+5][1] = float32(math.NaN())
				w.prev[3*n*n/4][0] = float32(math.Inf(1))
			}
			move(i)
			w.Step()
		}
		return w, append([]mgl32.Vec3(nil), w.pos...)
	}
	for _, iterations := range []int{1, 2} {
		ref, want := run(1, iterations, nil)
		st := ref.Stats()
		if st.NonFiniteResets == 0 || st.SpeedClamps == 0 || st.LinksBroken == 0 {
			t.Fatalf("%d iterations: %d resets, %d clamps, %d links broken: the scene must have all three", iterations, st.NonFiniteResets, st.SpeedClamps, st.LinksBroken)
		}
		if ref.fused != 0 {
			t.Fatalf("1 worker ran %d fused passes, want none", ref.fused)
		}
		for _, workers := range []int{2, 3} {
			w, got := run(workers, iterations, nil)
			if want := steps * 9; w.fused != want {
				t.Errorf("%d workers, %d iterations: %d fused passes, want %d (every substep but each step's first)", workers, iterations, w.fused, want)
			}
			for i := range want {
				if !samebits(got[i], want[i]) {
					t.Fatalf("%d workers, %d iterations: particle %d at %v, %v on 1 worker", workers, iterations, i, got[i], want[i])
				}
			}
			gs := w.Stats()
			if gs.NonFiniteResets != st.NonFiniteResets || gs.SpeedClamps != st.SpeedClamps || gs.LinksBroken != st.LinksBroken {
				t.Errorf("%d workers, %d iterations: %d resets, %d clamps, %d broken; 1 worker %d, %d, %d", workers, iterations,
					gs.NonFiniteResets, gs.SpeedClamps, gs.LinksBroken, st.NonFiniteResets, st.SpeedClamps, st.LinksBroken)
			}
		}
	}
	for _, tc := range []struct {
		name  string
		extra func(w *World)
	}{
		{"collider", func(w *World) {
			if err := w.AddCollider(&Plane{Point: mgl32.Vec3{0, -5, 0}, Normal: mgl32.Vec3{0, 1, 0}}, ContactSettings{}); err != nil {
				t.Fatal(err)
			}
		}},
		{"constraint set", func(w *World) { w.AddConstraintSet(nopSet{}) }},
		{"force field", func(w *World) { w.AddForceField(nopField{}) }},
	} {
		if w, _ := run(2, 1, tc.extra); w.fused != 0 {
			t.Errorf("with a %s: %d fused passes, want none", tc.name, w.fused)
		}
	}
}

type nopSet struct{}

func (nopSet) Prepare(*World, Substep) {}
func (nopSet) Solve(*World, Substep)   {}

type nopField struct{}

func (nopField) Apply(*World, Substep) {}
