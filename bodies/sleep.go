package bodies

import (
	"github.com/drape3d/drape/internal/vecmath"
	"math"

	"github.com/drape3d/drape/verlet3d"
	"github.com/go-gl/mathgl/mgl32"
)

// Sleeping cubes.
//
// The World sleeps only when all of it rests, so a pile of crates beside a
// walking character or a flag in the wind would cost its full price every
// frame. Cubes therefore also sleep on their own, as the rigid bodies of
// Box2D and Jolt do, by the World's Config.SleepSpeed and SleepDelay (a
// SleepSpeed of 0 turns both off):
//
//   - A cube whose particles have all stayed slower than SleepSpeed for
//     SleepDelay falls asleep with the cubes of its island (those it
//     touches, directly or through others), once every one of them has;
//     cubes put to sleep together wake together. A held cube (a particle
//     pinned or dragged) never sleeps.
//   - An asleep cube is frozen where it fell asleep, at rest: every
//     substep the World's integration is undone (it only added gravity),
//     it gets no contacts with the floor or with other asleep cubes, no
//     rows, no prediction and no carry. Awake cubes, cloth and hair meet
//     it as an immovable body. Its costs are the World's integration of
//     its nine particles and a look at each of them; the World skips its
//     links while it sleeps (World.SetLinksIdle).
//   - It wakes, with its group, when anything moves it: a velocity or
//     position set on a particle (Throw, ApplyImpulse, World.SetVelocity,
//     SetPosition, Teleport, Reset), a pin or a drag, a change of gravity, a
//     force field acting on it, a World collider, link or
//     component that pushed a particle more than wakeMove in a substep; a
//     collider of the System that moved and now reaches it (a corner
//     within the contact margin of its surface, or its surface inside the
//     cube: a floor raised under it, a character's capsule walking into
//     it);
//     when the bounds of an awake cube that moved in the last step overlap
//     its own (so a pile wakes from the cube that hits it, and a stack
//     from its bottom; a neighbour that settles slowly against it just
//     leans on it); when a
//     particle (cloth, hair) runs into it faster than particleWakeSpeed;
//     by System.Wake; and when the System's Settings change.
//
// Sleeping changes nothing for cubes that are not asleep, and its
// decisions are taken on the calling goroutine in cube order, so results
// stay the same for any Config.Workers.

const (
	// wakeMove is how far, in meters, the World's solve (a collider, a
	// link, another component) may push a particle of an asleep cube in one
	// substep before the cube wakes; smaller pushes are undone. A corner
	// resting under a draped cloth is pushed about 2e-6 m a substep.
	wakeMove = 5e-6
	// particleWakeSpeed is how fast, in m/s, a particle must run into an
	// asleep cube to wake it: cloth settling on a crate does not, a cloth
	// dropped or thrown onto it does.
	particleWakeSpeed = 0.5
)

// Sleeping reports whether c is asleep. It panics if c is not a cube of
// the System.
func (s *System) Sleeping(c Cube) bool {
	if s.pose != nil {
		return s.poseBody(c).group >= 0
	}
	return s.check(c).asleep
}

// Wake wakes c, and the cubes that fell asleep with it, at once. It panics
// if c is not a cube of the System.
func (s *System) Wake(c Cube) {
	if s.pose != nil {
		s.poseBody(c)
		s.pose.wakeCube(int(c))
		s.w.Wake()
		return
	}
	cb := s.check(c)
	if cb.asleep {
		s.wakeGroup(cb.group)
	}
	cb.still = 0
}

// wakeAll wakes every cube.
func (s *System) wakeAll() {
	for i := range s.cubes {
		cb := &s.cubes[i]
		if cb.asleep {
			s.setAsleep(cb, false)
		}
		cb.still = 0
	}
}

// wakeGroup wakes the asleep cubes of group g.
func (s *System) wakeGroup(g int32) {
	for i := range s.cubes {
		cb := &s.cubes[i]
		if cb.asleep && cb.group == g {
			s.setAsleep(cb, false)
			cb.still = 0
		}
	}
}

