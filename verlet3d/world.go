package verlet3d

import (
	"fmt"
	"github.com/drape3d/drape/internal/vecmath"
	"time"

	"github.com/go-gl/mathgl/mgl32"
)

// Particle is a handle to one particle of a World: an index into its flat
// slices. Handles stay valid for the life of the World; particles are never
// removed.
type Particle int32

// particle state flags.
const (
	stateFree      uint8 = iota // integrated and solved
	statePinned                 // inverse mass 0, stays where it is
	stateKinematic              // inverse mass 0, moves to its target each step
)

// World holds every particle, constraint, collider and force field of a
// simulation. It is not safe for concurrent use; Config.Workers goroutines
// are used internally during Step.
type World struct {
	cfg Config

	// Particle state, one entry per Particle handle.
	pos     []mgl32.Vec3 // current position, m
	prev    []mgl32.Vec3 // position one substep ago, m
	acc     []mgl32.Vec3 // accumulated acceleration for the substep, m/s²
	invMass []float32    // 1/kg, 0 for pinned and kinematic particles
	// massGen counts writes to invMass (new particles need none: they
	// join the solver through new links).
	massGen   uint64
	mass      []float32    // kg as added, restored by Unpin
	radius    []float32    // collision radius, m
	group     []uint32     // collision group bits, matched against a collider's Mask
	state     []uint8      // stateFree, statePinned or stateKinematic
	target    []mgl32.Vec3 // kinematic target at the end of the step
	stepStart []mgl32.Vec3 // positions at the start of the last step, for interpolation
	home      []mgl32.Vec3 // position as added, used by Reset and the NaN guard
	grabbed   []grab       // particles held by DragTo

	links   linkStore
	tethers []tether
	// tetherGen moves whenever a tether is added, removed or changed
	// (the kernel's groups, tetherK, follow it).
	tetherGen uint64
	tetherK   tetherKernels
	// contacts are rebuilt every substep.
	contacts  []contact
	colliders []colliderEntry
	fields    []ForceField
	sets      []ConstraintSet

	gravity  Gravity
	time     float64 // simulated seconds
	accum    float64 // Advance's unsimulated time, s
	alpha    float32 // leftover fraction after Advance
	stats    Stats
	broken   []Link // links broken during the last Step or Advance
	onBreak  func(Link)
	steps    int64   // steps run: the clock is timeBase + steps·TimeStep
	timeBase float64 // set by SetTime, s
	// run is the step's scheduler: the workers, the jobs bound to them
	// and what the fused fast paths did ahead (schedule.go).
	run schedule
	// accUsed is set when anything but gravity may have written acc since
	// it was last cleared (a ForceField, AddForce, AddAcceleration).
	accUsed bool
	// accGravity is set when acc holds gravity for this substep.
	accGravity bool
	sleep      sleepState
	// origin is the world position of the frame's origin, m (see Origin):
	// particles, targets and homes are kept relative to it.
	origin [3]float64
}

// Stats counts events since the World was made.
type Stats struct {
	Steps           int // fixed steps run
	NonFiniteResets int // particles found NaN or infinite and reset
	SpeedClamps     int // integrations whose speed was clamped to MaxSpeed
	Contacts        int // contacts built in the last substep
	LinksBroken     int // links broken by strain
	DroppedSteps    int // steps Advance skipped because of MaxStepsPerFrame
	// ParallelLinkPasses counts link passes that ran split between
	// workers (Config.Workers > 1 and the links cut into regions).
	ParallelLinkPasses int
	// ParallelJobs counts World.Parallel calls that ran on more than one
	// worker.
	ParallelJobs int
	// SleepingSteps counts steps skipped because the World was asleep.
	SleepingSteps int
	// Phases is the wall time spent in each phase of the step, summed
	// over every substep so far: take the difference between two reads
	// for a frame's split.
	Phases PhaseTimes
}

