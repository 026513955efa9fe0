package bodies

import (
	"fmt"
	"github.com/drape3d/drape/internal/vecmath"
	"math"

	"github.com/drape3d/drape/verlet3d"
	"github.com/go-gl/mathgl/mgl32"
)

// Settings describe how the cubes of a System touch things. Start from
// DefaultSettings; zero means zero (no friction, no margin).
type Settings struct {
	// Friction is the Coulomb coefficient between cubes. A cube rests on
	// another up to the friction angle atan(Friction). Against a collider
	// the collider's own ContactSettings.Friction applies. Default 0.6
	// (31°).
	Friction float32
	// ParticleFriction is the Coulomb coefficient between cubes and the
	// World's other particles (cloth, hair). Default 0.4.
	ParticleFriction float32
	// Restitution is the fraction of the approach speed two cubes keep
	// after they hit, in [0, 1]. Default 0 (no bounce). Against colliders
	// the collider's ContactSettings.Restitution applies.
	Restitution float32
	// Margin in meters: features this close get a contact before they
	// touch. Default 0.01.
	Margin float32
	// Passes is how many times at most the contacts of cubes (against
	// cubes and colliders) are solved per substep: all in the World's
	// first iteration when the System has only rigid cubes and no cloth
	// or hair touches them, else spread over the iterations, at least
	// twice in each. The passes of an island (cubes touching through
	// cubes) end early once none of its contacts moves or slides by more
	// than float32 noise. Four corners holding a cube by static friction,
	// and a stack, are chains of rigid contacts solved one after another
	// (Gauss-Seidel): too few passes leave a little sliding every substep,
	// which is creep. A pass costs a few dozen flops per contact and
	// touches no particle. 1 to 100; default 16: at
	// verlet3d.DefaultConfig (10 substeps of 2 iterations) a cube on a
	// slope 3° below its friction angle moves under 0.02 mm in 5 s, and
	// the top of a stack of six cubes 0.35% of its size in 20 s, hollow
	// ones 0.7% (1.2% with 12 passes, 2.0% with 8; the tests allow 2%); a
	// hollow twisted stack of five 0.95%, 1.6% and 3.2% in 10 s.
	Passes int
	// Engine chooses how cubes are solved: PoseEngine (the zero value and
	// the default) or ParticleEngine (jelly cubes, corner particles). It
	// is fixed when the System is made: SetSettings refuses another.
	Engine Engine
	// Substeps is how many times a step a PoseEngine System moves its
	// cubes and solves their contacts, spread evenly over the World's
	// substeps (at most Config.Substeps). Rigid contacts need fewer, and
	// shorter, substeps than cloth: each costs a pass over every contact.
	// 1 to 100 for PoseEngine; default 5. ParticleEngine moves cubes every
	// substep and ignores it.
	Substeps int
}

// DefaultSettings returns settings for wooden crates.
func DefaultSettings() Settings {
	return Settings{Friction: 0.6, ParticleFriction: 0.4, Margin: 0.01, Passes: 16, Substeps: 5}
}

// Validate reports the first invalid field, naming it and its value.
func (s Settings) Validate() error {
	switch {
	case !finite(s.Friction) || s.Friction < 0:
		return fmt.Errorf("bodies: Settings.Friction = %v, want a finite value >= 0", s.Friction)
	case !finite(s.ParticleFriction) || s.ParticleFriction < 0:
		return fmt.Errorf("bodies: Settings.ParticleFriction = %v, want a finite value >= 0", s.ParticleFriction)
	case !finite(s.Restitution) || s.Restitution < 0 || s.Restitution > 1:
		return fmt.Errorf("bodies: Settings.Restitution = %v, want [0, 1]", s.Restitution)
	case !finite(s.Margin) || s.Margin < 0:
		return fmt.Errorf("bodies: Settings.Margin = %v, want meters >= 0", s.Margin)
	case s.Passes < 1 || s.Passes > 100:
		return fmt.Errorf("bodies: Settings.Passes = %d, want 1 to 100", s.Passes)
	case s.Engine != ParticleEngine && s.Engine != PoseEngine:
		return fmt.Errorf("bodies: Settings.Engine = %v, want ParticleEngine or PoseEngine", s.Engine)
	case s.Engine == PoseEngine && (s.Substeps < 1 || s.Substeps > 100):
		return fmt.Errorf("bodies: Settings.Substeps = %d, want 1 to 100 (PoseEngine)", s.Substeps)
	}
	return nil
}

