package hair_test

import (
	"github.com/drape3d/drape/internal/vecmath"
	"math"
	"testing"

	"github.com/drape3d/drape/hair"
	"github.com/drape3d/drape/verlet3d"
	"github.com/go-gl/mathgl/mgl32"
)

// Settings.Iterations is the hair's own pass count per substep, whatever
// the World's Config.Iterations: a hair alone in hair.WorldConfig (3
// iterations) and the same hair in a World of 10 iterations that also
// holds a swinging rope (so the hair is not alone, and its three passes
// are spread over the World's ten) move bit for bit alike. A hair of 10
// passes in that World moves otherwise.
func TestIterationsAreTheHairsOwn(t *testing.T) {
	run := func(worldIterations, hairIterations int, rope bool) []mgl32.Vec3 {
		cfg := hair.WorldConfig()
		cfg.Iterations = worldIterations
		w, err := verlet3d.NewWorld(cfg)
		if err != nil {
			t.Fatal(err)
		}
		defer w.Close()
		if rope {
			var last verlet3d.Particle
			for i := range 8 {
				p, err := w.AddParticle(mgl32.Vec3{50 + float32(0.1*float32(i)), 2, 0}, 0.1)
				if err != nil {
					t.Fatal(err)
				}
				if i == 0 {
					w.Pin(p)
				} else if _, err := w.AddLink(last, p, verlet3d.LinkSettings{}); err != nil {
					t.Fatal(err)
				}
				last = p
			}
		}
		s := hair.DefaultSettings()
		s.Strands, s.Segments, s.Length = 64, 10, 0.35
		s.Iterations = hairIterations
		head := hair.DefaultHead()
		head.Center = mgl32.Vec3{0, 1.6, 0}
		h, err := hair.New(w, head, s)
		if err != nil {
			t.Fatal(err)
		}
		for f := range 90 {
			turn := vecmath.QuatAxisAngle(float32(0.8*math.Sin(float64(f)/15)), mgl32.Vec3{0, 1, 0})
			if err := h.SetHead(mgl32.Vec3{float32(0.2 * math.Sin(float64(f)/10)), 1.6, 0}, turn); err != nil {
				t.Fatal(err)
			}
			w.Step()
		}
		first, n := h.Particles()
		return append([]mgl32.Vec3(nil), w.Positions()[first:first+verlet3d.Particle(n)]...)
	}
	alone := run(3, 3, false)
	shared := run(10, 3, true)
	own10 := run(10, 10, true)
	differ := 0
	for i := range alone {
		for a := range 3 {
			if math.Float32bits(alone[i][a]) != math.Float32bits(shared[i][a]) {
				t.Fatalf("particle %d at %v alone in a World of 3 iterations, %v beside a rope in one of 10: want the same bits", i, alone[i], shared[i])
			}
		}
		if alone[i] != own10[i] {
			differ++
		}
	}
	if differ < len(alone)/4 {
		t.Errorf("10 passes moved only %d of %d particles otherwise than 3: Settings.Iterations has no effect", differ, len(alone))
	}
}
