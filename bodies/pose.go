package bodies

import (
	"math"

	"github.com/drape3d/drape/verlet3d"
	"github.com/go-gl/mathgl/mgl32"
)

// Engine chooses how a System solves its cubes.
type Engine int

const (
	// ParticleEngine builds every cube from particles of the World: eight
	// corners (and a center particle unless Hollow) joined by links, moved
	// rigidly by shape matching when Compliance is 0. Cloth and hair meet
	// its cubes, the mouse grabs their corners, and jelly cubes
	// (Compliance > 0) are possible.
	ParticleEngine Engine = iota
	// PoseEngine makes every cube a rigid body whose state is a pose (a
	// center and a rotation) and the pose it had a substep before:
	// velocity is the change of pose over the substep, as a Verlet
	// particle's is the change of position. Contacts are found once a
	// step with a speculative margin that covers the step's motion and are
	// solved as positional constraints with generalized inverse masses
	// every substep; islands of touching cubes fall asleep whole. It adds
	// no particle to the World. It holds cubes against each other and
	// against the System's colliders; it does not yet meet the World's
	// particles (cloth, hair) and refuses jelly cubes.
	PoseEngine
)

// String returns the constant's name.
func (e Engine) String() string {
	switch e {
	case ParticleEngine:
		return "ParticleEngine"
	case PoseEngine:
		return "PoseEngine"
	}
	return "Engine(" + itoa(int(e)) + ")"
}

func itoa(i int) string {
	if i == 0 {
		return "0"
	}
	neg := i < 0
	if neg {
		i = -i
	}
	var b [20]byte
	n := len(b)
	for i > 0 {
		n--
		b[n] = byte('0' + i%10)
		i /= 10
	}
	if neg {
		n--
		b[n] = '-'
	}
	return string(b[n:])
}

// poseBody is one cube of the pose engine. Its inertia is isotropic (a
// cube's is, solid or hollow), so its inverse is one number in any frame.
type poseBody struct {
	x, x0 mgl32.Vec3 // center now and at the start of the substep, m
	q, q0 mgl32.Quat // rotation now and at the start of the substep
	v, w  mgl32.Vec3 // velocity (m/s) and spin (rad/s) after the last substep
	xs    mgl32.Vec3 // center at the start of the step, m
	qs    mgl32.Quat // rotation at the start of the step
	invM  float32    // 1/kg; 0 while asleep in a step where something touches it
	invI  float32    // 1/(kg m²)
	mass  float32    // kg
	inert float32    // kg m²
	half  float32    // half the edge, m

	reach float32 // how far a corner may move this step, m (speculative margin)
	still float32 // seconds the cube has been slower than the World's SleepSpeed
	group int32   // the island it fell asleep with, -1 while awake
	wake  bool    // woken during the step: moves from the next step on
}

// poseContact is a contact of the pose engine, found once a step and
// solved every substep: the point la on body a (or the fixed world point
// la when a < 0, a collider's surface) and the point lb on body b, in each
// body's own frame, must not come closer than 0 along the world normal n,
// which points from a toward b.
type poseContact struct {
	a, b   int32
	key    int32 // collider contacts: collider·8 + corner; cube pairs: -1
	la, lb mgl32.Vec3
	n      mgl32.Vec3
	// fa and fb are where static friction holds the contact: the point fb
	// of b (its frame) must not slide from the point fa of a (a's frame,
	// or the world when a < 0). They are the contact's points when it
	// first touches and stay while it sticks, from step to step (the
	// contact found again next step takes them over), so that what a
	// pass leaves unsolved does not add up to creep; a slip moves fa.
	fa, fb mgl32.Vec3
	mu, e  float32 // friction and restitution
	island int32
	ln, lt float32 // normal and friction corrections this substep, kg m
	depth  float32 // what may still be left of the depth it began in, m (<= 0)
	vn0    float32 // normal speed at the substep's start, m/s (restitution)
}

// poseEngine holds the pose engine's cubes and contacts.
type poseEngine struct {
	bodies   []poseBody
	contacts []poseContact
	sorted   []poseContact // contacts by island
	order    []int32       // cubes sorted by lower x bound (sweep)
	lo, hi   []mgl32.Vec3  // swept bounds by cube
	maxExt   float32       // the widest swept bounds along x, m

	parent      []int32 // union-find over cubes
	islandOf    []int32 // island of each cube this step
	islandBody  []int32 // cubes by island
	bodyStart   []int32 // island k's cubes are islandBody[bodyStart[k]:bodyStart[k+1]]
	contStart   []int32 // island k's contacts are sorted[contStart[k]:contStart[k+1]]
	numIslands  int
	asleep      int
	nextGroup   int32
	islandStill []float32     // the slowest cube's still by island
	fill        []int32       // buildIslands' cursor by island
	prev        []poseContact // the last step's contacts, for their anchors
	prevFirst   []int32       // by cube b: its first contact in prev, -1 for none
	prevNext    []int32       // by contact of prev: the next of the same b

	// per substep, read by the island job
	h, damp float32
	g       mgl32.Vec3
	passes  int
	job     func(lo, hi int)
	w       *verlet3d.World
	stats   Stats
}