// PhaseTimes is wall time per phase of the step (see the package doc for
// the phases), summed over substeps.
type PhaseTimes struct {
	Forces time.Duration // force fields
	// Integrate is Verlet integration, gravity and kinematic targets.
	// With Config.Workers > 1, 2,048 particles or more and no force
	// field, every substep's integration but the first runs in one
	// dispatch with the previous substep's guard, and is counted in Post.
	// When, in a World cut into link regions, no ConstraintSet and no
	// Collider of the game's own runs between a substep's integration and
	// its first link pass, the contact detection and that pass run in the
	// same dispatch too (see the package doc), and are counted with it:
	// in Post, or in Integrate.
	Integrate time.Duration
	Collide   time.Duration // contact detection against colliders
	// Solve is the constraint iterations: every ConstraintSet's Prepare,
	// links, tethers, every ConstraintSet's Solve and contacts.
	Solve time.Duration
	// Respond is contact friction and restitution and every Finisher.
	Respond time.Duration
	Post    time.Duration // breakage, the non-finite guard, the final collider clamp
}

// Total is the sum of the phases.
func (p PhaseTimes) Total() time.Duration {
	return p.Forces + p.Integrate + p.Collide + p.Solve + p.Respond + p.Post
}

// Sub returns p - q phase by phase: the split between two reads.
func (p PhaseTimes) Sub(q PhaseTimes) PhaseTimes {
	return PhaseTimes{
		p.Forces - q.Forces, p.Integrate - q.Integrate, p.Collide - q.Collide,
		p.Solve - q.Solve, p.Respond - q.Respond, p.Post - q.Post,
	}
}

// NewWorld makes an empty World. It returns an error naming the field if cfg
// is invalid.
func NewWorld(cfg Config) (*World, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	w := &World{cfg: cfg}
	w.run.integrateJob, w.run.guardJob, w.run.gravityJob = w.integrateRange, w.guardRange, w.gravityRange
	w.run.blocksJob, w.run.guardIntegrateJob = w.blocksRange, w.guardIntegrateRange
	w.run.collideJob, w.run.clampJob = w.collideRange, w.clampRange
	w.run.unitJob = w.solveUnits
	w.gravity = Gravity{Acceleration: cfg.Gravity}
	return w, nil
}

// Config returns the settings the World was made with.
func (w *World) Config() Config { return w.cfg }

// SetGravity changes the uniform gravity in m/s².
func (w *World) SetGravity(g mgl32.Vec3) error {
	w.Wake()
	if !finiteVec(g) {
		return fmt.Errorf("verlet3d: gravity %v is not finite", g)
	}
	w.cfg.Gravity = g
	w.gravity.Acceleration = g
	return nil
}

// SetIterations changes the solver passes per substep at run time.
func (w *World) SetIterations(n int) error {
	w.Wake()
	if n < 1 || n > 1000 {
		return fmt.Errorf("verlet3d: iterations = %d, want 1..1000", n)
	}
	w.cfg.Iterations = n
	return nil
}

// MaxTime is the latest clock, in seconds (about 28 hours), that SetTime
// accepts. Components read the time as a float32 (the wind's gusts and
// swirls): below MaxTime a float32 clock is good to 1/128 s, under half of
// a 60 Hz step, so the wind still moves smoothly; far beyond it the wind
// jumps or stands still, and past float32's range it would turn to NaN.
// Steps carry the clock on past MaxTime.
const MaxTime = 1e5

// Time returns the simulated time in seconds.
func (w *World) Time() float64 { return w.time }

// SetTime sets the simulated clock to t seconds (for a game that loads a
// save, or a test of long play); steps go on from there. It returns an
// error for a t that is not finite, negative or beyond MaxTime.
func (w *World) SetTime(t float64) error {
	if !(t >= 0 && t <= MaxTime) {
		return fmt.Errorf("verlet3d: SetTime(%v): want seconds in [0, %g] (MaxTime)", t, float64(MaxTime))
	}
	w.timeBase = t - float64(float64(w.steps)*float64(w.cfg.TimeStep))
	w.time = t
	return nil
}

