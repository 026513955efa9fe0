package verlet3d_test

import (
	"math"
	"testing"

	"github.com/drape3d/drape/verlet3d"
	"github.com/go-gl/mathgl/mgl32"
)

// settledCloth drops a 16 x 16 cloth (its top row pinned, as buildCloth
// makes it) with still-air drag onto a box and runs 6 s.
func settledCloth(t *testing.T) (*verlet3d.World, []verlet3d.Particle, *verlet3d.Box) {
	w := newWorld(t, nil)
	box, _ := verlet3d.NewBox(mgl32.Vec3{0.4, 1.8, 0.4}, mgl32.Vec3{0.5, 0.1, 0.5}, mgl32.QuatIdent())
	if err := w.AddCollider(box, verlet3d.ContactSettings{Friction: 0.5}); err != nil {
		t.Fatal(err)
	}
	w.AddForceField(&verlet3d.Drag{Coefficient: 0.02})
	ps := buildCloth(t, w, 16, 0.05)
	for i := 0; i < 360; i++ {
		w.Step()
	}
	return w, ps, box
}

// A settled cloth falls asleep, stays exactly where it is while asleep,
// and wakes for each thing that can disturb it: a velocity given through
// the API, a collider that moves, a pin that moves, a call to Wake.
func TestSleepAndWake(t *testing.T) {
	w, ps, box := settledCloth(t)
	if !w.Sleeping() {
		t.Fatalf("a settled cloth is still awake after 6 s")
	}
	before := append([]mgl32.Vec3(nil), w.Positions()...)
	n := w.Stats().SleepingSteps
	for i := 0; i < 60; i++ {
		w.Step()
	}
	if got := w.Stats().SleepingSteps - n; got != 60 {
		t.Errorf("%d of 60 steps slept", got)
	}
	for i, x := range w.Positions() {
		if x != before[i] {
			t.Fatalf("particle %d moved while asleep", i)
		}
	}
	free := ps[len(ps)-1]
	for _, tc := range []struct {
		name string
		poke func()
	}{
		{"SetVelocity", func() { w.SetVelocity(free, mgl32.Vec3{0, 1, 0}) }},
		{"collider moved", func() { box.Center = box.Center.Add(mgl32.Vec3{0, 0.05, 0}) }},
		{"pin moved", func() { w.SetTarget(ps[0], w.Position(ps[0]).Add(mgl32.Vec3{0, 0, 0.1})) }},
		{"Wake", w.Wake},
	} {
		for i := 0; i < 600 && !w.Sleeping(); i++ {
			w.Step()
		}
		if !w.Sleeping() {
			t.Fatalf("%s: did not fall asleep again", tc.name)
		}
		tc.poke()
		w.Step()
		if w.Sleeping() {
			t.Errorf("%s: the World stayed asleep", tc.name)
		}
	}
	// A SetTarget to where the pin already is does not wake it.
	for i := 0; i < 600 && !w.Sleeping(); i++ {
		w.Step()
	}
	w.SetTarget(ps[0], w.Position(ps[0]))
	w.Step()
	if !w.Sleeping() {
		t.Errorf("a pin set where it is woke the World")
	}
}

// SleepSpeed 0 never sleeps; gusty wind keeps the World awake.
func TestSleepOffAndBlocked(t *testing.T) {
	w := newWorld(t, func(c *verlet3d.Config) { c.SleepSpeed = 0 })
	add(t, w, mgl32.Vec3{}, 0)
	for i := 0; i < 200; i++ {
		w.Step()
	}
	if w.Sleeping() {
		t.Errorf("SleepSpeed 0: asleep")
	}
	w2 := newWorld(t, nil)
	add(t, w2, mgl32.Vec3{}, 0)
	w2.AddForceField(blocker{})
	for i := 0; i < 200; i++ {
		w2.Step()
	}
	if w2.Sleeping() {
		t.Errorf("a SleepBlocker did not keep the World awake")
	}
}

type blocker struct{}

func (blocker) Apply(*verlet3d.World, verlet3d.Substep) {}
func (blocker) BlocksSleep() bool                       { return true }

// Settling: a pendulum of two particles on a 1 m link hangs from a pin and
// swings. Swinging 0.3 rad (0.94 m/s at the bottom) it never settles, so
// SettleDamping changes no bit of its motion over 20 s. Swinging 0.02 rad
// (6 cm/s) it is nearly at rest: without settling it keeps 90% of its
// swing for 10 s and stays awake; with the default it is asleep within 5 s.
func TestSettleDampingOnlyNearRest(t *testing.T) {
	pendulum := func(settle float32, angle float64) (*verlet3d.World, verlet3d.Particle) {
		w := newWorld(t, func(c *verlet3d.Config) { c.SettleDamping = settle })
		pin := add(t, w, mgl32.Vec3{0, 2, 0}, 0)
		bob := add(t, w, mgl32.Vec3{float32(math.Sin(angle)), 2 - float32(math.Cos(angle)), 0}, 1)
		if _, err := w.AddLink(pin, bob, verlet3d.LinkSettings{}); err != nil {
			t.Fatal(err)
		}
		return w, bob
	}
	def := verlet3d.DefaultConfig().SettleDamping
	w0, b0 := pendulum(0, 0.3)
	w1, b1 := pendulum(def, 0.3)
	for i := 0; i < 1200; i++ {
		w0.Step()
		w1.Step()
		if w0.Position(b0) != w1.Position(b1) {
			t.Fatalf("a swinging pendulum moved differently with SettleDamping %v after %d steps: %v, %v", def, i+1, w1.Position(b1), w0.Position(b0))
		}
	}

	swing := func(w *verlet3d.World, bob verlet3d.Particle, steps int) (float32, int) {
		var most float32
		asleep := -1
		for i := 0; i < steps; i++ {
			w.Step()
			if i >= steps-120 { // the last 2 s: a full period or more
				most = max(most, float32(math.Abs(float64(w.Position(bob)[0]))))
			}
			if asleep < 0 && w.Sleeping() {
				asleep = i + 1
			}
		}
		return most, asleep
	}
	amp := float32(math.Sin(0.02))
	w0, b0 = pendulum(0, 0.02)
	if most, asleep := swing(w0, b0, 600); most < 0.9*amp || asleep >= 0 {
		t.Errorf("SettleDamping 0: swing %.2f mm of %.2f after 10 s, asleep at step %d: want it still swinging", float32(1000*most), float32(1000*amp), asleep)
	}
	w1, b1 = pendulum(def, 0.02)
	if _, asleep := swing(w1, b1, 600); asleep < 0 || asleep > 300 {
		t.Errorf("SettleDamping %v: asleep at step %d, want within 300 (5 s)", def, asleep)
	}
}