// Stats counts the contacts of the last substep.
type Stats struct {
	CubeContacts     int // vertex-face and edge-edge contacts between cubes
	ColliderContacts int // cube corners and faces against colliders
	ParticleContacts int // other particles against cube faces
	Pairs            int // cube pairs whose bounds overlapped (broad phase)
	Sleeping         int // cubes asleep at the end of the substep (see Sleeping)
}

// System owns cubes that live in one verlet3d.World and the temporary
// contacts between them, the colliders given to AddCollider and the
// World's other particles. It is a verlet3d.ConstraintSet, registered once
// by NewSystem. Not safe for concurrent use.
type System struct {
	w         *verlet3d.World
	set       Settings
	cubes     []cube
	colliders []colliderRef
	owned     []bool // by particle: belongs to a cube of this System
	nOwned    int    // particles owned
	contacts  []contact
	order     []int32   // cube indices sorted by lower x bound
	sortedLo  []float32 // lower x bounds in that order
	maxWidth  float32   // widest cube bounds along x, m
	margin    float32
	stats     Stats
	pose      *poseEngine // the PoseEngine's cubes; nil for ParticleEngine
	poseHooks poseHooks
	pass      int // solver passes since Prepare
	nRigid    int // contacts[:nRigid] are cube-cube and cube-collider
	rig       []rigid
	substeps  uint32       // Prepare calls so far, for the lone cubes' warm starts (warm.go)
	nJelly    int          // cubes with Compliance > 0
	interp    []mgl32.Vec3 // Interpolated's positions by particle
	nDragged  int          // cubes held by a pinned or dragged particle this substep

	// System.shares' job while it runs (shareRanges is runShares, bound
	// once so that no call allocates).
	shareN, shareW int
	shareJob       func(lo, hi int)
	shareRanges    func(lo, hi int)

	// Islands (island.go), rebuilt by every Prepare.
	islands       []island
	parent        []int32 // union-find forest over cubes
	islandOf      []int32 // island of a root cube, -1 for none yet
	contactIsland []int32 // island of each rigid contact
	islandCubes   []int32 // movable cubes by island
	slotOf        []int32 // by cube: its place in islandCubes and rig, -1 for none
	rows          []row   // solver rows of contacts[:nRigid], by island
	rowContact    []int32 // the contact of each row, set by buildIslands
	// What the serial parts of a substep read of every cube, written by
	// the range jobs (prepareCubes, generate) into one compact array, so
	// that they do not pull every cube's lines from the workers' caches.
	brief []cubeBrief
	// fixed: cube.fixed() after Prepare woke what it woke, by cube
	// (generate), for buildIslands.
	fixed []bool
	// pairSpan: by cube, where its pairs are (generate, mergeSlots).
	pairSpan []pairSpan
	// rigidSides: the cubes of contacts[:nRigid] (mergeSlots), all that
	// buildIslands reads of them.
	rigidSides []contactSides
	// cameFast: by contact of contacts[:nRigid], it pushed this substep
	// and its sides came together faster than -minApproach/h (the island
	// job), for restitution in finish.
	cameFast    []bool
	minApproach float32 // m per substep (Solve)
	hits        []int32 // cubes with fast collider contacts this substep (finish)

	// The Solve call's island job (bound once: shares takes a
	// func value, and a method value made per call would allocate).
	islandJob   func(lo, hi int)
	islandSplit []int32 // share k of the island job: islands [islandSplit[k], islandSplit[k+1])
	passes      int     // passes for this Solve call
	h           float32 // substep length during Prepare, s
	first       bool    // Prepare of the first substep of a step
	reset       bool    // the World's guard put a particle back since the last Prepare
	resets      int     // the World's Stats.NonFiniteResets at the last Prepare
	moveJob     func(lo, hi int)
	prepJob     func(lo, hi int) // prepareCubes, bound once
	carryJob    func(lo, hi int) // carryCubes, bound once
	genJob      func(lo, hi int) // generate, bound once
	// moveInIsland: the island job moves its cubes (no particle contacts).
	moveInIsland bool
	slots        []genSlot        // contacts made by the ranges of generate
	par          int32            // the parity of the substep, for keep's records (reuse.go)
	epoch        uint32           // counts the changes after which every cube finds its contacts afresh (reuse.go)
	moving       []bool           // by collider: it moves this step (wakeByColliders, reuse.go)
	mergeJob     func(lo, hi int) // mergeSlots, bound once
	publish      bool             // carryCubes publishes the transforms too
	pos          []mgl32.Vec3     // World.Positions during the island job
	hooks        hooks
	nAsleep      int        // cubes asleep (sleep.go)
	nextGroup    int32      // the last sleep group given out
	sleepGravity mgl32.Vec3 // the World's gravity when a cube last fell asleep
	// sleepers are the particles of the asleep cubes in cube order, as
	// their checks read them every substep; rebuilt (listSleepers) when
	// sleepersStale, set by every cube that falls asleep or wakes.
	sleepers      []sleeper
	sleepersStale bool

	// markBlocked's scratch: the World's contacts of the substep, and by
	// particle its first of them (-1: none), each linked to the next.
	worldContacts []verlet3d.Contact
	firstHold     []int32
	nextHold      []int32
}

