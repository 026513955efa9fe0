package main

import (
	"math"

	"github.com/drape3d/drape/verlet3d"
	"github.com/g3n/engine/core"
	"github.com/g3n/engine/geometry"
	"github.com/g3n/engine/gls"
	"github.com/g3n/engine/graphic"
	"github.com/g3n/engine/material"
	"github.com/g3n/engine/math32"
	"github.com/go-gl/mathgl/mgl32"
)

// lineSet is a set of colored line segments rewritten every frame.
type lineSet struct {
	lines *graphic.Lines
	vbo   *gls.VBO
	buf   math32.ArrayF32 // x y z r g b per vertex, two vertices a segment
}

func newLineSet(root *core.Node, onTop bool) *lineSet {
	s := &lineSet{}
	geom := geometry.NewGeometry()
	s.vbo = gls.NewVBO(math32.NewArrayF32(0, 0)).AddAttrib(gls.VertexPosition).AddAttrib(gls.VertexColor)
	s.vbo.SetUsage(gls.DYNAMIC_DRAW)
	geom.AddVBO(s.vbo)
	mat := material.NewBasic()
	s.lines = graphic.NewLines(geom, mat)
	if onTop {
		drawOnTop(&s.lines.Graphic, mat.GetMaterial())
	}
	s.lines.SetCullable(false)
	s.lines.SetVisible(false)
	root.Add(s.lines)
	return s
}

func (s *lineSet) begin() { s.buf = s.buf[:0] }

func (s *lineSet) seg(a, b mgl32.Vec3, c math32.Color) {
	s.buf = append(s.buf, a[0], a[1], a[2], c.R, c.G, c.B, b[0], b[1], b[2], c.R, c.G, c.B)
}

func (s *lineSet) end() {
	s.vbo.SetBuffer(s.buf)
	s.lines.SetVisible(len(s.buf) > 0)
}

func (s *lineSet) hide() { s.lines.SetVisible(false) }

// surfaceSet is a cloth surface painted with per-vertex colors, unlit,
// drawn just in front of the lit cloth (polygon offset), rewritten every
// frame.
type surfaceSet struct {
	mesh *graphic.Mesh
	geom *geometry.Geometry
	vbo  *gls.VBO
	buf  math32.ArrayF32 // x y z r g b per vertex
	idx  math32.ArrayU32
}

func newSurfaceSet(root *core.Node) *surfaceSet {
	s := &surfaceSet{geom: geometry.NewGeometry()}
	s.vbo = gls.NewVBO(math32.NewArrayF32(0, 0)).AddAttrib(gls.VertexPosition).AddAttrib(gls.VertexColor)
	s.vbo.SetUsage(gls.DYNAMIC_DRAW)
	s.geom.AddVBO(s.vbo)
	mat := material.NewBasic()
	mat.SetSide(material.SideDouble)
	mat.SetPolygonOffset(-1, -1)
	s.mesh = graphic.NewMesh(s.geom, mat)
	s.mesh.SetCullable(false) // its bounds change every frame
	s.mesh.SetVisible(false)
	root.Add(s.mesh)
	return s
}

func (s *surfaceSet) end() {
	s.vbo.SetBuffer(s.buf)
	s.geom.SetIndices(s.idx)
	s.mesh.SetVisible(len(s.idx) > 0)
}

func (s *surfaceSet) hide() { s.mesh.SetVisible(false) }

// overlayOrder is the render order of the views drawn over everything:
// after every other graphic of the scene, before the HUD.
const overlayOrder = 1000

// drawOnTop makes g drawn over the scene: without depth test, in g3n's
// second (transparent) pass, which comes after every opaque graphic, and
// late in it. Its colors stay opaque.
func drawOnTop(g *graphic.Graphic, mat *material.Material) {
	mat.SetDepthTest(false)
	mat.SetTransparent(true)
	g.SetRenderOrder(overlayOrder)
}

