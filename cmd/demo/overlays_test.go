package main

import (
	"testing"

	"github.com/drape3d/drape/verlet3d"
	"github.com/g3n/engine/core"
	"github.com/go-gl/mathgl/mgl32"
)

// The particle, link and contact views draw a dot per particle (pinned
// ones apart), a line per unbroken link and a line and a dot per
// contact, and after the first frame they draw without allocating. No
// window is needed: the views only fill buffers until a render.
func TestOverlaysCountsWithoutAllocating(t *testing.T) {
	w, err := verlet3d.NewWorld(verlet3d.DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(w.Close)
	floor, _ := verlet3d.NewPlane(mgl32.Vec3{}, mgl32.Vec3{0, 1, 0})
	if err := w.AddCollider(floor, verlet3d.ContactSettings{Friction: 0.5}); err != nil {
		t.Fatal(err)
	}
	// A chain of six lying on the floor, its first particle pinned and a
	// seventh pinned in the air; one link broken.
	var chain []verlet3d.Particle
	for i := 0; i < 6; i++ {
		mass := float32(1)
		if i == 0 {
			mass = 0
		}
		p, _ := w.AddParticle(mgl32.Vec3{float32(i) * 0.1, 0.005, 0}, mass)
		chain = append(chain, p)
	}
	if _, err := w.AddParticle(mgl32.Vec3{0, 2, 0}, 0); err != nil {
		t.Fatal(err)
	}
	var links []verlet3d.Link
	for i := 0; i+1 < len(chain); i++ {
		l, err := w.AddLink(chain[i], chain[i+1], verlet3d.LinkSettings{})
		if err != nil {
			t.Fatal(err)
		}
		links = append(links, l)
	}
	w.BreakLink(links[4])
	d := &Demo{Scene: core.NewNode()}
	d.SetWorld(w)
	w.Step()

	o := newOverlays(core.NewNode())
	o.toggleDots()
	o.toggleLinks()
	o.toggleContacts()
	o.sync(d)
	contacts := len(w.Contacts(nil))
	if contacts != 5 {
		t.Fatalf("%d contacts, want 5 (the free particles on the floor)", contacts)
	}
	if got := [...]int{o.freeDots.shown(), o.pinnedDots.shown(), o.links.shown(), o.contacts.shown(), o.contDots.shown()}; got != [...]int{5, 2, 4, contacts, contacts} {
		t.Errorf("free dots, pinned dots, link lines, contact lines, contact dots = %v, want [5 2 4 %d %d]", got, contacts, contacts)
	}
	if a := testing.AllocsPerRun(50, func() { o.sync(d) }); a != 0 {
		t.Errorf("drawing the particle, link and contact views: %v allocations a frame, want 0", a)
	}
	o.toggleDots()
	o.toggleLinks()
	o.toggleContacts()
	o.sync(d)
	if got := [...]int{o.freeDots.shown(), o.pinnedDots.shown(), o.links.shown(), o.contacts.shown(), o.contDots.shown()}; got != [5]int{} {
		t.Errorf("after toggling the views off they show %v, want nothing", got)
	}
}
