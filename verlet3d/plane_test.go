package verlet3d_test

import (
	"math"
	"math/rand"
	"testing"

	"github.com/drape3d/drape/internal/vecmath"
	"github.com/drape3d/drape/verlet3d"
	"github.com/go-gl/mathgl/mgl32"
)

// A plane whose normal is a coordinate axis bounds its solid side on that
// axis, so that the broad phase skips what is clear of a floor; a tilted
// plane is unbounded.
func TestPlaneBounds(t *testing.T) {
	inf := float32(math.Inf(1))
	for _, tc := range []struct {
		name          string
		point, normal mgl32.Vec3
		axis          int     // bounded axis, -1 for none
		top           bool    // the bound is the box's max (else its min)
		at            float32 // where the bound is, to within its slack
	}{
		{"floor", mgl32.Vec3{3, 0, -2}, mgl32.Vec3{0, 1, 0}, 1, true, 0},
		{"raised floor", mgl32.Vec3{0, 1.5, 0}, mgl32.Vec3{0, 2, 0}, 1, true, 1.5},
		{"ceiling", mgl32.Vec3{0, 3, 0}, mgl32.Vec3{0, -1, 0}, 1, false, 3},
		{"wall", mgl32.Vec3{-4, 1, 0}, mgl32.Vec3{1, 0, 0}, 0, true, -4},
		{"wall far out", mgl32.Vec3{0, 0, 9000}, mgl32.Vec3{0, 0, -1}, 2, false, 9000},
		{"tilted", mgl32.Vec3{0, 0, 0}, mgl32.Vec3{0.1, 1, 0}, -1, false, 0},
	} {
		p, err := verlet3d.NewPlane(tc.point, tc.normal)
		if err != nil {
			t.Fatal(err)
		}
		lo, hi := p.Bounds()
		for k := 0; k < 3; k++ {
			wantLo, wantHi := -inf, inf
			if k == tc.axis {
				// The slack: 0.1 mm, and a millionth of the coordinate.
				slack := 1e-4 + float32(1e-6*abs(tc.at))
				if tc.top {
					if hi[k] < tc.at+float32(slack*0.99) || hi[k] > tc.at+float32(slack*1.01) {
						t.Errorf("%s: max[%d] = %v, want %v + %v", tc.name, k, hi[k], tc.at, slack)
					}
					wantHi = hi[k]
				} else {
					if lo[k] > tc.at-float32(slack*0.99) || lo[k] < tc.at-float32(slack*1.01) {
						t.Errorf("%s: min[%d] = %v, want %v - %v", tc.name, k, lo[k], tc.at, slack)
					}
					wantLo = lo[k]
				}
			}
			if lo[k] != wantLo || hi[k] != wantHi {
				t.Errorf("%s: axis %d bounds [%v, %v], want [%v, %v]", tc.name, k, lo[k], hi[k], wantLo, wantHi)
			}
		}
	}
}

func abs(x float32) float32 { return float32(math.Abs(float64(x))) }

