package hair

import (
	"fmt"
	"math"
	"sort"

	"github.com/drape3d/drape/internal/vecmath"
	"github.com/go-gl/mathgl/mgl32"
)

// MaxPerGuide is the largest number of render strands per guide NewDense
// accepts.
const MaxPerGuide = 64

// Dense is render-only hair that follows a simulated Hair: every simulated
// strand is a guide, and each guide stands for PerGuide render strands.
// Render strand k of guide g (index g·PerGuide+k) is the guide itself for
// k = 0; the others are rooted on the scalp at a random point near the
// guide's root and follow up to three nearby guides: vertex j of a render
// strand is its own root plus the weighted blend of those guides' vertex j
// displacements from their roots, plus a small fixed offset in the head's
// frame that grows toward the tip for volume. Because the blend is of
// displacements taken relative to each guide's root, it is the same in the
// head's frame as in world space, so a turning head carries the render
// strands exactly as it carries the guides; curls are not shrunk toward a
// mean position. Render vertices that would end inside the head sphere are
// pushed out to its radius plus Settings.Radius.
//
// scene.NewDenseHairMesh draws render strands without Update: its vertex
// shader builds them from the guides the same way (see Layout), so a game
// that only draws them never calls Update.
//
// Weights and roots are fixed when the Dense is made: it follows the hair's
// rest shape of that moment (make a new one after Hair.Drape). Update runs
// on the World's workers and does not allocate. A Dense is not safe for
// concurrent use, and it must not be updated while the World steps.
type Dense struct {
	h        *Hair
	perGuide int
	per      int // vertices per strand, Segments+1
	n        int // render strands

	// Per render strand: the guides it follows (guide[0] is its own) and
	// their weights, summing to 1, its root and tip offset in the head's
	// frame.
	guide  [][3]int32
	weight [][3]float32
	root   []mgl32.Vec3
	offset []mgl32.Vec3
	shade  []float32
	// restLen is each render strand's length in the rest pose.
	restLen []float32
	// seg is each render strand's segment length.
	seg []float32

	pos, tan []mgl32.Vec3

	// delta holds the guides' segment vectors during Update: index
	// g·(Segments+1)+j is guide g's particle j minus particle j-1.
	delta []mgl32.Vec3

	// Per-Update state shared with the workers.
	gp      []mgl32.Vec3 // the guides' particles
	deltaFn func(lo, hi int)
	k       denseConsts // the kernel's, set once an Update
	f       frame
	minR2   float32
	minR    float32
	updFn   func(lo, hi int)
}

// NewDense makes perGuide render strands for every strand of h (perGuide 1
// shows exactly the guides), with seed choosing the render roots. It
// returns an error naming the field for perGuide outside [1, MaxPerGuide].
// The render strands are placed at once: call Update after each World step.
func NewDense(h *Hair, perGuide int, seed uint64) (*Dense, error) {
	if h == nil {
		panic("hair: NewDense: Hair is nil")
	}
	if perGuide < 1 || perGuide > MaxPerGuide {
		return nil, fmt.Errorf("hair: NewDense: perGuide = %d, want 1..%d", perGuide, MaxPerGuide)
	}
	ng := h.set.Strands
	d := &Dense{h: h, perGuide: perGuide, per: h.per, n: ng * perGuide}
	d.guide = make([][3]int32, d.n)
	d.weight = make([][3]float32, d.n)
	d.root = make([]mgl32.Vec3, d.n)
	d.offset = make([]mgl32.Vec3, d.n)
	d.shade = make([]float32, d.n)
	d.restLen = make([]float32, d.n)
	d.seg = make([]float32, d.n)
	d.pos = make([]mgl32.Vec3, d.n*d.per)
	d.tan = make([]mgl32.Vec3, d.n*d.per)
	d.place(seed)
	d.updFn = d.update
	d.deltaFn = d.deltas
	if perGuide > 1 {
		// A vertex more than it holds: the kernel loads a segment as a
		// row of four floats (dense_kernel.go).
		d.delta = make([]mgl32.Vec3, ng*d.per, ng*d.per+1)
	}
	d.Update()
	return d, nil
}

