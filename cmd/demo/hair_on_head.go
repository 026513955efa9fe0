package main

import (
	"fmt"

	"github.com/drape3d/drape/hair"
	"github.com/drape3d/drape/scene"
	"github.com/drape3d/drape/verlet3d"
	"github.com/g3n/engine/core"
	"github.com/go-gl/mathgl/mgl32"
)

// grow puts strands hairs (0: 500) on the rig's head: a glTF character's
// through scene.NewHeadHair with the fitted settings (the length stops at
// the neck, the ribbons widen with the head), the mannequin's through
// headHair.
func (rig *capeRig) grow(d *Demo, w *verlet3d.World, drv *scene.Driver, strands int) (*hair.Hair, error) {
	if rig.fitted == nil {
		return headHair(d, w, drv, rig.head, rig.headOff, rig.headR, strands)
	}
	if strands <= 0 {
		strands = 500
	}
	hs := *rig.fitted
	hs.Hair.Strands = strands
	h, err := scene.NewHeadHair(w, hs)
	if err != nil {
		return nil, fmt.Errorf("hair: %w", err)
	}
	h.Attach(drv)
	scene.AddHairShader(d.app.Renderer())
	mesh := scene.NewHairMesh(h.Hair, hair.DefaultPalette())
	k := hs.Head.Radius / hair.DefaultHead().Radius
	mesh.Material.RootWidth *= k
	mesh.Material.TipWidth *= k
	d.Scene.Add(mesh)
	drv.AfterStep(mesh.Sync)
	return h.Hair, nil
}

// headHair puts a head of hair on a character's head node through the
// scene package's public API (hair.New, scene.FollowHead, scene.HairMesh),
// as a game would: the head sphere radius and its offset from the node's
// origin are in meters, whatever the armature's scale. strands 0 means
// 500.
func headHair(d *Demo, w *verlet3d.World, drv *scene.Driver, head *core.Node, offset mgl32.Vec3, radius float32, strands int) (*hair.Hair, error) {
	if strands <= 0 {
		strands = 500
	}
	hd := hair.DefaultHead()
	hd.Radius = radius
	hs := hair.DefaultSettings()
	hs.Strands = strands
	hs.Length *= radius / 0.1 // the default style scaled to this head
	h, err := hair.New(w, hd, hs)
	if err != nil {
		return nil, err
	}
	follow, err := scene.FollowHead(h, head, offset, mgl32.QuatIdent())
	if err != nil {
		return nil, fmt.Errorf("hair on the head: %w", err)
	}
	follow.Attach(drv)
	scene.AddHairShader(d.app.Renderer())
	mesh := scene.NewHairMesh(h, hair.DefaultPalette())
	d.Scene.Add(mesh)
	drv.AfterStep(mesh.Sync)
	return h, nil
}
