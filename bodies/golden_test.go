package bodies_test

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

	"github.com/drape3d/drape/bodies"
	"github.com/drape3d/drape/cloth"
	"github.com/drape3d/drape/hair"
	"github.com/drape3d/drape/verlet3d"
	"github.com/go-gl/mathgl/mgl32"
)

// cubeScene drops a tumbling pile of cubes on a floor and throws one.
func cubeScene(t *testing.T, workers int) (*verlet3d.World, *bodies.System) {
	w, s := newWorld(t, func(c *verlet3d.Config) { c.Workers = workers })
	floor(t, s, mgl32.Vec3{0, 1, 0}, 0.6)
	for i := 0; i < 12; i++ {
		addCube(t, s, bodies.CubeSettings{Size: 0.3, Mass: 1 + float32(i%3),
			Position:        mgl32.Vec3{float32(i%4)*0.25 - 0.4, 0.3 + float32(i)*0.35, float32(i%3) * 0.2},
			Rotation:        mgl32.QuatRotate(float32(i)*0.7, mgl32.Vec3{1, 1, 0}.Normalize()),
			AngularVelocity: mgl32.Vec3{0, float32(i % 5), 1}})
	}
	return w, s
}

// Determinism golden of cubes falling, stacking and being thrown.
func TestGoldenCubes(t *testing.T) {
	checkGolden(t, "cubes", 240, func(workers, steps int) []mgl32.Vec3 {
		w, s := cubeScene(t, workers)
		defer w.Close()
		for i := 0; i < steps; i++ {
			if i == 120 {
				if err := s.Throw(0, mgl32.Vec3{30, 5, 0}, mgl32.Vec3{0, 8, 0}); err != nil {
					t.Fatal(err)
				}
			}
			w.Step()
		}
		return w.Positions()
	})
}

// Determinism golden of everything in one World: cubes under a
// tablecloth in wind, and hair on a head beside them.
func TestGoldenMixed(t *testing.T) {
	checkGolden(t, "mixed", 180, func(workers, steps int) []mgl32.Vec3 {
		w, _ := cubeScene(t, workers)
		defer w.Close()
		cs := cloth.DefaultSettings()
		cs.Cols, cs.Rows, cs.Spacing, cs.Mass = 16, 16, 0.08, 0.4
		cs.Origin, cs.Down = mgl32.Vec3{-0.6, 2.5, -0.6}, mgl32.Vec3{0, 0, 1}
		g, err := cloth.New(w, cs)
		if err != nil {
			t.Fatal(err)
		}
		ws := cloth.DefaultWindSettings()
		ws.Air = verlet3d.Wind{Steady: mgl32.Vec3{3, 0, 0}, Turbulence: 1, TurbulenceScale: 0.5}
		if _, err := cloth.NewWindForce(g, ws); err != nil {
			t.Fatal(err)
		}
		head := hair.DefaultHead()
		head.Center = mgl32.Vec3{2, 1.6, 0}
		hs := hair.DefaultSettings()
		hs.Strands = 60
		h, err := hair.New(w, head, hs)
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i < steps; i++ {
			q := mgl32.QuatRotate(float32(0.4*math.Sin(float64(i)/20)), mgl32.Vec3{0, 1, 0})
			if err := h.SetHead(head.Center, q); err != nil {
				t.Fatal(err)
			}
			w.Step()
		}
		return w.Positions()
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