// Stats returns event counters.
func (w *World) Stats() Stats { return w.stats }

// NumParticles returns the number of particles.
func (w *World) NumParticles() int { return len(w.pos) }

// Particle masses are 0 (pinned) or in [MinMass, MaxMass] kg: a denormal
// mass has an inverse that overflows, and the solver's sums lose everything
// else beside a huge one.
const (
	MinMass = 1e-9
	MaxMass = 1e12
)

// AddParticle adds a particle at pos with mass in kg; mass 0 makes it
// pinned. Other masses must be in [MinMass, MaxMass].
func (w *World) AddParticle(pos mgl32.Vec3, mass float32) (Particle, error) {
	if !vecInRange(pos, MaxCoordinate) {
		return -1, fmt.Errorf("verlet3d: particle position = %v, want finite meters within ±%g (MaxCoordinate)", pos, float32(MaxCoordinate))
	}
	return w.AddParticleLocal(w.ToLocal(pos), mass)
}

// AddParticleLocal is AddParticle with pos in the World's frame (see
// Origin), for a component that computes its particles there.
func (w *World) AddParticleLocal(pos mgl32.Vec3, mass float32) (Particle, error) {
	w.Wake()
	if !vecInRange(pos, MaxCoordinate) {
		return -1, fmt.Errorf("verlet3d: particle position = %v in the World's frame, want finite meters within ±%g (MaxCoordinate)", pos, float32(MaxCoordinate))
	}
	if !validMass(mass) {
		return -1, fmt.Errorf("verlet3d: particle mass = %v, want 0 (pinned) or kg in [%g, %g]", mass, MinMass, MaxMass)
	}
	p := Particle(len(w.pos))
	w.pos = append(w.pos, pos)
	w.prev = append(w.prev, pos)
	w.acc = append(w.acc, mgl32.Vec3{})
	w.mass = append(w.mass, mass)
	w.radius = append(w.radius, 0)
	w.group = append(w.group, 1)
	w.target = append(w.target, pos)
	w.stepStart = append(w.stepStart, pos)
	w.sleep.anchor = append(w.sleep.anchor, pos)
	w.home = append(w.home, pos)
	if mass == 0 {
		w.invMass = append(w.invMass, 0)
		w.state = append(w.state, statePinned)
	} else {
		w.invMass = append(w.invMass, 1/mass)
		w.state = append(w.state, stateFree)
	}
	return p, nil
}

func validMass(m float32) bool { return m == 0 || (m >= MinMass && m <= MaxMass) }

// check panics with a clear message if p is not a particle of w.
func (w *World) check(p Particle) {
	if p < 0 || int(p) >= len(w.pos) {
		panic(fmt.Sprintf("verlet3d: particle handle %d out of range [0, %d)", p, len(w.pos)))
	}
}

// Valid reports whether p is a particle of w.
func (w *World) Valid(p Particle) bool { return p >= 0 && int(p) < len(w.pos) }

// Position returns the position of p in meters.
func (w *World) Position(p Particle) mgl32.Vec3 { w.check(p); return w.ToWorld(w.pos[p]) }

// Velocity returns the velocity of p over the last substep in m/s.
func (w *World) Velocity(p Particle) mgl32.Vec3 {
	w.check(p)
	return vecmath.Scale(w.pos[p].Sub(w.prev[p]), 1/w.SubstepLength())
}

// SubstepLength returns h, the length of one substep in seconds.
func (w *World) SubstepLength() float32 { return w.cfg.TimeStep / float32(w.cfg.Substeps) }

// Positions returns the live position slice, indexed by Particle, in the
// World's frame (see Origin: add it for world coordinates). Read it
// freely; write it only from a ConstraintSet or between steps.
func (w *World) Positions() []mgl32.Vec3 { return w.pos }

