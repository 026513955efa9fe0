package main

import (
	"time"

	"github.com/drape3d/drape/scene"
	"github.com/drape3d/drape/verlet3d"
)

// stepClock counts the fixed steps a Driver runs for each frame time, by
// the same rule: the frame time capped at Driver.MaxFrameTime, whole steps
// of the World's TimeStep, at most MaxStepsPerFrame a frame, the rest of a
// capped frame dropped. Things animated beside the physics (the hair
// scene's head) advance by these steps, so they move exactly as far as the
// physics does, and a slow frame cannot feed them a long raw frame time.
type stepClock struct {
	step     float64 // s
	maxSteps int
	maxFrame float64 // s; 0 means no cap
	acc      float64 // s left over from earlier frames
}

func newStepClock(d *scene.Driver) stepClock {
	cfg := d.World.Config()
	return stepClock{step: float64(cfg.TimeStep), maxSteps: cfg.MaxStepsPerFrame, maxFrame: float64(d.MaxFrameTime)}
}

// advance takes a frame time in seconds and returns how many steps run.
func (c *stepClock) advance(dt float64) int {
	if !(dt > 0) || c.step <= 0 { // also NaN
		return 0
	}
	if c.maxFrame > 0 && dt > c.maxFrame {
		dt = c.maxFrame
	}
	c.acc += dt
	n := int(c.acc / c.step)
	if n > c.maxSteps {
		c.acc -= float64(n) * c.step
		n = c.maxSteps
	} else {
		c.acc -= float64(n) * c.step
	}
	if c.acc < 0 {
		c.acc = 0
	}
	return n
}

// frameMeter measures the frame rate from wall time: frames counted over
// a window of at least span, not the mean of 1/dt (which a few very short
// frames blow up), and the physics cost and steps per frame over the same
// window.
type frameMeter struct {
	span time.Duration // window length; 0.5 s in the demo

	start   time.Time     // start of the window being filled
	frames  int           // frames ended in it
	physics time.Duration // physics time summed over them
	steps   int           // physics steps summed over them
	scene   time.Duration // scene update time summed over them
	render  time.Duration // render time summed over them

	// The last complete window's figures.
	fps          float64 // frames per second of wall time
	frameMS      float64 // wall time per frame, ms
	physicsMS    float64 // physics time per frame, ms
	stepsPerFrm  float64
	sceneMS      float64 // scene updates (animation, hooks) per frame, ms
	renderMS     float64 // rendering per frame, ms
	windowFrames int

	phaseNow verlet3d.PhaseTimes // the World's phase times at the last frame
	// The World's phase times (cumulative, verlet3d.Stats.Phases) at the
	// window's start, and the last window's split per frame.
	phase0   verlet3d.PhaseTimes
	phasesMS verlet3d.PhaseTimes // per frame; read with ms()
}

// observe records the World's cumulative phase times at the end of a
// frame; a new World (cumulative times that went down) restarts the split.
func (m *frameMeter) observe(ph verlet3d.PhaseTimes) {
	if ph.Total() < m.phase0.Total() {
		m.phase0 = verlet3d.PhaseTimes{}
	}
	m.phaseNow = ph
}

// frame records a frame that ended at now, having spent physics in the
// World and run steps steps.
func (m *frameMeter) frame(now time.Time, physics time.Duration, steps int) {
	if m.start.IsZero() {
		// The first call starts the clock: the frame before it has no
		// known start.
		m.start = now
		return
	}
	m.frames++
	m.physics += physics
	m.steps += steps
	if el := now.Sub(m.start); el >= m.span && m.frames > 0 {
		s := el.Seconds()
		m.fps = float64(m.frames) / s
		m.frameMS = 1000 * s / float64(m.frames)
		m.physicsMS = float64(m.physics.Microseconds()) / 1000 / float64(m.frames)
		m.stepsPerFrm = float64(m.steps) / float64(m.frames)
		m.windowFrames = m.frames
		m.sceneMS = float64(m.scene.Microseconds()) / 1000 / float64(m.frames)
		m.renderMS = float64(m.render.Microseconds()) / 1000 / float64(m.frames)
		d := m.phaseNow.Sub(m.phase0)
		f := time.Duration(m.frames)
		m.phasesMS = verlet3d.PhaseTimes{
			Forces: d.Forces / f, Integrate: d.Integrate / f, Collide: d.Collide / f,
			Solve: d.Solve / f, Respond: d.Respond / f, Post: d.Post / f,
		}
		m.phase0 = m.phaseNow
		m.start, m.frames, m.physics, m.steps = now, 0, 0, 0
		m.scene, m.render = 0, 0
	}
}

// ready reports whether a window has completed.
func (m *frameMeter) ready() bool { return m.windowFrames > 0 }

// phases adds the scene-update and render times of the frame that frame
// is about to record.
func (m *frameMeter) phases(scene, render time.Duration) {
	if m.start.IsZero() {
		return // the first frame starts the clock and is not counted
	}
	m.scene += scene
	m.render += render
}