// ParticleGroup is the collision group (verlet3d.World.SetGroup) of every
// cube's particles. A collider added through System.AddCollider leaves them
// out of its Mask: the System's own contacts hold cubes against it, as
// rigid bodies with static friction and a swept test for fast ones, and
// the World's per-particle contacts on the same corners only cost time (a
// third of a pile's cost while it sleeps). A collider added to the World
// directly acts on the corners one by one, as on any particle, unless its
// Mask leaves this bit out.
const ParticleGroup uint32 = 1 << 31

type colliderRef struct {
	// user is the collider as the game added it (world coordinates), c
	// the World's view of it in its frame (verlet3d.World.FrameCollider,
	// refreshed by frame) with own its storage.
	user, c, own verlet3d.Collider
	mu           float32 // the cubes' friction against it
	e            float32 // its restitution

	// Its motion (observe): where it was at the last step's start (its
	// bounds; a Plane's point and normal), and its velocity over that
	// step, m/s.
	seen   bool
	acts   bool // the PoseEngine's: it acts on the cubes (syncColliders)
	lo, hi mgl32.Vec3
	pp, pn mgl32.Vec3
	vel    mgl32.Vec3
}

// frame refreshes r.c, the collider in w's frame.
func (r *colliderRef) frame(w *verlet3d.World) { r.c = w.FrameCollider(r.user, &r.own) }

// shiftOrigin moves where collider r was seen by -offset when the World
// moves its frame (verlet3d.World.Origin): the collider has not moved (an
// unbounded side stays infinite).
func (r *colliderRef) shiftOrigin(offset mgl32.Vec3) {
	r.lo, r.hi, r.pp = r.lo.Sub(offset), r.hi.Sub(offset), r.pp.Sub(offset)
}

// observe runs at a step's start: it notes where collider r is (a Plane by
// its point and normal, any other collider by its bounds) and reports
// whether it moved since the last step's start, setting its velocity over
// that step (0 when not known: a turned plane, unbounded bounds). It sets
// lo, hi to where it was then and is now together.
func (r *colliderRef) observe(dt float32) (moved bool, lo, hi mgl32.Vec3) {
	lo, hi = r.c.Bounds()
	var pp, pn, vel mgl32.Vec3
	pl, isPlane := r.c.(*verlet3d.Plane)
	if isPlane {
		pp, pn = pl.Point, pl.Normal
	}
	moved = r.seen && (lo != r.lo || hi != r.hi || pp != r.pp || pn != r.pn)
	if moved {
		if isPlane {
			if pn == r.pn {
				vel = vecmath.Scale(pn, dot(pp.Sub(r.pp), pn)/dt)
			}
		} else if c, c0 := vecmath.Scale(lo.Add(hi), 0.5), vecmath.Scale(r.lo.Add(r.hi), 0.5); vecmath.Finite(c) && vecmath.Finite(c0) {
			vel = vecmath.Scale(c.Sub(c0), 1/dt)
		}
		if !vecmath.Finite(vel) {
			vel = mgl32.Vec3{}
		}
	}
	wlo := mgl32.Vec3{min(lo[0], r.lo[0]), min(lo[1], r.lo[1]), min(lo[2], r.lo[2])}
	whi := mgl32.Vec3{max(hi[0], r.hi[0]), max(hi[1], r.hi[1]), max(hi[2], r.hi[2])}
	r.seen, r.lo, r.hi, r.pp, r.pn, r.vel = true, lo, hi, pp, pn, vel
	return moved, wlo, whi
}

