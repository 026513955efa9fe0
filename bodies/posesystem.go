package bodies

import (
	"fmt"
	"math"

	"github.com/drape3d/drape/internal/vecmath"
	"github.com/drape3d/drape/verlet3d"
	"github.com/go-gl/mathgl/mgl32"
)

// poseHooks registers a PoseEngine System with its World.
type poseHooks struct{ s *System }

func (k poseHooks) Prepare(w *verlet3d.World, s verlet3d.Substep) {
	if s.First() {
		for i := range k.s.colliders {
			k.s.colliders[i].frame(w)
		}
		for i := range k.s.pose.cols {
			k.s.pose.cols[i].frame(w)
		}
	}
	k.s.pose.prepare(k.s, w, s)
}
func (k poseHooks) Solve(w *verlet3d.World, s verlet3d.Substep)  { k.s.pose.solve(k.s, w, s) }
func (k poseHooks) Finish(w *verlet3d.World, s verlet3d.Substep) { k.s.pose.finish(k.s, w, s) }

// ShiftOrigin moves what the engine keeps in the World's frame when the
// World moves it (verlet3d.World.Origin; see poseEngine.shiftOrigin).
func (k poseHooks) ShiftOrigin(offset mgl32.Vec3) {
	for i := range k.s.pose.cols {
		k.s.pose.cols[i].shiftOrigin(offset)
	}
	k.s.pose.shiftOrigin(offset)
	for i := range k.s.pose.cols {
		k.s.pose.cols[i].frame(k.s.w)
	}
}

// NearOrigin keeps the World's frame (verlet3d.World.Origin) where it is
// while a cube is within r of its origin along every axis.
func (k poseHooks) NearOrigin(r float32) bool {
	for i := range k.s.pose.bodies {
		x := k.s.pose.bodies[i].x
		if x[0] >= -r && x[0] <= r && x[1] >= -r && x[1] <= r && x[2] >= -r && x[2] <= r {
			return true
		}
	}
	return false
}

// BlocksSleep keeps the World awake while a cube is.
func (k poseHooks) BlocksSleep() bool { return k.s.pose.asleep < len(k.s.pose.bodies) }

// shiftOrigin subtracts offset from every world position the engine keeps:
// the cubes' poses (now, at the step's start, where their count toward
// sleep began) and grab targets, the swept bounds, and the world points of
// collider contacts (their surface point and friction anchor), this step's
// and the last, so kept contacts and anchors stay where they were relative
// to everything else and asleep cubes stay asleep.
func (e *poseEngine) shiftOrigin(offset mgl32.Vec3) {
	for i := range e.bodies {
		b := &e.bodies[i]
		b.x, b.xs, b.xa = b.x.Sub(offset), b.xs.Sub(offset), b.xa.Sub(offset)
		b.target, b.target0 = b.target.Sub(offset), b.target0.Sub(offset)
	}
	for i := range e.lo {
		e.lo[i], e.hi[i] = e.lo[i].Sub(offset), e.hi[i].Sub(offset)
	}
	for _, cs := range [][]poseContact{e.contacts, e.sorted, e.prev, e.slept} {
		for i := range cs {
			if c := &cs[i]; c.a < 0 {
				c.la, c.fa = c.la.Sub(offset), c.fa.Sub(offset)
			}
		}
	}
}

// newPoseSystem is NewSystem for a PoseEngine System.
func newPoseSystem(w *verlet3d.World, s Settings) *System {
	sys := &System{w: w, set: s, pose: &poseEngine{}}
	sys.pose.job = sys.pose.solveIslands
	sys.poseHooks = poseHooks{sys}
	w.AddConstraintSet(sys.poseHooks)
	return sys
}

