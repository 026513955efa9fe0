package verlet3d

import (
	"fmt"
	"math"
	"testing"

	"github.com/drape3d/drape/internal/golden"
	"github.com/go-gl/mathgl/mgl32"
)

// kernelWorld is a 48 x 48 grid (over 2,048 links, so colored in
// regions) with a jumbled start, two pinned particles, soft and rigid
// links, a string, a Jakobsen link, a broken link, idle links and one link
// of zero length, with its multipliers set to nonzero values.
func kernelWorld(t *testing.T) *World { return kernelGridWorld(t, 48) }

// kernelGridWorld is kernelWorld on an n x n grid (n >= 14). Under 2,048
// links (19 x 19) its links are a level-ordered serial run, whose groups
// read what the groups just before them wrote (linkStore.groupNear).
func kernelGridWorld(t *testing.T, n int) *World {
	t.Helper()
	w := gridWorld(n)
	for i := range w.pos {
		f := float32(i)
		w.pos[i] = w.pos[i].Add(mgl32.Vec3{float32(0.3 * sin32(f)), float32(0.2 * sin32(float32(1.7*f))), float32(0.25 * sin32(float32(2.3*f)))})
	}
	w.Pin(0)
	w.Pin(100)
	for l := Link(0); int(l) < w.NumLinks(); l += 7 {
		w.SetLinkCompliance(l, 1e-4)
	}
	a, b := w.LinkParticles(500)
	w.pos[b] = w.pos[a] // zero length: its group goes link by link
	if _, err := w.AddLink(3, 60, LinkSettings{TensionOnly: true}); err != nil {
		t.Fatal(err)
	}
	if _, err := w.AddLink(5, 70, LinkSettings{Stiffness: 0.5}); err != nil {
		t.Fatal(err)
	}
	w.BreakLink(900)
	ls := &w.links
	ls.color(len(w.pos))
	// Idle links: two whole groups and one among solved links.
	for _, i := range append(ls.handle[64:80:80], ls.handle[83]) {
		w.SetLinksIdle(Link(i), 1, true)
	}
	ls.prepare(w.invMass, w.massGen, 3600, w.kernels())
	for i := range ls.lambda {
		ls.lambda[i] = float32(1e-3 * sin32(float32(i)))
	}
	return w
}

// The link pass this build runs (solveRange: the kernel, or the Go
// groups of solveLinkGroupsGo) gives solveLinks' bits and those of
// testdata/kernel_link.txt (recorded with the kernel), positions and
// multipliers: over whole ranges and ranges cut mid-group, on a first pass
// and a later one, with pinned particles, flagged links (idle ones too)
// and a link of zero length among its groups; in the regions of a 48 x 48
// grid and the level-ordered run of a 19 x 19 one. Where the processor
// has the kernel, most groups go to it, with its 16-byte rows in the 48 x
// 48 grid's regions and its exact loads in the 19 x 19 run (the 48 x 48
// grid has a few near groups too, in the links between its regions).
func TestLinkKernelMatchesScalar(t *testing.T) {
	h := golden.NewHash()
	for _, c := range []struct {
		n                       int
		minOK, minNear, maxNear float64 // the share of groups in the kernel, and of those loaded exactly
	}{{48, 0.75, 0, 0.25}, {19, 0.2, 0.5, 1}} {
		t.Run(fmt.Sprintf("%dx%d", c.n, c.n), func(t *testing.T) {
			testLinkKernelMatchesScalar(t, h, c.n, c.minOK, c.minNear, c.maxNear)
		})
	}
	golden.Kernel(t, "link", h)
}

func testLinkKernelMatchesScalar(t *testing.T, h *golden.Hash, size int, minOK, minNear, maxNear float64) {
	vec, scalar := kernelGridWorld(t, size), kernelGridWorld(t, size)
	if haveKernels() {
		ok, near := 0, 0
		for g, k := range vec.links.groupOK {
			if k {
				ok++
				if vec.links.groupNear[g] {
					near++
				}
			}
		}
		if float64(ok) < minOK*float64(len(vec.links.groupOK)) {
			t.Fatalf("only %d of %d groups go to the kernel", ok, len(vec.links.groupOK))
		}
		if f := float64(near) / float64(ok); f < minNear || f > maxNear || near == 0 {
			t.Fatalf("%d of %d kernel groups are loaded exactly, want a share in [%v, %v] and at least one", near, ok, minNear, maxNear)
		}
	} else if !vec.links.goGroups {
		t.Fatal("without kernels the groups are not the Go loop's")
	}
	before := append([]mgl32.Vec3(nil), vec.pos...)
	compareLinkPasses(t, vec, scalar, "the kernel", h)
	moved := 0
	for i := range before {
		if !samebits(before[i], vec.pos[i]) {
			moved++
		}
	}
	if moved < len(before)/2 {
		t.Fatalf("the passes moved %d of %d particles, want half or more", moved, len(before))
	}
}