// NewSystem makes an empty System for w and adds its hooks to w. It
// returns an error naming an invalid setting, and panics on a nil w.
func NewSystem(w *verlet3d.World, s Settings) (*System, error) {
	if w == nil {
		panic("bodies: NewSystem: World is nil")
	}
	if err := s.Validate(); err != nil {
		return nil, err
	}
	if s.Engine == PoseEngine {
		return newPoseSystem(w, s), nil
	}
	sys := &System{w: w, set: s}
	sys.hooks = hooks{sys}
	sys.shareRanges = sys.runShares
	sys.islandJob = sys.solveIslandShares
	sys.moveJob = sys.moveCubes
	sys.prepJob = sys.prepareCubes
	sys.carryJob = sys.carryCubes
	sys.genJob = sys.generate
	sys.mergeJob = sys.mergeSlots
	w.AddConstraintSet(sys.hooks)
	return sys, nil
}

// Remove takes the System's hooks out of the World: its cubes' particles
// and links stay, but get no more cube contacts, and asleep cubes wake
// (their links, which the World skipped while the System held them, hold
// them together again).
func (s *System) Remove() {
	if s.pose != nil {
		s.w.RemoveConstraintSet(s.poseHooks)
		s.pose.wakeAll()
		return
	}
	s.w.RemoveConstraintSet(s.hooks)
	s.wakeAll()
}

// hooks is the System's verlet3d.ConstraintSet and Finisher, unexported so
// that a game never sees solver plumbing.
type hooks struct{ s *System }

func (k hooks) Prepare(w *verlet3d.World, s verlet3d.Substep) {
	if s.First() {
		for i := range k.s.colliders {
			k.s.colliders[i].frame(w)
		}
	}
	k.s.prepare(w, s.H, s.First())
}
func (k hooks) Solve(w *verlet3d.World, s verlet3d.Substep)  { k.s.solve(w, s) }
func (k hooks) Finish(w *verlet3d.World, s verlet3d.Substep) { k.s.finish(w, s) }

// World returns the World the System's cubes live in.
func (s *System) World() *verlet3d.World { return s.w }

// Settings returns the System's settings.
func (s *System) Settings() Settings { return s.set }

// SetSettings changes the settings from the next substep on.
func (s *System) SetSettings(set Settings) error {
	if err := set.Validate(); err != nil {
		return err
	}
	if set.Engine != s.set.Engine {
		return fmt.Errorf("bodies: Settings.Engine = %v: the System was made with %v, which it keeps", set.Engine, s.set.Engine)
	}
	s.set = set
	if s.pose != nil {
		s.pose.wakeAll()
		s.w.Wake()
		return nil
	}
	s.epoch++
	s.wakeAll() // asleep cubes rest by the old friction
	return nil
}

// Stats returns the contact counts of the last substep.
func (s *System) Stats() Stats {
	if s.pose != nil {
		return s.pose.stats
	}
	return s.stats
}

// NumCubes returns the number of cubes.
func (s *System) NumCubes() int {
	if s.pose != nil {
		return len(s.pose.bodies)
	}
	return len(s.cubes)
}

// AddCollider adds c to the World (every particle but the cubes', cloth
// included, then collides with it: cs.Mask less ParticleGroup) and to the
// System, which holds cubes against it: their corners resting on it get
// position-level static friction (so a cube holds on a slope up to
// atan(Friction)), fast cubes are swept against it, and small colliders
// such as spheres are kept from entering a cube between its corners, with
// cs.Friction as the cubes' friction against it.
func (s *System) AddCollider(c verlet3d.Collider, cs verlet3d.ContactSettings) error {
	if cs.Mask == 0 {
		cs.Mask = ^uint32(0)
	}
	cs.Mask &^= ParticleGroup
	if err := s.w.AddCollider(c, cs); err != nil {
		return err
	}
	s.colliders = append(s.colliders, colliderRef{user: c, mu: cs.Friction, e: cs.Restitution})
	r := &s.colliders[len(s.colliders)-1]
	r.frame(s.w)
	if s.pose != nil {
		lo, hi := r.c.Bounds()
		s.pose.wakeNear(lo, hi, s.w.Config().TimeStep)
		return nil
	}
	s.epoch++
	return nil
}

