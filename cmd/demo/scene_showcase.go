package main

import (
	"fmt"

	"github.com/drape3d/drape/hair"
	"github.com/drape3d/drape/internal/showcase"
	"github.com/drape3d/drape/scene"
	"github.com/drape3d/drape/verlet3d"
	"github.com/g3n/engine/geometry"
	"github.com/g3n/engine/graphic"
	"github.com/g3n/engine/material"
	"github.com/g3n/engine/math32"
	"github.com/g3n/engine/window"
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
func showcaseConfig() verlet3d.Config { return showcase.Config() }

// buildShowcase builds the showcase scene in w (internal/showcase: flags,
// curtains, the caped walker with long hair lying on its cape, all in one
// World and one gusting wind) and dresses it with meshes; its strands
// slider changes o.strands and rebuilds.
func buildShowcase(d *Demo, w *verlet3d.World, o *showcaseOptions) error {
	so := showcase.DefaultOptions()
	so.Strands, so.Curtains, so.Wind = o.strands, o.curtains, float32(o.wind)
	drv := d.SetWorld(w)
	s, err := showcase.Build(w, drv, so)
	if err != nil {
		return err
	}
	d.AddFloor(0, 24)
	wood := material.NewStandard(&math32.Color{R: 0.5, G: 0.4, B: 0.3})
	stone := material.NewStandard(&math32.Color{R: 0.78, G: 0.74, B: 0.66})
	gold := material.NewStandard(&math32.Color{R: 0.85, G: 0.7, B: 0.2})
	for _, x := range showcase.FlagPoles {
		pole := graphic.NewMesh(geometry.NewCylinder(0.04, 4.2, 12, 1, true, true), wood)
		pole.SetPosition(x, 2.1, -4)
		d.Scene.Add(pole)
		knob := graphic.NewMesh(geometry.NewSphere(0.07, 12, 8), gold)
		knob.SetPosition(x, 4.25, -4)
		d.Scene.Add(knob)
	}
	if o.curtains {
		r := showcase.CurtainRail
		for _, p := range []struct{ pos, size [3]float32 }{
			{[3]float32{r[0], 1.4, -1.6}, [3]float32{0.2, 2.8, 0.2}},
			{[3]float32{r[0], 1.4, 1.6}, [3]float32{0.2, 2.8, 0.2}},
			{[3]float32{r[0], 2.9, 0}, [3]float32{0.3, 0.2, 3.6}},
		} {
			m := graphic.NewMesh(geometry.NewBox(p.size[0], p.size[1], p.size[2]), stone)
			m.SetPosition(p.pos[0], p.pos[1], p.pos[2])
			d.Scene.Add(m)
		}
	}
	var meshes []*scene.ClothMesh
	for _, c := range s.Cloths {
		m := scene.NewClothMesh(c.Grid, d.Texture(c.Texture))
		d.Scene.Add(m)
		d.Cloth(c.Grid)
		meshes = append(meshes, m)
	}
	d.Scene.Add(s.Mannequin.Root)
	capeMesh := scene.NewClothMesh(s.Cape.Grid, d.Texture("cape"))
	d.Cloth(s.Cape.Grid)
	d.Scene.Add(capeMesh)
	meshes = append(meshes, capeMesh)
	if s.Hair != nil {
		scene.AddHairShader(d.app.Renderer())
		mesh := scene.NewHairMesh(s.Hair, hair.DefaultPalette())
		d.Scene.Add(mesh)
		drv.AfterStep(mesh.Sync)
	}
	d.OnUpdate(func(dt float32) { s.Mannequin.Update(dt) })
	drv.AfterStep(func() {
		for _, m := range meshes {
			m.Sync()
		}
		d.Status("wind %.0f m/s gusting  %d cloth pieces  cape strain %.1f%%", s.WindSpeed(), len(meshes), 100*s.Cape.Grid.MaxStrain())
	})
	wind := func(v float32) { _ = s.SetWind(v) }
	d.OnKey(window.KeyUp, "Up wind +2", func() { wind(s.WindSpeed() + 2) })
	d.OnKey(window.KeyDown, "Down wind -2", func() { wind(s.WindSpeed() - 2) })
	d.Slider("wind (m/s)", 0, 25, s.WindSpeed(), "%.0f", wind)
	d.Slider("hair strands", 0, 2000, float32(o.strands), "%.0f", func(v float32) {
		if n := int(v + 0.5); n != o.strands {
			o.strands = n
			d.Rebuild()
		}
	})
	d.focus = func() (math32.Vector3, bool) {
		var p math32.Vector3
		s.Mannequin.Root.WorldPosition(&p)
		p.Y += 1.1
		return p, true
	}
	// Start with everything already moving: a second of wind and walking.
	for i := 0; i < 60; i++ {
		s.Mannequin.Update(1.0 / 60)
		d.Scene.UpdateMatrixWorld()
		drv.Update(1.0 / 60)
	}
	d.LookAt(math32.Vector3{X: -0.8, Y: 3.0, Z: 6.8}, math32.Vector3{X: 0.3, Y: 1.7, Z: -1.2})
	return nil
}
