package verlet3d

import (
	"fmt"
	"github.com/drape3d/drape/internal/vecmath"
	"math"
	"unsafe"

	"github.com/go-gl/mathgl/mgl32"
)

// Link is a handle to a distance constraint between two particles.
type Link int32

// LinkSettings describe one distance link. The zero value is a rigid link
// whose rest length is the particles' current distance.
type LinkSettings struct {
	// Rest is the rest length in meters; 0 takes the particles' distance.
	Rest float32
	// Compliance is the XPBD compliance in m/N (inverse stiffness): 0 is
	// rigid, 1e-6 is stiff fabric, 1e-3 is rubbery. Default 0.
	Compliance float32
	// Stiffness, when in (0, 1], switches the link to Jakobsen relaxation:
	// each pass removes this fraction of the error. Its feel then depends
	// on the iteration count. 0 (default) means XPBD with Compliance.
	Stiffness float32
	// TensionOnly makes a string instead of a rod: the link resists
	// stretching but not compression.
	TensionOnly bool
	// BreakStrain breaks the link when (length - rest)/rest exceeds it at
	// the end of a substep; 0 (default) never breaks. 0.5 tears at 150%.
	BreakStrain float32
}

const (
	linkTensionOnly uint8 = 1 << iota
	linkJakobsen
	linkBroken
	// linkIdle: the solver skips the link (SetLinksIdle).
	linkIdle
)

// linkHot is what the solver reads every iteration: 24 bytes per link.
// For Jakobsen links, alpha holds the stiffness. The XPBD multipliers live
// apart, in linkStore.lambda, which a substep's first pass writes without
// reading.
type linkHot struct {
	a, b   int32
	rest   float32
	alpha  float32 // compliance (m/N), or stiffness for Jakobsen links
	invDen float32 // 1/(wa + wb + alpha/h²) (1/(wa + wb) for Jakobsen), 0 when both are pinned; kept by linkStore.prepare
	flags  uint8
}

// linkStore keeps links in color order for the solver, with a slot table
// from handle to solver index and the cold per-link data by handle.
type linkStore struct {
	hot     []linkHot // solver order: color by color
	lambda  []float32 // XPBD multiplier of hot[i], set by each substep's first pass
	slot    []int32   // Link handle -> index in hot; -1 when removed
	handle  []int32   // index in hot -> Link handle
	strain  []float32 // BreakStrain by handle
	batches []int32   // color boundaries in hot: batch i is hot[batches[i]:batches[i+1]]
	serial  int32     // hot[serial:]: the tail after the batches (rare colors), or the links between regions
	// regions, when not empty, replaces batches for a large link set
	// (colorRegions): region r's links are hot[regions[r]:regions[r+1]],
	// all between particles of one range of indices and so disjoint from
	// every other region's; the links between regions follow from
	// hot[serial:] (serial == regions[len(regions)-1]).
	regions []int32
	// regionParticles is the particle count regions were cut for: region
	// r holds particles [regionStart(r), regionStart(r+1)).
	regionParticles int32
	// pairs, with regions: the links between regions 2k and 2k+1 are
	// hot[pairs[k]:pairs[k+1]]. Unit k of a pass is regions 2k and 2k+1
	// with their pair's links.
	pairs []int32
	// odds, with regions: the links between regions 2k+1 and 2k+2 are
	// hot[odds[k]:odds[k+1]], and the rest (farther apart) is
	// hot[odds[len(odds)-1]:].
	odds    []int32
	dirty   bool // links added or removed since the last coloring
	live    int
	nBroken int // broken links still in hot
	// breakable counts links made with a BreakStrain (never decreased):
	// while 0 the post phase skips the breakage scan.
	breakable int
	removed   int
	colorOf   []uint64 // scratch for coloring: colors used per particle
	// The inputs invDen was last computed for: World.massGen and 1/h².
	// prepared is false when hot changed since.
	prepared    bool
	preparedGen uint64
	preparedH2  float32
	// groups and groupOK (linkvec.go): group g covers hot[8g:8g+8], and
	// the link kernel, or without kernels solveLinkGroupsGo, solves it
	// when groupOK[g]. Kept by prepare.
	groups    []linkGroup
	groupOK   []bool
	groupIdle []bool  // no link of the group is solved (idle or broken)
	groupNear []bool  // the kernel loads the group's particles exactly (linkGroupArgs.exact; markNear)
	wroteBy   []int32 // markNear's scratch: by particle, 1 + the last group that wrote it
	// goGroups: the kernels are off, and groupOK marks the groups of plain
	// XPBD links, which solveLinkGroupsGo solves (they may share particles).
	goGroups bool
	groupGo  []uint8 // without kernels: what solveLinkGroupsGo may assume of the group (goSep, goSameW)
	// active is how many links are neither idle nor broken, as prepare
	// last counted (every change that makes a link active unsets
	// prepared). With none, World.solve runs no pass at all: a World of
	// cubes alone (whose links bodies keeps idle) dispatches no link job.
	active int
}

