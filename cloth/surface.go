package cloth

import (
	"fmt"
	"math"

	"github.com/drape3d/drape/internal/vecmath"
	"github.com/drape3d/drape/verlet3d"
	"github.com/go-gl/mathgl/mgl32"
)

// SurfaceCollision keeps chosen particles of other bodies (a cube's
// corners, a rope's end, a ball's particle) out of a cloth's triangles. A
// cloth keeps colliders out only at its own particles, so a corner that
// meets the cloth between them goes through: a crate's corner pokes
// through a tablecloth draped over it. With a SurfaceCollision, each point
// stays on the side of the surface it came from, Thickness away, and
// pushes the triangle back with its weight: the cloth carries it and it
// lifts the cloth.
//
// Once per substep it hashes the triangles (swept over the substep) into a
// uniform grid and lists, for every point, the triangles it is within
// Thickness of or crossed since the substep began, and the side of each
// such triangle it is on: the side it had last substep while the contact
// lasts, else the side it started the substep on. The side is kept per
// point and triangle, not per point: one point can lie on the front of one
// layer of cloth and the back of another. Every solver iteration pushes
// each such point out along the triangle's normal and the triangle's
// corners the other way, weighted by inverse mass and the point's
// barycentric weights (in an impact, faster than surfaceImpactSpeed, the
// corners count as no lighter than the point), and the end of the substep
// takes back the speed apart those pushes gave (settle). Points are few
// (the corners of the cubes a cloth can touch); the cost is one hash
// lookup per point and substep plus the triangles near it. A torn cloth's
// triangles are picked up at the next substep. NewSurfaceCollision adds it
// to the grid's World and Remove takes it out.
type SurfaceCollision struct {
	g         *Grid
	points    []int32
	thickness float32

	version uint64   // Grid.Version the triangles were copied at
	tris    []uint32 // the grid's triangles, three particle indices each
	local   []uint32 // the same, three grid vertices each

	// Spatial hash of the triangles' swept bounds, rebuilt every substep
	// by counting sort: bucket b's triangles are items[start[b]:start[b+1]].
	cell     float32
	start    []int32
	items    []int32
	lo, hi   []mgl32.Vec3 // each triangle's bounds, grown by thickness
	vlo, vhi []mgl32.Vec3 // each grid vertex's bounds over the substep
	bucket   []uint32     // each triangle's bucket
	// contacts are the substep's, point by point: point i's are
	// contacts[from[i]:from[i+1]]. prev and prevFrom are last substep's:
	// a contact that goes on keeps the side it had (a point the solver
	// left a little past a triangle is pushed back, not let through).
	contacts, prev []surfaceContact
	from, prevFrom []int32
	hooks          surfaceHooks
	numBuckets     uint32
	// side is the fixed side points belong on (+1 front, -1 back) or 0:
	// the side each came from (SetSide). reach is how far behind a
	// triangle a point is found every substep (SetSide), once the next
	// substep's bringOut (BringOut) is used, m.
	side, reach, bringOut float32
	inv                   []float32 // the World's inverse masses, during find
	oneWay                bool      // SetOneWay
	behind                float32   // how far behind a triangle find looks this substep, m
	// With a fixed side, each triangle's unit normal now and at the
	// substep's start (zero for a degenerate one), computed once a find.
	triN, triN0 []mgl32.Vec3
}

// Side is the side of a cloth's surface a SurfaceCollision keeps points
// on.
type Side int

const (
	// SideCameFrom keeps each point on the side of each triangle it came
	// from: a corner resting on a tablecloth stays on top, one under it
	// stays under. The default.
	SideCameFrom Side = iota
	// SideFront keeps every point on the cloth's front side, the side
	// Grid.Normals point to.
	SideFront
	// SideBack keeps every point on the cloth's back side.
	SideBack
)

func (s Side) String() string {
	switch s {
	case SideCameFrom:
		return "SideCameFrom"
	case SideFront:
		return "SideFront"
	case SideBack:
		return "SideBack"
	}
	return fmt.Sprintf("Side(%d)", int(s))
}

// surfaceContact is point p held on one side (+1 or -1 along the
// triangle's right-handed normal) of triangle t, for one substep.
type surfaceContact struct {
	p    int32
	t    int32
	side float32
	// floor (<= 0, m) is how far inside the thickness the push may leave
	// the point: 0 for a point that began the substep outside it.
	floor float32
	// impact: the point moved toward the triangle faster than
	// surfaceImpactSpeed this substep.
	impact bool
	// pushed is how far the substep's pushes moved the point and the
	// triangle apart along the normal, m (settle).
	pushed float32
}

