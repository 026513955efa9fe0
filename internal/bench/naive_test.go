package bench_test

import "math"

// naiveCloth is the plain textbook loop the table compares against.
type naiveCloth struct {
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

// newNaiveCloth builds an n x n sheet 4 m wide, top row pinned, with
// structural, shear and distance-2 bend links, in the reference's order.
func newNaiveCloth(n int) *naiveCloth {
	sp := float32(4.0 / float64(n-1))
	c := &naiveCloth{p: make([]naiveParticle, n*n)}
	for z := 0; z < n; z++ {
		for x := 0; x < n; x++ {
			px, pz := -2+float32(x)*sp, -2+float32(z)*sp
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
		c.c = append(c.c, naiveLink{int32(a), int32(b), float32(math.Sqrt(float64(dx*dx + dy*dy + dz*dz)))})
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

// frame is one 1/60 s frame: one Verlet pass, then passes over the links.
func (c *naiveCloth) frame(passes int) {
	const h = float32(1.0 / 60)
	g := float32(-9.81) * h * h
	for i := range c.p {
		p := &c.p[i]
		if p.invMass == 0 {
			continue
		}
		x, y, z := p.x, p.y, p.z
		p.x += (x - p.px) * 0.99
		p.y += (y-p.py)*0.99 + g
		p.z += (z - p.pz) * 0.99
		p.px, p.py, p.pz = x, y, z
	}
	for it := 0; it < passes; it++ {
		ps := c.p
		for _, k := range c.c {
			a, b := &ps[k.a], &ps[k.b]
			dx, dy, dz := b.x-a.x, b.y-a.y, b.z-a.z
			l := float32(math.Sqrt(float64(dx*dx + dy*dy + dz*dz)))
			wsum := a.invMass + b.invMass
			if l < 1e-12 || wsum == 0 {
				continue
			}
			s := (l - k.rest) / (l * wsum)
			wa, wb := a.invMass*s, b.invMass*s
			a.x += dx * wa
			a.y += dy * wa
			a.z += dz * wa
			b.x -= dx * wb
			b.y -= dy * wb
			b.z -= dz * wb
		}
	}
}
