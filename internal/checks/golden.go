package checks

import (
	"encoding/binary"
	"flag"
	"fmt"
	"hash/fnv"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
)

// update rewrites the goldens: after an intended change of the solver or
// its defaults, run `make golden` (go test ./PKG -run Golden -update in
// cloth, hair and bodies), read the diff of testdata/golden_*.txt and
// commit it with the change.
var update = flag.Bool("update", false, "rewrite testdata/golden_*.txt from this run")

// PositionsHash is FNV-1a 64 of the float32 bits of every position.
func PositionsHash(ps []mgl32.Vec3) string {
	h := fnv.New64a()
	var b [4]byte
	for _, p := range ps {
		for _, x := range p {
			binary.LittleEndian.PutUint32(b[:], math.Float32bits(x))
			h.Write(b[:])
		}
	}
	return fmt.Sprintf("%016x", h.Sum64())
}

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
	file := filepath.Join("testdata", "golden_"+name+".txt")
	if *update {
		text := fmt.Sprintf("# %s: FNV-1a 64 of the float32 bits of every particle position after %d steps,\n"+
			"# the same for Workers 1, 2 and 4. Refresh: make golden (go test -run Golden -update).\n%s\n", name, steps, hashes[0])
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(file, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("wrote %s: %s", file, hashes[0])
		return
	}
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("%v (create it with: go test -run Golden -update)", err)
	}
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	if want := strings.TrimSpace(lines[len(lines)-1]); hashes[0] != want {
		t.Errorf("%s: positions hash %s, golden %s: the simulation changed. If intended (solver or default change), "+
			"refresh with `make golden` and commit the testdata diff", name, hashes[0], want)
	}
}