// surfaceRecoverySpeed is how fast, in m/s, a point that began a substep
// inside the thickness is pushed out: slowly, so that the depth it could
// not be pushed out of last substep does not become the cloth's speed.
// What the push moves becomes velocity, and where the cloth's own links
// pull it back (cloth wrapped over a crate's corner) the two take turns
// every substep: at 0.5 m/s that was a limit cycle at 0.2-0.7 m/s in
// which a draped crate never came to rest; at 0.05 m/s the cloth settles
// on the corner and the World sleeps (TestSurfaceCollisionDrapedCrateSettles),
// and 1.5 cm of depth is still gone in a third of a second.
const surfaceRecoverySpeed = 0.05

// surfaceImpactSpeed is the speed, in m/s, toward a triangle above which
// a point's contact weighs the triangle's corners as no lighter than the
// point (see push).
const surfaceImpactSpeed = 0.3

// NewSurfaceCollision keeps points out of g's triangles, thickness meters
// from the surface (about the cloth's particle radius: the render shows the
// cloth at its particles' centers). A point may not be one of the cloth's
// own particles (SelfCollision keeps those apart). It returns an error
// naming the bad value for a thickness that is not a finite number in
// (0, 1] m, an invalid particle, or a cloth particle, and leaves the World
// unchanged.
func NewSurfaceCollision(g *Grid, points []verlet3d.Particle, thickness float32) (*SurfaceCollision, error) {
	if g == nil {
		panic("cloth: NewSurfaceCollision: Grid is nil")
	}
	if !finite(thickness) || thickness <= 0 || thickness > 1 {
		return nil, fmt.Errorf("cloth: surface collision thickness = %v, want meters in (0, 1]", thickness)
	}
	own := make(map[verlet3d.Particle]bool, len(g.verts))
	for _, v := range g.verts {
		own[v] = true
	}
	pts := make([]int32, len(points))
	for i, p := range points {
		switch {
		case !g.w.Valid(p):
			return nil, fmt.Errorf("cloth: surface collision points[%d] = %d, not a particle of the World", i, p)
		case own[p]:
			return nil, fmt.Errorf("cloth: surface collision points[%d] = %d is a particle of the cloth itself", i, p)
		}
		pts[i] = int32(p)
	}
	sc := &SurfaceCollision{g: g, points: pts, thickness: thickness,
		from: make([]int32, len(pts)+1), prevFrom: make([]int32, len(pts)+1)}
	sc.hooks = surfaceHooks{sc}
	g.w.AddConstraintSet(sc.hooks)
	return sc, nil
}

// SetSide chooses the side of the surface the points belong on. With
// SideFront or SideBack every point belongs on that side of every
// triangle, wherever it came from: one that began a substep behind a
// triangle by up to reach meters (over it, or past its edge by less than
// that) is moved out to its side with its previous position, as a
// teleport (no speed). Hair lying on a cape stays on the outside (see
// Cape.Outside) though the head's carry and its style pull it under the
// cape, and a tip that slips around the cape's edge over a shoulder comes
// back out. The reach, at least Thickness, widens what every substep
// searches behind the cloth, and costs in proportion. SideCameFrom (the
// default) keeps each on the side it came from, and reach is unused. It
// returns an error naming the value for an unknown side or a reach that
// is not a finite number in [0, 1] m, and leaves the side as it was.
func (sc *SurfaceCollision) SetSide(side Side, reach float32) error {
	var sign float32
	switch side {
	case SideCameFrom:
	case SideFront:
		sign = 1
	case SideBack:
		sign = -1
	default:
		return fmt.Errorf("cloth: SurfaceCollision.SetSide: side = %v, want SideCameFrom, SideFront or SideBack", side)
	}
	if !finite(reach) || reach < 0 || reach > 1 {
		return fmt.Errorf("cloth: SurfaceCollision.SetSide: reach = %v, want meters in [0, 1]", reach)
	}
	sc.side, sc.reach = sign, reach
	return nil
}

// BringOut takes points up to reach meters behind the cloth out to their
// side at the next substep, with a fixed side (SetSide): for points placed
// behind it when they were built, such as strands grown under a cape's
// collar, deeper than SetSide's reach. It returns an error naming the
// value for a reach that is not a finite number in [0, 1] m.
func (sc *SurfaceCollision) BringOut(reach float32) error {
	if !finite(reach) || reach < 0 || reach > 1 {
		return fmt.Errorf("cloth: SurfaceCollision.BringOut: reach = %v, want meters in [0, 1]", reach)
	}
	sc.bringOut = reach
	return nil
}

