package verlet3d

import (
	"math"
	"testing"
	"unsafe"

	"github.com/drape3d/drape/internal/golden"
	"github.com/go-gl/mathgl/mgl32"
)

// The offsets tethervec_amd64.s reads tetherArgs and tetherGroup at.
func TestTetherArgsLayout(t *testing.T) {
	var a tetherArgs
	var g tetherGroup
	for _, c := range []struct {
		name      string
		got, want uintptr
	}{
		{"pos", unsafe.Offsetof(a.pos), 0}, {"group", unsafe.Offsetof(a.group), 8},
		{"a3", unsafe.Offsetof(g.a3), 0}, {"p3", unsafe.Offsetof(g.p3), 32},
		{"max", unsafe.Offsetof(g.max), 64}, {"max2", unsafe.Offsetof(g.max2), 96},
		{"on", unsafe.Offsetof(g.on), 128}, {"size", unsafe.Sizeof(g), 160},
	} {
		if c.got != c.want {
			t.Errorf("%s at %d, tethervec_amd64.s reads it at %d", c.name, c.got, c.want)
		}
	}
}

// tetherWorld is a 20 x 20 grid pinned along its top row with a tether
// from every other particle to the pin above it, the particles jumbled so
// that most tethers are taut; tether 5 is off, one tethered particle is
// pinned, one is NaN, and tethers 40-47 pull one particle twice (a group
// the kernel must leave to the Go loop). 381 tethers: the last five go
// through the Go loop too.
func tetherWorld(t *testing.T) *World {
	t.Helper()
	w, err := NewWorld(DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	const n = 20
	for r := range n {
		for c := range n {
			f := float32(r*n + c)
			p := mgl32.Vec3{float32(0.05 * float32(c)), float32(-0.05 * float32(r)), 0}
			if r > 0 {
				p = p.Add(mgl32.Vec3{float32(0.3 * sin32(f)), float32(0.4 * sin32(float32(1.7*f))), float32(0.2 * sin32(float32(2.3*f)))})
			}
			mass := float32(0.1)
			if r == 0 {
				mass = 0
			}
			if _, err := w.AddParticle(p, mass); err != nil {
				t.Fatal(err)
			}
		}
	}
	for i := n; i < n*n; i++ {
		anchor := Particle(i % n)
		p := Particle(i)
		if i == n+40+3 {
			p = Particle(n + 40) // the same particle as tether 40
		}
		if _, err := w.AddTether(anchor, p, float32(0.05*float32(i/n))); err != nil {
			t.Fatal(err)
		}
	}
	w.SetTetherEnabled(5, false)
	w.Pin(Particle(n + 17))
	w.pos[n+90][1] = float32(math.NaN())
	return w
}

// The tether pass this build runs gives the bits of testdata/kernel_tether.txt
// (recorded with the kernel), pass after pass: taut, slack, off, pinned
// and NaN tethers, a group that pulls one particle twice, and a tail.
// Where the processor has the kernel, it also gives the Go loop's bits.
func TestTetherKernelMatchesScalar(t *testing.T) {
	vec, scalar := tetherWorld(t), tetherWorld(t)
	scalar.run.noKernels = true
	if vec.prepareTethers() != haveKernels() || scalar.prepareTethers() {
		t.Fatal("the kernel is off with kernels, or on without")
	}
	if haveKernels() {
		ok := 0
		for _, g := range vec.tetherK.ok {
			if g {
				ok++
			}
		}
		if ok == 0 || ok == len(vec.tetherK.ok) {
			t.Fatalf("%d of %d groups go to the kernel, want some but not all", ok, len(vec.tetherK.ok))
		}
	}
	h := golden.NewHash()
	moved := 0
	before := append([]mgl32.Vec3(nil), vec.pos...)
	for pass := range 3 {
		vec.solveTethers()
		scalar.solveTethers()
		for i := range vec.pos {
			if !samebits(vec.pos[i], scalar.pos[i]) {
				t.Fatalf("pass %d: particle %d at %v with the kernel, %v without", pass, i, vec.pos[i], scalar.pos[i])
			}
			if pass == 0 && !samebits(vec.pos[i], before[i]) {
				moved++
			}
		}
		h.Vec3s(vec.pos)
		if pass == 0 {
			// Changing a length and a mass rebuilds the groups.
			for _, w := range []*World{vec, scalar} {
				w.SetTetherLength(7, 0.01)
				w.Unpin(Particle(20 + 17))
			}
		}
	}
	if moved < 100 {
		t.Fatalf("the first pass moved %d particles, want 100 or more taut tethers", moved)
	}
	golden.Kernel(t, "tether", h)
}
