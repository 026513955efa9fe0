package main

import (
	"fmt"
	"math/rand"

	"github.com/drape3d/drape/bodies"
	"github.com/drape3d/drape/internal/draped"
	"github.com/drape3d/drape/internal/vecmath"
	"github.com/drape3d/drape/scene"
	"github.com/drape3d/drape/verlet3d"
	"github.com/g3n/engine/geometry"
	"github.com/g3n/engine/graphic"
	"github.com/g3n/engine/material"
	"github.com/g3n/engine/math32"
	"github.com/g3n/engine/window"
	"github.com/go-gl/mathgl/mgl32"
)

// check validates the cubes scene's flags.
func (o *cubesOptions) check() error {
	if o.rain < 0 || o.rain > 300 {
		return fmt.Errorf("-cubes-rain = %d, want 0..300", o.rain)
	}
	if o.engine != "pose" && o.engine != "particle" {
		return fmt.Errorf("-cubes-engine = %q, want pose or particle", o.engine)
	}
	if !(o.size >= 0.1 && o.size <= 1) {
		return fmt.Errorf("-cubes-size = %v, want meters in 0.1..1", o.size)
	}
	return nil
}

// buildCubes builds the cubes scene in w (draped.Config); its slider
// changes o.rain and rebuilds.
func buildCubes(d *Demo, w *verlet3d.World, o *cubesOptions) error {
	size := float32(o.size)
	// The scene is internal/draped's, which the tests and benchmarks
	// measure: a floor box 12 m square, a stack of five, a 3 x 3 + 2 x 2 + 1
	// pyramid, a rain of smaller crates, and a tablecloth over them.
	set := bodies.DefaultSettings()
	if o.engine == "particle" {
		set.Engine = bodies.ParticleEngine
	}
	sys, err := draped.FloorWith(w, set)
	if err != nil {
		return err
	}
	if err := draped.CratesSized(sys, size, o.rain, 5); err != nil {
		return err
	}
	d.Cubes(sys)
	r := rand.New(rand.NewSource(5))
	crate := d.Texture("crate")
	view := scene.NewCubesView(sys, crate)
	view.DrawScale = 0.985 // so the cloth does not show the crates' edges
	d.Scene.Add(view)
	// With the D view on, asleep crates are drawn blue-gray.
	sleepMat := material.NewStandard(&math32.Color{R: 0.6, G: 0.75, B: 1.3})
	sleepMat.SetShininess(12)
	sleepMat.AddTexture(crate)

	// The floor box as drawn.
	ftex := d.Texture("floor")
	ftex.SetRepeat(6, 6)
	fmat := material.NewStandard(&math32.Color{R: 1, G: 1, B: 1})
	fmat.AddTexture(ftex)
	fm := graphic.NewMesh(geometry.NewBox(12, 0.5, 12), fmat)
	fm.SetPosition(0, -0.25, 0)
	d.Scene.Add(fm)

	var mesh *scene.ClothMesh
	if o.cloth {
		// With ParticleEngine crates, their corners are kept out of the
		// cloth's triangles too (the cloth's own particles keep crates out
		// only where they are); PoseEngine crates meet the cloth through
		// the System's particle contacts.
		grid, _, _, err := draped.Tablecloth(sys, o.surface && set.Engine == bodies.ParticleEngine)
		if err != nil {
			return err
		}
		tex := d.Texture("fabric_check")
		tex.SetRepeat(3, 3)
		mesh = scene.NewClothMesh(grid, tex)
		d.Cloth(grid)
		d.Scene.Add(mesh)
	}

	drv := d.SetWorld(w)
	drv.AfterStep(func() {
		view.SleepMaterial = nil
		if d.DotsOn() {
			view.SleepMaterial = sleepMat
		}
		view.Sync()
		if mesh != nil {
			mesh.Sync()
		}
		st := sys.Stats()
		d.Status("%d cubes (%d asleep)  contacts: %d cube, %d floor, %d cloth", sys.NumCubes(), st.Sleeping, st.CubeContacts, st.ColliderContacts, st.ParticleContacts)
	})
	// T throws a random cube at the stack, spinning.
	d.OnKey(window.KeyT, "T throw", func() {
		c := bodies.Cube(r.Intn(sys.NumCubes()))
		p := sys.Position(c)
		target := mgl32.Vec3{-1.3, 1, -0.4}
		dir := target.Sub(p)
		dir[1] = 0
		if vecmath.Len(dir) < 0.1 {
			dir = mgl32.Vec3{1, 0, 0}
		}
		v := vecmath.Scale(vecmath.Normalize(dir), 6).Add(mgl32.Vec3{0, 4, 0})
		sys.Throw(c, v, vecmath.Scale(mgl32.Vec3{r.Float32() - 0.5, r.Float32() - 0.5, r.Float32() - 0.5}, 10))
	})
	d.Slider("cubes raining", 0, 150, float32(o.rain), "%.0f", func(v float32) {
		if m := int(v + 0.5); m != o.rain {
			o.rain = m
			d.Rebuild()
		}
	})
	d.LookAt(math32.Vector3{X: 2.2, Y: 2.1, Z: 3.6}, math32.Vector3{X: -0.2, Y: 0.75, Z: 0})
	return nil
}