// SetOneWay makes the contacts move only the points (true): the cloth is
// not pushed back. For points tied to something far heavier than
// themselves, such as hair strands rooted in a head: a strand is light,
// but pressed on a cape it passes on the pull of its root and its style,
// and a head of hair pushed a walker's cape 20% out of shape at times
// (8% without it). The default, false, moves both by their masses.
//
// One-way contacts are found and pushed after the solver passes and the
// collider contacts (which move the cloth last), not in every pass: once
// a substep, or with a fixed side (SetSide) once a step, in its last
// substep. A point may then dip into the cloth between, never in what a
// frame shows, and with a fixed side one that went under is taken out
// from up to the reach.
func (sc *SurfaceCollision) SetOneWay(on bool) { sc.oneWay = on }

// OneWay reports whether the contacts move only the points (SetOneWay).
func (sc *SurfaceCollision) OneWay() bool { return sc.oneWay }

// Side returns the side points are kept on (SetSide).
func (sc *SurfaceCollision) Side() Side {
	switch {
	case sc.side > 0:
		return SideFront
	case sc.side < 0:
		return SideBack
	}
	return SideCameFrom
}

// Remove takes the surface collision out of the World.
func (sc *SurfaceCollision) Remove() { sc.g.w.RemoveConstraintSet(sc.hooks) }

// Thickness returns the distance in meters points are kept from the surface.
func (sc *SurfaceCollision) Thickness() float32 { return sc.thickness }

// NumPoints returns the number of points kept out of the cloth.
func (sc *SurfaceCollision) NumPoints() int { return len(sc.points) }

// NumContacts returns how many point-triangle contacts the last substep
// held.
func (sc *SurfaceCollision) NumContacts() int { return len(sc.contacts) }

// surfaceHooks is the surface collision's verlet3d.ConstraintSet,
// unexported so a game never sees solver plumbing.
type surfaceHooks struct{ sc *SurfaceCollision }

// Prepare finds the substep's two-way contacts (one-way ones are found
// in Finish).
func (k surfaceHooks) Prepare(w *verlet3d.World, s verlet3d.Substep) {
	if !k.sc.oneWay {
		k.sc.find(w, s.H)
	}
}

func (k surfaceHooks) Solve(w *verlet3d.World, _ verlet3d.Substep) {
	if !k.sc.oneWay {
		k.sc.push(w)
	}
}

// Finish settles the substep's contacts. One-way contacts are found and
// pushed here, after the solver passes and the collider contacts have
// moved the points and the cloth (with a fixed side only in the step's
// last substep): they move only the points, so pushing them in every
// pass would repeat the work on a cloth still moving, and found before
// the passes they miss a point the passes carry through the cloth (a
// strand's style pulling it under a cape).
func (k surfaceHooks) Finish(w *verlet3d.World, s verlet3d.Substep) {
	if k.sc.oneWay {
		if k.sc.side != 0 && !s.Last() {
			return
		}
		k.sc.find(w, s.H)
		k.sc.push(w)
	}
	k.sc.settle(w)
}

// cellKey is the integer cell of coordinate x.
func (sc *SurfaceCollision) cellKey(x float32) int32 {
	return int32(math.Floor(float64(x / sc.cell)))
}

