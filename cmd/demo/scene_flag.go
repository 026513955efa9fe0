package main

import (
	"fmt"
	"math"

	"github.com/drape3d/drape/cloth"
	"github.com/drape3d/drape/scene"
	"github.com/drape3d/drape/verlet3d"
	"github.com/g3n/engine/geometry"
	"github.com/g3n/engine/graphic"
	"github.com/g3n/engine/material"
	"github.com/g3n/engine/math32"
	"github.com/g3n/engine/window"
	"github.com/go-gl/mathgl/mgl32"
)

// check validates the flag scene's flags.
func (o *flagOptions) check() error {
	if !(o.wind >= 0 && o.wind <= 60) {
		return fmt.Errorf("-flag-wind = %v, want m/s in [0, 60]", o.wind)
	}
	if !(o.tear >= 0 && o.tear <= 10) {
		return fmt.Errorf("-flag-tear = %v, want a strain in [0, 10] (0 never tears)", o.tear)
	}
	return nil
}

// flagConfig is the flag scene's World config.
func flagConfig() verlet3d.Config {
	cfg := verlet3d.DefaultConfig()
	cfg.Damping = 0.2
	return cfg
}

// flagScene holds what a reset rebuilds.
type flagScene struct {
	d     *Demo
	o     *flagOptions
	drv   *scene.Driver
	speed float32 // m/s
	// bend is the bend links' compliance in m/N, set live from the panel.
	bend float32
	// ramping is true while the wind is still rising to speed.
	ramping bool
	w       *verlet3d.World
	grid    *cloth.Grid
	wind    *cloth.WindForce
	mesh    *scene.ClothMesh
}

// buildFlag builds the flag scene in w; its tear slider changes o.tear
// and rebuilds.
func buildFlag(d *Demo, w *verlet3d.World, o *flagOptions) error {
	fs := &flagScene{d: d, o: o, speed: float32(o.wind), bend: 0.5}
	if err := fs.build(w); err != nil {
		return err
	}
	fs.drv = d.SetWorld(fs.w)
	// The wind rises to its speed over the first seconds, as a gale does,
	// so a strong wind tears the flag instead of shredding it at once.
	d.OnUpdate(func(float32) {
		if t := float32(fs.w.Time()); t < rampTime {
			fs.applyWind(fs.speed * t / rampTime)
		} else if fs.ramping {
			fs.ramping = false
			fs.applyWind(fs.speed)
		}
	})
	fs.drv.AfterStep(func() {
		fs.mesh.Sync()
		f := fs.wind.NetForce()
		d.Status("wind %.0f m/s  load on the pole %.0f N  %d triangles  %d split vertices  %d links torn",
			fs.speed, f.Len(), fs.grid.NumTriangles(), len(fs.grid.Vertices())-fs.grid.Rows()*fs.grid.Cols(),
			fs.w.Stats().LinksBroken)
	})

	// Pole and floor.
	pole := graphic.NewMesh(geometry.NewCylinder(0.03, 3.3, 16, 1, true, true),
		material.NewStandard(&math32.Color{R: 0.55, G: 0.5, B: 0.45}))
	pole.SetPosition(-0.03, 1.65, 0)
	d.Scene.Add(pole)
	knob := graphic.NewMesh(geometry.NewSphere(0.06, 16, 8), material.NewStandard(&math32.Color{R: 0.85, G: 0.7, B: 0.2}))
	knob.SetPosition(-0.03, 3.32, 0)
	d.Scene.Add(knob)
	d.AddFloor(0, 10)

	d.OnKey(window.KeyUp, "Up wind +3", func() { fs.setSpeed(fs.speed + 3) })
	d.OnKey(window.KeyDown, "Down wind -3", func() { fs.setSpeed(fs.speed - 3) })
	d.OnKey(window.KeyC, "C cut a hole", func() { fs.hole() })
	d.Slider("wind (m/s)", 0, 40, fs.speed, "%.0f", func(v float32) { fs.setSpeed(v) })
	d.Slider("tear strain (0 never)", 0, 1, float32(o.tear), "%.2f", func(v float32) {
		o.tear = float64(v)
		d.Rebuild()
	})
	// Live, without a rebuild: Grid.SetCompliance.
	d.Slider("bend compliance (log10 m/N)", -6, 1, float32(math.Log10(float64(fs.bend))), "%.1f", func(v float32) {
		fs.bend = float32(math.Pow(10, float64(v)))
		s := fs.grid.Settings()
		_ = fs.grid.SetCompliance(s.Structural.Compliance, s.Shear.Compliance, fs.bend)
	})
	d.LookAt(math32.Vector3{X: 1.2, Y: 2.6, Z: 3.6}, math32.Vector3{X: 1.0, Y: 2.45, Z: 0})
	return nil
}

