package cloth

import (
	"math/rand"
	"testing"
)

// nearestPins agrees with the brute-force search over every pin on random
// pin patterns (the distance exactly; among equally near pins any will do).
func TestNearestPinsMatchesBruteForce(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	for trial := 0; trial < 200; trial++ {
		rows, cols := 1+rng.Intn(20), 1+rng.Intn(20)
		pinned := make([]bool, rows*cols)
		density := float64(rng.Float64() * 0.3)
		for i := range pinned {
			pinned[i] = rng.Float64() < density
		}
		nearest, dist2 := nearestPins(pinned, rows, cols)
		any := false
		for _, p := range pinned {
			any = any || p
		}
		if !any {
			if nearest != nil {
				t.Fatalf("no pins, got a result")
			}
			continue
		}
		for i := range pinned {
			r, c := i/cols, i%cols
			best := int64(1 << 62)
			for j, p := range pinned {
				if p {
					dr, dc := int64(j/cols-r), int64(j%cols-c)
					best = min(best, dr*dr+dc*dc)
				}
			}
			n := int(nearest[i])
			dr, dc := int64(n/cols-r), int64(n%cols-c)
			if !pinned[n] || dist2[i] != best || dr*dr+dc*dc != best {
				t.Fatalf("%dx%d cell %d: nearest %d (pinned %v) at %d, distance %d, want %d", rows, cols, i, n, pinned[n], dr*dr+dc*dc, dist2[i], best)
			}
		}
	}
}
