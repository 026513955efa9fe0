package hair

import (
	"math"
	"testing"
	"unsafe"

	"github.com/drape3d/drape/internal/golden"
	"github.com/drape3d/drape/internal/simd"
	"github.com/drape3d/drape/internal/vecmath"
	"github.com/drape3d/drape/verlet3d"
	"github.com/go-gl/mathgl/mgl32"
)

// offset is a field of a kernel's argument struct: where Go puts it and
// where the assembly reads it.
type offset struct {
	name      string
	got, want uintptr
}

func checkOffsets(t *testing.T, file string, fields []offset) {
	t.Helper()
	for _, f := range fields {
		if f.got != f.want {
			t.Errorf("%s at %d, %s reads it at %d", f.name, f.got, file, f.want)
		}
	}
}

// The offsets pull_amd64.s reads pullArgs at.
func TestPullArgsLayout(t *testing.T) {
	var a pullArgs
	checkOffsets(t, "pull_amd64.s", []offset{
		{"pos", unsafe.Offsetof(a.pos), 0}, {"target", unsafe.Offsetof(a.target), 8},
		{"inv", unsafe.Offsetof(a.inv), 16}, {"restSeg", unsafe.Offsetof(a.restSeg), 24},
		{"js", unsafe.Offsetof(a.js), 32}, {"style", unsafe.Offsetof(a.style), 40},
		{"strands", unsafe.Offsetof(a.strands), 48}, {"groups", unsafe.Offsetof(a.groups), 56},
		{"strideP", unsafe.Offsetof(a.strideP), 64}, {"strideW", unsafe.Offsetof(a.strideW), 72},
		{"doStyle", unsafe.Offsetof(a.doStyle), 80}, {"doLeash", unsafe.Offsetof(a.doLeash), 88},
		{"doHead", unsafe.Offsetof(a.doHead), 96}, {"cx", unsafe.Offsetof(a.cx), 104},
		{"cy", unsafe.Offsetof(a.cy), 136}, {"cz", unsafe.Offsetof(a.cz), 168},
		{"minR", unsafe.Offsetof(a.minR), 200}, {"minR2", unsafe.Offsetof(a.minR2), 232},
		{"eps", unsafe.Offsetof(a.eps), 264}, {"rx", unsafe.Offsetof(a.rx), 296},
		{"ry", unsafe.Offsetof(a.ry), 328}, {"rz", unsafe.Offsetof(a.rz), 360},
		{"seg", unsafe.Offsetof(a.seg), 392},
	})
}

// pullHair is a hair of strands x segments whose particles are scattered
// about (some past their leash, some inside the head), with two pinned
// particles past the root, style targets set, and a World particle after
// the hair unless last; the head is off the origin.
func pullHair(t *testing.T, strands, segments int, last bool) (*verlet3d.World, *Hair) {
	t.Helper()
	w, err := verlet3d.NewWorld(WorldConfig())
	if err != nil {
		t.Fatal(err)
	}
	s := DefaultSettings()
	s.Strands, s.Segments = strands, segments
	head := DefaultHead()
	head.Center = mgl32.Vec3{0.3, 1.6, -0.2}
	h, err := New(w, head, s)
	if err != nil {
		t.Fatal(err)
	}
	if !last {
		if _, err := w.AddParticle(mgl32.Vec3{5, 5, 5}, 1); err != nil {
			t.Fatal(err)
		}
	}
	w.Step()
	h.pos, h.prev, h.inv = w.Positions(), w.PrevPositions(), w.InvMasses()
	base := int(h.base)
	c := h.cur.c
	for o := 0; o < strands*h.per; o++ {
		f := float32(o)
		p := &h.pos[base+o]
		if o%h.per == 0 {
			continue // roots stay on the head
		}
		*p = p.Add(mgl32.Vec3{float32(0.05 * sin32(f)), float32(0.06 * sin32(float32(1.3*f))), float32(0.04 * sin32(float32(2.1*f)))})
		if o%7 == 3 {
			*p = c.Add(vecmath.Scale(vecmath.Normalize(p.Sub(c)), float32(0.6*h.head.Radius))) // inside the head
		}
		if o%11 == 5 {
			*p = p.Add(mgl32.Vec3{0.3, -0.2, 0.1}) // past its leash
		}
		h.target[o] = p.Add(mgl32.Vec3{float32(0.01 * sin32(float32(3*f))), 0.02, -0.01})
	}
	w.Pin(h.base + verlet3d.Particle(h.per+3))
	w.Pin(h.base + verlet3d.Particle(2*h.per+9))
	h.inv = w.InvMasses()
	return w, h
}

