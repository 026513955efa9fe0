package bodies

import (
	"fmt"
	"math"

	"github.com/drape3d/drape/internal/vecmath"
	"github.com/drape3d/drape/verlet3d"
	"github.com/go-gl/mathgl/mgl32"
)

// Pick returns the cube that the ray origin + t·dir (t >= 0) meets first
// and the point where it enters it (or origin, for a ray that starts inside
// a cube); ok is false if the ray meets none or is not finite.
func (s *System) Pick(origin, dir mgl32.Vec3) (c Cube, at mgl32.Vec3, ok bool) {
	l := vecmath.Len(dir)
	if !(l > 0) || !vecmath.Finite(origin) || !vecmath.Finite(dir) {
		return -1, mgl32.Vec3{}, false
	}
	dir = vecmath.Scale(dir, 1/l)
	best := float32(math.MaxFloat32)
	c = -1
	for i := 0; i < s.NumCubes(); i++ {
		p, q := s.Transform(Cube(i))
		h := float32(s.Size(Cube(i)) / 2)
		o, d := unrotate(q, origin.Sub(p)), unrotate(q, dir)
		// The slabs of the cube's three axes.
		t0, t1 := float32(0), float32(math.MaxFloat32)
		for k := 0; k < 3 && t0 <= t1; k++ {
			if abs32(d[k]) < 1e-12 {
				if abs32(o[k]) > h {
					t0, t1 = 1, 0
				}
				continue
			}
			a, b := (-h-o[k])/d[k], (h-o[k])/d[k]
			if a > b {
				a, b = b, a
			}
			t0, t1 = max(t0, a), min(t1, b)
		}
		if t0 <= t1 && t0 < best {
			best, c = t0, Cube(i)
		}
	}
	if c < 0 {
		return -1, mgl32.Vec3{}, false
	}
	return c, origin.Add(vecmath.Scale(dir, best)), true
}

// Grab starts holding cube c at the world point at (usually where Pick met
// it): DragTo then moves that point of the cube, which turns about it as a
// crate carried by one hand does, and Release lets go. A held cube stays
// awake. With ParticleEngine the corner particle nearest to at is held
// (World.DragTo). It returns an error for a non-finite at; it panics if c
// is not a cube of the System.
func (s *System) Grab(c Cube, at mgl32.Vec3) error {
	if !vecmath.Finite(at) {
		return fmt.Errorf("bodies: Grab(%d, at = %v): want a finite point", c, at)
	}
	if s.pose == nil {
		cb := s.check(c)
		best, bd := verlet3d.Particle(cb.p[0]), float32(math.MaxFloat32)
		for _, p := range cb.p {
			if d := vecmath.LenSqr(s.w.Position(verlet3d.Particle(p)).Sub(at)); d < bd {
				best, bd = verlet3d.Particle(p), d
			}
		}
		cb.grip, cb.gripped = best, true
		s.w.DragTo(best, s.w.Position(best))
		return nil
	}
	b := s.poseBody(c)
	s.pose.wakeCube(int(c))
	at = s.w.ToLocal(at) // the World's frame (verlet3d.World.Origin)
	b.held = true
	b.grip = unrotate(b.q, at.Sub(b.x))
	b.target = at
	b.target0 = at
	s.w.Wake()
	return nil
}

// DragTo moves the point that Grab holds on cube c to target over the
// next step; call it every frame while the mouse drags. It does nothing to
// a cube that is not held, or for a non-finite target.
func (s *System) DragTo(c Cube, target mgl32.Vec3) {
	if !vecmath.Finite(target) {
		return
	}
	if s.pose == nil {
		if cb := s.check(c); cb.gripped {
			s.w.DragTo(cb.grip, target)
		}
		return
	}
	if b := s.poseBody(c); b.held {
		b.target = s.w.ToLocal(target)
		s.w.Wake()
	}
}

// Release lets go of cube c, which keeps the velocity it was dragged
// with.
func (s *System) Release(c Cube) {
	if s.pose == nil {
		if cb := s.check(c); cb.gripped {
			s.w.Release(cb.grip)
			cb.gripped = false
		}
		return
	}
	b := s.poseBody(c)
	b.held = false
	s.w.Wake()
}

// Held reports whether cube c is held by Grab.
func (s *System) Held(c Cube) bool {
	if s.pose == nil {
		return s.check(c).gripped
	}
	return s.poseBody(c).held
}

// solveHold pulls the held point of cube b to its target for this substep
// (frac of the way from where the target was at the step's start), as a
// rigid positional constraint.
func (e *poseEngine) solveHold(b *poseBody, frac float32) {
	t := b.target0.Add(vecmath.Scale(b.target.Sub(b.target0), frac))
	p := b.xs.Add(b.dp).Add(b.harm).Add(cross(b.dth, b.harm))
	d := t.Sub(p)
	l := length(d)
	if !(l > 1e-9) {
		return
	}
	n := vecmath.Scale(d, 1/l)
	rn := cross(b.harm, n)
	k := mass(b.invM + float32(b.invI*dot(rn, rn)))
	lam := float32(l * k)
	b.dp = b.dp.Add(vecmath.Scale(n, float32(lam*b.invM)))
	b.dth = b.dth.Add(vecmath.Scale(rn, float32(lam*b.invI)))
}
