package hair

import (
	"github.com/drape3d/drape/internal/vecmath"
	"math"
	"unsafe"

	"github.com/drape3d/drape/verlet3d"
	"github.com/go-gl/mathgl/mgl32"
)

// The hair's work in each substep, in the World's phase order:
//
//  1. apply (force field): move the head (collider, pinned roots) to its
//     pose at the end of the substep, and carry the strands by
//     CarryLinear/CarryAngular of that motion (a move past
//     TeleportDistance in one step carries them all the way); on the first
//     substep of a step, add the step's air drag per segment.
//  2. The World integrates and builds collider contacts.
//  3. prepare (constraint set): reset the XPBD multipliers, and place the
//     style targets (the rest shape at the head's pose of the substep).
//  4. solve, Settings.Iterations passes spread over the World's
//     iterations: one pass over every strand, root to tip: stretch links,
//     bend links, on the first pass the leash (no particle farther from its
//     root than the strand's length up to it), the style pull toward the
//     targets, on the first pass the head sphere. On the last pass a
//     follow-the-leader sweep fixes any segment length left over.
//  5. The World solves collider contacts after each pass (neck, shoulders,
//     anything else; the head's collider masks hair out).
//  6. finish: a strand the solver could not hold (non-finite, or far past
//     its leash) is put back on its rest shape and counted (NumRecovered);
//     every particle is put outside the head sphere, and what slides over
//     it loses Settings.HeadFriction of its sliding.
//  7. The World clamps particles out of its colliders.
//
// Strands are independent, so with Config.Workers > 1 each phase splits the
// strands between goroutines; the result is bit-identical to one worker.
// On amd64 with AVX2 the links and follow the leader run eight strands
// side by side, and the style pull, the style targets, the carry and the
// head contact eight particles at a time (links_kernel.go,
// follow_kernel.go, pull_kernel.go, style_kernel.go, carry_kernel.go,
// contact_kernel.go), also bit-identical to the Go loops. The kernels that
// read the head's pose take it from one block of broadcast constants that
// apply sets once a substep (setHeadConsts).
// Every World.Parallel call is a dispatch and a wait for the slowest
// worker, so the phases share calls: the head's carry, the roots and the
// drag are one call; prepare runs inside the first pass's call.
//
// When nothing but the hair can touch its particles in a substep (the World
// holds only the hair's particles, no links or tethers, and no collider
// contact this substep), steps 3 to 6 run in one call at Prepare: each
// block of strands does all its passes and its finish while it is in the
// cache, and the World's Solve and Finish calls find nothing left to do.
// Strands are independent and nothing else acts between the passes, so
// this gives bit-identical results to the pass-by-pass order.

func (h *Hair) bindPasses() {
	h.passFn = h.pass
	h.wholeFn = h.whole
	h.applyFn = h.applyRange
	h.finFn = h.finish
	h.blocksFn = h.runBlocks
}

// setCarry makes the part of the head's motion from the previous substep's
// pose to this one that strands take directly: the center moves by
// CarryLinear of its travel and the rotation turns by CarryAngular of the
// head's turn, about the head's center.
func (h *Hair) setCarry() {
	c0, c1 := h.prevCur.c, h.cur.c
	// The turn from the previous pose to this one, in world space.
	d := vecmath.Mat3Mul3(h.cur.m, h.prevCur.m.Transpose())
	q := vecmath.QuatNormalize(vecmath.Mat4ToQuat(d.Mat4()))
	if q.W < 0 {
		q = vecmath.QuatScale(q, -1)
	}
	q = vecmath.QuatSlerp(mgl32.QuatIdent(), q, h.set.CarryAngular)
	h.carryM = vecmath.QuatMat4(q).Mat3()
	h.carryFrom = c0
	h.carryTo = c0.Add(vecmath.Scale(c1.Sub(c0), h.set.CarryLinear))
}

// carry moves the free particles of strands lo..hi-1, and their previous
// positions, by the carried part of the head's motion: a rigid motion of
// both keeps the strands' own velocity (turned with the head).
func (h *Hair) carry(lo, hi int) {
	base := int(h.base)
	a, b := base+lo*h.per, base+hi*h.per
	if n := h.kernelGroups(b - a); n > 0 {
		h.carryKernel(a, n) // carry_kernel.go
		a += 8 * n
	}
	pos, prev, inv := h.pos[a:b], h.prev[a:b], h.inv[a:b]
	m := h.carryM
	m0, m1, m2, m3, m4, m5, m6, m7, m8 := m[0], m[1], m[2], m[3], m[4], m[5], m[6], m[7], m[8]
	ax, ay, az := h.carryFrom[0], h.carryFrom[1], h.carryFrom[2]
	bx, by, bz := h.carryTo[0], h.carryTo[1], h.carryTo[2]
	prev = prev[:len(pos)]
	inv = inv[:len(pos)]
	for i := range pos {
		if isZero(&inv[i]) {
			continue
		}
		p, q := &pos[i], &prev[i]
		x, y, z := p[0]-ax, p[1]-ay, p[2]-az
		p[0], p[1], p[2] = bx+float32(m0*x)+float32(m3*y)+float32(m6*z), by+float32(m1*x)+float32(m4*y)+float32(m7*z), bz+float32(m2*x)+float32(m5*y)+float32(m8*z)
		x, y, z = q[0]-ax, q[1]-ay, q[2]-az
		q[0], q[1], q[2] = bx+float32(m0*x)+float32(m3*y)+float32(m6*z), by+float32(m1*x)+float32(m4*y)+float32(m7*z), bz+float32(m2*x)+float32(m5*y)+float32(m8*z)
	}
}