func sin32(x float32) float32 { return float32(math.Sin(float64(x))) }

// The pull this build runs (the kernel, or pull's loop) gives the
// positions of testdata/kernel_pull.txt (recorded with the kernel), with
// and without style, over whole and partial strand ranges, for strand
// lengths with and without a remainder past the kernel's groups, with the
// hair last in its World or not, moving most particles. Where the
// processor has the kernel, it also gives pull's loop's bits.
func TestPullKernelMatchesScalar(t *testing.T) {
	hash := golden.NewHash()
	for _, c := range []struct {
		strands, segments int
		last              bool
	}{{40, 16, false}, {40, 16, true}, {37, 12, false}, {9, 8, true}, {20, 24, false}, {12, 5, false}} {
		_, kh := pullHair(t, c.strands, c.segments, c.last)
		_, sh := pullHair(t, c.strands, c.segments, c.last)
		sh.noKernels = true
		if simd.AVX2() && c.segments >= 8 && kh.pullKernelGroups() == 0 {
			t.Fatalf("%+v: the kernel is off", c)
		}
		base := int(kh.base)
		before := append([]mgl32.Vec3(nil), kh.pos[base:base+c.strands*kh.per]...)
		for _, style := range []float32{kh.set.StyleStiffness, 0} {
			kh.set.StyleStiffness, sh.set.StyleStiffness = style, style
			for _, r := range [][2]int{{0, c.strands}, {3, c.strands - 2}, {c.strands - 1, c.strands}} {
				for _, f := range [][2]bool{{true, true}, {false, true}, {true, false}, {false, false}} {
					kh.pull(r[0], r[1], f[0], f[1])
					sh.pull(r[0], r[1], f[0], f[1])
					for o := 0; o < c.strands*kh.per; o++ {
						a, b := kh.pos[base+o], sh.pos[base+o]
						for k := range a {
							if math.Float32bits(a[k]) != math.Float32bits(b[k]) {
								t.Fatalf("%+v style %v range %v leash, head %v: particle %d at %v with the kernel, %v without", c, style, r, f, o, a, b)
							}
						}
					}
					hash.Vec3s(kh.pos[base : base+c.strands*kh.per])
				}
			}
		}
		moved := 0
		for o, p := range before {
			if p != kh.pos[base+o] {
				moved++
			}
		}
		if moved < len(before)/2 {
			t.Fatalf("%+v: pull moved %d of %d particles", c, moved, len(before))
		}
	}
	golden.Kernel(t, "pull", hash)
}

// The offsets links_amd64.s reads linkArgs at.
func TestLinkArgsLayout(t *testing.T) {
	var a linkArgs
	checkOffsets(t, "links_amd64.s", []offset{
		{"pos", unsafe.Offsetof(a.pos), 0}, {"inv", unsafe.Offsetof(a.inv), 8},
		{"kS", unsafe.Offsetof(a.kS), 16}, {"kB", unsafe.Offsetof(a.kB), 24},
		{"bendRest", unsafe.Offsetof(a.bendRest), 32}, {"bendInv", unsafe.Offsetof(a.bendInv), 40},
		{"lamS", unsafe.Offsetof(a.lamS), 48}, {"lamB", unsafe.Offsetof(a.lamB), 56},
		{"restSeg", unsafe.Offsetof(a.restSeg), 64}, {"segInv", unsafe.Offsetof(a.segInv), 72},
		{"per", unsafe.Offsetof(a.per), 80}, {"strideP", unsafe.Offsetof(a.strideP), 88},
		{"strideW", unsafe.Offsetof(a.strideW), 96}, {"useAS", unsafe.Offsetof(a.useAS), 104},
		{"j", unsafe.Offsetof(a.j), 112}, {"aS", unsafe.Offsetof(a.aS), 128},
		{"aB", unsafe.Offsetof(a.aB), 160}, {"ax", unsafe.Offsetof(a.ax), 192},
		{"ay", unsafe.Offsetof(a.ay), 224}, {"az", unsafe.Offsetof(a.az), 256},
		{"cx", unsafe.Offsetof(a.cx), 288}, {"cy", unsafe.Offsetof(a.cy), 320},
		{"cz", unsafe.Offsetof(a.cz), 352}, {"wa", unsafe.Offsetof(a.wa), 384},
		{"wc", unsafe.Offsetof(a.wc), 416}, {"r", unsafe.Offsetof(a.r), 448},
		{"ir", unsafe.Offsetof(a.ir), 480}, {"br", unsafe.Offsetof(a.br), 512},
		{"bi", unsafe.Offsetof(a.bi), 544},
	})
}

