package cloth_test

import (
	"github.com/drape3d/drape/internal/vecmath"
	"math"
	"os"
	"runtime"
	"testing"

	"github.com/drape3d/drape/bodies"
	"github.com/drape3d/drape/cloth"
	"github.com/drape3d/drape/internal/draped"
	"github.com/drape3d/drape/verlet3d"
	"github.com/go-gl/mathgl/mgl32"
)

// soakSeconds is the simulated length of a soak: 20 s in `make test`,
// 10 minutes with DRAPE_SOAK=1 (`make soak`).
func soakSeconds() float64 {
	if os.Getenv("DRAPE_SOAK") == "1" {
		return 600
	}
	return 20
}

// worldKinetic is the kinetic energy of every particle of w, in J.
func worldKinetic(w *verlet3d.World) float64 {
	var e float64
	for i := 0; i < w.NumParticles(); i++ {
		p := verlet3d.Particle(i)
		v := w.Velocity(p)
		e += float64(0.5 * float64(w.Mass(p)) * float64(vecmath.Dot(v, v)))
	}
	return e
}

// heapAfterGC is the live heap in bytes.
func heapAfterGC() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// soakWatch checks a World every frame (finite, no NaN-guard reset) and
// keeps the largest kinetic energy of each 10 s window.
type soakWatch struct {
	t      *testing.T
	w      *verlet3d.World
	window []float64
	heap0  uint64 // the live heap at frame 120 (run)
}

// run plays the soak's frames, soakSeconds at 60 fps with a 0.25 s hitch
// every 5 s: each gets the frame number, its time and its length and
// advances the World. The live heap after frame 120 is kept for heapFlat.
func (s *soakWatch) run(each func(f int, tm float64, dt float32)) {
	frames := int(float64(soakSeconds() * 60))
	for f := 0; f < frames; f++ {
		dt := float32(1.0 / 60)
		if f%300 == 299 {
			dt = 0.25 // a hitch every 5 s
		}
		each(f, float64(f)/60, dt)
		if f == 120 {
			s.heap0 = heapAfterGC()
		}
	}
}

// heapFlat fails if the live heap grew by more than 1 MiB since frame 120
// of run, and returns both in KiB for the log.
func (s *soakWatch) heapFlat() (kib0, kib1 uint64) {
	s.t.Helper()
	heap1 := heapAfterGC()
	if heap1 > s.heap0+1<<20 {
		s.t.Errorf("heap grew from %d to %d KiB", s.heap0>>10, heap1>>10)
	}
	return s.heap0 >> 10, heap1 >> 10
}

func (s *soakWatch) frame(tm float64, ke float64) {
	s.t.Helper()
	for i, p := range s.w.Positions() {
		if !vecmath.Finite(p) {
			s.t.Fatalf("t = %.2f s: particle %d at %v", tm, i, p)
		}
	}
	if n := s.w.Stats().NonFiniteResets; n != 0 {
		s.t.Fatalf("t = %.2f s: %d non-finite resets", tm, n)
	}
	if math.IsNaN(ke) || math.IsInf(ke, 0) {
		s.t.Fatalf("t = %.2f s: kinetic energy %v", tm, ke)
	}
	k := int(tm / 10)
	for len(s.window) <= k {
		s.window = append(s.window, 0)
	}
	s.window[k] = max(s.window[k], ke)
}

// bounded fails if a later window's peak energy exceeds factor times the
// largest of the first two windows (the input is steady: the energy must
// not grow without bound).
func (s *soakWatch) bounded(factor float64) {
	s.t.Helper()
	ref := s.window[0]
	if len(s.window) > 1 {
		ref = max(ref, s.window[1])
	}
	for k, e := range s.window {
		if e > float64(factor*ref)+1e-9 {
			s.t.Errorf("kinetic energy peak %.3g J in window %d (t = %d..%d s), over %g x the first windows' %.3g J",
				e, k, 10*k, 10*k+10, factor, ref)
		}
	}
	s.t.Logf("peak kinetic energy per 10 s window: first %.3g J, last %.3g J, %d windows", s.window[0], s.window[len(s.window)-1], len(s.window))
}

