package scene_test

import (
	"fmt"

	"github.com/drape3d/drape/assets/mannequin"
	"log"

	"github.com/drape3d/drape/bodies"
	"github.com/drape3d/drape/hair"
	"github.com/drape3d/drape/scene"
	"github.com/drape3d/drape/verlet3d"
	"github.com/g3n/engine/core"
	"github.com/g3n/engine/graphic"
	"github.com/g3n/engine/math32"
	"github.com/g3n/engine/renderer"
	"github.com/g3n/engine/texture"
	"github.com/go-gl/mathgl/mgl32"
)

// A rope hanging over a ball, shown as points and lines in a g3n scene and
// advanced from the game loop. (This is the README's example.)
func Example() {
	myScene := core.NewNode()

	world, err := verlet3d.NewWorld(verlet3d.DefaultConfig())
	if err != nil {
		panic(err)
	}
	var rope []verlet3d.Particle
	var links []verlet3d.Link
	for i := 0; i <= 20; i++ {
		mass := float32(0.02)
		if i == 0 {
			mass = 0 // pinned
		}
		p, _ := world.AddParticle(mgl32.Vec3{float32(float32(i) * 0.05), 2, 0}, mass)
		rope = append(rope, p)
	}
	for i := 0; i < 20; i++ {
		l, _ := world.AddLink(rope[i], rope[i+1], verlet3d.LinkSettings{Compliance: 1e-6})
		links = append(links, l)
	}
	ball, _ := verlet3d.NewSphere(mgl32.Vec3{0.4, 1.4, 0}, 0.3)
	world.AddCollider(ball, verlet3d.ContactSettings{Friction: 0.4})

	view := scene.NewNetView(world, rope, links, math32.Color{R: 1}, math32.Color{}, 4)
	myScene.Add(view)
	driver := scene.NewDriver(world)
	driver.AfterStep(view.Sync)

	// In app.Run's update function, before rendering:
	driver.Update(1.0 / 60)
}

// A cape pinned to the bones of a skinned character (a glTF model loaded
// with g3n's loader gives the skeleton) and drawn lit and textured on both
// sides. (This is the README's cape example.)
func ExampleNewCape() {
	myScene := core.NewNode()
	var skeleton *graphic.Skeleton // from gltf.GLTF.LoadSkin
	var myTexture *texture.Texture2D

	world, _ := verlet3d.NewWorld(verlet3d.DefaultConfig())
	driver := scene.NewDriver(world)
	neck, _ := scene.FindBone(skeleton, "Neck") // or scene.FindNode(root, "neck")
	lSh, _ := scene.FindBone(skeleton, "LeftShoulder")
	rSh, _ := scene.FindBone(skeleton, "RightShoulder")
	spine, _ := scene.FindBone(skeleton, "Spine")
	cs := scene.DefaultCapeSettings()
	cs.Anchors = []scene.Anchor{{Node: lSh}, {Node: neck}, {Node: rSh}} // along the top edge
	cs.Standoff = 0.17                                                  // bone origins sit inside the body
	cs.Body = []scene.BodyPart{{Node: spine, B: math32.Vector3{Y: 0.3}, Radius: 0.13}}
	cs.MaxLag = 1.5                            // the hem never trails far at a run
	cs.CarryLinear, cs.CarryAngular = 0.3, 0.3 // part of the body's lurches goes straight to the cloth
	cape, err := scene.NewCape(world, cs)
	if err != nil {
		log.Fatal(err) // unknown bones, empty anchors: clear errors
	}
	cape.Attach(driver)                              // pins and colliders follow the nodes
	mesh := scene.NewClothMesh(cape.Grid, myTexture) // lit on both sides, textured
	myScene.Add(mesh)
	driver.AfterStep(mesh.Sync)

	// Each frame: update the animation, then the world matrices, then physics.
	myScene.UpdateMatrixWorld()
	driver.Update(1.0 / 60)
}

// Hair on a head and a crate, drawn as lit ribbons and a textured box.
// (This is the README's hair and cubes example.)
func ExampleNewHairMesh() {
	myScene := core.NewNode()
	var myRenderer *renderer.Renderer
	var crateTexture *texture.Texture2D

	world, _ := verlet3d.NewWorld(hair.WorldConfig())
	head := hair.DefaultHead() // sphere, radius 0.1 m, facing +Z
	head.Center = mgl32.Vec3{0, 1.6, 0}
	h, _ := hair.New(world, head, hair.DefaultSettings())  // strands on a scalp cap, styled
	scene.AddHairShader(myRenderer)                        // once per renderer
	strands := scene.NewHairMesh(h, hair.DefaultPalette()) // lit camera-facing ribbons
	myScene.Add(strands)

	sys, _ := bodies.NewSystem(world, bodies.DefaultSettings())
	sys.AddCube(bodies.CubeSettings{Size: 0.5, Mass: 2, Position: mgl32.Vec3{0, 3, 0}})
	crates := scene.NewCubesView(sys, crateTexture) // one textured box node per cube
	myScene.Add(crates)

	driver := scene.NewDriver(world)
	driver.BeforeStep(func() { h.SetHead(head.Center, mgl32.QuatIdent()) }) // the head's pose
	driver.AfterStep(strands.Sync)
	driver.AfterStep(crates.Sync)
	driver.Update(1.0 / 60)
}

// Long hair on a walking character's cape, in the cape's World: the hair
// keeps its own 3 passes a substep and lies on the cape's outside.
// (This is the README's "Hair and a cape in one World".)
func ExampleHairOnCape() {
	m, _ := mannequin.New(mannequin.Options{})
	m.Root.UpdateMatrixWorld()
	world, _ := verlet3d.NewWorld(verlet3d.DefaultConfig())
	defer world.Close()
	driver := scene.NewDriver(world)
	cs := scene.DefaultCapeSettings()
	cs.Reference = m.Root
	for _, a := range m.CapeAnchors() {
		n, _ := m.Node(a.Node)
		cs.Anchors = append(cs.Anchors, scene.Anchor{Node: n, Offset: a.Offset})
	}
	for _, c := range m.Capsules() {
		n, _ := m.Node(c.Node)
		cs.Body = append(cs.Body, scene.BodyPart{Node: n, A: c.A, B: c.B, Radius: c.Radius})
	}
	cape, err := scene.NewCape(world, cs)
	if err != nil {
		log.Fatal(err)
	}
	cape.Attach(driver)

	head := hair.DefaultHead()
	head.Radius = 0.11
	hs := hair.DefaultSettings()
	hs.Strands = 200
	hs.Length, hs.Segments = 0.5, 12
	h, _ := hair.New(world, head, hs)
	headBone, _ := m.Node(mannequin.NodeHead)
	follow, _ := scene.FollowHead(h, headBone, mgl32.Vec3{0, 0.12, 0.01}, mgl32.Quat{})
	follow.Attach(driver)
	onCape, err := scene.HairOnCape(h, cape)
	if err != nil {
		log.Fatal(err)
	}
	for range 60 {
		m.Update(1.0 / 60)
		m.Root.UpdateMatrixWorld()
		driver.Update(1.0 / 60)
	}
	fmt.Println(onCape.NumPoints(), "strand particles kept on the cape's", onCape.Side())
	// Output: 2600 strand particles kept on the cape's SideBack
}
