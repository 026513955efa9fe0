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

// The offsets contact_amd64.s reads contactArgs at.
func TestContactArgsLayout(t *testing.T) {
	var a contactArgs
	var c headConsts
	checkOffsets(t, "contact_amd64.s", []offset{
		{"pos", unsafe.Offsetof(a.pos), 0}, {"prev", unsafe.Offsetof(a.prev), 8},
		{"inv", unsafe.Offsetof(a.inv), 16}, {"groups", unsafe.Offsetof(a.groups), 24},
		{"friction", unsafe.Offsetof(a.friction), 32}, {"c", unsafe.Offsetof(a.c), 40},
		{"cx", unsafe.Offsetof(c.cx), 0}, {"cy", unsafe.Offsetof(c.cy), 32},
		{"cz", unsafe.Offsetof(c.cz), 64}, {"touch2", unsafe.Offsetof(c.touch2), 96},
		{"eps", unsafe.Offsetof(c.eps), 128}, {"minR", unsafe.Offsetof(c.minR), 160},
		{"mu", unsafe.Offsetof(c.mu), 192}, {"m", unsafe.Offsetof(c.m), 224},
		{"e", unsafe.Offsetof(c.e), 512}, {"ex", unsafe.Offsetof(c.ex), 800},
		{"ey", unsafe.Offsetof(c.ey), 832}, {"ez", unsafe.Offsetof(c.ez), 864},
	})
}

// The head contact this build runs (the kernel, or headContact's loop)
// gives the positions and previous positions of
// testdata/kernel_contact.txt (recorded with the kernel), with and without
// friction, over whole and partial strand ranges: particles inside the
// head (put out: none is left inside), touching it (friction only), clear
// of it, pinned inside it (left alone), at the head's center (skipped), at
// infinity and NaN, with the head turned and moved since the last
// substep. Where the processor has the kernel, it also gives
// headContact's loop's bits.
func TestHeadContactKernelMatchesScalar(t *testing.T) {
	hash := golden.NewHash()
	for _, c := range []struct {
		strands, segments int
		last              bool
	}{{40, 16, false}, {37, 12, true}, {5, 10, false}} {
		for _, mu := range []float32{0.3, 0} {
			_, kh := pullHair(t, c.strands, c.segments, c.last)
			_, sh := pullHair(t, c.strands, c.segments, c.last)
			sh.noKernels = true
			if simd.AVX2() && kh.kernelGroups(c.strands*kh.per) == 0 {
				t.Fatalf("%+v: the kernel is off", c)
			}
			base := int(kh.base)
			touching, inside := 0, 0
			for _, h := range []*Hair{kh, sh} {
				h.set.HeadFriction = mu
				ctr := h.cur.c
				r := h.head.Radius + h.set.Radius
				for o := range c.strands * h.per {
					f := float32(o)
					p := &h.pos[base+o]
					if o%5 == 2 { // touching: just outside the sphere
						*p = ctr.Add(vecmath.Scale(vecmath.Normalize(p.Sub(ctr)), float32(r*1.00001)))
					}
					h.prev[base+o] = p.Add(mgl32.Vec3{float32(0.01 * sin32(float32(5*f))), -0.02, float32(0.015 * sin32(f))})
					if h == kh {
						if d := vecmath.Len(p.Sub(ctr)); d < r {
							inside++
						} else if d < r+float32(0.1*h.w.Config().ContactMargin) {
							touching++
						}
					}
				}
				h.pos[base+2*h.per+9] = ctr.Add(mgl32.Vec3{0, float32(0.5 * r), 0}) // pinned, inside
				h.pos[base+h.per+6] = ctr                                           // at the center
				h.pos[base+h.per+5][1] = float32(math.Inf(1))
				h.pos[base+2*h.per+1][0] = float32(math.NaN())
				h.prevCur = h.cur
				q := vecmath.QuatAxisAngle(-0.05, vecmath.Normalize(mgl32.Vec3{0.2, 1, 0.3}))
				h.prevCur.m = vecmath.Mat3Mul3(vecmath.QuatMat4(q).Mat3(), h.cur.m)
				h.prevCur.c = ctr.Add(mgl32.Vec3{-0.004, 0.002, 0.003})
				h.setHeadConsts() // as apply does once the frames are set
			}
			if inside < 8 || touching < 8 {
				t.Fatalf("%+v: %d particles inside the head and %d touching it, want 8 or more of each", c, inside, touching)
			}
			for _, r := range [][2]int{{0, c.strands}, {1, c.strands - 1}, {c.strands - 1, c.strands}} {
				kh.headContact(r[0], r[1])
				sh.headContact(r[0], r[1])
				if o, k, s := particleDiff(kh, sh); o >= 0 {
					t.Fatalf("%+v mu %v range %v: particle %d at %v (or its previous position) with the kernel, %v without", c, mu, r, o, k, s)
				}
				hashParticles(hash, kh)
			}
			left := 0
			ctr, rad := kh.cur.c, kh.head.Radius+kh.set.Radius
			for o := range c.strands * kh.per {
				if d := vecmath.Len(kh.pos[base+o].Sub(ctr)); d < float32(0.999*rad) && kh.inv[base+o] != 0 && d > 1e-6 {
					left++
				}
			}
			if left > 0 {
				t.Fatalf("%+v mu %v: %d free particles left inside the head", c, mu, left)
			}
		}
	}
	golden.Kernel(t, "contact", hash)
}

