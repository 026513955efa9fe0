package scene

import (
	"github.com/drape3d/drape/hair"
	"github.com/drape3d/drape/internal/vecmath"
	"github.com/g3n/engine/geometry"
	"github.com/g3n/engine/gls"
	"github.com/g3n/engine/graphic"
	"github.com/g3n/engine/math32"
	"github.com/go-gl/mathgl/mgl32"
)

// Dense hair on the GPU.
//
// A hair.Dense's render strands are many (20,000 of 17 vertices is 340,000
// vertices, 680,000 ribbon vertices): computing them on the CPU every frame
// and sending them to the GPU costs more than simulating their guides. The
// mesh of NewDenseHairMesh sends only the guides instead, as one float
// texture of their segment vectors (2,000 x 17 texels, 400 KB a frame),
// and its vertex shader builds every render vertex from them exactly as
// hair.Dense.Update does on the CPU: from the strand's root on the head,
// segment by segment, the weighted blend of its guides' segments plus its
// volume offset, scaled to the segment length and kept out of the head
// sphere; the tangent from the neighboring vertices. The per-strand data
// (guides, weights, root, offset, segment length) sit in a second texture
// written once. Vertex j of a strand sums j segments, about 8 texel reads
// per segment on average: trivial for a GPU, noticeable for a software
// renderer (Mesa's llvmpipe under Xvfb), where NewDenseHairMeshCPU may draw
// faster.

// denseHairShader is the program of NewDenseHairMesh (registered by
// AddHairShader with the hair shaders).
const denseHairShader = "drape_hair_dense"

// Texture widths in texels: a multiple of 4 for the strand texture, so a
// strand's four texels share a row.
const (
	guideTexWidth  = 1024
	strandTexWidth = 1024
)

// denseGPU is the GPU state of a NewDenseHairMesh.
type denseGPU struct {
	h   *hair.Hair
	per int

	guides        []float32 // RGB32F: guide g's segment j (particle j - particle j-1) at texel g·per+j; j = 0 is zero
	guideH        int       // rows
	strands       []float32 // RGBA32F: 4 texels per render strand (written once)
	strandH       int
	gtex, stex    uint32 // GL texture names, 0 until the first render
	guidesFresh   bool   // guides changed since the last upload
	headRot       mgl32.Mat3
	headC         mgl32.Vec3
	minR          float32
	uGuide, uStr  gls.Uniform
	uRot, uCenter gls.Uniform
	uParams       gls.Uniform
}

// NewDenseHairMesh makes ribbons for the render strands of d (many strands
// following the simulated guides of d.Hair()) colored by palette p, drawn
// as NewHairMesh draws guides. The render strands are computed in the
// vertex shader from the guides (exactly as hair.Dense.Update builds them
// on the CPU: each render strand from its root, blending its guides'
// segments, kept to the segment length and out of the head), so Sync
// only copies the guides' segments, and d.Update is not needed for drawing
// (call it only where the game wants the render strands on the CPU).
// Register the shaders with AddHairShader before rendering it.
func NewDenseHairMesh(d *hair.Dense, p hair.Palette) *HairMesh {
	h := d.Hair()
	m := &HairMesh{h: h, dense: d}
	per := d.NumSegments() + 1
	g := &denseGPU{h: h, per: per}
	m.gpu = g

	// Static ribbon vertices: color, (side, t), (render strand, vertex).
	const stride = 7
	n := d.NumVertices()
	cols := d.Colors(nil, p)
	stat := math32.NewArrayF32(2*n*stride, 2*n*stride)
	for i, c := range cols {
		s, j := i/per, i%per
		t := h.StrandParam(j)
		for k, side := range [2]float32{-1, 1} {
			o := (2*i + k) * stride
			copy(stat[o:], []float32{c[0], c[1], c[2], side, t, float32(s), float32(j)})
		}
	}
	m.geom, m.Material = geometry.NewGeometry(), NewHairMaterial()
	m.Material.Standard.Init(denseHairShader, &math32.Color{R: 1, G: 1, B: 1})
	m.Material.dense = g
	m.stat = gls.NewVBO(stat).
		AddAttribOffset(gls.VertexColor, 0).
		AddAttribOffset(gls.VertexTexcoord, 12).
		AddCustomAttribOffset("DenseIndex", 2, 20)
	m.geom.SetIndices(ribbonIndices(d.NumStrands(), per))
	m.geom.AddVBO(m.stat)
	m.Mesh = graphic.NewMesh(m.geom, m.Material)
	m.SetCullable(false) // no positions on the CPU: no bounds to cull by

	// The strand texture: (g0, g1, g2, w0), (w1, w2, segment, exact),
	// (root, 0), (offset per segment, 0), in the head's frame.
	ns := d.NumStrands()
	g.strandH = (4*ns + strandTexWidth - 1) / strandTexWidth
	g.strands = make([]float32, 4*strandTexWidth*g.strandH)
	segs := float32(d.NumSegments())
	for s := 0; s < ns; s++ {
		gs, ws := d.Guides(s)
		root, off, seg := d.Layout(s)
		exact := float32(0)
		if ws[0] == 1 {
			exact = 1
		}
		o := 16 * s
		copy(g.strands[o:], []float32{
			float32(gs[0]), float32(gs[1]), float32(gs[2]), ws[0],
			ws[1], ws[2], seg, exact,
			root[0], root[1], root[2], 0,
			off[0] / segs, off[1] / segs, off[2] / segs, 0,
		})
	}
	g.guideH = (h.NumStrands()*per + guideTexWidth - 1) / guideTexWidth
	g.guides = make([]float32, 3*guideTexWidth*g.guideH)
	g.uGuide.Init("GuideTex")
	g.uStr.Init("StrandTex")
	g.uRot.Init("HeadRot")
	g.uCenter.Init("HeadCenter")
	g.uParams.Init("DenseParams")
	m.Sync()
	return m
}

