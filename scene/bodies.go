package scene

import (
	"github.com/drape3d/drape/bodies"
	"github.com/drape3d/drape/verlet3d"
	"github.com/g3n/engine/core"
	"github.com/g3n/engine/geometry"
	"github.com/g3n/engine/graphic"
	"github.com/g3n/engine/material"
	"github.com/g3n/engine/math32"
	"github.com/g3n/engine/texture"
	"github.com/go-gl/mathgl/mgl32"
)

// CubesView draws the cubes of a bodies.System as lit, textured boxes whose
// position and rotation follow the bodies. Call Sync every frame after the
// World advanced (a Driver AfterStep hook): it places each box at the
// transform recovered from the particles interpolated at World.Alpha, so
// the boxes move smoothly when the frame rate and the step rate differ.
type CubesView struct {
	*core.Node
	sys    *bodies.System
	mat    *material.Standard
	geoms  map[float32]*geometry.Geometry
	meshes []*graphic.Mesh
	drawn  []material.IMaterial // the material each mesh has now
	// Interpolate places the boxes between the last two steps at
	// World.Alpha. Default true; false shows the last step as is.
	Interpolate bool
	// DrawScale is the drawn size over the physical size. Default 1. Cloth
	// keeps its particles outside a cube, but its triangles span the gaps
	// between particles and can cut a sharp edge; drawing the cubes 2-3%
	// smaller hides that, at the price of hairline gaps in stacks.
	DrawScale float32
	// SleepMaterial, when not nil, draws the cubes that are asleep
	// (bodies.System.Sleeping), as physics samples gray their sleeping
	// bodies; nil, the default, draws every cube with Material. Sync
	// changes a box's material when its cube falls asleep or wakes (a
	// small allocation in g3n each time).
	SleepMaterial *material.Standard
}

// NewCubesView makes a view of every cube sys has now; AddCube adds cubes
// made later. tex (may be nil) is drawn on every face; a material color of
// white shows it unchanged.
func NewCubesView(sys *bodies.System, tex *texture.Texture2D) *CubesView {
	v := &CubesView{
		Node:        core.NewNode(),
		sys:         sys,
		mat:         material.NewStandard(&math32.Color{R: 1, G: 1, B: 1}),
		geoms:       map[float32]*geometry.Geometry{},
		Interpolate: true,
		DrawScale:   1,
	}
	v.mat.SetShininess(12)
	if tex != nil {
		v.mat.AddTexture(tex)
	}
	for c := 0; c < sys.NumCubes(); c++ {
		v.AddCube(bodies.Cube(c))
	}
	return v
}

// Material returns the material shared by the boxes, to tint them
// (SetColor) or change their shininess.
func (v *CubesView) Material() *material.Standard { return v.mat }

// AddCube adds a box for cube c, made after the view. Adding a cube twice
// does nothing.
func (v *CubesView) AddCube(c bodies.Cube) {
	for int(c) >= len(v.meshes) {
		v.meshes = append(v.meshes, nil)
	}
	if v.meshes[c] != nil {
		return
	}
	size := v.sys.Size(c)
	g, ok := v.geoms[size]
	if !ok {
		g = geometry.NewCube(size)
		v.geoms[size] = g
	}
	m := graphic.NewMesh(g, v.mat)
	v.meshes[c] = m
	for int(c) >= len(v.drawn) {
		v.drawn = append(v.drawn, nil)
	}
	v.drawn[c] = v.mat
	v.Add(m)
	p, q := v.sys.Transform(c)
	v.place(m, p, q)
}

// Mesh returns the box drawn for c (nil if the view has none).
func (v *CubesView) Mesh(c bodies.Cube) *graphic.Mesh {
	if c < 0 || int(c) >= len(v.meshes) {
		return nil
	}
	return v.meshes[c]
}

// Sync moves every box to its cube's current transform, and gives it
// SleepMaterial or Material as its cube sleeps or not.
func (v *CubesView) Sync() {
	for c, m := range v.meshes {
		if m == nil {
			continue
		}
		var want material.IMaterial = v.mat
		if v.SleepMaterial != nil && v.sys.Sleeping(bodies.Cube(c)) {
			want = v.SleepMaterial
		}
		if v.drawn[c] != want {
			m.SetMaterial(want)
			v.drawn[c] = want
		}
	}
	w := v.sys.World()
	if v.Interpolate && w.Alpha() > 0 {
		for c, m := range v.meshes {
			if m != nil {
				p, q := v.sys.Interpolated(bodies.Cube(c))
				v.place(m, p, q)
			}
		}
		return
	}
	for c, m := range v.meshes {
		if m != nil {
			p, q := v.sys.Transform(bodies.Cube(c))
			v.place(m, p, q)
		}
	}
}

func (v *CubesView) place(m *graphic.Mesh, p mgl32.Vec3, q mgl32.Quat) {
	if k := v.DrawScale; k > 0 && k != m.Scale().X {
		m.SetScale(k, k, k)
	}
	m.SetPosition(p[0], p[1], p[2])
	m.SetQuaternion(q.V[0], q.V[1], q.V[2], q.W)
}

// World returns the World whose cubes the view draws.
func (v *CubesView) World() *verlet3d.World { return v.sys.World() }
