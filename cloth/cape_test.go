package cloth_test

import (
	"fmt"
	"github.com/drape3d/drape/internal/vecmath"
	"math"
	"strings"
	"testing"

	"github.com/drape3d/drape/cloth"
	"github.com/drape3d/drape/verlet3d"
	"github.com/go-gl/mathgl/mgl32"
)

// capeConfig is the cape's solver setup: DefaultConfig, as the README's
// cape and scene's cape tests use it.
func capeConfig(c *verlet3d.Config) {}

// lagConfig is for a lag limit at a fast turning run: MaxLag is a hard
// limit projected every iteration against the links, and at the defaults'
// 2 iterations per substep the links lose that fight (25% strain at 4 m/s
// turning with MaxLag 0.5); 4 substeps of 15 iterations hold it near 9%.
func lagConfig(c *verlet3d.Config) { c.Substeps = 4; c.Iterations = 15 }

// walker is a body made of poses: a root walking forward (+Z in its frame)
// with a bob, three anchors across the back of the shoulders and capsules
// for the torso, hips and two swinging legs, in the root's frame.
type walker struct {
	ref      verlet3d.Pose
	anchorAt []mgl32.Vec3        // root frame
	bodyAt   []verlet3d.Capsule  // root frame
	anchors  []verlet3d.Pose     // world, this frame
	body     []verlet3d.Capsule  // world, this frame
	shapes   []*verlet3d.Capsule // the World's colliders
	swing    float32             // leg swing phase, rad
}

func newWalker(t testing.TB, w *verlet3d.World) *walker {
	t.Helper()
	k := &walker{
		anchorAt: []mgl32.Vec3{{-0.18, 1.45, -0.17}, {0, 1.5, -0.17}, {0.18, 1.45, -0.17}},
		bodyAt: []verlet3d.Capsule{
			{A: mgl32.Vec3{0, 1.05, 0}, B: mgl32.Vec3{0, 1.35, 0}, Radius: 0.14},        // torso
			{A: mgl32.Vec3{-0.08, 0.95, 0}, B: mgl32.Vec3{0.08, 0.95, 0}, Radius: 0.12}, // hips
			{A: mgl32.Vec3{-0.1, 0.9, 0}, B: mgl32.Vec3{-0.1, 0.1, 0}, Radius: 0.07},    // legs
			{A: mgl32.Vec3{0.1, 0.9, 0}, B: mgl32.Vec3{0.1, 0.1, 0}, Radius: 0.07},
		},
	}
	k.anchors = make([]verlet3d.Pose, len(k.anchorAt))
	k.body = make([]verlet3d.Capsule, len(k.bodyAt))
	k.place(mgl32.Vec3{}, 0)
	if w != nil {
		for _, b := range k.body {
			s, err := verlet3d.NewCapsule(b.A, b.B, b.Radius)
			if err != nil {
				t.Fatal(err)
			}
			if err := w.AddCollider(s, verlet3d.ContactSettings{Friction: 0.3}); err != nil {
				t.Fatal(err)
			}
			k.shapes = append(k.shapes, s)
		}
	}
	return k
}

// place poses the walker at pos facing heading (rad about +Y).
func (k *walker) place(pos mgl32.Vec3, heading float32) {
	q := vecmath.QuatAxisAngle(heading, mgl32.Vec3{0, 1, 0})
	k.ref = verlet3d.Pose{Position: pos, Rotation: q}
	to := func(x mgl32.Vec3) mgl32.Vec3 { return pos.Add(vecmath.QuatRotate(q, x)) }
	for i, a := range k.anchorAt {
		k.anchors[i] = verlet3d.Pose{Position: to(a), Rotation: q}
	}
	for i, b := range k.bodyAt {
		if i >= 2 { // legs swing about the hip, in opposite phase
			s := float32(0.4 * float32(math.Sin(float64(k.swing))))
			if i == 3 {
				s = -s
			}
			d := b.B.Sub(b.A)
			b.B = b.A.Add(mgl32.Vec3{0, float32(d.Y() * float32(math.Cos(float64(s)))), float32(-d.Y() * float32(math.Sin(float64(s))))})
		}
		k.body[i] = verlet3d.Capsule{A: to(b.A), B: to(b.B), Radius: b.Radius}
	}
	for i, s := range k.shapes {
		*s = k.body[i]
	}
}

func (k *walker) settings() cloth.CapeSettings {
	s := cloth.DefaultCapeSettings()
	s.Anchors, s.Reference, s.Body = k.anchors, k.ref, k.body
	return s
}

// walk is a walk at speed m/s turning at turn rad/s with a 3 cm bob:
// it returns the pose at time tm from a start pose.
type walk struct {
	speed, turn float32
	pos         mgl32.Vec3
	heading     float32
}

