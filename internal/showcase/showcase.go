// Package showcase builds the physics of the demo's showcase scene, with
// no window and no GL: two flags on poles, two curtains in a gateway and
// the walking mannequin in a cape with long hair lying on it, all in one
// World and one gusting wind. The demo adds meshes to what it builds;
// the benchmark table times it as `showcase`; tests check the hair stays
// on the cape.
package showcase

import (
	"fmt"

	"github.com/drape3d/drape/assets/mannequin"
	"github.com/drape3d/drape/cloth"
	"github.com/drape3d/drape/hair"
	"github.com/drape3d/drape/scene"
	"github.com/drape3d/drape/verlet3d"
	"github.com/g3n/engine/math32"
	"github.com/go-gl/mathgl/mgl32"
)

// Options choose what the scene holds.
type Options struct {
	// Strands is the number of hair strands on the walker's head; 0 grows
	// none.
	Strands int
	// HairLength is the strands' length in meters (the demo's 0.5 reaches
	// down the cape's back).
	HairLength float32
	// HairIterations is the hair's solver passes per substep
	// (hair.Settings.Iterations), its own whatever the World's.
	HairIterations int
	// HairOnCape lays the hair on the cape and keeps it on its outside
	// (scene.HairOnCape). Without it strands pass through the cape.
	HairOnCape bool
	// Flags adds the two flags.
	Flags bool
	// Curtains adds the gateway's two curtains.
	Curtains bool
	// Wind is the steady wind speed in m/s, in [0, 25]; it gusts around it.
	Wind float32
}

// DefaultOptions is the demo's showcase: 200 strands of 0.5 m lying on
// the cape at 2 passes a substep of their own (8 a step in the World's 4
// substeps, where hair.WorldConfig gives a hair alone 6), the flags and
// the curtains, 6 m/s of wind.
func DefaultOptions() Options {
	return Options{Strands: 200, HairLength: 0.5, HairIterations: 2, HairOnCape: true, Flags: true, Curtains: true, Wind: 6}
}

// Config is the showcase World's config: 4 substeps of 10 iterations (the
// flags and curtains are large cloths in a strong wind), Damping 0.2.
func Config() verlet3d.Config {
	cfg := verlet3d.DefaultConfig()
	cfg.Substeps = 4
	cfg.Iterations = 10
	cfg.Damping = 0.2
	return cfg
}

// Flag and curtain placements (meters), for the demo's poles and gateway.
var (
	// FlagPoles are the x of the two flag poles, at z = -4, 4.2 m tall.
	FlagPoles = [2]float32{-3.2, 2.2}
	// CurtainRail is the gateway's lintel: curtains hang from y = 2.78 at
	// x = 3.3, from z = -1.45 and 0.05, 1.4 m wide each.
	CurtainRail = mgl32.Vec3{3.3, 2.78, 0}
)

// Cloth is one flag or curtain.
type Cloth struct {
	Grid    *cloth.Grid
	Wind    *cloth.WindForce
	Texture string // the demo's texture name: "flag" or "fabric_check"
}

// Scene is the built showcase.
type Scene struct {
	World     *verlet3d.World
	Driver    *scene.Driver
	Mannequin *mannequin.Mannequin
	Cape      *scene.Cape
	CapeWind  *cloth.WindForce
	Hair      *hair.Hair // nil with no strands
	Head      *scene.HeadFollower
	// HairOnCape keeps the hair on the cape's outside (nil unless
	// Options.HairOnCape and strands; scene.HairOnCape).
	HairOnCape *cloth.SurfaceCollision
	Cloths     []Cloth
	wind       float32
}

// Build builds the showcase in w, stepped by drv (a scene.Driver of w):
// the floor, the flags, the curtains, the walker and its cape and hair.
// The mannequin's nodes are not added to any g3n scene; a renderer adds
// s.Mannequin.Root. Call Update every frame (or drive the mannequin and
// drv yourself).
func Build(w *verlet3d.World, drv *scene.Driver, o Options) (*Scene, error) {
	if !(o.Wind >= 0 && o.Wind <= 25) {
		return nil, fmt.Errorf("showcase: Options.Wind = %v, want m/s in [0, 25]", o.Wind)
	}
	if o.Strands < 0 || o.Strands > 2000 {
		return nil, fmt.Errorf("showcase: Options.Strands = %d, want 0..2000", o.Strands)
	}
	s := &Scene{World: w, Driver: drv}
	floor, _ := verlet3d.NewPlane(mgl32.Vec3{}, mgl32.Vec3{0, 1, 0})
	if err := w.AddCollider(floor, verlet3d.ContactSettings{Friction: 0.5}); err != nil {
		return nil, err
	}
	for _, x := range FlagPoles {
		if !o.Flags {
			break
		}
		cs := cloth.DefaultSettings()
		cs.Cols, cs.Rows, cs.Spacing = 28, 17, 0.055
		cs.Mass = 0.3
		cs.Origin = mgl32.Vec3{x + 0.04, 4.1, -4}
		cs.PinCols = []int{0}
		cs.Shear.Compliance = 1e-4
		cs.Bend.Compliance = 0.5
		cs.Tethers, cs.TetherSlack = true, 0.02
		if err := s.addCloth(cs, "flag"); err != nil {
			return nil, err
		}
	}
	if o.Curtains {
		for _, z := range []float32{-1.45, 0.05} {
			cs := cloth.DefaultSettings()
			cs.Cols, cs.Rows, cs.Spacing = 16, 24, 0.09
			cs.Mass = 2.5
			cs.Origin = mgl32.Vec3{CurtainRail[0], CurtainRail[1], z}
			cs.Across = mgl32.Vec3{0, 0, 1}
			cs.PinRows = []int{0}
			cs.Bend.Compliance = 0.2
			cs.Radius = 0.02
			if err := s.addCloth(cs, "fabric_check"); err != nil {
				return nil, err
			}
		}
	}
	if err := s.addWalker(o); err != nil {
		return nil, err
	}
	if err := s.SetWind(o.Wind); err != nil {
		return nil, err
	}
	return s, nil
}