// moveRigidly moves every strand particle, and its previous position, by
// the rigid motion that takes head pose a to pose b.
func (h *Hair) moveRigidly(a, b Head) {
	fa, fb := a.frame(), b.frame()
	first, n := h.Particles()
	pos, prev := h.w.Positions(), h.w.PrevPositions()
	for i := int(first); i < int(first)+n; i++ {
		p := fb.apply(fa.toLocal(pos[i]))
		q := fb.apply(fa.toLocal(prev[i]))
		h.w.SetPositionLocal(verlet3d.Particle(i), p) // also moves the step start
		prev[i] = q
	}
	h.head.Center = h.w.ToWorld(b.Center)
}

// run calls f over all strands, split between the World's workers in
// whole blocks of strands, so that every block a pass advances side by
// side is a full one (the kernels take eight strands at a time) but the
// hair's last.
func (h *Hair) run(f func(lo, hi int)) {
	h.runFn = f
	h.w.Parallel((h.set.Strands+block-1)/block, h.blocksFn)
	h.runFn = nil
}

// runBlocks is run's range job over blocks [lo, hi).
func (h *Hair) runBlocks(lo, hi int) { h.runFn(lo*block, min(hi*block, h.set.Strands)) }

// hooks is how the World drives the hair: its ForceField, ConstraintSet
// and Finisher. It is unexported so that a game never sees solver
// plumbing; New registers it and Remove takes it out.
type hooks struct{ h *Hair }

func (k hooks) Apply(w *verlet3d.World, s verlet3d.Substep)   { k.h.apply(w, s) }
func (k hooks) Prepare(w *verlet3d.World, s verlet3d.Substep) { k.h.prepareSubstep(w, s) }
func (k hooks) Solve(w *verlet3d.World, s verlet3d.Substep)   { k.h.solvePass(w, s) }
func (k hooks) Finish(w *verlet3d.World, s verlet3d.Substep)  { k.h.finishSubstep(w, s) }

// apply runs first in every substep: it moves the head (collider and
// pinned roots) to its pose at the end of the substep, carries the strands
// by part of that motion, then adds air drag to every segment.
func (h *Hair) apply(w *verlet3d.World, s verlet3d.Substep) {
	if s.First() {
		// A new step goes on from where the head is toward the last
		// SetHead: a long frame's motion is spread over its steps.
		h.start = h.now
	}
	// How far the head moves in this step.
	stepMove := float32(vecmath.Len(h.end.Center.Sub(h.start.Center)) * s.Frac * float32(s.Count))
	if s.First() && stepMove > h.set.TeleportDistance {
		// Too far for one step to be motion: a respawn or a long hitch.
		// The strands jump with the head, keeping shape and velocity.
		h.moveRigidly(h.start, h.end)
		h.start = h.end
		h.cur = h.end.frame()
	}
	h.lastSub = s.Last()
	pose := lerpHead(h.start, h.end, s.Frac)
	h.now = pose
	h.prevCur = h.cur
	h.cur = pose.frame()
	h.head.Center = h.w.ToWorld(pose.Center)
	h.setHeadConsts()
	h.carrying = (h.set.CarryLinear > 0 || h.set.CarryAngular > 0) && h.cur != h.prevCur
	if h.carrying {
		h.setCarry()
	}
	// Air drag once per step, on its first substep, scaled by the
	// substep count: the same velocity change per step at a fraction of
	// the cost. Air varies slowly next to a 1/60 s step.
	h.dragging = h.set.WindDrag > 0 && s.First()
	if h.dragging {
		h.t = float32(s.Time)
		h.still = h.wind == (verlet3d.Wind{})
		h.dragScale = float32(s.Count)
	}
	h.bind(w)
	h.run(h.applyFn)
}

// applyRange is apply's work on strands lo..hi-1: the carry, the roots
// onto the scalp, then the drag (which reads the roots' motion).
func (h *Hair) applyRange(lo, hi int) {
	if h.carrying {
		h.carry(lo, hi)
	}
	base := int(h.base)
	pos := h.pos
	for i := lo; i < hi; i++ {
		pos[base+i*h.per] = h.cur.apply(h.rest[i*h.per])
	}
	if h.dragging {
		h.drag(lo, hi)
	}
}

// bind takes the World's live slices for the workers.
func (h *Hair) bind(w *verlet3d.World) {
	h.pos, h.prev, h.inv = w.Positions(), w.PrevPositions(), w.InvMasses()
	if h.dragging {
		h.acc = w.Accelerations() // the drag kernel adds to them
	}
	sub := w.SubstepLength()
	h.invH2 = 1 / (sub * sub)
}