// prepare sets every link's inverse denominator for the current inverse
// masses and substep length, if either changed since it last ran (or the
// links did), so that a pass neither recomputes nor divides by it per link
// (a division costs about as much as the rest of a link's arithmetic).
//
// With kernels, it also marks the groups the link kernel solves
// (prepareGroups).
func (ls *linkStore) prepare(invMass []float32, gen uint64, invH2 float32, kernels bool) {
	if ls.prepared && ls.preparedGen == gen && ls.preparedH2 == invH2 {
		return
	}
	ls.active = 0
	for i := range ls.hot {
		c := &ls.hot[i]
		if c.flags&(linkIdle|linkBroken) == 0 {
			ls.active++
		}
		den := invMass[c.a] + invMass[c.b]
		c.invDen = 0
		if den == 0 {
			// Both ends pinned: nothing to move. (With a compliance as
			// small as 4e-45 m/N, 1/(alpha/h²) overflowed to +Inf, and
			// 0·Inf put NaN into the pinned particles.)
			continue
		}
		if c.flags&linkJakobsen == 0 {
			den += float32(c.alpha * invH2)
		}
		c.invDen = 1 / den
	}
	if ls.active == 0 {
		// As a first pass leaves the multipliers of idle and broken
		// links, since no pass will run.
		clear(ls.lambda)
	}
	ls.prepareGroups(invMass, invH2, kernels)
	ls.prepared, ls.preparedGen, ls.preparedH2 = true, gen, invH2
}

// AddLink joins a and b with a distance constraint.
func (w *World) AddLink(a, b Particle, s LinkSettings) (Link, error) {
	w.Wake()
	w.check(a)
	w.check(b)
	if a == b {
		return -1, fmt.Errorf("verlet3d: AddLink(%d, %d): a link needs two different particles", a, b)
	}
	rest := s.Rest
	if rest == 0 {
		rest = vecmath.Len(w.pos[a].Sub(w.pos[b]))
	}
	switch {
	case !inRange(rest, MaxCoordinate) || rest < 0:
		return -1, fmt.Errorf("verlet3d: LinkSettings.Rest = %v (length %v), want meters in [0, %g]", s.Rest, rest, float32(MaxCoordinate))
	case !inRange(s.Compliance, MaxCompliance) || s.Compliance < 0:
		return -1, fmt.Errorf("verlet3d: LinkSettings.Compliance = %v, want m/N in [0, %g]", s.Compliance, float32(MaxCompliance))
	case !finite(s.Stiffness) || s.Stiffness < 0 || s.Stiffness > 1:
		return -1, fmt.Errorf("verlet3d: LinkSettings.Stiffness = %v, want 0 (XPBD) or (0, 1]", s.Stiffness)
	case !finite(s.BreakStrain) || s.BreakStrain < 0:
		return -1, fmt.Errorf("verlet3d: LinkSettings.BreakStrain = %v, want >= 0 (0 never breaks)", s.BreakStrain)
	}
	alpha, flags := s.Compliance, uint8(0)
	if s.Stiffness > 0 {
		flags |= linkJakobsen
		alpha = s.Stiffness
	}
	if s.TensionOnly {
		flags |= linkTensionOnly
	}
	h := linkHot{a: int32(a), b: int32(b), rest: rest, alpha: alpha, flags: flags}
	ls := &w.links
	l := Link(len(ls.slot))
	ls.slot = append(ls.slot, int32(len(ls.hot)))
	ls.handle = append(ls.handle, int32(l))
	ls.hot = append(ls.hot, h)
	ls.lambda = append(ls.lambda, 0)
	ls.prepared = false
	ls.strain = append(ls.strain, s.BreakStrain)
	if s.BreakStrain > 0 {
		ls.breakable++
	}
	ls.live++
	ls.dirty = true
	return l, nil
}