// find lists the substep's contacts: it bounds every triangle over the
// substep (start and predicted positions, grown by the thickness), hashes
// the bounds, then tests each point's path against the triangles of the
// cells it touches.
func (sc *SurfaceCollision) find(w *verlet3d.World, dt float32) {
	recover := float32(surfaceRecoverySpeed * dt)
	sc.prev, sc.contacts = sc.contacts, sc.prev[:0]
	sc.prevFrom, sc.from = sc.from, sc.prevFrom
	clear(sc.from)
	if len(sc.points) == 0 {
		return
	}
	g := sc.g
	if sc.tris == nil || sc.version != g.Version() {
		// Torn: the triangle numbers changed, so last substep's contacts
		// name other triangles.
		sc.prev = sc.prev[:0]
		clear(sc.prevFrom)
		sc.local = append(sc.local[:0], g.Indices()...)
		sc.tris = append(sc.tris[:0], sc.local...)
		for i, v := range sc.tris {
			sc.tris[i] = uint32(g.verts[v])
		}
		sc.version = g.Version()
	}
	nt := len(sc.tris) / 3
	if nt == 0 {
		return
	}
	pos, prev := w.Positions(), w.PrevPositions()
	sc.inv = w.InvMasses()
	// Triangles' bounds grow by the distance a point is found at.
	th := sc.thickness
	// This substep's reach behind the cloth, with a fixed side: the
	// triangles' bounds grow that far behind them too.
	sc.behind = 0
	if sc.side != 0 {
		sc.behind = max(th, sc.reach, sc.bringOut)
		sc.bringOut = 0
	}
	if sc.side != 0 {
		if cap(sc.triN) < nt {
			sc.triN, sc.triN0 = make([]mgl32.Vec3, nt), make([]mgl32.Vec3, nt)
		}
		sc.triN, sc.triN0 = sc.triN[:nt], sc.triN0[:nt]
		for t := 0; t < nt; t++ {
			ia, ib, ic := sc.tris[3*t], sc.tris[3*t+1], sc.tris[3*t+2]
			sc.triN[t] = unitNormal(pos[ia], pos[ib], pos[ic])
			sc.triN0[t] = unitNormal(prev[ia], prev[ib], prev[ic])
		}
	}
	if cap(sc.lo) < nt {
		sc.lo, sc.hi = make([]mgl32.Vec3, nt), make([]mgl32.Vec3, nt)
	}
	lo, hi := sc.lo[:nt], sc.hi[:nt]
	// Every vertex's path over the substep, boxed once (a vertex is the
	// corner of up to six triangles); the sum of the coordinates tells a
	// non-finite cloth (the comparisons below pass NaNs by).
	nv := len(g.verts)
	if cap(sc.vlo) < nv {
		sc.vlo, sc.vhi = make([]mgl32.Vec3, nv), make([]mgl32.Vec3, nv)
	}
	vlo, vhi := sc.vlo[:nv], sc.vhi[:nv]
	var sum float32
	for k, v := range g.verts {
		l, h := pos[v], prev[v]
		sum += l[0] + l[1] + l[2] + h[0] + h[1] + h[2]
		for a := 0; a < 3; a++ {
			if h[a] < l[a] {
				l[a], h[a] = h[a], l[a]
			}
		}
		vlo[k], vhi[k] = l, h
	}
	if !finite(sum) {
		return // the World's guard resets it
	}
	var size float32
	// The whole cloth's bounds: a point outside them meets no triangle.
	all0 := mgl32.Vec3{float32(math.Inf(1)), float32(math.Inf(1)), float32(math.Inf(1))}
	all1 := mgl32.Vec3{float32(math.Inf(-1)), float32(math.Inf(-1)), float32(math.Inf(-1))}
	for t := 0; t < nt; t++ {
		i, j, k := sc.local[3*t], sc.local[3*t+1], sc.local[3*t+2]
		l, h := vlo[i], vhi[i]
		for _, v := range [2]uint32{j, k} {
			vl, vh := &vlo[v], &vhi[v]
			if vl[0] < l[0] {
				l[0] = vl[0]
			}
			if vl[1] < l[1] {
				l[1] = vl[1]
			}
			if vl[2] < l[2] {
				l[2] = vl[2]
			}
			if vh[0] > h[0] {
				h[0] = vh[0]
			}
			if vh[1] > h[1] {
				h[1] = vh[1]
			}
			if vh[2] > h[2] {
				h[2] = vh[2]
			}
		}
		l = mgl32.Vec3{l[0] - th, l[1] - th, l[2] - th}
		h = mgl32.Vec3{h[0] + th, h[1] + th, h[2] + th}
		if sc.behind > th {
			// And as far behind the triangle (its normal now) as the
			// reach.
			a, b, c := pos[g.verts[i]], pos[g.verts[j]], pos[g.verts[k]]
			n := vecmath.Cross(b.Sub(a), c.Sub(a))
			if ln := vecmath.Len(n); ln > 0 {
				back := vecmath.Scale(n, -sc.side*(sc.behind-th)/ln)
				for a := 0; a < 3; a++ {
					l[a], h[a] = min(l[a], l[a]+back[a]), max(h[a], h[a]+back[a])
				}
			}
		}
		if d := h[0] - l[0]; d > size {
			size = d
		}
		if d := h[1] - l[1]; d > size {
			size = d
		}
		if d := h[2] - l[2]; d > size {
			size = d
		}
		lo[t], hi[t] = l, h
		for a := 0; a < 3; a++ {
			all0[a], all1[a] = min(all0[a], l[a]), max(all1[a], h[a])
		}
	}
	if !(size > 0) || size > 1e6 {
		return // a non-finite or absurd cloth: the World's guard resets it
	}
	// Cells as large as the largest triangle's bounds: a triangle whose
	// bounds reach a point's has its low corner at most a cell below the
	// point's bounds.
	sc.cell = size
	if sc.numBuckets == 0 {
		n := uint32(64)
		for n < uint32(2*nt) {
			n *= 2
		}
		sc.numBuckets = n
		sc.start = make([]int32, n+1)
	}
	mask := sc.numBuckets - 1
	start := sc.start
	clear(start)
	// Each triangle goes in the one cell of its bounds' low corner; a
	// point looks from one cell size below its own bounds up.
	if cap(sc.bucket) < nt {
		sc.bucket = make([]uint32, nt)
	}
	bucket := sc.bucket[:nt]
	for t := 0; t < nt; t++ {
		b := hashCell(sc.cellKey(lo[t][0]), sc.cellKey(lo[t][1]), sc.cellKey(lo[t][2])) & mask
		bucket[t] = b
		start[b+1]++
	}
	for b := 1; b < len(start); b++ {
		start[b] += start[b-1]
	}
	if cap(sc.items) < nt {
		sc.items = make([]int32, nt)
	}
	items := sc.items[:nt]
	for t, b := range bucket {
		items[start[b]] = int32(t)
		start[b]++
	}
	// start[b] is now the end of bucket b: shift back to the starts.
	copy(start[1:], start[:len(start)-1])
	start[0] = 0

	for i, p := range sc.points {
		x, x0 := pos[p], prev[p]
		var l, h mgl32.Vec3
		for a := 0; a < 3; a++ {
			l[a], h[a] = min(x[a], x0[a]), max(x[a], x0[a])
		}
		sc.from[i] = int32(len(sc.contacts))
		if l[0] > all1[0] || h[0] < all0[0] || l[1] > all1[1] || h[1] < all0[1] || l[2] > all1[2] || h[2] < all0[2] {
			continue
		}
		last := sc.prev[sc.prevFrom[i]:sc.prevFrom[i+1]]
		x0c, x1c := sc.cellKey(l[0]-size), sc.cellKey(h[0])
		y0c, y1c := sc.cellKey(l[1]-size), sc.cellKey(h[1])
		z0c, z1c := sc.cellKey(l[2]-size), sc.cellKey(h[2])
		for cx := x0c; cx <= x1c; cx++ {
			for cy := y0c; cy <= y1c; cy++ {
				for cz := z0c; cz <= z1c; cz++ {
					b := hashCell(cx, cy, cz) & mask
					for _, t := range items[start[b]:start[b+1]] {
						sc.consider(pos, prev, i, p, t, l, h, last, recover, dt)
					}
				}
			}
		}
	}
	sc.from[len(sc.points)] = int32(len(sc.contacts))
}

