package hair

import (
	"math"
	"testing"
	"unsafe"

	"github.com/drape3d/drape/internal/golden"
	"github.com/drape3d/drape/internal/simd"
	"github.com/drape3d/drape/verlet3d"
	"github.com/go-gl/mathgl/mgl32"
)

// The offsets drag_amd64.s reads dragArgs at.
func TestDragArgsLayout(t *testing.T) {
	var a dragArgs
	checkOffsets(t, "drag_amd64.s", []offset{
		{"pos", unsafe.Offsetof(a.pos), 0}, {"prev", unsafe.Offsetof(a.prev), 8},
		{"acc", unsafe.Offsetof(a.acc), 16}, {"segs", unsafe.Offsetof(a.segs), 24},
		{"strideP", unsafe.Offsetof(a.strideP), 32}, {"strideW", unsafe.Offsetof(a.strideW), 40},
		{"j", unsafe.Offsetof(a.j), 48}, {"va", unsafe.Offsetof(a.va), 64},
		{"dv", unsafe.Offsetof(a.dv), 160}, {"invH", unsafe.Offsetof(a.invH), 256},
		{"c", unsafe.Offsetof(a.c), 288}, {"half", unsafe.Offsetof(a.half), 320},
		{"one", unsafe.Offsetof(a.one), 352}, {"k", unsafe.Offsetof(a.k), 384},
	})
}

// The air drag this build runs (the kernel, or drag's loop) adds the bits
// of testdata/kernel_drag.txt (recorded with the kernel) to every
// particle's acceleration, in still air and in turbulent wind, on blocks
// of eight strands and on the hair's last block (which the loop takes),
// for strands of 1, 3 and 16 segments, on top of accelerations already
// there, changing at least half of them; roots get none. Where the
// processor has the kernel, it also adds drag's loop's bits.
func TestDragKernelMatchesScalar(t *testing.T) {
	hash := golden.NewHash()
	for _, c := range []struct {
		strands, segments int
		last              bool
	}{{40, 16, false}, {25, 3, true}, {17, 1, false}} {
		for _, wind := range []verlet3d.Wind{{}, {Steady: mgl32.Vec3{6, 0, 2}, Turbulence: 3, TurbulenceScale: 0.4}} {
			var accs [2][]mgl32.Vec3
			var base int
			for k, noKernels := range []bool{false, true} {
				w, h := pullHair(t, c.strands, c.segments, c.last)
				h.noKernels = noKernels
				if simd.AVX2() && !noKernels && !h.linksKernel(0, 8) && c.segments >= 3 {
					t.Fatalf("%+v: the kernel is off", c)
				}
				base = int(h.base)
				for o := range c.strands * h.per {
					f := float32(o)
					h.prev[base+o] = h.pos[base+o].Add(mgl32.Vec3{float32(0.01 * sin32(float32(5*f))), -0.02, float32(0.015 * sin32(f))})
				}
				h.wind, h.still, h.t = wind, wind == (verlet3d.Wind{}), 1.25
				h.dragging, h.dragScale = true, 2
				h.bind(w)
				for i := range h.acc {
					h.acc[i] = mgl32.Vec3{float32(0.1 * sin32(float32(i))), -9.81, 0.3}
				}
				for lo := 0; lo < c.strands; lo += 8 {
					h.drag(lo, min(lo+8, c.strands))
				}
				accs[k] = append([]mgl32.Vec3(nil), w.Accelerations()[base:base+c.strands*h.per]...)
			}
			changed := 0
			for o := range accs[0] {
				k, s := accs[0][o], accs[1][o]
				for a := range 3 {
					if math.Float32bits(k[a]) != math.Float32bits(s[a]) {
						t.Fatalf("%+v wind %+v: particle %d's acceleration %v with the kernel, %v without", c, wind, o, k, s)
					}
				}
				if k != (mgl32.Vec3{float32(0.1 * sin32(float32(o+base))), -9.81, 0.3}) {
					changed++
				}
			}
			if changed < len(accs[0])/2 {
				t.Fatalf("%+v wind %+v: drag changed only %d of %d accelerations", c, wind, changed, len(accs[0]))
			}
			hash.Vec3s(accs[0])
		}
	}
	golden.Kernel(t, "drag", hash)
}
