// Package draped builds the demo's cubes scene without GL: crates on a
// floor, a tablecloth dropped over a pyramid of them and, with
// ParticleEngine crates, their corners held out of the cloth by a
// cloth.SurfaceCollision. The demo (cmd/demo's scene_cubes.go), the tests
// and the benchmarks all build it here, so that the scene they measure is
// the one the demo shows.
package draped

import (
	"github.com/drape3d/drape/internal/vecmath"
	"math"
	"math/rand"

	"github.com/drape3d/drape/bodies"
	"github.com/drape3d/drape/cloth"
	"github.com/drape3d/drape/verlet3d"
	"github.com/go-gl/mathgl/mgl32"
)

// CenterX and CenterZ place the middle of the pyramid's base on the floor,
// m (constants, so that positions computed from them round as the demo's
// literals do).
const CenterX, CenterZ = 0.9, 0.5

// Scene is what Build made.
type Scene struct {
	System  *bodies.System
	Cloth   *cloth.Grid
	Surface *cloth.SurfaceCollision // nil without
	Corners []verlet3d.Particle     // every crate's corners, crate by crate
}

// Floor returns a System of particle cubes (bodies.ParticleEngine, whose
// corners SurfaceCollision keeps out of the cloth) for w whose crates rest
// on a static box 12 m square, 0.5 m thick, its top at y = 0 (friction
// 0.6).
func Floor(w *verlet3d.World) (*bodies.System, error) {
	set := bodies.DefaultSettings()
	set.Engine = bodies.ParticleEngine
	return FloorWith(w, set)
}

// FloorWith is Floor with the System's settings set.
func FloorWith(w *verlet3d.World, set bodies.Settings) (*bodies.System, error) {
	sys, err := bodies.NewSystem(w, set)
	if err != nil {
		return nil, err
	}
	floor, err := verlet3d.NewBox(mgl32.Vec3{0, -0.25, 0}, mgl32.Vec3{6, 0.25, 6}, mgl32.QuatIdent())
	if err != nil {
		return nil, err
	}
	return sys, sys.AddCollider(floor, verlet3d.ContactSettings{Friction: 0.6})
}

// Crates adds the demo's crates: a stack of five 40 cm crates off to the
// side (their particles first, as in the demo), a 3 x 3 + 2 x 2 + 1 pyramid
// of 36 cm ones around CenterX, CenterZ, and rain smaller ones (18 to 32 cm,
// placed by seed) falling onto it from 3 m up, 35 cm apart in height.
func Crates(sys *bodies.System, rain int, seed int64) error {
	return CratesSized(sys, 0.4, rain, seed)
}

// CratesSized is Crates with the stack's crates size m on an edge (the
// pyramid's 0.9 times that), as the demo's -cubes-size sets it.
func CratesSized(sys *bodies.System, size float32, rain int, seed int64) error {
	var err error
	add := func(s bodies.CubeSettings) {
		if err == nil {
			_, err = sys.AddCube(s)
		}
	}
	for i := 0; i < 5; i++ {
		add(bodies.CubeSettings{Size: size, Mass: 2, Position: mgl32.Vec3{-1.3, float32(size/2) + float32(float32(i)*size), -0.4},
			Rotation: vecmath.QuatAxisAngle(float32(0.08*float32(i)), mgl32.Vec3{0, 1, 0})})
	}
	ps := float32(size * 0.9) // as the demo derives it from its -cubes-size
	for level := 0; level < 3; level++ {
		n := 3 - level
		for i := 0; i < n; i++ {
			for j := 0; j < n; j++ {
				off := float32((float32(n) - 1) / 2)
				add(bodies.CubeSettings{Size: ps, Mass: 1.5, Position: mgl32.Vec3{
					CenterX + float32((float32(i)-off)*ps*1.02), float32(ps/2) + float32(float32(level)*ps), CenterZ + float32((float32(j)-off)*ps*1.02)}})
			}
		}
	}
	r := rand.New(rand.NewSource(seed))
	for i := 0; i < rain; i++ {
		s := 0.18 + float32(0.14*r.Float32())
		p := mgl32.Vec3{CenterX + float32(2*r.Float32()) - 1, 3 + float32(0.35*float32(i)), CenterZ + float32(2*r.Float32()) - 1}
		q := vecmath.QuatAxisAngle(float32(r.Float32()*math.Pi), vecmath.Normalize(mgl32.Vec3{r.Float32() - 0.5, r.Float32() - 0.5, r.Float32() - 0.5}))
		add(bodies.CubeSettings{Size: s, Mass: 0.5 + float32(s*3), Position: p, Rotation: q,
			AngularVelocity: vecmath.Scale(mgl32.Vec3{r.Float32() - 0.5, r.Float32() - 0.5, r.Float32() - 0.5}, 4)})
	}
	return err
}