// drag adds, per segment, WindDrag times the air velocity relative to the
// segment, half to each end, whatever the segment's direction: a simulated
// strand stands for a wisp of many hairs, and drag that depends on each
// segment's direction drives a single chain to flutter into kinks (in a
// 20 m/s wind the mean angle between segments was 22° with air along a
// strand pushing a tenth as much as across it, 12° with isotropic drag,
// 5.5° at rest). The wind is sampled at the root and the tip of
// every strand and interpolated between, which is smooth at the scale of
// turbulence. Written in scalars over local slices, and each particle gets
// one World.AddAcceleration with the halves of both its segments: it runs
// on every segment every substep.
func (h *Hair) drag(lo, hi int) {
	w := h.w
	per := h.per
	base := int(h.base)
	n := h.set.Strands * per
	pos, prev := h.pos[base:base+n], h.prev[base:base+n]
	c := float32(0.5 * h.set.WindDrag * h.dragScale)
	invH := float32(math.Sqrt(float64(h.invH2)))
	still := h.still
	segs := h.set.Segments
	inv := 1 / float32(segs)
	t := h.t
	// Blocks of eight strands to the kernel where there is one
	// (drag_kernel.go).
	for lo+8 <= hi && h.linksKernel(lo, lo+8) {
		h.dragKernelRun(lo, c, invH, inv)
		lo += 8
	}
	var buf [maxSegments + 1]mgl32.Vec3 // the accelerations of one strand
	for i := lo; i < hi; i++ {
		o := i * per
		var va, dv mgl32.Vec3
		if !still {
			va = h.wind.Velocity(h.w.ToWorld(pos[o]), t) // the air is the world's
			dv = vecmath.Scale(h.wind.Velocity(h.w.ToWorld(pos[o+segs]), t).Sub(va), inv)
		}
		// The previous segment's half for this particle.
		var hx, hy, hz float32
		// Velocity of the segment's first end, carried along the strand.
		x0, p0 := &pos[o], &prev[o]
		v0x, v0y, v0z := float32((x0[0]-p0[0])*invH), float32((x0[1]-p0[1])*invH), float32((x0[2]-p0[2])*invH)
		for j := 0; j < segs; j++ {
			x1, p1 := &pos[o+j+1], &prev[o+j+1]
			v1x, v1y, v1z := float32((x1[0]-p1[0])*invH), float32((x1[1]-p1[1])*invH), float32((x1[2]-p1[2])*invH)
			k := float32(j) + 0.5
			rx := va[0] + float32(dv[0]*k) - float32(0.5*(v0x+v1x))
			ry := va[1] + float32(dv[1]*k) - float32(0.5*(v0y+v1y))
			rz := va[2] + float32(dv[2]*k) - float32(0.5*(v0z+v1z))
			ax, ay, az := float32(rx*c), float32(ry*c), float32(rz*c)
			if j > 0 { // the root is pinned: no force moves it
				b := &buf[j]
				b[0], b[1], b[2] = hx+ax, hy+ay, hz+az
			}
			hx, hy, hz = ax, ay, az
			v0x, v0y, v0z = v1x, v1y, v1z
		}
		b := &buf[segs]
		b[0], b[1], b[2] = hx, hy, hz
		// Handed to the World in a second loop: a Vec3 argument is copied
		// with wide loads, which stall on the narrow stores that just
		// built it (store forwarding fails); from buf they are long done.
		for j := 1; j <= segs; j++ {
			w.AddAcceleration(verlet3d.Particle(base+o+j), buf[j])
		}
	}
}

// prepareSubstep resets the multipliers and places the style targets: at
// once with the whole substep's solve when the hair is alone (see the top
// of this file), otherwise in the first pass's call.
func (h *Hair) prepareSubstep(w *verlet3d.World, s verlet3d.Substep) {
	n := h.set.Iterations
	if n != h.styleN {
		// A stiffness k per substep spread over n passes: each pass
		// removes 1-(1-k)^(1/n), so the result does not depend on n.
		for j, k := range h.styleSub {
			h.styleIter[j] = float32(1 - math.Pow(float64(1-k), 1/float64(n)))
		}
		h.styleN = n
	}
	h.bind(w)
	h.iters = n
	h.fused = h.alone(w)
	h.pending = true
	if h.fused {
		h.run(h.wholeFn)
		h.prepared()
	}
}

// alone reports whether nothing but the hair acts on its particles during
// this substep's solve: the World holds no other particles (so no other
// component's constraints), no links or tethers, and the collider contacts
// built for this substep are none.
func (h *Hair) alone(w *verlet3d.World) bool {
	return h.base == 0 && w.NumParticles() == h.set.Strands*h.per &&
		w.NumLinks() == 0 && w.NumTethers() == 0 && w.Stats().Contacts == 0
}

// prepared records that this substep's prepare ran.
func (h *Hair) prepared() {
	h.pending = false
	h.kAS = float32(h.set.StretchCompliance * h.invH2)
	h.kAB = float32(h.set.BendCompliance * h.invH2)
}

// whole is the substep's solve and finish of strands lo..hi-1 in one go,
// block by block (see the top of this file).
func (h *Hair) whole(lo, hi int) {
	ftl := h.set.StretchCompliance == 0
	for b := lo; b < hi; b += block {
		e := b + block
		if e > hi {
			e = hi
		}
		h.prepare(b, e)
		for it := 0; it < h.iters; it++ {
			last := it == h.iters-1
			h.links(b, e)
			h.pull(b, e, h.leash(it == 0, last), it == 0)
			if ftl && last {
				h.followLeader(b, e)
			}
		}
		h.finish(b, e)
	}
}