// consider adds the contact of point i (particle p, its path bounded by
// l and h) with triangle t, if their bounds meet, it has none yet (two of
// the point's cells can share a bucket) and touch finds one. The side is
// the contact's own, never the point's: a point near two layers of cloth
// (a crumple, cloth pressed between crates) can be on the front of one and
// the back of the other, and one side for both pushes it through one of
// them, harder every substep. last is the point's contacts of the last
// substep, whose sides carry over.
func (sc *SurfaceCollision) consider(pos, prev []mgl32.Vec3, i int, p, t int32, l, h mgl32.Vec3, last []surfaceContact, recover, dt float32) {
	lo, hi := &sc.lo[t], &sc.hi[t]
	if l[0] > hi[0] || h[0] < lo[0] || l[1] > hi[1] || h[1] < lo[1] || l[2] > hi[2] || h[2] < lo[2] {
		return
	}
	for _, c := range sc.contacts[sc.from[i]:] {
		if c.t == t {
			return
		}
	}
	var known float32
	for _, c := range last {
		if c.t == t {
			known = c.side
			break
		}
	}
	var side, floor float32
	var impact, ok bool
	if sc.side != 0 {
		side, floor, impact, ok = sc.touchFixed(pos, prev, p, t, recover, dt)
	} else {
		side, floor, impact, ok = sc.touch(pos, prev, p, t, known, recover, dt)
	}
	if ok {
		sc.contacts = append(sc.contacts, surfaceContact{p: p, t: t, side: side, floor: floor, impact: impact})
	}
}

