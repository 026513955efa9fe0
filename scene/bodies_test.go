package scene

import (
	"math"
	"testing"

	"github.com/drape3d/drape/bodies"
	"github.com/drape3d/drape/internal/vecmath"
	"github.com/drape3d/drape/verlet3d"
	"github.com/g3n/engine/material"
	"github.com/g3n/engine/math32"
	"github.com/go-gl/mathgl/mgl32"
)

// The boxes follow the cubes: at the last step's transform without
// interpolation, and a fraction Alpha of the way through the last step with
// it, for a cube falling and spinning with no contacts.
func TestCubesViewFollowsBodies(t *testing.T) {
	for _, e := range []bodies.Engine{bodies.PoseEngine, bodies.ParticleEngine} {
		t.Run(e.String(), func(t *testing.T) { cubesViewFollows(t, e) })
	}
}

// stepStart records a cube's transform as each step begins (a force
// field's first substep runs before the step moves anything).
type stepStart struct {
	sys *bodies.System
	c   bodies.Cube
	p   mgl32.Vec3
	q   mgl32.Quat
}

func (r *stepStart) Apply(_ *verlet3d.World, s verlet3d.Substep) {
	if s.First() {
		r.p, r.q = r.sys.Transform(r.c)
	}
}

func cubesViewFollows(t *testing.T, e bodies.Engine) {
	cfg := verlet3d.DefaultConfig()
	cfg.Damping = 0
	w, err := verlet3d.NewWorld(cfg)
	if err != nil {
		t.Fatal(err)
	}
	set := bodies.DefaultSettings()
	set.Engine = e
	sys, err := bodies.NewSystem(w, set)
	if err != nil {
		t.Fatal(err)
	}
	c, err := sys.AddCube(bodies.CubeSettings{Size: 0.5, Mass: 1, Position: mgl32.Vec3{0, 3, 0}, AngularVelocity: mgl32.Vec3{0, 2, 0}})
	if err != nil {
		t.Fatal(err)
	}
	start := &stepStart{sys: sys, c: c}
	w.AddForceField(start)
	v := NewCubesView(sys, nil)
	if v.Mesh(c) == nil || len(v.Children()) != 1 {
		t.Fatalf("view has %d children, want one box", len(v.Children()))
	}
	d := NewDriver(w)
	d.AfterStep(v.Sync)
	// 1/45 s frames against 1/60 s steps leave a fraction of a step over.
	for i := 0; i < 7; i++ {
		d.Update(1.0 / 45)
	}
	a := w.Alpha()
	if a <= 0 || a >= 1 {
		t.Fatalf("Alpha = %v after 7 frames of 1/45 s, want a fraction", a)
	}
	m := v.Mesh(c)
	got := m.Position()
	end, endq := sys.Transform(c)
	// Falling, the box drawn between steps is above where the last step
	// ended: Alpha of the way from where that step began.
	want := start.p.Add(vecmath.Scale(end.Sub(start.p), a))
	wq := vecmath.QuatSlerp(start.q, endq, a)
	if math.Abs(float64(got.Y-want[1])) > 1e-5 || got.Y <= end[1] {
		t.Errorf("box at y = %v, want %v, Alpha %v of the way from %v to where the step ended, %v", got.Y, want[1], a, start.p[1], end[1])
	}
	q := m.Quaternion()
	if d := math.Abs(float64(float32(q.W*wq.W) + float32(q.X*wq.V[0]) + float32(q.Y*wq.V[1]) + float32(q.Z*wq.V[2]))); d < 1-1e-6 {
		t.Errorf("box rotation %v, want %v", q, wq)
	}
	v.Interpolate = false
	v.Sync()
	if p := m.Position(); p.Y != end[1] || p.X != end[0] {
		t.Errorf("without interpolation the box is at %v, want %v", p, end)
	}
	// Cubes added later get a box too.
	c2, _ := sys.AddCube(bodies.CubeSettings{Size: 0.3, Mass: 1, Position: mgl32.Vec3{2, 1, 0}})
	v.AddCube(c2)
	v.AddCube(c2)
	if len(v.Children()) != 2 || v.Mesh(c2) == nil {
		t.Errorf("after AddCube the view has %d children, want 2", len(v.Children()))
	}
}

// With a SleepMaterial a box is drawn with it while its cube sleeps, and
// with the view's Material again once the cube is thrown.
func TestCubesViewShowsSleep(t *testing.T) {
	w, err := verlet3d.NewWorld(verlet3d.DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	sys, err := bodies.NewSystem(w, bodies.DefaultSettings())
	if err != nil {
		t.Fatal(err)
	}
	floor, _ := verlet3d.NewPlane(mgl32.Vec3{}, mgl32.Vec3{0, 1, 0})
	if err := sys.AddCollider(floor, verlet3d.ContactSettings{Friction: 0.6}); err != nil {
		t.Fatal(err)
	}
	c, err := sys.AddCube(bodies.CubeSettings{Size: 0.4, Mass: 1, Position: mgl32.Vec3{0, 0.21, 0}})
	if err != nil {
		t.Fatal(err)
	}
	v := NewCubesView(sys, nil)
	v.SleepMaterial = material.NewStandard(&math32.Color{R: 0.5, G: 0.5, B: 0.7})
	// Something that keeps the World awake: a falling particle.
	w.AddParticle(mgl32.Vec3{5, 100, 0}, 1)
	mat := func() material.IMaterial { return v.Mesh(c).GetMaterial(0) }
	for i := 0; i < 180 && !sys.Sleeping(c); i++ {
		w.Step()
		v.Sync()
		if !sys.Sleeping(c) && mat() != material.IMaterial(v.Material()) {
			t.Fatalf("frame %d: the awake cube is drawn with the sleep material", i)
		}
	}
	if !sys.Sleeping(c) {
		t.Fatal("the cube did not fall asleep in 3 s")
	}
	v.Sync()
	if mat() != material.IMaterial(v.SleepMaterial) {
		t.Fatal("the asleep cube is not drawn with SleepMaterial")
	}
	if err := sys.Throw(c, mgl32.Vec3{0, 2, 0}, mgl32.Vec3{}); err != nil {
		t.Fatal(err)
	}
	w.Step()
	v.Sync()
	if sys.Sleeping(c) || mat() != material.IMaterial(v.Material()) {
		t.Errorf("thrown: asleep %v, drawn with the sleep material %v", sys.Sleeping(c), mat() == material.IMaterial(v.SleepMaterial))
	}
}
