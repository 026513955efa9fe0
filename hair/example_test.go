package hair_test

import (
	"fmt"
	"github.com/drape3d/drape/internal/vecmath"

	"github.com/drape3d/drape/hair"
	"github.com/drape3d/drape/verlet3d"
	"github.com/go-gl/mathgl/mgl32"
)

// Grow hair on a head, add a neck, turn the head for half a second and
// check that every root stayed on the scalp.
func Example() {
	w, err := verlet3d.NewWorld(hair.WorldConfig())
	if err != nil {
		panic(err)
	}
	head := hair.DefaultHead() // radius 0.1 m, facing +Z
	head.Center = mgl32.Vec3{0, 1.6, 0}
	s := hair.DefaultSettings()
	s.Strands, s.Segments = 500, 10
	h, err := hair.New(w, head, s)
	if err != nil {
		panic(err)
	}
	neck, _ := verlet3d.NewCapsule(mgl32.Vec3{0, 1.55, 0}, mgl32.Vec3{0, 1.38, 0}, 0.055)
	w.AddCollider(neck, verlet3d.ContactSettings{Friction: 0.3})
	h.Drape(neck) // start resting on it, not inside it
	h.SetWind(verlet3d.Wind{Steady: mgl32.Vec3{2, 0, 0}})

	for f := 1; f <= 30; f++ {
		turn := vecmath.QuatAxisAngle(float32(float32(f)*0.03), mgl32.Vec3{0, 1, 0})
		h.SetHead(head.Center, turn) // call every frame; roots follow exactly
		w.Step()
	}
	var worst float32
	for i := 0; i < h.NumStrands(); i++ {
		root, _ := h.Strand(i)
		want := h.Head().ToWorld(h.RestLocal(i, 0))
		worst = max(worst, vecmath.Len(w.Position(root).Sub(want)))
	}
	first, n := h.Particles()
	fmt.Printf("%d strands, particles %d..%d, worst root error %.0e m\n", h.NumStrands(), first, int(first)+n-1, worst)
	// Output:
	// 500 strands, particles 0..5499, worst root error 0e+00 m
}
