package scene

import (
	"unsafe"

	"github.com/drape3d/drape/hair"
	"github.com/g3n/engine/geometry"
	"github.com/g3n/engine/gls"
	"github.com/g3n/engine/graphic"
	"github.com/g3n/engine/material"
	"github.com/g3n/engine/math32"
	"github.com/g3n/engine/renderer"
	"github.com/go-gl/mathgl/mgl32"
)

// HairShader is the name of the shader program HairMesh draws with. Register
// it once per renderer with AddHairShader before the first render.
const HairShader = "drape_hair"

// AddHairShader registers the hair shaders with r (the application's
// renderer, app.App().Renderer()). Calling it again does no harm.
func AddHairShader(r *renderer.Renderer) {
	r.AddShader(HairShader+"_vertex", hairVertexShader)
	r.AddShader(HairShader+"_fragment", hairFragmentShader)
	r.AddProgram(HairShader, HairShader+"_vertex", HairShader+"_fragment")
	r.AddShader(denseHairShader+"_vertex", denseHairVertexShader)
	r.AddProgram(denseHairShader, denseHairShader+"_vertex", HairShader+"_fragment")
}

// HairMesh draws a hair.Hair (or the render strands of a hair.Dense) as
// camera-facing ribbons: every strand segment
// is a quad whose two edges the vertex shader spreads across the view, so
// strands have a width in meters at any zoom (core-profile GL draws lines
// one pixel wide). The fragment shader lights them as hair: Kajiya-Kay
// diffuse and two shifted specular highlights along the strand tangent (a
// white primary one and a hair-colored secondary one), a cylindrical
// normal across the ribbon, and darker roots for the self-shadowed inside
// of the hair volume.
//
// Its vertices are in the World's frame (verlet3d.World.Origin) and Sync
// places its node there: add it to the scene root or to a node without a
// transform. Call Sync every frame after the World steps
// (Driver.AfterStep(m.Sync)).
type HairMesh struct {
	*graphic.Mesh
	// Material holds the look; see HairMaterial.
	Material *HairMaterial

	h      *hair.Hair
	dense  *hair.Dense      // render strands, for NewDenseHairMesh and NewDenseHairMeshCPU
	gpu    *denseGPU        // NewDenseHairMesh's textures, nil for the others
	copyFn func(lo, hi int) // copyDense, bound once
	geom   *geometry.Geometry
	dyn    *gls.VBO // per ribbon vertex: position, tangent (rewritten by Sync)
	stat   *gls.VBO // per ribbon vertex: color, (side, t) (written once)
	tan    []mgl32.Vec3
}

// HairMaterial is a standard material drawn with the hair shader. Its
// diffuse color tints the strands' vertex colors (white by default) and
// its specular color is the primary highlight's.
type HairMaterial struct {
	material.Standard
	// RootWidth and TipWidth are the ribbon widths in meters. Defaults
	// 0.006 and 0.002: one simulated strand stands for a wisp.
	RootWidth, TipWidth float32
	// Shift moves the primary and secondary highlights toward the root
	// and the tip (the tilt of hair scales), as a fraction of the normal
	// added to the tangent. Defaults 0.08 and -0.12.
	Shift1, Shift2 float32
	// Exponent1 and Exponent2 are the highlights' sharpness. Defaults 90
	// and 22.
	Exponent1, Exponent2 float32
	// Strength1 and Strength2 scale the highlights. Defaults 0.45 and
	// 0.55.
	Strength1, Strength2 float32

	uni   gls.Uniform
	dense *denseGPU // the guide textures of a NewDenseHairMesh
}

// NewHairMaterial returns the default hair look.
func NewHairMaterial() *HairMaterial {
	m := &HairMaterial{
		RootWidth: 0.006, TipWidth: 0.002,
		Shift1: 0.08, Shift2: -0.12,
		Exponent1: 90, Exponent2: 22,
		Strength1: 0.45, Strength2: 0.55,
	}
	m.Standard.Init(HairShader, &math32.Color{R: 1, G: 1, B: 1})
	m.SetSpecularColor(&math32.Color{R: 1, G: 0.95, B: 0.88})
	m.SetSide(material.SideDouble)
	m.uni.Init("HairParams")
	return m
}

// RenderSetup implements material.IMaterial: the standard uniforms and the
// hair parameters.
func (m *HairMaterial) RenderSetup(gs *gls.GLS) {
	m.Standard.RenderSetup(gs)
	p := [8]float32{m.RootWidth, m.TipWidth, m.Shift1, m.Shift2, m.Exponent1, m.Exponent2, m.Strength1, m.Strength2}
	gs.Uniform4fv(m.uni.Location(gs), 2, &p[0])
	if m.dense != nil {
		m.dense.renderSetup(gs)
	}
}

