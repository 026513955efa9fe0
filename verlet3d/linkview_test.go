package verlet3d_test

import (
	"slices"
	"testing"

	"github.com/drape3d/drape/verlet3d"
	"github.com/go-gl/mathgl/mgl32"
)

// UnbrokenLinks lists the links neither broken nor removed, in handle
// order, and with a reused slice does not allocate.
func TestUnbrokenLinks(t *testing.T) {
	w := newWorld(t, nil)
	var ps []verlet3d.Particle
	for i := 0; i < 5; i++ {
		ps = append(ps, add(t, w, mgl32.Vec3{float32(float32(i) * 0.1), 1, 0}, 1))
	}
	var ls []verlet3d.Link
	for i := 0; i+1 < len(ps); i++ {
		ls = append(ls, link(t, w, ps[i], ps[i+1], verlet3d.LinkSettings{}))
	}
	w.BreakLink(ls[1])
	w.RemoveLink(ls[2])
	got := w.UnbrokenLinks(nil)
	if want := []verlet3d.Link{ls[0], ls[3]}; !slices.Equal(got, want) {
		t.Errorf("UnbrokenLinks = %v, want %v (link %d broken, %d removed)", got, want, ls[1], ls[2])
	}
	dst := make([]verlet3d.Link, 0, 8)
	if a := testing.AllocsPerRun(100, func() { dst = w.UnbrokenLinks(dst[:0]) }); a != 0 {
		t.Errorf("UnbrokenLinks with a reused slice: %v allocations per call, want 0", a)
	}
}
