package main

import (
	"fmt"

	"github.com/drape3d/drape/cloth"
	"github.com/drape3d/drape/hair"
	"github.com/drape3d/drape/scene"
	"github.com/drape3d/drape/verlet3d"
	"github.com/g3n/engine/geometry"
	"github.com/g3n/engine/graphic"
	"github.com/g3n/engine/material"
	"github.com/g3n/engine/math32"
	"github.com/g3n/engine/window"
	"github.com/go-gl/mathgl/mgl32"
)

// check validates the showcase scene's flags.
func (o *showcaseOptions) check() error {
	if !(o.wind >= 0 && o.wind <= 25) {
		return fmt.Errorf("-showcase-wind = %v, want m/s in [0, 25]", o.wind)
	}
	if o.strands < 0 || o.strands > 2000 {
		return fmt.Errorf("-showcase-strands = %d, want 0..2000", o.strands)
	}
	return nil
}

// showcaseConfig is the showcase scene's World config.
func showcaseConfig() verlet3d.Config {
	cfg := verlet3d.DefaultConfig()
	cfg.Substeps = 4
	cfg.Iterations = 10
	cfg.Damping = 0.2
	return cfg
}

// showcase is the workshop's advanced exercise: many cloth effects at once
// in one World, moving in one wind and touching one body.
type showcase struct {
	d      *Demo
	w      *verlet3d.World
	speed  float32
	winds  []*cloth.WindForce
	h      *hair.Hair
	meshes []*scene.ClothMesh
}

