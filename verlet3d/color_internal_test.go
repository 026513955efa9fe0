package verlet3d

import (
	"fmt"
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
)

// Every color batch must be free of shared particles, or parallel solving
// would race and differ from serial solving.
func TestColorBatchesShareNoParticle(t *testing.T) {
	w := gridWorld(16) // under minRegionLinks: color batches
	ls := &w.links
	ls.color(w.NumParticles())
	total := 0
	for b := 0; b+1 < len(ls.batches); b++ {
		seen := map[int32]bool{}
		for _, h := range ls.hot[ls.batches[b]:ls.batches[b+1]] {
			if seen[h.a] || seen[h.b] {
				t.Fatalf("batch %d shares a particle", b)
			}
			seen[h.a], seen[h.b] = true, true
		}
		total += int(ls.batches[b+1] - ls.batches[b])
	}
	t.Logf("%d links in %d parallel batches, %d serial", len(ls.hot), len(ls.batches)-1, len(ls.hot)-int(ls.serial))
	if total+len(ls.hot)-int(ls.serial) != w.NumLinks() {
		t.Fatalf("batches hold %d links, want %d", total+len(ls.hot)-int(ls.serial), w.NumLinks())
	}
	if len(ls.batches)-1 > 16 {
		t.Errorf("%d colors for a grid whose particles touch 12 links: greedy coloring went wrong", len(ls.batches)-1)
	}
}

// A large link set is cut into regions: every region's links touch only
// its own range of particles (so regions can be solved at once), so do
// the links of every pair of regions 2k, 2k+1 and of every odd boundary
// 2k+1, 2k+2 (so pairs can be solved at once, then odd boundaries), every
// link is placed once, and none is left for one goroutine alone.
func TestRegionsShareNoParticle(t *testing.T) {
	for _, tc := range []struct {
		n, regions int
	}{
		{24, fewRegions},  // 3,218 links
		{36, fewRegions},  // 7,418
		{48, manyRegions}, // 13,346
		{64, mostRegions}, // 23,938 over 4,096 particles
		{96, mostRegions}, // 54,338
	} {
		w := gridWorld(tc.n)
		ls := &w.links
		np := w.NumParticles()
		ls.color(np)
		nr := tc.regions
		if len(ls.regions) != nr+1 || len(ls.pairs) != nr/2+1 || len(ls.odds) != nr/2 {
			t.Fatalf("%d links: %d region bounds, %d pair bounds, %d odd bounds; want %d, %d, %d",
				len(ls.hot), len(ls.regions), len(ls.pairs), len(ls.odds), nr+1, nr/2+1, nr/2)
		}
		if ls.regions[nr] != ls.serial || ls.pairs[0] != ls.serial || ls.odds[0] != ls.pairs[nr/2] {
			t.Fatalf("bounds do not follow on: regions %v, pairs %v, odds %v, serial %d", ls.regions, ls.pairs, ls.odds, ls.serial)
		}
		// within checks that the group hot[from:to] is not empty and
		// touches only particles of regions [r0, r1).
		within := func(name string, from, to int32, r0, r1 int) {
			lo, hi := int32(r0*np/nr), int32(r1*np/nr)
			if from >= to {
				t.Errorf("%d x %d: %s is empty", tc.n, tc.n, name)
			}
			for _, h := range ls.hot[from:to] {
				if h.a < lo || h.a >= hi || h.b < lo || h.b >= hi {
					t.Fatalf("%d x %d: %s holds link %d-%d outside particles [%d, %d)", tc.n, tc.n, name, h.a, h.b, lo, hi)
				}
			}
		}
		for r := 0; r < nr; r++ {
			within(fmt.Sprintf("region %d", r), ls.regions[r], ls.regions[r+1], r, r+1)
		}
		for k := 0; k < nr/2; k++ {
			within(fmt.Sprintf("pair %d", k), ls.pairs[k], ls.pairs[k+1], 2*k, 2*k+2)
		}
		for k := 0; k+1 < len(ls.odds); k++ {
			within(fmt.Sprintf("odd boundary %d", k), ls.odds[k], ls.odds[k+1], 2*k+1, 2*k+3)
		}
		seen := map[int32]int{}
		for i := range ls.hot {
			seen[ls.handle[i]]++
		}
		if len(seen) != w.NumLinks() || len(ls.hot) != w.NumLinks() {
			t.Fatalf("%d distinct links placed, %d slots, want %d", len(seen), len(ls.hot), w.NumLinks())
		}
		for hd, i := range ls.slot {
			if ls.handle[i] != int32(hd) {
				t.Fatalf("slot of link %d points at %d, which holds link %d", hd, i, ls.handle[i])
			}
		}
		rest := len(ls.hot) - int(ls.odds[len(ls.odds)-1])
		t.Logf("%d x %d: %d links, %d regions, %d in pairs, %d in odd boundaries, %d farther apart",
			tc.n, tc.n, len(ls.hot), nr, ls.pairs[nr/2]-ls.pairs[0], ls.odds[len(ls.odds)-1]-ls.odds[0], rest)
		if rest != 0 {
			t.Errorf("%d x %d: %d links between regions farther apart than neighbors, want none for regions of two rows or more", tc.n, tc.n, rest)
		}
	}
}