// AddCube adds a cube: 8 corner particles and a center particle (none if
// Hollow) joined by links between every pair, 36 (28 if Hollow). It
// returns an error naming the field if the settings are invalid.
func (s *System) AddCube(cs CubeSettings) (Cube, error) {
	if s.pose != nil {
		return s.addPoseCube(cs)
	}
	var c Cube
	err := s.w.Atomically(func() (err error) { c, err = s.addCube(cs); return err })
	if err != nil {
		return -1, err // a refused cube leaves the World as it was
	}
	s.epoch++
	return c, nil
}

// addCube builds the cube of AddCube.
func (s *System) addCube(cs CubeSettings) (Cube, error) {
	if err := cs.Validate(); err != nil {
		return -1, err
	}
	q := mgl32.QuatIdent()
	if cs.Rotation != (mgl32.Quat{}) {
		q = vecmath.QuatNormalize(cs.Rotation)
	}
	half := float32(cs.Size / 2)
	cornerMass := cs.Mass / 24
	if cs.Hollow {
		cornerMass = float32(cs.Mass / 8)
	}
	w := s.w
	// Built in the World's frame (verlet3d.World.Origin), moved to the
	// cube first when nothing else is near it.
	w.Recenter(cs.Position)
	at := w.ToLocal(cs.Position)
	cb := cube{center: -1, half: half, mass: cs.Mass, mc: cornerMass, rigid: cs.Compliance == 0}
	if !cs.Hollow {
		cb.m0 = cs.Mass * 2 / 3
	}
	cb.invM = 1 / cs.Mass
	cb.invI = 1 / (16 * cornerMass * half * half)
	var parts [9]verlet3d.Particle
	n := 8
	for i := 0; i < 8; i++ {
		r := mgl32.Vec3{float32(cornerSign(i, 0) * half), float32(cornerSign(i, 1) * half), float32(cornerSign(i, 2) * half)}
		p, err := w.AddParticleLocal(at.Add(vecmath.QuatRotate(q, r)), cornerMass)
		if err != nil {
			return -1, fmt.Errorf("bodies: AddCube: %w", err)
		}
		cb.p[i] = int32(p)
		parts[i] = p
		w.SetGroup(p, ParticleGroup)
	}
	if !cs.Hollow {
		p, err := w.AddParticleLocal(at, cs.Mass*2/3)
		if err != nil {
			return -1, fmt.Errorf("bodies: AddCube: %w", err)
		}
		cb.center = int32(p)
		parts[8] = p
		w.SetGroup(p, ParticleGroup)
		n = 9
	}
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			l, err := w.AddLink(parts[i], parts[j], verlet3d.LinkSettings{Compliance: cs.Compliance})
			if err != nil {
				return -1, fmt.Errorf("bodies: AddCube: %w", err)
			}
			if cb.nLinks == 0 {
				cb.link0 = l
			}
			cb.nLinks++ // handles are given out in order
		}
	}
	for i := 0; i < n; i++ {
		r := w.Positions()[parts[i]].Sub(at)
		w.SetVelocity(parts[i], cs.Velocity.Add(vecmath.Cross(cs.AngularVelocity, r)))
	}
	cb.q = toQuatd(q)
	cb.pos, cb.quat = at, cb.q.quat()
	cb.c, cb.cPrev = at, at
	s.cubes = append(s.cubes, cb)
	if !cb.rigid {
		s.nJelly++
	}
	s.order = append(s.order, int32(len(s.cubes)-1))
	s.sortedLo = append(s.sortedLo, 0)
	for i := 0; i < n; i++ {
		s.markOwned(int(parts[i]))
	}
	return Cube(len(s.cubes) - 1), nil
}

func (s *System) markOwned(p int) {
	for len(s.owned) <= p {
		s.owned = append(s.owned, false)
	}
	if !s.owned[p] {
		s.owned[p] = true
		s.nOwned++
	}
}

func (s *System) check(c Cube) *cube {
	if c < 0 || int(c) >= len(s.cubes) {
		panic(fmt.Sprintf("bodies: cube handle %d out of range [0, %d)", c, len(s.cubes)))
	}
	return &s.cubes[c]
}

// Transform returns the center (m) and rotation of c at the end of the last
// step: the center of mass of its particles, and their rotation (for a
// free rigid cube, the one its momentum turned them to, within 1e-6 rad of
// the particles' own).
func (s *System) Transform(c Cube) (mgl32.Vec3, mgl32.Quat) {
	if s.pose != nil {
		b := s.poseBody(c)
		return s.w.ToWorld(b.x), b.q
	}
	cb := s.check(c)
	return s.w.ToWorld(cb.pos), cb.quat
}