// maxContactsPerPair is what a cube pair's manifold keeps.
const maxContactsPerPair = 4

// rotate turns v by the unit quaternion q.
func rotate(q mgl32.Quat, v mgl32.Vec3) mgl32.Vec3 {
	// v + 2w (u × v) + 2 u × (u × v), u = q.V
	ux, uy, uz, qw := q.V[0], q.V[1], q.V[2], q.W
	tx := 2 * (uy*v[2] - uz*v[1])
	ty := 2 * (uz*v[0] - ux*v[2])
	tz := 2 * (ux*v[1] - uy*v[0])
	return mgl32.Vec3{
		v[0] + qw*tx + (uy*tz - uz*ty),
		v[1] + qw*ty + (uz*tx - ux*tz),
		v[2] + qw*tz + (ux*ty - uy*tx),
	}
}

// unrotate turns v by the inverse of the unit quaternion q.
func unrotate(q mgl32.Quat, v mgl32.Vec3) mgl32.Vec3 {
	return rotate(mgl32.Quat{W: q.W, V: mgl32.Vec3{-q.V[0], -q.V[1], -q.V[2]}}, v)
}

// turn adds the small rotation dw (rad, world axes) to q, unnormalized:
// q += ½ (0, dw) q.
func turn(q *mgl32.Quat, dw mgl32.Vec3) {
	x, y, z, w := q.V[0], q.V[1], q.V[2], q.W
	q.W += 0.5 * (-dw[0]*x - dw[1]*y - dw[2]*z)
	q.V[0] += 0.5 * (dw[0]*w + dw[1]*z - dw[2]*y)
	q.V[1] += 0.5 * (dw[1]*w + dw[2]*x - dw[0]*z)
	q.V[2] += 0.5 * (dw[2]*w + dw[0]*y - dw[1]*x)
}

func normalize(q mgl32.Quat) mgl32.Quat {
	l := q.W*q.W + q.V[0]*q.V[0] + q.V[1]*q.V[1] + q.V[2]*q.V[2]
	if !(l > 0) || l == 1 {
		return q
	}
	s := 1 / float32(math.Sqrt(float64(l)))
	return mgl32.Quat{W: q.W * s, V: mgl32.Vec3{q.V[0] * s, q.V[1] * s, q.V[2] * s}}
}

func cross(a, b mgl32.Vec3) mgl32.Vec3 {
	return mgl32.Vec3{a[1]*b[2] - a[2]*b[1], a[2]*b[0] - a[0]*b[2], a[0]*b[1] - a[1]*b[0]}
}

func dot(a, b mgl32.Vec3) float32 { return a[0]*b[0] + a[1]*b[1] + a[2]*b[2] }

func length(a mgl32.Vec3) float32 { return float32(math.Sqrt(float64(dot(a, a)))) }

// integrate starts substep h of body b: it keeps the pose as the
// substep's start and moves by the velocity, gravity and damping.
func (b *poseBody) integrate(h, damp float32, g mgl32.Vec3) {
	b.x0, b.q0 = b.x, b.q
	k := 1 - damp*h
	v := b.v.Add(g.Mul(h)).Mul(k)
	w := b.w.Mul(k)
	b.v, b.w = v, w
	b.x = b.x.Add(v.Mul(h))
	turn(&b.q, w.Mul(h))
	b.q = normalize(b.q)
}

// velocities ends substep h of body b: its velocity and spin become the
// change of pose over the substep.
func (b *poseBody) velocities(h float32) {
	b.q = normalize(b.q)
	inv := 1 / h
	b.v = b.x.Sub(b.x0).Mul(inv)
	// dq = q q0⁻¹; spin = 2 dq.V / h, taking the shorter way round.
	q, p := b.q, b.q0
	dw := q.W*p.W + q.V[0]*p.V[0] + q.V[1]*p.V[1] + q.V[2]*p.V[2]
	dv := mgl32.Vec3{
		-q.W*p.V[0] + p.W*q.V[0] - (q.V[1]*p.V[2] - q.V[2]*p.V[1]),
		-q.W*p.V[1] + p.W*q.V[1] - (q.V[2]*p.V[0] - q.V[0]*p.V[2]),
		-q.W*p.V[2] + p.W*q.V[2] - (q.V[0]*p.V[1] - q.V[1]*p.V[0]),
	}
	s := 2 * inv
	if dw < 0 {
		s = -s
	}
	b.w = dv.Mul(s)
}

// pointVelocity returns the velocity of the body point at r from its
// center (world axes).
func (b *poseBody) pointVelocity(r mgl32.Vec3) mgl32.Vec3 { return b.v.Add(cross(b.w, r)) }