func (g *walk) step(k *walker, dt, tm float32) {
	g.heading += float32(g.turn * dt)
	fwd := vecmath.QuatRotate(vecmath.QuatAxisAngle(g.heading, mgl32.Vec3{0, 1, 0}), mgl32.Vec3{0, 0, 1})
	g.pos = g.pos.Add(vecmath.Scale(fwd, float32(g.speed*dt)))
	k.swing = 2 * math.Pi * 1.8 * tm * g.speed / 1.5
	bob := float32(0.03 * float32(math.Sin(float64(4*math.Pi*1.8*tm))))
	k.place(g.pos.Add(mgl32.Vec3{0, bob, 0}), g.heading)
}

type capeRun struct {
	pin, pen, strain, lag float32
}

func (r capeRun) String() string {
	return fmt.Sprintf("pin error %.2g m, deepest %.2g m inside the body, structural strain %.2f%%, lag excess %.2g m",
		r.pin, r.pen, float32(100*r.strain), r.lag)
}

func (r *capeRun) frame(w *verlet3d.World, c *cloth.Cape, k *walker) {
	c.SetPose(k.ref, k.anchors, k.body)
	w.Step()
	r.pin = max(r.pin, c.PinError())
	r.pen = max(r.pen, c.Penetration())
	r.strain = max(r.strain, c.Grid().MaxStrain())
	r.lag = max(r.lag, c.LagExcess())
}

