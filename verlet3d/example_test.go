package verlet3d_test

import (
	"fmt"

	"github.com/drape3d/drape/verlet3d"
	"github.com/go-gl/mathgl/mgl32"
)

// A 1 m rope of ten links hangs from a pin and drapes over a ball.
func Example() {
	w, err := verlet3d.NewWorld(verlet3d.DefaultConfig())
	if err != nil {
		panic(err)
	}
	var rope []verlet3d.Particle
	for i := 0; i <= 10; i++ {
		mass := float32(0.05)
		if i == 0 {
			mass = 0 // pinned
		}
		p, _ := w.AddParticle(mgl32.Vec3{float32(float32(i) * 0.1), 2, 0}, mass)
		rope = append(rope, p)
	}
	for i := 0; i < 10; i++ {
		w.AddLink(rope[i], rope[i+1], verlet3d.LinkSettings{}) // rigid, rest = current distance
	}
	ball, _ := verlet3d.NewSphere(mgl32.Vec3{0.3, 1.5, 0}, 0.2)
	w.AddCollider(ball, verlet3d.ContactSettings{Friction: 0.5})

	for i := 0; i < 300; i++ { // five seconds at 60 steps per second
		w.Step()
	}
	fmt.Printf("stretch %.1f%%, %d contacts\n", float32(100*w.MaxLinkStrain()), w.Stats().Contacts)
	// Output: stretch 0.1%, 4 contacts
}

// Advance turns a variable frame time into fixed steps.
func ExampleWorld_Advance() {
	w, _ := verlet3d.NewWorld(verlet3d.DefaultConfig())
	w.AddParticle(mgl32.Vec3{}, 1)
	for _, frame := range []float32{0.010, 0.025, 0.016} {
		n := w.Advance(frame)
		fmt.Printf("frame %.3f s: %d steps, %.2f of a step left\n", frame, n, w.Alpha())
	}
	// Output:
	// frame 0.010 s: 0 steps, 0.60 of a step left
	// frame 0.025 s: 2 steps, 0.10 of a step left
	// frame 0.016 s: 1 steps, 0.06 of a step left
}

// Parallel runs a game's own per-item work on the World's workers: here
// each particle's height above the floor, written to its own slot, so the
// result is the same for any Config.Workers. f may run on any worker, a
// range at a time.
func ExampleWorld_Parallel() {
	cfg := verlet3d.DefaultConfig()
	cfg.Workers = 2
	w, _ := verlet3d.NewWorld(cfg)
	defer w.Close() // stops the worker goroutines
	for i := 0; i < 1000; i++ {
		w.AddParticle(mgl32.Vec3{float32(float32(i%10) * 0.1), 1 + float32(float32(i/10)*0.01), 0}, 1)
	}
	w.Step()
	pos := w.Positions()
	height := make([]float32, len(pos))
	w.Parallel(len(pos), func(lo, hi int) {
		for i := lo; i < hi; i++ {
			height[i] = pos[i][1]
		}
	})
	lowest := height[0]
	for _, h := range height {
		lowest = min(lowest, h)
	}
	fmt.Printf("lowest particle %.3f m up after one step (fell %.1f mm)\n", lowest, float32(1000*(1-lowest)))
	// Output: lowest particle 0.999 m up after one step (fell 1.5 mm)
}
