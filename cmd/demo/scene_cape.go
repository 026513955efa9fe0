package main

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/drape3d/drape/assets/mannequin"
	"github.com/drape3d/drape/cloth"
	"github.com/drape3d/drape/hair"
	"github.com/drape3d/drape/scene"
	"github.com/drape3d/drape/scene/character"
	"github.com/drape3d/drape/verlet3d"
	"github.com/g3n/engine/core"
	"github.com/g3n/engine/math32"
	"github.com/g3n/engine/window"
	"github.com/go-gl/mathgl/mgl32"
)

// capeRig is what the scene animates: the mannequin or a loaded glTF.
type capeRig struct {
	root      *core.Node // moves with the character; the camera follows it
	update    func(dt float32)
	settings  scene.CapeSettings
	mannequin *mannequin.Mannequin
	head      *core.Node // the head bone (nil: none found)
	headOff   mgl32.Vec3 // head sphere center from the bone's origin, m
	headR     float32    // head sphere radius, m
	// fitted is a glTF character's hair fitted to its head
	// (Character.HairSettings); nil for the mannequin, whose head is
	// head, headOff and headR.
	fitted    *scene.HairSettings
	viewScale float32 // camera distance and height relative to the mannequin's (0: 1)
}

// capeConfig is the cape scene's World config.
func capeConfig() verlet3d.Config {
	cfg := verlet3d.DefaultConfig()
	// The defaults' small steps with 3 iterations: at a run the knees kick
	// the hem, and 10 x 3 keeps every link within 10% (scene/cape_test.go
	// measures it: 7.9%, against 9-12% at 10 x 2).
	cfg.Iterations = 3
	return cfg
}

// buildCape builds the cape scene in w: the mannequin, or the glTF
// character of o.gltf, in a cape, walking.
// check validates the cape scene's flags.
func (o *capeOptions) check() error {
	switch o.view {
	case "side", "behind", "front":
	default:
		return fmt.Errorf("-cape-view = %q, want side, behind or front", o.view)
	}
	if _, err := mannequin.ParseGait(o.gait); err != nil {
		return fmt.Errorf("-cape-gait = %q: %w", o.gait, err)
	}
	if _, err := o.at(); err != nil {
		return err
	}
	return nil
}

// at returns -cape-offset: where the scene is built, m.
func (o *capeOptions) at() (math32.Vector3, error) {
	if o.offset == "" {
		return math32.Vector3{}, nil
	}
	v, err := parseVec(o.offset)
	if err != nil {
		return v, fmt.Errorf("-cape-offset = %q: %w", o.offset, err)
	}
	const far = 1e6 // m: a float32 scene graph is good to 6 cm there
	if !(math.Abs(float64(v.X)) <= far && math.Abs(float64(v.Y)) <= far && math.Abs(float64(v.Z)) <= far) {
		return v, fmt.Errorf("-cape-offset = %q, want meters within ±%g", o.offset, float64(far))
	}
	return v, nil
}

