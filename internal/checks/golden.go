package checks

import (
	"fmt"
	"testing"

	"github.com/drape3d/drape/internal/golden"

	"github.com/go-gl/mathgl/mgl32"
)

// PositionsHash is FNV-1a 64 of the float32 bits of every position.
func PositionsHash(ps []mgl32.Vec3) string { return golden.Positions(ps) }

// Golden runs a scene on 1, 2 and 4 workers: all three must give the same
// positions, bit for bit, and match testdata/golden_<name>.txt (rewritten
// with -update).
func Golden(t *testing.T, name string, steps int, run func(workers, steps int) []mgl32.Vec3) {
	t.Helper()
	var hashes []string
	for _, workers := range []int{1, 2, 4} {
		hashes = append(hashes, PositionsHash(run(workers, steps)))
	}
	if hashes[1] != hashes[0] || hashes[2] != hashes[0] {
		t.Errorf("%s: positions differ between worker counts 1, 2, 4: %v", name, hashes)
	}
	golden.Check(t, "golden_"+name+".txt", fmt.Sprintf("%s: FNV-1a 64 of the float32 bits of every particle position after %d steps,\n"+
		"the same for Workers 1, 2 and 4. Refresh: make golden (go test -run Golden -update).", name, steps), name+": positions", hashes[0])
}