// The bounds of a floor never skip a particle that has a contact with it:
// for paths near a floor (near the origin and far from it, margins from 0
// to 2 cm, radii from 0 to 5 cm), whenever PathContact finds a contact the
// path's box, grown by radius and margin as the broad phase grows it,
// reaches the floor's box.
func TestPlaneBoundsKeepEveryContact(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	contacts := 0
	for i := 0; i < 400000; i++ {
		far := []float32{0, 1, 100, 9000}[i%4]
		h := float32((rng.Float32() - 0.5) * 2 * far)
		normal := mgl32.Vec3{0, 1, 0}
		if i%3 == 0 {
			normal = mgl32.Vec3{0, -1, 0}
		}
		p, _ := verlet3d.NewPlane(mgl32.Vec3{float32(far * rng.Float32()), h, float32(-far * rng.Float32())}, normal)
		lo3, hi3 := p.Bounds()
		r := []float32{0, 0.002, 0.05}[rng.Intn(3)]
		margin := []float32{0, 1e-6, 1e-4, 0.01, 0.02}[rng.Intn(5)]
		// A path ending within a few centimeters of the surface, on
		// either side, some of them long.
		near := func() mgl32.Vec3 {
			d := float32((rng.Float32() - 0.3) * 0.1 * float32(math.Pow(10, float64(-3*rng.Float64()))))
			return mgl32.Vec3{float32(far*rng.Float32()) + rng.Float32(), h + float32(normal[1]*d), rng.Float32()}
		}
		b := near()
		a := b
		if rng.Intn(2) == 0 {
			a = near()
		} else {
			a[1] += float32((rng.Float32() - 0.5) * 0.01)
		}
		_, _, ok := vecmath.PathContact(p, a, b, r, margin)
		if !ok {
			continue
		}
		contacts++
		rr := r + margin
		if min(a[1], b[1])-rr > hi3[1] || max(a[1], b[1])+rr < lo3[1] {
			t.Fatalf("plane at %v (normal %v), margin %v, radius %v: the path %v -> %v has a contact but lies outside the bounds [%v, %v]",
				p.Point, p.Normal, margin, r, a, b, lo3[1], hi3[1])
		}
	}
	if contacts < 50000 {
		t.Fatalf("only %d of the paths had a contact: the test looks at too few", contacts)
	}
}

// Moving a floor is moving a collider: a World asleep on a floor wakes
// when the floor is raised under it, and the cloth ends on the new
// surface, not inside it; the same for a tilted floor turned under it.
func TestMovedFloorWakesTheWorld(t *testing.T) {
	for _, tc := range []struct {
		name   string
		normal mgl32.Vec3
		move   func(p *verlet3d.Plane)
	}{
		{"raised", mgl32.Vec3{0, 1, 0}, func(p *verlet3d.Plane) { p.Point[1] += 0.05 }},
		{"tilted turned", vecmath.Normalize(mgl32.Vec3{0.05, 1, 0}), func(p *verlet3d.Plane) {
			p.Normal = vecmath.Normalize(mgl32.Vec3{-0.05, 1, 0})
		}},
	} {
		w := newWorld(t, nil)
		floor, _ := verlet3d.NewPlane(mgl32.Vec3{}, tc.normal)
		if err := w.AddCollider(floor, verlet3d.ContactSettings{Friction: 0.8}); err != nil {
			t.Fatal(err)
		}
		const n = 8
		var ps []verlet3d.Particle
		for r := 0; r < n; r++ {
			for c := 0; c < n; c++ {
				ps = append(ps, add(t, w, mgl32.Vec3{float32(float32(c)*0.05) - 0.2, 0.05, float32(float32(r)*0.05) - 0.2}, 0.01))
			}
		}
		for r := 0; r < n; r++ {
			for c := 0; c < n; c++ {
				if c+1 < n {
					link(t, w, ps[r*n+c], ps[r*n+c+1], verlet3d.LinkSettings{})
				}
				if r+1 < n {
					link(t, w, ps[r*n+c], ps[(r+1)*n+c], verlet3d.LinkSettings{})
				}
			}
		}
		for i := 0; i < 600 && !w.Sleeping(); i++ {
			w.Step()
		}
		if !w.Sleeping() {
			t.Fatalf("%s: the cloth on the floor is still awake after 10 s", tc.name)
		}
		tc.move(floor)
		w.Step()
		if w.Sleeping() {
			t.Errorf("%s: the World slept on through a step after its floor moved", tc.name)
		}
		for i := 0; i < 30; i++ {
			w.Step()
		}
		for _, p := range ps {
			if d := vecmath.Dot(w.Position(p).Sub(floor.Point), floor.Normal); d < -1e-3 {
				t.Errorf("%s: particle %d is %.4f m inside the moved floor after 0.5 s", tc.name, p, -d)
				break
			}
		}
	}
}