func (h *Hair) prepare(lo, hi int) {
	a, b := lo*h.per, hi*h.per
	if h.set.StretchCompliance != 0 {
		clear(h.lamS[a:b])
	}
	clear(h.lamB[a:b])
	if h.set.StyleStiffness != 0 {
		// The style targets: the rest shape at this substep's head pose,
		// the same for every pass.
		m := h.cur.m
		m0, m1, m2, m3, m4, m5, m6, m7, m8 := m[0], m[1], m[2], m[3], m[4], m[5], m[6], m[7], m[8]
		cx, cy, cz := h.cur.c[0], h.cur.c[1], h.cur.c[2]
		k0 := a
		if groups := h.kernelGroups(b - a); groups > 0 {
			h.styleKernel(a, groups) // style_kernel.go
			k0 += 8 * groups
		}
		rest, tg := h.rest[k0:b], h.target[k0:b]
		tg = tg[:len(rest)]
		for k := range rest {
			r, t := &rest[k], &tg[k]
			t[0] = float32(m0*r[0]) + float32(m3*r[1]) + float32(m6*r[2]) + cx
			t[1] = float32(m1*r[0]) + float32(m4*r[1]) + float32(m7*r[2]) + cy
			t[2] = float32(m2*r[0]) + float32(m5*r[1]) + float32(m8*r[2]) + cz
		}
	}
	// The XPBD denominators 1/(w_a + w_b + α/h²); 0 marks a link between
	// two pinned particles, or no link (the root has no stretch link, the
	// first two particles no bend link). They change only when a particle
	// is pinned, grabbed or released, or the substep changes: recompute
	// a strand's only then.
	base := int(h.base)
	inv := h.inv[base : base+h.set.Strands*h.per]
	aS := float32(h.set.StretchCompliance * h.invH2)
	aB := float32(h.set.BendCompliance * h.invH2)
	fresh := aS == h.kAS && aB == h.kAB
	per := h.per
	if fresh && sameBits(inv[lo*per:hi*per], h.invSeen[lo*per:hi*per]) {
		// No strand's masses changed (the usual case), found by one
		// vector compare instead of a branch per particle. Bits equal
		// means == equal: a World's inverse masses are never NaN.
		return
	}
	for i := lo; i < hi; i++ {
		o := i * per
		same := fresh
		for j := 0; j < per && same; j++ {
			same = inv[o+j] == h.invSeen[o+j]
		}
		if same {
			continue
		}
		copy(h.invSeen[o:o+per], inv[o:o+per])
		for j := 0; j < per; j++ {
			h.kS[o+j], h.kB[o+j] = 0, 0
			if j >= 1 {
				if ws := inv[o+j-1] + inv[o+j]; ws != 0 {
					h.kS[o+j] = 1 / (ws + aS)
				}
			}
			if j >= 2 {
				if ws := inv[o+j-2] + inv[o+j]; ws != 0 {
					h.kB[o+j] = 1 / (ws + aB)
				}
			}
		}
	}
}

// sameBits reports whether a and b hold the same bits.
func sameBits(a, b []float32) bool {
	if len(a) != len(b) {
		return false
	}
	if len(a) == 0 {
		return true
	}
	return string(unsafe.Slice((*byte)(unsafe.Pointer(&a[0])), 4*len(a))) ==
		string(unsafe.Slice((*byte)(unsafe.Pointer(&b[0])), 4*len(b)))
}

// solvePass runs the hair's passes that fall in the World's solver
// iteration s.Iteration: Settings.Iterations passes spread evenly over the
// World's s.Iterations, floor((i+1)·n/N) - floor(i·n/N) of them in
// iteration i, so that the last always runs in the World's last iteration
// (and none, one or several in the others).
func (h *Hair) solvePass(w *verlet3d.World, s verlet3d.Substep) {
	if h.fused {
		return
	}
	n, all := h.iters, max(s.Iterations, 1)
	from, to := s.Iteration*n/all, (s.Iteration+1)*n/all
	if to <= from {
		return
	}
	h.bind(w)
	for p := from; p < to; p++ {
		h.first, h.last = p == 0, p == n-1
		h.run(h.passFn)
		if h.pending {
			h.prepared()
		}
	}
}

// leash reports whether a pass, the substep's first and/or last, takes
// the leash (see pull).
func (h *Hair) leash(first, last bool) bool {
	return first || last && h.set.StretchCompliance != 0
}

// block is how many strands a pass advances side by side. A strand is a
// chain: each link waits for the previous one's result, so solving one
// strand at a time leaves the CPU idle on latency. Interleaving independent
// strands hides it.
const block = 8

// pass solves strands lo..hi-1 once, root to tip: stretch links, bend
// links (XPBD) and the style pull (on the substep's first pass with the
// leash and the head sphere, see pull); on the last pass of the substep it
// also removes leftover stretch.
func (h *Hair) pass(lo, hi int) {
	for b := lo; b < hi; b += block {
		e := b + block
		if e > hi {
			e = hi
		}
		if h.pending {
			h.prepare(b, e)
		}
		h.links(b, e)
		h.pull(b, e, h.leash(h.first, h.last), h.first)
		if h.last && h.set.StretchCompliance == 0 {
			h.followLeader(b, e)
		}
	}
}

