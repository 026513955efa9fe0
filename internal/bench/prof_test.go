package bench_test

import "testing"

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