// Position returns the center of c in meters.
func (s *System) Position(c Cube) mgl32.Vec3 {
	if s.pose != nil {
		return s.w.ToWorld(s.poseBody(c).x)
	}
	return s.w.ToWorld(s.check(c).pos)
}

// Rotation returns the rotation of c from its own frame to the world.
func (s *System) Rotation(c Cube) mgl32.Quat {
	if s.pose != nil {
		return s.poseBody(c).q
	}
	return s.check(c).quat
}

// TransformIn recovers the transform of c from another set of positions
// indexed by particle in the World's frame, such as World.Interpolated,
// and returns its center in world coordinates. It does not change the
// System. (Interpolated gives the transform a renderer draws between
// steps, on either engine.)
//
// A PoseEngine cube has no particles: it returns Transform.
func (s *System) TransformIn(c Cube, positions []mgl32.Vec3) (mgl32.Vec3, mgl32.Quat) {
	if s.pose != nil {
		return s.Transform(c)
	}
	cb := s.check(c)
	a, ctr := moment(positions, &cb.p)
	q := rotationNear(a, toQuatd(cb.quat), 8)
	return s.w.ToWorld(mgl32.Vec3{float32(ctr[0]), float32(ctr[1]), float32(ctr[2])}), q.quat()
}

// Interpolated returns the transform of c a fraction World.Alpha of the
// way through the last step, from where the step began to where it ended:
// what a renderer draws when frame and step rates differ. A PoseEngine cube
// blends its two poses (the rotation along the shorter arc); a
// ParticleEngine cube's is recovered from its particles'
// World.InterpolatedPosition. It panics on a bad handle.
func (s *System) Interpolated(c Cube) (mgl32.Vec3, mgl32.Quat) {
	a := s.w.Alpha()
	if s.pose != nil {
		b := s.poseBody(c)
		if a == 0 {
			return s.w.ToWorld(b.x), b.q
		}
		return s.w.ToWorld(b.xs.Add(vecmath.Scale(b.x.Sub(b.xs), a))), vecmath.QuatSlerp(b.qs, b.q, a)
	}
	cb := s.check(c)
	if n := len(s.w.Positions()); len(s.interp) < n {
		s.interp = append(s.interp, make([]mgl32.Vec3, n-len(s.interp))...)
	}
	cb.particles(func(p verlet3d.Particle) { s.interp[p] = s.w.ToLocal(s.w.InterpolatedPosition(p)) })
	return s.TransformIn(c, s.interp)
}

// Size returns the edge length of c in meters.
func (s *System) Size(c Cube) float32 {
	if s.pose != nil {
		return float32(2 * s.poseBody(c).half)
	}
	return float32(2 * s.check(c).half)
}

// Mass returns the mass of c in kg.
func (s *System) Mass(c Cube) float32 {
	if s.pose != nil {
		return s.poseBody(c).mass
	}
	return s.check(c).mass
}

// Corners returns the corner particles of c. Corner i sits at
// (±1, ±1, ±1)·Size/2 in the cube's frame: bit 0 of i selects +x, bit 1 +y,
// bit 2 +z. A PoseEngine cube has no particles: Corners panics.
func (s *System) Corners(c Cube) [8]verlet3d.Particle {
	if s.pose != nil {
		s.poseBody(c)
		panic(fmt.Sprintf("bodies: Corners(%d): a PoseEngine cube has no particles", c))
	}
	cb := s.check(c)
	var out [8]verlet3d.Particle
	for i, p := range cb.p {
		out[i] = verlet3d.Particle(p)
	}
	return out
}

// CenterParticle returns the center particle of c; ok is false if the cube
// was made without one (Hollow, or a PoseEngine cube).
func (s *System) CenterParticle(c Cube) (p verlet3d.Particle, ok bool) {
	if s.pose != nil {
		s.poseBody(c)
		return -1, false
	}
	cb := s.check(c)
	return verlet3d.Particle(cb.center), cb.center >= 0
}

// Owns reports whether p is a particle of one of the System's cubes.
func (s *System) Owns(p verlet3d.Particle) bool {
	return p >= 0 && int(p) < len(s.owned) && s.owned[p]
}