// dotSet is a set of square dots of one color, drawn over everything,
// rewritten every frame.
type dotSet struct {
	points *graphic.Points
	mat    *material.Point
	vbo    *gls.VBO
	buf    math32.ArrayF32 // x y z per dot
	color  math32.Color    // at full brightness
}

func newDotSet(root *core.Node, c math32.Color) *dotSet {
	s := &dotSet{color: c}
	geom := geometry.NewGeometry()
	s.vbo = gls.NewVBO(math32.NewArrayF32(0, 0)).AddAttrib(gls.VertexPosition)
	s.vbo.SetUsage(gls.DYNAMIC_DRAW)
	geom.AddVBO(s.vbo)
	s.mat = material.NewPoint(&c)
	s.points = graphic.NewPoints(geom, s.mat)
	drawOnTop(&s.points.Graphic, s.mat.GetMaterial())
	s.points.SetCullable(false) // its bounds change every frame
	s.points.SetVisible(false)
	root.Add(s.points)
	return s
}

func (s *dotSet) begin() { s.buf = s.buf[:0] }

func (s *dotSet) dot(p mgl32.Vec3) { s.buf = append(s.buf, p[0], p[1], p[2]) }

// end shows the dots. size is g3n's point size: the dot's side in pixels
// at 1 m from the camera (it shrinks with distance); brightness scales
// the color.
func (s *dotSet) end(size, brightness float32) {
	c := s.color
	c.MultiplyScalar(brightness)
	s.mat.SetEmissiveColor(&c)
	s.mat.SetSize(size)
	s.vbo.SetBuffer(s.buf)
	s.points.SetVisible(len(s.buf) > 0)
}

func (s *dotSet) hide() { s.points.SetVisible(false) }

// shown is how many dots are on screen: 0 when hidden.
func (s *dotSet) shown() int {
	if !s.points.Visible() {
		return 0
	}
	return len(s.buf) / 3
}

// shown is how many segments are on screen: 0 when hidden.
func (s *lineSet) shown() int {
	if !s.lines.Visible() {
		return 0
	}
	return len(s.buf) / 12
}

// The particle and contact views' sizes. A dot is dotPixels wide at the
// distance the camera orbits at, larger nearer, smaller farther.
const (
	dotPixels     = 3
	contactLength = 0.05 // m, a contact's line along its normal
	sleepDim      = 0.5  // brightness of the particle dots while the World sleeps
	// contactDotScale is a contact dot's size over a particle dot's: a
	// contact under a particle shows beside its dot.
	contactDotScale = 0.6
	// defaultOrbitDist is the distance dots are sized for without an
	// orbit (tests), m.
	defaultOrbitDist = 5
)

// overlays are the debug views: cloth painted by strain (green at rest,
// yellow at 5%, red from 10%: each vertex shows the largest strain of its
// edges, and the edges are drawn in their own color), the World's
// colliders as wireframes, its particles as dots (free ones white, pinned
// and kinematic ones orange, both dimmer while the World sleeps), its
// unbroken links as lines colored by strain, and the last substep's
// contacts as short lines along their normals from dots on the collider.
type overlays struct {
	strainOn, collidersOn          bool
	dotsOn, linksOn, contactsOn    bool
	strain, colliders              *lineSet
	links, contacts                *lineSet
	surface                        *surfaceSet
	freeDots, pinnedDots, contDots *dotSet
	vertexStrain                   []float32 // scratch: largest edge strain per vertex
	maxStrain                      float32   // the largest edge strain drawn last frame
	linkList                       []verlet3d.Link
	contactList                    []verlet3d.Contact
}

func newOverlays(root *core.Node) *overlays {
	return &overlays{
		strain: newLineSet(root, false), colliders: newLineSet(root, true), surface: newSurfaceSet(root),
		links: newLineSet(root, true), contacts: newLineSet(root, true),
		freeDots:   newDotSet(root, math32.Color{R: 1, G: 1, B: 1}),
		pinnedDots: newDotSet(root, math32.Color{R: 1, G: 0.45, B: 0}),
		contDots:   newDotSet(root, math32.Color{R: 0.1, G: 0.25, B: 1}),
	}
}

