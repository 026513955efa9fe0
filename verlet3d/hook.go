package verlet3d

import (
	"github.com/drape3d/drape/internal/vecmath"
	"github.com/go-gl/mathgl/mgl32"
)

// Substep is what the World tells every hook about the moment it runs in.
// It is computed by the World from integers and a float64 clock, never
// reconstructed from a float32 time, so it stays exact after hours of play.
type Substep struct {
	// Index is the substep within its step, 0 .. Count-1.
	Index int
	// Count is the number of substeps per step (Config.Substeps).
	Count int
	// H is the substep length in seconds.
	H float32
	// Frac is how far this substep goes toward the kinematic targets set
	// for the frame, as a fraction of what is left at the step's start, in
	// (0, 1]: kinematic things (pins, colliders, roots, a head) are at
	// Lerp(poseAtStepStart, target, Frac) during it. A frame of one step
	// gives (Index+1)/Count; when Advance runs several steps for a long
	// frame the motion is spread evenly over them, so a hitch does not put
	// the whole frame's motion into its first step. The last substep of the
	// frame's last step has Frac 1.
	Frac float32
	// Time is the simulated time at the start of the substep, s.
	Time float64
	// Step counts the World's steps before this one.
	Step int64
	// Iteration is the solver pass, 0 .. Iterations-1, in
	// ConstraintSet.Solve; 0 in the other hooks.
	Iteration int
	// Iterations is the number of solver passes (Config.Iterations).
	Iterations int
}

// First reports whether this is the first substep of its step.
func (s Substep) First() bool { return s.Index == 0 }

// Last reports whether this is the last substep of its step.
func (s Substep) Last() bool { return s.Index == s.Count-1 }

// LastIteration reports whether this is the last solver pass of the
// substep (meaningful in ConstraintSet.Solve).
func (s Substep) LastIteration() bool { return s.Iteration == s.Iterations-1 }

// ForceField adds forces or accelerations to particles once per substep,
// before integration, through World.AddForce or World.AddAcceleration.
// Fields run in the order they were added, after gravity.
type ForceField interface {
	// Apply adds this field's forces for substep s.
	Apply(w *World, s Substep)
}

// ConstraintSet is a group of constraints owned by a component (cube
// contacts, hair strands, tearing). The World calls it at fixed points of
// every substep; it reads and writes particles through Positions,
// PrevPositions and InvMasses, and may split its work with World.Parallel.
type ConstraintSet interface {
	// Prepare runs once per substep after integration and collider contacts
	// are built, before the solver iterations: build temporary constraints
	// here.
	Prepare(w *World, s Substep)
	// Solve runs once per solver iteration (s.Iteration), after links and
	// tethers and before collider contacts.
	Solve(w *World, s Substep)
}

// Finisher is an optional interface of a ConstraintSet: Finish runs once per
// substep after the iterations and the collider contacts' friction, for the
// set's own friction or bookkeeping.
type Finisher interface {
	Finish(w *World, s Substep)
}

// Pose is a rigid transform: a position in meters and a rotation (see
// Rotations in the package doc: the zero quaternion is the identity).
type Pose struct {
	Position mgl32.Vec3
	Rotation mgl32.Quat
}

// LerpPose blends two poses: the position linearly, the rotation along the
// shorter arc. t = 0 returns a and t = 1 returns b exactly. Kinematic
// things blend their pose with it from the step start to their target by
// Substep.Frac.
func LerpPose(a, b Pose, t float32) Pose {
	if t >= 1 {
		return b
	}
	if t <= 0 {
		return a
	}
	qa, qb := a.Rotation, b.Rotation
	if vecmath.QuatDot(qa, qb) < 0 {
		qb = vecmath.QuatScale(qb, -1)
	}
	return Pose{
		Position: a.Position.Add(vecmath.Scale(b.Position.Sub(a.Position), t)),
		Rotation: vecmath.QuatNormalize(vecmath.QuatSlerp(qa, qb, t)),
	}
}

// AddForceField adds f to the World. It panics on a nil f (a handle
// misuse, as every nil argument is).
func (w *World) AddForceField(f ForceField) {
	w.Wake()
	if isNil(f) {
		panic("verlet3d: AddForceField(nil)")
	}
	w.fields = append(w.fields, f)
}

// RemoveForceField removes f; it reports whether f was there.
func (w *World) RemoveForceField(f ForceField) bool {
	w.Wake()
	for i, g := range w.fields {
		if g == f {
			w.fields = append(w.fields[:i], w.fields[i+1:]...)
			return true
		}
	}
	return false
}

// AddConstraintSet adds s; sets are solved in the order they were added. It
// panics on a nil s.
func (w *World) AddConstraintSet(s ConstraintSet) {
	w.Wake()
	if isNil(s) {
		panic("verlet3d: AddConstraintSet(nil)")
	}
	w.sets = append(w.sets, s)
}

// RemoveConstraintSet removes s; it reports whether s was there.
func (w *World) RemoveConstraintSet(s ConstraintSet) bool {
	w.Wake()
	for i, g := range w.sets {
		if g == s {
			w.sets = append(w.sets[:i], w.sets[i+1:]...)
			return true
		}
	}
	return false
}