// PrevPositions returns the live slice of positions one substep ago, in
// the World's frame.
// Velocity is (Positions - PrevPositions) / SubstepLength.
func (w *World) PrevPositions() []mgl32.Vec3 { return w.prev }

// InvMasses returns the live slice of inverse masses (1/kg, 0 when pinned).
// Do not write it; use Pin, Unpin and SetMass.
func (w *World) InvMasses() []float32 { return w.invMass }

// Radii returns the live slice of collision radii in meters.
func (w *World) Radii() []float32 { return w.radius }

// AddForce adds a force in newtons to p for the current substep. Use it from
// a ForceField; it has no effect on pinned and kinematic particles.
func (w *World) AddForce(p Particle, f mgl32.Vec3) {
	// Component by component (see package vecmath): as Vec3 values the
	// sum would wait on its own stores.
	a, m := &w.acc[p], w.invMass[p]
	a[0], a[1], a[2] = a[0]+float32(f[0]*m), a[1]+float32(f[1]*m), a[2]+float32(f[2]*m)
	w.markAccUsed()
}

// AddAcceleration adds an acceleration in m/s² to p for the current substep.
func (w *World) AddAcceleration(p Particle, a mgl32.Vec3) {
	c := &w.acc[p] // component by component (see package vecmath)
	c[0], c[1], c[2] = c[0]+a[0], c[1]+a[1], c[2]+a[2]
	w.markAccUsed()
}

// markAccUsed notes that acc holds more than gravity. From a ForceField the
// flag is already set (applyForces sets it before the fields run), so the
// fields' parallel jobs only read it: no write races.
func (w *World) markAccUsed() {
	if !w.accUsed {
		w.accUsed = true
	}
}

// Mass returns the mass of p in kg as added or last set, even while pinned.
func (w *World) Mass(p Particle) float32 { w.check(p); return w.mass[p] }

// SetMass changes the mass of p in kg. A mass of 0 pins it.
func (w *World) SetMass(p Particle, mass float32) error {
	w.Wake()
	w.check(p)
	if !validMass(mass) {
		return fmt.Errorf("verlet3d: particle %d mass = %v, want 0 (pinned) or kg in [%g, %g]", p, mass, MinMass, MaxMass)
	}
	w.mass[p] = mass
	if mass == 0 {
		w.Pin(p)
	} else if w.state[p] == stateFree {
		w.setInvMass(p, 1/mass)
	}
	return nil
}

// setInvMass is the one way to change an inverse mass after a particle
// was added: it counts the change, so the link solver refreshes the
// denominators it keeps (linkStore.prepare).
func (w *World) setInvMass(p Particle, v float32) {
	w.invMass[p] = v
	w.massGen++
}

// SetRadius sets the collision radius of p in meters: colliders keep its
// center this far outside their surface.
func (w *World) SetRadius(p Particle, r float32) error {
	w.Wake()
	w.check(p)
	if !inRange(r, MaxCoordinate) || r < 0 {
		return fmt.Errorf("verlet3d: particle %d radius = %v, want meters in [0, %g]", p, r, float32(MaxCoordinate))
	}
	w.radius[p] = r
	return nil
}

// SetGroup sets the collision group bits of p. A collider acts on p only if
// its Mask shares a bit with the group. Default 1.
func (w *World) SetGroup(p Particle, bits uint32) { w.check(p); w.group[p] = bits }

// Group returns the collision group bits of p.
func (w *World) Group(p Particle) uint32 { w.check(p); return w.group[p] }

// Pin fixes p where it is: inverse mass 0, no motion.
func (w *World) Pin(p Particle) {
	w.Wake()
	w.check(p)
	w.state[p] = statePinned
	w.setInvMass(p, 0)
	w.prev[p] = w.pos[p]
}