func newCape(t testing.TB, w *verlet3d.World, k *walker, mod func(*cloth.CapeSettings)) *cloth.Cape {
	t.Helper()
	s := k.settings()
	s.Length = 1.05
	if mod != nil {
		mod(&s)
	}
	c, err := cloth.NewCape(w, s)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// A cape driven by the poses of a body walking at 1.5 m/s with a bob,
// turning, legs swinging: pins on target, no particle inside the body, no
// structural link stretched 10%, and the cape hangs behind.
func TestCapeWalkPoses(t *testing.T) {
	w := newWorld(t, capeConfig)
	k := newWalker(t, w)
	c := newCape(t, w, k, nil)
	g := walk{speed: 1.5, turn: 0.5}
	var r capeRun
	for i := 0; i < 600; i++ {
		g.step(k, 1.0/60, float32(i)/60)
		r.frame(w, c, k)
	}
	t.Logf("10 s walk: %v", r)
	if r.pin > 1e-4 {
		t.Errorf("pins strayed %.2g m, want <= 1e-4", r.pin)
	}
	if r.pen > 1e-3 {
		t.Errorf("a particle was %.2g m inside the body, want <= 1e-3", r.pen)
	}
	if r.strain >= 0.1 {
		t.Errorf("structural strain %.1f%%, want < 10%%", float32(100*r.strain))
	}
	if s := w.Stats(); s.NonFiniteResets != 0 {
		t.Errorf("%d non-finite resets", s.NonFiniteResets)
	}
	// Control: the same walk with the body left out of the World puts
	// particles inside it, so the body is really in the cape's way.
	w2 := newWorld(t, capeConfig)
	k2 := newWalker(t, nil)
	c2 := newCape(t, w2, k2, nil)
	g2 := walk{speed: 1.5, turn: 0.5}
	var r2 capeRun
	for i := 0; i < 600; i++ {
		g2.step(k2, 1.0/60, float32(i)/60)
		r2.frame(w2, c2, k2)
	}
	t.Logf("control, no colliders: %v", r2)
	if r2.pen < 0.01 {
		t.Errorf("without colliders the cape stays %.2g m deep at most: the test body does not touch it", r2.pen)
	}
	lo, hi := c.Grid().Bounds()
	mid := vecmath.QuatRotate(vecmath.QuatInverse(k.ref.Rotation), vecmath.Scale(lo.Add(hi), 0.5).Sub(k.ref.Position))
	if mid.Z() > -0.1 || mid.Y() > 1.4 || mid.Y() < 0.4 {
		t.Errorf("cape center at %v in the walker's frame, want behind (z < -0.1), 0.4 to 1.4 m up", mid)
	}
}

// A jump of 100 m (and a turn) carries the cape rigidly: one teleport, no
// strain spike, no particle in the body, the cape on the character.
func TestCapeTeleportPoses(t *testing.T) {
	w := newWorld(t, capeConfig)
	k := newWalker(t, w)
	c := newCape(t, w, k, nil)
	g := walk{speed: 1.5, turn: 0.3}
	var before, after capeRun
	for i := 0; i < 120; i++ {
		g.step(k, 1.0/60, float32(i)/60)
		before.frame(w, c, k)
	}
	g.pos = g.pos.Add(mgl32.Vec3{80, 0, -60})
	g.heading += 2
	for i := 120; i < 240; i++ {
		g.step(k, 1.0/60, float32(i)/60)
		after.frame(w, c, k)
	}
	t.Logf("before: %v; after the 100 m jump: %v", before, after)
	if n := c.NumTeleports(); n != 1 {
		t.Errorf("%d teleports, want 1", n)
	}
	if after.strain >= 0.1 || after.pen > 1e-3 || after.pin > 1e-4 {
		t.Errorf("after the teleport: %v", after)
	}
	lo, hi := c.Grid().Bounds()
	if d := vecmath.Len(vecmath.Scale(lo.Add(hi), 0.5).Sub(k.ref.Position)); d > 2 {
		t.Errorf("cape center %.1f m from the character after the jump, want < 2", d)
	}
	// Teleport() jumps for a short hop too.
	c.Teleport()
	k.place(k.ref.Position.Add(mgl32.Vec3{0.3, 0, 0}), g.heading)
	after.frame(w, c, k)
	if n := c.NumTeleports(); n != 2 {
		t.Errorf("Teleport() did not jump the cape (%d teleports)", n)
	}
}

// With MaxLag, a fast turning run never leaves a particle further than its
// lag radius from its center (beyond what a collider contact pushes).
// TestCapeRemove is the control: without the hook the limit is broken.
func TestCapeMaxLagPoses(t *testing.T) {
	const lag = 0.5
	w := newWorld(t, lagConfig)
	k := newWalker(t, w)
	c := newCape(t, w, k, func(s *cloth.CapeSettings) { s.MaxLag = lag })
	g := walk{speed: 4, turn: 1}
	var r capeRun
	for i := 0; i < 240; i++ {
		g.step(k, 1.0/60, float32(i)/60)
		r.frame(w, c, k)
	}
	t.Logf("MaxLag %v at 4 m/s turning: %v", lag, r)
	if r.lag > 0.02 {
		t.Errorf("a particle was %.3f m beyond its lag radius, want <= 0.02", r.lag)
	}
	if r.strain >= 0.1 || r.pen > 1e-3 {
		t.Errorf("with MaxLag: %v", r)
	}
}

// CarryLinear = 1 moves the free particles with the character exactly.
func TestCapeCarryPoses(t *testing.T) {
	w := newWorld(t, capeConfig)
	k := newWalker(t, w)
	c := newCape(t, w, k, func(s *cloth.CapeSettings) { s.CarryLinear = 1 })
	for i := 0; i < 30; i++ {
		c.SetPose(k.ref, k.anchors, k.body)
		w.Step()
	}
	p := c.Particles()[len(c.Particles())-1]
	x0 := w.Position(p)
	move := mgl32.Vec3{0.3, 0, 0} // under TeleportDistance
	k.place(move, 0)
	if c.SetPose(k.ref, k.anchors, k.body) {
		t.Error("a 0.3 m move was taken for a teleport")
	}
	if got := w.Position(p).Sub(x0); vecmath.Len(got.Sub(move)) > 1e-5 {
		t.Errorf("carried hem moved %v, want %v", got, move)
	}
	if err := c.SetCarry(1.5, 0); err == nil || !strings.Contains(err.Error(), "1.5") {
		t.Errorf("SetCarry(1.5, 0): error %v", err)
	}
}

// After World.Reset the next SetPose hangs the cape back on the character.
func TestCapeResetPoses(t *testing.T) {
	w := newWorld(t, capeConfig)
	k := newWalker(t, w)
	c := newCape(t, w, k, nil)
	g := walk{speed: 1.5}
	for i := 0; i < 60; i++ {
		g.step(k, 1.0/60, float32(i)/60)
		c.SetPose(k.ref, k.anchors, k.body)
		w.Step()
	}
	w.Reset()
	if !c.SetPose(k.ref, k.anchors, k.body) {
		t.Error("SetPose after World.Reset did not put the cape back")
	}
	w.Step()
	if e := c.PinError(); e > 1e-4 {
		t.Errorf("pins %.2g m off after a Reset, want <= 1e-4", e)
	}
	if c.NumTeleports() != 0 {
		t.Errorf("a Reset counted as %d teleports, want 0", c.NumTeleports())
	}
}

func TestCapeBadSettings(t *testing.T) {
	w := newWorld(t, nil)
	k := newWalker(t, nil)
	newCape(t, w, k, nil) // a World that already holds something
	n := w.NumParticles()
	nan := float32(math.NaN())
	tests := []struct {
		name string
		edit func(*cloth.CapeSettings)
		want string
	}{
		{"no anchors", func(s *cloth.CapeSettings) { s.Anchors = nil }, "Anchors is empty"},
		{"NaN anchor", func(s *cloth.CapeSettings) {
			s.Anchors = []verlet3d.Pose{{Position: mgl32.Vec3{nan}, Rotation: mgl32.QuatIdent()}}
		}, "Anchors[0].Position"},
		{"NaN rotation", func(s *cloth.CapeSettings) { s.Reference.Rotation = mgl32.Quat{W: nan} }, "Reference.Rotation"},
		{"negative length", func(s *cloth.CapeSettings) { s.Length = -1 }, "Length = -1"},
		{"zero length", func(s *cloth.CapeSettings) { s.Length = 0 }, "Length = 0"},
		{"zero spacing", func(s *cloth.CapeSettings) { s.Spacing = 0 }, "Spacing = 0"},
		{"NaN mass", func(s *cloth.CapeSettings) { s.Mass = nan }, "Mass = NaN"},
		{"negative lag", func(s *cloth.CapeSettings) { s.MaxLag = -1 }, "MaxLag = -1"},
		{"carry > 1", func(s *cloth.CapeSettings) { s.CarryLinear = 2 }, "CarryLinear = 2"},
		{"tether slack 1e9", func(s *cloth.CapeSettings) { s.TetherSlack = 1e9 }, "CapeSettings.TetherSlack = 1e+09"},
		{"zero teleport", func(s *cloth.CapeSettings) { s.TeleportDistance = 0 }, "TeleportDistance = 0"},
		{"body radius", func(s *cloth.CapeSettings) { s.Body = []verlet3d.Capsule{{}} }, "Body[0].Radius = 0"},
		{"vertical back", func(s *cloth.CapeSettings) { s.Back = mgl32.Vec3{0, 1, 0} }, "Back"},
		{"no back", func(s *cloth.CapeSettings) { s.Back = mgl32.Vec3{} }, "Back"},
		{"tiny", func(s *cloth.CapeSettings) { s.Length, s.Spacing = 0.01, 0.05 }, "fewer than 2"},
		{"too wide", func(s *cloth.CapeSettings) { s.Width = 1e6 }, "CapeSettings.Width = 1e+06, Length = 1 and Spacing = 0.05 make 4.2e+08 particles"},
		// Fuzz 1e2f9c466426f097: a width taken from anchors 3.5e13 m apart
		// left NewCape searching its tilt over 2e16 particles.
		{"anchors 3.5e13 m apart", func(s *cloth.CapeSettings) {
			s.Width, s.Anchors[0].Position[1] = 0, -3.5e13
		}, "CapeSettings.Width = 0 (1.6 times the anchors' line"},
	}
	for _, tc := range tests {
		s := k.settings()
		tc.edit(&s)
		_, err := cloth.NewCape(w, s)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one containing %q", tc.name, err, tc.want)
		}
		if w.NumParticles() != n {
			t.Errorf("%s: the World has %d particles, want %d as before", tc.name, w.NumParticles(), n)
		}
	}
	func() {
		defer func() {
			if r := recover(); r == nil || !strings.Contains(fmt.Sprint(r), "World is nil") {
				t.Errorf("NewCape(nil World): panic %v, want one saying the World is nil", r)
			}
		}()
		_, _ = cloth.NewCape(nil, k.settings())
	}()
}

