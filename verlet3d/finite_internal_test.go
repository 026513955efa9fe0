package verlet3d

import (
	"fmt"
	"math"
	"math/rand"
	"testing"

	"github.com/drape3d/drape/internal/golden"
	"github.com/go-gl/mathgl/mgl32"
)

// The finiteness test this build runs (bothFinite: the kernel, or the Go
// loop's sums and bit tests) answers as the definition does, for every
// group count up to 6 with one infinity, NaN, huge finite value or
// negative zero placed at each coordinate in turn, in the positions and in
// the previous positions; the huge values, whose sum overflows, are where
// a sum would say no. The Go loop may say no when every coordinate is huge
// (guardRange then checks particle by particle), never yes for a
// non-finite one; the Go loop is checked on every build. Where the
// processor has the kernel, finiteGroups and bothFinite answer exactly as
// the definition does on every case. The answers the
// guard acts on are hashed into testdata/kernel_finite.txt.
func TestFiniteKernelMatchesDefinition(t *testing.T) {
	w, err := NewWorld(DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	goLoop, err := NewWorld(DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	defer goLoop.Close()
	goLoop.run.noKernels = true
	h := golden.NewHash()
	r := rand.New(rand.NewSource(5))
	inf := float32(math.Inf(1))
	nan := float32(math.NaN())
	specials := []float32{inf, -inf, nan, -nan, math.MaxFloat32, -math.MaxFloat32, float32(math.Copysign(0, -1)), math.SmallestNonzeroFloat32}
	for groups := 0; groups <= 6; groups++ {
		v := make([]mgl32.Vec3, 8*groups+1) // one past the groups, never read
		for i := range v {
			v[i] = mgl32.Vec3{float32(r.Float32()*200) - 100, float32(r.Float32()*200) - 100, float32(r.Float32()*200) - 100}
		}
		v[8*groups] = mgl32.Vec3{nan, nan, nan}
		clean := make([]mgl32.Vec3, 8*groups)
		for i := range clean {
			clean[i] = mgl32.Vec3{float32(i), 1, -2}
		}
		check := func(what string, huge bool) {
			t.Helper()
			want := true
			for _, p := range v[:8*groups] {
				want = want && finiteVec(p)
			}
			if haveKernels() {
				var p *mgl32.Vec3
				if len(v) > 0 {
					p = &v[0]
				}
				if got := finiteGroups(p, groups); got != want {
					t.Fatalf("%d groups, %s: kernel says %v, want %v", groups, what, got, want)
				}
			}
			// As positions (the Go loop's sums) and as previous
			// positions (its bit tests).
			for inPrev := range 2 {
				pos, prev := v[:8*groups], clean
				if inPrev == 1 {
					pos, prev = clean, v[:8*groups]
				}
				for _, x := range []*World{w, goLoop} {
					got := x.bothFinite(pos, prev)
					if got && !want || !got && want && (x.kernels() || !huge || inPrev == 1) {
						t.Fatalf("%d groups, %s (in prev %v), kernels %v: bothFinite says %v, want %v", groups, what, inPrev == 1, x.kernels(), got, want)
					}
					if x == w {
						// What guardRange acts on: whether a particle is
						// not finite.
						acts := 0
						if !(got || want) {
							acts = 1
						}
						h.Ints(groups, inPrev, acts)
					}
				}
			}
		}
		check("all finite", false)
		for k := 0; k < 24*groups; k++ {
			for _, x := range specials {
				old := v[k/3][k%3]
				v[k/3][k%3] = x
				check(fmt.Sprintf("%v at coordinate %d", x, k), false)
				v[k/3][k%3] = old
			}
		}
		if groups > 0 {
			// Every coordinate huge: finite, though any sum overflows.
			for i := range v[:8*groups] {
				v[i] = mgl32.Vec3{math.MaxFloat32, math.MaxFloat32, -math.MaxFloat32}
			}
			check("all huge", true)
		}
	}
	golden.Kernel(t, "finite", h)
}

// The guard resets exactly the particle that went non-finite, wherever it
// sits (in a group of eight or the tail, any coordinate, in pos or prev),
// with the kernel and with the Go loop, and leaves a World of finite but
// huge coordinates alone.
func TestGuardFindsEveryNonFinite(t *testing.T) {
	const n = 37 // four groups of eight and a tail of five
	for _, kernels := range []bool{true, false} {
		if kernels && !haveKernels() {
			continue
		}
		for _, x := range []float32{float32(math.NaN()), float32(math.Inf(1)), float32(math.Inf(-1))} {
			for i := 0; i < n; i++ {
				for k := range 6 {
					inPrev, c := k >= 3, k%3
					w, err := NewWorld(DefaultConfig())
					if err != nil {
						t.Fatal(err)
					}
					w.run.noKernels = !kernels
					for j := 0; j < n; j++ {
						if _, err := w.AddParticle(mgl32.Vec3{float32(j), 1, 0}, 1); err != nil {
							t.Fatal(err)
						}
					}
					w.run.tally = make([]workerTally, 1)
					if inPrev {
						w.prev[i][c] = x
					} else {
						w.pos[i][c] = x
					}
					w.guardRange(0, 0, n)
					if got := w.run.tally[0].resets; got != 1 {
						t.Fatalf("kernels %v, %v at particle %d coordinate %d (prev %v): %d resets, want 1", kernels, x, i, c, inPrev, got)
					}
					for j := 0; j < n; j++ {
						if !finiteVec(w.pos[j]) || !finiteVec(w.prev[j]) {
							t.Fatalf("kernels %v: particle %d left non-finite", kernels, j)
						}
					}
					w.Close()
				}
			}
		}
		w, err := NewWorld(DefaultConfig())
		if err != nil {
			t.Fatal(err)
		}
		w.run.noKernels = !kernels
		for j := 0; j < n; j++ {
			if _, err := w.AddParticle(mgl32.Vec3{}, 1); err != nil {
				t.Fatal(err)
			}
			w.pos[j], w.prev[j] = mgl32.Vec3{1e38, 3e38, -3e38}, mgl32.Vec3{-3e38, 3e38, 3e38}
		}
		w.run.tally = make([]workerTally, 1)
		w.guardRange(0, 0, n)
		if w.run.tally[0].resets != 0 || w.pos[n-1] != (mgl32.Vec3{1e38, 3e38, -3e38}) {
			t.Fatalf("kernels %v: huge finite coordinates reset", kernels)
		}
		w.Close()
	}
}
