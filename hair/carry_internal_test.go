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

// The offsets carry_amd64.s reads carryArgs at.
func TestCarryArgsLayout(t *testing.T) {
	var a carryArgs
	checkOffsets(t, "carry_amd64.s", []offset{
		{"pos", unsafe.Offsetof(a.pos), 0}, {"prev", unsafe.Offsetof(a.prev), 8},
		{"inv", unsafe.Offsetof(a.inv), 16}, {"groups", unsafe.Offsetof(a.groups), 24},
		{"fx", unsafe.Offsetof(a.fx), 32}, {"fy", unsafe.Offsetof(a.fy), 64},
		{"fz", unsafe.Offsetof(a.fz), 96}, {"tx", unsafe.Offsetof(a.tx), 128},
		{"ty", unsafe.Offsetof(a.ty), 160}, {"tz", unsafe.Offsetof(a.tz), 192},
		{"m", unsafe.Offsetof(a.m), 224},
	})
}

// The carry this build runs (the kernel, or carry's loop) gives the
// positions and previous positions of testdata/kernel_carry.txt (recorded
// with the kernel), over whole and partial strand ranges (the kernel's
// groups of eight and the loop's rest), moving most particles and leaving
// the roots and pinned particles (inverse mass 0) as they were, with a
// particle at infinity and one NaN among them. Where the processor has
// the kernel, it also gives carry's loop's bits.
func TestCarryKernelMatchesScalar(t *testing.T) {
	hash := golden.NewHash()
	for _, c := range []struct {
		strands, segments int
		last              bool
	}{{40, 16, false}, {37, 12, true}, {9, 9, true}, {5, 10, false}} {
		_, kh := pullHair(t, c.strands, c.segments, c.last)
		_, sh := pullHair(t, c.strands, c.segments, c.last)
		sh.noKernels = true
		if simd.AVX2() && kh.kernelGroups(c.strands*kh.per) == 0 {
			t.Fatalf("%+v: the kernel is off", c)
		}
		base := int(kh.base)
		for _, h := range []*Hair{kh, sh} {
			for o := range c.strands * h.per {
				f := float32(o)
				h.prev[base+o] = h.pos[base+o].Add(mgl32.Vec3{float32(0.01 * sin32(float32(5*f))), -0.02, float32(0.015 * sin32(f))})
			}
			h.pos[base+h.per+5][1] = float32(math.Inf(1))
			h.prev[base+2*h.per-1][2] = float32(math.NaN())
			h.carryFrom = mgl32.Vec3{0.31, 1.58, -0.22}
			h.carryTo = mgl32.Vec3{0.33, 1.61, -0.21}
			q := vecmath.QuatAxisAngle(0.07, vecmath.Normalize(mgl32.Vec3{0.3, 1, -0.2}))
			h.carryM = vecmath.QuatMat4(q).Mat3()
		}
		before := append([]mgl32.Vec3(nil), kh.pos[base:base+c.strands*kh.per]...)
		for _, r := range [][2]int{{0, c.strands}, {1, c.strands - 1}, {c.strands - 1, c.strands}} {
			kh.carry(r[0], r[1])
			sh.carry(r[0], r[1])
			if o, k, s := particleDiff(kh, sh); o >= 0 {
				t.Fatalf("%+v range %v: particle %d at %v (or its previous position) with the kernel, %v without", c, r, o, k, s)
			}
			hashParticles(hash, kh)
		}
		moved := 0
		for o, p := range before {
			q := kh.pos[base+o]
			if o%kh.per == 0 || kh.inv[base+o] == 0 {
				if math.Float32bits(p[0]) != math.Float32bits(q[0]) || math.Float32bits(p[1]) != math.Float32bits(q[1]) || math.Float32bits(p[2]) != math.Float32bits(q[2]) {
					t.Fatalf("%+v: root or pinned particle %d moved from %v to %v", c, o, p, q)
				}
			} else if p != q {
				moved++
			}
		}
		if moved < len(before)/2 {
			t.Fatalf("%+v: carry moved %d of %d particles", c, moved, len(before))
		}
	}
	golden.Kernel(t, "carry", hash)
}

// hashParticles adds the positions, then the previous positions, of h's
// particles to hash.
func hashParticles(hash *golden.Hash, h *Hair) {
	base, n := int(h.base), h.set.Strands*h.per
	hash.Vec3s(h.pos[base : base+n])
	hash.Vec3s(h.prev[base : base+n])
}

// particleDiff returns the first of the two hairs' particles whose
// position or previous position differs in a bit, with both values, or
// -1 when they all agree.
func particleDiff(kh, sh *Hair) (o int, k, s mgl32.Vec3) {
	base := int(kh.base)
	for o := 0; o < kh.set.Strands*kh.per; o++ {
		for _, p := range [][2]mgl32.Vec3{{kh.pos[base+o], sh.pos[base+o]}, {kh.prev[base+o], sh.prev[base+o]}} {
			for c := range 3 {
				if math.Float32bits(p[0][c]) != math.Float32bits(p[1][c]) {
					return o, p[0], p[1]
				}
			}
		}
	}
	return -1, mgl32.Vec3{}, mgl32.Vec3{}
}