// links solves the stretch and bend links of strands lo..hi-1, root to tip,
// the strands side by side.
//
// Division and square root are the slow operations here, so the common
// case uses neither. Near its rest length r a link uses Jakobsen's
// square-root-free form of the distance constraint, C = (d² - r²)/(2r) with
// gradient direction d⃗/r: it has the same zero and sign as d - r and the
// same value to first order. Stretch links always stay near r; a bend link
// folded far from it (d² off r² by more than half) uses the exact form,
// since the approximate one is too weak to unfold it. The XPBD denominators
// 1/(w_a + w_b + α/h²) are computed once per substep by Prepare.
//
// The updates are written out in scalar locals, read and written through
// pointers: as functions they would not inline, and a Vec3 local lives in
// memory (Go keeps arrays out of registers), which doubled the instructions.
//
// For each particle j the loop runs the stretch links of the strands, then
// their bend links: the same order for every strand (strands do not touch
// each other), with fewer values live in each loop than in one that did
// both, so that the compiler keeps them in registers. The
// loops read the hair's slices through unsafe pointers (hairAt, hairVec),
// without the twenty bounds checks a particle that indexing took: every
// index is a particle of strands lo..hi-1 past its root, [lo·per+1,
// hi·per), checked once against the slices below, and bend links (from two
// particles back) are read from the third particle of a strand on.
func (h *Hair) links(lo, hi int) {
	per := h.per
	base := int(h.base)
	aS := float32(h.set.StretchCompliance * h.invH2)
	aB := float32(h.set.BendCompliance * h.invH2)
	if h.linksKernel(lo, hi) {
		h.linksKernelRun(lo, aS, aB)
		return
	}
	n := h.set.Strands * per
	if lo < 0 || lo > hi || hi > h.set.Strands || hi-lo > block {
		panic("hair: links: strands out of range")
	}
	pos := hairVecs(h.pos[base : base+n])
	inv := hairFloats(h.inv[base : base+n])
	lamS, lamB := hairFloats(h.lamS[:n]), hairFloats(h.lamB[:n])
	kS, kB := hairFloats(h.kS[:n]), hairFloats(h.kB[:n])
	bendRest, bendInv := hairFloats(h.bendRest[:n]), hairFloats(h.bendInv[:n])
	// Each strand's stretch constants, as the loop used to compute them at
	// every particle; a strand's entries are at its index in the block.
	var rs, irs, r2s, lo2s, hi2s [block]float32
	for i := lo; i < hi; i++ {
		r := h.restSeg[i]
		r2 := float32(r * r)
		rs[i-lo], irs[i-lo], r2s[i-lo] = r, h.segInv[i], r2
		lo2s[i-lo], hi2s[i-lo] = float32(0.81*r2), float32(1.21*r2)
	}
	useAS := aS != 0
	stride := uintptr(per)
	for j := 1; j < per; j++ {
		// Stretch links j-1 -> j.
		o := uintptr(lo*per + j)
		for i := 0; i < hi-lo; i, o = i+1, o+stride {
			if hairZero(kS, o) {
				continue
			}
			k := hairAt(kS, o)
			pa, pb := hairVec(pos, o-1), hairVec(pos, o)
			ax, ay, az := pa[0], pa[1], pa[2]
			bx, by, bz := pb[0], pb[1], pb[2]
			dx, dy, dz := bx-ax, by-ay, bz-az
			d2 := float32(dx*dx) + float32(dy*dy) + float32(dz*dz)
			ir := irs[i]
			// The square-root-free form overshoots far from rest (by
			// (d+r)/2r): past 10% the exact form is used.
			C, g := float32((d2-r2s[i])*0.5*ir), ir
			if d2 < lo2s[i] || d2 > hi2s[i] {
				C, g = 0, 0
				if d2 > 1e-18 {
					d := float32(math.Sqrt(float64(d2)))
					C, g = d-rs[i], 1/d
				}
			}
			dl := float32(-C * k)
			if useAS {
				l := hairPtr(lamS, o)
				dl = float32((-C - float32(aS**l)) * k)
				*l += dl
			}
			s := float32(dl * g)
			ka, kb := float32(hairAt(inv, o-1)*s), float32(hairAt(inv, o)*s)
			pa[0], pa[1], pa[2] = ax-float32(ka*dx), ay-float32(ka*dy), az-float32(ka*dz)
			pb[0], pb[1], pb[2] = bx+float32(kb*dx), by+float32(kb*dy), bz+float32(kb*dz)
		}
		if j < 2 {
			continue
		}
		// Bend links j-2 -> j: soft distance-2 links.
		o = uintptr(lo*per + j)
		for i := 0; i < hi-lo; i, o = i+1, o+stride {
			if hairZero(kB, o) {
				continue
			}
			k := hairAt(kB, o)
			pc, pb := hairVec(pos, o-2), hairVec(pos, o)
			cx, cy, cz := pc[0], pc[1], pc[2]
			bx, by, bz := pb[0], pb[1], pb[2]
			dx, dy, dz := bx-cx, by-cy, bz-cz
			d2 := float32(dx*dx) + float32(dy*dy) + float32(dz*dz)
			r, ir := hairAt(bendRest, o), hairAt(bendInv, o)
			r2 := float32(r * r)
			// The constraint value and 1/|gradient direction|, g: no link
			// (as g = 0) when too short or too long to have a direction.
			// The square-root-free form's g is 1/r, never 0 (it is taken
			// only for r > 0).
			var C, g float32
			if d2 > 0.5*r2 && d2 < 1.5*r2 {
				C, g = float32((d2-r2)*0.5*ir), ir
			} else {
				if !(d2 > 1e-18) {
					continue
				}
				d := float32(math.Sqrt(float64(d2)))
				C, g = d-r, 1/d
				if g == 0 {
					continue
				}
			}
			l := hairPtr(lamB, o)
			dl := float32((-C - float32(aB**l)) * k)
			*l += dl
			s := float32(dl * g)
			kc, kb := float32(hairAt(inv, o-2)*s), float32(hairAt(inv, o)*s)
			pc[0], pc[1], pc[2] = cx-float32(kc*dx), cy-float32(kc*dy), cz-float32(kc*dz)
			pb[0], pb[1], pb[2] = bx+float32(kb*dx), by+float32(kb*dy), bz+float32(kb*dz)
		}
	}
}