func (w *World) checkLink(l Link) *linkHot {
	ls := &w.links
	if l < 0 || int(l) >= len(ls.slot) {
		panic(fmt.Sprintf("verlet3d: link handle %d out of range [0, %d)", l, len(ls.slot)))
	}
	i := ls.slot[l]
	if i < 0 {
		panic(fmt.Sprintf("verlet3d: link %d was removed", l))
	}
	return &ls.hot[i]
}

// RemoveLink deletes l. Using l afterwards panics.
func (w *World) RemoveLink(l Link) {
	w.Wake()
	w.checkLink(l)
	ls := &w.links
	i := ls.slot[l]
	if ls.hot[i].flags&linkBroken != 0 {
		ls.nBroken--
	}
	ls.hot[i].flags |= linkBroken
	ls.slot[l] = -1
	ls.handle[i] = -1
	ls.live--
	ls.removed++
	ls.dirty = true
}

// LinkParticles returns the two particles l joins.
func (w *World) LinkParticles(l Link) (a, b Particle) {
	h := w.checkLink(l)
	return Particle(h.a), Particle(h.b)
}

// SetLinkParticles re-attaches link l to particles a and b, keeping its
// rest length, compliance and other settings: a component that tears a
// mesh moves the links of a split vertex onto its new copy with it (as
// cloth's tearing does). It panics on a stale or out-of-range handle.
func (w *World) SetLinkParticles(l Link, a, b Particle) {
	w.Wake()
	w.check(a)
	w.check(b)
	h := w.checkLink(l)
	h.a, h.b = int32(a), int32(b)
	w.links.dirty = true
}

// SetLinksIdle marks links [first, first+n) idle, so that the solver
// skips them, or active again. A component that holds the particles of
// some links where the links would (bodies does for an asleep cube, whose
// particles it puts back where they sleep every substep) spares the World
// solving links that would not move them. Removed handles in the range
// are passed over. It panics on a range outside the World's link handles.
func (w *World) SetLinksIdle(first Link, n int, idle bool) {
	ls := &w.links
	if first < 0 || n < 0 || int(first)+n > len(ls.slot) {
		panic(fmt.Sprintf("verlet3d: SetLinksIdle(%d, %d): links out of range [0, %d)", first, n, len(ls.slot)))
	}
	for _, i := range ls.slot[first : int(first)+n] {
		if i < 0 {
			continue
		}
		h := &ls.hot[i]
		f := h.flags &^ linkIdle
		if idle {
			f |= linkIdle
		}
		if f != h.flags {
			h.flags = f
			ls.prepared = false
		}
	}
}

// LinkRest returns the rest length of l in meters.
func (w *World) LinkRest(l Link) float32 { return w.checkLink(l).rest }

// SetLinkRest changes the rest length of l in meters.
func (w *World) SetLinkRest(l Link, rest float32) {
	w.Wake()
	h := w.checkLink(l)
	if !finite(rest) || rest < 0 {
		panic(fmt.Sprintf("verlet3d: SetLinkRest(%d, %v): want meters >= 0", l, rest))
	}
	h.rest = rest
	w.links.prepared = false
}

