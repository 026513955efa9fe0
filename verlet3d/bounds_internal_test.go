package verlet3d

import (
	"math"
	"math/rand"
	"testing"

	"github.com/drape3d/drape/internal/golden"
	"github.com/drape3d/drape/internal/vecmath"
	"github.com/go-gl/mathgl/mgl32"
)

// The block bounds this build builds (the kernel, or blockBox's Go loop)
// give the boxes, radii and groups of testdata/kernel_bounds.txt (recorded
// with the kernel), with and without the previous positions, for whole
// blocks (one of them pinned, one in a group no collider acts on) and the
// partial block at the end, and the collision broad phase then finds its
// contacts and clampOutside its positions. Where the processor has the
// kernel, it also gives the Go loop's boxes, contacts and positions.
func TestBlockBoundsKernelMatchesScalar(t *testing.T) {
	build := func() *World {
		w, err := NewWorld(DefaultConfig())
		if err != nil {
			t.Fatal(err)
		}
		r := rand.New(rand.NewSource(3))
		for i := 0; i < 3*blockSize+17; i++ {
			p := mgl32.Vec3{float32(r.Float32()*8) - 4, float32(r.Float32()*8) - 4, float32(r.Float32()*8) - 4}
			if _, err := w.AddParticle(p, 1); err != nil {
				t.Fatal(err)
			}
		}
		for i := range w.prev[:len(w.pos)] {
			w.prev[i] = w.pos[i].Add(vecmath.Scale(mgl32.Vec3{r.Float32() - 0.5, r.Float32() - 0.5, r.Float32() - 0.5}, 0.3))
			p := Particle(i)
			if err := w.SetRadius(p, float32(0.1*r.Float32())); err != nil {
				t.Fatal(err)
			}
			switch b := i / blockSize; {
			case b == 1:
				w.Pin(p) // no free particle: no groups
			case b == 2:
				w.SetGroup(p, 1<<4) // no collider acts on it
			case i%3 == 0:
				w.Pin(p)
			default:
				// Each of a kernel's eight lanes sees one group, so its
				// lanes must be ORed, not just compared.
				w.SetGroup(p, 1<<uint(i%8%3))
			}
		}
		ball, _ := NewSphere(mgl32.Vec3{0.5, -0.5, 0}, 1.5)
		if err := w.AddCollider(ball, ContactSettings{Mask: 7}); err != nil {
			t.Fatal(err)
		}
		return w
	}
	vec, scalar := build(), build()
	scalar.run.noKernels = true
	h := golden.NewHash()
	for _, withPrev := range []bool{true, false} {
		for _, w := range []*World{vec, scalar} {
			var prev []mgl32.Vec3
			if withPrev {
				prev = w.prev[:len(w.pos)]
			}
			w.buildBlocks(prev, w.cfg.ContactMargin)
		}
		if g := vec.run.blocks[1].groups; g != 0 {
			t.Fatalf("the pinned block's groups %b, want none", g)
		}
		if b := vec.run.blocks[2]; b.groups != 1<<4 || b.hi != (mgl32.Vec3{}) {
			t.Fatalf("the unmatched block %+v, want groups 10000 and no box", b)
		}
		for b := range vec.run.blocks {
			if vec.run.blocks[b] != scalar.run.blocks[b] {
				t.Fatalf("prev %v, block %d: %+v with the kernel, %+v without", withPrev, b, vec.run.blocks[b], scalar.run.blocks[b])
			}
			k := &vec.run.blocks[b]
			h.Vec3s([]mgl32.Vec3{k.lo, k.hi})
			h.Ints(int(k.groups))
		}
	}
	vec.collide(true)
	scalar.collide(true)
	if len(vec.contacts) == 0 || len(vec.contacts) != len(scalar.contacts) {
		t.Fatalf("%d contacts with the kernel, %d without (want equal, and some)", len(vec.contacts), len(scalar.contacts))
	}
	for i := range vec.contacts {
		if vec.contacts[i] != scalar.contacts[i] {
			t.Fatalf("contact %d: %+v with the kernel, %+v without", i, vec.contacts[i], scalar.contacts[i])
		}
		c := &vec.contacts[i]
		moving := 0
		if c.moving {
			moving = 1
		}
		h.Ints(int(c.p), int(c.collider), moving)
		h.Float32s(c.mu, c.e, c.vn, c.r, c.pushed)
		h.Vec3s([]mgl32.Vec3{c.surface, c.normal})
	}
	// The final guard projects the same particles out of the ball.
	moved := 0
	for _, w := range []*World{vec, scalar} {
		before := append([]mgl32.Vec3(nil), w.pos...)
		w.clampOutside()
		if w == vec {
			for i := range before {
				if before[i] != w.pos[i] {
					moved++
				}
			}
		}
	}
	if moved == 0 {
		t.Fatal("clampOutside moved no particle out of the ball: the test hardly tests")
	}
	for i := range vec.pos {
		if vec.pos[i] != scalar.pos[i] {
			t.Fatalf("particle %d clamped to %v with the kernel, %v without", i, vec.pos[i], scalar.pos[i])
		}
	}
	h.Ints(len(vec.contacts), moved)
	h.Vec3s(vec.pos)
	golden.Kernel(t, "bounds", h)
}

