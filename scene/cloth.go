package scene

import (
	"unsafe"

	"github.com/drape3d/drape/cloth"
	"github.com/drape3d/drape/verlet3d"
	"github.com/g3n/engine/core"
	"github.com/g3n/engine/geometry"
	"github.com/g3n/engine/gls"
	"github.com/g3n/engine/graphic"
	"github.com/g3n/engine/material"
	"github.com/g3n/engine/math32"
	"github.com/g3n/engine/texture"
	"github.com/go-gl/mathgl/mgl32"
)

// ClothMesh shows a cloth.Grid as a g3n mesh: lit on both sides, textured
// with the grid's UVs, its positions and normals rewritten every Sync.
// Its vertices are in world space: add it to the scene root or to a node
// without a transform.
type ClothMesh struct {
	*graphic.Mesh
	// Material is the double-sided standard material; change its color,
	// shininess or textures freely.
	Material *material.Standard

	grid    *cloth.Grid
	geom    *geometry.Geometry
	pos     *gls.VBO
	nrm     *gls.VBO
	uv      *gls.VBO
	version uint64
	// The position buffer ends with two vertices no triangle uses, at the
	// corners of a box a margin larger than the cloth: g3n computes the
	// cached bounds that culling and picking use from every vertex, so the
	// cached box stays right while the cloth moves inside the padding.
	padMin, padMax mgl32.Vec3
}

// NewClothMesh makes a mesh for g with tex on both sides (nil for a plain
// white cloth; set Material's color to tint it). Call Sync every frame
// after the World steps; Driver.AfterStep(m.Sync) does that.
func NewClothMesh(g *cloth.Grid, tex *texture.Texture2D) *ClothMesh {
	m := &ClothMesh{grid: g, geom: geometry.NewGeometry()}
	m.pos = gls.NewVBO(nil).AddAttrib(gls.VertexPosition)
	m.nrm = gls.NewVBO(nil).AddAttrib(gls.VertexNormal)
	m.uv = gls.NewVBO(nil).AddAttrib(gls.VertexTexcoord)
	for _, v := range []*gls.VBO{m.pos, m.nrm, m.uv} {
		v.SetUsage(gls.DYNAMIC_DRAW)
		m.geom.AddVBO(v)
	}
	m.Material = material.NewStandard(&math32.Color{R: 1, G: 1, B: 1})
	m.Material.SetSide(material.SideDouble)
	m.Material.SetShininess(8)
	m.Material.SetSpecularColor(&math32.Color{R: 0.08, G: 0.08, B: 0.08})
	if tex != nil {
		m.Material.AddTexture(tex)
	}
	m.Mesh = graphic.NewMesh(m.geom, m.Material)
	m.Sync()
	return m
}

// Grid returns the cloth the mesh shows.
func (m *ClothMesh) Grid() *cloth.Grid { return m.grid }

// Sync places the mesh's node at the World's frame (verlet3d.World.Origin,
// which the vertices are relative to: add the mesh to the scene root or
// to a node without a transform), copies the grid's particle positions
// into the vertex buffer,
// recomputes area-weighted normals (zeroed first), marks the cached bounds
// stale so frustum culling and picking follow the cloth, and after a tear
// re-uploads UVs and indices. It allocates only when a tear added vertices
// beyond the buffers' capacity.
func (m *ClothMesh) Sync() {
	g := m.grid
	n := len(g.Vertices())
	if g.Version() != m.version || m.pos.Buffer().Size() != 3*(n+2) {
		m.resize(n)
		m.version = g.Version()
	}
	placeAtOrigin(&m.Node, g.World())
	pos := vec3s(*m.pos.Buffer())
	g.Positions(pos[:n])
	g.Normals(vec3s(*m.nrm.Buffer())[:n])
	m.pos.Update()
	m.nrm.Update()
	// Writes through the buffer do not reach the geometry's cached bounding
	// box and sphere. When the cloth leaves the padded box, move the padding
	// and mark the cache stale: SetIndices is the one way to do that without
	// allocating (OperateOnVertices allocates); it also re-uploads the
	// indices, which is rare.
	lo, hi := g.LocalBounds()
	if !inside(lo, hi, m.padMin, m.padMax) {
		size := hi.Sub(lo)
		margin := float32(0.25*max(size[0], size[1], size[2])) + 0.05
		pad := mgl32.Vec3{margin, margin, margin}
		m.padMin, m.padMax = lo.Sub(pad), hi.Add(pad)
		m.geom.SetIndices(math32.ArrayU32(g.Indices()))
	}
	pos[n], pos[n+1] = m.padMin, m.padMax
}

// BoundsPadding returns the box, in meters in the World's frame (as the
// vertices), that the mesh's cached bounds are computed from: the cloth
// plus a margin.
func (m *ClothMesh) BoundsPadding() (min, max mgl32.Vec3) { return m.padMin, m.padMax }

func inside(lo, hi, boxMin, boxMax mgl32.Vec3) bool {
	for k := 0; k < 3; k++ {
		if lo[k] < boxMin[k] || hi[k] > boxMax[k] {
			return false
		}
	}
	return true
}

// resize reallocates the buffers for n vertices (plus the two padding
// vertices) when needed and uploads UVs and indices.
func (m *ClothMesh) resize(n int) {
	g := m.grid
	n += 2
	for _, v := range []*gls.VBO{m.pos, m.nrm} {
		buf := *v.Buffer()
		if cap(buf) < 3*n {
			// Room for tears to add vertices without reallocating each time.
			buf = make(math32.ArrayF32, 3*n, 3*n+3*n/4)
		}
		v.SetBuffer(buf[:3*n])
	}
	uv := *m.uv.Buffer()
	if cap(uv) < 2*n {
		uv = make(math32.ArrayF32, 2*n, 2*n+2*n/4)
	}
	uv = uv[:2*n]
	for i, t := range g.UVs() {
		uv[2*i], uv[2*i+1] = t[0], t[1]
	}
	clear(uv[2*(n-2):])
	m.uv.SetBuffer(uv)
	// The grid replaces its index slice on every change and never writes
	// an old one, so the geometry can keep it.
	m.geom.SetIndices(math32.ArrayU32(g.Indices()))
	m.padMin, m.padMax = mgl32.Vec3{1, 1, 1}, mgl32.Vec3{} // empty: recompute
}

// vec3s views a float buffer as vectors: mgl32.Vec3 is three float32s,
// the layout of a VertexPosition or VertexNormal buffer.
func vec3s(f math32.ArrayF32) []mgl32.Vec3 {
	if len(f) == 0 {
		return nil
	}
	return unsafe.Slice((*mgl32.Vec3)(unsafe.Pointer(&f[0])), len(f)/3)
}

// placeAtOrigin puts node n at the origin of w's frame
// (verlet3d.World.Origin): a mesh whose vertices are the World's positions
// renders where the particles are, however far from the world's origin.
func placeAtOrigin(n *core.Node, w *verlet3d.World) {
	o := w.Origin()
	p := math32.Vector3{X: float32(o[0]), Y: float32(o[1]), Z: float32(o[2])}
	if n.Position() != p {
		n.SetPositionVec(&p)
	}
}
