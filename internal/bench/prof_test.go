package bench_test

import (
	"math"
	"math/rand"
	"testing"

	"github.com/drape3d/drape/bodies"
	"github.com/drape3d/drape/cloth"
	"github.com/drape3d/drape/verlet3d"
	"github.com/go-gl/mathgl/mgl32"
)

func BenchmarkCapeScene(b *testing.B)   { benchCape(b, 1) }
func BenchmarkCapeSceneW2(b *testing.B) { benchCape(b, 2) }

func benchCape(b *testing.B, workers int) {
	sc := capeScene(b, workers)
	defer sc.w.Close()
	for i := 0; i < 60; i++ {
		sc.frame()
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		sc.frame()
	}
}

func benchScene(b *testing.B, sc scene) {
	defer sc.w.Close()
	for i := 0; i < 30; i++ {
		sc.frame()
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		sc.frame()
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/1e6, "ms/frame")
}

func BenchmarkCloth64(b *testing.B)   { benchScene(b, clothScene(b, 1, 10, 1)) }
func BenchmarkCloth64W2(b *testing.B) { benchScene(b, clothScene(b, 2, 10, 1)) }

// BenchmarkCubes100 times the first 2 s of cubesScene (the table's
// cubes100 row), building the scene afresh every 120 frames outside the
// timer.
func BenchmarkCubes100(b *testing.B)   { benchCubes(b, 1) }
func BenchmarkCubes100W2(b *testing.B) { benchCubes(b, 2) }

func benchCubes(b *testing.B, workers int) {
	b.ReportAllocs()
	var sc scene
	for i := 0; i < b.N; i++ {
		if i%120 == 0 {
			b.StopTimer()
			if sc.w != nil {
				sc.w.Close()
			}
			sc = cubesScene(b, workers)
			b.StartTimer()
		}
		sc.frame()
	}
	b.StopTimer()
	sc.w.Close()
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/1e6, "ms/frame")
}

// BenchmarkCubes100Asleep times a frame of cubesScene once its cubes have
// settled and fallen asleep, with a pendulum swinging 20 m away that keeps
// the World itself awake (so World sleeping does not hide the cost).
// BenchmarkCubes100RestingAwake is the same frame with every cube woken
// before it: the resting pile's cost without cube sleeping.
func BenchmarkCubes100Asleep(b *testing.B)       { benchCubesResting(b, true) }
func BenchmarkCubes100RestingAwake(b *testing.B) { benchCubesResting(b, false) }

func benchCubesResting(b *testing.B, asleep bool) {
	sc := cubesScene(b, 1)
	defer sc.w.Close()
	w, sys := sc.w, sc.cubes
	pivot, _ := w.AddParticle(mgl32.Vec3{20, 3, 0}, 1)
	w.Pin(pivot)
	bob, _ := w.AddParticle(mgl32.Vec3{21, 3, 0}, 1)
	if _, err := w.AddLink(pivot, bob, verlet3d.LinkSettings{}); err != nil {
		b.Fatal(err)
	}
	for i := 0; i < 900; i++ {
		sc.frame()
	}
	if w.Sleeping() || sys.Stats().Sleeping != sys.NumCubes() {
		b.Fatalf("World asleep %v, %d of %d cubes asleep", w.Sleeping(), sys.Stats().Sleeping, sys.NumCubes())
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if !asleep {
			for c := 0; c < sys.NumCubes(); c++ {
				sys.Wake(bodies.Cube(c))
			}
		}
		sc.frame()
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/1e6, "ms/frame")
}

// BenchmarkDrapedCrates times a frame of the demo's cubes scene without GL
// (drapedCrates) from its fifth second on, once the rain has landed: the
// tablecloth lies over the pyramid and the crates on it, held off their
// corners by a cloth.SurfaceCollision.
func BenchmarkDrapedCrates(b *testing.B) {
	w := drapedCrates(b)
	defer w.Close()
	for i := 0; i < 300; i++ {
		w.Step()
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		w.Step()
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/1e6, "ms/frame")
}

// drapedCrates is the demo's cubes scene (cmd/demo, its default flags)
// without GL: a stack of five 40 cm crates, a 3 x 3 + 2 x 2 + 1 pyramid of
// 36 cm crates, 30 smaller crates raining onto it and a 2.2 m tablecloth
// of 36 x 36 particles dropped over it, at DefaultConfig on 1 worker.
func drapedCrates(b *testing.B) *verlet3d.World {
	w := newWorld(b, 1, 0, 0)
	sys, err := bodies.NewSystem(w, bodies.DefaultSettings())
	if err != nil {
		b.Fatal(err)
	}
	floor, _ := verlet3d.NewBox(mgl32.Vec3{0, -0.25, 0}, mgl32.Vec3{6, 0.25, 6}, mgl32.QuatIdent())
	if err := sys.AddCollider(floor, verlet3d.ContactSettings{Friction: 0.6}); err != nil {
		b.Fatal(err)
	}
	add := func(s bodies.CubeSettings) {
		if _, err := sys.AddCube(s); err != nil {
			b.Fatal(err)
		}
	}
	const size = 0.4
	for i := 0; i < 5; i++ {
		add(bodies.CubeSettings{Size: size, Mass: 2, Position: mgl32.Vec3{-1.3, size/2 + float32(i)*size, -0.4},
			Rotation: mgl32.QuatRotate(0.08*float32(i), mgl32.Vec3{0, 1, 0})})
	}
	ps := float32(size * 0.9)
	for level := 0; level < 3; level++ {
		n := 3 - level
		for i := 0; i < n; i++ {
			for j := 0; j < n; j++ {
				off := (float32(n) - 1) / 2
				add(bodies.CubeSettings{Size: ps, Mass: 1.5, Position: mgl32.Vec3{
					0.9 + (float32(i)-off)*ps*1.02, ps/2 + float32(level)*ps, 0.5 + (float32(j)-off)*ps*1.02}})
			}
		}
	}
	r := rand.New(rand.NewSource(5))
	for i := 0; i < 30; i++ {
		s := 0.18 + 0.14*r.Float32()
		p := mgl32.Vec3{0.9 + 2*r.Float32() - 1, 3 + 0.35*float32(i), 0.5 + 2*r.Float32() - 1}
		q := mgl32.QuatRotate(r.Float32()*math.Pi, mgl32.Vec3{r.Float32() - 0.5, r.Float32() - 0.5, r.Float32() - 0.5}.Normalize())
		add(bodies.CubeSettings{Size: s, Mass: 0.5 + s*3, Position: p, Rotation: q,
			AngularVelocity: mgl32.Vec3{r.Float32() - 0.5, r.Float32() - 0.5, r.Float32() - 0.5}.Mul(4)})
	}
	const n, side = 36, 2.2
	cs := cloth.DefaultSettings()
	cs.Cols, cs.Rows = n, n
	cs.Spacing = side / (n - 1)
	cs.Mass = 0.6
	cs.Origin = mgl32.Vec3{0.9 - side/2, 1.9, 0.5 - side/2}
	cs.Down = mgl32.Vec3{0, 0, 1}
	cs.Radius = 0.015
	g, err := cloth.New(w, cs)
	if err != nil {
		b.Fatal(err)
	}
	var corners []verlet3d.Particle
	for c := 0; c < sys.NumCubes(); c++ {
		cc := sys.Corners(bodies.Cube(c))
		corners = append(corners, cc[:]...)
	}
	if _, err := cloth.NewSurfaceCollision(g, corners, cs.Radius); err != nil {
		b.Fatal(err)
	}
	return w
}
