// Package golden keeps the bits a test computed in testdata files, so
// that every build of the physics packages (with the AVX2 kernels, with
// -tags purego, at GOAMD64=v3, on arm64) is held to the same bits. It
// imports only the standard library and mgl32, so the physics packages'
// internal tests can use it; internal/checks builds its scene goldens on
// it.
package golden

import (
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
)

// update rewrites the goldens: after an intended change of the solver or
// its defaults, run `make golden` (go test ./PKG -run 'Golden|Kernel' -update
// in verlet3d, cloth, hair and bodies), read the diff of testdata/*.txt and
// commit it with the change.
var update = flag.Bool("update", false, "rewrite testdata/golden_*.txt and testdata/kernel_*.txt from this run")

// Updating reports whether the test binary runs with -update.
func Updating() bool { return *update }

// Hash accumulates FNV-1a 64 of float32 bits.
type Hash struct{ sum uint64 }

// NewHash returns an empty Hash.
func NewHash() *Hash { return &Hash{sum: 14695981039346656037} }

// Float32s adds the bits of every value, every NaN as the one quiet NaN
// 0x7FC00000: a NaN an operation makes (Inf - Inf) has the sign bit set
// on amd64 and clear on arm64, so a golden holds that a value is NaN, not
// which NaN. (Where there is a kernel, the kernel tests compare it with
// the Go loop bit for bit, NaNs included.)
func (h *Hash) Float32s(xs ...float32) {
	for _, x := range xs {
		b := math.Float32bits(x)
		if x != x {
			b = 0x7FC00000
		}
		for k := 0; k < 4; k++ {
			h.sum ^= uint64(byte(b >> (8 * k)))
			h.sum *= 1099511628211
		}
	}
}

// Vec3s adds the bits of every coordinate of every vector.
func (h *Hash) Vec3s(vs []mgl32.Vec3) {
	for _, v := range vs {
		h.Float32s(v[0], v[1], v[2])
	}
}

// Ints adds each integer as 8 bytes (counts a kernel returns).
func (h *Hash) Ints(ns ...int) {
	for _, n := range ns {
		u := uint64(n)
		for k := 0; k < 8; k++ {
			h.sum ^= u >> (8 * k) & 0xff
			h.sum *= 1099511628211
		}
	}
}

// String is the hash in 16 hex digits.
func (h *Hash) String() string { return fmt.Sprintf("%016x", h.sum) }

// Positions is FNV-1a 64 of the float32 bits of every position, as
// testdata/golden_*.txt hold it.
func Positions(ps []mgl32.Vec3) string {
	h := NewHash()
	h.Vec3s(ps)
	return h.String()
}

// Check compares hash with the last line of testdata/<file>, or writes
// that file (header, a comment of one or more lines, then the hash) with
// -update. what names the bits in the failure message.
func Check(t testing.TB, file, header, what, hash string) {
	t.Helper()
	path := filepath.Join("testdata", file)
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		for _, line := range strings.Split(strings.TrimSpace(header), "\n") {
			b.WriteString("# " + line + "\n")
		}
		b.WriteString(hash + "\n")
		if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("wrote %s: %s", path, hash)
		return
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (create it with -update)", err)
	}
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	if want := strings.TrimSpace(lines[len(lines)-1]); hash != want {
		t.Errorf("%s: hash %s, %s holds %s: the bits changed. If intended (solver or default change), "+
			"refresh with `make golden` and commit the testdata diff", what, hash, path, want)
	}
}

// Kernel checks the bits a kernel-equivalence test computed on the path
// this build runs (the AVX2 kernel, or the portable loop under -tags
// purego, GODEBUG=cpu.avx2=off or on arm64) against
// testdata/kernel_<name>.txt, recorded where the kernel runs: so the
// portable loops are held to the kernel's bits on every case the test
// builds, not only to their own.
func Kernel(t testing.TB, name string, h *Hash) {
	t.Helper()
	Check(t, "kernel_"+name+".txt", name+": FNV-1a 64 of the bits the kernel-equivalence test computes, the same\n"+
		"with the kernels and with the portable loops. Refresh: make golden (-update).", name, h.String())
}