func buildCape(d *Demo, w *verlet3d.World, o *capeOptions) error {
	var rig *capeRig
	at, err := o.at()
	if err != nil {
		return err
	}
	if o.gltf != "" {
		rig, err = gltfRig(d, o)
	} else {
		rig, err = mannequinRig(d, o.gait, at)
	}
	if err != nil {
		return err
	}
	drv := d.SetWorld(w)
	cape, mesh, wind, err := rig.dress(d, w, drv)
	if err != nil {
		return err
	}
	floor, _ := verlet3d.NewPlane(mgl32.Vec3{at.X, at.Y, at.Z}, mgl32.Vec3{0, 1, 0})
	if err := w.AddCollider(floor, verlet3d.ContactSettings{Friction: 0.5}); err != nil {
		return err
	}
	// Still air slows the cape, so it streams behind a runner; W makes it blow.
	gust := verlet3d.Wind{Steady: mgl32.Vec3{4, 0, -2}, Gust: 0.5, GustPeriod: 3, Turbulence: 1.5, TurbulenceScale: 0.5}
	windOn := false
	var hr *hair.Hair // with -cape-hair; it feels the same air as the cape
	setWind := func(on bool) {
		windOn = on
		air := verlet3d.Wind{}
		if on {
			air = gust
		}
		wind.SetAir(air)
		if hr != nil {
			_ = hr.SetWind(air)
		}
	}
	setWind(o.wind)

	// A satin sheen: g3n's default specular, broader than the cloth
	// mesh's matte default, so the folds catch the light.
	mesh.Material.SetSpecularColor(&math32.Color{R: 0.5, G: 0.5, B: 0.5})
	drv.AfterStep(mesh.Sync)
	d.AddFloor(at.Y, 40).SetPosition(at.X, at.Y, at.Z)
	if o.hair {
		if rig.head == nil {
			return fmt.Errorf("-cape-hair: the character has no head bone")
		}
		if hr, err = rig.grow(d, w, drv, 300); err != nil {
			return err
		}
		setWind(windOn)
	}

	// Camera: the chosen view, then it follows the character's moves.
	var view math32.Vector3
	switch o.view {
	case "side":
		view = math32.Vector3{X: 2.8, Y: 0.3, Z: -0.4}
	case "behind":
		view = math32.Vector3{X: 0.6, Y: 0.4, Z: -2.8}
	case "front":
		view = math32.Vector3{X: 0.4, Y: 0.3, Z: 2.8}
	default:
		return fmt.Errorf("-cape-view = %q, want side, behind or front", o.view)
	}
	// The view is in the character's frame at the start.
	k := float32(1)
	if rig.viewScale > 0 {
		k = rig.viewScale
	}
	m := rig.root.MatrixWorld()
	var start math32.Vector3
	rig.root.WorldPosition(&start)
	eye := view
	eye.MultiplyScalar(k)
	eye.ApplyMatrix4(&m)
	eye.Y = start.Y + (1.0+view.Y)*k
	look := start
	look.Y += 1.1 * k
	d.LookAt(eye, look)
	last, lastYaw := start, yaw(rig.root)
	d.OnUpdate(func(dt float32) {
		rig.update(dt)
		var p math32.Vector3
		rig.root.UpdateMatrixWorld()
		rig.root.WorldPosition(&p)
		move := p
		move.Sub(&last)
		turn := yaw(rig.root) - lastYaw
		last, lastYaw = p, yaw(rig.root)
		if move.Length() > 2 { // a teleport: the camera jumps with the character
			turn = 0
		}
		// Follow: keep the camera's offset from its target in the
		// character's frame, turning as it turns.
		cam, tgt := d.Orbit.Eye(), d.Orbit.Target()
		off := cam
		off.Sub(&tgt)
		off.ApplyAxisAngle(&math32.Vector3{Y: 1}, turn)
		tgt.Add(&move)
		cam = tgt
		cam.Add(&off)
		d.Orbit.Place(cam, tgt)
		gait := "animation"
		if rig.mannequin != nil {
			gait = rig.mannequin.Gait().String()
		}
		d.Status("gait %s  wind %v  carry %.1f  %d cape particles  strain %.1f%%  teleports %d",
			gait, onOff(windOn), cape.Settings().CarryLinear, len(cape.Particles()), 100*cape.Grid.MaxStrain(), cape.Teleports)
	})
	if mq := rig.mannequin; mq != nil {
		// G cycles the gaits (the number keys choose scenes).
		gaits := []mannequin.Gait{mannequin.Idle, mannequin.Walk, mannequin.Run, mannequin.Turn}
		d.OnKey(window.KeyG, "G idle/walk/run/turn", func() {
			for i, g := range gaits {
				if g == mq.Gait() {
					mq.SetGait(gaits[(i+1)%len(gaits)])
					return
				}
			}
			mq.SetGait(mannequin.Walk)
		})
		d.OnKey(window.KeyT, "T teleport", func() {
			p := mq.Root.Position()
			p.X += 6
			mq.SetPlacement(p, mq.Heading()+math.Pi/2)
		})
	}
	d.OnKey(window.KeyW, "W wind", func() { setWind(!windOn) })
	d.Slider("wind (m/s, 0 still air)", 0, 15, 0, "%.1f", func(v float32) {
		gust.Steady = mgl32.Vec3{2, 0, -1}.Normalize().Mul(v)
		gust.Turbulence = 0.3 * v
		setWind(v > 0)
	})
	d.OnKey(window.KeyC, "C carry", func() {
		c := float32(0.3)
		if cape.Settings().CarryLinear > 0 {
			c = 0
		}
		cape.SetCarry(c, c)
	})
	// Let the cape settle on the shoulders before the first frame.
	for i := 0; i < 30; i++ {
		cape.Sync()
		w.Step()
	}
	mesh.Sync()
	return nil
}

