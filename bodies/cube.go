package bodies

import (
	"fmt"
	"github.com/drape3d/drape/internal/vecmath"

	"github.com/drape3d/drape/verlet3d"
	"github.com/go-gl/mathgl/mgl32"
)

// Cube is a handle to one cube of a System, an index in the order cubes
// were added. Handles stay valid for the life of the System.
type Cube int32

// CubeSettings describe a cube when it is added. Size and Mass are
// required; everything else has a useful zero value.
type CubeSettings struct {
	// Size is the edge length in meters, in [1e-3, 1e3]: a cube smaller
	// than a millimetre or larger than a kilometre is outside what float32
	// positions and a 1/60 s step can hold together.
	Size float32
	// Mass is the total mass in kg, in [1e-6, 1e9].
	Mass float32
	// Position is the center in meters.
	Position mgl32.Vec3
	// Rotation turns the cube from its own frame to the world. The zero
	// value (all components 0) means no rotation; other values are
	// normalised.
	Rotation mgl32.Quat
	// Velocity is the initial velocity of the center in m/s.
	Velocity mgl32.Vec3
	// AngularVelocity is the initial spin in rad/s about world axes.
	AngularVelocity mgl32.Vec3
	// Hollow leaves out the center particle. By default a ninth particle
	// sits at the center, linked to every corner and holding 2/3 of the
	// mass, so the cube has the rotational inertia of a solid cube
	// (M·size²/6) and tumbles like one, and a mouse ray through the middle
	// of a face picks (and drags) the cube by its center. A hollow cube is
	// only its 8 corners with 1/8 of the mass each and 28 links: cheaper,
	// but with three times the inertia it turns sluggishly and stacks creep
	// more.
	Hollow bool
	// Compliance of the links in m/N (XPBD, inverse stiffness). 0, the
	// default, is rigid; 1e-5 makes a jelly cube.
	Compliance float32
}

// Validate reports the first invalid field, naming it and its value.
func (s CubeSettings) Validate() error {
	switch {
	case !finite(s.Size) || s.Size < 1e-3 || s.Size > 1e3:
		return fmt.Errorf("bodies: CubeSettings.Size = %v, want an edge length in [1e-3, 1e3] m", s.Size)
	case !finite(s.Mass) || s.Mass < 1e-6 || s.Mass > 1e9:
		return fmt.Errorf("bodies: CubeSettings.Mass = %v, want a mass in [1e-6, 1e9] kg", s.Mass)
	case !vecmath.Finite(s.Position) || !inCoordinateRange(s.Position):
		return fmt.Errorf("bodies: CubeSettings.Position = %v, want meters within ±%g", s.Position, float32(verlet3d.MaxCoordinate-1e3))
	case !finite(s.Rotation.W) || !vecmath.Finite(s.Rotation.V):
		return fmt.Errorf("bodies: CubeSettings.Rotation = %v, want a finite quaternion", s.Rotation)
	case !vecmath.Finite(s.Velocity) || vecmath.Len(s.Velocity) > verlet3d.MaxSpeedLimit:
		return fmt.Errorf("bodies: CubeSettings.Velocity = %v, want m/s up to %g (verlet3d.MaxSpeedLimit)", s.Velocity, float32(verlet3d.MaxSpeedLimit))
	case !vecmath.Finite(s.AngularVelocity) || vecmath.Len(s.AngularVelocity)*s.Size > verlet3d.MaxSpeedLimit:
		return fmt.Errorf("bodies: CubeSettings.AngularVelocity = %v, want rad/s up to %g/Size (verlet3d.MaxSpeedLimit at the corners)", s.AngularVelocity, float32(verlet3d.MaxSpeedLimit))
	case !finite(s.Compliance) || s.Compliance < 0 || s.Compliance > verlet3d.MaxCompliance:
		return fmt.Errorf("bodies: CubeSettings.Compliance = %v, want m/N in [0, %g]", s.Compliance, float32(verlet3d.MaxCompliance))
	}
	if s.Rotation != (mgl32.Quat{}) && vecmath.QuatLen(s.Rotation) < 1e-6 {
		return fmt.Errorf("bodies: CubeSettings.Rotation = %v, want a non-zero quaternion (or all zeros for none)", s.Rotation)
	}
	return nil
}

// cube is the System's record of one cube.
// hitSum sums a cube's collider contacts that came in fast in one substep:
// how many, their points and normals, their approach at the start of the
// substep and now (m along the normal, < 0 approaching), and the largest
// restitution.
type hitSum struct {
	n     int32
	p, nn mgl32.Vec3
	v0, v float32
	e     float32
}