// LinkCompliance returns the XPBD compliance of l in m/N (0 for a
// Jakobsen link, which has a stiffness instead).
func (w *World) LinkCompliance(l Link) float32 {
	h := w.checkLink(l)
	if h.flags&linkJakobsen != 0 {
		return 0
	}
	return h.alpha
}

// SetLinkCompliance changes the XPBD compliance of l in m/N, from the next
// substep on: a slider that softens or stiffens cloth live, without
// rebuilding it. A Jakobsen link (LinkSettings.Stiffness) becomes an XPBD
// link. A compliance outside [0, MaxCompliance] or not finite panics, as a
// bad rest length does in SetLinkRest.
func (w *World) SetLinkCompliance(l Link, compliance float32) {
	w.Wake()
	h := w.checkLink(l)
	if !inRange(compliance, MaxCompliance) || compliance < 0 {
		panic(fmt.Sprintf("verlet3d: SetLinkCompliance(%d, %v): want m/N in [0, %g]", l, compliance, float32(MaxCompliance)))
	}
	h.alpha = compliance
	h.flags &^= linkJakobsen
	w.links.prepared = false
}

// LinkBroken reports whether l broke under strain.
func (w *World) LinkBroken(l Link) bool { return w.checkLink(l).flags&linkBroken != 0 }

// LinkStrain returns (length - rest)/rest for l: 0.05 is 5% stretched.
func (w *World) LinkStrain(l Link) float32 {
	h := w.checkLink(l)
	if h.rest == 0 {
		return 0
	}
	return (vecmath.Len(w.pos[h.a].Sub(w.pos[h.b])) - h.rest) / h.rest
}

// BreakLink breaks l now as if strained past its limit; it is reported by
// Broken and OnBreak. Breaking a broken link does nothing.
func (w *World) BreakLink(l Link) {
	w.Wake()
	h := w.checkLink(l)
	if h.flags&linkBroken != 0 {
		return
	}
	h.flags |= linkBroken
	w.links.prepared = false
	w.links.nBroken++
	w.stats.LinksBroken++
	w.broken = append(w.broken, l)
	if w.onBreak != nil {
		w.onBreak(l)
	}
}

// NumLinks returns the number of links that exist (broken ones included
// until removed).
func (w *World) NumLinks() int { return w.links.live }

// MaxLinkStrain returns the largest strain over all unbroken links.
func (w *World) MaxLinkStrain() float32 {
	var m float32
	for i := range w.links.hot {
		h := &w.links.hot[i]
		if h.flags&linkBroken != 0 || h.rest == 0 {
			continue
		}
		s := (vecmath.Len(w.pos[h.a].Sub(w.pos[h.b])) - h.rest) / h.rest
		if s > m {
			m = s
		}
	}
	return m
}

// Broken returns the links that broke during the last Step or Advance call.
// The slice is reused by the next call.
func (w *World) Broken() []Link { return w.broken }

// OnBreak sets a function called for every link as it breaks, during Step.
func (w *World) OnBreak(f func(Link)) { w.onBreak = f }