// A tearing flag in a gusty, turbulent 25 m/s gale over a floor for the
// soak time: no NaN, energy bounded, the heap flat.
func TestSoakFlagGale(t *testing.T) {
	w := newWorld(t, nil)
	s := cloth.DefaultSettings()
	s.Cols, s.Rows, s.Spacing, s.Mass = 24, 16, 0.06, 0.3
	s.Origin = mgl32.Vec3{0, 2.5, 0}
	s.PinRows, s.PinCols = nil, []int{0}
	s.TearStrain = 0.2 // the small-step defaults hold 0.6 in this gale: 0.2 tears it
	g := newGrid(t, w, s)
	ws := cloth.DefaultWindSettings()
	ws.Air = verlet3d.Wind{Steady: mgl32.Vec3{25, 0, 3}, Gust: 0.6, GustPeriod: 2.5, Turbulence: 4, TurbulenceScale: 0.5}
	if _, err := cloth.NewWindForce(g, ws); err != nil {
		t.Fatal(err)
	}
	floor, _ := verlet3d.NewPlane(mgl32.Vec3{0, -1, 0}, mgl32.Vec3{0, 1, 0})
	if err := w.AddCollider(floor, verlet3d.ContactSettings{Friction: 0.5}); err != nil {
		t.Fatal(err)
	}
	watch := &soakWatch{t: t, w: w}
	watch.run(func(_ int, tm float64, dt float32) {
		w.Advance(dt)
		watch.frame(tm, g.KineticEnergy())
	})
	watch.bounded(4)
	kib0, kib1 := watch.heapFlat()
	t.Logf("%.0f s simulated: %d links broken, heap %d -> %d KiB", soakSeconds(), w.Stats().LinksBroken, kib0, kib1)
	if w.Stats().LinksBroken == 0 {
		t.Errorf("a 25 m/s gale with TearStrain 0.2 tore nothing: the soak did not exercise tearing")
	}
}

// A cape on a walking body with a 0.25 s hitch every 5 s and a 40 m
// teleport every 7 s: no NaN, pins back on target within a second of each
// teleport, structure intact, energy bounded, heap flat.
func TestSoakCapeTeleports(t *testing.T) {
	w := newWorld(t, capeConfig)
	k := newWalker(t, w)
	c := newCape(t, w, k, nil)
	g := &walk{speed: 1.5, turn: 0.3}
	watch := &soakWatch{t: t, w: w}
	dur := soakSeconds()
	since := 0.0 // time since the last teleport
	var worstPin, worstStrain float32
	watch.run(func(f int, tm float64, dt float32) {
		if f%420 == 419 {
			g.pos = g.pos.Add(mgl32.Vec3{40, 0, -25})
			since = 0
		}
		g.step(k, dt, float32(math.Mod(tm, 1000)))
		c.SetPose(k.ref, k.anchors, k.body)
		w.Advance(dt)
		since += float64(dt)
		watch.frame(tm, c.Grid().KineticEnergy())
		if since > 1 {
			worstPin = max(worstPin, c.PinError())
			worstStrain = max(worstStrain, c.Grid().MaxStrain())
		}
	})
	watch.bounded(4)
	kib0, kib1 := watch.heapFlat()
	t.Logf("%.0f s simulated, %d teleports: worst pin error %.3g m and strain %.1f%% a second after a teleport, heap %d -> %d KiB",
		dur, c.NumTeleports(), worstPin, float32(100*worstStrain), kib0, kib1)
	if c.NumTeleports() < int(dur/7)-1 {
		t.Errorf("%d teleports detected, want about %d", c.NumTeleports(), int(dur/7))
	}
	if worstPin > 0.01 {
		t.Errorf("pin error %.3g m a second after a teleport, want under 1 cm", worstPin)
	}
	if worstStrain > 0.5 {
		t.Errorf("structural strain %.1f%% a second after a teleport, want under 50%%", float32(100*worstStrain))
	}
}

