package character_test

import (
	"log"

	"github.com/drape3d/drape/hair"
	"github.com/drape3d/drape/scene"
	"github.com/drape3d/drape/scene/character"
	"github.com/drape3d/drape/verlet3d"
	"github.com/g3n/engine/core"
	"github.com/g3n/engine/renderer"
)

// A glTF character with a cape and hair fitted to it: the cape to its
// skeleton, the head sphere to its head's mesh, both in meters whatever
// the armature's scale. (This is examples/gltf-character in short.)
func ExampleCharacter_HairSettings() {
	myScene := core.NewNode()
	var myRenderer *renderer.Renderer

	ch, err := character.Load("hero.glb") // plays its walk
	if err != nil {
		log.Print(err) // a clear error for a missing, bad or hostile file
		return
	}
	myScene.Add(ch.Root)
	world, _ := verlet3d.NewWorld(hair.WorldConfig())
	driver := scene.NewDriver(world)

	cs, _ := ch.CapeSettings(character.CapeFit{}) // anchors, size, colliders
	cape, _ := scene.NewCape(world, cs)
	cape.Attach(driver)

	hs, _ := ch.HairSettings(character.HairFit{}) // the head sphere, the style scaled to it
	hs.Hair.Strands = 800                         // change anything before NewHeadHair
	h, _ := scene.NewHeadHair(world, hs)
	h.Attach(driver) // the head follows its bone
	scene.AddHairShader(myRenderer)
	strands := scene.NewHairMesh(h.Hair, hair.DefaultPalette())
	myScene.Add(strands)
	driver.AfterStep(strands.Sync)

	// Each frame: the animation first, then physics.
	ch.Update(1.0 / 60)
	driver.Update(1.0 / 60)
}