func TestCapeSetPoseAllocs(t *testing.T) {
	w := newWorld(t, capeConfig)
	k := newWalker(t, w)
	c := newCape(t, w, k, func(s *cloth.CapeSettings) { s.MaxLag = 1; s.CarryLinear = 0.2; s.CarryAngular = 0.2 })
	g := walk{speed: 1.5, turn: 0.5}
	i := 0
	if a := testing.AllocsPerRun(50, func() {
		g.step(k, 1.0/60, float32(i)/60)
		i++
		c.SetPose(k.ref, k.anchors, k.body)
		w.Step()
	}); a != 0 {
		t.Errorf("SetPose + Step allocate %v times per frame, want 0", a)
	}
}

// Remove takes the lag limit out: particles may then trail past it.
func TestCapeRemove(t *testing.T) {
	w := newWorld(t, capeConfig)
	k := newWalker(t, w)
	c := newCape(t, w, k, func(s *cloth.CapeSettings) { s.MaxLag = 0.05 })
	c.Remove()
	g := walk{speed: 4, turn: 1}
	var r capeRun
	for i := 0; i < 120; i++ {
		g.step(k, 1.0/60, float32(i)/60)
		r.frame(w, c, k)
	}
	if r.lag < 0.02 {
		t.Errorf("after Remove the lag limit still held (excess %.3g m)", r.lag)
	}
}