func (s *Scene) addCloth(cs cloth.Settings, tex string) error {
	g, err := cloth.New(s.World, cs)
	if err != nil {
		return err
	}
	wf, err := cloth.NewWindForce(g, cloth.DefaultWindSettings())
	if err != nil {
		return err
	}
	s.Cloths = append(s.Cloths, Cloth{Grid: g, Wind: wf, Texture: tex})
	return nil
}

// addWalker builds the mannequin walking a 3.5 m loop, its cape (as the
// demo's cape scene dresses it) and hair on its head.
func (s *Scene) addWalker(o Options) error {
	m, err := mannequin.New(mannequin.Options{Steer: 1 / 3.5})
	if err != nil {
		return err
	}
	m.SetPlacement(math32.Vector3{X: -3.5}, 0)
	if err := m.SetGait(mannequin.Walk); err != nil {
		return err
	}
	m.BlendTime = 0.35
	// Start mid-stride.
	for range 20 {
		m.Update(1.0 / 60)
	}
	m.Root.UpdateMatrixWorld()
	s.Mannequin = m
	cs := scene.DefaultCapeSettings()
	cs.Reference, cs.Length = m.Root, 1.05
	for _, a := range m.CapeAnchors() {
		n, err := m.Node(a.Node)
		if err != nil {
			return err
		}
		cs.Anchors = append(cs.Anchors, scene.Anchor{Node: n, Offset: a.Offset})
	}
	for _, c := range m.Capsules() {
		n, err := m.Node(c.Node)
		if err != nil {
			return err
		}
		cs.Body = append(cs.Body, scene.BodyPart{Node: n, A: c.A, B: c.B, Radius: c.Radius})
	}
	cs.CarryLinear, cs.CarryAngular = 0.3, 0.3
	cs.MaxLag = 1.5
	if s.Cape, err = scene.NewCape(s.World, cs); err != nil {
		return err
	}
	if s.CapeWind, err = cloth.NewWindForce(s.Cape.Grid, cloth.DefaultWindSettings()); err != nil {
		return err
	}
	s.Cape.Attach(s.Driver)
	if o.Strands == 0 {
		return nil
	}
	if s.Hair, s.Head, err = GrowHair(s.World, s.Driver, m, o); err != nil {
		return err
	}
	if o.HairOnCape {
		if s.HairOnCape, err = scene.HairOnCape(s.Hair, s.Cape); err != nil {
			return err
		}
	}
	return nil
}

// GrowHair grows o.Strands strands of o.HairLength on the mannequin's
// head in w, its head following the head bone through drv: the showcase's
// hair, in the walker's World or in one of its own.
func GrowHair(w *verlet3d.World, drv *scene.Driver, m *mannequin.Mannequin, o Options) (*hair.Hair, *scene.HeadFollower, error) {
	head, err := m.Node(mannequin.NodeHead)
	if err != nil {
		return nil, nil, err
	}
	const headR = 0.11
	hd := hair.DefaultHead()
	hd.Radius = headR
	hs := hair.DefaultSettings()
	hs.Strands = o.Strands
	hs.Length = o.HairLength
	hs.Segments = max(4, int(o.HairLength/0.04+0.5))
	hs.Iterations = o.HairIterations
	h, err := hair.New(w, hd, hs)
	if err != nil {
		return nil, nil, err
	}
	f, err := scene.FollowHead(h, head, mgl32.Vec3{0, 0.12, 0.01}, mgl32.QuatIdent())
	if err != nil {
		return nil, nil, err
	}
	f.Attach(drv)
	return h, f, nil
}

// SetWind blows v m/s (clamped to [0, 25]) from the left and a little from
// behind the flags, gusting, on every piece of cloth and on the hair.
func (s *Scene) SetWind(v float32) error {
	s.wind = max(0, min(25, v))
	air := Air(s.wind)
	for _, c := range s.Cloths {
		if err := c.Wind.SetAir(air); err != nil {
			return err
		}
	}
	if err := s.CapeWind.SetAir(air); err != nil {
		return err
	}
	if s.Hair != nil {
		return s.Hair.SetWind(air)
	}
	return nil
}

// Air is the showcase's gusting wind of mean speed v m/s, from the left
// and a little from behind the flags.
func Air(v float32) verlet3d.Wind {
	return verlet3d.Wind{
		Steady:          mgl32.Vec3{1, 0, 0.35}.Normalize().Mul(v),
		Gust:            0.6,
		GustPeriod:      3,
		Turbulence:      0.25 * v,
		TurbulenceScale: 0.8,
	}
}

// WindSpeed is the steady wind speed, m/s.
func (s *Scene) WindSpeed() float32 { return s.wind }

// Update advances the walker's animation by dt seconds and steps the
// World through the driver.
func (s *Scene) Update(dt float32) {
	s.Mannequin.Update(dt)
	s.Mannequin.Root.UpdateMatrixWorld()
	s.Driver.Update(dt)
}
