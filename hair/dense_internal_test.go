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

// The offsets dense_amd64.s reads denseArgs and denseConsts at.
func TestDenseArgsLayout(t *testing.T) {
	var a denseArgs
	checkOffsets(t, "dense_amd64.s", []offset{
		{"dl", unsafe.Offsetof(a.dl), 0}, {"out", unsafe.Offsetof(a.out), 8},
		{"tan", unsafe.Offsetof(a.tan), 16}, {"segs", unsafe.Offsetof(a.segs), 24},
		{"strideP", unsafe.Offsetof(a.strideP), 32}, {"strideW", unsafe.Offsetof(a.strideW), 40},
		{"j", unsafe.Offsetof(a.j), 48}, {"k", unsafe.Offsetof(a.k), 56},
		{"root0", unsafe.Offsetof(a.root0), 64}, {"off0", unsafe.Offsetof(a.off0), 72},
		{"w0", unsafe.Offsetof(a.w0), 80}, {"g0", unsafe.Offsetof(a.g0), 88},
		{"seg0", unsafe.Offsetof(a.seg0), 96}, {"root", unsafe.Offsetof(a.root), 128},
		{"off", unsafe.Offsetof(a.off), 224}, {"w", unsafe.Offsetof(a.w), 320},
		{"g", unsafe.Offsetof(a.g), 416}, {"l", unsafe.Offsetof(a.l), 512},
		{"qq", unsafe.Offsetof(a.qq), 544},
	})
	var k denseConsts
	checkOffsets(t, "dense_amd64.s", []offset{
		{"m", unsafe.Offsetof(k.m), 0}, {"c", unsafe.Offsetof(k.c), 288},
		{"minR2", unsafe.Offsetof(k.minR2), 384}, {"eps", unsafe.Offsetof(k.eps), 416},
		{"one", unsafe.Offsetof(k.one), 448}, {"tiny", unsafe.Offsetof(k.tiny), 480},
		{"invSeg", unsafe.Offsetof(k.invSeg), 512}, {"per3", unsafe.Offsetof(k.per3), 544},
	})
}

// The render strands this build builds (the kernel, or update's loop)
// have the positions and tangents of testdata/kernel_dense.txt (recorded
// with the kernel), frame after frame of a head turning fast in a gusty
// wind, where render strands blow against the head and are pushed out of
// it (the strands the kernel hands back), for 301 strands of 12 segments,
// 5 render strands a guide (blocks of eight that mix guides, and a
// partial block at the end); most vertices move. Where the processor has
// the kernel, it also gives update's loop's bits.
func TestDenseKernelMatchesScalar(t *testing.T) {
	w, err := verlet3d.NewWorld(WorldConfig())
	if err != nil {
		t.Fatal(err)
	}
	s := DefaultSettings()
	s.Strands, s.Segments = 301, 12
	h, err := New(w, DefaultHead(), s)
	if err != nil {
		t.Fatal(err)
	}
	d, err := NewDense(h, 5, 3)
	if err != nil {
		t.Fatal(err)
	}
	if d.denseKernel() != simd.AVX2() {
		t.Fatalf("the kernel is on %v with kernels %v", d.denseKernel(), simd.AVX2())
	}
	hash := golden.NewHash()
	var first []mgl32.Vec3
	if err := h.SetWind(verlet3d.Wind{Steady: mgl32.Vec3{-12, 0, 4}, Gust: 0.4, GustPeriod: 1, Turbulence: 3, TurbulenceScale: 0.3}); err != nil {
		t.Fatal(err)
	}
	head := DefaultHead()
	for f := 0; f < 40; f++ {
		a := float32(float32(f) * 0.12)
		head.Rotation = vecmath.QuatMul(vecmath.QuatAxisAngle(a, mgl32.Vec3{0, 1, 0}), vecmath.QuatAxisAngle(float32(0.3*sin32(a)), mgl32.Vec3{1, 0, 0}))
		if err := h.SetHead(head.Center, head.Rotation); err != nil {
			t.Fatal(err)
		}
		w.Step()
		h.noKernels = false
		d.Update()
		pos := append([]mgl32.Vec3(nil), d.Positions()...)
		tan := append([]mgl32.Vec3(nil), d.Tangents()...)
		h.noKernels = true
		d.Update()
		for i := range pos {
			for _, v := range [][2]mgl32.Vec3{{pos[i], d.pos[i]}, {tan[i], d.tan[i]}} {
				for c := range 3 {
					if math.Float32bits(v[0][c]) != math.Float32bits(v[1][c]) {
						t.Fatalf("frame %d, render vertex %d (strand %d): %v with the kernel, %v without (position, then tangent)", f, i, i/d.per, v[0], v[1])
					}
				}
			}
		}
		hash.Vec3s(pos)
		hash.Vec3s(tan)
		if f == 0 {
			first = pos
		}
	}
	moved := 0
	for i, p := range d.pos {
		if p != first[i] {
			moved++
		}
	}
	if moved < len(first)/2 {
		t.Fatalf("%d of %d render vertices moved over the frames", moved, len(first))
	}
	golden.Kernel(t, "dense", hash)
}

