package main

import (
	"fmt"

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

// check validates the tablecloth scene's flags.
func (o *tableclothOptions) check() error {
	if n := o.size; n < 8 || n > 160 {
		return fmt.Errorf("-tablecloth-size = %d, want 8..160", n)
	}
	return nil
}

// tableclothConfig is the tablecloth scene's World config.
func tableclothConfig() verlet3d.Config {
	cfg := verlet3d.DefaultConfig()
	// Still air alone leaves the corners hanging off the box swinging by
	// centimeters for more than 30 s; settling brakes what is left near rest, so
	// the World sleeps about 12 s after the drop.
	cfg.SettleDamping = 3
	return cfg
}

// buildTablecloth builds the tablecloth scene in w; its slider changes
// o.size and rebuilds.
func buildTablecloth(d *Demo, w *verlet3d.World, o *tableclothOptions) error {
	n := o.size
	floor, _ := verlet3d.NewPlane(mgl32.Vec3{}, mgl32.Vec3{0, 1, 0})
	box, _ := verlet3d.NewBox(mgl32.Vec3{-0.35, 0.4, 0}, mgl32.Vec3{0.3, 0.4, 0.3}, mgl32.QuatIdent())
	ball, _ := verlet3d.NewSphere(mgl32.Vec3{0.45, 0.35, 0}, 0.35)
	for _, c := range []verlet3d.Collider{floor, box, ball} {
		if err := w.AddCollider(c, verlet3d.ContactSettings{Friction: 0.6}); err != nil {
			return err
		}
	}
	const side = 1.9 // m
	s := cloth.DefaultSettings()
	s.Cols, s.Rows = n, n
	s.Spacing = side / float32(n-1)
	s.Mass = 0.5
	s.Origin = mgl32.Vec3{-side/2 - 0.05, 1.3, -side / 2}
	s.Down = mgl32.Vec3{0, 0, 1} // lying flat, front side up
	s.Radius = 0.01
	g, err := cloth.New(w, s)
	if err != nil {
		return err
	}
	if o.self {
		if _, err := cloth.NewSelfCollision(g, 0.9*s.Spacing); err != nil {
			return err
		}
	}
	// A breeze to toggle: W.
	ws := cloth.DefaultWindSettings()
	wind, err := cloth.NewWindForce(g, ws)
	if err != nil {
		return err
	}
	breeze := false

	tex := d.Texture("fabric_check")
	tex.SetRepeat(3, 3)
	mesh := scene.NewClothMesh(g, tex)
	d.Cloth(g)
	d.Scene.Add(mesh)

	// The colliders as drawn a hair smaller than they act, so the cloth,
	// which keeps its particles' radius away, sits on them.
	wood := material.NewStandard(&math32.Color{R: 0.55, G: 0.38, B: 0.22})
	bm := graphic.NewMesh(geometry.NewBox(0.6*0.96, 0.8*0.97, 0.6*0.96), wood)
	bm.SetPosition(box.Center[0], box.Center[1], box.Center[2])
	d.Scene.Add(bm)
	sm := graphic.NewMesh(geometry.NewSphere(float64(ball.Radius)*0.985, 48, 24),
		material.NewStandard(&math32.Color{R: 0.25, G: 0.45, B: 0.75}))
	sm.SetPosition(ball.Center[0], ball.Center[1], ball.Center[2])
	d.Scene.Add(sm)
	d.AddFloor(0, 8)

	drv := d.SetWorld(w)
	drv.AfterStep(func() {
		mesh.Sync()
		d.Status("%d x %d particles  kinetic energy %.4f J  breeze %v", n, n, g.KineticEnergy(), breeze)
	})
	d.OnKey(window.KeyW, "W breeze", func() {
		breeze = !breeze
		air := verlet3d.Wind{}
		if breeze {
			air = verlet3d.Wind{Steady: mgl32.Vec3{-3, 0, 1}, Gust: 0.6, GustPeriod: 3, Turbulence: 1, TurbulenceScale: 0.5}
		}
		wind.SetAir(air)
	})
	d.Slider("particles a side", 8, 96, float32(n), "%.0f", func(v float32) {
		if m := int(v + 0.5); m != o.size {
			o.size = m
			d.Rebuild()
		}
	})
	d.LookAt(math32.Vector3{X: 1.6, Y: 1.9, Z: 2.6}, math32.Vector3{X: 0, Y: 0.45, Z: 0})
	return nil
}
