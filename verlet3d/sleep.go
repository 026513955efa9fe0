package verlet3d

// Sleeping: a World whose particles have all stayed slower than
// Config.SleepSpeed for Config.SleepDelay falls asleep. An asleep World's
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
	still  float32 // seconds every particle has been slower than SleepSpeed
	// calm is how long every free particle has been slower than
	// settleFactor·SleepSpeed with nothing blocking sleep (see settling).
	calm float32
}

// settleFactor: a World whose particles have all stayed slower than
// settleFactor·SleepSpeed for half of SleepDelay is settling (see
// Config.SettleDamping).
const settleFactor = 10

// settling reports whether the next step adds Config.SettleDamping: every
// free particle has stayed slower than settleFactor·SleepSpeed for half of
// SleepDelay.
func (w *World) settling() bool {
	return w.cfg.SettleDamping > 0 && w.sleep.calm >= 0.5*w.cfg.SleepDelay
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
		if e := &w.colliders[i]; e.moved(e.c.Bounds()) {
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

// updateSleep runs after a step: it counts how long every free particle has
// been slow and puts the World to sleep after Config.SleepDelay.
func (w *World) updateSleep() {
	w.sleep.wake = false
	if w.cfg.SleepSpeed == 0 || len(w.grabbed) > 0 {
		w.sleep.still, w.sleep.calm = 0, 0
		return
	}
	limit := float32(w.cfg.SleepSpeed * w.cfg.TimeStep)
	limit2 := float32(limit * limit)
	calm2 := float32(settleFactor * settleFactor * limit2)
	pos, start, state := w.pos, w.stepStart[:len(w.pos)], w.state[:len(w.pos)]
	slow := true // every free particle slower than SleepSpeed
	for i := range pos {
		if state[i] != stateFree {
			continue
		}
		a, b := pos[i], start[i]
		dx, dy, dz := a[0]-b[0], a[1]-b[1], a[2]-b[2]
		if d2 := float32(dx*dx) + float32(dy*dy) + float32(dz*dz); d2 > limit2 {
			slow = false
			if d2 > calm2 {
				w.sleep.still, w.sleep.calm = 0, 0
				return
			}
		}
	}
	if w.blocked() {
		w.sleep.still, w.sleep.calm = 0, 0
		return
	}
	w.sleep.calm += w.cfg.TimeStep
	if !slow {
		w.sleep.still = 0
		return
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