// Crates on a cloth on the floor, thrown up and back onto it every 4 s
// (each crate in turn, toward the middle), with a 0.25 s hitch every 5 s:
// no NaN, the crates stay on or beside the cloth (within 1.6 m of the
// middle of a cloth 1.5 m square: 1.35 m measured; 1.94 m before cloth held
// by the floor stopped throwing crates back up), the cloth on the floor,
// energy bounded, heap flat. It exercises the cube contacts with cloth
// held by the floor (package bodies) for as long as the soak lasts.
func TestSoakCratesOnCloth(t *testing.T) {
	w := newWorld(t, nil)
	up := mgl32.Vec3{0, 1, 0}
	sys := floorSystem(t, w, up)
	g := floorCloth(t, w, up, floorClothRadius+0.001)
	crates := turnedCrates(t, sys, func(k int) float32 { return float32(0.4 * float32(k)) })
	watch := &soakWatch{t: t, w: w}
	var farthest float32
	throws := 0
	watch.run(func(f int, tm float64, dt float32) {
		if f%240 == 120 {
			c := crates[(f/240)%len(crates)]
			at := sys.Position(c)
			v := mgl32.Vec3{-at[0], 0, -at[2]}.Add(vecmath.Scale(mgl32.Vec3{float32(f%7) - 3, 0, float32(f%5) - 2}, 0.3))
			if err := sys.Throw(c, v.Add(mgl32.Vec3{0, 4, 0}), mgl32.Vec3{float32(f%3) - 1, 2, 1}); err != nil {
				t.Fatal(err)
			}
			throws++
		}
		w.Advance(dt)
		watch.frame(tm, worldKinetic(w))
		for _, c := range crates {
			at := sys.Position(c)
			farthest = max(farthest, mgl32.Vec2{at[0], at[2]}.Len())
		}
	})
	watch.bounded(4)
	lowest := float32(math.Inf(1))
	for r := 0; r < floorClothN; r++ {
		for c := 0; c < floorClothN; c++ {
			lowest = min(lowest, w.Position(g.Particle(r, c))[1])
		}
	}
	kib0, kib1 := watch.heapFlat()
	t.Logf("%.0f s simulated, %d throws: crates at most %.2f m from the middle, lowest cloth particle %.4f m, heap %d -> %d KiB",
		soakSeconds(), throws, farthest, lowest, kib0, kib1)
	if farthest > 1.6 {
		t.Errorf("a crate went %.2f m from the middle, want the crates to stay within 1.6 m (thrown 4 m/s up, toward the middle of a cloth 1.5 m square)", farthest)
	}
	if lowest < floorClothRadius-0.002 {
		t.Errorf("a cloth particle at y = %.4f m, want >= %.3f (on the floor, 2 mm slack)", lowest, floorClothRadius-0.002)
	}
}

