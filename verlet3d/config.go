package verlet3d

import (
	"fmt"
	"github.com/drape3d/drape/internal/vecmath"
	"reflect"

	"github.com/go-gl/mathgl/mgl32"
)

// Config holds the settings shared by a whole World. Start from DefaultConfig
// and change what you need; NewWorld rejects invalid values with an error
// that names the field.
type Config struct {
	// Gravity is the uniform acceleration in m/s². Default (0, -9.81, 0).
	Gravity mgl32.Vec3
	// Damping removes this fraction of a particle's velocity per second
	// (1/s), as Verlet damping k = Damping·h per substep. Default 0: free
	// motion keeps its speed (a dropped crate falls as in vacuum) and air
	// resistance belongs to force fields (Drag, cloth's wind). Even at 0 the
	// solver dissipates a little: projecting rigid links damps rotation at
	// about ω²h/2 per second (ω the angular speed, h the substep length),
	// which is why the defaults take small substeps.
	Damping float32
	// TimeStep is the fixed step in seconds that Step advances, in
	// [1e-5, 1]. Default 1/60 s.
	TimeStep float32
	// Substeps splits each step; more substeps stiffen everything and cost
	// proportionally. Default 10: small steps beat many iterations (Macklin
	// et al. 2019), and 10 substeps of 2 passes cost what 2 of 10 did while
	// keeping a 40-link chain under 0.5% strain and a 1 m pendulum losing
	// 1.4% of its amplitude per swing instead of 6.8%.
	Substeps int
	// Iterations is the number of solver passes per substep. Default 2.
	Iterations int
	// MaxStepsPerFrame caps how many steps one Advance call runs, so a slow
	// frame does not snowball, 1..1000. Time beyond the cap is dropped.
	// Default 4.
	MaxStepsPerFrame int
	// Workers is the number of goroutines a step uses: link regions,
	// per-particle phases and components' World.Parallel work.
	// Results are bit-identical for any value. Large scenes (a 64 x 64
	// cloth, 2,000 hair strands) run nearly twice as fast on 2 free cores;
	// small scenes (a cape) gain nothing, and with a core kept busy by
	// another thread (a render thread on a two-core machine) more workers
	// than free cores are slower than one. Between frames the workers
	// sleep, and waking them every frame can cost as much as they give
	// (make bench's GAPS lines; BENCHMARKS.md), so measure on the machines
	// you ship to, or keep them awake with WorkerSpin. Default 1.
	Workers int
	// WorkerSpin in seconds is how long a worker with nothing to do keeps
	// polling for the next job before it sleeps, in [0, 1]. Default 1e-4
	// (100 µs): enough for the serial work between a step's parallel
	// phases, so the workers sleep only between frames. A game that
	// leaves time between its steps (it renders) can set it above its
	// frame time, 0.02 say, so the workers never sleep and the frame's
	// first job does not wait for a thread wake-up (make bench's GAPS
	// lines compare the two). The price is the workers' cores kept busy
	// all the time.
	WorkerSpin float32
	// MaxSpeed clamps particle speed in m/s, a guard against explosions
	// that no game motion should reach: thrown objects at 30-80 m/s, a
	// character sprinting or falling, are never slowed. Clamps are counted
	// in Stats.SpeedClamps. In (0, MaxSpeedLimit]. Default 500.
	MaxSpeed float32
	// SleepSpeed in m/s sets how still the World must be to sleep: once
	// no free particle has strayed farther than SleepSpeed·SleepDelay/2
	// from where it was SleepDelay before, the World falls asleep and its
	// steps cost next to nothing until something wakes it (see
	// World.Sleeping). Motion that goes nowhere (a cloth's edge trembling
	// by a millimeter) is still; a slide or a swing of more than a few
	// millimeters is not, however slow, and nothing brakes it. 0 never
	// sleeps. Default 0.01 (1 cm/s: within 5 mm for 1 s).
	SleepSpeed float32
	// SleepDelay in seconds: how long the World must stay still (see
	// SleepSpeed) before it sleeps; 0 sleeps after one step in which no
	// free particle moved farther than SleepSpeed·TimeStep/2. Default 1.
	SleepDelay float32
	// SettleDamping in 1/s is an opt-in brake near rest: Damping added
	// while the World is settling, that is while every free particle has
	// stayed slower than 10·SleepSpeed (10 cm/s by default) for half of
	// SleepDelay and nothing blocks sleep; it stops the moment anything
	// moves faster (a grab, a gust, a hit). A World with little to take
	// its energy (Damping 0, as at DefaultConfig, and at most still air)
	// may not come to rest by itself: the corners of a tablecloth hanging off a box
	// still swing by 2 cm at 30 s and keep it awake. SettleDamping 3 brings
	// such a scene to sleep seconds after it stops falling, at the price
	// of braking every slow motion: a 0.35 m pendulum swinging 5 degrees
	// with Damping 0.5 loses 78% of its amplitude a period instead of 28%
	// and stops within 4 s. It needs SleepSpeed > 0. Default 0: nothing
	// brakes, and the World sleeps only once it is still.
	SettleDamping float32
	// ContactMargin in meters: a particle this close to a collider gets a
	// contact before it touches, so links cannot drag it through during the
	// solve. Default 0.01.
	ContactMargin float32
}

// DefaultConfig returns settings that give good-looking cloth at 60 fps.
func DefaultConfig() Config {
	return Config{
		Gravity:          mgl32.Vec3{0, -9.81, 0},
		Damping:          0,
		TimeStep:         1.0 / 60,
		Substeps:         10,
		Iterations:       2,
		MaxStepsPerFrame: 4,
		Workers:          1,
		MaxSpeed:         500,
		ContactMargin:    0.01,
		SleepSpeed:       0.01,
		SleepDelay:       1,
		WorkerSpin:       1e-4,
	}
}