// dress puts the demo's cape on the rig, in w, following the rig's nodes
// through drv: it carries 30% of the body's lurches, its hem trails at
// most 1.5 m, and it feels still air until its wind's SetAir. The mesh is
// in the scene and registered with the cut tool; the caller syncs it.
func (rig *capeRig) dress(d *Demo, w *verlet3d.World, drv *scene.Driver) (*scene.Cape, *scene.ClothMesh, *cloth.WindForce, error) {
	d.Scene.UpdateMatrixWorld()
	rig.settings.CarryLinear = 0.3
	rig.settings.CarryAngular = 0.3
	rig.settings.MaxLag = 1.5
	cape, err := scene.NewCape(w, rig.settings)
	if err != nil {
		return nil, nil, nil, err
	}
	wind, err := cloth.NewWindForce(cape.Grid, cloth.DefaultWindSettings())
	if err != nil {
		return nil, nil, nil, err
	}
	cape.Attach(drv)
	// The shared cloth renderer: lit and textured on both sides, its
	// culling bounds following the cape.
	mesh := scene.NewClothMesh(cape.Grid, d.Texture("cape"))
	d.Cloth(cape.Grid)
	d.Scene.Add(mesh)
	return cape, mesh, wind, nil
}

// yaw returns the heading of n's world transform about +Y, in radians.
func yaw(n *core.Node) float32 {
	m := n.MatrixWorld()
	// The node's +Z axis projected on the ground.
	return float32(math.Atan2(float64(m[8]), float64(m[10])))
}

func onOff(b bool) string {
	if b {
		return "on"
	}
	return "off"
}

// mannequinRig builds the procedural character walking a 3.5 m loop.
func mannequinRig(d *Demo, gait string, at math32.Vector3) (*capeRig, error) {
	g, err := mannequin.ParseGait(gait)
	if err != nil {
		return nil, fmt.Errorf("-cape-gait = %q: %w", gait, err)
	}
	m, err := mannequin.New(mannequin.Options{Steer: 1 / 3.5})
	if err != nil {
		return nil, err
	}
	m.SetPlacement(math32.Vector3{X: at.X - 3.5, Y: at.Y, Z: at.Z}, 0)
	m.SetGait(g)
	m.BlendTime = 0.35
	d.Scene.Add(m.Root)
	// Start mid-stride so captures show a walking pose.
	for i := 0; i < 20; i++ {
		m.Update(1.0 / 60)
	}
	m.Root.UpdateMatrixWorld()
	s := scene.DefaultCapeSettings()
	s.Reference, s.Length = m.Root, 1.05
	for _, a := range m.CapeAnchors() {
		n, err := m.Node(a.Node)
		if err != nil {
			return nil, err
		}
		s.Anchors = append(s.Anchors, scene.Anchor{Node: n, Offset: a.Offset})
	}
	for _, c := range m.Capsules() {
		n, _ := m.Node(c.Node)
		s.Body = append(s.Body, scene.BodyPart{Node: n, A: c.A, B: c.B, Radius: c.Radius})
	}
	head, _ := m.Node(mannequin.NodeHead)
	return &capeRig{root: m.Root, update: m.Update, settings: s, mannequin: m,
		head: head, headOff: mgl32.Vec3{0, 0.12, 0.01}, headR: 0.11}, nil
}

// gltfRig loads the glTF character of -cape-gltf through drape's
// sanitizing loader, plays its walk (or the chosen animation) and fits the
// cape to its skeleton; -cape-bones and -cape-body override the fitted
// anchors and colliders. Every error here is about a flag's value: the
// demo exits with status 2.
func gltfRig(d *Demo, o *capeOptions) (*capeRig, error) {
	rig, err := loadGLTFRig(d, o)
	if err != nil {
		fmt.Fprintln(os.Stderr, "demo:", err)
		os.Exit(2)
	}
	return rig, nil
}