// The demo's cubes scene (a tablecloth over a pyramid of crates, a rain of
// ten more, the crates' corners held out of the cloth by a
// SurfaceCollision) in a gusty 2 m/s draught (5 m/s blows the loose
// 0.6 kg cloth off the pile and the floor, as it should), a crate of the
// rain thrown back onto the pile every 4 s, and a 0.25 s hitch every 5 s:
// no NaN, energy bounded, heap flat, the crates on the floor, the
// SurfaceCollision in use, and the cloth on the floor.
func TestSoakDrapedCratesInWind(t *testing.T) {
	w := newWorld(t, nil)
	sc, err := draped.Build(w, 10, 5, true)
	if err != nil {
		t.Fatal(err)
	}
	ws := cloth.DefaultWindSettings()
	ws.Air = verlet3d.Wind{Steady: mgl32.Vec3{2, 0, 0.5}, Gust: 0.6, GustPeriod: 2.5, Turbulence: 1, TurbulenceScale: 0.5}
	if _, err := cloth.NewWindForce(sc.Cloth, ws); err != nil {
		t.Fatal(err)
	}
	sys := sc.System
	watch := &soakWatch{t: t, w: w}
	contacts, throws := 0, 0
	var lowest float32 = 1
	watch.run(func(f int, tm float64, dt float32) {
		if f%240 == 120 {
			c := bodies.Cube(19 + (f/240)%(sys.NumCubes()-19)) // a crate of the rain
			at := sys.Position(c)
			v := mgl32.Vec3{draped.CenterX - at[0], 0, draped.CenterZ - at[2]}.Add(mgl32.Vec3{0, 4, 0})
			if err := sys.Throw(c, v, mgl32.Vec3{float32(f%3) - 1, 2, 1}); err != nil {
				t.Fatal(err)
			}
			throws++
		}
		w.Advance(dt)
		watch.frame(tm, worldKinetic(w))
		contacts = max(contacts, sc.Surface.NumContacts())
		for c := 0; c < sys.NumCubes(); c++ {
			lowest = min(lowest, sys.Position(bodies.Cube(c))[1])
		}
	})
	watch.bounded(4)
	// The cloth's middle still lies over the pile.
	mid := w.Position(sc.Cloth.Particle(sc.Cloth.Rows()/2, sc.Cloth.Cols()/2))
	off := mgl32.Vec2{mid[0] - draped.CenterX, mid[2] - draped.CenterZ}.Len()
	kib0, kib1 := watch.heapFlat()
	t.Logf("%.0f s simulated, %d throws: %d surface contacts at most, lowest crate center %.3f m, the cloth's middle %.2f m from the pile's at height %.2f m, heap %d -> %d KiB",
		soakSeconds(), throws, contacts, lowest, off, mid[1], kib0, kib1)
	if contacts == 0 {
		t.Error("the SurfaceCollision never held a corner: the soak does not exercise it")
	}
	if lowest < 0.08 {
		t.Errorf("a crate's center went down to %.3f m, want >= 0.08 (the smallest crate, 18 cm, resting on the floor at y = 0)", lowest)
	}
	// The draught moves it off the pile onto the floor (0.9 m in 20 s, 1.24
	// m in 10 min); the floor is 12 m square around the pile.
	if off > 5 || mid[1] < 0 {
		t.Errorf("the cloth's middle is %.2f m from the pile's, at height %.2f m: blown off the floor or through it", off, mid[1])
	}
}

// tableclothTwin is the demo's tablecloth scene (48 x 48 particles, 1.9 m
// square, dropped on a box and a ball over a floor, a wind to toggle) in
// a World of the given worker count.
type tableclothTwin struct {
	w    *verlet3d.World
	g    *cloth.Grid
	wind *cloth.WindForce
	ball *verlet3d.Sphere
}

func newTableclothTwin(t *testing.T, workers int) tableclothTwin {
	w := newWorld(t, func(c *verlet3d.Config) { c.Workers = workers })
	floor, _ := verlet3d.NewPlane(mgl32.Vec3{}, mgl32.Vec3{0, 1, 0})
	box, _ := verlet3d.NewBox(tableBoxCenter, tableBoxHalf, mgl32.QuatIdent())
	ball, _ := verlet3d.NewSphere(mgl32.Vec3{0.45, 0.35, 0}, 0.35)
	for _, c := range []verlet3d.Collider{floor, box, ball} {
		if err := w.AddCollider(c, verlet3d.ContactSettings{Friction: 0.6}); err != nil {
			t.Fatal(err)
		}
	}
	const n, side = 48, 1.9
	s := cloth.DefaultSettings()
	s.Cols, s.Rows = n, n
	s.Spacing = side / float32(n-1)
	s.Mass = 0.5
	s.Origin = mgl32.Vec3{-side/2 - 0.05, 1.3, -side / 2}
	s.Down = mgl32.Vec3{0, 0, 1}
	s.Radius = 0.01
	g := newGrid(t, w, s)
	wind, err := cloth.NewWindForce(g, cloth.DefaultWindSettings())
	if err != nil {
		t.Fatal(err)
	}
	return tableclothTwin{w: w, g: g, wind: wind, ball: ball}
}

