package bodies_test

import (
	"github.com/drape3d/drape/internal/vecmath"
	"math"
	"math/rand"
	"testing"

	"github.com/drape3d/drape/bodies"
	"github.com/drape3d/drape/verlet3d"
	"github.com/go-gl/mathgl/mgl32"
)

// poseWorld returns a World at DefaultConfig (workers as given) with a
// PoseEngine System on a floor of friction mu.
func poseWorld(t testing.TB, workers int, mu float32) (*verlet3d.World, *bodies.System) {
	t.Helper()
	return poseWorldWith(t, mu, func(c *verlet3d.Config) { c.Workers = workers })
}

// awake is a poseWorldWith option that turns sleeping off, so that a test
// sees the solver hold things still rather than sleep freeze them.
func awake(c *verlet3d.Config) { c.SleepSpeed = 0 }

// poseWorldWith is poseWorld with DefaultConfig changed by set, and a
// plane through the origin, normal (0, 1, 0), as the floor.
func poseWorldWith(t testing.TB, mu float32, set func(*verlet3d.Config)) (*verlet3d.World, *bodies.System) {
	t.Helper()
	return poseWorldOn(t, mu, mgl32.Vec3{0, 1, 0}, set)
}

// poseWorldOn is poseWorldWith on a plane through the origin with normal n.
func poseWorldOn(t testing.TB, mu float32, n mgl32.Vec3, tweak func(*verlet3d.Config)) (*verlet3d.World, *bodies.System) {
	t.Helper()
	cfg := verlet3d.DefaultConfig()
	tweak(&cfg)
	w, err := verlet3d.NewWorld(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(w.Close)
	set := bodies.DefaultSettings()
	set.Engine = bodies.PoseEngine
	sys, err := bodies.NewSystem(w, set)
	if err != nil {
		t.Fatal(err)
	}
	floor(t, sys, n, mu)
	return w, sys
}

// boxes100 builds the boxes scene of make bench: 100 cubes of 0.5 m and 125 kg
// dropped from 1-5 m into fifty 2-box stacks (10 x 5 cells 0.75 m apart)
// on a floor of friction 0.2.
func boxes100(t testing.TB, workers int) (*verlet3d.World, *bodies.System) {
	return boxes100With(t, func(c *verlet3d.Config) { c.Workers = workers })
}

// boxes100With is boxes100 with DefaultConfig changed by set.
func boxes100With(t testing.TB, set func(*verlet3d.Config)) (*verlet3d.World, *bodies.System) {
	w, sys := poseWorldWith(t, 0.2, set)
	r := rand.New(rand.NewSource(1))
	for i := 0; i < 50; i++ {
		x, z := float32(float32(i%10)*0.75)-3.375, float32(float32(i/10)*0.75)-1.5
		y := 1 + float32(4*r.Float32())
		for k := 0; k < 2; k++ {
			addCube(t, sys, bodies.CubeSettings{Size: 0.5, Mass: 125,
				Position: mgl32.Vec3{x, y + float32(float32(k)*0.6), z}})
		}
	}
	return w, sys
}

func TestPoseBoxes100Rest(t *testing.T) {
	w, sys := boxes100(t, 1)
	for i := 0; i < 600; i++ {
		w.Step()
	}
	floor, top := 0, 0
	for c := 0; c < sys.NumCubes(); c++ {
		y := sys.Position(bodies.Cube(c))[1]
		switch {
		case math.Abs(float64(y-0.25)) < 0.0025:
			floor++
		case math.Abs(float64(y-0.75)) < 0.0075:
			top++
		default:
			t.Errorf("cube %d rests at y = %.4f m, want 0.25 or 0.75 within 1%%", c, y)
		}
	}
	if floor != 50 || top != 50 {
		t.Errorf("%d cubes on the floor and %d on top, want 50 and 50", floor, top)
	}
	t.Logf("asleep %d, world asleep %v, stats %+v", sys.Stats().Sleeping, w.Sleeping(), sys.Stats())
}

// poseSettle runs w for seconds of simulated time.
func poseRun(w *verlet3d.World, seconds float32) {
	n := int(seconds/w.Config().TimeStep + 0.5)
	for i := 0; i < n; i++ {
		w.Step()
	}
}

func TestPoseStackStands(t *testing.T) {
	for _, sleep := range []bool{false, true} {
		set := awake
		if sleep {
			set = func(*verlet3d.Config) {}
		}
		w, sys := poseWorldWith(t, 0.6, set)
		const size = 0.5
		var top bodies.Cube
		for i := 0; i < 10; i++ {
			top = addCube(t, sys, bodies.CubeSettings{Size: size, Mass: 10,
				Position: mgl32.Vec3{0, size/2 + float32(float32(i)*size), 0}})
		}
		start := sys.Position(top)
		poseRun(w, 20)
		moved := vecmath.Len(sys.Position(top).Sub(start))
		if moved > 0.01*size {
			t.Errorf("sleep %v: the top of a stack of 10 moved %.4f m in 20 s, want under 1%% of its size (%.4f m)", sleep, moved, 0.01*size)
		}
		t.Logf("sleep %v: top moved %.2e m; %d of 10 asleep", sleep, moved, sys.Stats().Sleeping)
	}
}

func TestPosePyramidStands(t *testing.T) {
	w, sys := poseWorldWith(t, 0.6, awake)
	const size = 0.4
	var cubes []bodies.Cube
	var start []mgl32.Vec3
	for level := 0; level < 4; level++ {
		for k := 0; k < 4-level; k++ {
			x := float32((float32(k) - float32(float32(3-level)/2)) * size * 1.02)
			p := mgl32.Vec3{x, size/2 + float32(float32(level)*size), 0}
			cubes = append(cubes, addCube(t, sys, bodies.CubeSettings{Size: size, Mass: 5, Position: p}))
			start = append(start, p)
		}
	}
	poseRun(w, 10)
	for i, c := range cubes {
		if d := vecmath.Len(sys.Position(c).Sub(start[i])); d > 0.01*size {
			t.Errorf("pyramid cube %d moved %.4f m in 10 s, want under 1%% of its size", i, d)
		}
	}
}

// slope returns a World (sleeping off) with a PoseEngine System and a
// slope of angle deg (about z) and friction mu, and a cube resting on it.
func slope(t *testing.T, deg, mu float32) (*verlet3d.World, *bodies.System, bodies.Cube, mgl32.Vec3) {
	a := float64(deg) * math.Pi / 180
	n := mgl32.Vec3{float32(math.Sin(a)), float32(math.Cos(a)), 0}
	w, sys := poseWorldOn(t, mu, n, awake)
	q := vecmath.QuatAxisAngle(float32(-a), mgl32.Vec3{0, 0, 1})
	c := addCube(t, sys, bodies.CubeSettings{Size: 0.4, Mass: 3, Position: vecmath.Scale(n, 0.2), Rotation: q})
	down := mgl32.Vec3{float32(math.Cos(a)), -float32(math.Sin(a)), 0} // down the slope
	return w, sys, c, down
}

func TestPoseSlope(t *testing.T) {
	const mu = 0.5
	limit := float32(math.Atan(mu) * 180 / math.Pi)
	t.Run("below", func(t *testing.T) {
		w, sys, c, _ := slope(t, limit-3, mu)
		poseRun(w, 0.5) // settle on the slope
		start := sys.Position(c)
		poseRun(w, 5)
		if d := vecmath.Len(sys.Position(c).Sub(start)); d > 0.0005 {
			t.Errorf("a crate on a slope 3° below its friction angle moved %.5f m in 5 s, want under 0.5 mm", d)
		}
	})
	t.Run("above", func(t *testing.T) {
		deg := limit + 5
		w, sys, c, down := slope(t, deg, mu)
		start := sys.Position(c)
		const secs = 1.0
		poseRun(w, secs)
		got := dot3(sys.Position(c).Sub(start), down)
		a := float64(deg) * math.Pi / 180
		acc := float64(9.81 * (math.Sin(a) - float64(mu*math.Cos(a))))
		want := float64(0.5 * acc * secs * secs)
		if math.Abs(float64(got)-want) > 0.05*want {
			t.Errorf("a crate on a slope 5° above its friction angle slid %.4f m in %v s, want %.4f (g(sin θ - μ cos θ) t²/2) within 5%%", got, secs, want)
		}
	})
}

func dot3(a, b mgl32.Vec3) float32 { return vecmath.Dot(a, b) }

func TestPoseSpinKept(t *testing.T) {
	w, sys := poseWorldWith(t, 0.6, func(c *verlet3d.Config) { c.Gravity, c.Damping = mgl32.Vec3{}, 0 })
	omega := vecmath.Scale(vecmath.Normalize(mgl32.Vec3{1, 2, 3}), 6)
	c := addCube(t, sys, bodies.CubeSettings{Size: 0.5, Mass: 2, Position: mgl32.Vec3{0, 3, 0},
		Rotation: vecmath.QuatAxisAngle(0.7, vecmath.Normalize(mgl32.Vec3{1, 0, 1})), AngularVelocity: omega})
	poseRun(w, 2)
	// The spin is the change of rotation over one more step.
	before := sys.Rotation(c)
	w.Step()
	after := sys.Rotation(c)
	dq := vecmath.QuatMul(after, vecmath.QuatConjugate(before))
	if dq.W < 0 {
		dq = vecmath.QuatScale(dq, -1)
	}
	got := vecmath.Scale(dq.V, 2/w.Config().TimeStep)
	if d := vecmath.Len(got.Sub(omega)); d > 0.02*vecmath.Len(omega) {
		t.Errorf("spin after 2 s at Damping 0 is %v, want %v within 2%%", got, omega)
	}
}

func TestPoseThrownIntoPile(t *testing.T) {
	w, sys := poseWorld(t, 1, 0.5)
	// A pen of 2 cm walls, 4 m across.
	const half = 2.0
	walls := []mgl32.Vec3{{half, 3, 0}, {-half, 3, 0}, {0, 3, half}, {0, 3, -half}}
	for i, c := range walls {
		ext := mgl32.Vec3{0.01, 3, half}
		if i >= 2 {
			ext = mgl32.Vec3{half, 3, 0.01}
		}
		b, _ := verlet3d.NewBox(c, ext, mgl32.QuatIdent())
		if err := sys.AddCollider(b, verlet3d.ContactSettings{Friction: 0.5}); err != nil {
			t.Fatal(err)
		}
	}
	r := rand.New(rand.NewSource(3))
	const size = 0.3
	for i := 0; i < 50; i++ {
		p := mgl32.Vec3{float32(float32(i%5)*0.7) - 1.4, 0.3 + float32(float32(i/5)*0.45), float32(float32(i%3)*0.9) - 0.9}
		dir := vecmath.Normalize(mgl32.Vec3{r.Float32() - 0.5, -0.2, r.Float32() - 0.5})
		speed := 20 + float32(20*r.Float32())
		addCube(t, sys, bodies.CubeSettings{Size: size, Mass: 2, Position: p,
			Velocity:        vecmath.Scale(dir, speed),
			AngularVelocity: vecmath.Scale(mgl32.Vec3{r.Float32(), r.Float32(), r.Float32()}, 10)})
	}
	for step := 0; step < 300; step++ {
		w.Step()
		for c := 0; c < sys.NumCubes(); c++ {
			p := sys.Position(bodies.Cube(c))
			if math.Abs(float64(p[0])) > half || math.Abs(float64(p[2])) > half || p[1] < 0 {
				t.Fatalf("step %d: cube %d at %v went through a wall or the floor", step, c, p)
			}
		}
	}
	// No cube inside another: centers at least an edge apart along some
	// axis of one of them is too strict for tilted cubes; use the inscribed
	// spheres, which must not overlap by more than 1 cm.
	for a := 0; a < sys.NumCubes(); a++ {
		for b := a + 1; b < sys.NumCubes(); b++ {
			d := vecmath.Len(sys.Position(bodies.Cube(a)).Sub(sys.Position(bodies.Cube(b))))
			if d < size-0.01 {
				t.Errorf("cubes %d and %d are %.3f m apart, inside each other (size %.2f)", a, b, d, size)
			}
		}
	}
}

func TestPoseSameBitsAnyWorkers(t *testing.T) {
	var got [2][]mgl32.Vec3
	for k, workers := range []int{1, 2} {
		w, sys := boxes100(t, workers)
		poseRun(w, 2)
		for c := 0; c < sys.NumCubes(); c++ {
			p, q := sys.Transform(bodies.Cube(c))
			got[k] = append(got[k], p, q.V)
		}
	}
	for i := range got[0] {
		if got[0][i] != got[1][i] {
			t.Fatalf("value %d differs between 1 and 2 workers: %v and %v", i, got[0][i], got[1][i])
		}
	}
}

func TestPoseNoAllocations(t *testing.T) {
	w, _ := boxes100(t, 2)
	poseRun(w, 1.5)
	if a := testing.AllocsPerRun(30, w.Step); a != 0 {
		t.Errorf("a step of 100 landing cubes allocates %v times, want 0", a)
	}
}

func TestPoseSleepsWithin5s(t *testing.T) {
	w, sys := boxes100(t, 1)
	poseRun(w, 5)
	if n := sys.Stats().Sleeping; n != sys.NumCubes() || !w.Sleeping() {
		t.Errorf("after 5 s %d of %d cubes sleep and the World sleeps: %v; want all", n, sys.NumCubes(), w.Sleeping())
	}
	c := bodies.Cube(7)
	if err := sys.Throw(c, mgl32.Vec3{0, 3, 0}, mgl32.Vec3{}); err != nil {
		t.Fatal(err)
	}
	w.Step()
	if sys.Sleeping(c) || w.Sleeping() {
		t.Errorf("a thrown cube or its World stays asleep")
	}
}

func TestPoseErrors(t *testing.T) {
	_, sys := poseWorld(t, 1, 0.5)
	if _, err := sys.AddCube(bodies.CubeSettings{Size: 0.5, Mass: 1, Compliance: 1e-3}); err == nil {
		t.Errorf("a jelly cube in a PoseEngine System was accepted")
	}
	set := sys.Settings()
	set.Engine = bodies.ParticleEngine
	if err := sys.SetSettings(set); err == nil {
		t.Errorf("SetSettings changed the Engine")
	}
	set.Engine = 7
	if err := set.Validate(); err == nil {
		t.Errorf("Settings.Engine 7 validated")
	}
	defer func() {
		if recover() == nil {
			t.Errorf("Throw on a cube the System does not have did not panic")
		}
	}()
	_ = sys.Throw(0, mgl32.Vec3{}, mgl32.Vec3{})
}

// BenchmarkPoseBoxes100 times a frame of the boxes scene, landed and
// resting with sleeping off (frames 60-179 of make bench's boxes100).
func BenchmarkPoseBoxes100(b *testing.B) {
	w, sys := boxes100With(b, awake)
	poseRun(w, 3)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		w.Step()
	}
	st := sys.Stats()
	b.ReportMetric(float64(st.CubeContacts+st.ColliderContacts), "contacts")
}
