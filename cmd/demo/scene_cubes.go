package main

import (
	"flag"
	"fmt"
	"math"
	"math/rand"

	"github.com/drape3d/drape/bodies"
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

var (
	cubesRain  = flag.Int("cubes-rain", 30, "cubes scene: cubes raining down (0..300)")
	cubesCloth = flag.Bool("cubes-cloth", true, "cubes scene: drop a cloth over the cubes")
	cubesSize  = flag.Float64("cubes-size", 0.4, "cubes scene: edge length of the stacked cubes in meters (0.1..1)")
	cubesKeep  = flag.Bool("cubes-surface", true, "cubes scene: keep the crates' corners out of the cloth's triangles (cloth.SurfaceCollision)")
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
	if !(*cubesSize >= 0.1 && *cubesSize <= 1) {
		return fmt.Errorf("-cubes-size = %v, want meters in 0.1..1", *cubesSize)
	}
	return nil
}

func buildCubes(d *Demo) error {
	size := float32(*cubesSize)
	cfg := verlet3d.DefaultConfig()
	w, err := d.NewWorld(cfg)
	if err != nil {
		return err
	}
	sys, err := bodies.NewSystem(w, bodies.DefaultSettings())
	if err != nil {
		return err
	}
	// The floor is itself a static box, 12 m square and 0.5 m thick.
	floorBox, err := verlet3d.NewBox(mgl32.Vec3{0, -0.25, 0}, mgl32.Vec3{6, 0.25, 6}, mgl32.QuatIdent())
	if err != nil {
		return err
	}
	if err := sys.AddCollider(floorBox, verlet3d.ContactSettings{Friction: 0.6}); err != nil {
		return err
	}
	add := func(s bodies.CubeSettings) error {
		_, err := sys.AddCube(s)
		return err
	}
	// A stack of five.
	for i := 0; i < 5; i++ {
		if err := add(bodies.CubeSettings{Size: size, Mass: 2, Position: mgl32.Vec3{-1.3, size/2 + float32(i)*size, -0.4},
			Rotation: mgl32.QuatRotate(0.08*float32(i), mgl32.Vec3{0, 1, 0})}); err != nil {
			return err
		}
	}
	// A pyramid: 3 x 3, 2 x 2, 1.
	ps := size * 0.9
	for level := 0; level < 3; level++ {
		n := 3 - level
		for i := 0; i < n; i++ {
			for j := 0; j < n; j++ {
				off := (float32(n) - 1) / 2
				p := mgl32.Vec3{0.9 + (float32(i)-off)*ps*1.02, ps/2 + float32(level)*ps, 0.5 + (float32(j)-off)*ps*1.02}
				if err := add(bodies.CubeSettings{Size: ps, Mass: 1.5, Position: p}); err != nil {
					return err
				}
			}
		}
	}
	// A rain of smaller cubes onto the draped pyramid, spread in height so
	// that they land over a few seconds.
	r := rand.New(rand.NewSource(5))
	for i := 0; i < *cubesRain; i++ {
		s := 0.18 + 0.14*r.Float32()
		p := mgl32.Vec3{0.9 + 2*r.Float32() - 1, 3 + 0.35*float32(i), 0.5 + 2*r.Float32() - 1}
		q := mgl32.QuatRotate(r.Float32()*math.Pi, mgl32.Vec3{r.Float32() - 0.5, r.Float32() - 0.5, r.Float32() - 0.5}.Normalize())
		if err := add(bodies.CubeSettings{Size: s, Mass: 0.5 + s*3, Position: p, Rotation: q,
			AngularVelocity: mgl32.Vec3{r.Float32() - 0.5, r.Float32() - 0.5, r.Float32() - 0.5}.Mul(4)}); err != nil {
			return err
		}
	}
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
	var grid *cloth.Grid
	if *cubesCloth {
		const n, side = 36, 2.2
		cs := cloth.DefaultSettings()
		cs.Cols, cs.Rows = n, n
		cs.Spacing = side / (n - 1)
		cs.Mass = 0.6
		cs.Origin = mgl32.Vec3{0.9 - side/2, 1.9, 0.5 - side/2}
		cs.Down = mgl32.Vec3{0, 0, 1} // lying flat, front side up
		cs.Radius = 0.015
		grid, err = cloth.New(w, cs)
		if err != nil {
			return err
		}
		// The crates' corners are kept out of the cloth's triangles too: the
		// cloth's own particles keep crates out only where they are.
		if *cubesKeep {
			var corners []verlet3d.Particle
			for c := 0; c < sys.NumCubes(); c++ {
				cs := sys.Corners(bodies.Cube(c))
				corners = append(corners, cs[:]...)
			}
			if _, err := cloth.NewSurfaceCollision(grid, corners, cs.Radius); err != nil {
				return err
			}
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
		if dir.Len() < 0.1 {
			dir = mgl32.Vec3{1, 0, 0}
		}
		v := dir.Normalize().Mul(6).Add(mgl32.Vec3{0, 4, 0})
		sys.Throw(c, v, mgl32.Vec3{r.Float32() - 0.5, r.Float32() - 0.5, r.Float32() - 0.5}.Mul(10))
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