// place chooses the render roots, their guides, weights and offsets.
func (d *Dense) place(seed uint64) {
	h := d.h
	ng := h.set.Strands
	R := h.end.Radius
	per := h.per
	// Unit root directions and the first-segment direction of each guide,
	// in the head's frame.
	dir := make([]mgl32.Vec3, ng)
	comb := make([]mgl32.Vec3, ng)
	for g := 0; g < ng; g++ {
		dir[g] = vecmath.Normalize(h.rest[g*per])
		tip := h.rest[g*per+per-1].Sub(h.rest[g*per])
		comb[g] = vecmath.Normalize(tip)
	}
	// Mean spacing of guide roots on the unit sphere, for the search grid
	// and the size of a guide's patch.
	area := float64(2 * math.Pi * (1 - math.Cos(float64(h.set.CapAngle))))
	space := float32(math.Sqrt(area / float64(ng)))
	g := newRootGrid(dir, space)
	nn := make([]float32, ng) // distance to the nearest other guide
	var buf []candidate
	for i := range dir {
		buf = g.nearest(dir[i], 1, 0, buf[:0], func(j int) bool { return j != i })
		nn[i] = space
		if len(buf) > 0 {
			nn[i] = sqrt32(buf[0].d2)
		}
	}
	r := rng(seed ^ 0x5deece66d)
	for gi := 0; gi < ng; gi++ {
		for k := 0; k < d.perGuide; k++ {
			s := gi*d.perGuide + k
			d.shade[s] = h.shade[gi]
			if k == 0 {
				d.guide[s] = [3]int32{int32(gi), int32(gi), int32(gi)}
				d.weight[s] = [3]float32{1, 0, 0}
				d.root[s] = h.rest[gi*per]
				continue
			}
			d.shade[s] = vecmath.Clamp01(h.shade[gi] + float32(0.3*(r.float()-0.5)))
			// A random point in the guide's patch: a disc of radius
			// 0.6 of its nearest-neighbor distance, uniform in area.
			n := dir[gi]
			u := vecmath.Cross(n, mgl32.Vec3{0, 0, 1})
			if vecmath.Len(u) < 0.1 {
				u = vecmath.Cross(n, mgl32.Vec3{1, 0, 0})
			}
			u = vecmath.Normalize(u)
			v := vecmath.Cross(n, u)
			rad := float32(0.6 * nn[gi] * sqrt32(r.float()))
			phi := float64(2 * math.Pi * float64(r.float()))
			p := vecmath.Normalize(n.Add(vecmath.Scale(u, float32(rad*float32(math.Cos(phi))))).Add(vecmath.Scale(v, float32(rad*float32(math.Sin(phi))))))
			d.root[s] = vecmath.Scale(p, h.set.scalp(p, R))
			// Its own guide and the two nearest guides combed the same
			// way (not across the parting), inverse-square weighted.
			buf = g.nearest(p, 2, 4, buf[:0], func(j int) bool {
				return j != gi && vecmath.Dot(comb[j], comb[gi]) > 0.5
			})
			gs := [3]int32{int32(gi), int32(gi), int32(gi)}
			ws := [3]float32{1 / (vecmath.LenSqr(p.Sub(n)) + float32(0.05*space*space)), 0, 0}
			for c := 0; c < 2 && c < len(buf); c++ {
				gs[c+1] = int32(buf[c].i)
				ws[c+1] = 1 / (buf[c].d2 + float32(0.05*space*space))
			}
			sum := ws[0] + ws[1] + ws[2]
			for c := range ws {
				ws[c] /= sum
			}
			d.guide[s], d.weight[s] = gs, ws
			// Volume: a fixed offset at the tip, along the scalp, of up to
			// the patch size, and a little outward.
			a := float64(2 * math.Pi * float64(r.float()))
			m := float32(0.5 * nn[gi] * R * r.float())
			d.offset[s] = vecmath.Scale(u, float32(m*float32(math.Cos(a)))).Add(vecmath.Scale(v, float32(m*float32(math.Sin(a))))).
				Add(vecmath.Scale(n, float32(h.set.Volume*0.5*r.float())))
		}
	}
	// Rest lengths: the guides' blended; every segment has the same.
	for s := 0; s < d.n; s++ {
		var l float32
		for c := 0; c < 3; c++ {
			l += float32(d.weight[s][c] * h.restLen[d.guide[s][c]])
		}
		d.restLen[s] = l
		d.seg[s] = l / float32(per-1)
	}
}

