package bodies_test

import (
	"testing"

	"github.com/drape3d/drape/bodies"
	"github.com/drape3d/drape/verlet3d"
	"github.com/go-gl/mathgl/mgl32"
)

func TestPickGrabDragRelease(t *testing.T) {
	for _, engine := range engines {
		t.Run(engine.String(), func(t *testing.T) {
			w, sys := newWorldEngine(t, verlet3d.DefaultConfig(), engine)
			floor(t, sys, mgl32.Vec3{0, 1, 0}, 0.6)
			addCube(t, sys, bodies.CubeSettings{Size: 0.4, Mass: 2, Position: mgl32.Vec3{-1, 0.2, 0}})
			crate := addCube(t, sys, bodies.CubeSettings{Size: 0.4, Mass: 2, Position: mgl32.Vec3{0, 0.2, 0}})
			poseRun(w, 0.5)
			// A ray from above meets the crate's top off its center.
			c, at, ok := sys.Pick(mgl32.Vec3{0.15, 3, 0.05}, mgl32.Vec3{0, -1, 0})
			if !ok || c != crate || abs(at[1]-0.4) > 0.01 {
				t.Fatalf("Pick from above = %d at %v, %v; want cube %d at its top (y 0.4)", c, at, ok, crate)
			}
			if _, _, ok := sys.Pick(mgl32.Vec3{3, 3, 3}, mgl32.Vec3{0, 1, 0}); ok {
				t.Errorf("a ray pointing away picked a cube")
			}
			if err := sys.Grab(c, at); err != nil {
				t.Fatal(err)
			}
			target := at
			for i := 0; i < 60; i++ {
				target = target.Add(mgl32.Vec3{0, 1.0 / 60, 0})
				sys.DragTo(c, target)
				w.Step()
			}
			if !sys.Held(c) {
				t.Errorf("a grabbed cube is not Held")
			}
			// It hangs from the held point: its center below the target.
			p := sys.Position(c)
			if p[1] > target[1]-0.1 || p[1] < target[1]-0.5 {
				t.Errorf("a cube held 1 m up at %v hangs at %v, want its center under the hand", target, p)
			}
			sys.Release(c)
			w.Step()
			if v := sys.Velocity(c); v[1] < 0.3 {
				t.Errorf("a cube released while lifted at 1 m/s moves at %v, want it to keep rising", v)
			}
			poseRun(w, 3)
			if y := sys.Position(c)[1]; y < 0.19 || y > 0.25 {
				t.Errorf("the released cube rests at y = %.3f, want back on the floor", y)
			}
		})
	}
}