// compareLinkPasses runs passes over whole ranges and ranges cut
// mid-group, first passes and later ones, through solveRange on w and
// through solveLinks alone on ref (built alike), and fails at the first
// position or multiplier whose bits differ. With h, it adds w's positions
// and multipliers after each pass. The last pass is a substep's only one
// (keep false), whose multipliers nothing reads: only its positions count.
func compareLinkPasses(t *testing.T, w, ref *World, what string, h *golden.Hash) {
	t.Helper()
	n := len(w.links.hot)
	for _, r := range []struct {
		lo, hi      int
		first, keep bool
	}{{0, n, true, true}, {0, n, false, true}, {3, n - 5, false, true}, {13, 77, true, true}, {8, 16, false, true}, {n - 9, n, false, true}, {0, n, true, false}} {
		w.links.solveRange(r.lo, r.hi, w.pos, w.invMass, 3600, r.first, r.keep)
		ls := &ref.links
		solveLinks(ls.hot[r.lo:r.hi], ls.lambda[r.lo:r.hi], ref.pos, ref.invMass, 3600, r.first)
		for i := range w.pos {
			if !samebits(w.pos[i], ref.pos[i]) {
				t.Fatalf("range %v: particle %d at %v with %s, %v with solveLinks", r, i, w.pos[i], what, ref.pos[i])
			}
		}
		for i := range w.links.lambda {
			if r.keep && math.Float32bits(w.links.lambda[i]) != math.Float32bits(ls.lambda[i]) {
				t.Fatalf("range %v: multiplier %d is %v with %s, %v with solveLinks", r, i, w.links.lambda[i], what, ls.lambda[i])
			}
		}
		if h != nil {
			h.Vec3s(w.pos)
			if r.keep {
				h.Float32s(w.links.lambda...)
			}
		}
	}
}

// Without kernels, solveRange hands runs of plain groups to the Go loop
// solveLinkGroupsGo (in two sweeps where a group's links share no
// particle, one link after another where they do; with one product for
// links whose ends have one mass), which gives the same bits as
// solveLinks: the same cases as TestLinkKernelMatchesScalar, with links
// between two pinned particles (left to solveLinks), particles of two
// masses, and a link of zero length put in a group of the two-sweep kind
// too (which then goes link by link). The regions of the 48 x 48 grid give
// two-sweep groups, the level-ordered run of the 19 x 19 one both kinds.
func TestLinkGroupsGoMatchesScalar(t *testing.T) {
	shared := 0
	for _, n := range []int{48, 19} {
		t.Run(fmt.Sprintf("%dx%d", n, n), func(t *testing.T) {
			w, ref := kernelGridWorld(t, n), kernelGridWorld(t, n)
			for _, x := range []*World{w, ref} {
				// Links between two pinned particles (inverse denominator
				// 0, for solveLinks) and between particles of different
				// masses.
				x.Pin(1)
				x.Pin(Particle(n))
				for p := 3 * n; p < 5*n; p += 3 {
					if err := x.SetMass(Particle(p), 2); err != nil {
						t.Fatal(err)
					}
				}
				x.run.noKernels = true
				x.links.prepared = false
				x.links.prepare(x.invMass, x.massGen, 3600, x.kernels())
			}
			ls := &w.links
			if !ls.goGroups {
				t.Fatal("without kernels the groups are not the Go loop's")
			}
			plain, sep, sameW, smallDen, zero := 0, 0, 0, 0, -1
			for g, ok := range ls.groupOK {
				for _, c := range ls.hot[g*linkGroupSize : (g+1)*linkGroupSize] {
					if c.flags == 0 && c.invDen < minGoInvDen {
						smallDen++
						if ok {
							t.Fatalf("group %d has a link of inverse denominator %v and goes to the Go loop", g, c.invDen)
						}
					}
				}
				if ok {
					plain++
					if f := ls.groupGo[g]; f&goSep != 0 {
						sep++
						if f&goSameW != 0 {
							sameW++
							if zero < 0 && g > 2 {
								zero = g
							}
						}
					}
				}
			}
			shared += plain - sep
			if plain < len(ls.groupOK)/5 || sep == 0 || sameW == 0 || sameW == sep || smallDen == 0 {
				t.Fatalf("%d of %d groups go to the Go loop, %d of them in two sweeps (%d of one mass), %d links of small inverse denominator to solveLinks: want more of each", plain, len(ls.groupOK), sep, sameW, smallDen)
			}
			c := ls.hot[zero*linkGroupSize+3]
			for _, x := range []*World{w, ref} {
				x.pos[c.b] = x.pos[c.a]
			}
			compareLinkPasses(t, w, ref, "the Go groups", nil)
		})
	}
	if shared == 0 {
		t.Fatal("no group whose links share a particle went to the Go loop")
	}
}

