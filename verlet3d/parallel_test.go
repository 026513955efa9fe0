package verlet3d_test

import (
	"sort"
	"sync"
	"testing"

	"github.com/drape3d/drape/verlet3d"
)

// World.Parallel covers every item exactly once, in the ranges its doc
// promises: f(0, n) with one worker or from inside another job, else the
// non-empty chunks [n·j/(16·W), n·(j+1)/(16·W)).
func TestParallelRanges(t *testing.T) {
	for _, workers := range []int{1, 2, 3, 4, 8} {
		cfg := verlet3d.DefaultConfig()
		cfg.Workers = workers
		w, err := verlet3d.NewWorld(cfg)
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range []int{0, 1, 2, 7, 15, 16, 17, 100, 2000} {
			var mu sync.Mutex
			var got [][2]int
			hits := make([]int, n)
			w.Parallel(n, func(lo, hi int) {
				mu.Lock()
				got = append(got, [2]int{lo, hi})
				mu.Unlock()
				for i := lo; i < hi; i++ {
					hits[i]++ // each item is in one range only: no race
				}
			})
			for i, h := range hits {
				if h != 1 {
					t.Fatalf("workers %d, n %d: item %d done %d times", workers, n, i, h)
				}
			}
			var want [][2]int
			if m := 16 * workers; n > 0 && (workers == 1 || n == 1) {
				want = append(want, [2]int{0, n})
			} else {
				for j := 0; j < m && n > 0; j++ {
					if lo, hi := n*j/m, n*(j+1)/m; lo < hi {
						want = append(want, [2]int{lo, hi})
					}
				}
			}
			sort.Slice(got, func(a, b int) bool { return got[a][0] < got[b][0] })
			if len(got) != len(want) {
				t.Fatalf("workers %d, n %d: ranges %v, want %v", workers, n, got, want)
			}
			for k := range want {
				if got[k] != want[k] {
					t.Fatalf("workers %d, n %d: ranges %v, want %v", workers, n, got, want)
				}
			}
		}
		// From inside a job: the whole range, inline.
		var inner [][2]int
		var mu sync.Mutex
		w.Parallel(2*workers, func(lo, hi int) {
			w.Parallel(10, func(a, b int) {
				mu.Lock()
				inner = append(inner, [2]int{a, b})
				mu.Unlock()
			})
		})
		for _, r := range inner {
			if r != [2]int{0, 10} {
				t.Fatalf("workers %d: a nested call ran range %v, want [0 10]", workers, r)
			}
		}
		w.Close()
	}
}
