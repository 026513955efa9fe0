package checks

import (
	"math"

	"github.com/drape3d/drape/verlet3d"
	"github.com/go-gl/mathgl/mgl32"
)

// NaiveCloth is the plain textbook cloth loop of
// ../shared/reference/go-naive, the baseline benchmarks report against
// (array of structs with float32 fields, one Verlet pass, then Jakobsen
// passes over every link in creation order). It must be as fast as that
// reference loop on the same machine, or every ratio flatters.
type NaiveCloth struct {
	p []naiveParticle
	c []naiveLink
}

type naiveParticle struct {
	x, y, z    float32
	px, py, pz float32
	invMass    float32
}

type naiveLink struct {
	a, b int32
	rest float32
}

// NewNaiveGrid builds an n x n sheet 4 m wide, top row pinned, with
// structural, shear and distance-2 bend links, in the reference's order.
func NewNaiveGrid(n int) *NaiveCloth {
	sp := float32(4.0 / float64(n-1))
	c := &NaiveCloth{p: make([]naiveParticle, n*n)}
	for z := 0; z < n; z++ {
		for x := 0; x < n; x++ {
			px, pz := -2+float32(float32(x)*sp), -2+float32(float32(z)*sp)
			w := float32(1)
			if z == 0 {
				w = 0
			}
			c.p[x+z*n] = naiveParticle{px, 4.5, pz, px, 4.5, pz, w}
		}
	}
	link := func(a, b int) {
		pa, pb := c.p[a], c.p[b]
		dx, dy, dz := pb.x-pa.x, pb.y-pa.y, pb.z-pa.z
		c.c = append(c.c, naiveLink{int32(a), int32(b), float32(math.Sqrt(float64(float32(dx*dx) + float32(dy*dy) + float32(dz*dz))))})
	}
	for z := 0; z < n; z++ {
		for x := 0; x+1 < n; x++ {
			link(x+z*n, x+1+z*n)
		}
	}
	for z := 0; z+1 < n; z++ {
		for x := 0; x < n; x++ {
			link(x+z*n, x+(z+1)*n)
		}
	}
	for z := 0; z+1 < n; z++ {
		for x := 0; x+1 < n; x++ {
			link(x+z*n, x+1+(z+1)*n)
			link(x+1+z*n, x+(z+1)*n)
		}
	}
	for z := 0; z < n; z++ {
		for x := 0; x+2 < n; x++ {
			link(x+z*n, x+2+z*n)
		}
	}
	for z := 0; z+2 < n; z++ {
		for x := 0; x < n; x++ {
			link(x+z*n, x+(z+2)*n)
		}
	}
	return c
}

// Frame is one frame of h seconds: one Verlet pass, then passes over the
// links.
func (c *NaiveCloth) Frame(h float32, passes int) {
	g := float32(float32(-9.81) * h * h)
	for i := range c.p {
		p := &c.p[i]
		if p.invMass == 0 {
			continue
		}
		x, y, z := p.x, p.y, p.z
		p.x += float32((x - p.px) * 0.99)
		p.y += float32((y-p.py)*0.99) + g
		p.z += float32((z - p.pz) * 0.99)
		p.px, p.py, p.pz = x, y, z
	}
	for it := 0; it < passes; it++ {
		ps := c.p
		for _, k := range c.c {
			a, b := &ps[k.a], &ps[k.b]
			dx, dy, dz := b.x-a.x, b.y-a.y, b.z-a.z
			l := float32(math.Sqrt(float64(float32(dx*dx) + float32(dy*dy) + float32(dz*dz))))
			wsum := a.invMass + b.invMass
			if l < 1e-12 || wsum == 0 {
				continue
			}
			s := (l - k.rest) / (l * wsum)
			wa, wb := float32(a.invMass*s), float32(b.invMass*s)
			a.x += float32(dx * wa)
			a.y += float32(dy * wa)
			a.z += float32(dz * wa)
			b.x -= float32(dx * wb)
			b.y -= float32(dy * wb)
			b.z -= float32(dz * wb)
		}
	}
}

// Build adds the cloth's particles (mass 1, or 0 where pinned) and links
// (with settings s) to w, in the same order, so a World solves the same
// cloth.
func (c *NaiveCloth) Build(w *verlet3d.World, s verlet3d.LinkSettings) error {
	ps := make([]verlet3d.Particle, len(c.p))
	for i, p := range c.p {
		m := float32(1)
		if p.invMass == 0 {
			m = 0
		}
		var err error
		if ps[i], err = w.AddParticle(mgl32.Vec3{p.x, p.y, p.z}, m); err != nil {
			return err
		}
	}
	for _, l := range c.c {
		if _, err := w.AddLink(ps[l.a], ps[l.b], s); err != nil {
			return err
		}
	}
	return nil
}
