package hair

import (
	"math"
	"testing"
	"unsafe"

	"github.com/drape3d/drape/internal/golden"
	"github.com/drape3d/drape/internal/simd"
	"github.com/drape3d/drape/internal/vecmath"
	"github.com/go-gl/mathgl/mgl32"
)

// The offsets follow_amd64.s reads followArgs at.
func TestFollowArgsLayout(t *testing.T) {
	var a followArgs
	checkOffsets(t, "follow_amd64.s", []offset{
		{"pos", unsafe.Offsetof(a.pos), 0}, {"prev", unsafe.Offsetof(a.prev), 8},
		{"inv", unsafe.Offsetof(a.inv), 16}, {"per", unsafe.Offsetof(a.per), 24},
		{"strideP", unsafe.Offsetof(a.strideP), 32}, {"strideW", unsafe.Offsetof(a.strideW), 40},
		{"damp", unsafe.Offsetof(a.damp), 48}, {"j", unsafe.Offsetof(a.j), 56},
		{"seg", unsafe.Offsetof(a.seg), 64}, {"seg2", unsafe.Offsetof(a.seg2), 96},
		{"lo2", unsafe.Offsetof(a.lo2), 128}, {"dampV", unsafe.Offsetof(a.dampV), 160},
		{"winv", unsafe.Offsetof(a.winv), 192}, {"wprev", unsafe.Offsetof(a.wprev), 224},
		{"dm", unsafe.Offsetof(a.dm), 256},
	})
}

// The follow-the-leader pass this build runs (the kernel, or
// followLeader's loop) gives the positions and previous positions of
// testdata/kernel_follow.txt (recorded with the kernel), with and without
// damping, on blocks of eight strands and on the hair's last block (which
// the loop takes): particles stretched, folded, within their segment's
// range (left alone; a whole block of them too), pinned (left alone, and
// not damped as a parent), at infinity and NaN; most particles it moves
// end within range. Where the processor has the kernel, it also gives
// followLeader's loop's bits.
func TestFollowKernelMatchesScalar(t *testing.T) {
	hash := golden.NewHash()
	for _, c := range []struct {
		strands, segments int
		last              bool
	}{{40, 16, false}, {25, 12, true}, {17, 3, false}} {
		for _, damp := range []float32{0.5, 0} {
			_, kh := pullHair(t, c.strands, c.segments, c.last)
			_, sh := pullHair(t, c.strands, c.segments, c.last)
			sh.noKernels = true
			if kh.linksKernel(0, 8) != simd.AVX2() {
				t.Fatalf("%+v: the kernel is on %v with kernels %v", c, kh.linksKernel(0, 8), simd.AVX2())
			}
			base := int(kh.base)
			moved := 0
			for _, h := range []*Hair{kh, sh} {
				h.set.FollowDamping = damp
				for o := range c.strands * h.per {
					f := float32(o)
					h.prev[base+o] = h.pos[base+o].Add(mgl32.Vec3{float32(0.01 * sin32(float32(5*f))), -0.02, float32(0.015 * sin32(f))})
					// Within [0.95, 1] of the segment from its parent: left
					// alone. Strands 8-15, a whole block, have every
					// particle there: all the kernel's lanes skip.
					if j, i := o%h.per, o/h.per; j > 0 && (o%3 == 0 || i >= 8 && i < 16) {
						a := h.pos[base+o-1]
						h.pos[base+o] = a.Add(vecmath.Scale(vecmath.Normalize(h.pos[base+o].Sub(a)), float32(0.97*h.restSeg[o/h.per])))
					}
				}
				h.pos[base+h.per+2][1] = float32(math.Inf(-1))
				h.pos[base+3*h.per+1][2] = float32(math.NaN())
			}
			for o := range c.strands * kh.per {
				if o%kh.per > 0 {
					if d := vecmath.Len(kh.pos[base+o].Sub(kh.pos[base+o-1])); d > kh.restSeg[o/kh.per] || d < 0.95*kh.restSeg[o/kh.per] {
						moved++
					}
				}
			}
			if moved < c.strands/2 {
				t.Fatalf("%+v: only %d particles off their segment's range", c, moved)
			}
			for lo := 0; lo < c.strands; lo += 8 {
				hi := min(lo+8, c.strands)
				kh.followLeader(lo, hi)
				sh.followLeader(lo, hi)
			}
			if o, k, s := particleDiff(kh, sh); o >= 0 {
				t.Fatalf("%+v damp %v: particle %d at %v (or its previous position) with the kernel, %v without", c, damp, o, k, s)
			}
			hashParticles(hash, kh)
			off := 0
			for o := range c.strands * kh.per {
				if o%kh.per > 0 {
					if d := vecmath.Len(kh.pos[base+o].Sub(kh.pos[base+o-1])); d > float32(1.0001*kh.restSeg[o/kh.per]) {
						off++
					}
				}
			}
			if off >= moved/2 {
				t.Fatalf("%+v damp %v: %d particles still past their segment after the pass, of %d off their range before", c, damp, off, moved)
			}
		}
	}
	golden.Kernel(t, "follow", hash)
}
