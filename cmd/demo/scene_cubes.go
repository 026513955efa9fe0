package main

import (
	"flag"
	"fmt"
	"github.com/drape3d/drape/internal/draped"
	"github.com/drape3d/drape/internal/vecmath"
	"math/rand"

	"github.com/drape3d/drape/bodies"
	"github.com/drape3d/drape/scene"
	"github.com/g3n/engine/geometry"
	"github.com/g3n/engine/graphic"
	"github.com/g3n/engine/material"
	"github.com/g3n/engine/math32"
	"github.com/g3n/engine/window"
	"github.com/go-gl/mathgl/mgl32"
)

var (
	cubesRain   = flag.Int("cubes-rain", 30, "cubes scene: cubes raining down (0..300)")
	cubesCloth  = flag.Bool("cubes-cloth", true, "cubes scene: drop a cloth over the cubes")
	cubesSize   = flag.Float64("cubes-size", 0.4, "cubes scene: edge length of the stacked cubes in meters (0.1..1)")
	cubesKeep   = flag.Bool("cubes-surface", true, "cubes scene: with -cubes-engine particle, keep the crates' corners out of the cloth's triangles (cloth.SurfaceCollision)")
	cubesEngine = flag.String("cubes-engine", "pose", "cubes scene: how crates are solved: pose (bodies.PoseEngine) or particle (bodies.ParticleEngine)")
)

func init() {
	register(sceneDef{
		Name:  "cubes",
		About: "crates stack, tumble and rain down; a cloth drapes them (T throws one, Shift+drag grabs one)",
		Build: buildCubes,
		Check: checkCubes,
	})
}

func checkCubes() error {
	if *cubesRain < 0 || *cubesRain > 300 {
		return fmt.Errorf("-cubes-rain = %d, want 0..300", *cubesRain)
	}
	if *cubesEngine != "pose" && *cubesEngine != "particle" {
		return fmt.Errorf("-cubes-engine = %q, want pose or particle", *cubesEngine)
	}
	if !(*cubesSize >= 0.1 && *cubesSize <= 1) {
		return fmt.Errorf("-cubes-size = %v, want meters in 0.1..1", *cubesSize)
	}
	return nil
}

func buildCubes(d *Demo) error {
	size := float32(*cubesSize)
	cfg := draped.Config() // DefaultConfig with SettleDamping 3, so the scene sleeps once it rests
	w, err := d.NewWorld(cfg)
	if err != nil {
		return err
	}
	// The scene is internal/draped's, which the tests and benchmarks
	// measure: a floor box 12 m square, a stack of five, a 3 x 3 + 2 x 2 + 1
	// pyramid, a rain of smaller crates, and a tablecloth over them.
	set := bodies.DefaultSettings()
	if *cubesEngine == "particle" {
		set.Engine = bodies.ParticleEngine
	}
	sys, err := draped.FloorWith(w, set)
	if err != nil {
		return err
	}
	if err := draped.CratesSized(sys, size, *cubesRain, 5); err != nil {
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
	if *cubesCloth {
		// With ParticleEngine crates, their corners are kept out of the
		// cloth's triangles too (the cloth's own particles keep crates out
		// only where they are); PoseEngine crates meet the cloth through
		// the System's particle contacts.
		grid, _, _, err := draped.Tablecloth(sys, *cubesKeep && set.Engine == bodies.ParticleEngine)
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
	d.Slider("cubes raining", 0, 150, float32(*cubesRain), "%.0f", func(v float32) {
		if m := int(v + 0.5); m != *cubesRain {
			*cubesRain = m
			d.Rebuild()
		}
	})
	d.LookAt(math32.Vector3{X: 2.2, Y: 2.1, Z: 3.6}, math32.Vector3{X: -0.2, Y: 0.75, Z: 0})
	return nil
}
