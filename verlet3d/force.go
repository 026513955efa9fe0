package verlet3d

import (
	"fmt"
	"github.com/drape3d/drape/internal/vecmath"
	"math"

	"github.com/go-gl/mathgl/mgl32"
)

// Gravity is a uniform acceleration on every free particle. Each World has
// one, set from Config.Gravity; add more for effects such as a tilted world.
type Gravity struct {
	Acceleration mgl32.Vec3 // m/s²
}

// Apply implements ForceField.
func (g *Gravity) Apply(w *World, _ Substep) {
	a := g.Acceleration
	for i := range w.acc {
		w.acc[i] = w.acc[i].Add(a)
	}
}

// Drag slows particles against still air: F = -Coefficient·v, per particle,
// in N·s/m.
type Drag struct {
	Coefficient float32
}

// Apply implements ForceField.
func (d *Drag) Apply(w *World, s Substep) {
	k := d.Coefficient / s.H
	for i := range w.acc {
		v := w.pos[i].Sub(w.prev[i])
		w.acc[i] = w.acc[i].Sub(vecmath.Scale(v, float32(k*w.invMass[i])))
	}
}

// Wind is a velocity field of moving air, shared by every component: a
// steady wind plus gusts that swell and fade over time and turbulence that
// varies smoothly in space and time. It is a description of the air only;
// cloth turns it into forces on triangles and hair into drag on segments.
// The zero value is still air.
type Wind struct {
	// Steady is the mean air velocity in m/s.
	Steady mgl32.Vec3
	// Gust scales the steady wind by up to (1 ± Gust) over time; 0.5 makes
	// the wind swing between half and one and a half times Steady.
	Gust float32
	// GustPeriod is the typical time between gusts in seconds, > 0 when
	// Gust is set (3 is a natural breeze).
	GustPeriod float32
	// Turbulence is the amplitude in m/s of swirling air added everywhere.
	Turbulence float32
	// TurbulenceScale is the size in meters of the swirls, > 0 when
	// Turbulence is set (0.5 suits cloth and hair).
	TurbulenceScale float32
}

// The smallest gust period and swirl size Validate accepts: shorter ones
// would make the field's phase overflow into NaN.
const (
	MinWindPeriod = 1e-3 // s
	MinWindScale  = 1e-3 // m
)

// Validate reports a non-finite or negative setting, a speed beyond
// MaxSpeedLimit, a Gust above 1000, and a GustPeriod or TurbulenceScale
// below MinWindPeriod or MinWindScale while gusts or turbulence are on.
func (wd Wind) Validate() error {
	if !vecInRange(wd.Steady, MaxSpeedLimit) {
		return fmt.Errorf("verlet3d: Wind.Steady = %v, want m/s within ±%g (MaxSpeedLimit)", wd.Steady, float32(MaxSpeedLimit))
	}
	for _, f := range []struct {
		name string
		v    float32
	}{{"Gust", wd.Gust}, {"GustPeriod", wd.GustPeriod}, {"Turbulence", wd.Turbulence}, {"TurbulenceScale", wd.TurbulenceScale}} {
		if !finite(f.v) || f.v < 0 {
			return fmt.Errorf("verlet3d: Wind.%s = %v, want a finite value >= 0", f.name, f.v)
		}
	}
	if wd.Gust > 1e3 {
		return fmt.Errorf("verlet3d: Wind.Gust = %v, want at most 1000", wd.Gust)
	}
	if wd.Turbulence > MaxSpeedLimit {
		return fmt.Errorf("verlet3d: Wind.Turbulence = %v, want m/s in [0, %g]", wd.Turbulence, float32(MaxSpeedLimit))
	}
	if wd.Gust != 0 && wd.GustPeriod < MinWindPeriod {
		return fmt.Errorf("verlet3d: Wind.GustPeriod = %v with Gust = %v, want seconds >= %g", wd.GustPeriod, wd.Gust, float32(MinWindPeriod))
	}
	if wd.Turbulence != 0 && wd.TurbulenceScale < MinWindScale {
		return fmt.Errorf("verlet3d: Wind.TurbulenceScale = %v with Turbulence = %v, want meters >= %g", wd.TurbulenceScale, wd.Turbulence, float32(MinWindScale))
	}
	return nil
}

// Velocity returns the air velocity in m/s at point p and time t (s).
// It is smooth in both and costs a few dozen flops.
func (wd *Wind) Velocity(p mgl32.Vec3, t float32) mgl32.Vec3 {
	v := wd.Steady
	if wd.Gust != 0 && wd.GustPeriod > 0 {
		period := wd.GustPeriod
		// Two incommensurate sines read as irregular gusts.
		x := float64(t / period * 2 * math.Pi)
		g := float64(0.6*math.Sin(x)) + float64(0.4*math.Sin(float64(2.37*x)+1.3))
		v = vecmath.Scale(v, 1+float32(wd.Gust*float32(g)))
	}
	if wd.Turbulence != 0 && wd.TurbulenceScale > 0 {
		scale := wd.TurbulenceScale
		q := vecmath.Scale(p, 1/scale)
		// The air moves through the swirls with the steady wind.
		q = q.Sub(vecmath.Scale(wd.Steady, t/scale))
		v = v.Add(vecmath.Scale(mgl32.Vec3{
			smoothNoise(q[0]+float32(1.7*t), q[1], q[2]),
			smoothNoise(q[1]+0.3, q[2]+float32(1.1*t), q[0]+5.2),
			smoothNoise(q[2]+9.1, q[0]+2.3, q[1]+float32(1.3*t)),
		}, wd.Turbulence))
	}
	return v
}

// smoothNoise is a cheap smooth pseudo-noise in [-1, 1]: a sum of sines at
// skewed frequencies (no tables, no allocation, deterministic).
func smoothNoise(x, y, z float32) float32 {
	a := float64(math.Sin(float64(float32(1.00*x)+float32(0.73*y)+float32(0.31*z))) * 0.5)
	b := float64(math.Sin(float64(float32(0.61*x)-float32(1.37*y)+float32(0.89*z)+1.7)) * 0.3)
	c := float64(math.Sin(float64(float32(-1.83*x)+float32(0.47*y)+float32(1.53*z)+4.1)) * 0.2)
	return float32(a + b + c)
}
