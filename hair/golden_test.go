package hair_test

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

	"github.com/drape3d/drape/hair"
	"github.com/drape3d/drape/verlet3d"
	"github.com/go-gl/mathgl/mgl32"
)

// Determinism golden of hair on a head that turns, nods and walks in
// gusty wind, with neck and shoulder colliders.
func TestGoldenHair(t *testing.T) {
	checkGolden(t, "hair", 240, func(workers, steps int) []mgl32.Vec3 {
		r := newRig(t, func(s *hair.Settings) { s.Strands = 120 }, workers)
		defer r.w.Close()
		if err := r.h.SetWind(verlet3d.Wind{Steady: mgl32.Vec3{6, 0, 2}, Gust: 0.5, GustPeriod: 2, Turbulence: 2, TurbulenceScale: 0.5}); err != nil {
			t.Fatal(err)
		}
		c0 := r.h.Head().Center
		for i := 0; i < steps; i++ {
			tm := float64(i) / 60
			q := mgl32.QuatRotate(float32(0.5*math.Sin(2*math.Pi*tm)), mgl32.Vec3{0, 1, 0}).
				Mul(mgl32.QuatRotate(float32(0.3*math.Sin(2*math.Pi*1.5*tm)), mgl32.Vec3{1, 0, 0}))
			if err := r.h.SetHead(c0.Add(mgl32.Vec3{0, 0, float32(1.5 * tm)}), q); err != nil {
				t.Fatal(err)
			}
			r.w.Step()
		}
		return r.w.Positions()
	})
}

// update rewrites the goldens: after an intended change of the solver or
// its defaults, run `make golden` (go test ./PKG -run Golden -update in
// cloth, hair and bodies), read the diff of testdata/golden_*.txt and
// commit it with the change.
var update = flag.Bool("update", false, "rewrite testdata/golden_*.txt from this run")

// positionsHash is FNV-1a 64 of the float32 bits of every position.
func positionsHash(ps []mgl32.Vec3) string {
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

// checkGolden runs a scene on 1, 2 and 4 workers: all three must give the
// same positions, bit for bit, and match testdata/golden_<name>.txt.
func checkGolden(t *testing.T, name string, steps int, run func(workers, steps int) []mgl32.Vec3) {
	t.Helper()
	var hashes []string
	for _, workers := range []int{1, 2, 4} {
		hashes = append(hashes, positionsHash(run(workers, steps)))
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