// hairFloats and hairVecs return the start of a slice for hairAt, hairPtr
// and hairVec, which index it without a bounds check: the caller has
// checked every index it passes against the slice (links, pull).
func hairFloats(s []float32) unsafe.Pointer  { return unsafe.Pointer(unsafe.SliceData(s)) }
func hairVecs(s []mgl32.Vec3) unsafe.Pointer { return unsafe.Pointer(unsafe.SliceData(s)) }

// hairZero reports whether the float32 at index i is ±0, testing its bits
// as an integer: the loops are bound by the processor's floating-point
// adders, which its floating-point compares share, while integer tests run
// on ports of their own.
func hairZero(p unsafe.Pointer, i uintptr) bool { return *(*uint32)(unsafe.Add(p, 4*i))<<1 == 0 }

// isZero reports whether *x is ±0 from its bits, as hairZero does.
func isZero(x *float32) bool { return *(*uint32)(unsafe.Pointer(x))<<1 == 0 }

func hairAt(p unsafe.Pointer, i uintptr) float32      { return *(*float32)(unsafe.Add(p, 4*i)) }
func hairPtr(p unsafe.Pointer, i uintptr) *float32    { return (*float32)(unsafe.Add(p, 4*i)) }
func hairVec(p unsafe.Pointer, i uintptr) *[3]float32 { return (*[3]float32)(unsafe.Add(p, 12*i)) }

// pull moves the particles of strands lo..hi-1 toward their style targets
// (placed by prepare); with leash, it first puts each within its leash of
// its root; with head, it then puts them out of the head sphere.
//
// Both catch what the substep's motion did, so the passes call pull with
// leash and head on a substep's first pass only, where the integration and
// the head's motion can have taken a particle far past its leash or into
// the head: the later passes start from a leashed strand outside the head.
// On the last pass the follow-the-leader sweep leaves no segment longer
// than its rest length, so no particle past its leash (a hair with
// StretchCompliance has no sweep and takes the leash on its last pass
// too), and after it finish puts every particle out of the head. Taken on
// every pass, the leash moved a third of hair2000's particles a pass, by
// the small stretch the links leave and the sweep removes.
func (h *Hair) pull(lo, hi int, leash, head bool) {
	per := h.per
	base := int(h.base)
	n := h.set.Strands * per
	pos, inv, target := h.pos[base:base+n], h.inv[base:base+n], h.target[:n]
	style := h.set.StyleStiffness != 0
	si := h.styleIter[:per]
	cx, cy, cz := h.cur.c[0], h.cur.c[1], h.cur.c[2]
	minR := h.head.Radius + h.set.Radius
	minR2 := float32(minR * minR)
	// The kernel takes the first groups·8 particles after each root, on
	// every strand but the hair's last (whose last row would read one
	// float past the positions and the targets).
	groups := h.pullKernelGroups()
	klo, khi := lo, min(hi, h.set.Strands-1)
	if groups == 0 || khi <= klo {
		klo, khi = lo, lo
	} else {
		a := pullArgs{
			pos:     unsafe.Pointer(&pos[klo*per+1]),
			target:  unsafe.Pointer(&target[klo*per+1]),
			inv:     unsafe.Pointer(&inv[klo*per+1]),
			restSeg: unsafe.Pointer(&h.restSeg[klo]),
			js:      unsafe.Pointer(&h.js[1]),
			style:   unsafe.Pointer(&si[1]),
			strands: int64(khi - klo),
			groups:  int64(groups),
			strideP: int64(per) * 12,
			strideW: int64(per) * 4,
		}
		if style {
			a.doStyle = 1
		}
		if leash {
			a.doLeash = 1
		}
		if head {
			a.doHead = 1
		}
		// The same values broadcast once a substep (setHeadConsts):
		// broadcasting them here, at every block and pass, cost 3% of
		// hair2000's frame.
		k := &h.headC
		a.cx, a.cy, a.cz = k.cx, k.cy, k.cz
		a.minR, a.minR2, a.eps = k.minR, k.minR2, k.eps
		pullStrands(&a)
	}
	for i := lo; i < hi; i++ {
		j0 := 1
		if i >= klo && i < khi {
			j0 += 8 * groups
			if j0 >= per {
				continue // the kernel took the whole strand
			}
		}
		o := i * per
		st := pos[o : o+per]
		ws := inv[o : o+per][:len(st)]
		ts := target[o : o+per][:len(st)]
		rx, ry, rz := st[0][0], st[0][1], st[0][2]
		seg := h.restSeg[i]
		js := h.js[:len(st)] // float32(j), a load instead of a conversion
		// Three loops, each with few values live (the compiler spilled
		// them to the stack in one): the leash, the style pull, the head.
		// A particle's three steps still run in that order, on its own
		// coordinates only.
		if leash {
			for j := j0; j < len(st); j++ {
				if isZero(&ws[j]) {
					continue
				}
				p := &st[j]
				// The leash: no particle farther from its root than the
				// strand's length up to it, however far the head moved.
				lx, ly, lz := p[0]-rx, p[1]-ry, p[2]-rz
				if l2, m := float32(lx*lx)+float32(ly*ly)+float32(lz*lz), float32(js[j]*seg); l2 > m*m {
					k := m / float32(math.Sqrt(float64(l2)))
					p[0], p[1], p[2] = rx+float32(lx*k), ry+float32(ly*k), rz+float32(lz*k)
				}
			}
		}
		if style {
			for j := j0; j < len(st); j++ {
				if isZero(&ws[j]) {
					continue
				}
				p, t := &st[j], &ts[j]
				s := si[j]
				p[0] += float32(s * (t[0] - p[0]))
				p[1] += float32(s * (t[1] - p[1]))
				p[2] += float32(s * (t[2] - p[2]))
			}
		}
		if head {
			for j := j0; j < len(st); j++ {
				if isZero(&ws[j]) {
					continue
				}
				p := &st[j]
				dx, dy, dz := p[0]-cx, p[1]-cy, p[2]-cz
				if d2 := float32(dx*dx) + float32(dy*dy) + float32(dz*dz); d2 < minR2 && d2 > 1e-18 {
					k := minR / float32(math.Sqrt(float64(d2)))
					p[0], p[1], p[2] = cx+float32(dx*k), cy+float32(dy*k), cz+float32(dz*k)
				}
			}
		}
	}
}