func (o *overlays) toggleStrain()    { o.strainOn = !o.strainOn }
func (o *overlays) toggleColliders() { o.collidersOn = !o.collidersOn }
func (o *overlays) toggleDots()      { o.dotsOn = !o.dotsOn }
func (o *overlays) toggleLinks()     { o.linksOn = !o.linksOn }
func (o *overlays) toggleContacts()  { o.contactsOn = !o.contactsOn }

func (o *overlays) reset(*Demo) { o.hide() }

// hide hides every view (each shows again at its next sync if it is on).
func (o *overlays) hide() {
	o.strain.hide()
	o.surface.hide()
	o.colliders.hide()
	o.links.hide()
	o.contacts.hide()
	o.freeDots.hide()
	o.pinnedDots.hide()
	o.contDots.hide()
}

// strainColor maps a strain to green (0), yellow (5%) and red (10% or more).
func strainColor(s float32) math32.Color {
	t := min(max(float32(math.Abs(float64(s)))/0.1, 0), 1)
	if t < 0.5 {
		return math32.Color{R: 2 * t, G: 0.9, B: 0.1}
	}
	return math32.Color{R: 1, G: 0.9 * (2 - 2*t), B: 0.1}
}

func (o *overlays) sync(d *Demo) {
	if d.driver == nil {
		o.hide()
		return
	}
	w := d.driver.World
	o.syncDots(d, w)
	o.syncLinks(w)
	o.syncContacts(d, w)
	if o.strainOn {
		o.strain.begin()
		o.surface.buf, o.surface.idx = o.surface.buf[:0], o.surface.idx[:0]
		pos := w.Positions()
		o.maxStrain = 0
		for _, g := range d.grids {
			vs := g.Vertices()
			idx := g.Indices()
			if cap(o.vertexStrain) < len(vs) {
				o.vertexStrain = make([]float32, len(vs))
			}
			vstrain := o.vertexStrain[:len(vs)]
			clear(vstrain)
			rest := func(v uint32) mgl32.Vec3 { return g.Rest(g.Origin(int(v))) }
			for t := 0; t+2 < len(idx); t += 3 {
				for e := 0; e < 3; e++ {
					a, b := idx[t+e], idx[t+(e+1)%3]
					r := rest(a).Sub(rest(b)).Len()
					if r == 0 {
						continue
					}
					pa, pb := pos[vs[a]], pos[vs[b]]
					s := (pa.Sub(pb).Len() - r) / r
					o.maxStrain = max(o.maxStrain, s)
					o.strain.seg(pa, pb, strainColor(s))
					as := float32(math.Abs(float64(s)))
					vstrain[a], vstrain[b] = max(vstrain[a], as), max(vstrain[b], as)
				}
			}
			base := uint32(len(o.surface.buf) / 6)
			for v, p := range vs {
				c := strainColor(vstrain[v])
				x := pos[p]
				o.surface.buf = append(o.surface.buf, x[0], x[1], x[2], c.R, c.G, c.B)
			}
			for _, i := range idx {
				o.surface.idx = append(o.surface.idx, base+i)
			}
		}
		o.strain.end()
		o.surface.end()
	} else {
		o.strain.hide()
		o.surface.hide()
	}
	if o.collidersOn {
		o.colliders.begin()
		c := math32.Color{R: 1, G: 0.3, B: 0.9}
		for _, col := range w.Colliders() {
			switch v := col.(type) {
			case *verlet3d.Sphere:
				o.circles(v.Center, v.Radius, c)
			case *verlet3d.Capsule:
				o.circles(v.A, v.Radius, c)
				o.circles(v.B, v.Radius, c)
				axis := v.B.Sub(v.A)
				side := axis.Cross(mgl32.Vec3{0, 1, 0})
				if side.Len() < 1e-6 {
					side = axis.Cross(mgl32.Vec3{1, 0, 0})
				}
				side = side.Normalize().Mul(v.Radius)
				up := axis.Cross(side).Normalize().Mul(v.Radius)
				for _, off := range []mgl32.Vec3{side, side.Mul(-1), up, up.Mul(-1)} {
					o.colliders.seg(v.A.Add(off), v.B.Add(off), c)
				}
			case *verlet3d.Box:
				var corner [8]mgl32.Vec3
				for i := range corner {
					l := mgl32.Vec3{v.HalfExtents[0], v.HalfExtents[1], v.HalfExtents[2]}
					for k := 0; k < 3; k++ {
						if i&(1<<k) != 0 {
							l[k] = -l[k]
						}
					}
					corner[i] = v.Center.Add(v.Rotation.Rotate(l))
				}
				for i := range corner {
					for k := 0; k < 3; k++ {
						if j := i | 1<<k; j != i {
							o.colliders.seg(corner[i], corner[j], c)
						}
					}
				}
			}
		}
		o.colliders.end()
	} else {
		o.colliders.hide()
	}
}