// The links pass this build runs (the kernel, or links' loop) gives the
// positions and both multipliers of testdata/kernel_links.txt (recorded
// with the kernel), over several passes, with stretch compliance and
// without, with particles pinned mid-strand, segments stretched and
// squashed past the square-root-free range, and a segment of zero length,
// moving most particles. Where the processor has the kernel, it also
// gives links' loop's bits.
func TestLinksKernelMatchesScalar(t *testing.T) {
	hash := golden.NewHash()
	for _, c := range []struct {
		strands, segments int
		stretch           float32
	}{{40, 16, 0}, {40, 16, 1e-7}, {33, 12, 0}, {17, 5, 1e-6}, {24, 3, 0}} {
		_, kh := pullHair(t, c.strands, c.segments, false)
		_, sh := pullHair(t, c.strands, c.segments, false)
		sh.noKernels = true
		for _, h := range []*Hair{kh, sh} {
			h.set.StretchCompliance = c.stretch
			base := int(h.base)
			// Zero-length stretch and bend links (particles 1 and 2 on
			// their pinned root, so that they stay there) and a squashed
			// segment.
			h.pos[base+3*h.per+1] = h.pos[base+3*h.per]
			h.pos[base+3*h.per+2] = h.pos[base+3*h.per]
			p := &h.pos[base+5*h.per+3]
			*p = h.pos[base+5*h.per+2].Add(vecmath.Scale(p.Sub(h.pos[base+5*h.per+2]), 0.3))
			h.invH2 = 3600
			h.kAS, h.kAB = -1, -1
			h.prepare(0, c.strands)
		}
		if kh.linksKernel(0, 8) != simd.AVX2() {
			t.Fatalf("%+v: the kernel is on %v with kernels %v", c, kh.linksKernel(0, 8), simd.AVX2())
		}
		base := int(kh.base)
		before := append([]mgl32.Vec3(nil), kh.pos[base:base+c.strands*kh.per]...)
		for pass := 0; pass < 3; pass++ {
			for b := 0; b < c.strands; b += block {
				e := min(b+block, c.strands)
				kh.links(b, e)
				sh.links(b, e)
			}
			for o := 0; o < c.strands*kh.per; o++ {
				a, b := kh.pos[base+o], sh.pos[base+o]
				for k := range a {
					if math.Float32bits(a[k]) != math.Float32bits(b[k]) {
						t.Fatalf("%+v pass %d: particle %d (strand %d) at %v with the kernel, %v without", c, pass, o, o/kh.per, a, b)
					}
				}
				if math.Float32bits(kh.lamS[o]) != math.Float32bits(sh.lamS[o]) || math.Float32bits(kh.lamB[o]) != math.Float32bits(sh.lamB[o]) {
					t.Fatalf("%+v pass %d: multipliers of %d are %v, %v with the kernel, %v, %v without", c, pass, o, kh.lamS[o], kh.lamB[o], sh.lamS[o], sh.lamB[o])
				}
			}
			n := c.strands * kh.per
			hash.Vec3s(kh.pos[base : base+n])
			hash.Float32s(kh.lamS[:n]...)
			hash.Float32s(kh.lamB[:n]...)
		}
		moved := 0
		for o, p := range before {
			if p != kh.pos[base+o] {
				moved++
			}
		}
		if moved < len(before)/2 {
			t.Fatalf("%+v: the passes moved %d of %d particles", c, moved, len(before))
		}
	}
	golden.Kernel(t, "links", hash)
}