func samebits(a, b mgl32.Vec3) bool {
	for k := range a {
		if math.Float32bits(a[k]) != math.Float32bits(b[k]) {
			return false
		}
	}
	return true
}

// The groups solveRange hands on hold no flagged link. Where the
// processor has the link kernel, a group of eight it takes never includes
// the last particle (the kernel reads 16 bytes per particle), nor links
// that share a particle. Without it, the Go loop takes groups whose links
// share particles too (one link after another), but a group it solves in
// two sweeps (goSep) shares none, one marked goSameW has ends of one
// inverse mass, and none holds a link of small inverse denominator.
func TestLinkGroupsAreDisjoint(t *testing.T) {
	w := kernelWorld(t)
	ls := &w.links
	if ls.goGroups == haveKernels() {
		t.Fatalf("the groups are the Go loop's %v with kernels %v", ls.goGroups, haveKernels())
	}
	last := int32(len(w.pos) - 1)
	taken, sep := 0, 0
	for g, ok := range ls.groupOK {
		if !ok {
			continue
		}
		taken++
		seen := map[int32]bool{}
		shares, sameW := false, true
		for _, c := range ls.hot[g*linkGroupSize : (g+1)*linkGroupSize] {
			if c.flags != 0 {
				t.Fatalf("group %d: link %d-%d is flagged (%d)", g, c.a, c.b, c.flags)
			}
			shares = shares || seen[c.a] || seen[c.b]
			sameW = sameW && math.Float32bits(w.invMass[c.a]) == math.Float32bits(w.invMass[c.b])
			if haveKernels() && (shares || c.a == last || c.b == last) {
				t.Fatalf("group %d: link %d-%d shares a particle or touches the last one", g, c.a, c.b)
			}
			if !haveKernels() && c.invDen < minGoInvDen {
				t.Fatalf("group %d: link %d-%d of inverse denominator %v goes to the Go loop", g, c.a, c.b, c.invDen)
			}
			seen[c.a], seen[c.b] = true, true
		}
		if !haveKernels() {
			f := ls.groupGo[g]
			if f&goSep != 0 == shares || f&goSameW != 0 != sameW {
				t.Fatalf("group %d: Go flags %b, but its links share a particle %v, have ends of one mass %v", g, f, shares, sameW)
			}
			if f&goSep != 0 {
				sep++
			}
		}
	}
	if taken < len(ls.groupOK)/2 || !haveKernels() && sep == 0 {
		t.Fatalf("%d of %d groups solved as groups (%d in two sweeps): want half or more", taken, len(ls.groupOK), sep)
	}
}

// BenchmarkLinkPassScalar and BenchmarkLinkPassGroups time one first pass
// over the links of a 64 x 64 cloth (the table's cloth64, top row pinned)
// without kernels, link by link (solveLinks) and through the Go groups
// (solveRange: solveLinkGroupsGo), in ns a link.
func BenchmarkLinkPassScalar(b *testing.B) { benchLinkPass(b, false) }
func BenchmarkLinkPassGroups(b *testing.B) { benchLinkPass(b, true) }

func benchLinkPass(b *testing.B, groups bool) {
	w := gridWorld(64)
	for i := range w.pos {
		f := float32(i)
		w.pos[i] = w.pos[i].Add(mgl32.Vec3{float32(0.03 * sin32(f)), float32(0.02 * sin32(float32(1.7*f))), float32(0.025 * sin32(float32(2.3*f)))})
	}
	for c := 0; c < 64; c++ {
		w.Pin(Particle(c))
	}
	for l := Link(0); int(l) < w.NumLinks(); l++ {
		w.SetLinkCompliance(l, 1e-5)
	}
	ls := &w.links
	ls.color(len(w.pos))
	w.run.noKernels = true
	ls.prepare(w.invMass, w.massGen, 3600, w.kernels())
	for b.Loop() {
		if groups {
			ls.solveRange(0, len(ls.hot), w.pos, w.invMass, 3600, true, true)
		} else {
			solveLinks(ls.hot, ls.lambda, w.pos, w.invMass, 3600, true)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(ls.hot)), "ns/link")
}