// particles calls f for every particle of cb.
func (cb *cube) particles(f func(p verlet3d.Particle)) {
	for _, p := range cb.p {
		f(verlet3d.Particle(p))
	}
	if cb.center >= 0 {
		f(verlet3d.Particle(cb.center))
	}
}

// Velocity returns the mass-weighted mean velocity of c in m/s.
func (s *System) Velocity(c Cube) mgl32.Vec3 {
	if s.pose != nil {
		return s.poseBody(c).v
	}
	cb := s.check(c)
	var v mgl32.Vec3
	var m float32
	cb.particles(func(p verlet3d.Particle) {
		mp := s.w.Mass(p)
		v = v.Add(vecmath.Scale(s.w.Velocity(p), mp))
		m += mp
	})
	return vecmath.Scale(v, 1/m)
}

// AngularVelocity returns how fast c spins, rad/s about world axes through
// its center: a PoseEngine cube's own spin, a ParticleEngine cube's from
// its particles' angular momentum about the center (over Inertia). It
// panics on a bad handle.
func (s *System) AngularVelocity(c Cube) mgl32.Vec3 {
	if s.pose != nil {
		return s.poseBody(c).w
	}
	_, l, inert := s.particleSpin(c)
	return vecmath.Scale(l, 1/inert)
}

// Inertia returns c's moment of inertia about any axis through its center,
// kg m²: a cube's is the same about every axis, Mass·Size²/6 for a solid
// cube and Mass·Size²/2 for a Hollow one (its mass in its corners). It
// panics on a bad handle.
func (s *System) Inertia(c Cube) float32 {
	if s.pose != nil {
		return s.poseBody(c).inert
	}
	_, _, inert := s.particleSpin(c)
	return inert
}

// particleSpin returns a ParticleEngine cube's center of mass, its
// particles' angular momentum about it (kg m²/s) and its moment of inertia
// (2/3 of the sum of m r² over its particles: a cube's point masses, placed
// symmetrically, have the same inertia about every axis through the
// center).
func (s *System) particleSpin(c Cube) (ctr, l mgl32.Vec3, inert float32) {
	cb := s.check(c)
	var m float32
	cb.particles(func(p verlet3d.Particle) {
		mp := s.w.Mass(p)
		ctr = ctr.Add(vecmath.Scale(s.w.Position(p), mp))
		m += mp
	})
	ctr = vecmath.Scale(ctr, 1/m)
	v := s.Velocity(c)
	var r2 float32
	cb.particles(func(p verlet3d.Particle) {
		mp := s.w.Mass(p)
		r := s.w.Position(p).Sub(ctr)
		l = l.Add(vecmath.Scale(vecmath.Cross(r, s.w.Velocity(p).Sub(v)), mp))
		r2 += float32(mp * vecmath.Dot(r, r))
	})
	return ctr, l, float32(r2 * 2 / 3)
}

// Throw sets the velocity of c: its center moves at v (m/s) and it spins
// at omega (rad/s about world axes through its center). It returns an
// error naming the values for non-finite ones, or ones that would move a
// corner faster than verlet3d.MaxSpeedLimit.
func (s *System) Throw(c Cube, v, omega mgl32.Vec3) error {
	if s.pose != nil {
		return s.throwPose(c, v, omega)
	}
	cb := s.check(c)
	if !vecmath.Finite(v) || !vecmath.Finite(omega) {
		return fmt.Errorf("bodies: Throw(%d, v = %v, omega = %v): want finite velocities", c, v, omega)
	}
	ctr := s.centerOf(cb)
	if err := s.checkSpeeds(cb, ctr, v, omega); err != nil {
		return fmt.Errorf("bodies: Throw(%d, v = %v, omega = %v): %w", c, v, omega, err)
	}
	cb.particles(func(p verlet3d.Particle) {
		s.w.SetVelocity(p, v.Add(vecmath.Cross(omega, s.w.Position(p).Sub(ctr))))
	})
	return nil
}

