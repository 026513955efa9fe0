package verlet3d_test

import (
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
