package scene

import (
	"github.com/drape3d/drape/verlet3d"
	"github.com/g3n/engine/core"
	"github.com/g3n/engine/geometry"
	"github.com/g3n/engine/gls"
	"github.com/g3n/engine/graphic"
	"github.com/g3n/engine/material"
	"github.com/g3n/engine/math32"
)

// NetView draws chosen particles of a World as points and the links between
// them as lines: a debug view, and the look of the demo's net scene. Core
// profile GL draws lines one pixel wide; use the cloth and hair meshes for
// anything meant to look like fabric.
type NetView struct {
	*core.Node
	world  *verlet3d.World
	ps     []verlet3d.Particle
	links  []verlet3d.Link
	points *graphic.Points
	lines  *graphic.Lines
	pbuf   *gls.VBO
	lbuf   *gls.VBO
	lidx   math32.ArrayU32
}

// NewNetView makes a view of the particles ps and the links between them.
// pointColor and lineColor pick the colors; pointSize is in pixels.
func NewNetView(w *verlet3d.World, ps []verlet3d.Particle, links []verlet3d.Link, pointColor, lineColor math32.Color, pointSize float32) *NetView {
	v := &NetView{Node: core.NewNode(), world: w, ps: ps, links: links}
	index := make(map[verlet3d.Particle]uint32, len(ps))
	for i, p := range ps {
		index[p] = uint32(i)
	}
	pos := math32.NewArrayF32(3*len(ps), 3*len(ps))
	// Points.
	pg := geometry.NewGeometry()
	v.pbuf = gls.NewVBO(pos).AddAttrib(gls.VertexPosition)
	v.pbuf.SetUsage(gls.DYNAMIC_DRAW)
	pg.AddVBO(v.pbuf)
	pm := material.NewPoint(&pointColor)
	pm.SetSize(pointSize)
	v.points = graphic.NewPoints(pg, pm)
	v.points.SetCullable(false)
	v.Add(v.points)
	// Lines share the positions through an index buffer.
	lg := geometry.NewGeometry()
	// Basic material takes its color from the vertices: interleave them.
	lpos := math32.NewArrayF32(6*len(ps), 6*len(ps))
	for i := range ps {
		lpos[6*i+3], lpos[6*i+4], lpos[6*i+5] = lineColor.R, lineColor.G, lineColor.B
	}
	v.lbuf = gls.NewVBO(lpos).AddAttrib(gls.VertexPosition).AddAttrib(gls.VertexColor)
	v.lbuf.SetUsage(gls.DYNAMIC_DRAW)
	lg.AddVBO(v.lbuf)
	for _, l := range links {
		a, b := w.LinkParticles(l)
		ia, oka := index[a]
		ib, okb := index[b]
		if oka && okb {
			v.lidx = append(v.lidx, ia, ib)
		}
	}
	lg.SetIndices(v.lidx)
	lm := material.NewBasic()
	v.lines = graphic.NewLines(lg, lm)
	v.lines.SetCullable(false)
	v.Add(v.lines)
	v.Sync()
	return v
}

// Sync places the view's node at the World's frame (verlet3d.World.Origin,
// which particle positions are relative to) and copies the particle
// positions into the GPU buffers; call it after every step
// (Driver.AfterStep).
func (v *NetView) Sync() {
	placeAtOrigin(v.Node, v.world)
	pos := v.world.Positions()
	pb := v.pbuf.Buffer()
	lb := v.lbuf.Buffer()
	for i, p := range v.ps {
		x := pos[p]
		(*pb)[3*i], (*pb)[3*i+1], (*pb)[3*i+2] = x[0], x[1], x[2]
		(*lb)[6*i], (*lb)[6*i+1], (*lb)[6*i+2] = x[0], x[1], x[2]
	}
	v.pbuf.Update()
	v.lbuf.Update()
	// Drop broken links from the index buffer.
	changed := false
	for i, l := range v.links {
		if 2*i+1 < len(v.lidx) && v.world.LinkBroken(l) && v.lidx[2*i] != v.lidx[2*i+1] {
			v.lidx[2*i+1] = v.lidx[2*i]
			changed = true
		}
	}
	if changed {
		v.lines.GetGeometry().SetIndices(v.lidx)
	}
}