// The demo's table: a box 0.6 x 0.8 x 0.6 m standing on the floor.
var (
	tableBoxCenter = mgl32.Vec3{-0.35, 0.4, 0}
	tableBoxHalf   = mgl32.Vec3{0.3, 0.4, 0.3}
)

// The demo's tablecloth on 1 and on 2 workers side by side for the soak
// time: the ball rolls a loop round the table through the cloth's hem
// (0.6 m/s, 10 cm over the floor), a 3 m/s gusty breeze blows for 6 s of every 15, and a 0.25 s
// hitch comes every 5 s. On 2 workers this cloth (2,304 particles, no
// ConstraintSet) runs verlet3d's fused solve, one job a substep, which no
// other soak reaches. The two Worlds must agree bit for bit every second;
// also no NaN, no particle more than 5 mm into the table or the floor,
// energy bounded, heap flat.
func TestSoakTableclothTwoWorkers(t *testing.T) {
	one, two := newTableclothTwin(t, 1), newTableclothTwin(t, 2)
	watch := &soakWatch{t: t, w: two.w}
	var deepest float32 // how far a particle went into the table or the floor, m
	breeze := verlet3d.Wind{Steady: mgl32.Vec3{-3, 0, 1}, Gust: 0.6, GustPeriod: 3, Turbulence: 1, TurbulenceScale: 0.5}
	watch.run(func(f int, tm float64, dt float32) {
		for _, s := range []tableclothTwin{one, two} {
			switch f % 900 {
			case 300:
				s.wind.SetAir(breeze)
			case 660:
				s.wind.SetAir(verlet3d.Wind{})
			}
			// 0.6 m/s on a loop of radius 0.8 m round the table, 10 cm
			// over the floor (so that the cloth is not pinched).
			a := float64(0.6 / 0.8 * tm)
			s.ball.Center = mgl32.Vec3{-0.35 + float32(0.8*float32(math.Cos(a))), 0.45, float32(0.8 * float32(math.Sin(a)))}
			s.w.Advance(dt)
		}
		watch.frame(tm, two.g.KineticEnergy())
		for _, p := range two.w.Positions() {
			d := -p[1]
			if q := p.Sub(tableBoxCenter); abs32(q[0]) < tableBoxHalf[0] && abs32(q[1]) < tableBoxHalf[1] && abs32(q[2]) < tableBoxHalf[2] {
				d = min(tableBoxHalf[0]-abs32(q[0]), tableBoxHalf[1]-abs32(q[1]), tableBoxHalf[2]-abs32(q[2]))
			}
			deepest = max(deepest, d)
		}
		if f%60 == 59 {
			p1, p2 := one.w.Positions(), two.w.Positions()
			for i := range p1 {
				if p1[i] != p2[i] {
					t.Fatalf("t = %.2f s: particle %d at %v on 1 worker, %v on 2", tm, i, p1[i], p2[i])
				}
			}
		}
	})
	watch.bounded(4)
	kib0, kib1 := watch.heapFlat()
	mid := two.w.Position(two.g.Particle(24, 24))
	t.Logf("%.0f s simulated: equal bits on 1 and 2 workers every second, a particle at most %.4f m into the table or floor, the middle at %.2f m, heap %d -> %d KiB",
		soakSeconds(), deepest, mid, kib0, kib1)
	if deepest > 0.005 {
		t.Errorf("a particle went %.4f m into the table or the floor, want at most 0.005", deepest)
	}
}