// The kernel hands back exactly the strands update must redo: lane 3,
// whose blend is under 1e-10 m (too short to scale), lane 5, whose vertex ends
// inside the head, and lane 6, of zero length, whose tangents tangents
// cannot scale; it builds the others, vertices and tangents, as update
// does. Flagging too many would only be slower, so this checks the flags
// themselves. Without the kernel there are no flags: update's loop builds
// every strand itself (TestDenseKernelMatchesScalar holds it to the
// kernel's bits), so the test skips.
func TestDenseKernelFlags(t *testing.T) {
	if !simd.AVX2() {
		t.Skip("no render strand kernel: update's loop builds every strand, there are no hand-back flags to check")
	}
	const per = 3
	dl := make([]mgl32.Vec3, 8*per+1)
	out := make([]mgl32.Vec3, 8*per)
	tan := make([]mgl32.Vec3, 8*per)
	c := mgl32.Vec3{0.5, 2, -1}
	// The head's frame: no turn, center c; apply adds c to the roots.
	var k denseConsts
	for i, m := range mgl32.Ident3() {
		k.m[i] = simd.Broadcast(m)
	}
	for i := range 3 {
		k.c[i] = simd.Broadcast(c[i])
	}
	k.minR2, k.eps, k.one = simd.Broadcast(0.04), simd.Broadcast(1e-20), simd.Broadcast(1)
	k.tiny, k.invSeg = simd.Broadcast(1e-24), simd.Broadcast(0.5)
	for l := range k.per3 {
		k.per3[l] = per * 3
	}
	local := make([]mgl32.Vec3, 8) // roots in the head's frame
	offs := make([]mgl32.Vec3, 8)
	weights := make([][3]float32, 8)
	guides := make([][3]int32, 8)
	segs := make([]float32, 8)
	roots := make([]mgl32.Vec3, 8) // in the world
	for l := 0; l < 8; l++ {
		local[l] = mgl32.Vec3{float32(l + 1), float32(0.5 * float32(l)), -float32(l)}
		if l == 5 {
			local[l] = mgl32.Vec3{0, 0.25, 0} // its segments end inside
		}
		roots[l] = mgl32.Vec3{local[l][0] + c[0], local[l][1] + c[1], local[l][2] + c[2]}
		for j := 1; j < per; j++ {
			dl[l*per+j] = mgl32.Vec3{0.3, -float32(l + j), float32(0.1 * float32(j))}
			if l == 3 {
				// |v|² = 1e-22: scaled, a fine segment, but update
				// takes the guide's own (the same here) instead.
				dl[l*per+j] = mgl32.Vec3{1e-11, 0, 0}
			}
		}
		weights[l], guides[l], segs[l] = [3]float32{1, 0, 0}, [3]int32{int32(l), int32(l), int32(l)}, 0.1
		if l == 6 {
			segs[l] = 0
		}
	}
	a := denseArgs{
		dl: unsafe.Pointer(&dl[0]), out: unsafe.Pointer(&out[0]), tan: unsafe.Pointer(&tan[0]),
		segs: per - 1, strideP: per * 12, strideW: per * 4, k: &k,
		root0: unsafe.Pointer(&local[0]), off0: unsafe.Pointer(&offs[0]),
		w0: unsafe.Pointer(&weights[0]), g0: unsafe.Pointer(&guides[0]), seg0: unsafe.Pointer(&segs[0]),
	}
	if got, want := denseStrands8(&a), uint64(1<<3|1<<5|1<<6); got != want {
		t.Fatalf("flags %08b, want %08b", got, want)
	}
	for l := 0; l < 8; l++ {
		if l == 3 || l == 5 || l == 6 {
			continue
		}
		p := roots[l]
		for j := 0; j < per; j++ {
			if j > 0 {
				v := dl[l*per+j]
				k := float32(float32(0.1) * invSqrt(float32(v[0]*v[0])+float32(v[1]*v[1])+float32(v[2]*v[2])))
				p = mgl32.Vec3{p[0] + float32(v[0]*k), p[1] + float32(v[1]*k), p[2] + float32(v[2]*k)}
			}
			if out[l*per+j] != p {
				t.Fatalf("lane %d vertex %d at %v, want %v", l, j, out[l*per+j], p)
			}
		}
		want := make([]mgl32.Vec3, per)
		tangents(out[l*per:(l+1)*per], want)
		for j, tj := range want {
			if tan[l*per+j] != tj {
				t.Fatalf("lane %d tangent %d %v, want %v", l, j, tan[l*per+j], tj)
			}
		}
	}
}