// gridWorld is an n x n grid of particles with structural, shear and
// distance-2 bend links: every particle touches 12 links.
func gridWorld(n int) *World {
	w, _ := NewWorld(DefaultConfig())
	for r := 0; r < n; r++ {
		for c := 0; c < n; c++ {
			w.AddParticle(mgl32.Vec3{float32(c), 0, float32(r)}, 1)
		}
	}
	at := func(r, c int) Particle { return Particle(r*n + c) }
	for r := 0; r < n; r++ {
		for c := 0; c < n; c++ {
			for _, d := range [][2]int{{0, 1}, {1, 0}, {1, 1}, {0, 2}, {2, 0}} {
				if r+d[0] < n && c+d[1] < n {
					w.AddLink(at(r, c), at(r+d[0], c+d[1]), LinkSettings{})
				}
			}
			if r+1 < n && c > 0 {
				w.AddLink(at(r, c), at(r+1, c-1), LinkSettings{})
			}
		}
	}
	return w
}

// The serial tail is reordered by level (levelOrder) for speed, which must
// not change a single bit of the result: one pass over the reordered links
// and one over the same links in handle order, from the same jumbled start,
// end with identical positions. And the reordering must pay: far fewer
// neighbors in the tail share a particle than in handle order.
func TestLevelOrderKeepsHandleOrderResult(t *testing.T) {
	w := gridWorld(12)
	ls := &w.links
	np := w.NumParticles()
	for i := range w.pos {
		f := float32(i)
		w.pos[i] = w.pos[i].Add(mgl32.Vec3{float32(0.3 * sin32(f)), float32(0.2 * sin32(float32(1.7*f))), float32(0.25 * sin32(float32(2.3*f)))})
	}
	w.invMass[0], w.invMass[5] = 0, 0
	byHandle := make([]linkHot, 0, len(ls.slot))
	for _, i := range ls.slot {
		byHandle = append(byHandle, ls.hot[i])
	}
	ls.color(np)
	if int(ls.serial) != 0 {
		t.Fatalf("a 12 x 12 grid has %d links in parallel batches; the test wants them all in the serial tail", ls.serial)
	}
	ls.prepare(w.invMass, w.massGen, 3600, false)
	for i := range byHandle {
		byHandle[i].invDen = ls.hot[ls.slot[i]].invDen
	}
	want := append([]mgl32.Vec3(nil), w.pos...)
	got := append([]mgl32.Vec3(nil), w.pos...)
	solveLinks(byHandle, make([]float32, len(byHandle)), want, w.invMass, 3600, true)
	solveLinks(ls.hot, make([]float32, len(ls.hot)), got, w.invMass, 3600, true)
	for i := range want {
		if want[i] != got[i] {
			t.Fatalf("particle %d: %v after the level order, %v in handle order", i, got[i], want[i])
		}
	}
	shared := func(hot []linkHot) int {
		n := 0
		for i := 1; i < len(hot); i++ {
			p, q := hot[i-1], hot[i]
			if p.a == q.a || p.a == q.b || p.b == q.a || p.b == q.b {
				n++
			}
		}
		return n
	}
	before, after := shared(byHandle), shared(ls.hot)
	t.Logf("%d links: %d neighbors share a particle in handle order, %d in level order", len(ls.hot), before, after)
	if after*10 > before {
		t.Errorf("level order leaves %d of %d neighbor pairs sharing a particle (handle order %d)", after, len(ls.hot)-1, before)
	}
}

func sin32(x float32) float32 { return float32(math.Sin(float64(x))) }