// setAsleep puts cb to sleep or wakes it, counting asleep cubes.
func (s *System) setAsleep(cb *cube, asleep bool) {
	cb.asleep = asleep
	s.sleepersStale = true
	if asleep {
		s.nAsleep++
	} else {
		s.nAsleep--
	}
	// Its particles are held where it sleeps: its own links would not
	// move them (a link of the game's to a corner stays active).
	s.w.SetLinksIdle(cb.link0, int(cb.nLinks), asleep)
}

// sleeper is one particle of an asleep cube: where it sleeps and the
// rounding its checks allow there, 4 float32 spacings. The allowance is
// taken at the place it sleeps rather than at each new position (no
// spacing to find per particle and substep): a particle that has not
// moved is one substep's fall from it, where the spacing is the same, or
// half or twice it across a power of two, and one integration rounds by
// half a spacing there.
type sleeper struct {
	p      int32
	cube   int32
	frozen mgl32.Vec3
	ulps   float32
}

// listSleepers brings s.sleepers up to date.
func (s *System) listSleepers() []sleeper {
	if !s.sleepersStale {
		return s.sleepers
	}
	s.sleepers = s.sleepers[:0]
	for i := range s.cubes {
		cb := &s.cubes[i]
		if !cb.asleep {
			continue
		}
		for k, n := 0, cb.numParticles(); k < n; k++ {
			s.sleepers = append(s.sleepers, sleeper{p: cb.particle(k), cube: int32(i), frozen: cb.frozen[k], ulps: float32(4 * ulp(cb.frozen[k]))})
		}
	}
	s.sleepersStale = false
	return s.sleepers
}

// checkSleepers runs first in Prepare: an asleep cube whose particles did
// anything but fall from rest by gravity during the integration wakes (with
// its group); the others are put back where they sleep (holdSleepers).
func (s *System) checkSleepers(pos, prev []mgl32.Vec3, inv []float32, h float32) {
	g := s.w.Config().Gravity
	if g != s.sleepGravity {
		// They rest under the gravity they fell asleep in.
		s.wakeAll()
		return
	}
	h2 := float32(h * h)
	fall := vecmath.Scale(g, h2) // one substep's integration from rest
	// Rounding of positions far from the origin, and a thousandth of the
	// fall, pass as nothing.
	slack := float32(1e-3 * vecmath.Len(fall))
	sl := s.listSleepers()
	for i := range sl {
		// Component by component: mgl32's Vec3 methods pass their
		// results through the stack, where reading 8 bytes written as
		// two 4-byte halves stalls the load.
		sp := &sl[i]
		x, o := &pos[sp.p], &prev[sp.p]
		tol := slack + sp.ulps
		if inv[sp.p] == 0 || *o != sp.frozen ||
			abs(x[0]-o[0]-fall[0]) > tol || abs(x[1]-o[1]-fall[1]) > tol || abs(x[2]-o[2]-fall[2]) > tol {
			if cb := &s.cubes[sp.cube]; cb.asleep {
				s.wakeGroup(cb.group)
			}
		}
	}
	s.holdSleepers(pos, prev)
}

// wakeByColliders wakes, in the first substep of a step, the asleep cubes
// that a collider of the System moved since the last step (as the World
// tells moving colliders) now reaches. Asleep cubes get no contacts with
// colliders, so without this a floor raised under a sleeping crate passed
// up through it, and a character's capsule walked through a sleeping pile.
func (s *System) wakeByColliders(first bool) {
	if !first || s.nAsleep == 0 {
		return
	}
	for ci, r := range s.colliders {
		if !s.moving[ci] {
			continue
		}
		lo, hi := r.c.Bounds()
		for i := range s.cubes {
			cb := &s.cubes[i]
			if !cb.asleep || cb.lo[0] > hi[0] || cb.hi[0] < lo[0] ||
				cb.lo[1] > hi[1] || cb.hi[1] < lo[1] || cb.lo[2] > hi[2] || cb.hi[2] < lo[2] {
				continue
			}
			if s.reaches(r.c, cb) {
				s.wakeGroup(cb.group)
			}
		}
	}
}

