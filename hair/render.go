package hair

import (
	"github.com/drape3d/drape/internal/vecmath"
	"github.com/go-gl/mathgl/mgl32"
)

// Palette colors hair for rendering, in linear RGB with components in
// [0, 1].
type Palette struct {
	// Root is the color at the root, Tip at the tip; vertices in
	// between blend linearly. Tips are usually lighter.
	Root, Tip mgl32.Vec3
	// Variation in [0, 1] scales each strand's brightness by a random
	// factor in [1-Variation, 1+Variation/2], so strands read separately.
	Variation float32
}

// DefaultPalette returns a warm brown.
func DefaultPalette() Palette {
	return Palette{
		Root:      mgl32.Vec3{0.20, 0.11, 0.05},
		Tip:       mgl32.Vec3{0.50, 0.32, 0.16},
		Variation: 0.35,
	}
}

// NumVertices returns the number of render vertices (particles) of the
// hair: NumStrands·(NumSegments+1).
func (h *Hair) NumVertices() int { return h.set.Strands * h.per }

// Tangents writes into dst (grown as needed) the unit tangent at every
// strand vertex, in the order of Particles, and returns it. Inner vertices
// use the direction from their previous to their next neighbor, the ends
// their one segment. It does not allocate when dst is large enough.
func (h *Hair) Tangents(dst []mgl32.Vec3) []mgl32.Vec3 {
	n := h.NumVertices()
	if cap(dst) < n {
		dst = make([]mgl32.Vec3, n)
	}
	dst = dst[:n]
	pos := h.w.Positions()[h.base : int(h.base)+n]
	per := h.per
	for o := 0; o < n; o += per {
		tangents(pos[o:o+per], dst[o:o+per])
	}
	return dst
}

// Colors writes into dst (grown as needed) the color of every strand
// vertex under palette p, in the order of Particles, and returns it. Hair
// colors do not change while it moves: compute them once.
func (h *Hair) Colors(dst []mgl32.Vec3, p Palette) []mgl32.Vec3 {
	n := h.NumVertices()
	if cap(dst) < n {
		dst = make([]mgl32.Vec3, n)
	}
	dst = dst[:n]
	v := vecmath.Clamp01(p.Variation)
	for i := 0; i < h.set.Strands; i++ {
		// Darker strands are more common than lighter ones.
		u := h.shade[i]
		k := 1 - v + float32(1.5*v*u)
		for j := 0; j < h.per; j++ {
			t := float32(j) / float32(h.set.Segments)
			c := vecmath.Scale(p.Root.Add(vecmath.Scale(p.Tip.Sub(p.Root), t)), k)
			for a := range c {
				c[a] = vecmath.Clamp01(c[a])
			}
			dst[i*h.per+j] = c
		}
	}
	return dst
}

// StrandParam returns how far particle j is along its strand, 0 at the
// root and 1 at the tip.
func (h *Hair) StrandParam(j int) float32 { return float32(j) / float32(h.set.Segments) }

func invSqrt(x float32) float32 {
	return 1 / sqrt32(x)
}