type cube struct {
	p       [8]int32          // corner particles; corner i at sign(bit k of i) along axis k
	center  int32             // center particle, -1 if none
	grip    verlet3d.Particle // the corner held by Grab
	gripped bool
	half    float32 // half the edge length, m
	mass    float32 // kg
	mc, m0  float32 // mass of one corner and of the center particle, kg
	invM    float32 // 1/mass, 1/kg
	invI    float32 // 1/inertia about any axis through the center, 1/(kg·m²)
	held    bool    // a particle is pinned or dragged (or the cube sleeps)
	// pivot: exactly one particle, pin, is held (a crate dragged by a
	// corner): contacts with other cubes turn it about that particle
	// instead of meeting it as immovable.
	pivot bool
	pin   int32
	fast  bool // moved more than fastMove half-sizes this substep
	rigid bool // Compliance 0: the cube keeps its own momentum (momentum.go)

	// Working frame, refreshed by Prepare after integration.
	c     mgl32.Vec3    // center (mean of the corners), m
	cPrev mgl32.Vec3    // center at the start of the substep
	axis  [3]mgl32.Vec3 // world directions of the local axes
	q     quatd         // rotation, warm start for the next recovery
	lo    mgl32.Vec3    // bounds of the corners plus the contact margin
	hi    mgl32.Vec3

	// Solve-time rigid correction: translation dc and small turn th about
	// ctr0, the center of mass when the Solve call began.
	ctr0, dc, th mgl32.Vec3

	// Momentum (momentum.go): pred is set when predict placed the
	// particles this substep, at rotation qPred, each moved by dpred from
	// its start; v (m/s) and om (rad/s) are the velocity and spin.
	pred  bool
	qPred quatd
	v, om [3]float64
	dpred [9]mgl32.Vec3
	// qNext is the rotation at the start of the next substep, found by
	// carry (qNextOK) from the prediction and the solve's turn: within a
	// step predict needs no polar decomposition. cNext is the center of
	// mass carry found, where the next substep's predict finds it (the
	// World's integration copies the positions carry left into the
	// previous ones), summed in the same order to the same bits.
	qNext   quatd
	cNext   [3]float64
	qNextOK bool
	// xEnd is where carry left the particles at the end of a step: if
	// the next step finds them there, nothing moved them in between, and
	// qNext and cNext hold for its first substep too.
	xEnd [9]mgl32.Vec3
	offs [9][3]float64 // the particles' offsets from the center at qPred, m

	// Published transform, refreshed at the end of every step (carryCubes).
	pos  mgl32.Vec3
	quat mgl32.Quat

	// The impulses of its contacts when it was last a lone island
	// (warm.go).
	warm cubeWarm

	// A substep's fast collider contacts, summed by finish for
	// colliderBounce.
	hit hitSum

	// Its contacts of the last substep, kept while it stays put
	// (reuse.go).
	keep keep

	// Sleeping (sleep.go): asleep cubes are frozen at frozen (particles
	// in the order of particle(i)); group names the cubes that fell
	// asleep together; still counts the seconds the cube has been slower
	// than the World's SleepSpeed.
	asleep bool
	group  int32
	still  float32
	frozen [9]mgl32.Vec3
	// The cube's own links are World links [link0, link0+nLinks).
	link0  verlet3d.Link
	nLinks int32
}

// cubeBrief is what the serial parts of a substep, and the pair search of
// the other worker, read of a cube: 28 bytes, kept apart from the cube
// (System.brief), written by the range jobs of Prepare.
type cubeBrief struct {
	lo, hi  mgl32.Vec3 // its bounds (prepareCubes), for the sweep and the pair search
	dragged bool       // held and awake (prepareCubes)
}

// meetsAcross reports whether the bounds of a and b overlap along y and z
// (the sweep finds those that overlap along x).
func (a *cubeBrief) meetsAcross(b *cubeBrief) bool {
	return b.lo[1] <= a.hi[1] && b.hi[1] >= a.lo[1] && b.lo[2] <= a.hi[2] && b.hi[2] >= a.lo[2]
}

// fixed reports whether contacts meet c as immovable: held, and not by a
// single particle it can turn about (or asleep).
func (c *cube) fixed() bool { return c.held && !c.pivot }

// local returns x in the cube's working frame (center at the origin).
func (c *cube) local(x mgl32.Vec3) mgl32.Vec3 {
	// Component by component (see moveRigidly).
	dx, dy, dz := x[0]-c.c[0], x[1]-c.c[1], x[2]-c.c[2]
	a, b, e := &c.axis[0], &c.axis[1], &c.axis[2]
	return mgl32.Vec3{float32(dx*a[0]) + float32(dy*a[1]) + float32(dz*a[2]), float32(dx*b[0]) + float32(dy*b[1]) + float32(dz*b[2]), float32(dx*e[0]) + float32(dy*e[1]) + float32(dz*e[2])}
}

// cornerSign returns ±1: the side of corner i along axis k.
func cornerSign(i, k int) float32 {
	if i>>uint(k)&1 == 1 {
		return 1
	}
	return -1
}

// faceWeights returns the four corners of the face (axis, sign) and their
// bilinear weights for the point l (local coordinates, clamped to the
// face).
func faceWeights(half float32, l mgl32.Vec3, axis int, sign float32) (idx [4]uint8, w [4]float32) {
	var u [3]float32
	for k := 0; k < 3; k++ {
		t := float32((l[k]/half + 1) / 2)
		if t < 0 {
			t = 0
		} else if t > 1 {
			t = 1
		}
		u[k] = t
	}
	bit := 0
	if sign > 0 {
		bit = 1
	}
	a1, a2 := (axis+1)%3, (axis+2)%3
	n := 0
	for i := 0; i < 8; i++ {
		if i>>uint(axis)&1 != bit {
			continue
		}
		w1, w2 := u[a1], u[a2]
		if i>>uint(a1)&1 == 0 {
			w1 = 1 - w1
		}
		if i>>uint(a2)&1 == 0 {
			w2 = 1 - w2
		}
		idx[n], w[n] = uint8(i), float32(w1*w2)
		n++
	}
	return idx, w
}

func finite(f float32) bool { return vecmath.Finite32(f) }

// inCoordinateRange reports whether a cube centered at p keeps its corners
// within verlet3d.MaxCoordinate (with room for a 1 km cube).
func inCoordinateRange(p mgl32.Vec3) bool {
	const lim = verlet3d.MaxCoordinate - 1e3
	return p[0] >= -lim && p[0] <= lim && p[1] >= -lim && p[1] <= lim && p[2] >= -lim && p[2] <= lim
}