// reaches reports whether collider c reaches the asleep cube cb: one of
// its corners lies within the contact margin of c's surface or inside it,
// or the point of c's surface nearest its center lies within the cube
// grown by the margin (a ball pressing on a face between the corners).
func (s *System) reaches(c verlet3d.Collider, cb *cube) bool {
	for _, x := range cb.frozen[:8] {
		if sp, n := c.Closest(x); vecmath.Dot(x.Sub(sp), n) < s.margin {
			return true
		}
	}
	sp, _ := c.Closest(cb.c)
	l, in := cb.local(sp), cb.half+s.margin
	return abs(l[0]) <= in && abs(l[1]) <= in && abs(l[2]) <= in
}

// holdSleepers puts every asleep cube's particles back where it sleeps, at
// rest.
func (s *System) holdSleepers(pos, prev []mgl32.Vec3) {
	sl := s.listSleepers()
	for i := range sl {
		sp := &sl[i]
		pos[sp.p], prev[sp.p] = sp.frozen, sp.frozen
	}
}

// ulp returns the spacing of float32 values at the largest coordinate of
// x. For a finite coordinate the next float32 up is the next bit pattern
// (as math.Nextafter32 finds it, without its checks: sleeping cubes ask
// for every particle every substep); a NaN takes math.Nextafter32's way.
func ulp(x mgl32.Vec3) float32 { return ulpAt(max(abs(x[0]), abs(x[1]), abs(x[2]))) }

// ulpAt is ulp for the largest magnitude m >= 0 of the coordinates.
func ulpAt(m float32) float32 {
	if !(m <= math.MaxFloat32) {
		return math.Nextafter32(m, float32(math.Inf(1))) - m
	}
	return math.Float32frombits(math.Float32bits(m)&^(1<<31)+1) - m // -0 is 0
}

// settleSleepers runs last in Finish: an asleep cube that the solve pushed
// farther than wakeMove wakes (its particles keep the push, which becomes
// their velocity); the others are put back where they sleep, at rest.
func (s *System) settleSleepers(pos, prev []mgl32.Vec3) {
	sl := s.listSleepers()
	for i := range sl {
		sp := &sl[i]
		x := &pos[sp.p]
		dx, dy, dz := x[0]-sp.frozen[0], x[1]-sp.frozen[1], x[2]-sp.frozen[2]
		// Far from the origin rounding alone moves a particle by a few
		// float32 steps.
		lim := wakeMove + sp.ulps
		if float32(dx*dx)+float32(dy*dy)+float32(dz*dz) > lim*lim {
			if cb := &s.cubes[sp.cube]; cb.asleep {
				s.wakeGroup(cb.group)
			}
		}
	}
	s.holdSleepers(pos, prev)
}

// updateSleep runs after a step's last substep: it counts how long each
// awake cube has been slower than the World's SleepSpeed and puts islands
// whose cubes all have been for SleepDelay to sleep.
func (s *System) updateSleep(pos, prev []mgl32.Vec3, h float32) {
	cfg := s.w.Config()
	if cfg.SleepSpeed == 0 {
		if s.nAsleep > 0 {
			s.wakeAll()
		}
		return
	}
	limit := float32(cfg.SleepSpeed * h)
	for i := range s.cubes {
		cb := &s.cubes[i]
		if cb.asleep {
			continue
		}
		slow := !cb.held
		for k, n := 0, cb.numParticles(); k < n && slow; k++ {
			p := cb.particle(k)
			x, o := &pos[p], &prev[p]
			dx, dy, dz := x[0]-o[0], x[1]-o[1], x[2]-o[2]
			// A couple of float32 steps far from the origin is rounding,
			// not motion.
			lim := limit + float32(2*ulp(*x))
			slow = float32(dx*dx)+float32(dy*dy)+float32(dz*dz) <= lim*lim
		}
		if slow {
			// Bounded: a cube kept awake by a moving neighbour for hours
			// does not count on in float32.
			cb.still = min(cb.still+cfg.TimeStep, cfg.SleepDelay+cfg.TimeStep)
		} else {
			cb.still = 0
		}
	}
	ready := func(c int32) bool {
		cb := &s.cubes[c]
		return !cb.asleep && !cb.held && cb.still >= cfg.SleepDelay
	}
	// Islands sleep whole.
	for k := range s.islands {
		is := &s.islands[k]
		cubes := s.islandCubes[is.clo:is.chi]
		all := len(cubes) > 0
		for _, c := range cubes {
			all = all && ready(c)
		}
		if all {
			s.nextGroup++
			for _, c := range cubes {
				s.sleep(&s.cubes[c], pos, prev)
			}
		}
	}
	// Cubes in no island (no contact this substep) sleep alone.
	for i := range s.cubes {
		if s.slotOf[i] < 0 && ready(int32(i)) {
			s.nextGroup++
			s.sleep(&s.cubes[i], pos, prev)
		}
	}
}