// Unpin releases p to move freely with the mass it was added with.
// A particle added with mass 0 stays pinned until SetMass gives it one.
func (w *World) Unpin(p Particle) {
	w.Wake()
	w.check(p)
	if w.mass[p] == 0 {
		return
	}
	w.state[p] = stateFree
	w.setInvMass(p, 1/w.mass[p])
}

// Pinned reports whether p is pinned or kinematic (inverse mass 0).
func (w *World) Pinned(p Particle) bool { w.check(p); return w.state[p] != stateFree }

// SetTarget makes p kinematic: over the next step it moves in a straight
// line to target, reaching it at the end of the step, and it pushes other
// particles without being pushed. Call it every frame for anchors that
// follow an animated node.
func (w *World) SetTarget(p Particle, target mgl32.Vec3) {
	w.check(p)
	if !finiteVec(target) {
		panic(fmt.Sprintf("verlet3d: SetTarget(%d, %v): target is not finite", p, target))
	}
	w.setTarget(p, w.ToLocal(clampVec(target, MaxCoordinate)))
}

// SetTargetLocal is SetTarget with target in the World's frame (see
// Origin), for a component that computes its targets there.
func (w *World) SetTargetLocal(p Particle, target mgl32.Vec3) {
	w.check(p)
	if !finiteVec(target) {
		panic(fmt.Sprintf("verlet3d: SetTargetLocal(%d, %v): target is not finite", p, target))
	}
	w.setTarget(p, clampVec(target, MaxCoordinate))
}

// setTarget is SetTarget in the frame.
func (w *World) setTarget(p Particle, target mgl32.Vec3) {
	if w.state[p] != stateKinematic {
		w.state[p] = stateKinematic
		w.setInvMass(p, 0)
	}
	w.target[p] = target
}

// Target returns the kinematic target of p (its position if it has none).
func (w *World) Target(p Particle) mgl32.Vec3 { return w.ToWorld(w.TargetLocal(p)) }

// TargetLocal is Target in the World's frame (see Origin).
func (w *World) TargetLocal(p Particle) mgl32.Vec3 {
	w.check(p)
	if w.state[p] == stateKinematic {
		return w.target[p]
	}
	return w.pos[p]
}

// SetPosition moves p to pos and keeps its velocity.
func (w *World) SetPosition(p Particle, pos mgl32.Vec3) {
	w.Wake()
	w.check(p)
	if !finiteVec(pos) {
		panic(fmt.Sprintf("verlet3d: SetPosition(%d, %v): position is not finite", p, pos))
	}
	w.setPosition(p, w.ToLocal(clampVec(pos, MaxCoordinate)))
}

// SetPositionLocal is SetPosition with pos in the World's frame (see
// Origin), for a component that computes positions there.
func (w *World) SetPositionLocal(p Particle, pos mgl32.Vec3) {
	w.Wake()
	w.check(p)
	if !finiteVec(pos) {
		panic(fmt.Sprintf("verlet3d: SetPositionLocal(%d, %v): position is not finite", p, pos))
	}
	w.setPosition(p, clampVec(pos, MaxCoordinate))
}

// setPosition is SetPosition in the frame.
func (w *World) setPosition(p Particle, pos mgl32.Vec3) {
	d := pos.Sub(w.pos[p])
	w.pos[p] = pos
	w.prev[p] = w.prev[p].Add(d)
	w.stepStart[p] = w.stepStart[p].Add(d)
	w.target[p] = w.target[p].Add(d)
}

// SetVelocity sets the velocity of p in m/s.
func (w *World) SetVelocity(p Particle, v mgl32.Vec3) {
	w.Wake()
	w.check(p)
	if !finiteVec(v) {
		panic(fmt.Sprintf("verlet3d: SetVelocity(%d, %v): velocity is not finite", p, v))
	}
	v = clampVec(v, MaxSpeedLimit)
	w.prev[p] = w.pos[p].Sub(vecmath.Scale(v, w.SubstepLength()))
}