// touch reports whether point p is within the thickness of triangle t at
// its predicted position, or crossed the triangle's plane inside it during
// the substep, and the side it belongs on (+1 along the triangle's
// right-handed normal, -1 against it): known, the side it kept last
// substep, else the side it started this one on.
func (sc *SurfaceCollision) touch(pos, prev []mgl32.Vec3, p, t int32, known, recover, h float32) (side, floor float32, impact, ok bool) {
	ia, ib, ic := sc.tris[3*t], sc.tris[3*t+1], sc.tris[3*t+2]
	a0, b0, c0 := prev[ia], prev[ib], prev[ic]
	n0 := vecmath.Cross(b0.Sub(a0), c0.Sub(a0))
	l0 := vecmath.Len(n0)
	if l0 < 1e-12 {
		return 0, 0, false, false
	}
	d0 := vecmath.Dot(prev[p].Sub(a0), n0) / l0
	side = known
	if side == 0 {
		side = 1
		if d0 < 0 {
			side = -1
		}
	}
	th := sc.thickness
	// How far inside the thickness the point was when the substep began:
	// the push takes it out at most recover meters past that per substep,
	// so the depth a point could not be pushed out of last substep (cloth
	// pressed between two crates, thinner than two thicknesses) is not
	// undone in one substep, which would move the point and the cloth at
	// depth/substep (1.5 cm in 1/600 s is 9 m/s).
	floor = min(0, float32(side*d0)-th+recover)
	a, b, c := pos[ia], pos[ib], pos[ic]
	n := vecmath.Cross(b.Sub(a), c.Sub(a))
	if vecmath.LenSqr(n) < 1e-24 {
		return 0, 0, false, false
	}
	x := pos[p]
	// Coming at the cloth fast: the point's own speed toward the
	// triangle, not relative to it (a point carrying a dent along is
	// still an impact).
	impact = vecmath.Dot(x.Sub(prev[p]), n)*side < -surfaceImpactSpeed*h*vecmath.Len(n)
	q := vecmath.ClosestOnTriangle(x, a, b, c)
	if vecmath.LenSqr(x.Sub(q)) < th*th {
		return side, floor, impact, true
	}
	// Crossed: now on the other side, and near enough that the paths of
	// the point and the triangle this substep could have met (a point
	// punching a dent into the cloth ends beyond the triangles' corners,
	// not over one of them; a dent springing back passes a slow point).
	if vecmath.Dot(x.Sub(a), n)*side < 0 {
		move := max(vecmath.LenSqr(pos[ia].Sub(prev[ia])), vecmath.LenSqr(pos[ib].Sub(prev[ib])), vecmath.LenSqr(pos[ic].Sub(prev[ic])))
		r := th + vecmath.Len(x.Sub(prev[p])) + float32(math.Sqrt(float64(move)))
		if vecmath.LenSqr(x.Sub(q)) < r*r {
			return side, floor, impact, true
		}
	}
	return 0, 0, false, false
}

// touchFixed is touch with a fixed side (SetSide), from the triangles'
// normals find computed. A point in front beyond the thickness does not
// touch, nor can it have crossed: most are, so that test comes first. A
// point behind the triangle within the reach (over it, or past its edge
// by less) that began the substep behind it is moved out to the thickness
// with its previous position, as a teleport (no speed), so the push that
// follows holds it there: the head's carry, or a cape pushed out by the
// body, puts hair under the cape by millimeters a substep, and pushed out
// at the recovery speed it never came back.
func (sc *SurfaceCollision) touchFixed(pos, prev []mgl32.Vec3, p, t int32, recover, h float32) (side, floor float32, impact, ok bool) {
	side = sc.side
	n, n0 := sc.triN[t], sc.triN0[t]
	if n == (mgl32.Vec3{}) || n0 == (mgl32.Vec3{}) {
		return 0, 0, false, false
	}
	ia, ib, ic := sc.tris[3*t], sc.tris[3*t+1], sc.tris[3*t+2]
	a, x := pos[ia], pos[p]
	th := sc.thickness
	d := float32(vecmath.Dot(x.Sub(a), n) * side)
	if d >= th {
		return 0, 0, false, false
	}
	d0 := float32(vecmath.Dot(prev[p].Sub(prev[ia]), n0) * side)
	floor = min(0, d0-th+recover)
	impact = vecmath.Dot(x.Sub(prev[p]), n)*side < -surfaceImpactSpeed*h
	q := vecmath.ClosestOnTriangle(x, a, pos[ib], pos[ic])
	dist2 := vecmath.LenSqr(x.Sub(q))
	if d >= 0 {
		return side, floor, impact, dist2 < th*th
	}
	if r := sc.behind; dist2 < r*r {
		if d0 < 0 && sc.inv[p] > 0 {
			move := vecmath.Scale(n, float32(side*(th-d)))
			pos[p], prev[p] = x.Add(move), prev[p].Add(move)
			floor = 0
		}
		return side, floor, impact, true
	}
	// Crossed this substep, near enough that the paths could have met.
	move := max(vecmath.LenSqr(pos[ia].Sub(prev[ia])), vecmath.LenSqr(pos[ib].Sub(prev[ib])), vecmath.LenSqr(pos[ic].Sub(prev[ic])))
	r := th + vecmath.Len(x.Sub(prev[p])) + float32(math.Sqrt(float64(move)))
	return side, floor, impact, dist2 < r*r
}