// color sorts links into batches in which no two links share a particle,
// so that a batch can be solved in any order, or in parallel, with the same
// result. Greedy coloring in handle order keeps it deterministic. Colors
// with few links go to one serial tail, solved after the parallel batches.
func (ls *linkStore) color(nParticles int) {
	const minParallel = 256
	// Collect live links in handle order.
	live := make([]linkItem, 0, ls.live)
	for l, i := range ls.slot {
		if i < 0 {
			continue
		}
		live = append(live, linkItem{ls.hot[i], int32(l)})
	}
	if cap(ls.colorOf) < nParticles {
		ls.colorOf = make([]uint64, nParticles)
	}
	used := ls.colorOf[:nParticles]
	clear(used)
	ls.regions, ls.pairs, ls.odds = ls.regions[:0], ls.pairs[:0], ls.odds[:0]
	if len(live) >= minRegionLinks {
		ls.colorRegions(live, nParticles)
		return
	}
	colorIdx := make([]int8, len(live))
	var count [65]int32
	for k, it := range live {
		m := used[it.h.a] | used[it.h.b]
		c := 64 // serial: ran out of colors
		if m != math.MaxUint64 {
			for c = 0; m&(1<<uint(c)) != 0; c++ {
			}
			used[it.h.a] |= 1 << uint(c)
			used[it.h.b] |= 1 << uint(c)
		}
		colorIdx[k] = int8(c)
		count[c]++
	}
	// Small colors are not worth a barrier each: send them to the serial tail.
	for c := 0; c < 64; c++ {
		if count[c] > 0 && count[c] < minParallel {
			for k := range live {
				if colorIdx[k] == int8(c) {
					colorIdx[k] = 64
				}
			}
			count[64] += count[c]
			count[c] = 0
		}
	}
	var start [66]int32
	ls.batches = ls.batches[:0]
	var off int32
	for c := 0; c <= 64; c++ {
		start[c] = off
		if c < 64 && count[c] > 0 {
			ls.batches = append(ls.batches, off)
		}
		off += count[c]
	}
	ls.serial = start[64]
	ls.batches = append(ls.batches, ls.serial)
	hot := make([]linkHot, len(live))
	handle := make([]int32, len(live))
	for k, it := range live {
		c := colorIdx[k]
		i := start[c]
		start[c]++
		hot[i] = it.h
		handle[i] = it.handle
	}
	levelOrder(hot[ls.serial:], handle[ls.serial:], used)
	for i, hd := range handle {
		ls.slot[hd] = int32(i)
	}
	ls.finishColor(hot, handle)
}

// levelOrder reorders a serial run of links, given in handle order, so that
// links next to each other rarely share a particle, without changing the
// result by a single bit. A link's level is one more than the highest level
// of the earlier links that share a particle with it; sorting by level
// (stably) keeps every pair of links that share a particle in its order, and
// Gauss-Seidel's result depends only on that. Links of one level share no
// particle, so the processor overlaps their square roots and divisions
// instead of waiting for each link's write before the next link's read (a
// cape's links in handle order form a chain, each waiting on the last).
// scratch holds one word per particle.
func levelOrder(hot []linkHot, handle []int32, scratch []uint64) {
	if len(hot) < 2 {
		return
	}
	clear(scratch)
	level := make([]int32, len(hot))
	var maxLevel int32
	for k := range hot {
		a, b := hot[k].a, hot[k].b
		l := int32(max(scratch[a], scratch[b])) + 1
		scratch[a], scratch[b] = uint64(l), uint64(l)
		level[k] = l
		maxLevel = max(maxLevel, l)
	}
	start := make([]int32, maxLevel+2)
	for _, l := range level {
		start[l+1]++
	}
	for l := 1; l < len(start); l++ {
		start[l] += start[l-1]
	}
	srcHot := append([]linkHot(nil), hot...)
	srcHandle := append([]int32(nil), handle...)
	for k, l := range level {
		i := start[l]
		start[l]++
		hot[i], handle[i] = srcHot[k], srcHandle[k]
	}
}

// linkItem is a link and its handle, while coloring.
type linkItem struct {
	h      linkHot
	handle int32
}

// Region partitioning of a large link set (colorRegions).
const (
	// minRegionLinks is the smallest link count split into regions. From
	// 2,048 links regions gain on one worker and on two; below it (a cape's
	// 1,730 links) the regions are too small to pay for the work they hand
	// between workers (BENCHMARKS.md, "Thresholds").
	minRegionLinks = 2048
	// manyRegionLinks is the smallest link count cut into manyRegions
	// regions instead of fewRegions. The count depends on the links
	// alone, not on Config.Workers, so that the solve order, and so the
	// result, is the same for any worker count. Sixteen regions beat four
	// from a 48 x 48 cloth (13,346 links) up; on a 36 x 36 one (7,418)
	// regions of 81 particles are too small (more links between them,
	// shorter runs for the processor).
	manyRegionLinks = 12288
	fewRegions      = 4
	manyRegions     = 16
	// mostRegions is the region count for a large link set over at least
	// mostRegions·minRegionParticles particles: the best region holds
	// about 128-150 particles (thirty-two beat sixteen at 64 x 64 and
	// 96 x 96, lose at 48 x 48). Smaller regions keep a color's particles
	// closer together, until the links between regions (41% of them at
	// 64 x 64) cost more than that saves.
	mostRegions        = 32
	minRegionParticles = 128
)

