package nofma

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// fusedInstr matches the multiply-adds of arm64 (FMADDS, FNMSUBD, ...) and
// of amd64 (VFMADD231SS, ...) in the compiler's assembly listing.
var fusedInstr = regexp.MustCompile(`\s(F(N)?M(ADD|SUB)[SD]|VFN?M(ADD|SUB)\d*S[SD])\s`)

// fused compiles pkgs for the target env describes and returns the lines
// of the assembly listing (go build -gcflags=-S) with a multiply-add.
func fused(t *testing.T, dir string, env []string, pkgs ...string) []string {
	t.Helper()
	cmd := exec.Command("go", append([]string{"build", "-gcflags=-S"}, pkgs...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go build %v: %v\n%s", pkgs, err, out)
	}
	var lines []string
	for _, l := range strings.Split(string(out), "\n") {
		if fusedInstr.MatchString(l) {
			lines = append(lines, strings.TrimSpace(l))
		}
	}
	return lines
}

var targets = []struct {
	name string
	env  []string
}{
	{"arm64", []string{"GOARCH=arm64", "CGO_ENABLED=0"}},
	{"amd64 v3", []string{"GOARCH=amd64", "GOAMD64=v3", "CGO_ENABLED=0"}},
}

// The compiler, where it may fuse (arm64; amd64 at GOAMD64=v3), emits no
// multiply-add in the physics packages' code: what Check holds the source
// to, checked on what the compiler makes of it (mgl32's inlined methods
// and the standard library's included).
func TestCompiledPhysicsHasNoFMA(t *testing.T) {
	if testing.Short() {
		t.Skip("compiles the physics packages for arm64 and amd64 v3")
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
	root, err := filepath.Abs(filepath.Join("..", "..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	var pkgs []string
	for _, d := range PhysicsDirs {
		pkgs = append(pkgs, "./"+d)
	}
	for _, tg := range targets {
		for _, l := range fused(t, root, tg.env, pkgs...) {
			t.Errorf("%s: %s", tg.name, l)
		}
	}
}

// The scan finds the multiply-adds in testdata/fuse's unfixed cases.
func TestCompiledScanFindsFMA(t *testing.T) {
	if testing.Short() {
		t.Skip("compiles for arm64 and amd64 v3")
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
	for _, tg := range targets {
		if got := fused(t, ".", tg.env, "./testdata/fuse"); len(got) < 3 {
			t.Errorf("%s: found %d multiply-adds in testdata/fuse, want at least 3: %v", tg.name, len(got), got)
		}
	}
}