// buildShowcase builds the showcase scene in w; its strands slider
// changes o.strands and rebuilds.
func buildShowcase(d *Demo, w *verlet3d.World, o *showcaseOptions) error {
	s := &showcase{d: d, w: w, speed: float32(o.wind)}
	floor, _ := verlet3d.NewPlane(mgl32.Vec3{}, mgl32.Vec3{0, 1, 0})
	if err := w.AddCollider(floor, verlet3d.ContactSettings{Friction: 0.5}); err != nil {
		return err
	}
	d.AddFloor(0, 24)
	wood := material.NewStandard(&math32.Color{R: 0.5, G: 0.4, B: 0.3})
	stone := material.NewStandard(&math32.Color{R: 0.78, G: 0.74, B: 0.66})
	gold := material.NewStandard(&math32.Color{R: 0.85, G: 0.7, B: 0.2})

	// Two flags on poles at the back of the courtyard.
	for _, x := range []float32{-3.2, 2.2} {
		pole := graphic.NewMesh(geometry.NewCylinder(0.04, 4.2, 12, 1, true, true), wood)
		pole.SetPosition(x, 2.1, -4)
		d.Scene.Add(pole)
		knob := graphic.NewMesh(geometry.NewSphere(0.07, 12, 8), gold)
		knob.SetPosition(x, 4.25, -4)
		d.Scene.Add(knob)
		cs := cloth.DefaultSettings()
		cs.Cols, cs.Rows, cs.Spacing = 28, 17, 0.055
		cs.Mass = 0.3
		cs.Origin = mgl32.Vec3{x + 0.04, 4.1, -4}
		cs.PinCols = []int{0}
		cs.Shear.Compliance = 1e-4
		cs.Bend.Compliance = 0.5
		cs.Tethers, cs.TetherSlack = true, 0.02
		if err := s.addCloth(cs, "flag"); err != nil {
			return err
		}
	}

	// A gateway with two curtains on the right.
	if o.curtains {
		for _, p := range []struct {
			pos  [3]float32
			size [3]float32
		}{{[3]float32{3.3, 1.4, -1.6}, [3]float32{0.2, 2.8, 0.2}}, {[3]float32{3.3, 1.4, 1.6}, [3]float32{0.2, 2.8, 0.2}}, {[3]float32{3.3, 2.9, 0}, [3]float32{0.3, 0.2, 3.6}}} {
			m := graphic.NewMesh(geometry.NewBox(p.size[0], p.size[1], p.size[2]), stone)
			m.SetPosition(p.pos[0], p.pos[1], p.pos[2])
			d.Scene.Add(m)
		}
		for _, z := range []float32{-1.45, 0.05} {
			cs := cloth.DefaultSettings()
			cs.Cols, cs.Rows, cs.Spacing = 16, 24, 0.09
			cs.Mass = 2.5
			cs.Origin = mgl32.Vec3{3.3, 2.78, z}
			cs.Across = mgl32.Vec3{0, 0, 1}
			cs.PinRows = []int{0}
			cs.Bend.Compliance = 0.2
			cs.Radius = 0.02
			if err := s.addCloth(cs, "fabric_check"); err != nil {
				return err
			}
		}
	}

	// The walker: the cape scene's mannequin, its cape and hair on its head.
	rig, err := mannequinRig(d, "walk", math32.Vector3{})
	if err != nil {
		return err
	}
	drv := d.SetWorld(w)
	cape, capeMesh, wf, err := rig.dress(d, w, drv)
	if err != nil {
		return err
	}
	s.meshes = append(s.meshes, capeMesh)
	s.winds = append(s.winds, wf)
	if o.strands > 0 {
		if s.h, err = rig.grow(d, w, drv, o.strands); err != nil {
			return err
		}
	}
	d.OnUpdate(rig.update)
	if err := s.setWind(s.speed); err != nil {
		return err
	}
	drv.AfterStep(func() {
		for _, m := range s.meshes {
			m.Sync()
		}
		d.Status("wind %.0f m/s gusting  %d cloth pieces  cape strain %.1f%%", s.speed, len(s.meshes), 100*cape.Grid.MaxStrain())
	})
	d.OnKey(window.KeyUp, "Up wind +2", func() { _ = s.setWind(s.speed + 2) })
	d.OnKey(window.KeyDown, "Down wind -2", func() { _ = s.setWind(s.speed - 2) })
	d.Slider("wind (m/s)", 0, 25, s.speed, "%.0f", func(v float32) { _ = s.setWind(v) })
	d.Slider("hair strands", 0, 2000, float32(o.strands), "%.0f", func(v float32) {
		if n := int(v + 0.5); n != o.strands {
			o.strands = n
			d.Rebuild()
		}
	})
	d.focus = func() (math32.Vector3, bool) {
		var p math32.Vector3
		rig.root.WorldPosition(&p)
		p.Y += 1.1
		return p, true
	}
	// Start with everything already moving: a second of wind and walking.
	for i := 0; i < 60; i++ {
		rig.update(1.0 / 60)
		d.Scene.UpdateMatrixWorld()
		drv.Update(1.0 / 60)
	}
	d.LookAt(math32.Vector3{X: -0.8, Y: 3.0, Z: 6.8}, math32.Vector3{X: 0.3, Y: 1.7, Z: -1.2})
	return nil
}

// addCloth adds a cloth grid with its wind and mesh.
func (s *showcase) addCloth(cs cloth.Settings, tex string) error {
	g, err := cloth.New(s.w, cs)
	if err != nil {
		return err
	}
	wf, err := cloth.NewWindForce(g, cloth.DefaultWindSettings())
	if err != nil {
		return err
	}
	s.winds = append(s.winds, wf)
	m := scene.NewClothMesh(g, s.d.Texture(tex))
	s.d.Scene.Add(m)
	s.d.Cloth(g)
	s.meshes = append(s.meshes, m)
	return nil
}

// setWind blows v m/s from the left and a little from behind the flags,
// gusting, on every piece of cloth and on the hair.
func (s *showcase) setWind(v float32) error {
	s.speed = max(0, min(25, v))
	air := verlet3d.Wind{
		Steady:          mgl32.Vec3{1, 0, 0.35}.Normalize().Mul(s.speed),
		Gust:            0.6,
		GustPeriod:      3,
		Turbulence:      0.25 * s.speed,
		TurbulenceScale: 0.8,
	}
	for _, wf := range s.winds {
		if err := wf.SetAir(air); err != nil {
			return err
		}
	}
	if s.h != nil {
		return s.h.SetWind(air)
	}
	return nil
}
