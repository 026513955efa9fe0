package verlet3d

import (
	"fmt"
	"math"
	"reflect"

	"github.com/go-gl/mathgl/mgl32"
)

// OriginShifter is implemented by colliders, force fields and constraint
// sets that keep positions of their own in the World's frame (a head
// pose, last frame's anchors, a custom collider's shape): the World calls
// it whenever it moves its frame (see World.Origin), so they move with the
// particles. A Collider that does not implement it is given and returns
// world coordinates; the built-in colliders (Plane, Sphere, Capsule, Box)
// are read in world coordinates and converted by the World.
type OriginShifter interface {
	// ShiftOrigin subtracts offset (m) from every position kept in the
	// World's frame: the frame's origin has moved by +offset.
	ShiftOrigin(offset mgl32.Vec3)
}

// RecenterDistance in meters is how far the middle of a World's
// particles may stray from the origin of its frame before the World moves
// the frame to them (see World.Origin). Within it a float32 position is
// good to half a micrometer, and a substep's fall from rest under gravity
// at DefaultConfig (27 µm) is about 30 float32 steps or more: it rounds
// by under 2% at worst.
const RecenterDistance = 8

// recenterSamples is about how many particles, evenly spread over the
// handles, the recentering check looks at each step: the check costs the
// same for a cape and for 30,000 hair particles.
const recenterSamples = 16

// Origin returns the world position, in meters and float64, of the origin
// of the frame the World simulates in.
//
// Positions are float32, good to about 7 significant digits: 5 km from the
// origin a float32 coordinate is good to half a millimeter, and a
// particle's gravity per substep is lost in rounding. So the World keeps
// its particles near the origin of a frame of its own and moves the frame
// with them: at the start of each step, when the middle of its particles
// is farther than RecenterDistance from the frame's origin along any
// axis, it moves the origin to that middle, snapped to whole meters. A
// World whose content stays within RecenterDistance of (0, 0, 0) never
// moves its frame, and Origin stays (0, 0, 0).
//
// Methods that take or return one position (AddParticle, Position,
// SetPosition, SetTarget, Target, SetHome, InterpolatedPosition, Pick,
// DragTo) and the built-in colliders speak world coordinates, converted in
// float64. The slices (Positions, PrevPositions, Interpolated), the hooks
// (ForceField, ConstraintSet, OriginShifter) and Contacts work in the
// frame: add Origin to get world coordinates (ToWorld, ToWorld64), as a
// renderer does by placing its mesh's node at Origin and writing the
// frame's positions as vertices.
func (w *World) Origin() [3]float64 { return w.origin }

// ToLocal converts a world position to the World's frame (see Origin),
// rounding once to float32. With the frame at the origin it returns x
// unchanged.
func (w *World) ToLocal(x mgl32.Vec3) mgl32.Vec3 {
	if w.origin == ([3]float64{}) {
		return x
	}
	o := &w.origin
	return mgl32.Vec3{
		float32(float64(x[0]) - o[0]),
		float32(float64(x[1]) - o[1]),
		float32(float64(x[2]) - o[2]),
	}
}

// ToLocal64 converts a float64 world position to the World's frame, for a
// game that keeps its own positions in float64.
func (w *World) ToLocal64(x [3]float64) mgl32.Vec3 {
	o := &w.origin
	return mgl32.Vec3{float32(x[0] - o[0]), float32(x[1] - o[1]), float32(x[2] - o[2])}
}

// ToWorld converts a position in the World's frame (an entry of
// Positions, say) to world coordinates, rounding once to float32. With
// the frame at the origin it returns x unchanged.
func (w *World) ToWorld(x mgl32.Vec3) mgl32.Vec3 {
	if w.origin == ([3]float64{}) {
		return x
	}
	o := &w.origin
	return mgl32.Vec3{
		float32(o[0] + float64(x[0])),
		float32(o[1] + float64(x[1])),
		float32(o[2] + float64(x[2])),
	}
}

// ToWorld64 converts a position in the World's frame to world coordinates
// in float64, exactly.
func (w *World) ToWorld64(x mgl32.Vec3) [3]float64 {
	o := &w.origin
	return [3]float64{o[0] + float64(x[0]), o[1] + float64(x[1]), o[2] + float64(x[2])}
}

// recenter moves the frame to the middle of the particles when it has
// strayed farther than RecenterDistance from the frame's origin and no
// particle is left within that distance (see Origin). The middle is the
// median, axis by axis, of about recenterSamples particles spread over the
// handles: a piece thrown far away does not pull the frame from the rest,
// and a World whose content stays near the origin pays for the check only
// when most of its particles have left (a sheet torn off its pins and
// blown away, whose pins keep the frame where it is).
func (w *World) recenter() {
	n := len(w.pos)
	if n == 0 {
		return
	}
	stride := max(1, (n+recenterSamples-1)/recenterSamples)
	var sample [3][recenterSamples]float32
	m := 0
	for i := 0; i < n; i += stride {
		x := w.pos[i]
		if !finiteVec(x) {
			continue
		}
		for k := range 3 {
			// Insertion into the sorted sample.
			v, col := x[k], &sample[k]
			j := m
			for ; j > 0 && col[j-1] > v; j-- {
				col[j] = col[j-1]
			}
			col[j] = v
		}
		m++
	}
	if m == 0 {
		return
	}
	var mid [3]float64
	far := false
	for k := range 3 {
		mid[k] = float64((float64(sample[k][(m-1)/2]) + float64(sample[k][m/2])) / 2)
		far = far || math.Abs(mid[k]) > RecenterDistance
	}
	if !far || w.anyNear() {
		return
	}
	// Whole meters: every float32 coordinate below 2^23 m is a multiple
	// of its own rounding step and of 1 m's, so a particle that the shift
	// brings nearer the origin moves exactly.
	d := mgl32.Vec3{float32(math.Round(mid[0])), float32(math.Round(mid[1])), float32(math.Round(mid[2]))}
	for k := range 3 {
		w.origin[k] += float64(d[k])
	}
	w.moveFrame(d)
}