// Hair returns the guide hair.
func (d *Dense) Hair() *Hair { return d.h }

// PerGuide returns the number of render strands per guide.
func (d *Dense) PerGuide() int { return d.perGuide }

// NumStrands returns the number of render strands, Hair.NumStrands·PerGuide.
func (d *Dense) NumStrands() int { return d.n }

// NumSegments returns the segments per render strand, as the guides have.
func (d *Dense) NumSegments() int { return d.per - 1 }

// NumVertices returns the number of render vertices,
// NumStrands·(NumSegments+1).
func (d *Dense) NumVertices() int { return d.n * d.per }

// StrandLength returns render strand i's length in the rest pose, m. It
// panics if i is out of range.
func (d *Dense) StrandLength(i int) float32 {
	if i < 0 || i >= d.n {
		panic(fmt.Sprintf("hair: render strand %d out of range [0, %d)", i, d.n))
	}
	return d.restLen[i]
}

// Layout returns what places render strand i besides its guides: its root
// and its volume offset in the head's frame (Head coordinates, before the
// head's rotation and center), and its segment length in meters. Update
// starts the strand at the root and builds segment j from the weighted
// blend of the guides' segments j plus offset/NumSegments (turned with the
// head), scaled to the segment length, pushing vertices out of the head
// sphere; render strand k·PerGuide is its guide exactly. A renderer that
// computes render strands on the GPU (scene.NewDenseHairMesh) reads this
// once. It panics if i is out of range.
func (d *Dense) Layout(i int) (root, offset mgl32.Vec3, segment float32) {
	d.StrandLength(i)
	return d.root[i], d.offset[i], d.seg[i]
}

// Guides returns the guides render strand i follows (the first is the one
// it belongs to, i/PerGuide) and their weights, which sum to 1. It panics
// if i is out of range.
func (d *Dense) Guides(i int) ([3]int, [3]float32) {
	d.StrandLength(i)
	g := d.guide[i]
	return [3]int{int(g[0]), int(g[1]), int(g[2])}, d.weight[i]
}

// Positions returns the render vertices in world space as of the last
// Update, strand after strand, root first: strand i is
// [i·(NumSegments+1), (i+1)·(NumSegments+1)). The slice is the Dense's own
// and is rewritten by Update.
func (d *Dense) Positions() []mgl32.Vec3 { return d.pos }

// Tangents returns the unit tangent at every render vertex, in the order of
// Positions, as of the last Update. The slice is the Dense's own.
func (d *Dense) Tangents() []mgl32.Vec3 { return d.tan }

// Colors writes into dst (grown as needed) the color of every render
// vertex under palette p, in the order of Positions, and returns it, as
// Hair.Colors does for the guides.
func (d *Dense) Colors(dst []mgl32.Vec3, p Palette) []mgl32.Vec3 {
	n := d.NumVertices()
	if cap(dst) < n {
		dst = make([]mgl32.Vec3, n)
	}
	dst = dst[:n]
	v := vecmath.Clamp01(p.Variation)
	seg := float32(d.per - 1)
	for i := 0; i < d.n; i++ {
		k := 1 - v + float32(1.5*v*d.shade[i])
		for j := 0; j < d.per; j++ {
			t := float32(j) / seg
			c := vecmath.Scale(p.Root.Add(vecmath.Scale(p.Tip.Sub(p.Root), t)), k)
			for a := range c {
				c[a] = vecmath.Clamp01(c[a])
			}
			dst[i*d.per+j] = c
		}
	}
	return dst
}

// Update recomputes every render vertex and tangent from the guides'
// current positions and the head pose of the last SetHead (call it after
// the World steps). It runs on the World's workers and does not allocate.
func (d *Dense) Update() {
	h := d.h
	d.f = h.end.frame()
	d.minR = h.end.Radius + h.set.Radius
	d.minR2 = float32(d.minR * d.minR)
	first, n := h.Particles()
	d.gp = h.w.Positions()[first : int(first)+n]
	if d.perGuide > 1 {
		h.w.Parallel(h.set.Strands, d.deltaFn)
	}
	if d.denseKernel() {
		d.setConsts()
	}
	h.w.Parallel(d.n, d.updFn)
	d.gp = nil
}