// Floats per ribbon vertex in the dynamic and the static buffer.
const (
	hairDynStride  = 6 // position, tangent
	hairStatStride = 5 // color, side, t
)

// NewHairMesh makes ribbons for h colored by palette p. Register the
// shader with AddHairShader before rendering it.
func NewHairMesh(h *hair.Hair, p hair.Palette) *HairMesh {
	m := &HairMesh{h: h}
	per := h.NumSegments() + 1
	m.build(h.NumStrands(), per, h.Colors(nil, p), h.StrandParam)
	m.tan = make([]mgl32.Vec3, h.NumVertices())
	m.Sync()
	return m
}

// build makes the buffers of strands ribbons of per vertices each with
// vertex colors cols.
func (m *HairMesh) build(strands, per int, cols []mgl32.Vec3, param func(j int) float32) {
	m.geom, m.Material = geometry.NewGeometry(), NewHairMaterial()
	n := strands * per
	dyn := math32.NewArrayF32(2*n*hairDynStride, 2*n*hairDynStride)
	m.dyn = gls.NewVBO(dyn).
		AddAttribOffset(gls.VertexPosition, 0).
		AddAttribOffset(gls.VertexTangent, 12)
	m.dyn.SetUsage(gls.DYNAMIC_DRAW)

	stat := math32.NewArrayF32(2*n*hairStatStride, 2*n*hairStatStride)
	for i, c := range cols {
		t := param(i % per)
		for k, side := range [2]float32{-1, 1} {
			o := (2*i + k) * hairStatStride
			copy(stat[o:], []float32{c[0], c[1], c[2], side, t})
		}
	}
	m.stat = gls.NewVBO(stat).
		AddAttribOffset(gls.VertexColor, 0).
		AddAttribOffset(gls.VertexTexcoord, 12)

	m.geom.SetIndices(ribbonIndices(strands, per))
	m.geom.AddVBO(m.dyn)
	m.geom.AddVBO(m.stat)
	m.Mesh = graphic.NewMesh(m.geom, m.Material)
	// The ribbons move every frame and their buffer is written directly,
	// so the geometry's cached bounds would be stale: skip culling. Hair
	// sits on a head the camera looks at anyway.
	m.SetCullable(false)
}

// Hair returns the hair the mesh shows (the guides, for a dense mesh).
func (m *HairMesh) Hair() *hair.Hair { return m.h }

// Dense returns the render strands a NewDenseHairMesh shows, or nil.
func (m *HairMesh) Dense() *hair.Dense { return m.dense }

// ribbons views the dynamic buffer as one (position, tangent, position,
// tangent) group per strand vertex.
func (m *HairMesh) ribbons(n int) [][4]mgl32.Vec3 {
	buf := *m.dyn.Buffer()
	return unsafe.Slice((*[4]mgl32.Vec3)(unsafe.Pointer(&buf[0])), n)
}

// Sync copies the strands' positions and tangents into the ribbon buffer
// (for NewDenseHairMeshCPU, after updating the render strands, both on the
// World's workers; for NewDenseHairMesh, only the guides' segments and the
// head's pose). It does not allocate.
func (m *HairMesh) Sync() {
	placeAtOrigin(&m.Node, m.h.World())
	if m.gpu != nil {
		m.gpu.sync()
		return
	}
	if m.dense != nil {
		m.dense.Update()
		m.h.World().Parallel(m.dense.NumStrands(), m.copyFn)
		m.dyn.Update()
		return
	}
	h := m.h
	first, n := h.Particles()
	pos := h.World().Positions()[first : int(first)+n]
	m.tan = h.Tangents(m.tan)
	out := m.ribbons(n)
	tan := m.tan[:len(pos)]
	for i := range pos {
		setRibbon(&out[i], &pos[i], &tan[i])
	}
	m.dyn.Update()
}

// copyDense copies render strands [lo, hi) into the ribbon buffer.
func (m *HairMesh) copyDense(lo, hi int) {
	d := m.dense
	per := d.NumSegments() + 1
	pos, tan := d.Positions(), d.Tangents()
	out := m.ribbons(d.NumVertices())
	for i := lo * per; i < hi*per; i++ {
		setRibbon(&out[i], &pos[i], &tan[i])
	}
}

// setRibbon sets the ribbon vertex pair o of the strand vertex at p with
// tangent t one Vec3 at a time rather than as a [4]mgl32.Vec3 literal,
// which would be built on the stack and copied (see package vecmath).
func setRibbon(o *[4]mgl32.Vec3, p, t *mgl32.Vec3) {
	o[0] = *p
	o[1] = *t
	o[2] = *p
	o[3] = *t
}