// addPoseCube is AddCube for a PoseEngine System.
func (s *System) addPoseCube(cs CubeSettings) (Cube, error) {
	if err := cs.Validate(); err != nil {
		return -1, err
	}
	if cs.Compliance != 0 {
		return -1, fmt.Errorf("bodies: CubeSettings.Compliance = %v: a PoseEngine System's cubes are rigid (Compliance 0); jelly cubes need ParticleEngine", cs.Compliance)
	}
	if !vecmath.Finite(cs.Position) || math.Abs(float64(vecmath.Len(cs.Position))) > verlet3d.MaxCoordinate {
		return -1, fmt.Errorf("bodies: CubeSettings.Position = %v, want finite coordinates within %g m (verlet3d.MaxCoordinate)", cs.Position, float64(verlet3d.MaxCoordinate))
	}
	q := mgl32.QuatIdent()
	if cs.Rotation != (mgl32.Quat{}) {
		q = vecmath.QuatNormalize(cs.Rotation)
	}
	half := float32(cs.Size / 2)
	// A solid cube's inertia about any axis through its center is
	// m s²/6; a hollow one's, its mass in the eight corners, m s²/2.
	inert := cs.Mass * cs.Size * cs.Size / 6
	if cs.Hollow {
		inert = float32(cs.Mass * cs.Size * cs.Size / 2)
	}
	if err := checkPoseSpeeds(half, cs.Velocity, cs.AngularVelocity); err != nil {
		return -1, fmt.Errorf("bodies: CubeSettings.Velocity = %v, AngularVelocity = %v: %w", cs.Velocity, cs.AngularVelocity, err)
	}
	e := s.pose
	e.bodies = append(e.bodies, poseBody{
		x: s.w.ToLocal(cs.Position), xs: s.w.ToLocal(cs.Position), q: q, qs: q,
		v: cs.Velocity, w: cs.AngularVelocity,
		invM: 1 / cs.Mass, invI: 1 / inert, mass: cs.Mass, inert: inert, half: half,
		group: -1,
	})
	s.w.Wake()
	return Cube(len(e.bodies) - 1), nil
}

// checkPoseSpeeds reports a motion that would move a corner of a cube of
// half edge half faster than verlet3d.MaxSpeedLimit.
func checkPoseSpeeds(half float32, v, omega mgl32.Vec3) error {
	if !vecmath.Finite(v) || !vecmath.Finite(omega) {
		return fmt.Errorf("want finite velocities")
	}
	sp := math.Sqrt(float64(vecmath.Dot(v, v))) + float64(math.Sqrt(float64(vecmath.Dot(omega, omega)))*float64(half)*sqrt3)
	if !(sp <= verlet3d.MaxSpeedLimit) {
		return fmt.Errorf("a corner would move at up to %g m/s, want at most %g (verlet3d.MaxSpeedLimit)", sp, float64(verlet3d.MaxSpeedLimit))
	}
	return nil
}

// poseBody returns the pose engine's cube c, panicking on a bad handle.
func (s *System) poseBody(c Cube) *poseBody {
	if c < 0 || int(c) >= len(s.pose.bodies) {
		panic(fmt.Sprintf("bodies: cube handle %d out of range [0, %d)", c, len(s.pose.bodies)))
	}
	return &s.pose.bodies[c]
}

// throwPose is Throw for a PoseEngine System.
func (s *System) throwPose(c Cube, v, omega mgl32.Vec3) error {
	b := s.poseBody(c)
	if err := checkPoseSpeeds(b.half, v, omega); err != nil {
		return fmt.Errorf("bodies: Throw(%d, v = %v, omega = %v): %w", c, v, omega, err)
	}
	s.pose.wakeCube(int(c))
	b.v, b.w = v, omega
	s.w.Wake()
	return nil
}

// impulsePose is ApplyImpulse for a PoseEngine System.
func (s *System) impulsePose(c Cube, at, impulse mgl32.Vec3) error {
	b := s.poseBody(c)
	if !vecmath.Finite(at) || !vecmath.Finite(impulse) {
		return fmt.Errorf("bodies: ApplyImpulse(%d, at = %v, impulse = %v): want finite vectors", c, at, impulse)
	}
	// In float64: a 1e30 arm times a 1e30 impulse is finite there.
	r := s.w.ToLocal(at).Sub(b.x)
	var v, w mgl32.Vec3
	for i := 0; i < 3; i++ {
		j, k := (i+1)%3, (i+2)%3
		tq := float64(float64(r[j])*float64(impulse[k])) - float64(float64(r[k])*float64(impulse[j]))
		dw := tq / float64(b.inert)
		dv := float64(impulse[i]) / float64(b.mass)
		if !(math.Abs(dw) <= 1e30 && math.Abs(dv) <= verlet3d.MaxSpeedLimit) {
			return fmt.Errorf("bodies: ApplyImpulse(%d, at = %v, impulse = %v): the cube would move or turn faster than its corners may (verlet3d.MaxSpeedLimit = %g m/s)",
				c, at, impulse, float64(verlet3d.MaxSpeedLimit))
		}
		v[i] = b.v[i] + float32(dv)
		w[i] = b.w[i] + float32(dw)
	}
	if err := checkPoseSpeeds(b.half, v, w); err != nil {
		return fmt.Errorf("bodies: ApplyImpulse(%d, at = %v, impulse = %v): %w", c, at, impulse, err)
	}
	s.pose.wakeCube(int(c))
	b.v, b.w = v, w
	s.w.Wake()
	return nil
}
