package verlet3d

import (
	"testing"
	"unsafe"

	"github.com/drape3d/drape/internal/golden"
	"github.com/drape3d/drape/internal/vecmath"
	"github.com/go-gl/mathgl/mgl32"
)

// The offsets integrate_amd64.s reads integrateArgs at.
func TestIntegrateArgsLayout(t *testing.T) {
	var a integrateArgs
	for _, c := range []struct {
		name      string
		got, want uintptr
	}{
		{"pos", unsafe.Offsetof(a.pos), 0}, {"prev", unsafe.Offsetof(a.prev), 8},
		{"acc", unsafe.Offsetof(a.acc), 16}, {"state", unsafe.Offsetof(a.state), 24},
		{"k", unsafe.Offsetof(a.k), 32}, {"h2", unsafe.Offsetof(a.h2), 64},
		{"gx", unsafe.Offsetof(a.gx), 96}, {"gy", unsafe.Offsetof(a.gy), 128},
		{"gz", unsafe.Offsetof(a.gz), 160}, {"maxStep", unsafe.Offsetof(a.maxStep), 192},
		{"maxStep2", unsafe.Offsetof(a.maxStep2), 224}, {"clamps", unsafe.Offsetof(a.clamps), 256},
	} {
		if c.got != c.want {
			t.Errorf("integrateArgs.%s at %d, integrate_amd64.s reads it at %d", c.name, c.got, c.want)
		}
	}
}

// integrateWorld has 203 particles (25 groups of eight and three more)
// moving every which way, a few of them fast enough to be clamped, with two
// pinned particles in one group (which the kernel takes) and a kinematic
// one (whose group it leaves to the Go loop), and forces on some (so that gravity
// goes through acc) when withForces.
func integrateWorld(t *testing.T, withForces bool) *World {
	t.Helper()
	cfg := DefaultConfig()
	cfg.MaxSpeed = 30
	w, err := NewWorld(cfg)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 203; i++ {
		f := float32(i)
		p, err := w.AddParticle(mgl32.Vec3{sin32(f), 1 + sin32(float32(1.3*f)), sin32(float32(2.1 * f))}, 0.1+float32(0.05*sin32(f)*sin32(f)))
		if err != nil {
			t.Fatal(err)
		}
		v := vecmath.Scale(mgl32.Vec3{sin32(float32(3 * f)), sin32(float32(5 * f)), sin32(float32(7 * f))}, 2)
		if i%17 == 4 {
			v = vecmath.Scale(v, 40) // past MaxSpeed
		}
		w.SetVelocity(p, v)
	}
	w.Pin(19)
	// A pinned particle whose previous position is far off: integrated
	// freely it would be clamped, pinned it stays and counts no clamp.
	w.Pin(21)
	w.prev[21] = w.pos[21].Add(mgl32.Vec3{5, -5, 5})
	w.SetTarget(77, mgl32.Vec3{0.5, 2, 0.5})
	if withForces {
		for i := 0; i < 203; i += 3 {
			w.AddForce(Particle(i), mgl32.Vec3{0.3, float32(-0.1 * float32(i%5)), 0.2})
		}
	}
	return w
}

// The integration this build runs (the kernel, or the Go loop) gives the
// positions, previous positions and clamp counts of
// testdata/kernel_integrate.txt (recorded with the kernel), with gravity
// in acc or not, over whole and partial particle ranges, and clamps some
// particles. Where the processor has the kernel, it also gives the Go
// loop's bits and clamp count.
func TestIntegrateKernelMatchesScalar(t *testing.T) {
	h := golden.NewHash()
	for _, forces := range []bool{false, true} {
		vec, scalar := integrateWorld(t, forces), integrateWorld(t, forces)
		scalar.run.noKernels = true
		for _, w := range []*World{vec, scalar} {
			w.run.sub = Substep{Index: 1, Count: w.cfg.Substeps, H: w.SubstepLength(), Frac: 0.2}
			w.applyForces(w.run.sub)
			w.run.tally = make([]workerTally, 1)
		}
		for _, r := range [][2]int{{0, 203}, {5, 200}, {16, 40}, {0, 7}} {
			vec.integrateRange(0, r[0], r[1])
			scalar.integrateRange(0, r[0], r[1])
			for i := range vec.pos {
				if !samebits(vec.pos[i], scalar.pos[i]) || !samebits(vec.prev[i], scalar.prev[i]) {
					t.Fatalf("forces %v range %v: particle %d at %v (prev %v) with the kernel, %v (%v) without",
						forces, r, i, vec.pos[i], vec.prev[i], scalar.pos[i], scalar.prev[i])
				}
			}
			h.Vec3s(vec.pos)
			h.Vec3s(vec.prev[:len(vec.pos)])
			h.Ints(vec.run.tally[0].clamps)
		}
		if vec.run.tally[0].clamps != scalar.run.tally[0].clamps || vec.run.tally[0].clamps == 0 {
			t.Fatalf("forces %v: %d speed clamps with the kernel, %d without (want equal, and some)", forces, vec.run.tally[0].clamps, scalar.run.tally[0].clamps)
		}
	}
	golden.Kernel(t, "integrate", h)
}
