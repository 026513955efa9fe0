package main

import (
	"github.com/drape3d/drape/scene"
	"github.com/drape3d/drape/verlet3d"
	"github.com/g3n/engine/geometry"
	"github.com/g3n/engine/graphic"
	"github.com/g3n/engine/material"
	"github.com/g3n/engine/math32"
	"github.com/go-gl/mathgl/mgl32"
)

// buildNet builds the net scene in w (verlet3d.DefaultConfig).
func buildNet(d *Demo, w *verlet3d.World) error {
	const n = 24
	const spacing = float32(0.08)
	size := spacing * (n - 1)
	ps := make([]verlet3d.Particle, 0, n*n)
	for r := 0; r < n; r++ {
		for c := 0; c < n; c++ {
			// Horizontal, 1.5 m up, the far edge's corners pinned.
			x := -size/2 + float32(c)*spacing
			z := -size/2 + float32(r)*spacing
			mass := float32(0.01)
			if r == 0 && (c == 0 || c == n-1) {
				mass = 0
			}
			p, err := w.AddParticle(mgl32.Vec3{x, 1.6, z}, mass)
			if err != nil {
				return err
			}
			w.SetRadius(p, 0.01)
			ps = append(ps, p)
		}
	}
	var links []verlet3d.Link
	join := func(a, b int, s verlet3d.LinkSettings) error {
		l, err := w.AddLink(ps[a], ps[b], s)
		links = append(links, l)
		return err
	}
	for r := 0; r < n; r++ {
		for c := 0; c < n; c++ {
			i := r*n + c
			if c+1 < n {
				if err := join(i, i+1, verlet3d.LinkSettings{Compliance: 1e-6}); err != nil {
					return err
				}
			}
			if r+1 < n {
				if err := join(i, i+n, verlet3d.LinkSettings{Compliance: 1e-6}); err != nil {
					return err
				}
			}
		}
	}
	ball, _ := verlet3d.NewSphere(mgl32.Vec3{0.15, 0.7, 0.1}, 0.45)
	floor, _ := verlet3d.NewPlane(mgl32.Vec3{}, mgl32.Vec3{0, 1, 0})
	if err := w.AddCollider(ball, verlet3d.ContactSettings{Friction: 0.4}); err != nil {
		return err
	}
	if err := w.AddCollider(floor, verlet3d.ContactSettings{Friction: 0.6}); err != nil {
		return err
	}

	d.AddFloor(0, 8)
	// Render the sphere a hair smaller than the collider so the net's lines sit on it.
	sphere := graphic.NewMesh(geometry.NewSphere(float64(ball.Radius)*0.97, 48, 24),
		material.NewStandard(&math32.Color{R: 0.85, G: 0.35, B: 0.2}))
	sphere.SetPosition(ball.Center[0], ball.Center[1], ball.Center[2])
	d.Scene.Add(sphere)
	view := scene.NewNetView(w, ps, links, math32.Color{R: 0.1, G: 0.2, B: 0.6}, math32.Color{R: 0.05, G: 0.1, B: 0.35}, 5)
	d.Scene.Add(view)
	drv := d.SetWorld(w)
	drv.AfterStep(view.Sync)
	d.LookAt(math32.Vector3{X: 1.8, Y: 2.2, Z: 2.8}, math32.Vector3{X: 0, Y: 0.8, Z: 0})
	d.Status("%d particles, %d links, Workers %d", w.NumParticles(), w.NumLinks(), w.Config().Workers)
	return nil
}