// The broad-phase test this build runs keeps the particles of
// testdata/kernel_near.txt (recorded with the kernel): where the processor
// has it, the kernel (pathsNear) keeps exactly the particles the Go loops
// of collideParticles and clampRange keep (their tests, written out here);
// without it, those tests keep the kernel's. Coordinates, radii, the
// margin and the boxes lie on a grid of quarter meters, so a particle's
// box often touches the collider's exactly (equal floats, where a strict
// test differs from a loose one), and some boxes are unbounded on a side
// (a floor's).
func TestPathsNearMatchesScalar(t *testing.T) {
	h := golden.NewHash()
	r := rand.New(rand.NewSource(11))
	grid := func(n int) float32 { return float32(float32(r.Intn(2*n+1)-n) / 4) }
	pos := make([]mgl32.Vec3, blockSize)
	prev := make([]mgl32.Vec3, blockSize)
	radius := make([]float32, blockSize)
	invMass := make([]float32, blockSize)
	group := make([]uint32, blockSize)
	inf := float32(math.Inf(1))
	kept := 0
	for trial := 0; trial < 2000; trial++ {
		for i := range pos {
			pos[i] = mgl32.Vec3{grid(8), grid(8), grid(8)}
			prev[i] = pos[i].Add(mgl32.Vec3{grid(2), grid(2), grid(2)})
			radius[i] = float32(float32(r.Intn(3)) / 4)
			invMass[i] = float32(r.Intn(4)) // a quarter pinned
			group[i] = 1 << uint(r.Intn(3))
		}
		var lo, hi mgl32.Vec3
		for k := 0; k < 3; k++ {
			a, b := grid(6), grid(6)
			lo[k], hi[k] = min(a, b), max(a, b)
		}
		if trial%5 == 0 {
			lo[trial%3] = -inf
		}
		if trial%7 == 0 {
			hi[1] = inf
		}
		mask := uint32(r.Intn(8))
		margin := float32(float32(r.Intn(2)) / 4)
		clamp := trial%2 == 1
		q := prev
		if clamp {
			q, margin = pos, 0
		}
		var goMask uint64
		for i := range pos {
			p, o := pos[i], q[i]
			var want bool
			if clamp {
				// clampRange's test.
				rr := radius[i]
				want = !(invMass[i] == 0 || group[i]&mask == 0 ||
					p[0]+rr < lo[0] || p[0]-rr > hi[0] || p[1]+rr < lo[1] || p[1]-rr > hi[1] || p[2]+rr < lo[2] || p[2]-rr > hi[2])
			} else {
				// collideParticles' test.
				rr := radius[i] + margin
				want = !(invMass[i] == 0 || group[i]&mask == 0 ||
					min2(p[0], o[0])-rr > hi[0] || max2(p[0], o[0])+rr < lo[0] ||
					min2(p[1], o[1])-rr > hi[1] || max2(p[1], o[1])+rr < lo[1] ||
					min2(p[2], o[2])-rr > hi[2] || max2(p[2], o[2])+rr < lo[2])
			}
			if want {
				goMask |= 1 << uint(i)
				kept++
			}
		}
		got := goMask
		if haveKernels() {
			var a nearArgs
			a.set(lo, hi, margin, mask)
			got = pathsNear(&pos[0], &q[0], &radius[0], &invMass[0], &group[0], &a)
			for i := range pos {
				if want := goMask>>uint(i)&1 == 1; got>>uint(i)&1 == 1 != want {
					t.Fatalf("trial %d (clamp %v), particle %d at %v from %v, radius %v, invMass %v, group %b, box %v-%v margin %v mask %b: kernel keeps it %v, Go %v",
						trial, clamp, i, pos[i], q[i], radius[i], invMass[i], group[i], lo, hi, margin, mask, !want, want)
				}
			}
		}
		h.Ints(int(got))
	}
	if kept < 5000 {
		t.Fatalf("only %d particles kept over all trials: the test hardly tests", kept)
	}
	golden.Kernel(t, "near", h)
}
