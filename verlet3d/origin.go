package verlet3d

import (
	"fmt"
	"reflect"

	"github.com/go-gl/mathgl/mgl32"
)

// OriginShifter is implemented by colliders, force fields and constraint
// sets that keep world positions of their own (a head pose, last frame's
// anchors): World.ShiftOrigin calls it so they move with everything else.
// The built-in colliders (Plane, Sphere, Capsule, Box) are shifted by the
// World itself.
type OriginShifter interface {
	// ShiftOrigin subtracts offset (m) from every world position kept.
	ShiftOrigin(offset mgl32.Vec3)
}

// ShiftOrigin moves the World's origin to offset (in the current
// coordinates): every particle, its previous position, kinematic target
// and home, and every collider, force field and constraint set that keeps
// positions are moved by -offset, so nothing moves relative to anything
// else and velocities are unchanged.
//
// It is the floating origin of a large game world: float32 positions keep
// about 7 significant digits, so 10 km from the origin a position is only
// good to a millimeter and cloth links of a few centimeters are distorted.
// Keep the simulation near the origin by calling ShiftOrigin(characterPos)
// whenever the character has gone far (say 100 m) from it, between frames,
// and move your scene's nodes by the same -offset at the same time; the
// cape or hair then behaves 10 km out as it does at home. A custom
// Collider, ForceField or ConstraintSet that stores world positions must
// implement OriginShifter.
//
// It returns an error, and leaves the World as it was, for an offset with
// a coordinate that is not finite or beyond ±MaxCoordinate, or one that
// would carry a particle beyond ±MaxCoordinate.
func (w *World) ShiftOrigin(offset mgl32.Vec3) error {
	if !vecInRange(offset, MaxCoordinate) {
		return fmt.Errorf("verlet3d: ShiftOrigin(%v): offset, want finite meters within ±%g (MaxCoordinate)", offset, float32(MaxCoordinate))
	}
	for i, x := range w.pos {
		if y := x.Sub(offset); !vecInRange(y, MaxCoordinate) {
			return fmt.Errorf("verlet3d: ShiftOrigin(%v): particle %d at %v would be at %v, want meters within ±%g (MaxCoordinate)", offset, i, x, y, float32(MaxCoordinate))
		}
	}
	for _, s := range [][]mgl32.Vec3{w.pos, w.prev, w.stepStart, w.target, w.home, w.sleep.anchor} {
		for i := range s {
			s[i] = s[i].Sub(offset)
		}
	}
	for i := range w.colliders {
		e := &w.colliders[i]
		switch c := e.c.(type) {
		case *Plane:
			c.Point = c.Point.Sub(offset)
		case *Sphere:
			c.Center = c.Center.Sub(offset)
		case *Capsule:
			c.A, c.B = c.A.Sub(offset), c.B.Sub(offset)
		case *Box:
			c.Center = c.Center.Sub(offset)
		case OriginShifter:
			c.ShiftOrigin(offset)
		}
		// A shifted collider has not moved.
		e.seen(e.c.Bounds())
	}
	// Hooks registered both as field and set are told once.
	var told []OriginShifter
	tell := func(x any) {
		s, ok := x.(OriginShifter)
		if !ok {
			return
		}
		if reflect.TypeOf(s).Comparable() {
			for _, t := range told {
				if reflect.TypeOf(t) == reflect.TypeOf(s) && t == s {
					return
				}
			}
		}
		told = append(told, s)
		s.ShiftOrigin(offset)
	}
	for _, f := range w.fields {
		tell(f)
	}
	for _, s := range w.sets {
		tell(s)
	}
	return nil
}