// unitNormal is the unit right-handed normal of triangle a, b, c, or zero
// for a degenerate one.
func unitNormal(a, b, c mgl32.Vec3) mgl32.Vec3 {
	n := vecmath.Cross(b.Sub(a), c.Sub(a))
	l := vecmath.Len(n)
	if l < 1e-12 {
		return mgl32.Vec3{}
	}
	return vecmath.Scale(n, 1/l)
}

// barycentric returns the weights of a, b and c of x's projection onto the
// triangle's plane.
func barycentric(x, a, b, c mgl32.Vec3) (u, v, w float32) {
	e0, e1, d := b.Sub(a), c.Sub(a), x.Sub(a)
	d00, d01, d11 := vecmath.Dot(e0, e0), vecmath.Dot(e0, e1), vecmath.Dot(e1, e1)
	d20, d21 := vecmath.Dot(d, e0), vecmath.Dot(d, e1)
	den := float32(d00*d11) - float32(d01*d01)
	if den == 0 {
		return -1, -1, -1
	}
	v = (float32(d11*d20) - float32(d01*d21)) / den
	w = (float32(d00*d21) - float32(d01*d20)) / den
	return 1 - v - w, v, w
}

// plane returns the corners of contact c's triangle, its unit normal
// toward the point's side, and the weights of the corners at the point's
// projection onto it. Past the triangle's edge the weights are those of
// the triangle's nearest point (a point over an edge is held by both
// triangles without a seam, one at the tip of a dent by all around it).
// ok is false for a degenerate triangle.
func (sc *SurfaceCollision) plane(pos []mgl32.Vec3, c *surfaceContact) (ia, ib, ic uint32, n mgl32.Vec3, u, v, w float32, ok bool) {
	ia, ib, ic = sc.tris[3*c.t], sc.tris[3*c.t+1], sc.tris[3*c.t+2]
	a, b, cc := pos[ia], pos[ib], pos[ic]
	n = vecmath.Cross(b.Sub(a), cc.Sub(a))
	l := vecmath.Len(n)
	if l < 1e-12 {
		return 0, 0, 0, n, 0, 0, 0, false
	}
	n = vecmath.Scale(n, c.side/l)
	x := pos[c.p]
	u, v, w = barycentric(x, a, b, cc)
	if u < 0 || v < 0 || w < 0 {
		q := vecmath.ClosestOnTriangle(x, a, b, cc)
		u, v, w = barycentric(q, a, b, cc)
		u, v, w = max(u, 0), max(v, 0), max(w, 0)
		if s := u + v + w; s > 0 {
			u, v, w = u/s, v/s, w/s
		}
	}
	return ia, ib, ic, n, u, v, w, true
}