// Validate reports the first invalid field, naming it and its value.
func (c Config) Validate() error {
	for i, g := range c.Gravity {
		if !finite(g) {
			return fmt.Errorf("verlet3d: Config.Gravity[%d] = %v, want a finite number", i, g)
		}
	}
	switch {
	case !finite(c.Damping) || c.Damping < 0:
		return fmt.Errorf("verlet3d: Config.Damping = %v, want a finite value >= 0", c.Damping)
	case !finite(c.TimeStep) || c.TimeStep < 1e-5 || c.TimeStep > 1:
		return fmt.Errorf("verlet3d: Config.TimeStep = %v, want seconds in [1e-5, 1]", c.TimeStep)
	case c.Substeps < 1 || c.Substeps > 64:
		return fmt.Errorf("verlet3d: Config.Substeps = %d, want 1..64", c.Substeps)
	case c.Iterations < 1 || c.Iterations > 1000:
		return fmt.Errorf("verlet3d: Config.Iterations = %d, want 1..1000", c.Iterations)
	case c.MaxStepsPerFrame < 1 || c.MaxStepsPerFrame > 1000:
		return fmt.Errorf("verlet3d: Config.MaxStepsPerFrame = %d, want 1..1000", c.MaxStepsPerFrame)
	case c.Workers < 1 || c.Workers > 64:
		return fmt.Errorf("verlet3d: Config.Workers = %d, want 1..64", c.Workers)
	case !finite(c.WorkerSpin) || c.WorkerSpin < 0 || c.WorkerSpin > 1:
		return fmt.Errorf("verlet3d: Config.WorkerSpin = %v, want seconds in [0, 1]", c.WorkerSpin)
	case !finite(c.MaxSpeed) || c.MaxSpeed <= 0 || c.MaxSpeed > MaxSpeedLimit:
		return fmt.Errorf("verlet3d: Config.MaxSpeed = %v, want m/s in (0, %g]", c.MaxSpeed, float32(MaxSpeedLimit))
	case !finite(c.ContactMargin) || c.ContactMargin < 0 || c.ContactMargin > MaxCoordinate:
		return fmt.Errorf("verlet3d: Config.ContactMargin = %v, want meters in [0, %g]", c.ContactMargin, float32(MaxCoordinate))
	case !finite(c.SleepSpeed) || c.SleepSpeed < 0:
		return fmt.Errorf("verlet3d: Config.SleepSpeed = %v, want m/s >= 0", c.SleepSpeed)
	case !finite(c.SleepDelay) || c.SleepDelay < 0:
		return fmt.Errorf("verlet3d: Config.SleepDelay = %v, want seconds >= 0", c.SleepDelay)
	case !finite(c.SettleDamping) || c.SettleDamping < 0:
		return fmt.Errorf("verlet3d: Config.SettleDamping = %v, want a finite value >= 0", c.SettleDamping)
	}
	if c.Damping*c.TimeStep/float32(c.Substeps) >= 1 {
		return fmt.Errorf("verlet3d: Config.Damping = %v removes all velocity in one substep, want Damping·h < 1", c.Damping)
	}
	if (c.Damping+c.SettleDamping)*c.TimeStep/float32(c.Substeps) >= 1 {
		return fmt.Errorf("verlet3d: Config.SettleDamping = %v removes all velocity in one substep, want (Damping + SettleDamping)·h < 1", c.SettleDamping)
	}
	return nil
}

// Limits for finite but absurd values. Squares and sums of float32
// coordinates overflow near 1e19 m, so every position, offset, length and
// size the API takes is held to MaxCoordinate meters: constructors and
// settings return an error naming the field and value beyond it, and the
// setters without an error (SetPosition, SetTarget, DragTo, Teleport,
// SetVelocity) clamp each coordinate to ±MaxCoordinate (a velocity to
// ±MaxSpeedLimit). MaxSpeedLimit bounds Config.MaxSpeed.
const (
	MaxCoordinate = 1e9 // m
	MaxSpeedLimit = 1e5 // m/s
	// MaxCompliance bounds link compliance in m/N: compliance/h² must stay
	// finite in float32 at the smallest substep (1e-5 s / 64).
	MaxCompliance = 1e20
)

// inRange reports whether x is finite and within ±limit.
func inRange(x, limit float32) bool { return x >= -limit && x <= limit }

// vecInRange reports whether every coordinate of v is within ±limit
// (false for NaN).
func vecInRange(v mgl32.Vec3, limit float32) bool {
	return inRange(v[0], limit) && inRange(v[1], limit) && inRange(v[2], limit)
}

// clampVec clamps each coordinate of a finite v to ±limit.
func clampVec(v mgl32.Vec3, limit float32) mgl32.Vec3 {
	for i, x := range v {
		v[i] = max(-limit, min(limit, x))
	}
	return v
}

func finite(f float32) bool { return vecmath.Finite32(f) }

// finiteVec runs once per particle per substep in the NaN guard.
func finiteVec(v mgl32.Vec3) bool { return vecmath.Finite(v) }

// isNil reports whether x is nil or an interface holding a nil pointer,
// map, slice, function or channel (a typed nil such as (*Sphere)(nil)).
func isNil(x any) bool {
	if x == nil {
		return true
	}
	switch v := reflect.ValueOf(x); v.Kind() {
	case reflect.Pointer, reflect.Map, reflect.Slice, reflect.Func, reflect.Chan, reflect.Interface:
		return v.IsNil()
	}
	return false
}
