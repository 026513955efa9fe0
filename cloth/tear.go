package cloth

import (
	"fmt"
	"github.com/drape3d/drape/internal/vecmath"
	"math"
	"sort"

	"github.com/drape3d/drape/verlet3d"
	"github.com/go-gl/mathgl/mgl32"
)

// disabledTether is the length given to a tether whose particle was torn
// away from its anchor: long enough never to act.
const disabledTether = 1e30

// gridHooks is a tearable grid's verlet3d.ConstraintSet, unexported so a
// game never sees solver plumbing: when links broke since the last look,
// it splits the mesh (ApplyTears) before the substep's solve. It costs one
// counter comparison otherwise. A grid that does not tear adds none.
type gridHooks struct{ g *Grid }

func (k gridHooks) Prepare(w *verlet3d.World, _ verlet3d.Substep) {
	if g := k.g; g.tearable && w.Stats().LinksBroken != g.seen {
		g.ApplyTears()
	}
}

func (gridHooks) Solve(*verlet3d.World, verlet3d.Substep) {}

// ApplyTears updates the mesh for the grid's links that broke since the
// last call: it removes the triangles each broken link held together,
// duplicates vertices whose remaining triangles only meet at a point, moves
// links onto the duplicates (with the original's velocity), removes links
// nothing holds any more, re-indexes the triangle list and lengthens
// tethers that now go round a tear. It reports whether the mesh changed.
// A tearable grid calls it itself during Step; call it after breaking links
// by hand (Cut and CutNear do).
func (g *Grid) ApplyTears() bool {
	w := g.w
	g.seen = w.Stats().LinksBroken
	g.affected = g.affected[:0]
	killed := false
	for i := range g.links {
		l := &g.links[i]
		if l.dead || !w.LinkBroken(l.h) {
			continue
		}
		l.dead = true
		if l.kind == kindBend {
			continue // bend links hold no triangle of their own
		}
		for _, s := range [2][2]triCorner{l.sa, l.sb} {
			for _, tc := range s {
				if tc.tri >= 0 && g.triAlive[tc.tri] {
					g.killTriangle(tc.tri)
					killed = true
				}
			}
		}
	}
	if !killed {
		return false
	}
	// Split vertices whose triangles no longer form one fan. Splitting adds
	// vertices, so iterate by index over a list that may grow.
	for k := 0; k < len(g.affected); k++ {
		g.splitVertex(g.affected[k])
	}
	for i := range g.mark {
		g.mark[i] = false
	}
	g.relinkAll()
	g.rebuildIndices()
	if len(g.tethers) > 0 {
		g.measureTethers(false)
	}
	return true
}

// killTriangle removes triangle t and notes its vertices for splitting.
func (g *Grid) killTriangle(t int32) {
	g.triAlive[t] = false
	for _, v := range g.tris[t] {
		l := &g.vtris[v]
		for k := range l {
			if l[k] == t {
				l[k] = -1
			}
		}
		g.touch(v)
	}
}

// touch adds v to the affected list once.
func (g *Grid) touch(v int32) {
	for int(v) >= len(g.mark) {
		g.mark = append(g.mark, false)
	}
	if !g.mark[v] {
		g.mark[v] = true
		g.affected = append(g.affected, v)
	}
}