// followLeader (Müller et al. 2012) runs on the last pass of a substep:
// whatever stretch the passes left, each particle farther than its rest
// distance from its parent is pulled back to it, and one closer than 95% of
// it (a tip folded by a bend link and a contact within few passes) is put
// out to it. Only the child moves, along the segment, so it fixes lengths
// without adding stiffness. The child's move d would become velocity d/h
// that no force made; Settings.FollowDamping·d is taken off the parent's
// velocity instead (through its previous position), the paper's damped
// form, which keeps strands smooth when the head moves fast.
func (h *Hair) followLeader(lo, hi int) {
	if h.linksKernel(lo, hi) {
		h.followKernelRun(lo) // follow_kernel.go
		return
	}
	per := h.per
	base := int(h.base)
	n := h.set.Strands * per
	pos, inv := h.pos[base:base+n], h.inv[base:base+n]
	prev := h.prev[base : base+n]
	damp := h.set.FollowDamping
	restSeg := h.restSeg[:h.set.Strands]
	// Strand by strand each particle waits for its parent's result: the
	// strands go side by side, particle j of all of them, then j+1.
	for j := 1; j < per; j++ {
		for i := lo; i < hi; i++ {
			o := i*per + j
			if isZero(&inv[o]) {
				continue
			}
			seg := restSeg[i]
			pa, pb := &pos[o-1], &pos[o]
			ax, ay, az := pa[0], pa[1], pa[2]
			dx, dy, dz := pb[0]-ax, pb[1]-ay, pb[2]-az
			l2 := float32(dx*dx) + float32(dy*dy) + float32(dz*dz)
			if l2 <= seg*seg && l2 >= 0.9025*seg*seg {
				continue
			}
			k := seg / sqrt32(l2)
			nx, ny, nz := ax+float32(dx*k), ay+float32(dy*k), az+float32(dz*k)
			if damp != 0 && !isZero(&inv[o-1]) {
				q := &prev[o-1]
				q[0] += float32(damp * (nx - pb[0]))
				q[1] += float32(damp * (ny - pb[1]))
				q[2] += float32(damp * (nz - pb[2]))
			}
			pb[0], pb[1], pb[2] = nx, ny, nz
		}
	}
}

// finishSubstep is the hair's own head contact. Every particle is put
// outside the head sphere; one touching it loses the HeadFriction fraction
// of its motion over the scalp relative to the head's surface, which moves
// with the head. On the last substep, strands the solver could not hold
// are recovered first.
func (h *Hair) finishSubstep(w *verlet3d.World, _ verlet3d.Substep) {
	if h.fused {
		return
	}
	h.bind(w)
	h.run(h.finFn)
}

func (h *Hair) finish(lo, hi int) {
	if h.lastSub {
		h.recover(lo, hi)
	}
	h.headContact(lo, hi)
}

