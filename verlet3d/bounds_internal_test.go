package verlet3d

import (
	"math/rand"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
)

// The block-bounds kernel (where the processor has one) gives the Go
// loop's boxes, radii and groups, with and without the previous
// positions, for whole blocks (one of them pinned, one in a group no
// collider acts on) and the partial block at the end, and the collision
// broad phase then finds the same contacts.
func TestBlockBoundsKernelMatchesScalar(t *testing.T) {
	if !haveKernels {
		t.Skip("no AVX2")
	}
	build := func() *World {
		w, err := NewWorld(DefaultConfig())
		if err != nil {
			t.Fatal(err)
		}
		r := rand.New(rand.NewSource(3))
		for i := 0; i < 3*blockSize+17; i++ {
			p := mgl32.Vec3{r.Float32()*8 - 4, r.Float32()*8 - 4, r.Float32()*8 - 4}
			if _, err := w.AddParticle(p, 1); err != nil {
				t.Fatal(err)
			}
		}
		for i := range w.prev[:len(w.pos)] {
			w.prev[i] = w.pos[i].Add(mgl32.Vec3{r.Float32() - 0.5, r.Float32() - 0.5, r.Float32() - 0.5}.Mul(0.3))
			p := Particle(i)
			if err := w.SetRadius(p, 0.1*r.Float32()); err != nil {
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
				w.SetGroup(p, 1<<uint(r.Intn(3)))
			}
		}
		ball, _ := NewSphere(mgl32.Vec3{0.5, -0.5, 0}, 1.5)
		if err := w.AddCollider(ball, ContactSettings{Mask: 7}); err != nil {
			t.Fatal(err)
		}
		return w
	}
	vec, scalar := build(), build()
	scalar.noKernels = true
	for _, withPrev := range []bool{true, false} {
		for _, w := range []*World{vec, scalar} {
			var prev []mgl32.Vec3
			if withPrev {
				prev = w.prev[:len(w.pos)]
			}
			w.buildBlocks(prev, w.cfg.ContactMargin)
		}
		if g := vec.blocks[1].groups; g != 0 {
			t.Fatalf("the pinned block's groups %b, want none", g)
		}
		if b := vec.blocks[2]; b.groups != 1<<4 || b.hi != (mgl32.Vec3{}) {
			t.Fatalf("the unmatched block %+v, want groups 10000 and no box", b)
		}
		for b := range vec.blocks {
			if vec.blocks[b] != scalar.blocks[b] {
				t.Fatalf("prev %v, block %d: %+v with the kernel, %+v without", withPrev, b, vec.blocks[b], scalar.blocks[b])
			}
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
	}
}