// splitVertex groups the live triangles around v into fans joined by
// shared edges and gives every fan but the first its own duplicate of v.
func (g *Grid) splitVertex(v int32) {
	var ts [8]int32
	n := 0
	for _, t := range g.vtris[v] {
		if t >= 0 {
			ts[n] = t
			n++
		}
	}
	if n < 2 {
		return
	}
	// Union-find over at most 8 triangles.
	var parent [8]int
	for i := range parent {
		parent[i] = i
	}
	find := func(i int) int {
		for parent[i] != i {
			i = parent[i]
		}
		return i
	}
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			if shareOther(g.tris[ts[i]], g.tris[ts[j]], v) {
				parent[find(i)] = find(j)
			}
		}
	}
	groups := 0
	var rootOf [8]int
	for i := 0; i < n; i++ {
		if find(i) == i {
			rootOf[groups] = i
			groups++
		}
	}
	if groups < 2 {
		return
	}
	w := g.w
	orig := g.verts[v]
	mass := w.Mass(orig)
	total := float32(n)
	// The first fan keeps v; each other fan gets a duplicate.
	for gi := 1; gi < groups; gi++ {
		root := rootOf[gi]
		count := 0
		for i := 0; i < n; i++ {
			if find(i) == root {
				count++
			}
		}
		p, err := w.AddParticle(w.Position(orig), mass*float32(count)/total)
		if err != nil {
			panic(fmt.Sprintf("cloth: splitting vertex %d: %v", v, err)) // position and mass come from a live particle
		}
		// Same place and velocity as the original: copy its position and
		// previous position in the World's frame (AddParticle's world
		// coordinates round far from the origin).
		w.Positions()[p] = w.Positions()[orig]
		w.PrevPositions()[p] = w.PrevPositions()[orig]
		w.SetRadius(p, w.Radii()[orig])
		if g.s.Group != 1 {
			w.SetGroup(p, g.s.Group)
		}
		if w.Pinned(orig) {
			if t := w.TargetLocal(orig); t != w.Positions()[orig] {
				w.SetTargetLocal(p, t)
			} else {
				w.Pin(p)
			}
		}
		nv := int32(len(g.verts))
		g.verts = append(g.verts, p)
		g.origin = append(g.origin, g.origin[v])
		g.next = append(g.next, g.next[v])
		g.next[v] = nv
		g.uvs = append(g.uvs, g.uvs[v])
		g.pinned = append(g.pinned, g.pinned[v])
		var l [8]int32
		for k := range l {
			l[k] = -1
		}
		for i := 0; i < n; i++ {
			if find(i) != root {
				continue
			}
			t := ts[i]
			g.tris[t][cornerOf(g.tris[t], v)] = nv
			addTri(&l, t)
			vt := &g.vtris[v]
			for k := range vt {
				if vt[k] == t {
					vt[k] = -1
				}
			}
		}
		g.vtris = append(g.vtris, l)
	}
	// The original keeps the first fan's share of the mass.
	kept := 0
	for i := 0; i < n; i++ {
		if find(i) == rootOf[0] {
			kept++
		}
	}
	if mass > 0 {
		if err := w.SetMass(orig, mass*float32(kept)/total); err != nil {
			panic(err)
		}
	}
}

// shareOther reports whether triangles a and b share a vertex other than v,
// that is an edge through v.
func shareOther(a, b [3]int32, v int32) bool {
	for _, x := range a {
		if x == v {
			continue
		}
		for _, y := range b {
			if x == y {
				return true
			}
		}
	}
	return false
}

// relinkAll removes links that no live triangles hold together and moves
// the others onto the vertices their triangles now use.
func (g *Grid) relinkAll() {
	w := g.w
	for i := range g.links {
		l := &g.links[i]
		if l.dead {
			continue
		}
		a, b, ok := g.linkEnds(l)
		if !ok {
			l.dead = true
			w.RemoveLink(l.h)
			continue
		}
		if a != l.a || b != l.b {
			l.a, l.b = a, b
			w.SetLinkParticles(l.h, g.verts[a], g.verts[b])
		}
	}
}

// linkEnds finds a live triangle holding each end of l such that the two
// meet, and returns the vertices they use for the ends.
func (g *Grid) linkEnds(l *gridLink) (a, b int32, ok bool) {
	for _, ta := range l.sa {
		if ta.tri < 0 || !g.triAlive[ta.tri] {
			continue
		}
		A := g.tris[ta.tri]
		for _, tb := range l.sb {
			if tb.tri < 0 || !g.triAlive[tb.tri] {
				continue
			}
			B := g.tris[tb.tri]
			if ta.tri == tb.tri || shareAny(A, B) {
				return A[ta.corner], B[tb.corner], true
			}
		}
	}
	return 0, 0, false
}

func shareAny(a, b [3]int32) bool {
	for _, x := range a {
		for _, y := range b {
			if x == y {
				return true
			}
		}
	}
	return false
}