// build puts a new, whole flag in a fresh world w.
func (fs *flagScene) build(w *verlet3d.World) error {
	s := cloth.DefaultSettings()
	s.Cols, s.Rows, s.Spacing = 40, 25, 0.045 // 1.76 m x 1.08 m
	s.Mass = 0.35
	s.Origin = mgl32.Vec3{0.005, 3.2, 0}
	s.PinCols = []int{0}
	s.Shear.Compliance = 1e-4
	s.Bend.Compliance = fs.bend
	s.TearStrain = float32(fs.o.tear)
	// Tethers to the pole keep the flag from sagging away from it; tears
	// lengthen or release them.
	s.Tethers, s.TetherSlack = true, 0.02
	g, err := cloth.New(w, s)
	if err != nil {
		return err
	}
	ws := cloth.DefaultWindSettings()
	wd, err := cloth.NewWindForce(g, ws)
	if err != nil {
		return err
	}
	if fs.mesh != nil {
		fs.d.Scene.Remove(fs.mesh)
	}
	fs.w, fs.grid, fs.wind = w, g, wd
	if err := fs.setSpeed(fs.speed); err != nil {
		return err
	}
	fs.mesh = scene.NewClothMesh(g, fs.d.Texture("flag"))
	fs.d.grids = nil
	fs.d.Cloth(g)
	fs.d.Scene.Add(fs.mesh)
	if fs.o.hole {
		fs.hole()
	}
	return nil
}

const rampTime = 2 // s

// setSpeed sets the wind speed in m/s.
func (fs *flagScene) setSpeed(v float32) error {
	fs.speed = max(0, min(60, v))
	if float32(fs.w.Time()) < rampTime {
		fs.ramping = true
		return nil
	}
	return fs.applyWind(fs.speed)
}

// applyWind sets the air: mostly along +X, away from the pole, a little
// across, gusting and turbulent.
func (fs *flagScene) applyWind(v float32) error {
	return fs.wind.SetAir(verlet3d.Wind{
		Steady:          mgl32.Vec3{1, 0, 0.25}.Normalize().Mul(v),
		Gust:            0.4,
		GustPeriod:      2.5,
		Turbulence:      0.15 * v,
		TurbulenceScale: 0.6,
	})
}

// hole cuts out the cells in the middle of the flag, around the star: a
// cut at a cell's center breaks its two diagonals, which removes both of
// its triangles.
func (fs *flagScene) hole() {
	g := fs.grid
	pos := func(r, c int) mgl32.Vec3 { return fs.w.Position(g.Particle(r, c)) }
	rows, cols := g.Rows(), g.Cols()
	for r := rows * 3 / 10; r < rows*7/10; r++ {
		for c := cols * 2 / 5; c < cols*7/10; c++ {
			center := pos(r, c).Add(pos(r+1, c)).Add(pos(r, c+1)).Add(pos(r+1, c+1)).Mul(0.25)
			g.CutNear(center, 0.3*g.Settings().Spacing)
		}
	}
}