func loadGLTFRig(d *Demo, o *capeOptions) (*capeRig, error) {
	switch strings.ToLower(filepath.Ext(o.gltf)) {
	case ".gltf", ".glb":
	default:
		return nil, fmt.Errorf("-cape-gltf %q: want a .gltf or .glb file", o.gltf)
	}
	animName := o.anim
	if o.animation != "" {
		if animName != "" && animName != o.animation {
			return nil, fmt.Errorf("-animation %q and -cape-anim %q disagree: give one", o.animation, animName)
		}
		animName = o.animation
	}
	ch, err := character.Load(o.gltf)
	if err != nil {
		return nil, fmt.Errorf("-cape-gltf: %w", err)
	}
	for _, n := range ch.Model.Notes {
		fmt.Fprintln(os.Stderr, "demo: -cape-gltf:", n)
	}
	if animName != "" {
		if err := ch.Play(animName); err != nil {
			return nil, fmt.Errorf("-animation: %w", err)
		}
	}
	var fit character.CapeFit
	fit.Anchors = splitList(o.bones)
	if fit.Body, err = parseCapeBody(o.body); err != nil {
		return nil, err
	}
	d.Scene.Add(ch.Root)
	// Start mid-stride so captures show a walking pose.
	ch.Update(0.3)
	s, err := ch.CapeSettings(fit)
	if err != nil {
		if len(fit.Anchors) > 0 {
			return nil, fmt.Errorf("-cape-bones: %w", err)
		}
		if len(fit.Body) > 0 {
			return nil, fmt.Errorf("-cape-body: %w", err)
		}
		return nil, fmt.Errorf("-cape-gltf: %w", err)
	}
	// The camera frames a character of the neck's height as it frames the
	// 1.5 m mannequin, or of its head's top as the 1.8 m mannequin's
	// (RobotExpressive's head is as tall as its body).
	var top, foot math32.Vector3
	s.Anchors[len(s.Anchors)/2].Node.WorldPosition(&top)
	ch.Root.WorldPosition(&foot)
	scale := max(0.2, (top.Y-foot.Y)/1.5)
	rig := &capeRig{root: ch.Root, update: ch.Update, settings: s}
	if hs, err := ch.HairSettings(character.HairFit{}); err == nil {
		// The hair fitted to the head's mesh, as a game does it.
		rig.head, rig.fitted = hs.Head.Bone, &hs
		scale = max(scale, (hs.Head.Head().Center.Y()+hs.Head.Radius-foot.Y)/1.8)
	}
	rig.viewScale = scale
	return rig, nil
}

func splitList(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// parseCapeBody reads -cape-body: comma-separated bone:radius colliders,
// each radius a finite number of meters in (0, 10]. Bone names may hold
// colons (mixamorig:Spine): the radius is after the last one. checkFlags
// runs it before any window opens, whatever the scene.
func parseCapeBody(body string) ([]character.BodyBone, error) {
	var out []character.BodyBone
	for _, part := range splitList(body) {
		i := strings.LastIndexByte(part, ':')
		var r float64
		err := fmt.Errorf("no radius")
		if i > 0 {
			r, err = strconv.ParseFloat(strings.TrimSpace(part[i+1:]), 64)
		}
		switch {
		case err == nil && (math.IsNaN(r) || math.IsInf(r, 0)):
			return nil, fmt.Errorf("-cape-body = %q: radius %v in %q is not a finite number, want bone:radius with the radius in meters, 0 < radius <= 10", body, r, part)
		case err != nil || !(r > 0) || r > 10 || strings.TrimSpace(part[:i]) == "":
			return nil, fmt.Errorf("-cape-body = %q: %q, want bone:radius with the radius in meters, 0 < radius <= 10", body, part)
		}
		out = append(out, character.BodyBone{Bone: strings.TrimSpace(part[:i]), Radius: float32(r)})
	}
	return out, nil
}