// deltas fills the segment vectors of guides [lo, hi): every render strand
// blends three guides' segments, so each is computed once, not once per
// render strand that uses it.
func (d *Dense) deltas(lo, hi int) {
	per := d.per
	gp, dl := d.gp, d.delta
	for o := lo * per; o < hi*per; o += per {
		g, e := gp[o:o+per], dl[o:o+per]
		for j := 1; j < len(g); j++ {
			a, b, t := &g[j-1], &g[j], &e[j]
			t[0], t[1], t[2] = b[0]-a[0], b[1]-a[1], b[2]-a[2]
		}
	}
}

// update fills render strands [lo, hi): eight at a time through the
// kernel where there is one (dense_kernel.go), the rest one by one.
func (d *Dense) update(lo, hi int) {
	s := lo
	if d.denseKernel() {
		for ; s+8 <= hi; s += 8 {
			d.kernelRun(s)
		}
	}
	for ; s < hi; s++ {
		d.strand(s)
	}
}

// strand fills render strand s and its tangents.
func (d *Dense) strand(s int) {
	per := d.per
	gp, dl := d.gp, d.delta
	f := &d.f
	c := f.c
	cx, cy, cz, minR2 := c[0], c[1], c[2], d.minR2
	seg := float32(per - 1)
	out := d.pos[s*per : (s+1)*per]
	tan := d.tan[s*per : (s+1)*per]
	gs, ws := d.guide[s], d.weight[s]
	if ws[0] == 1 {
		copy(out, gp[int(gs[0])*per:int(gs[0])*per+per])
		tangents(out, tan)
		return
	}
	g0 := dl[int(gs[0])*per : int(gs[0])*per+per]
	g1 := dl[int(gs[1])*per : int(gs[1])*per+per]
	g2 := dl[int(gs[2])*per : int(gs[2])*per+per]
	w0, w1, w2 := ws[0], ws[1], ws[2]
	// The root on the scalp, and the volume offset as a small turn of
	// every segment, both rotated into world space once.
	root := f.apply(d.root[s])
	off := vecmath.Scale(f.apply(d.offset[s]).Sub(c), 1/seg)
	ox, oy, oz := off[0], off[1], off[2]
	l := d.seg[s]
	px, py, pz := root[0], root[1], root[2]
	// Scalar stores: copying a Vec3 just built stalls (see drag).
	r := &out[0]
	r[0], r[1], r[2] = px, py, pz
	g0, g1, g2 = g0[:per], g1[:per], g2[:per]
	out, tan = out[:per], tan[:per]
	for j := 1; j < per; j++ {
		a, b, e := &g0[j], &g1[j], &g2[j]
		vx := ox + float32(w0*a[0]) + float32(w1*b[0]) + float32(w2*e[0])
		vy := oy + float32(w0*a[1]) + float32(w1*b[1]) + float32(w2*e[1])
		vz := oz + float32(w0*a[2]) + float32(w1*b[2]) + float32(w2*e[2])
		l2 := float32(vx*vx) + float32(vy*vy) + float32(vz*vz)
		if !(l2 > 1e-20) { // guides folded against each other
			vx, vy, vz = a[0], a[1], a[2]
			l2 = float32(vx*vx) + float32(vy*vy) + float32(vz*vz)
			if !(l2 > 1e-20) {
				vx, vy, vz, l2 = 0, -1, 0, 1
			}
		}
		k := float32(l * invSqrt(l2))
		qx, qy, qz := px+float32(vx*k), py+float32(vy*k), pz+float32(vz*k)
		if x, y, z := qx-cx, qy-cy, qz-cz; float32(x*x)+float32(y*y)+float32(z*z) < minR2 {
			q := d.pushOut(s, mgl32.Vec3{px, py, pz}, mgl32.Vec3{qx, qy, qz}, l)
			qx, qy, qz = q[0], q[1], q[2]
		}
		q := &out[j]
		q[0], q[1], q[2] = qx, qy, qz
		px, py, pz = qx, qy, qz
	}
	tangents(out, tan)
}