// NewDenseHairMeshCPU is NewDenseHairMesh with the render strands computed
// on the CPU: its Sync calls d.Update and copies every render vertex into
// the ribbon buffer, as NewHairMesh does for guides. It is the reference
// the GPU path is tested against, and a way to draw dense hair where a
// vertex shader cannot read float textures.
func NewDenseHairMeshCPU(d *hair.Dense, p hair.Palette) *HairMesh {
	m := &HairMesh{h: d.Hair(), dense: d}
	m.build(d.NumStrands(), d.NumSegments()+1, d.Colors(nil, p), d.Hair().StrandParam)
	m.copyFn = m.copyDense
	m.Sync()
	return m
}

// ribbonIndices returns two triangles per segment of every strand of per
// vertices, over two ribbon vertices per strand vertex.
func ribbonIndices(strands, per int) math32.ArrayU32 {
	idx := math32.NewArrayU32(0, strands*(per-1)*6)
	for s := 0; s < strands; s++ {
		for j := 0; j+1 < per; j++ {
			v := uint32(2 * (s*per + j))
			idx.Append(v, v+1, v+2, v+1, v+3, v+2)
		}
	}
	return idx
}

// sync copies the guides' segments and the head's pose for the next render.
func (g *denseGPU) sync() {
	h, per := g.h, g.per
	first, n := h.Particles()
	pos := h.World().Positions()[first : int(first)+n]
	out := g.guides[:3*n]
	for o := 0; o < n; o += per {
		st := pos[o : o+per]
		e := out[3*o : 3*(o+per)]
		e[0], e[1], e[2] = 0, 0, 0
		for j := 1; j < len(st); j++ {
			a, b := &st[j-1], &st[j]
			k := 3 * j
			e[k], e[k+1], e[k+2] = b[0]-a[0], b[1]-a[1], b[2]-a[2]
		}
	}
	head := h.Head()
	head.Center = h.World().ToLocal(head.Center) // the mesh's node is at the World's frame
	q := head.Rotation
	if q == (mgl32.Quat{}) {
		q = mgl32.QuatIdent()
	}
	g.headRot = vecmath.QuatMat4(vecmath.QuatNormalize(q)).Mat3()
	g.headC = head.Center
	g.minR = head.Radius + h.Settings().Radius
	g.guidesFresh = true
}

// renderSetup binds the two textures (uploading what changed) and sets the
// head's pose and the layout constants.
func (g *denseGPU) renderSetup(gs *gls.GLS) {
	first := g.gtex == 0
	if first {
		g.gtex, g.stex = gs.GenTexture(), gs.GenTexture()
	}
	bind := func(unit int, tex uint32, u *gls.Uniform) {
		gs.ActiveTexture(uint32(gls.TEXTURE0 + unit))
		gs.BindTexture(gls.TEXTURE_2D, tex)
		gs.Uniform1i(u.Location(gs), int32(unit))
	}
	bind(0, g.gtex, &g.uGuide)
	if first || g.guidesFresh {
		gs.TexImage2D(gls.TEXTURE_2D, 0, gls.RGB32F, guideTexWidth, int32(g.guideH), gls.RGB, gls.FLOAT, g.guides)
		g.guidesFresh = false
	}
	if first {
		nearest(gs)
	}
	bind(1, g.stex, &g.uStr)
	if first {
		gs.TexImage2D(gls.TEXTURE_2D, 0, gls.RGBA32F, strandTexWidth, int32(g.strandH), gls.RGBA, gls.FLOAT, g.strands)
		nearest(gs)
	}
	gs.UniformMatrix3fv(g.uRot.Location(gs), 1, false, &g.headRot[0])
	gs.Uniform3f(g.uCenter.Location(gs), g.headC[0], g.headC[1], g.headC[2])
	gs.Uniform4f(g.uParams.Location(gs), float32(g.per), g.minR, guideTexWidth, strandTexWidth)
}

