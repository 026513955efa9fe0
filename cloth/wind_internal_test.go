package cloth

import (
	"math"
	"testing"
	"unsafe"

	"github.com/drape3d/drape/internal/golden"
	"github.com/drape3d/drape/internal/vecmath"
	"github.com/drape3d/drape/verlet3d"
	"github.com/go-gl/mathgl/mgl32"
)

// The offsets wind_amd64.s reads and writes windArgs at.
func TestWindArgsLayout(t *testing.T) {
	var a windArgs
	for _, c := range []struct {
		name      string
		got, want uintptr
	}{
		{"tris", unsafe.Offsetof(a.tris), 0}, {"alive", unsafe.Offsetof(a.alive), 8},
		{"airs", unsafe.Offsetof(a.airs), 16}, {"corners", unsafe.Offsetof(a.corners), 40},
		{"pos", unsafe.Offsetof(a.pos), 64}, {"prev", unsafe.Offsetof(a.prev), 72},
		{"air", unsafe.Offsetof(a.air), 80}, {"k3", unsafe.Offsetof(a.k3), 92},
		{"cp", unsafe.Offsetof(a.cp), 96}, {"cq", unsafe.Offsetof(a.cq), 100},
		{"one", unsafe.Offsetof(a.one), 104}, {"f", unsafe.Offsetof(a.f), 112},
		{"u", unsafe.Offsetof(a.u), 208}, {"e", unsafe.Offsetof(a.e), 304},
		{"fallback", unsafe.Offsetof(a.fallback), 496}, {"last3", unsafe.Offsetof(a.last3), 500},
		{"force", unsafe.Offsetof(a.force), 504}, {"net", unsafe.Offsetof(a.net), 512},
	} {
		if c.got != c.want {
			t.Errorf("windArgs.%s at %d, wind_amd64.s reads it at %d", c.name, c.got, c.want)
		}
	}
}

// The wind this build runs (the kernel, or the Go loop) gives the forces
// of testdata/kernel_wind.txt (recorded with the kernel) on sheets of 13 x
// 11 (a band's last triangles go through the Go loop) in uniform and in
// turbulent air, torn by a gale and cut (once splitting a vertex, so that
// the kernel's corners change), with a vertex pulled onto its neighbor
// (triangles with no area); in still air, most rows pinned (no relative
// wind); and at Drag 1e36, forces beyond maxWindForce (the float64 path).
// The net force of every frame's last substep is held to it bit for bit,
// and so is every position, which every substep's force on every vertex
// moved; in moving air the forces are not all zero. Where the processor has the kernel,
// a second sheet on the Go loop must match the kernel's bit for bit.
func TestWindKernelMatchesGoLoop(t *testing.T) {
	hash := golden.NewHash()
	for _, c := range []struct {
		name string
		air  verlet3d.Wind
		drag float32
		pins []int
	}{
		{"uniform", verlet3d.Wind{Steady: mgl32.Vec3{3, 1, 14}}, 1, []int{0}},
		{"turbulent", verlet3d.Wind{Steady: mgl32.Vec3{2, 0, 9}, Gust: 0.6, GustPeriod: 1.5, Turbulence: 2, TurbulenceScale: 0.4}, 1, []int{0}},
		{"still air", verlet3d.Wind{}, 1, []int{0, 1, 2, 3, 4, 5, 6, 7}},
		{"absurd drag", verlet3d.Wind{Steady: mgl32.Vec3{0, 0, 6}}, 1e36, []int{0}},
	} {
		t.Run(c.name, func(t *testing.T) {
			sheets := [2]*WindForce{}
			for k := range sheets {
				w, err := verlet3d.NewWorld(verlet3d.DefaultConfig())
				if err != nil {
					t.Fatal(err)
				}
				defer w.Close()
				s := DefaultSettings()
				s.Cols, s.Rows, s.Spacing, s.PinRows, s.TearStrain = 13, 11, 0.1, c.pins, 0.6
				g, err := New(w, s)
				if err != nil {
					t.Fatal(err)
				}
				ws := DefaultWindSettings()
				ws.Air, ws.Drag, ws.SampleStride = c.air, c.drag, 3
				wd, err := NewWindForce(g, ws)
				if err != nil {
					t.Fatal(err)
				}
				wd.noKernel = k == 1
				if wd.kernel() != (k == 0 && haveWindKernel()) {
					t.Fatalf("sheet %d: the kernel is on %v with kernels %v", k, wd.kernel(), haveWindKernel())
				}
				sheets[k] = wd
			}
			pushed := 0
			var withKernel, withLoop []mgl32.Vec3
			for frame := 0; frame < 90; frame++ {
				for _, wd := range sheets {
					g, w := wd.g, wd.g.w
					switch frame {
					case 20:
						if _, err := g.CutNear(w.Position(g.Particle(5, 6)), 0.12); err != nil {
							t.Fatal(err)
						}
					case 40:
						// No area: a vertex on its neighbor.
						p := g.Particle(8, 3)
						w.SetPosition(p, w.Position(g.Particle(8, 4)))
					case 60:
						// A vertex split in two: the cells up-left and
						// down-right of it cut away leave it two fans
						// of triangles, one of them on a new particle.
						for _, rc := range [2][2]int{{2, 8}, {3, 9}} {
							r, col := rc[0], rc[1]
							var m mgl32.Vec3
							for _, p := range []verlet3d.Particle{g.Particle(r, col), g.Particle(r+1, col), g.Particle(r, col+1), g.Particle(r+1, col+1)} {
								m = m.Add(w.Position(p))
							}
							if _, err := g.CutNear(vecmath.Scale(m, 0.25), 0.01); err != nil {
								t.Fatal(err)
							}
						}
					case 41:
						// No relative wind: a patch moving as the air does.
						v := c.air.Velocity(w.Position(g.Particle(9, 9)), float32(w.Time()))
						for r := 8; r < 11; r++ {
							for col := 8; col < 11; col++ {
								w.SetVelocity(g.Particle(r, col), v)
							}
						}
					}
					w.Step()
				}
				a, b := sheets[0], sheets[1]
				if !sameBits(a.NetForce(), b.NetForce()) {
					t.Fatalf("frame %d: net force %v with the kernel, %v with the Go loop", frame, a.NetForce(), b.NetForce())
				}
				withKernel = a.g.Positions(withKernel[:0])
				withLoop = b.g.Positions(withLoop[:0])
				for i := range withKernel {
					if !sameBits(withKernel[i], withLoop[i]) {
						t.Fatalf("frame %d: vertex %d at %v with the kernel, %v with the Go loop", frame, i, withKernel[i], withLoop[i])
					}
				}
				net := a.NetForce()
				hash.Vec3s([]mgl32.Vec3{net})
				hash.Vec3s(withKernel)
				if net != (mgl32.Vec3{}) {
					pushed++
				}
			}
			if pushed < 45 && c.name != "still air" {
				t.Errorf("the air pushed the sheet on %d of 90 frames, want half or more", pushed)
			}
			if n := len(sheets[0].g.verts); n == 13*11 {
				t.Errorf("no vertex was split (%d vertices)", n)
			}
			if n := sheets[0].g.NumTriangles(); n == 2*12*10 && c.name != "still air" {
				t.Errorf("no triangle was torn away (%d triangles)", n)
			}
		})
	}
	golden.Kernel(t, "wind", hash)
}

// sameBits reports whether two vectors have the same bits (a NaN equals
// itself, -0 is not 0).
func sameBits(a, b mgl32.Vec3) bool {
	for i := range a {
		if math.Float32bits(a[i]) != math.Float32bits(b[i]) {
			return false
		}
	}
	return true
}