// pushOut moves q, the end of a segment of length l from p on render strand
// s, out of the head: onto its surface, then back to the segment's length
// along it, twice, then out for good.
func (d *Dense) pushOut(s int, p, q mgl32.Vec3, l float32) mgl32.Vec3 {
	c := d.f.c
	for it := 0; it < 3; it++ {
		x := q.Sub(c)
		l2 := vecmath.LenSqr(x)
		if l2 >= d.minR2 {
			break
		}
		if l2 > 1e-20 {
			q = c.Add(vecmath.Scale(x, d.minR/sqrt32(l2)))
		} else {
			q = d.f.apply(vecmath.Scale(vecmath.Normalize(d.root[s]), d.minR))
		}
		if it == 2 {
			break
		}
		if u := q.Sub(p); vecmath.LenSqr(u) > 1e-20 {
			q = p.Add(vecmath.Scale(u, l/vecmath.Len(u)))
		}
	}
	return q
}

// tangents writes the unit tangent at every vertex of strand st into tan
// (for Hair.Tangents and Dense): central differences inside, the one
// segment at the ends. A vertex whose neighbors coincide (or are not
// finite) takes the tangent before it, the root straight down.
func tangents(st, tan []mgl32.Vec3) {
	n := len(st)
	tan = tan[:n]
	for j := range st {
		a, b := j-1, j+1
		if a < 0 {
			a = 0
		}
		if b >= n {
			b = n - 1
		}
		pa, pb := &st[a], &st[b]
		x, y, z := pb[0]-pa[0], pb[1]-pa[1], pb[2]-pa[2]
		l2 := float32(x*x) + float32(y*y) + float32(z*z)
		if l2 < 1e-24 || l2 != l2 {
			if j > 0 {
				tan[j] = tan[j-1]
			} else {
				tan[j] = mgl32.Vec3{0, -1, 0}
			}
			continue
		}
		// Component by component through pointers (see internal/vecmath).
		k := invSqrt(l2)
		tj := &tan[j]
		tj[0], tj[1], tj[2] = float32(x*k), float32(y*k), float32(z*k)
	}
}

// rootGrid finds the guide roots nearest a point on the unit sphere.
type rootGrid struct {
	pts  []mgl32.Vec3
	cell float32
	m    map[[3]int32][]int32
}

type candidate struct {
	i  int
	d2 float32
}

func newRootGrid(pts []mgl32.Vec3, space float32) *rootGrid {
	g := &rootGrid{pts: pts, cell: space, m: make(map[[3]int32][]int32)}
	for i, p := range pts {
		k := g.key(p)
		g.m[k] = append(g.m[k], int32(i))
	}
	return g
}

func (g *rootGrid) key(p mgl32.Vec3) [3]int32 {
	return [3]int32{
		int32(math.Floor(float64(p[0] / g.cell))),
		int32(math.Floor(float64(p[1] / g.cell))),
		int32(math.Floor(float64(p[2] / g.cell))),
	}
}

// nearest appends to out the k nearest points to p that ok accepts, nearest
// first, searching rings of cells outward until the k-th is closer than the
// next ring could be, or maxRing rings (0: the whole sphere) were searched.
func (g *rootGrid) nearest(p mgl32.Vec3, k, maxRing int, out []candidate, ok func(int) bool) []candidate {
	c := g.key(p)
	if all := int(2/g.cell) + 2; maxRing <= 0 || maxRing > all {
		maxRing = all
	}
	for ring := 0; ring <= maxRing; ring++ {
		for x := -ring; x <= ring; x++ {
			for y := -ring; y <= ring; y++ {
				for z := -ring; z <= ring; z++ {
					if max(abs(x), abs(y), abs(z)) != ring {
						continue
					}
					for _, i := range g.m[[3]int32{c[0] + int32(x), c[1] + int32(y), c[2] + int32(z)}] {
						if !ok(int(i)) {
							continue
						}
						out = append(out, candidate{int(i), vecmath.LenSqr(g.pts[i].Sub(p))})
					}
				}
			}
		}
		if len(out) >= k {
			sort.Slice(out, func(a, b int) bool { return out[a].d2 < out[b].d2 })
			out = out[:k]
			// Every point not yet seen is at least ring·cell away.
			if r := float32(float32(ring) * g.cell); out[k-1].d2 <= r*r {
				return out
			}
		}
	}
	sort.Slice(out, func(a, b int) bool { return out[a].d2 < out[b].d2 })
	if len(out) > k {
		out = out[:k]
	}
	return out
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