// hairRibbon is the part of the hair vertex shaders that spreads a strand
// vertex across the view: each strand vertex comes twice (side -1 and +1),
// and the pair is set perpendicular to the strand and to the camera ray.
const hairRibbon = `
in vec3 VertexColor;
in vec2 VertexTexcoord; // x: side (-1, 1), y: 0 at the root, 1 at the tip

uniform mat4 ModelViewMatrix;
uniform mat4 MVP;
uniform vec4 HairParams[2]; // widths, shifts; exponents, strengths

out vec3 Position; // camera space
out vec3 Tangent;  // camera space
out vec3 Color;
out vec2 Along;

void ribbon(vec3 P, vec3 Tin) {
    vec3 T = normalize(Tin);
    // The camera in model space (the model-view matrix is rigid).
    mat3 R = mat3(ModelViewMatrix);
    vec3 cam = -(transpose(R) * ModelViewMatrix[3].xyz);
    vec3 side = cross(T, cam - P);
    float l = length(side);
    side = l > 1e-9 ? side / l : vec3(1.0, 0.0, 0.0);
    float width = mix(HairParams[0].x, HairParams[0].y, VertexTexcoord.y);
    vec3 p = P + side * (0.5 * width * VertexTexcoord.x);
    Position = (ModelViewMatrix * vec4(p, 1.0)).xyz;
    Tangent = R * T;
    Color = VertexColor;
    Along = VertexTexcoord;
    gl_Position = MVP * vec4(p, 1.0);
}
`

// hairVertexShader draws strand vertices from the ribbon buffer.
const hairVertexShader = `
layout(location = 0) in vec3 VertexPosition;
in vec3 VertexTangent;
` + hairRibbon + `
void main() {
    ribbon(VertexPosition, VertexTangent);
}
`

const hairFragmentShader = `
precision highp float;
in vec3 Position;
in vec3 Tangent;
in vec3 Color;
in vec2 Along;

#include <lights>
#include <material>
uniform vec4 HairParams[2];

out vec4 FragColor;

// Kajiya-Kay specular: strongest where the half vector is perpendicular to
// the strand.
float strandSpec(vec3 T, vec3 H, float e) {
    float th = dot(T, H);
    return pow(sqrt(max(0.0, 1.0 - th * th)), e);
}

void main() {
    vec3 T = normalize(Tangent);
    vec3 V = normalize(-Position);
    // Treat the ribbon as a thin cylinder: its normal turns from facing the
    // camera at the middle to sideways at the edges.
    vec3 Nf = V - T * dot(T, V);
    Nf = length(Nf) > 1e-6 ? normalize(Nf) : V;
    vec3 S = cross(T, Nf);
    float u = clamp(Along.x, -1.0, 1.0);
    vec3 N = normalize(Nf * sqrt(1.0 - 0.75 * u * u) + S * u * 0.5);
    vec3 base = Color * MatDiffuseColor;
    // The inside of the hair volume, near the roots, gets less light.
    float ao = mix(0.45, 1.0, smoothstep(0.0, 0.6, Along.y));

    vec3 col = MatEmissiveColor;
#if AMB_LIGHTS>0
    for (int i = 0; i < AMB_LIGHTS; ++i) {
        col += AmbientLightColor[i] * base * ao;
    }
#endif
#if DIR_LIGHTS>0
    for (int i = 0; i < DIR_LIGHTS; ++i) {
        vec3 L = normalize(DirLightPosition(i));
        float tl = dot(T, L);
        float kk = sqrt(max(0.0, 1.0 - tl * tl));        // Kajiya-Kay diffuse
        float wrap = clamp((dot(N, L) + 0.5) / 1.5, 0.0, 1.0); // soft cylinder
        float diff = kk * mix(0.35, 1.0, wrap);
        vec3 H = normalize(L + V);
        vec3 T1 = normalize(T + N * HairParams[0].z);
        vec3 T2 = normalize(T + N * HairParams[0].w);
        float s1 = strandSpec(T1, H, HairParams[1].x) * HairParams[1].z;
        float s2 = strandSpec(T2, H, HairParams[1].y) * HairParams[1].w;
        float vis = smoothstep(-0.1, 0.35, dot(N, L)); // no highlight on the far side
        vec3 spec = (MatSpecularColor * s1 + base * 2.0 * s2) * vis * ao;
        col += DirLightColor(i) * (base * diff * ao + spec);
    }
#endif
    FragColor = vec4(min(col, vec3(1.0)), MatOpacity);
}
`
