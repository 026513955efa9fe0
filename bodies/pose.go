package bodies

import (
	"math"
	"strconv"

	"github.com/drape3d/drape/internal/vecmath"

	"github.com/drape3d/drape/verlet3d"
	"github.com/go-gl/mathgl/mgl32"
)

// Engine chooses how a System solves its cubes.
type Engine int

const (
	// PoseEngine, the default, makes every cube a rigid body whose state
	// is a pose (a center and a rotation) and the pose it had a substep
	// before: velocity is the change of pose over the substep, as a
	// Verlet particle's is the change of position. Contacts are found
	// once a step with a speculative margin that covers the step's motion
	// and are solved as positional constraints with generalized inverse
	// masses, Settings.Substeps times a step; islands of touching cubes
	// fall asleep whole. It adds no particle to the World: the World's
	// particles (cloth, hair) meet its cubes through one two-way contact.
	// It refuses jelly cubes (Compliance > 0).
	PoseEngine Engine = iota
	// ParticleEngine builds every cube from particles of the World: eight
	// corners (and a center particle unless Hollow) joined by links, moved
	// rigidly by shape matching when Compliance is 0. It is the engine of
	// jelly cubes (Compliance > 0), soft bodies whose corners give way,
	// and of cubes whose corners a game wants as particles (Corners).
	ParticleEngine
)

// String returns the constant's name.
func (e Engine) String() string {
	switch e {
	case ParticleEngine:
		return "ParticleEngine"
	case PoseEngine:
		return "PoseEngine"
	}
	return "Engine(" + strconv.Itoa(int(e)) + ")"
}

// poseBody is one cube of the pose engine. Its inertia is isotropic (a
// cube's is, solid or hollow), so its inverse is one number in any frame.
//
// Within a step the solver moves a cube by dp and turns it by the rotation
// vector dth from its pose at the step's start (xs, qs): contacts, found at
// that pose, then move with the cube to first order in the turn, which is
// what makes a contact a few multiply-adds (the step's turn is small: 0.1
// rad for a cube spinning at 6 rad/s at 60 Hz). Its pose x, q is updated
// from them after every substep.
type poseBody struct {
	// What the solver reads most, first: a particle contact reads these
	// alone.
	xs    mgl32.Vec3    // center at the start of the step, m
	dp    mgl32.Vec3    // move since the step's start, m
	dth   mgl32.Vec3    // turn since the step's start (rotation vector), rad
	half  float32       // half the edge, m
	group int32         // the island it fell asleep with, -1 while awake
	invM  float32       // 1/kg
	invI  float32       // 1/(kg m²)
	ax    [3]mgl32.Vec3 // its axes at the step's start (particle contacts)

	x     mgl32.Vec3 // center, m
	q     mgl32.Quat // rotation from the cube's frame to the world
	qs    mgl32.Quat // rotation at the start of the step
	dp0   mgl32.Vec3 // dp at the start of the substep
	dth0  mgl32.Vec3 // dth at the start of the substep
	v, w  mgl32.Vec3 // velocity (m/s) and spin (rad/s) after the last substep
	mass  float32    // kg
	inert float32    // kg m²

	// The pushes of the World's particles in its current substep: their
	// sum as a move and turn (pd, pth) and as the velocity and spin they
	// give it (pv, pw: each push over the World substep it came in), so
	// that what a particle loses the cube gains.
	pd, pth, pv, pw mgl32.Vec3

	reach float32    // how far a corner may move this step, m (speculative margin)
	push  float32    // how much further it looks for colliders, m
	still float32    // seconds the cube has stayed near xa, qa (updateSleep)
	xa    mgl32.Vec3 // where its count toward sleep began
	qa    mgl32.Quat
	wake  bool    // woken during the step: moves from the next step on
	rest  bool    // moved under restDrift since its contacts were found: keeps them
	drift float32 // how far it moved since its contacts were found, m

	held            bool       // held by Grab
	grip            mgl32.Vec3 // the held point in the cube's frame, m
	harm            mgl32.Vec3 // the held point's arm at the step's start (world axes), m
	target, target0 mgl32.Vec3 // where DragTo wants it, and wanted it at the step's start
}