// checkSpeeds reports a motion (center velocity v plus spin omega about
// ctr) that would move a particle of cb faster than verlet3d.MaxSpeedLimit,
// computed in float64 so that absurd finite inputs cannot overflow.
func (s *System) checkSpeeds(cb *cube, ctr, v, omega mgl32.Vec3) error {
	var worst float64
	bad := false
	cb.particles(func(p verlet3d.Particle) {
		r := s.w.Position(p).Sub(ctr)
		var u [3]float64
		for i := 0; i < 3; i++ {
			j, k := (i+1)%3, (i+2)%3
			u[i] = float64(v[i]) + float64(float64(omega[j])*float64(r[k])) - float64(float64(omega[k])*float64(r[j]))
		}
		sp := math.Sqrt(float64(u[0]*u[0]) + float64(u[1]*u[1]) + float64(u[2]*u[2]))
		if !(sp <= verlet3d.MaxSpeedLimit) {
			bad = true
		}
		worst = math.Max(worst, sp)
	})
	if bad {
		return fmt.Errorf("a corner would move at %g m/s, want at most %g (verlet3d.MaxSpeedLimit)", worst, float64(verlet3d.MaxSpeedLimit))
	}
	return nil
}

func (s *System) centerOf(cb *cube) mgl32.Vec3 {
	pos := s.w.Positions()
	var c mgl32.Vec3
	for _, p := range cb.p {
		c = c.Add(pos[p])
	}
	return vecmath.Scale(c, 1.0/8)
}

// ApplyImpulse hits c with impulse (N·s) at the world point at: the center
// speeds up by impulse/Mass and the cube starts turning by the torque
// (at - center) × impulse over its inertia, as a rigid body would. It
// returns an error naming the values for a non-finite at or impulse, or one
// that would move a corner faster than verlet3d.MaxSpeedLimit.
func (s *System) ApplyImpulse(c Cube, at, impulse mgl32.Vec3) error {
	if s.pose != nil {
		return s.impulsePose(c, at, impulse)
	}
	cb := s.check(c)
	if !vecmath.Finite(at) || !vecmath.Finite(impulse) {
		return fmt.Errorf("bodies: ApplyImpulse(%d, at = %v, impulse = %v): want finite vectors", c, at, impulse)
	}
	ctr := s.centerOf(cb)
	// Inertia tensor of the particles about the center, in float64.
	var in [3][3]float64
	var m float64
	cb.particles(func(p verlet3d.Particle) {
		mp := float64(s.w.Mass(p))
		r := s.w.Position(p).Sub(ctr)
		rr := float64(vecmath.Dot(r, r))
		for i := 0; i < 3; i++ {
			for j := 0; j < 3; j++ {
				v := float64(-float64(r[i]) * float64(r[j]))
				if i == j {
					v += rr
				}
				in[i][j] += float64(mp * v)
			}
		}
		m += mp
	})
	// The torque in float64: a 1e30 arm times a 1e30 impulse is finite.
	ra := at.Sub(ctr)
	tq := [3]float64{
		float64(float64(ra[1])*float64(impulse[2])) - float64(float64(ra[2])*float64(impulse[1])),
		float64(float64(ra[2])*float64(impulse[0])) - float64(float64(ra[0])*float64(impulse[2])),
		float64(float64(ra[0])*float64(impulse[1])) - float64(float64(ra[1])*float64(impulse[0])),
	}
	omega64 := solve3d(in, tq)
	dv64 := [3]float64{float64(impulse[0]) / m, float64(impulse[1]) / m, float64(impulse[2]) / m}
	for i := 0; i < 3; i++ {
		if !(math.Abs(omega64[i]) <= 1e30 && math.Abs(dv64[i]) <= verlet3d.MaxSpeedLimit) {
			return fmt.Errorf("bodies: ApplyImpulse(%d, at = %v, impulse = %v): the cube would move at %v m/s and turn at %v rad/s, want corners at most %g m/s (verlet3d.MaxSpeedLimit)",
				c, at, impulse, dv64, omega64, float64(verlet3d.MaxSpeedLimit))
		}
	}
	omega := mgl32.Vec3{float32(omega64[0]), float32(omega64[1]), float32(omega64[2])}
	dv := mgl32.Vec3{float32(dv64[0]), float32(dv64[1]), float32(dv64[2])}
	if err := s.checkSpeeds(cb, ctr, dv, omega); err != nil {
		return fmt.Errorf("bodies: ApplyImpulse(%d, at = %v, impulse = %v): %w", c, at, impulse, err)
	}
	cb.particles(func(p verlet3d.Particle) {
		r := s.w.Position(p).Sub(ctr)
		s.w.SetVelocity(p, s.w.Velocity(p).Add(dv).Add(vecmath.Cross(omega, r)))
	})
	return nil
}
