package scene

import (
	"time"

	"github.com/drape3d/drape/verlet3d"
)

// Driver advances a World at its fixed time step from g3n's variable frame
// time and runs hooks around the steps: BeforeStep hooks move kinematic
// targets (pins following nodes), AfterStep hooks copy particles into meshes.
type Driver struct {
	World *verlet3d.World

	before, after []func()
	paused        bool
	stepOnce      bool
	// MaxFrameTime caps the frame time fed to the World, in seconds, so a
	// stall (window drag, breakpoint) does not try to catch up. Default 0.1.
	MaxFrameTime float32
	// Physics is how long the last Update spent in World.Advance.
	Physics time.Duration
}

// NewDriver makes a Driver for w.
func NewDriver(w *verlet3d.World) *Driver {
	return &Driver{World: w, MaxFrameTime: 0.1}
}

// BeforeStep adds a hook run every frame before the World advances.
func (d *Driver) BeforeStep(f func()) { d.before = append(d.before, f) }

// AfterStep adds a hook run every frame after the World advanced (also while
// paused, so views stay in sync after a reset).
func (d *Driver) AfterStep(f func()) { d.after = append(d.after, f) }

// SetPaused stops or resumes the simulation; hooks still run.
func (d *Driver) SetPaused(p bool) { d.paused = p }

// Paused reports whether the simulation is paused.
func (d *Driver) Paused() bool { return d.paused }

// StepOnce runs exactly one step at the next Update, even while paused.
func (d *Driver) StepOnce() { d.stepOnce = true }

// Update runs the hooks and advances the World by dt seconds of frame time;
// it returns how many fixed steps ran.
func (d *Driver) Update(dt float32) int {
	if dt > d.MaxFrameTime && d.MaxFrameTime > 0 {
		dt = d.MaxFrameTime
	}
	if !(dt >= 0) { // negative or NaN: a broken clock, not time to simulate
		dt = 0
	}
	for _, f := range d.before {
		f()
	}
	n := 0
	start := time.Now()
	switch {
	case d.stepOnce:
		d.World.Step()
		d.stepOnce = false
		n = 1
	case !d.paused:
		n = d.World.Advance(dt)
	}
	d.Physics = time.Since(start)
	for _, f := range d.after {
		f()
	}
	return n
}