// The offsets style_amd64.s reads styleArgs at (headConsts as above).
func TestStyleArgsLayout(t *testing.T) {
	var a styleArgs
	checkOffsets(t, "style_amd64.s", []offset{
		{"rest", unsafe.Offsetof(a.rest), 0}, {"target", unsafe.Offsetof(a.target), 8},
		{"groups", unsafe.Offsetof(a.groups), 16}, {"c", unsafe.Offsetof(a.c), 24},
	})
}

// The style targets this build places (the kernel, or prepare's loop)
// have the bits of testdata/kernel_style.txt (recorded with the kernel),
// over whole and partial strand ranges, for a turned head off the origin;
// every target in a range is placed. Where the processor has the kernel,
// it also places prepare's loop's bits.
func TestStyleKernelMatchesScalar(t *testing.T) {
	hash := golden.NewHash()
	for _, c := range []struct{ strands, segments int }{{40, 16}, {37, 12}, {5, 10}} {
		_, kh := pullHair(t, c.strands, c.segments, false)
		_, sh := pullHair(t, c.strands, c.segments, false)
		sh.noKernels = true
		for _, h := range []*Hair{kh, sh} {
			q := vecmath.QuatAxisAngle(0.7, vecmath.Normalize(mgl32.Vec3{0.2, 1, 0.3}))
			h.cur.m = vecmath.QuatMat4(q).Mat3()
			h.cur.c = mgl32.Vec3{3.1, 1.7, -2.4}
			h.setHeadConsts() // as apply does once the frames are set
			clear(h.target)
		}
		for _, r := range [][2]int{{0, c.strands}, {1, c.strands - 1}, {c.strands - 1, c.strands}} {
			kh.prepare(r[0], r[1])
			sh.prepare(r[0], r[1])
			placed := 0
			for o := range c.strands * kh.per {
				a, b := kh.target[o], sh.target[o]
				for k := range 3 {
					if math.Float32bits(a[k]) != math.Float32bits(b[k]) {
						t.Fatalf("%+v range %v: target %d at %v with the kernel, %v without", c, r, o, a, b)
					}
				}
				if a != (mgl32.Vec3{}) {
					placed++
				}
			}
			if want := (r[1] - r[0]) * kh.per; placed < want {
				t.Fatalf("%+v range %v: %d targets placed, want %d or more", c, r, placed, want)
			}
			hash.Vec3s(kh.target[:c.strands*kh.per])
		}
	}
	golden.Kernel(t, "style", hash)
}