// Cut breaks every intact link of the grid that passes within radius (m) of
// the segment from a to b, then applies the tear, and returns how many
// links it broke. A mouse knife calls it with the cloth points under the
// cursor on two frames. It returns an error for non-finite input or a
// negative radius.
func (g *Grid) Cut(a, b mgl32.Vec3, radius float32) (int, error) {
	if !vecmath.Finite(a) || !vecmath.Finite(b) || !finite(radius) || radius < 0 {
		return 0, fmt.Errorf("cloth: Cut(%v, %v, %v): want finite points and radius >= 0", a, b, radius)
	}
	a, b = g.w.ToLocal(a), g.w.ToLocal(b)
	pos := g.w.Positions()
	r2 := float32(radius * radius)
	n := 0
	for i := range g.links {
		l := &g.links[i]
		if l.dead || g.w.LinkBroken(l.h) {
			continue
		}
		p, q := pos[g.verts[l.a]], pos[g.verts[l.b]]
		if segmentDist2(a, b, p, q) <= r2 {
			g.w.BreakLink(l.h)
			n++
		}
	}
	if n > 0 {
		g.ApplyTears()
	}
	return n, nil
}

// CutNear breaks every intact link of the grid that passes within radius
// (m) of point p, applies the tear and returns how many links it broke.
func (g *Grid) CutNear(p mgl32.Vec3, radius float32) (int, error) {
	if !vecmath.Finite(p) || !finite(radius) || radius <= 0 {
		return 0, fmt.Errorf("cloth: CutNear(%v, %v): want a finite point and radius > 0", p, radius)
	}
	return g.Cut(p, p, radius)
}

// segmentDist2 returns the squared distance between segments p1-q1 and
// p2-q2 (Ericson, Real-Time Collision Detection, 5.1.9).
func segmentDist2(p1, q1, p2, q2 mgl32.Vec3) float32 {
	d1, d2 := q1.Sub(p1), q2.Sub(p2)
	r := p1.Sub(p2)
	a, e, f := vecmath.Dot(d1, d1), vecmath.Dot(d2, d2), vecmath.Dot(d2, r)
	const eps = 1e-12
	var s, t float32
	switch {
	case a <= eps && e <= eps:
		return vecmath.Dot(r, r)
	case a <= eps:
		t = vecmath.Clamp01(f / e)
	default:
		c := vecmath.Dot(d1, r)
		if e <= eps {
			s = vecmath.Clamp01(-c / a)
		} else {
			b := vecmath.Dot(d1, d2)
			den := float32(a*e) - float32(b*b)
			if den > eps {
				s = vecmath.Clamp01((float32(b*f) - float32(c*e)) / den)
			}
			t = (float32(b*s) + f) / e
			if t < 0 {
				t, s = 0, vecmath.Clamp01(-c/a)
			} else if t > 1 {
				t, s = 1, vecmath.Clamp01((b-c)/a)
			}
		}
	}
	d := p1.Add(vecmath.Scale(d1, s)).Sub(p2.Add(vecmath.Scale(d2, t)))
	return vecmath.Dot(d, d)
}

