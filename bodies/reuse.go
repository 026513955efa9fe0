package bodies

import (
	"math"

	"github.com/go-gl/mathgl/mgl32"
)

// Contacts kept while a cube stays put.
//
// A crate at rest meets the same features every substep: the same corners
// within the margin of the floor, the same face of the crate it leans on.
// Finding them again every substep (the separating-axis test of every pair
// whose bounds overlap, the clipping of a face against a face, a look at
// every corner for every collider) was 15% of a frame of 100 crates
// mostly at rest. So a cube whose corners all stayed within keepMove of
// where they were when its contacts were last found is settled, and as
// long as it stays so it keeps them: its collider contacts, and its
// contacts with another settled cube, are the last substep's again, as
// generate made them (the same features, weights, normal and collider
// point), started afresh from this substep's positions (contact.start).
// What a contact found again would differ in is its normal and points,
// by the turn and the move of keepMove at most: the normal by 1e-4 rad for
// a 20 cm crate (TestKeptContactsAreTheFoundOnes compares them). Nothing
// is missed either: a corner that was not within the margin of a surface
// is still more than the margin less 2·keepMove from it, so it does not
// touch; a pair whose bounds come to overlap has nothing kept and is
// tested afresh. The frame of 100 crates landed, some in piles, costs 4%
// less (cubes100's plateau, 1.84 against 1.76 ms, kept within a step;
// 2% more kept across steps).
//
// A cube finds its contacts afresh when it moved farther (the game's moves
// between steps included: Teleport, a throw), after the World's
// non-finite guard put a particle back, when it wakes or falls asleep,
// while it is fast, held or jelly, and after the System changed (a cube or
// a collider added, new Settings: System.epoch); and against a collider
// that moves this step. Whether a cube is settled depends on positions
// only, so the contacts stay the same for any Config.Workers.

// keepMove is how far, in meters, every corner of a cube may have moved
// since its contacts were last found for it to keep them.
const keepMove = 1e-5

// maxKeptPairs is how many pairs a cube keeps (those it comes first in, in
// the sweep order): a crate in a pile meets two or three.
const maxKeptPairs = 6

// keptRange is where a cube's contacts of one kind sit in the slot
// buffers of the substep they were made in: slots[slot].prevCols or
// prevPairs [lo, hi) during the next substep.
type keptRange struct{ slot, lo, hi int32 }

// keptPair is the contacts of a pair, and the other cube.
type keptPair struct {
	other int32
	keptRange
}

// keep is what a cube needs to keep its contacts, written by the worker
// that generates them, the one of its index range. The records are double-buffered
// by the parity of the substep (System.par): generate reads the last
// substep's and writes this one's.
type keep struct {
	c       mgl32.Vec3 // its center when its contacts were last found, m
	q       quatd      // its rotation then
	asleep  bool       // whether it was asleep then
	epoch   uint32     // System.epoch then
	ok      bool       // c and q hold
	settled bool       // this substep, it keeps its contacts
	cols    [2]keptRange
	npairs  [2]int32
	pairs   [2][maxKeptPairs]keptPair
}

// settle decides whether cb keeps its contacts this substep (keep.settled),
// from its center and rotation now (prepareCubes, once predict or frame
// placed its corners). A cube that does not keeps them as they are now. A
// cube that woke or fell asleep since does not (keep.asleep); one that
// wakes later in this Prepare (wakeTouched) is held in this substep all the
// same, and finds its contacts in the next.
//
// A rigid cube's corners lie within √3·half of its center, so none moved
// farther than the center's move plus √3·half times the turn, and the
// turn between unit quaternions q and q' is at most 2|q - q'| (to first
// order, as turns this small are); the 1-norms bound both lengths.
func (s *System) settle(cb *cube) {
	k := &cb.keep
	k.settled = false
	if k.ok && k.epoch == s.epoch && !s.reset && k.asleep == cb.asleep {
		if cb.asleep {
			k.settled = true // frozen where it sleeps
		} else if cb.rigid && !cb.held && !cb.fast {
			c, q := &cb.c, &cb.q // in place: see moveRigidly
			dc := abs(c[0]-k.c[0]) + abs(c[1]-k.c[1]) + abs(c[2]-k.c[2])
			dq := math.Abs(q.w-k.q.w) + math.Abs(q.x-k.q.x) + math.Abs(q.y-k.q.y) + math.Abs(q.z-k.q.z)
			k.settled = float64(dc)+float64(2*math.Sqrt(3)*float64(cb.half)*dq) <= keepMove
		}
	}
	if !k.settled {
		k.c, k.q, k.asleep, k.epoch, k.ok = cb.c, cb.q, cb.asleep, s.epoch, true
	}
}

// keptCols appends to sl.cols the collider contacts cube cb kept, but
// those against a collider that moves this step, and reports whether it
// had any record of them (else they are found afresh).
func (s *System) keptCols(cb *cube, sl *genSlot) bool {
	r := cb.keep.cols[s.par^1]
	if len(s.moving) != len(s.colliders) || int(r.slot) >= len(s.slots) || int(r.hi) > len(s.slots[r.slot].prevCols) {
		return false
	}
	for _, c := range s.slots[r.slot].prevCols[r.lo:r.hi] {
		if !s.moving[c.feat] {
			sl.cols = append(sl.cols, c)
		}
	}
	return true
}

// keptPair appends to sl.pairs the contacts of a (first in the sweep order)
// with cube j that a kept from the last substep, and reports whether it
// had them.
func (s *System) keptPair(a *cube, j int32, sl *genSlot) bool {
	old := s.par ^ 1
	for _, kp := range a.keep.pairs[old][:a.keep.npairs[old]] {
		if kp.other != j {
			continue
		}
		if int(kp.slot) >= len(s.slots) || int(kp.hi) > len(s.slots[kp.slot].prevPairs) {
			return false
		}
		sl.pairs = append(sl.pairs, s.slots[kp.slot].prevPairs[kp.lo:kp.hi]...)
		return true
	}
	return false
}

// recordPair notes that the contacts of a with cube j are sl.pairs[lo:]
// (slot k), for the next substep.
func (s *System) recordPair(a *cube, j int32, k, lo int, sl *genSlot) {
	n := &a.keep.npairs[s.par]
	if *n == maxKeptPairs {
		return
	}
	a.keep.pairs[s.par][*n] = keptPair{other: j, keptRange: keptRange{int32(k), int32(lo), int32(len(sl.pairs))}}
	*n++
}
