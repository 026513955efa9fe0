package bodies_test

import (
	"github.com/drape3d/drape/internal/vecmath"
	"math/rand"
	"runtime"
	"testing"

	"github.com/drape3d/drape/bodies"
	"github.com/drape3d/drape/verlet3d"
	"github.com/go-gl/mathgl/mgl32"
)

// tumbling builds n cubes of 0.4 m in a loose grid above a floor, turned
// and thrown at random, so that they land, tumble and pile up.
func tumbling(b testing.TB, n int, cfg verlet3d.Config) *verlet3d.World {
	w, _ := tumblingSys(b, n, cfg)
	return w
}

func tumblingSys(b testing.TB, n int, cfg verlet3d.Config) (*verlet3d.World, *bodies.System) {
	w, s := newWorldWith(b, cfg)
	floor(b, s, mgl32.Vec3{0, 1, 0}, 0)
	r := rand.New(rand.NewSource(7))
	side := 1
	for side*side < n {
		side++
	}
	for i := 0; i < n; i++ {
		x, z := float32(i%side)-float32(float32(side)/2), float32(i/side)-float32(float32(side)/2)
		addCube(b, s, bodies.CubeSettings{
			Size: 0.4, Mass: 1,
			Position:        mgl32.Vec3{float32(x * 0.7), 0.5 + float32(1.5*r.Float32()), float32(z * 0.7)},
			Rotation:        randomQuat(r),
			Velocity:        vecmath.Scale(mgl32.Vec3{r.Float32() - 0.5, 0, r.Float32() - 0.5}, 2),
			AngularVelocity: vecmath.Scale(mgl32.Vec3{r.Float32() - 0.5, r.Float32() - 0.5, r.Float32() - 0.5}, 6),
		})
	}
	return w, s
}

// benchCubes measures one 1/60 s frame (one Step) of n solid cubes
// tumbling on a floor at cfg: the first two seconds after they are dropped
// (landing, tumbling, piling up, settling), the scene rebuilt every 120
// frames outside the timer.
func benchCubes(b *testing.B, n int, cfg verlet3d.Config) {
	timeFrames(b, func() *verlet3d.World { return tumbling(b, n, cfg) })
}

// timeFrames times one 1/60 s frame (one Step) per op of the World build
// makes, rebuilt outside the timer every 120 frames (a scene's first two
// seconds), and reports ms/frame and cpu-ms/frame: the CPU time of the
// benchmark's own thread, steadier than wall time on a machine other jobs
// keep busy (with 1 worker it is the cost of a frame; with 2 it leaves out
// the other worker's share).
func timeFrames(b *testing.B, build func() *verlet3d.World) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	b.ReportAllocs()
	var w *verlet3d.World
	var cpu int64
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if i%120 == 0 {
			b.StopTimer()
			if w != nil {
				w.Close()
			}
			w = build()
			b.StartTimer()
		}
		t0 := threadCPU()
		w.Step()
		cpu += threadCPU() - t0
	}
	b.StopTimer()
	w.Close()
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/1e6, "ms/frame")
	b.ReportMetric(float64(cpu)/float64(b.N)/1e6, "cpu-ms/frame")
}

// config returns DefaultConfig with the given workers and iterations (0:
// the default).
func config(workers, iterations int) verlet3d.Config {
	c := verlet3d.DefaultConfig()
	c.Workers = workers
	if iterations > 0 {
		c.Iterations = iterations
	}
	return c
}

// oldDefault returns the defaults before issue 12 (2 substeps of 10
// iterations, Damping 0.5, MaxSpeed 50) with the given workers, for the
// cost of the new defaults beside the old in one run.
func oldDefault(workers int) verlet3d.Config {
	c := verlet3d.DefaultConfig()
	c.Substeps, c.Iterations, c.Damping, c.MaxSpeed = 2, 10, 0.5, 50
	c.Workers = workers
	return c
}

func BenchmarkCubes100(b *testing.B)                   { benchCubes(b, 100, config(1, 0)) }
func BenchmarkCubes100Workers2(b *testing.B)           { benchCubes(b, 100, config(2, 0)) }
func BenchmarkCubes100Iter4(b *testing.B)              { benchCubes(b, 100, config(1, 4)) }
func BenchmarkCubes100Iter4Workers2(b *testing.B)      { benchCubes(b, 100, config(2, 4)) }
func BenchmarkCubes25(b *testing.B)                    { benchCubes(b, 25, config(1, 0)) }
func BenchmarkCubes100OldDefault(b *testing.B)         { benchCubes(b, 100, oldDefault(1)) }
func BenchmarkCubes100OldDefaultWorkers2(b *testing.B) { benchCubes(b, 100, oldDefault(2)) }