// measureTethers measures each tether's path through intact structural and
// shear links. At build (initial) it records the distance; after a tear it
// lengthens each tether by the detour the tear forces, and disables tethers
// whose particle is cut off from its anchor.
func (g *Grid) measureTethers(initial bool) {
	nv := len(g.verts)
	// Adjacency through intact in-plane links.
	start := make([]int32, nv+1)
	for i := range g.links {
		l := &g.links[i]
		if l.dead || l.kind == kindBend {
			continue
		}
		start[l.a+1]++
		start[l.b+1]++
	}
	for i := 0; i < nv; i++ {
		start[i+1] += start[i]
	}
	type arc struct {
		to int32
		d  float32
	}
	arcs := make([]arc, start[nv])
	fill := append([]int32(nil), start[:nv]...)
	for i := range g.links {
		l := &g.links[i]
		if l.dead || l.kind == kindBend {
			continue
		}
		arcs[fill[l.a]] = arc{l.b, l.rest}
		fill[l.a]++
		arcs[fill[l.b]] = arc{l.a, l.rest}
		fill[l.b]++
	}
	dist := make([]float32, nv)
	inf := float32(math.Inf(1))
	for k := range dist {
		dist[k] = inf
	}
	var touched []int32 // vertices whose dist was set, reset per anchor
	var q distHeap
	// Visit tethers grouped by anchor: one Dijkstra per anchor.
	order := make([]int32, len(g.tethers))
	for i := range order {
		order[i] = int32(i)
	}
	sort.Slice(order, func(i, j int) bool {
		a, b := g.tethers[order[i]].anchor, g.tethers[order[j]].anchor
		return a < b || a == b && order[i] < order[j]
	})
	// In a grid with every link intact, a shortest path between two cells
	// never leaves their bounding rectangle (structural and shear steps
	// make monotone paths), so the build-time measurement searches only
	// the rectangle around each anchor and its particles: a 500 x 500 cape
	// pinned along its top row measures 500 columns, not 500 whole grids.
	cols := g.s.Cols
	boxed := initial && nv == g.s.Rows*cols
	for i := range g.links {
		boxed = boxed && !g.links[i].dead
	}
	r0, r1, c0, c1 := 0, g.s.Rows-1, 0, cols-1
	lastAnchor := int32(-1)
	for oi, ti := range order {
		t := &g.tethers[ti]
		if t.anchor != lastAnchor {
			lastAnchor = t.anchor
			if boxed {
				r0, c0 = int(t.anchor)/cols, int(t.anchor)%cols
				r1, c1 = r0, c0
				for _, tj := range order[oi:] {
					u := &g.tethers[tj]
					if u.anchor != t.anchor {
						break
					}
					r, c := int(u.p)/cols, int(u.p)%cols
					r0, r1, c0, c1 = min(r0, r), max(r1, r), min(c0, c), max(c1, c)
				}
			}
			for _, k := range touched {
				dist[k] = inf
			}
			touched = append(touched[:0], t.anchor)
			dist[t.anchor] = 0
			q = append(q[:0], distItem{t.anchor, 0})
			for len(q) > 0 {
				it := q.pop()
				if it.d > dist[it.v] {
					continue
				}
				for _, a := range arcs[start[it.v]:start[it.v+1]] {
					if boxed {
						if r, c := int(a.to)/cols, int(a.to)%cols; r < r0 || r > r1 || c < c0 || c > c1 {
							continue
						}
					}
					if d := it.d + a.d; d < dist[a.to] {
						if math.IsInf(float64(dist[a.to]), 1) {
							touched = append(touched, a.to)
						}
						dist[a.to] = d
						q.push(distItem{a.to, d})
					}
				}
			}
		}
		d := dist[t.p]
		if initial {
			t.graph = d
			continue
		}
		switch {
		case math.IsInf(float64(d), 1):
			g.w.SetTetherLength(t.h, disabledTether)
		case t.graph > 0 && d > t.graph:
			g.w.SetTetherLength(t.h, t.max*d/t.graph)
		}
	}
}

type distItem struct {
	v int32
	d float32
}

// distHeap is a binary min-heap on d (typed, so pushing does not box).
type distHeap []distItem

func (h *distHeap) push(it distItem) {
	*h = append(*h, it)
	q := *h
	for i := len(q) - 1; i > 0; {
		p := (i - 1) / 2
		if q[p].d <= q[i].d {
			break
		}
		q[p], q[i] = q[i], q[p]
		i = p
	}
}

func (h *distHeap) pop() distItem {
	q := *h
	top := q[0]
	n := len(q) - 1
	q[0] = q[n]
	q = q[:n]
	for i := 0; ; {
		l, m := 2*i+1, i
		if l < n && q[l].d < q[m].d {
			m = l
		}
		if l+1 < n && q[l+1].d < q[m].d {
			m = l + 1
		}
		if m == i {
			break
		}
		q[i], q[m] = q[m], q[i]
		i = m
	}
	*h = q
	return top
}