// sleep freezes cb where it is, at rest, in group s.nextGroup.
func (s *System) sleep(cb *cube, pos, prev []mgl32.Vec3) {
	for k, n := 0, cb.numParticles(); k < n; k++ {
		p := cb.particle(k)
		cb.frozen[k] = pos[p]
		prev[p] = pos[p]
	}
	s.setAsleep(cb, true)
	cb.group = s.nextGroup
	s.sleepGravity = s.w.Config().Gravity
	cb.v, cb.om = [3]float64{}, [3]float64{}
	cb.cPrev = cb.c
}

// wakeTouched wakes the asleep cubes whose bounds overlap those of an awake
// cube that is not resting (in Prepare, after the sweep): a pile wakes from
// the cube that hits it, and neighbours from a cube that wakes. This
// substep they still meet it as immovable.
func (s *System) wakeTouched() {
	// The bounds from brief, as generate reads them; asleep from the
	// cubes, as wakeGroup changes it on the way.
	for ii, i := range s.order {
		a, ab := &s.cubes[i], &s.brief[i]
		for _, j := range s.order[ii+1:] {
			bb := &s.brief[j]
			if bb.lo[0] > ab.hi[0] {
				break
			}
			b := &s.cubes[j]
			if a.asleep == b.asleep || !ab.meetsAcross(bb) {
				continue
			}
			sleeper, mover := a, b
			if b.asleep {
				sleeper, mover = b, a
			}
			// A neighbour that was slow over the last step (still > 0)
			// leans on the asleep cube as on a wall and will sleep beside
			// it; one that moved, was woken or is held wakes it.
			if mover.still == 0 {
				s.wakeGroup(sleeper.group)
			}
		}
	}
}

// wakeByParticle wakes asleep cube ib if particle p runs into it faster
// than particleWakeSpeed along the contact normal n (pointing out of the
// cube), over a substep of length h.
func (s *System) wakeByParticle(ib int32, p int32, n mgl32.Vec3, pos, prev []mgl32.Vec3, h float32) {
	if v := vecmath.Dot(pos[p].Sub(prev[p]), n); v < -particleWakeSpeed*h {
		s.wakeGroup(s.cubes[ib].group)
	}
}

// ShiftOrigin moves what the System keeps in the World's frame when the
// World moves it (verlet3d.World.Origin): the cubes' frames, bounds and published
// transforms, and where asleep cubes sleep, so they stay asleep.
func (k hooks) ShiftOrigin(offset mgl32.Vec3) {
	s := k.s
	for i := range s.colliders {
		s.colliders[i].shiftOrigin(offset)
		s.colliders[i].frame(s.w)
	}
	for i := range s.cubes {
		cb := &s.cubes[i]
		cb.c, cb.cPrev, cb.ctr0 = cb.c.Sub(offset), cb.cPrev.Sub(offset), cb.ctr0.Sub(offset)
		cb.lo, cb.hi = cb.lo.Sub(offset), cb.hi.Sub(offset)
		cb.pos = cb.pos.Sub(offset)
		for k := range cb.frozen {
			cb.frozen[k] = cb.frozen[k].Sub(offset)
		}
		s.sleepersStale = true
	}
}