// benchSeed is the baseline measured in the same run: the seed article's
// cubes, the same 100 crates as linked particles (9 particles, 36 links
// each) falling on the same floor with only the core's particle-plane
// contacts: no cube-cube contacts, no rigid response, no friction cone.
// The difference to benchCubes is what the bodies package costs.
func benchSeed(b *testing.B, n, iterations int) {
	build := func() *verlet3d.World {
		w, err := verlet3d.NewWorld(func() verlet3d.Config {
			c := verlet3d.DefaultConfig()
			c.Iterations = iterations
			return c
		}())
		if err != nil {
			b.Fatal(err)
		}
		p, _ := verlet3d.NewPlane(mgl32.Vec3{}, mgl32.Vec3{0, 1, 0})
		w.AddCollider(p, verlet3d.ContactSettings{Friction: 0.6})
		r := rand.New(rand.NewSource(7))
		side := 1
		for side*side < n {
			side++
		}
		for i := 0; i < n; i++ {
			x, z := float32(i%side)-float32(float32(side)/2), float32(i/side)-float32(float32(side)/2)
			c := mgl32.Vec3{float32(x * 0.7), 0.5 + float32(1.5*r.Float32()), float32(z * 0.7)}
			q := randomQuat(r)
			var ps []verlet3d.Particle
			for k := 0; k < 9; k++ {
				off := mgl32.Vec3{}
				if k < 8 {
					off = mgl32.Vec3{-0.2, -0.2, -0.2}
					for a := 0; a < 3; a++ {
						if k>>uint(a)&1 == 1 {
							off[a] = 0.2
						}
					}
				}
				p, _ := w.AddParticle(c.Add(vecmath.QuatRotate(q, off)), 1.0/9)
				ps = append(ps, p)
			}
			for a := range ps {
				for bb := a + 1; bb < len(ps); bb++ {
					w.AddLink(ps[a], ps[bb], verlet3d.LinkSettings{})
				}
			}
		}
		return w
	}
	timeFrames(b, build)
}

func BenchmarkSeedCubes100(b *testing.B)      { benchSeed(b, 100, 10) }
func BenchmarkSeedCubes100Iter4(b *testing.B) { benchSeed(b, 100, 4) }

// sceneCubes builds the cubes100 scene of internal/bench (cubesScene):
// 100 solid cubes of 0.4 m, 1 kg, in a 10 x 10 grid 0.7 m apart, turned,
// thrown and spun at random above a plane floor of friction 0.6, at
// DefaultSettings.
func sceneCubes(b testing.TB, cfg verlet3d.Config) *verlet3d.World {
	w, s := newWorldWith(b, cfg)
	floor(b, s, mgl32.Vec3{0, 1, 0}, 0.6)
	r := rand.New(rand.NewSource(7))
	for i := 0; i < 100; i++ {
		x, z := float32(i%10)-5, float32(i/10)-5
		q := vecmath.QuatAxisAngle(float32(r.Float32()*6.28), vecmath.Normalize(mgl32.Vec3{r.Float32() - 0.5, r.Float32() - 0.5, r.Float32() - 0.5}))
		addCube(b, s, bodies.CubeSettings{
			Size: 0.4, Mass: 1,
			Position:        mgl32.Vec3{float32(x * 0.7), 0.5 + float32(1.5*r.Float32()), float32(z * 0.7)},
			Rotation:        q,
			Velocity:        vecmath.Scale(mgl32.Vec3{r.Float32() - 0.5, 0, r.Float32() - 0.5}, 2),
			AngularVelocity: vecmath.Scale(mgl32.Vec3{r.Float32() - 0.5, r.Float32() - 0.5, r.Float32() - 0.5}, 6),
		})
	}
	return w
}

// benchScene times the cubes100 scene as the bench table does: every
// frame of its first two seconds.
func benchScene(b *testing.B, workers int) {
	timeFrames(b, func() *verlet3d.World { return sceneCubes(b, config(workers, 0)) })
}

func BenchmarkScene100(b *testing.B)         { benchScene(b, 1) }
func BenchmarkScene100Workers2(b *testing.B) { benchScene(b, 2) }
