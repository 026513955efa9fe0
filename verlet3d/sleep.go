package verlet3d

import "github.com/go-gl/mathgl/mgl32"

// Sleeping: a World whose free particles have all stayed within
// Config.SleepSpeed·SleepDelay/2 of where they were for Config.SleepDelay
// is still and falls asleep (updateSleep). An asleep World's
// Step only advances the clock, after checking, in this order, whether
// anything wants it awake:
//
//   - World.Wake was called: by the World itself for every change made
//     through its API (adding things, positions, velocities, forces, pins,
//     masses, links, tethers, colliders, hooks, gravity, a drag) and by
//     components for theirs (a wind that changes, a head or cube that is
//     moved);
//   - a collider's Bounds changed (a body part moved into a resting cape);
//   - a kinematic particle's target is not where it is (a pin moved);
//   - a force field or constraint set that implements SleepBlocker reports
//     BlocksSleep (gusty wind, a follower whose colliders are moving).
//
// When the World falls asleep every free particle's velocity is set to
// zero, so it wakes from rest.

// SleepBlocker is implemented by force fields and constraint sets whose
// effect changes on its own over time (gusts, turbulence, a moving
// attachment): while BlocksSleep returns true the World stays awake, and a
// sleeping World wakes up.
type SleepBlocker interface {
	BlocksSleep() bool
}

type sleepState struct {
	asleep bool
	wake   bool    // Wake was called
	still  float32 // seconds every free particle has stayed near its anchor
	// anchor holds every particle's position when the current still
	// window began (valid while still > 0); it grows with the particles.
	anchor []mgl32.Vec3
	// calm is how long every free particle has been slower than
	// settleFactor·SleepSpeed with nothing blocking sleep (see settling).
	calm float32
}

// settleFactor: a World whose particles have all stayed slower than
// settleFactor·SleepSpeed for half of SleepDelay is settling (see
// Config.SettleDamping).
const settleFactor = 10

// settling reports whether the next step adds Config.SettleDamping: it is
// set, and every free particle has stayed slower than
// settleFactor·SleepSpeed for half of SleepDelay.
func (w *World) settling() bool {
	return w.cfg.SettleDamping > 0 && w.sleep.calm >= 0.5*w.cfg.SleepDelay
}

// stillRadius returns how far a free particle may stray from where it was
// when a still window began, m: half of what SleepSpeed allows over
// SleepDelay (over one step when SleepDelay is shorter).
func (w *World) stillRadius() float32 {
	return float32(w.cfg.SleepSpeed * max(w.cfg.SleepDelay, w.cfg.TimeStep) / 2)
}

// Sleeping reports whether the World is asleep.
func (w *World) Sleeping() bool { return w.sleep.asleep }

// Wake wakes the World (and restarts its count towards sleep). Changes made
// through the World's own methods wake it already; a component that writes
// positions directly or changes a force field's strength calls Wake.
func (w *World) Wake() {
	w.sleep.wake = true
	w.sleep.still = 0
	w.sleep.calm = 0
}

// stayAsleep reports whether an asleep World may skip this step.
func (w *World) stayAsleep() bool {
	if w.sleep.wake || w.blocked() {
		return false
	}
	for i := range w.colliders {
		if e := &w.colliders[i]; e.movedNow(w.frameCollider(e)) {
			return false
		}
	}
	for i, st := range w.state {
		if st == stateKinematic && w.target[i] != w.pos[i] {
			return false
		}
	}
	return true
}

// blocked reports whether a hook keeps the World awake.
func (w *World) blocked() bool {
	for _, f := range w.fields {
		if b, ok := f.(SleepBlocker); ok && b.BlocksSleep() {
			return true
		}
	}
	for _, s := range w.sets {
		if b, ok := s.(SleepBlocker); ok && b.BlocksSleep() {
			return true
		}
	}
	return false
}

// updateSleep runs after a step. The World is still while every free
// particle stays within stillRadius of where it was when the still window
// began (the start of the first step counted): motion that goes nowhere, a
// cloth's edge trembling by a millimeter, is still; a slow swing or slide
// is not. Still for Config.SleepDelay, the World falls asleep. Nothing here
// changes how anything moves: Config.SettleDamping, when set, is the only
// brake, and it counts its own calm time here.
func (w *World) updateSleep() {
	w.sleep.wake = false
	if w.cfg.SleepSpeed == 0 || len(w.grabbed) > 0 || w.blocked() {
		w.sleep.still, w.sleep.calm = 0, 0
		return
	}
	n := len(w.pos)
	pos, start, state := w.pos, w.stepStart[:n], w.state[:n]
	if w.cfg.SettleDamping > 0 {
		limit := float32(w.cfg.SleepSpeed * w.cfg.TimeStep)
		calm2 := float32(settleFactor * settleFactor * float32(limit*limit))
		if strayed(pos, start, state, calm2) {
			w.sleep.calm = 0
		} else {
			w.sleep.calm += w.cfg.TimeStep
		}
	}
	anchor := w.sleep.anchor[:n]
	ref := anchor
	if w.sleep.still == 0 {
		ref = start // a window begins at this step's start
	}
	r := w.stillRadius()
	if strayed(pos, ref, state, float32(r*r)) {
		w.sleep.still = 0
		return
	}
	if w.sleep.still == 0 {
		copy(anchor, start)
	}
	w.sleep.still += w.cfg.TimeStep
	if w.sleep.still < w.cfg.SleepDelay {
		return
	}
	w.sleep.asleep = true
	w.sleep.calm = 0
	for i := range pos {
		if state[i] == stateFree {
			w.prev[i] = pos[i]
		}
	}
}

// strayed reports whether a free particle lies farther than sqrt(limit2)
// from its place in ref.
func strayed(pos, ref []mgl32.Vec3, state []uint8, limit2 float32) bool {
	ref, state = ref[:len(pos)], state[:len(pos)]
	for i := range pos {
		if state[i] != stateFree {
			continue
		}
		a, b := pos[i], ref[i]
		dx, dy, dz := a[0]-b[0], a[1]-b[1], a[2]-b[2]
		if float32(dx*dx)+float32(dy*dy)+float32(dz*dz) > limit2 {
			return true
		}
	}
	return false
}
