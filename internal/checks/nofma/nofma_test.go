package nofma

import (
	"bufio"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// The physics packages and the internal helpers they use hold no float
// expression a compiler may fuse: a new one fails here, and
// `go run ./internal/checks/cmd/nofma -w DIR` fixes it.
func TestPhysicsHasNoFusableExpressions(t *testing.T) {
	if testing.Short() {
		t.Skip("type-checks the physics packages from source")
	}
	root := filepath.Join("..", "..", "..")
	var dirs []string
	for _, d := range PhysicsDirs {
		dirs = append(dirs, filepath.Join(root, filepath.FromSlash(d)))
	}
	finds, err := NewChecker().Check(dirs...)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range finds {
		t.Error(f)
	}
	if len(finds) > 0 {
		t.Log("fix them with: go run ./internal/checks/cmd/nofma -w " + strings.Join(PhysicsDirs, " "))
	}
}

var want = regexp.MustCompile(`// want (\w+)`)

// Check reports exactly the lines of testdata/fuse marked "want", with
// their kinds.
func TestCheckFindsTheCases(t *testing.T) {
	finds, err := NewChecker().Check(filepath.Join("testdata", "fuse"))
	if err != nil {
		t.Fatal(err)
	}
	got := map[int]string{}
	for _, f := range finds {
		if got[f.Pos.Line] != "" {
			t.Errorf("line %d reported twice: %v", f.Pos.Line, f)
		}
		got[f.Pos.Line] = f.Kind
	}
	wanted := map[int]string{}
	fh, err := os.Open(filepath.Join("testdata", "fuse", "fuse.go"))
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	sc := bufio.NewScanner(fh)
	for line := 1; sc.Scan(); line++ {
		if m := want.FindStringSubmatch(sc.Text()); m != nil {
			wanted[line] = m[1]
		}
	}
	for line, k := range wanted {
		if got[line] != k {
			t.Errorf("line %d: got %q, want %q", line, got[line], k)
		}
	}
	for line, k := range got {
		if wanted[line] == "" {
			t.Errorf("line %d: unexpected %s finding", line, k)
		}
	}
}

// Rewrite fixes every case, and then Check finds nothing.
func TestRewriteFixesTheCases(t *testing.T) {
	dir, err := os.MkdirTemp("testdata", "rewrite")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	src, err := os.ReadFile(filepath.Join("testdata", "fuse", "fuse.go"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "fuse.go"), src, 0o644); err != nil {
		t.Fatal(err)
	}
	changed, left, err := NewChecker().Rewrite(true, dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(changed) != 1 || len(left) != 0 {
		t.Fatalf("changed %v, left %v", changed, left)
	}
	out, _ := os.ReadFile(filepath.Join(dir, "fuse.go"))
	for _, s := range []string{
		"a := float32(x*y) + z", "b := z - float32(x*y)", "c := -(float32(x * y)) + z",
		"g := float32(x * y * z)", "k := float32(x / 2)", "l := x / 3", "e = float32(e * z)",
		"dd := float64(d*d) + 1", "vecmath.Dot(v, w)", "vecmath.Scale(v, x)", "vecmath.QuatRotate(q, v)",
		"_ = meters(m * m)", "a += float32(x * y)", `"github.com/drape3d/drape/internal/vecmath"`,
	} {
		if !strings.Contains(string(out), s) {
			t.Errorf("rewritten file lacks %q:\n%s", s, out)
		}
	}
	finds, err := NewChecker().Check(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range finds {
		t.Errorf("after Rewrite: %v", f)
	}
}
