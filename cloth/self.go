package cloth

import (
	"fmt"
	"github.com/drape3d/drape/internal/vecmath"
	"math"

	"github.com/drape3d/drape/verlet3d"
)

// SelfCollision keeps the particles of one Grid at least a distance apart
// so a folding cloth does not pass through itself. NewSelfCollision adds
// it to the grid's World and Remove takes it out. Once per substep it hashes the particles into a uniform
// grid of cells the size of the distance and lists the close pairs; every
// solver iteration pushes those pairs apart, weighted by inverse mass.
// Pairs that are closer than the distance in the rest shape (neighbors)
// are left to the links.
type SelfCollision struct {
	g    *Grid
	dist float32

	// Spatial hash, rebuilt every substep by counting sort.
	cellOf []uint32 // hash bucket of each render vertex
	start  []int32  // first entry of each bucket, len buckets+1
	items  []int32  // render vertices sorted by bucket
	pairs  [][2]int32
	hooks  selfHooks
}

// NewSelfCollision makes a self-collision set for g that keeps particles
// distance meters apart (about the spacing, or the cloth's thickness if
// larger). It returns an error for a non-finite or non-positive distance.
func NewSelfCollision(g *Grid, distance float32) (*SelfCollision, error) {
	if g == nil {
		panic("cloth: NewSelfCollision: Grid is nil")
	}
	if !finite(distance) || distance <= 0 {
		return nil, fmt.Errorf("cloth: self-collision distance = %v, want meters > 0", distance)
	}
	sc := &SelfCollision{g: g, dist: distance}
	sc.hooks = selfHooks{sc}
	g.w.AddConstraintSet(sc.hooks)
	return sc, nil
}

// Remove takes the self-collision out of the World.
func (sc *SelfCollision) Remove() { sc.g.w.RemoveConstraintSet(sc.hooks) }

// selfHooks is the self-collision's verlet3d.ConstraintSet, unexported so
// a game never sees solver plumbing.
type selfHooks struct{ sc *SelfCollision }

func (k selfHooks) Prepare(w *verlet3d.World, _ verlet3d.Substep) { k.sc.findPairs(w) }
func (k selfHooks) Solve(w *verlet3d.World, _ verlet3d.Substep)   { k.sc.pushApart(w) }

// Distance returns the minimum distance between particles in meters.
func (sc *SelfCollision) Distance() float32 { return sc.dist }

// Pairs returns how many close pairs the last substep found.
func (sc *SelfCollision) Pairs() int { return len(sc.pairs) }

func hashCell(x, y, z int32) uint32 {
	return uint32(x)*73856093 ^ uint32(y)*19349663 ^ uint32(z)*83492791
}

// findPairs finds the close pairs, once per substep.
func (sc *SelfCollision) findPairs(w *verlet3d.World) {
	g := sc.g
	pos, inv := w.Positions(), w.InvMasses()
	n := len(g.verts)
	buckets := 2 * n
	if cap(sc.cellOf) < n {
		sc.cellOf = make([]uint32, n)
		sc.items = make([]int32, n)
	}
	if cap(sc.start) < buckets+1 {
		sc.start = make([]int32, buckets+1)
	}
	cellOf, items, start := sc.cellOf[:n], sc.items[:n], sc.start[:buckets+1]
	clear(start)
	inv1 := 1 / sc.dist
	cell := func(x float32) int32 { return int32(math.Floor(float64(x * inv1))) }
	for i, p := range g.verts {
		x := pos[p]
		b := hashCell(cell(x[0]), cell(x[1]), cell(x[2])) % uint32(buckets)
		cellOf[i] = b
		start[b+1]++
	}
	for b := 0; b < buckets; b++ {
		start[b+1] += start[b]
	}
	// Fill using start as cursors, then shift back.
	for i := range g.verts {
		b := cellOf[i]
		items[start[b]] = int32(i)
		start[b]++
	}
	for b := buckets; b > 0; b-- {
		start[b] = start[b-1]
	}
	start[0] = 0

	sc.pairs = sc.pairs[:0]
	// Pairs found a little beyond the distance stay active for the whole
	// substep even if the solver moves them closer.
	reach := float32(sc.dist * 1.5)
	reach2 := float32(reach * reach)
	cols := int32(g.s.Cols)
	sp := g.s.Spacing
	restMin := sc.dist * sc.dist / (sp * sp) // in squared cells
	for i, p := range g.verts {
		x := pos[p]
		cx, cy, cz := cell(x[0]), cell(x[1]), cell(x[2])
		oi := g.origin[i]
		ri, ci := oi/cols, oi%cols
		for dz := int32(-1); dz <= 1; dz++ {
			for dy := int32(-1); dy <= 1; dy++ {
				for dx := int32(-1); dx <= 1; dx++ {
					b := hashCell(cx+dx, cy+dy, cz+dz) % uint32(buckets)
					for _, j := range items[start[b]:start[b+1]] {
						if j <= int32(i) {
							continue
						}
						q := g.verts[j]
						if inv[p] == 0 && inv[q] == 0 {
							continue
						}
						d := pos[q].Sub(x)
						if vecmath.Dot(d, d) >= reach2 {
							continue
						}
						oj := g.origin[j]
						dr, dc := float32(oj/cols-ri), float32(oj%cols-ci)
						if float32(dr*dr)+float32(dc*dc) < restMin {
							continue // neighbors in the rest shape
						}
						sc.pairs = append(sc.pairs, [2]int32{int32(p), int32(q)})
					}
				}
			}
		}
	}
	// Neighboring cells can hash to one bucket and list a pair twice;
	// solving it twice is harmless.
}

// pushApart pushes close pairs apart, once per solver pass.
func (sc *SelfCollision) pushApart(w *verlet3d.World) {
	pos, inv := w.Positions(), w.InvMasses()
	d0 := sc.dist
	for _, pr := range sc.pairs {
		a, b := pr[0], pr[1]
		d := pos[b].Sub(pos[a])
		l2 := vecmath.Dot(d, d)
		if l2 >= d0*d0 || l2 < 1e-18 {
			continue
		}
		wa, wb := inv[a], inv[b]
		l := float32(math.Sqrt(float64(l2)))
		s := (d0 - l) / (l * (wa + wb))
		pos[a] = pos[a].Sub(vecmath.Scale(d, float32(s*wa)))
		pos[b] = pos[b].Add(vecmath.Scale(d, float32(s*wb)))
	}
}

var (
	_ verlet3d.ConstraintSet = selfHooks{}
	_ verlet3d.ConstraintSet = gridHooks{}
	_ verlet3d.ForceField    = windHooks{}
)