// recover puts back on its rest shape, at rest, any strand of lo..hi-1 that
// the solver could not hold: a non-finite particle, or one beyond 1.5 times
// its leash from the root. It should never happen; when it does, the game
// sees a strand snap back to its style instead of a streak, and
// NumRecovered counts it.
func (h *Hair) recover(lo, hi int) {
	per := h.per
	base := int(h.base)
	pos, prev := h.pos, h.prev
	for i := lo; i < hi; i++ {
		o := base + i*per
		root := pos[o]
		lim := float32(1.5 * h.restSeg[i])
		bad := false
		for j := 1; j < per; j++ {
			p, q := pos[o+j], prev[o+j]
			dx, dy, dz := p[0]-root[0], p[1]-root[1], p[2]-root[2]
			m := float32(float32(j) * lim)
			// Written so that a NaN anywhere fails the test.
			ok := float32(dx*dx)+float32(dy*dy)+float32(dz*dz) <= m*m && q[0]-q[0] == 0 && q[1]-q[1] == 0 && q[2]-q[2] == 0
			if !ok {
				bad = true
				break
			}
		}
		if !bad {
			continue
		}
		for j := 1; j < per; j++ {
			x := h.cur.apply(h.rest[i*per+j])
			pos[o+j], prev[o+j] = x, x
		}
		h.recovered.Add(1)
	}
}

// contactValues returns the head contact's touching distance, the
// distance particles are put out to, and the friction.
func (h *Hair) contactValues() (touch, minR, mu float32) {
	minR = h.head.Radius + h.set.Radius
	return minR + float32(0.1*h.w.Config().ContactMargin), minR, h.set.HeadFriction
}

func (h *Hair) headContact(lo, hi int) {
	per := h.per
	base := int(h.base)
	n := h.set.Strands * per
	pos, prev, inv := h.pos[base:base+n], h.prev[base:base+n], h.inv[base:base+n]
	cx, cy, cz := h.cur.c[0], h.cur.c[1], h.cur.c[2]
	// This substep's head frame (to local) and the previous one's (back to
	// world), as frame.toLocal and frame.apply compute them, in scalars.
	m := h.cur.m
	m0, m1, m2, m3, m4, m5, m6, m7, m8 := m[0], m[1], m[2], m[3], m[4], m[5], m[6], m[7], m[8]
	e := h.prevCur.m
	e0, e1, e2, e3, e4, e5, e6, e7, e8 := e[0], e[1], e[2], e[3], e[4], e[5], e[6], e[7], e[8]
	ex, ey, ez := h.prevCur.c[0], h.prevCur.c[1], h.prevCur.c[2]
	touch, minR, mu := h.contactValues()
	touch2 := float32(touch * touch)
	o0 := lo * per
	if groups := h.kernelGroups((hi - lo) * per); groups > 0 {
		h.contactKernel(o0, groups) // contact_kernel.go
		o0 += 8 * groups
	}
	for o := o0; o < hi*per; o++ {
		if isZero(&inv[o]) {
			continue
		}
		p := &pos[o]
		px, py, pz := p[0], p[1], p[2]
		dx, dy, dz := px-cx, py-cy, pz-cz
		d2 := float32(dx*dx) + float32(dy*dy) + float32(dz*dz)
		if d2 >= touch2 || d2 < 1e-18 {
			continue
		}
		d := float32(math.Sqrt(float64(d2)))
		nx, ny, nz := dx/d, dy/d, dz/d
		if d < minR {
			px, py, pz = cx+float32(nx*minR), cy+float32(ny*minR), cz+float32(nz*minR)
			p[0], p[1], p[2] = px, py, pz
		}
		if mu == 0 {
			continue
		}
		// Where the scalp under p was one substep ago: motion relative to
		// it is sliding.
		lx, ly, lz := px-cx, py-cy, pz-cz
		ux := float32(m0*lx) + float32(m1*ly) + float32(m2*lz)
		uy := float32(m3*lx) + float32(m4*ly) + float32(m5*lz)
		uz := float32(m6*lx) + float32(m7*ly) + float32(m8*lz)
		wx := float32(e0*ux) + float32(e3*uy) + float32(e6*uz) + ex
		wy := float32(e1*ux) + float32(e4*uy) + float32(e7*uz) + ey
		wz := float32(e2*ux) + float32(e5*uy) + float32(e8*uz) + ez
		q := &prev[o]
		qx, qy, qz := q[0], q[1], q[2]
		vx, vy, vz := wx-qx, wy-qy, wz-qz
		vn := float32(vx*nx) + float32(vy*ny) + float32(vz*nz)
		tx, ty, tz := vx-float32(vn*nx), vy-float32(vn*ny), vz-float32(vn*nz)
		q[0], q[1], q[2] = qx+float32(mu*tx), qy+float32(mu*ty), qz+float32(mu*tz)
	}
}

// ShiftOrigin moves the head's poses, kept in the World's frame, when the
// World moves the frame (verlet3d.World.Origin). The head collider, a
// verlet3d.Sphere, holds world coordinates and stays.
func (k hooks) ShiftOrigin(offset mgl32.Vec3) {
	h := k.h
	for _, p := range []*Head{&h.start, &h.end, &h.now} {
		p.Center = p.Center.Sub(offset)
	}
	h.cur.c = h.cur.c.Sub(offset)
	h.prevCur.c = h.prevCur.c.Sub(offset)
	h.carryFrom = h.carryFrom.Sub(offset)
	h.carryTo = h.carryTo.Sub(offset)
}

// BlocksSleep keeps the World awake while the hair's wind gusts or swirls
// (it changes by itself), see verlet3d.SleepBlocker.
func (k hooks) BlocksSleep() bool {
	wd := k.h.wind
	return wd.Gust > 0 || wd.Turbulence > 0
}
