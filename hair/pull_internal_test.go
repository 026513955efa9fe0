package hair

import (
	"math"
	"testing"
	"unsafe"

	"github.com/drape3d/drape/internal/simd"
	"github.com/drape3d/drape/verlet3d"
	"github.com/go-gl/mathgl/mgl32"
)

// The offsets pull_amd64.s reads pullArgs at.
func TestPullArgsLayout(t *testing.T) {
	var a pullArgs
	for _, c := range []struct {
		name      string
		got, want uintptr
	}{
		{"pos", unsafe.Offsetof(a.pos), 0}, {"target", unsafe.Offsetof(a.target), 8},
		{"inv", unsafe.Offsetof(a.inv), 16}, {"restSeg", unsafe.Offsetof(a.restSeg), 24},
		{"js", unsafe.Offsetof(a.js), 32}, {"style", unsafe.Offsetof(a.style), 40},
		{"strands", unsafe.Offsetof(a.strands), 48}, {"groups", unsafe.Offsetof(a.groups), 56},
		{"strideP", unsafe.Offsetof(a.strideP), 64}, {"strideW", unsafe.Offsetof(a.strideW), 72},
		{"doStyle", unsafe.Offsetof(a.doStyle), 80}, {"cx", unsafe.Offsetof(a.cx), 88},
		{"cy", unsafe.Offsetof(a.cy), 120}, {"cz", unsafe.Offsetof(a.cz), 152},
		{"minR", unsafe.Offsetof(a.minR), 184}, {"minR2", unsafe.Offsetof(a.minR2), 216},
		{"eps", unsafe.Offsetof(a.eps), 248}, {"rx", unsafe.Offsetof(a.rx), 280},
		{"ry", unsafe.Offsetof(a.ry), 312}, {"rz", unsafe.Offsetof(a.rz), 344},
		{"seg", unsafe.Offsetof(a.seg), 376},
	} {
		if c.got != c.want {
			t.Errorf("pullArgs.%s at %d, pull_amd64.s reads it at %d", c.name, c.got, c.want)
		}
	}
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
		*p = p.Add(mgl32.Vec3{0.05 * sin32(f), 0.06 * sin32(1.3*f), 0.04 * sin32(2.1*f)})
		if o%7 == 3 {
			*p = c.Add(p.Sub(c).Normalize().Mul(0.6 * h.head.Radius)) // inside the head
		}
		if o%11 == 5 {
			*p = p.Add(mgl32.Vec3{0.3, -0.2, 0.1}) // past its leash
		}
		h.target[o] = p.Add(mgl32.Vec3{0.01 * sin32(3*f), 0.02, -0.01})
	}
	w.Pin(h.base + verlet3d.Particle(h.per+3))
	w.Pin(h.base + verlet3d.Particle(2*h.per+9))
	h.inv = w.InvMasses()
	return w, h
}

func sin32(x float32) float32 { return float32(math.Sin(float64(x))) }

// The pull kernel (where the processor has one) gives the same bits as
// pull's loop, with and without style, over whole and partial strand
// ranges, for strand lengths with and without a remainder past the
// kernel's groups, with the hair last in its World or not.
func TestPullKernelMatchesScalar(t *testing.T) {
	if !simd.AVX2() {
		t.Skip("no AVX2")
	}
	for _, c := range []struct {
		strands, segments int
		last              bool
	}{{40, 16, false}, {40, 16, true}, {37, 12, false}, {9, 8, true}, {20, 24, false}, {12, 5, false}} {
		_, kh := pullHair(t, c.strands, c.segments, c.last)
		_, sh := pullHair(t, c.strands, c.segments, c.last)
		sh.noKernel = true
		if c.segments >= 8 && kh.pullKernelGroups() == 0 {
			t.Fatalf("%+v: the kernel is off", c)
		}
		for _, style := range []float32{kh.set.StyleStiffness, 0} {
			kh.set.StyleStiffness, sh.set.StyleStiffness = style, style
			for _, r := range [][2]int{{0, c.strands}, {3, c.strands - 2}, {c.strands - 1, c.strands}} {
				kh.pull(r[0], r[1])
				sh.pull(r[0], r[1])
				base := int(kh.base)
				for o := 0; o < c.strands*kh.per; o++ {
					a, b := kh.pos[base+o], sh.pos[base+o]
					for k := range a {
						if math.Float32bits(a[k]) != math.Float32bits(b[k]) {
							t.Fatalf("%+v style %v range %v: particle %d at %v with the kernel, %v without", c, style, r, o, a, b)
						}
					}
				}
			}
		}
	}
}

