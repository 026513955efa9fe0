package main

import (
	"fmt"

	"github.com/drape3d/drape/hair"
	"github.com/drape3d/drape/scene"
	"github.com/drape3d/drape/verlet3d"
	"github.com/g3n/engine/core"
	"github.com/go-gl/mathgl/mgl32"
)

// headHair puts a head of hair on a character's head node through the
// scene package's public API (hair.New, scene.FollowHead, scene.HairMesh),
// as a game would: the head sphere radius and its offset from the node's
// origin are in metres, whatever the armature's scale. strands 0 means
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
		return nil, fmt.Errorf("hair: %w", err)
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