// poseContact is a contact of the pose engine, found once a step and
// solved every substep: the point la on body a (or the fixed world point
// la when a < 0, a collider's surface) and the point lb on body b, in each
// body's own frame, must not come closer than 0 along the world normal n,
// which points from a toward b.
type poseContact struct {
	a, b   int32
	key    int32 // collider contacts: collider·8 + corner; cube pairs: -1
	island int32
	la, lb mgl32.Vec3
	// fa and fb are where static friction holds the contact: the point fb
	// of b (its frame) must not slide from the point fa of a (a's frame,
	// or the world when a < 0). They are the contact's points when it
	// first touches and stay while it sticks, from step to step (the
	// contact found again next step takes them over), so that what a
	// pass leaves unsolved does not add up to creep; a slip moves fa.
	fa, fb mgl32.Vec3
	mu, e  float32 // friction and restitution

	// Set up at the step's start (setup), in world axes.
	n          mgl32.Vec3 // normal, from a toward b
	t1, t2     mgl32.Vec3 // tangents
	ra, rb     mgl32.Vec3 // arms from the cubes' centers to the points, m
	an, bn     mgl32.Vec3 // ra × n, rb × n
	at1, bt1   mgl32.Vec3 // ra × t1, rb × t1
	at2, bt2   mgl32.Vec3 // ra × t2, rb × t2
	wa, ia     float32    // a's inverse mass and inertia in this step (0 for a collider or a sleeper)
	wb, ib     float32    // b's
	kn, k1, k2 float32    // effective masses along n, t1, t2, kg
	sep0       float32    // separation at the step's start, m
	d1, d2     float32    // fb's offset from fa along t1, t2 at the step's start, m
	s1, s2     float32    // how far fa followed a slide this step along t1, t2, m
	// The friction patch, on a manifold's first contact (patch).
	pat1, pbt1 mgl32.Vec3 // the patch center's arms crossed with t1
	pat2, pbt2 mgl32.Vec3 // and with t2
	pk1, pk2   float32    // effective masses at the center along t1, t2, kg
	pkt        float32    // effective moment of inertia about n, kg m²
	pd1, pd2   float32    // the center's offset from its anchor along t1, t2, m
	pr         float32    // the contacts' mean distance from the center, m
	ltw        float32    // twist friction this substep, kg m²
	sepEnd     float32    // separation at the step's end, m (endStep)
	d1End      float32    // offsets from the anchors at the step's end, m
	d2End      float32

	rank   int32   // the lower level of its cubes, -1 for a collider (orderByLevel)
	span   int32   // the first of a manifold: how many contacts it has; else 0
	fix    uint8   // in the last pass: 1 holds a, 2 holds b, 0 neither
	ks     float32 // effective mass along n with the held cube fixed, kg
	knAll  float32 // effective masses when every point of its manifold is down (couple), kg
	ksAll  float32
	ln, lt float32 // normal and friction corrections this substep, kg m
	depth  float32 // what may still be left of the depth it began in, m (<= 0)
	vn0    float32 // normal speed at the substep's start, m/s (restitution)
	cur    float32 // its separation in the current pass, m (solveNormals)
	// A collider contact's surface velocity (the collider's over the last
	// step, 0 for one at rest), m/s, and its parts along n, t1, t2.
	sv            mgl32.Vec3
	svn, sv1, sv2 float32
}

// poseEngine holds the pose engine's cubes and contacts.
type poseEngine struct {
	bodies   []poseBody
	contacts []poseContact
	sorted   []poseContact // contacts by island
	order    []int32       // cubes sorted by lower x bound (sweep)
	lo, hi   []mgl32.Vec3  // swept bounds by cube

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
	level       []int32       // by cube: cubes between it and the ground (orderByLevel)
	margin      float32       // Settings.Margin this step, m
	prev        []poseContact // the last step's contacts, for their anchors
	slept       []poseContact // the contacts of asleep islands when they fell asleep
	prevFirst   []int32       // by cube b: its first contact in prev, -1 for none
	prevNext    []int32       // by contact of prev: the next of the same b

	// The World's particles near the cubes (poseparticle.go).
	pairs         []particlePair
	porder        []int32      // particles sorted along x
	held          []mgl32.Vec3 // by particle: the normal of the World collider holding it, or 0
	heldList      []int32      // the particles held
	worldContacts []verlet3d.Contact
	pushes        []cubePush     // by cube, during a pass of solveParticles
	pushed        []int32        // the cubes pushed in that pass
	near          []particlePair // the pairs near enough in this substep
	pmove         []float32      // by particle: how far it may go this step, m
	touch         []particleTouch

	open bool    // a substep of the cubes has begun and not ended
	late bool    // its cubes integrate as their islands' solve begins
	sub  int     // the cubes' substeps ended so far this step
	frac float32 // how far through the step the cubes' current substep ends

	// The World's colliders that act on the cubes, in the World's order
	// (syncColliders): the System's, and any other whose Mask takes in
	// ParticleGroup.
	cols []colliderRef

	restitution float32    // Settings.Restitution this step
	gravity     mgl32.Vec3 // Config.Gravity at the last step
	dt, h0      float32    // the step and the World's substep, s
	tau         float32    // how far the cubes' current substep ends past where collider contacts were found, s

	// per substep, read by the island job
	h, damp float32
	g       mgl32.Vec3
	passes  int
	job     func(lo, hi int)
	stats   Stats
}