// Recenter moves the World's frame (see Origin) to at, in world
// coordinates snapped to whole meters, when no particle lies within
// RecenterDistance of the frame's origin, and reports whether it did. A
// component calls it before it builds far from the origin (a cape put on a
// character 5 km out), so what it builds is computed near the frame's
// origin, in full float32 precision, rather than moved there on the next
// step. World positions do not change: a move is never undone.
func (w *World) Recenter(at mgl32.Vec3) bool {
	if !vecInRange(at, MaxCoordinate) || w.anyNear() {
		return false
	}
	l := w.ToLocal64([3]float64{float64(at[0]), float64(at[1]), float64(at[2])})
	d := mgl32.Vec3{float32(math.Round(float64(l[0]))), float32(math.Round(float64(l[1]))), float32(math.Round(float64(l[2])))}
	if max(abs32(d[0]), abs32(d[1]), abs32(d[2])) <= RecenterDistance {
		return false
	}
	for k := range 3 {
		w.origin[k] += float64(d[k])
	}
	w.moveFrame(d)
	return true
}

func abs32(x float32) float32 { return max(x, -x) }

// OriginKeeper is implemented by force fields and constraint sets that
// simulate things of their own, not particles (the bodies package's
// PoseEngine cubes): the World does not move its frame (see Origin) while
// one of them reports something near the frame's origin.
type OriginKeeper interface {
	// NearOrigin reports whether something it simulates lies within r
	// meters of the World frame's origin along every axis.
	NearOrigin(r float32) bool
}

// anyNear reports whether a particle, or something an OriginKeeper
// simulates, lies within RecenterDistance of the frame's origin along
// every axis.
func (w *World) anyNear() bool {
	const r = RecenterDistance
	for _, x := range w.pos {
		if x[0] >= -r && x[0] <= r && x[1] >= -r && x[1] <= r && x[2] >= -r && x[2] <= r {
			return true
		}
	}
	for _, f := range w.fields {
		if k, ok := f.(OriginKeeper); ok && k.NearOrigin(r) {
			return true
		}
	}
	for _, s := range w.sets {
		if k, ok := s.(OriginKeeper); ok && k.NearOrigin(r) {
			return true
		}
	}
	return false
}

// moveFrame subtracts offset from every position the World keeps in its
// frame and tells the hooks that keep positions to do the same; the frame's
// origin has already moved by offset.
func (w *World) moveFrame(offset mgl32.Vec3) {
	for _, s := range [][]mgl32.Vec3{w.pos, w.prev, w.stepStart, w.target, w.home, w.sleep.anchor} {
		for i := range s {
			s[i] = s[i].Sub(offset)
		}
	}
	for i := range w.colliders {
		e := &w.colliders[i]
		if s, ok := e.c.(OriginShifter); ok {
			s.ShiftOrigin(offset)
		}
		// Its frame's bounds moved with the frame: the collider has not.
		e.lo, e.hi = e.lo.Sub(offset), e.hi.Sub(offset)
		if p, ok := e.c.(*Plane); ok {
			e.plane = w.localPlane(p)
		}
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
}

// ShiftOrigin moves the origin of the game's world coordinates to offset
// (in the current coordinates): every world position the World reports or
// keeps, its particles' and the built-in colliders' (whose Point, Center,
// A and B it moves), goes down by offset, so nothing moves relative to
// anything else and velocities are unchanged. A custom Collider that does
// not implement OriginShifter keeps world coordinates of the game's and is
// the game's to move.
//
// The World needs no help to stay precise far from the origin (see
// Origin): ShiftOrigin is for a game that moves its own coordinates, and
// it costs the World one float64 subtraction plus the built-in colliders.
// The particles' float32 positions in the World's frame do not change.
//
// It returns an error, and leaves the World as it was, for an offset with
// a coordinate that is not finite or beyond ±MaxCoordinate, or one that
// would carry a particle beyond ±MaxCoordinate.
func (w *World) ShiftOrigin(offset mgl32.Vec3) error {
	if !vecInRange(offset, MaxCoordinate) {
		return fmt.Errorf("verlet3d: ShiftOrigin(%v): offset, want finite meters within ±%g (MaxCoordinate)", offset, float32(MaxCoordinate))
	}
	for i, x := range w.pos {
		wx := w.ToWorld64(x)
		y := [3]float64{wx[0] - float64(offset[0]), wx[1] - float64(offset[1]), wx[2] - float64(offset[2])}
		if math.Abs(y[0]) > MaxCoordinate || math.Abs(y[1]) > MaxCoordinate || math.Abs(y[2]) > MaxCoordinate {
			return fmt.Errorf("verlet3d: ShiftOrigin(%v): particle %d at %v would be at %v, want meters within ±%g (MaxCoordinate)", offset, i, w.ToWorld(x), y, float32(MaxCoordinate))
		}
	}
	for k := range 3 {
		w.origin[k] -= float64(offset[k])
	}
	for i := range w.colliders {
		switch c := w.colliders[i].c.(type) {
		case *Plane:
			c.Point = c.Point.Sub(offset)
		case *Sphere:
			c.Center = c.Center.Sub(offset)
		case *Capsule:
			c.A, c.B = c.A.Sub(offset), c.B.Sub(offset)
		case *Box:
			c.Center = c.Center.Sub(offset)
		}
	}
	return nil
}