// numRegions is how many regions colorRegions cuts n links over
// particles into.
func numRegions(n, particles int) int {
	switch {
	case n < manyRegionLinks:
		return fewRegions
	case particles >= mostRegions*minRegionParticles:
		return mostRegions
	}
	return manyRegions
}

// colorRegions orders a large link set for solving without a barrier per
// color: the particles are cut into R = numRegions ranges of indices (a
// component adds its particles together, so a range is a band of a
// cloth), a link with both ends in one range belongs to that region, and
// the links that cross go to a tail solved after the regions. Regions
// share no particle, so workers solve them at once, with no barrier in a
// pass (one a color before regions: twelve for a cloth with bend links).
//
// The tail is itself ordered in groups: first the links between regions
// 0 and 1, then those between 2 and 3, and so on (R/2 pairs, which share
// no particle with each other); then the links between 1 and 2, 3 and 4
// (R/2-1 odd boundaries, which share none either); then the rest (farther
// apart, none for a cloth whose regions hold two rows or more). A pass
// (World.solveLinksShared) hands out units, a unit being two regions and
// their pair's links; each odd boundary is solved as soon as the units on
// both sides are done, and the rest by the caller at the end. Solving a
// unit's links before the regions of other units, and an odd boundary
// before units that do not touch it, gives the same result as the order
// in hot, since those share none of their particles; so every worker
// count, and every way of handing out units, steps to the same bits.
// Within a region, and within each group of the tail, links are greedily
// colored in handle order and stored color by color, so that links
// solved one after another rarely share a particle and the processor
// overlaps them.
func (ls *linkStore) colorRegions(live []linkItem, nParticles int) {
	nr := numRegions(len(live), nParticles)
	pairs := nr / 2
	odds := pairs - 1
	groups := nr + pairs + odds + 1 // regions, pairs, odd boundaries, the rest
	region := func(p int32) int { return int(p) * nr / nParticles }
	group := make([]int16, len(live))
	for k, it := range live {
		ra, rb := region(it.h.a), region(it.h.b)
		lo, hi := min(ra, rb), max(ra, rb)
		switch {
		case lo == hi:
			group[k] = int16(lo)
		case hi == lo+1 && lo%2 == 0:
			group[k] = int16(nr + lo/2)
		case hi == lo+1:
			group[k] = int16(nr + pairs + lo/2)
		default:
			group[k] = int16(groups - 1)
		}
	}
	// The links of each group, in handle order (a stable counting sort:
	// one pass over the links, not one a group).
	first := make([]int32, groups+1)
	for _, g := range group {
		first[g+1]++
	}
	for g := range groups {
		first[g+1] += first[g]
	}
	byGroup := make([]int32, len(live))
	next := append([]int32(nil), first[:groups]...)
	for k, g := range group {
		byGroup[next[g]] = int32(k)
		next[g]++
	}
	// Greedy colors within each group (colorOf is per particle; only
	// the tail's groups overlap the regions' particles, and each is
	// colored afresh: a tail group clears what it set).
	used := ls.colorOf[:nParticles]
	colorIdx := make([]int8, len(live))
	perColor := make([][65]int32, groups)
	for g := 0; g < groups; g++ {
		members := byGroup[first[g]:first[g+1]]
		if g == nr {
			clear(used)
		}
		for _, k := range members {
			it := &live[k]
			m := used[it.h.a] | used[it.h.b]
			c := 64
			if m != math.MaxUint64 {
				for c = 0; m&(1<<uint(c)) != 0; c++ {
				}
				used[it.h.a] |= 1 << uint(c)
				used[it.h.b] |= 1 << uint(c)
			}
			colorIdx[k] = int8(c)
			perColor[g][c]++
		}
		if g >= nr {
			for _, k := range members {
				used[live[k].h.a], used[live[k].h.b] = 0, 0
			}
		}
	}
	// Place group by group, color by color.
	start := make([][65]int32, groups)
	var off int32
	ls.regions, ls.pairs, ls.odds = ls.regions[:0], ls.pairs[:0], ls.odds[:0]
	ls.regionParticles = int32(nParticles)
	for g := 0; g < groups; g++ {
		switch {
		case g < nr:
			ls.regions = append(ls.regions, off)
		case g < nr+pairs:
			if g == nr {
				ls.regions = append(ls.regions, off)
				ls.serial = off
			}
			ls.pairs = append(ls.pairs, off)
		default:
			if g == nr+pairs {
				ls.pairs = append(ls.pairs, off)
			}
			ls.odds = append(ls.odds, off) // the last is where the rest starts
		}
		for c := 0; c <= 64; c++ {
			start[g][c] = off
			off += perColor[g][c]
		}
	}
	hot := make([]linkHot, len(live))
	handle := make([]int32, len(live))
	for k, it := range live {
		g, c := group[k], colorIdx[k]
		i := start[g][c]
		start[g][c]++
		hot[i] = it.h
		handle[i] = it.handle
		ls.slot[it.handle] = i
	}
	ls.batches = ls.batches[:0]
	ls.finishColor(hot, handle)
}

