package bench_test

import (
	"testing"

	"github.com/drape3d/drape/bodies"
	"github.com/drape3d/drape/internal/draped"
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

// BenchmarkHair2000 times a frame of hairScene (the table's hair2000 row)
// after 30 frames.
func BenchmarkHair2000(b *testing.B)   { benchScene(b, hairScene(b, 1)) }
func BenchmarkHair2000W2(b *testing.B) { benchScene(b, hairScene(b, 2)) }

// BenchmarkCubes100 times the first 2 s of cubesScene (the table's
// cubes100 row), building the scene afresh every 120 frames outside the
// timer.
func BenchmarkCubes100(b *testing.B)   { benchCubes(b, 1, 0, 120) }
func BenchmarkCubes100W2(b *testing.B) { benchCubes(b, 2, 0, 120) }

// BenchmarkCubes100Plateau times frames 45-89 of cubesScene, where the
// table's median frame lies: about 90 crates landed and resting awake,
// some in piles (about 60 cube and 350 collider contacts a substep).
func BenchmarkCubes100Plateau(b *testing.B)   { benchCubes(b, 1, 45, 45) }
func BenchmarkCubes100PlateauW2(b *testing.B) { benchCubes(b, 2, 45, 45) }

// benchCubes times frames [skip, skip+frames) of cubesScene (benchFrames).
func benchCubes(b *testing.B, workers, skip, frames int) {
	benchFrames(b, func() scene { return cubesScene(b, workers) }, skip, frames)
}

// benchFrames times frames [skip, skip+frames) of the scene build makes,
// building it afresh (and running its first skip frames) outside the
// timer every frames frames.
func benchFrames(b *testing.B, build func() scene, skip, frames int) {
	b.ReportAllocs()
	var sc scene
	for i := 0; i < b.N; i++ {
		if i%frames == 0 {
			b.StopTimer()
			if sc.w != nil {
				sc.w.Close()
			}
			sc = build()
			for j := 0; j < skip; j++ {
				sc.frame()
			}
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
// (internal/draped: 30 crates rained onto the pyramid, seed 5 as in the
// demo, at DefaultConfig on 1 worker) from its fifth second on, once the
// rain has landed: the tablecloth lies over the pyramid and the crates on
// it, held off their corners by a cloth.SurfaceCollision.
func BenchmarkDrapedCrates(b *testing.B) {
	w := newWorld(b, 1, 0, 0)
	if _, err := draped.Build(w, 30, 5, true); err != nil {
		b.Fatal(err)
	}
	for i := 0; i < 270; i++ { // benchScene steps 30 more
		w.Step()
	}
	benchScene(b, scene{w: w, frame: w.Step})
}

// BenchmarkCloth64Floor is the table's cloth64default (the 64 x 64 cloth,
// 4 m, hung from its top edge at 4.5 m, at DefaultConfig) over a floor
// plane at y = 0 that it does not reach: what a floor under a banner, a
// curtain or a cape costs.
func BenchmarkCloth64Floor(b *testing.B)   { benchScene(b, clothFloorScene(b, 1)) }
func BenchmarkCloth64FloorW2(b *testing.B) { benchScene(b, clothFloorScene(b, 2)) }

func clothFloorScene(b *testing.B, workers int) scene {
	sc := clothScene(b, workers, 0, 0)
	floor, _ := verlet3d.NewPlane(mgl32.Vec3{}, mgl32.Vec3{0, 1, 0})
	if err := sc.w.AddCollider(floor, verlet3d.ContactSettings{Friction: 0.5}); err != nil {
		b.Fatal(err)
	}
	return sc
}

// BenchmarkTableclothDraping times the table's resting scene (a 64 x 64
// tablecloth dropped on a table, in still air) while it falls and drapes:
// frames 30-329, the scene built afresh every 300 frames.
func BenchmarkTableclothDraping(b *testing.B) {
	benchFrames(b, func() scene { return restingScene(b, 1) }, 30, 300)
}

// BenchmarkShowcase times a frame of the showcase table row after 30
// frames; BenchmarkWalker one of walker_1world.
func BenchmarkShowcase(b *testing.B) { benchScene(b, showcaseScene(b, 1, showcaseAfter)) }
func BenchmarkWalker(b *testing.B)   { benchScene(b, showcaseScene(b, 1, walkerOneWorld)) }