// The offsets links_amd64.s reads linkArgs at.
func TestLinkArgsLayout(t *testing.T) {
	var a linkArgs
	off := func(p unsafe.Pointer) uintptr { return uintptr(p) - uintptr(unsafe.Pointer(&a)) }
	for _, c := range []struct {
		name      string
		got, want uintptr
	}{
		{"pos", off(unsafe.Pointer(&a.pos)), 0}, {"inv", off(unsafe.Pointer(&a.inv)), 8},
		{"kS", off(unsafe.Pointer(&a.kS)), 16}, {"kB", off(unsafe.Pointer(&a.kB)), 24},
		{"bendRest", off(unsafe.Pointer(&a.bendRest)), 32}, {"bendInv", off(unsafe.Pointer(&a.bendInv)), 40},
		{"lamS", off(unsafe.Pointer(&a.lamS)), 48}, {"lamB", off(unsafe.Pointer(&a.lamB)), 56},
		{"restSeg", off(unsafe.Pointer(&a.restSeg)), 64}, {"segInv", off(unsafe.Pointer(&a.segInv)), 72},
		{"per", off(unsafe.Pointer(&a.per)), 80}, {"strideP", off(unsafe.Pointer(&a.strideP)), 88},
		{"strideW", off(unsafe.Pointer(&a.strideW)), 96}, {"useAS", off(unsafe.Pointer(&a.useAS)), 104},
		{"j", off(unsafe.Pointer(&a.j)), 112}, {"aS", off(unsafe.Pointer(&a.aS)), 128},
		{"aB", off(unsafe.Pointer(&a.aB)), 160}, {"eps", off(unsafe.Pointer(&a.eps)), 192},
		{"c081", off(unsafe.Pointer(&a.c081)), 224}, {"c121", off(unsafe.Pointer(&a.c121)), 256},
		{"c05", off(unsafe.Pointer(&a.c05)), 288}, {"c15", off(unsafe.Pointer(&a.c15)), 320},
		{"half", off(unsafe.Pointer(&a.half)), 352}, {"one", off(unsafe.Pointer(&a.one)), 384},
		{"sign", off(unsafe.Pointer(&a.sign)), 416}, {"ax", off(unsafe.Pointer(&a.ax)), 448},
		{"ay", off(unsafe.Pointer(&a.ay)), 480}, {"az", off(unsafe.Pointer(&a.az)), 512},
		{"cx", off(unsafe.Pointer(&a.cx)), 544}, {"cy", off(unsafe.Pointer(&a.cy)), 576},
		{"cz", off(unsafe.Pointer(&a.cz)), 608}, {"wa", off(unsafe.Pointer(&a.wa)), 640},
		{"wc", off(unsafe.Pointer(&a.wc)), 672}, {"r", off(unsafe.Pointer(&a.r)), 704},
		{"ir", off(unsafe.Pointer(&a.ir)), 736}, {"br", off(unsafe.Pointer(&a.br)), 768},
		{"bi", off(unsafe.Pointer(&a.bi)), 800},
	} {
		if c.got != c.want {
			t.Errorf("linkArgs.%s at %d, links_amd64.s reads it at %d", c.name, c.got, c.want)
		}
	}
}

// The links kernel gives the same bits as links' loop: positions and both
// multipliers, over several passes, with stretch compliance and without,
// with particles pinned mid-strand, segments stretched and squashed past
// the square-root-free range, and a segment of zero length.
func TestLinksKernelMatchesScalar(t *testing.T) {
	if !simd.AVX2() {
		t.Skip("no AVX2")
	}
	for _, c := range []struct {
		strands, segments int
		stretch           float32
	}{{40, 16, 0}, {40, 16, 1e-7}, {33, 12, 0}, {17, 5, 1e-6}, {24, 3, 0}} {
		_, kh := pullHair(t, c.strands, c.segments, false)
		_, sh := pullHair(t, c.strands, c.segments, false)
		sh.noKernel = true
		for _, h := range []*Hair{kh, sh} {
			h.set.StretchCompliance = c.stretch
			base := int(h.base)
			// Zero-length stretch and bend links (particles 1 and 2 on
			// their pinned root, so that they stay there) and a squashed
			// segment.
			h.pos[base+3*h.per+1] = h.pos[base+3*h.per]
			h.pos[base+3*h.per+2] = h.pos[base+3*h.per]
			p := &h.pos[base+5*h.per+3]
			*p = h.pos[base+5*h.per+2].Add(p.Sub(h.pos[base+5*h.per+2]).Mul(0.3))
			h.invH2 = 3600
			h.kAS, h.kAB = -1, -1
			h.prepare(0, c.strands)
		}
		if !kh.linksKernel(0, 8) {
			t.Fatalf("%+v: the kernel is off", c)
		}
		for pass := 0; pass < 3; pass++ {
			for b := 0; b < c.strands; b += block {
				e := min(b+block, c.strands)
				kh.links(b, e)
				sh.links(b, e)
			}
			base := int(kh.base)
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
		}
	}
}