// Tablecloth drops the demo's tablecloth (2.2 m square, 36 x 36 particles
// of 1.5 cm radius, 0.6 kg, lying flat 1.9 m up over the pyramid) into sys's
// World, with, if surface, a SurfaceCollision keeping every crate's corners
// out of it. It returns the cloth, the collision (nil without) and the
// corners.
func Tablecloth(sys *bodies.System, surface bool) (*cloth.Grid, *cloth.SurfaceCollision, []verlet3d.Particle, error) {
	const n, side = 36, 2.2
	cs := cloth.DefaultSettings()
	cs.Cols, cs.Rows = n, n
	cs.Spacing = side / (n - 1)
	cs.Mass = 0.6
	cs.Origin = mgl32.Vec3{CenterX - side/2, 1.9, CenterZ - side/2}
	cs.Down = mgl32.Vec3{0, 0, 1} // lying flat, front side up
	cs.Radius = 0.015
	g, err := cloth.New(sys.World(), cs)
	if err != nil {
		return nil, nil, nil, err
	}
	var corners []verlet3d.Particle
	for c := 0; c < sys.NumCubes() && sys.Settings().Engine == bodies.ParticleEngine; c++ {
		cc := sys.Corners(bodies.Cube(c))
		corners = append(corners, cc[:]...)
	}
	var sc *cloth.SurfaceCollision
	if surface {
		if sc, err = cloth.NewSurfaceCollision(g, corners, cs.Radius); err != nil {
			return nil, nil, nil, err
		}
	}
	return g, sc, corners, nil
}

// Build makes the whole scene in w with particle cubes: Floor, Crates and
// Tablecloth.
func Build(w *verlet3d.World, rain int, seed int64, surface bool) (Scene, error) {
	sys, err := Floor(w)
	if err == nil {
		err = Crates(sys, rain, seed)
	}
	if err != nil {
		return Scene{}, err
	}
	g, sc, corners, err := Tablecloth(sys, surface)
	return Scene{System: sys, Cloth: g, Surface: sc, Corners: corners}, err
}

// Config returns the scene's World settings, the demo's: DefaultConfig
// with SettleDamping 3. Nothing else takes the tablecloth's energy (it has
// no air), so without that brake the edges hanging off the pyramid still
// swing by 1-2 cm at 30 s and the World stays awake; with it the scene
// is asleep about 14 s after it starts.
func Config() verlet3d.Config {
	cfg := verlet3d.DefaultConfig()
	cfg.SettleDamping = 3
	return cfg
}

// BuildPose makes the scene with the crates as PoseEngine cubes (the
// default engine, as the demo has it): the cloth meets them through the
// System's particle contacts, with no SurfaceCollision and no corner
// particles.
func BuildPose(w *verlet3d.World, rain int, seed int64) (Scene, error) {
	sys, err := FloorWith(w, bodies.DefaultSettings())
	if err == nil {
		err = Crates(sys, rain, seed)
	}
	if err != nil {
		return Scene{}, err
	}
	g, _, _, err := Tablecloth(sys, false)
	return Scene{System: sys, Cloth: g}, err
}
