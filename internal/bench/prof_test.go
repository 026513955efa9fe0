package bench_test

import "testing"

func BenchmarkCapeScene(b *testing.B) {
	sc := capeScene(b, 1)
	defer sc.w.Close()
	for i := 0; i < 60; i++ {
		sc.frame()
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		sc.frame()
	}
}