// circles draws three great circles of a sphere.
func (o *overlays) circles(c mgl32.Vec3, r float32, col math32.Color) {
	const n = 24
	for axis := 0; axis < 3; axis++ {
		pt := func(i int) mgl32.Vec3 {
			a := 2 * math.Pi * float64(i) / n
			s, co := float32(math.Sin(a))*r, float32(math.Cos(a))*r
			switch axis {
			case 0:
				return c.Add(mgl32.Vec3{0, s, co})
			case 1:
				return c.Add(mgl32.Vec3{s, 0, co})
			}
			return c.Add(mgl32.Vec3{s, co, 0})
		}
		for i := 0; i < n; i++ {
			o.colliders.seg(pt(i), pt(i+1), col)
		}
	}
}

// dotSize is the g3n point size that makes a dot dotPixels wide at the
// distance the camera orbits at.
func dotSize(d *Demo) float32 {
	dist := float32(defaultOrbitDist)
	if d.Orbit != nil {
		dist = d.Orbit.dist
	}
	return dotPixels * dist
}

// syncDots draws every particle: free ones in one color, pinned and
// kinematic ones in another, both dimmer while the World sleeps.
func (o *overlays) syncDots(d *Demo, w *verlet3d.World) {
	if !o.dotsOn {
		o.freeDots.hide()
		o.pinnedDots.hide()
		return
	}
	o.freeDots.begin()
	o.pinnedDots.begin()
	for i, p := range w.Positions() {
		if w.Pinned(verlet3d.Particle(i)) {
			o.pinnedDots.dot(p)
		} else {
			o.freeDots.dot(p)
		}
	}
	brightness := float32(1)
	if w.Sleeping() {
		brightness = sleepDim
	}
	size := dotSize(d)
	o.freeDots.end(size, brightness)
	o.pinnedDots.end(size, brightness)
}

// syncLinks draws every unbroken link of the World colored by its strain.
func (o *overlays) syncLinks(w *verlet3d.World) {
	if !o.linksOn {
		o.links.hide()
		return
	}
	o.linkList = w.UnbrokenLinks(o.linkList[:0])
	pos := w.Positions()
	o.links.begin()
	for _, l := range o.linkList {
		a, b := w.LinkParticles(l)
		o.links.seg(pos[a], pos[b], strainColor(w.LinkStrain(l)))
	}
	o.links.end()
}

// syncContacts draws the last substep's contacts: a dot where each
// touches its collider and a line contactLength along the normal.
func (o *overlays) syncContacts(d *Demo, w *verlet3d.World) {
	if !o.contactsOn {
		o.contacts.hide()
		o.contDots.hide()
		return
	}
	o.contactList = w.Contacts(o.contactList[:0])
	o.contacts.begin()
	o.contDots.begin()
	for _, c := range o.contactList {
		o.contacts.seg(c.Point, c.Point.Add(c.Normal.Mul(contactLength)), o.contDots.color)
		o.contDots.dot(c.Point)
	}
	o.contacts.end()
	o.contDots.end(contactDotScale*dotSize(d), 1)
}