// Teleport moves the given particles by offset in one jump, keeping their
// velocities and their shape: for a character that jumps or respawns. With
// no particles it moves the whole World.
func (w *World) Teleport(offset mgl32.Vec3, ps ...Particle) {
	w.Wake()
	if !finiteVec(offset) {
		panic(fmt.Sprintf("verlet3d: Teleport(%v): offset is not finite", offset))
	}
	offset = clampVec(offset, MaxCoordinate)
	lim := float32(MaxCoordinate)
	move := func(i int) {
		w.pos[i] = clampVec(w.pos[i].Add(offset), lim)
		w.prev[i] = clampVec(w.prev[i].Add(offset), lim)
		w.stepStart[i] = clampVec(w.stepStart[i].Add(offset), lim)
		w.target[i] = clampVec(w.target[i].Add(offset), lim)
	}
	if len(ps) == 0 {
		for i := range w.pos {
			move(i)
		}
		return
	}
	for _, p := range ps {
		w.check(p)
		move(int(p))
	}
}

// Reset puts every particle back where it was added, at rest, and clears
// kinematic targets and grabs. Constraints and colliders are kept.
func (w *World) Reset() {
	w.Wake()
	for i := range w.pos {
		w.pos[i] = w.home[i]
		w.prev[i] = w.home[i]
		w.stepStart[i] = w.home[i]
		w.target[i] = w.home[i]
		if w.state[i] == stateKinematic {
			w.state[i] = stateFree
			if w.mass[i] > 0 {
				w.setInvMass(Particle(i), 1/w.mass[i])
			} else {
				w.state[i] = statePinned
			}
		}
	}
	w.grabbed = w.grabbed[:0]
	w.accum = 0
	w.alpha = 0
}

// SetHome changes where Reset puts particle p (where it was added, until
// then): a component whose rest shape moves keeps it current (hair on a
// turning head). It panics on a bad handle.
func (w *World) SetHome(p Particle, pos mgl32.Vec3) { w.check(p); w.home[p] = w.ToLocal(pos) }

// SetHomeLocal is SetHome with pos in the World's frame (see Origin).
func (w *World) SetHomeLocal(p Particle, pos mgl32.Vec3) { w.check(p); w.home[p] = pos }

// Accelerations returns the live slice of this substep's accelerations,
// m/s², indexed by Particle, and marks them used as AddAcceleration does:
// a ForceField that sets many particles' accelerations at once adds to it
// directly (hair's air drag does). Write only from a ForceField's Apply,
// outside a World.Parallel job or within the entries of that job's own
// particles; it is gravity plus what fields added so far.
func (w *World) Accelerations() []mgl32.Vec3 {
	w.markAccUsed()
	return w.acc
}

// Interpolated writes into dst (grown as needed) the positions at the
// leftover fraction Alpha between the last two steps, for smooth rendering
// when the frame rate and the step rate differ, and returns it. Like
// Positions they are in the World's frame (see Origin).
func (w *World) Interpolated(dst []mgl32.Vec3) []mgl32.Vec3 {
	if cap(dst) < len(w.pos) {
		dst = make([]mgl32.Vec3, len(w.pos))
	}
	dst = dst[:len(w.pos)]
	a := w.alpha
	for i, p := range w.pos {
		s := w.stepStart[i]
		dst[i] = s.Add(vecmath.Scale(p.Sub(s), a))
	}
	return dst
}

// InterpolatedPosition returns where particle p is a fraction Alpha of the
// way through the last step, as Interpolated gives for every particle. It
// panics on a stale or out-of-range handle.
func (w *World) InterpolatedPosition(p Particle) mgl32.Vec3 {
	w.check(p)
	s := w.stepStart[p]
	return w.ToWorld(s.Add(vecmath.Scale(w.pos[p].Sub(s), w.alpha)))
}

// Alpha returns the fraction of a step Advance left unsimulated, in [0, 1).
func (w *World) Alpha() float32 { return w.alpha }