// shared reports whether the workers share the passes: a set cut into
// regions. Otherwise one goroutine solves hot in order, which gives the
// same result. A set too small for regions is not shared color by color:
// half a batch of a few hundred links takes less time than the barrier
// after it (100 cubes' 3,600 links in 9 colors of 400 would need 180
// barriers a step, and 2 workers would be slower than 1).
func (ls *linkStore) shared() bool { return len(ls.regions) > 0 }

// regionStart is the first particle of region r (colorRegions puts
// particle p in region p·R/n), or n for r = R.
func (ls *linkStore) regionStart(r int) int {
	n, nr := int(ls.regionParticles), len(ls.regions)-1
	return (r*n + nr - 1) / nr
}

// finishColor installs the reordered links.
func (ls *linkStore) finishColor(hot []linkHot, handle []int32) {
	ls.hot, ls.handle = hot, handle
	if cap(ls.lambda) < len(hot) {
		ls.lambda = make([]float32, len(hot))
	}
	ls.lambda = ls.lambda[:len(hot)]
	ls.prepared = false
	ls.removed = 0
	ls.dirty = false
}

// solveLinkRange is one pass of solveLinks over the World's links
// [lo, hi) in solver order.
func (w *World) solveLinkRange(lo, hi int) {
	w.links.solveRange(lo, hi, w.pos, w.invMass, w.run.invH2, w.run.firstPass, !w.run.firstPass || w.cfg.Iterations > 1)
}