// push moves every contact's point out to the thickness on its side, and
// the triangle's corners the other way, once per solver pass: the point's
// distance to the plane through its projection is the constraint, with
// gradient n at the point and -u·n, -v·n, -w·n at the corners.
func (sc *SurfaceCollision) push(w *verlet3d.World) {
	pos, inv := w.Positions(), w.InvMasses()
	th := sc.thickness
	for k := range sc.contacts {
		c := &sc.contacts[k]
		ia, ib, ic, n, u, v, ww, ok := sc.plane(pos, c)
		if !ok {
			continue
		}
		x, a, b, cc := pos[c.p], pos[ia], pos[ib], pos[ic]
		C := vecmath.Dot(x.Sub(a), n) - th - c.floor
		if C >= 0 {
			continue
		}
		// A cloth particle is light, but the links hold it to the whole
		// cloth: weighted as its own mass, a heavy point coming at it
		// fast punches the triangle aside (and goes through) long before
		// the links pull back. In an impact the triangle's corners count
		// as no lighter than the point. That is not momentum-conserving:
		// held on for slow contacts (a crate resting on the cloth, cloth
		// pressed between crates) it pushes the crates about and they
		// drag the cloth off, so slow contacts use the true masses.
		wp, wa, wb, wc := inv[c.p], inv[ia], inv[ib], inv[ic]
		if wp > 0 && c.impact {
			wa, wb, wc = min(wa, wp), min(wb, wp), min(wc, wp)
		}
		if sc.oneWay {
			wa, wb, wc = 0, 0, 0
		}
		den := wp + float32(u*u*wa) + float32(v*v*wb) + float32(ww*ww*wc)
		if den == 0 {
			continue
		}
		s := -C / den
		c.pushed -= C
		pos[c.p] = x.Add(vecmath.Scale(n, float32(wp*s)))
		pos[ia] = a.Sub(vecmath.Scale(n, float32(wa*u*s)))
		pos[ib] = b.Sub(vecmath.Scale(n, float32(wb*v*s)))
		pos[ic] = cc.Sub(vecmath.Scale(n, float32(wc*ww*s)))
	}
}

// settle ends every contact that began the substep clear of the thickness
// and was pushed during it as an inelastic contact ends: it takes back the
// speed apart along the normal that the pushes gave the point and the
// triangle, so they leave the substep touching instead of flying apart.
// Without it the pushes and the cloth's own links traded places every
// substep: cloth pulled tight over the top corners of a crate standing on
// another came 1.3 mm inside the thickness and was pushed out again every
// substep, at 0.2-1.5 m/s, and the stack never came to rest
// (TestSurfaceCollisionDrapedCrateSettles). The speed apart is cut by at
// most what the pushes moved the two apart (a cloth moving away on its own
// keeps its speed) and shared by inverse mass as a push is; a point that
// did not move this substep (the corner of an asleep crate, which its
// System holds still) keeps its rest. A contact that began inside the
// thickness, whose push takes the point out of that depth at
// surfaceRecoverySpeed, is left alone: taking that push back as well kept a
// heavy point that had dented a cloth from ever rising to the thickness
// (TestSurfaceCollisionHoldsPoints).
func (sc *SurfaceCollision) settle(w *verlet3d.World) {
	pos, prev, inv := w.Positions(), w.PrevPositions(), w.InvMasses()
	for k := range sc.contacts {
		c := &sc.contacts[k]
		if c.pushed <= 0 || c.floor < 0 {
			continue
		}
		ia, ib, ic, n, u, v, ww, ok := sc.plane(pos, c)
		if !ok {
			continue
		}
		x, a, b, cc := pos[c.p], pos[ia], pos[ib], pos[ic]
		// How far the point and the triangle moved apart along n this
		// substep.
		tri := vecmath.Scale(a.Sub(prev[ia]), u).Add(vecmath.Scale(b.Sub(prev[ib]), v)).Add(vecmath.Scale(cc.Sub(prev[ic]), ww))
		apart := vecmath.Dot(x.Sub(prev[c.p]).Sub(tri), n)
		r := min(apart, c.pushed)
		wp, wa, wb, wc := inv[c.p], inv[ia], inv[ib], inv[ic]
		if x == prev[c.p] {
			wp = 0
		}
		if sc.oneWay {
			wa, wb, wc = 0, 0, 0
		}
		den := wp + float32(u*u*wa) + float32(v*v*wb) + float32(ww*ww*wc)
		if r <= 0 || den == 0 {
			continue
		}
		s := r / den
		prev[c.p] = prev[c.p].Add(vecmath.Scale(n, float32(wp*s)))
		prev[ia] = prev[ia].Sub(vecmath.Scale(n, float32(wa*u*s)))
		prev[ib] = prev[ib].Sub(vecmath.Scale(n, float32(wb*v*s)))
		prev[ic] = prev[ic].Sub(vecmath.Scale(n, float32(wc*ww*s)))
	}
}

var (
	_ verlet3d.ConstraintSet = surfaceHooks{}
	_ verlet3d.Finisher      = surfaceHooks{}
)
