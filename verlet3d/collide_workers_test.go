package verlet3d_test

import (
	"github.com/drape3d/drape/internal/vecmath"
	"math"
	"testing"

	"github.com/drape3d/drape/verlet3d"
	"github.com/go-gl/mathgl/mgl32"
)

// ownSphere is a Collider of the game's own (not one of the package's
// shapes): collide calls it from one goroutine.
type ownSphere struct{ s *verlet3d.Sphere }

func (o ownSphere) Bounds() (mgl32.Vec3, mgl32.Vec3)              { return o.s.Bounds() }
func (o ownSphere) Closest(p mgl32.Vec3) (mgl32.Vec3, mgl32.Vec3) { return o.s.Closest(p) }

// rainOnShapes drops 3,000 particles (enough to split them between
// workers) onto a box, a sphere, a capsule and a floor, and optionally one
// Collider of the game's own, and returns the positions and the contacts
// of every step.
func rainOnShapes(t *testing.T, workers int, own bool) ([]mgl32.Vec3, []verlet3d.Contact) {
	t.Helper()
	pos, contacts, err := rain(workers, own)
	if err != nil {
		t.Fatal(err)
	}
	return pos, contacts
}

// rain is rainOnShapes, for any goroutine.
func rain(workers int, own bool) ([]mgl32.Vec3, []verlet3d.Contact, error) {
	cfg := verlet3d.DefaultConfig()
	cfg.Workers = workers
	w, err := verlet3d.NewWorld(cfg)
	if err != nil {
		return nil, nil, err
	}
	defer w.Close()
	for i := 0; i < 3000; i++ {
		x, z := float32(float32(i%60)*0.04)-1.2, float32(float32(i/60)*0.04)-1
		if _, err := w.AddParticle(mgl32.Vec3{x, 1.2 + float32(0.1*float32(math.Sin(float64(i)))), z}, 0.01); err != nil {
			return nil, nil, err
		}
	}
	box, _ := verlet3d.NewBox(mgl32.Vec3{-0.6, 0.3, 0}, mgl32.Vec3{0.3, 0.3, 0.4}, vecmath.QuatAxisAngle(0.3, mgl32.Vec3{0, 1, 0}))
	ball, _ := verlet3d.NewSphere(mgl32.Vec3{0.5, 0.4, 0}, 0.4)
	pole, _ := verlet3d.NewCapsule(mgl32.Vec3{-1, 0.5, -0.6}, mgl32.Vec3{1, 0.6, -0.5}, 0.1)
	floor, _ := verlet3d.NewPlane(mgl32.Vec3{}, mgl32.Vec3{0, 1, 0})
	cs := []verlet3d.Collider{box, ball, pole, floor}
	if own {
		s, _ := verlet3d.NewSphere(mgl32.Vec3{0, 0.2, 0.6}, 0.3)
		cs = append(cs, ownSphere{s})
	}
	for k, c := range cs {
		if err := w.AddCollider(c, verlet3d.ContactSettings{Friction: float32(0.2 * float32(k))}); err != nil {
			return nil, nil, err
		}
	}
	var contacts []verlet3d.Contact
	for i := 0; i < 90; i++ {
		w.Step()
		contacts = w.Contacts(contacts)
	}
	return append([]mgl32.Vec3(nil), w.Positions()...), contacts, nil
}

// Collider contacts are found on several workers in the order one worker
// finds them, so every worker count gives the same contacts in the same
// order and the same positions, bit for bit; with a Collider of the game's
// own too.
func TestCollideSameForAnyWorkers(t *testing.T) {
	for _, own := range []bool{false, true} {
		pos1, con1 := rainOnShapes(t, 1, own)
		if len(con1) < 1000 {
			t.Fatalf("own %v: only %d contacts over the run; the test wants many", own, len(con1))
		}
		for _, workers := range []int{2, 3} {
			pos, con := rainOnShapes(t, workers, own)
			if len(con) != len(con1) {
				t.Fatalf("own %v, %d workers: %d contacts, %d on one", own, workers, len(con), len(con1))
			}
			for i := range con {
				if con[i] != con1[i] {
					t.Fatalf("own %v, %d workers: contact %d is %+v, %+v on one", own, workers, i, con[i], con1[i])
				}
			}
			for i := range pos {
				for k := range pos[i] {
					if math.Float32bits(pos[i][k]) != math.Float32bits(pos1[i][k]) {
						t.Fatalf("own %v, %d workers: particle %d at %v, %v on one", own, workers, i, pos[i], pos1[i])
					}
				}
			}
		}
	}
}

// Four Worlds of four workers each, stepping at once on however many cores
// the machine has: most of the time some worker's thread waits for a core,
// and the others take over its share of a per-particle phase or of the
// collider search (executor.go). Every World still ends where one worker
// puts it, bit for bit.
func TestSameResultsWithWorkersLate(t *testing.T) {
	pos1, _ := rainOnShapes(t, 1, true)
	const worlds = 4
	results := make([][]mgl32.Vec3, worlds)
	errs := make([]error, worlds)
	done := make(chan int)
	for k := range worlds {
		go func() {
			results[k], _, errs[k] = rain(4, true)
			done <- k
		}()
	}
	for range worlds {
		<-done
	}
	for k := range worlds {
		if errs[k] != nil {
			t.Fatal(errs[k])
		}
		for i := range pos1 {
			for c := range pos1[i] {
				if math.Float32bits(results[k][i][c]) != math.Float32bits(pos1[i][c]) {
					t.Fatalf("world %d of 4 workers: particle %d at %v, %v on one worker", k, i, results[k][i], pos1[i])
				}
			}
		}
	}
}