// solveLinks runs one solver pass over hot, whose multipliers are lambda
// (the same length). Plain XPBD links take the straight path; links with
// any flag (broken, string, Jakobsen) take solveLinkFlagged. Writes to a
// particle of zero inverse mass add zero, and a color batch never shares
// a particle, so no branch guards them; a link between two pinned
// particles (inverse denominator 0) moves nothing and keeps a zero
// multiplier without a branch either. The inverse denominator comes
// precomputed (linkStore.prepare).
//
// On a substep's first pass (first) every multiplier starts at zero: the
// pass writes lambda instead of reading it, so it needs no clearing.
//
// The loop reads positions and inverse masses through unsafe pointers: it
// is most of a cloth's step, and the four bounds checks per link were an
// eighth of its instructions. That is safe because linkStore.prepare has
// indexed invMass (with bounds checks) by every link's two particles since
// hot last changed, particles are never removed, and pos and invMass always
// have one entry per particle.
func solveLinks(hot []linkHot, lambda []float32, pos []mgl32.Vec3, invMass []float32, invH2 float32, first bool) {
	if len(hot) == 0 {
		return
	}
	if len(invMass) != len(pos) {
		panic("verlet3d: solveLinks: positions and inverse masses differ in length")
	}
	lambda = lambda[:len(hot)]
	p0 := unsafe.Pointer(unsafe.SliceData(pos))
	m0 := unsafe.Pointer(unsafe.SliceData(invMass))
	// c walks hot by pointer: indexing hot[i] field by field made the
	// compiler recompute &hot[i] for every field.
	c := &hot[0]
	for i := range hot {
		if i > 0 {
			c = (*linkHot)(unsafe.Add(unsafe.Pointer(c), unsafe.Sizeof(linkHot{})))
		}
		if c.flags != 0 {
			solveLinkFlagged(c, &lambda[i], pos, invMass, invH2, first)
			continue
		}
		ia, ib := uintptr(c.a), uintptr(c.b)
		pa := (*[3]float32)(unsafe.Add(p0, ia*12))
		pb := (*[3]float32)(unsafe.Add(p0, ib*12))
		wa := *(*float32)(unsafe.Add(m0, ia*4))
		wb := *(*float32)(unsafe.Add(m0, ib*4))
		ax, ay, az := pa[0], pa[1], pa[2]
		bx, by, bz := pb[0], pb[1], pb[2]
		dx, dy, dz := bx-ax, by-ay, bz-az
		d2 := float32(dx*dx) + float32(dy*dy) + float32(dz*dz)
		if d2 < 1e-18 {
			if first {
				lambda[i] = 0
			}
			continue // degenerate: no direction to push along
		}
		d := float32(math.Sqrt(float64(d2)))
		var lam float32
		if !first {
			lam = lambda[i]
		}
		dl := float32((c.rest - d - float32(c.alpha*invH2*lam)) * c.invDen)
		lambda[i] = lam + dl
		s := dl / d
		ka, kb := float32(wa*s), float32(wb*s)
		pa[0], pa[1], pa[2] = ax-float32(ka*dx), ay-float32(ka*dy), az-float32(ka*dz)
		pb[0], pb[1], pb[2] = bx+float32(kb*dx), by+float32(kb*dy), bz+float32(kb*dz)
	}
}

func solveLinkFlagged(c *linkHot, lambda *float32, pos []mgl32.Vec3, invMass []float32, invH2 float32, first bool) {
	if first {
		*lambda = 0
	}
	if c.flags&(linkBroken|linkIdle) != 0 {
		return
	}
	pa, pb := &pos[c.a], &pos[c.b]
	dx, dy, dz := pb[0]-pa[0], pb[1]-pa[1], pb[2]-pa[2]
	d2 := float32(dx*dx) + float32(dy*dy) + float32(dz*dz)
	if d2 < 1e-18 {
		return
	}
	d := float32(math.Sqrt(float64(d2)))
	C := d - c.rest
	if C < 0 && c.flags&linkTensionOnly != 0 {
		return
	}
	wa, wb := invMass[c.a], invMass[c.b]
	wsum := wa + wb
	if wsum == 0 {
		return
	}
	var dl float32
	if c.flags&linkJakobsen != 0 {
		dl = float32(-c.alpha * C * c.invDen)
	} else {
		dl = float32((-C - float32(c.alpha*invH2**lambda)) * c.invDen)
		*lambda += dl
	}
	s := dl / d
	ka, kb := float32(wa*s), float32(wb*s)
	pa[0] -= float32(ka * dx)
	pa[1] -= float32(ka * dy)
	pa[2] -= float32(ka * dz)
	pb[0] += float32(kb * dx)
	pb[1] += float32(kb * dy)
	pb[2] += float32(kb * dz)
}