// maxContactsPerPair is what a cube pair's manifold keeps.
const maxContactsPerPair = 4

// rotate turns v by the unit quaternion q.
func rotate(q mgl32.Quat, v mgl32.Vec3) mgl32.Vec3 {
	// v + 2w (u × v) + 2 u × (u × v), u = q.V
	ux, uy, uz, qw := q.V[0], q.V[1], q.V[2], q.W
	tx := float32(2 * (float32(uy*v[2]) - float32(uz*v[1])))
	ty := float32(2 * (float32(uz*v[0]) - float32(ux*v[2])))
	tz := float32(2 * (float32(ux*v[1]) - float32(uy*v[0])))
	return mgl32.Vec3{
		v[0] + float32(qw*tx) + (float32(uy*tz) - float32(uz*ty)),
		v[1] + float32(qw*ty) + (float32(uz*tx) - float32(ux*tz)),
		v[2] + float32(qw*tz) + (float32(ux*ty) - float32(uy*tx)),
	}
}

// unrotate turns v by the inverse of the unit quaternion q.
func unrotate(q mgl32.Quat, v mgl32.Vec3) mgl32.Vec3 {
	return rotate(mgl32.Quat{W: q.W, V: mgl32.Vec3{-q.V[0], -q.V[1], -q.V[2]}}, v)
}

func normalize(q mgl32.Quat) mgl32.Quat {
	l := float32(q.W*q.W) + float32(q.V[0]*q.V[0]) + float32(q.V[1]*q.V[1]) + float32(q.V[2]*q.V[2])
	if !(l > 0) || l == 1 {
		return q
	}
	s := 1 / float32(math.Sqrt(float64(l)))
	return mgl32.Quat{W: float32(q.W * s), V: mgl32.Vec3{float32(q.V[0] * s), float32(q.V[1] * s), float32(q.V[2] * s)}}
}

func cross(a, b mgl32.Vec3) mgl32.Vec3 {
	return mgl32.Vec3{float32(a[1]*b[2]) - float32(a[2]*b[1]), float32(a[2]*b[0]) - float32(a[0]*b[2]), float32(a[0]*b[1]) - float32(a[1]*b[0])}
}

func dot(a, b mgl32.Vec3) float32 {
	return float32(a[0]*b[0]) + float32(a[1]*b[1]) + float32(a[2]*b[2])
}

func length(a mgl32.Vec3) float32 { return float32(math.Sqrt(float64(dot(a, a)))) }

// integrate starts substep h of body b: it keeps its move so far as the
// substep's start and moves on by its velocity, gravity and damping.
func (b *poseBody) integrate(h, damp float32, g mgl32.Vec3) {
	b.dp0, b.dth0 = b.dp, b.dth
	k := 1 - float32(damp*h)
	v := vecmath.Scale(b.v.Add(vecmath.Scale(g, h)), k)
	w := vecmath.Scale(b.w, k)
	b.v, b.w = v, w
	b.dp = b.dp.Add(vecmath.Scale(v, h))
	b.dth = b.dth.Add(vecmath.Scale(w, h))
}

// velocities ends substep h of body b: its velocity and spin become its
// move and turn over the substep.
func (b *poseBody) velocities(h float32) {
	inv := 1 / h
	// What particles pushed it by counts at the pace of the World's
	// substeps it came in (pv, pw), not spread over this one's.
	if b.pd == (mgl32.Vec3{}) && b.pth == (mgl32.Vec3{}) {
		b.v = vecmath.Scale(b.dp.Sub(b.dp0), inv)
		b.w = vecmath.Scale(b.dth.Sub(b.dth0), inv)
		return
	}
	b.v = vecmath.Scale(b.dp.Sub(b.dp0).Sub(b.pd), inv).Add(b.pv)
	b.w = vecmath.Scale(b.dth.Sub(b.dth0).Sub(b.pth), inv).Add(b.pw)
	b.pd, b.pth, b.pv, b.pw = mgl32.Vec3{}, mgl32.Vec3{}, mgl32.Vec3{}, mgl32.Vec3{}
}

// place sets the pose of body b from its move and turn since the step's
// start.
func (b *poseBody) place() {
	b.x = b.xs.Add(b.dp)
	b.q = normalize(vecmath.QuatMul(expMap(b.dth), b.qs))
}

// expMap returns the rotation by the rotation vector th (rad, world axes).
func expMap(th mgl32.Vec3) mgl32.Quat {
	a := length(th)
	if a < 1e-6 {
		return normalize(mgl32.Quat{W: 1, V: vecmath.Scale(th, 0.5)})
	}
	s := float32(math.Sin(float64(a/2))) / a
	return mgl32.Quat{W: float32(math.Cos(float64(a / 2))), V: vecmath.Scale(th, s)}
}