// nearest sets the bound texture to be read texel by texel, without
// mipmaps.
func nearest(gs *gls.GLS) {
	gs.TexParameteri(gls.TEXTURE_2D, gls.TEXTURE_MIN_FILTER, gls.NEAREST)
	gs.TexParameteri(gls.TEXTURE_2D, gls.TEXTURE_MAG_FILTER, gls.NEAREST)
	gs.TexParameteri(gls.TEXTURE_2D, gls.TEXTURE_WRAP_S, gls.CLAMP_TO_EDGE)
	gs.TexParameteri(gls.TEXTURE_2D, gls.TEXTURE_WRAP_T, gls.CLAMP_TO_EDGE)
}

// denseHairVertexShader builds render vertex j of render strand s from the
// guide texture as hair.Dense.Update does, then spreads it into a ribbon.
const denseHairVertexShader = `
in vec2 DenseIndex; // render strand, vertex
` + hairRibbon + `
uniform sampler2D GuideTex;  // guide segments, RGB32F
uniform sampler2D StrandTex; // 4 texels per render strand, RGBA32F
uniform mat3 HeadRot;
uniform vec3 HeadCenter;
uniform vec4 DenseParams; // vertices per strand, head radius + strand radius, texture widths

int per;
float minR;
vec3 gd;    // guides
vec3 gw;    // weights
vec3 off;   // offset per segment, world
vec3 rootL; // root, head frame
float seg;
bool exact;

vec3 guideSeg(float g, int k) {
    int i = int(g) * per + k;
    int w = int(DenseParams.z);
    return texelFetch(GuideTex, ivec2(i % w, i / w), 0).xyz;
}

vec4 strandTexel(int s, int k) {
    int i = s * 4 + k;
    int w = int(DenseParams.w);
    return texelFetch(StrandTex, ivec2(i % w, i / w), 0);
}

// pushOut moves q, the end of a segment from p, out of the head: onto its
// surface, back to the segment's length along it, twice, then out.
vec3 pushOut(vec3 p, vec3 q) {
    for (int it = 0; it < 3; it++) {
        vec3 x = q - HeadCenter;
        float l2 = dot(x, x);
        if (l2 >= minR * minR) {
            break;
        }
        q = l2 > 1e-20 ? HeadCenter + x * (minR / sqrt(l2)) : HeadCenter + HeadRot * normalize(rootL) * minR;
        if (it == 2) {
            break;
        }
        vec3 u = q - p;
        if (dot(u, u) > 1e-20) {
            q = p + u * (seg / length(u));
        }
    }
    return q;
}

// next returns the vertex after p: segment k of the blend.
vec3 next(vec3 p, int k) {
    vec3 a = guideSeg(gd.x, k);
    if (exact) {
        return p + a;
    }
    vec3 v = off + gw.x * a + gw.y * guideSeg(gd.y, k) + gw.z * guideSeg(gd.z, k);
    float l2 = dot(v, v);
    if (!(l2 > 1e-20)) { // guides folded against each other
        v = a;
        l2 = dot(v, v);
        if (!(l2 > 1e-20)) {
            v = vec3(0.0, -1.0, 0.0);
            l2 = 1.0;
        }
    }
    vec3 q = p + v * (seg / sqrt(l2));
    vec3 x = q - HeadCenter;
    if (dot(x, x) < minR * minR) {
        q = pushOut(p, q);
    }
    return q;
}

void main() {
    per = int(DenseParams.x);
    minR = DenseParams.y;
    int s = int(DenseIndex.x);
    int j = int(DenseIndex.y);
    vec4 t0 = strandTexel(s, 0);
    vec4 t1 = strandTexel(s, 1);
    gd = t0.xyz;
    gw = vec3(t0.w, t1.x, t1.y);
    seg = t1.z;
    exact = t1.w > 0.5;
    rootL = strandTexel(s, 2).xyz;
    off = HeadRot * strandTexel(s, 3).xyz;
    vec3 p = HeadRot * rootL + HeadCenter;
    vec3 pm = p;
    for (int k = 1; k <= j; k++) {
        pm = p;
        p = next(p, k);
    }
    vec3 T;
    if (j + 1 < per) {
        vec3 pn = next(p, j + 1);
        T = j == 0 ? pn - p : pn - pm;
    } else {
        T = p - pm;
    }
    ribbon(p, T);
}
`
