package verlet3d_test

import (
	"fmt"
	"github.com/drape3d/drape/internal/vecmath"
	"strings"
	"testing"

	"github.com/drape3d/drape/verlet3d"
	"github.com/go-gl/mathgl/mgl32"
)

// A particle left to settle on a collider has one contact, with the
// collider's outward normal there, at a point of its surface one particle
// radius from the particle's center; a particle far from every collider,
// or a pinned one inside it, has none. Reading them with a reused slice
// does not allocate.
func TestContacts(t *testing.T) {
	const radius = 0.02
	tilt := vecmath.Normalize(mgl32.Vec3{0.3, 1, 0})
	plane := func(n mgl32.Vec3) verlet3d.Collider {
		p, err := verlet3d.NewPlane(mgl32.Vec3{0, 0.1, 0}, n)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	box, err := verlet3d.NewBox(mgl32.Vec3{0, 0.25, 0}, mgl32.Vec3{0.5, 0.25, 0.5}, mgl32.QuatIdent())
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name     string
		collider verlet3d.Collider
		start    mgl32.Vec3 // where the particle is added
		pinned   bool
		want     int        // contacts after settling
		normal   mgl32.Vec3 // the contact's normal when there is one
	}{
		{"on a plane", plane(mgl32.Vec3{0, 1, 0}), mgl32.Vec3{0.2, 0.15, -0.1}, false, 1, mgl32.Vec3{0, 1, 0}},
		{"on a tilted plane", plane(tilt), mgl32.Vec3{0, 0.15, 0}, false, 1, tilt},
		{"on a box", box, mgl32.Vec3{0.1, 0.55, 0.2}, false, 1, mgl32.Vec3{0, 1, 0}},
		{"on a sphere", mustSphere(mgl32.Vec3{0, 0, 0}, 0.3), mgl32.Vec3{0, 0.35, 0}, false, 1, mgl32.Vec3{0, 1, 0}},
		{"far above a plane", plane(mgl32.Vec3{0, 1, 0}), mgl32.Vec3{0, 5, 0}, false, 0, mgl32.Vec3{}},
		{"pinned inside a box", box, mgl32.Vec3{0, 0.25, 0}, true, 0, mgl32.Vec3{}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			w := newWorld(t, nil)
			if err := w.AddCollider(tc.collider, verlet3d.ContactSettings{Friction: 1}); err != nil {
				t.Fatal(err)
			}
			mass := float32(0.1)
			if tc.pinned {
				mass = 0
			}
			p := add(t, w, tc.start, mass)
			if err := w.SetRadius(p, radius); err != nil {
				t.Fatal(err)
			}
			steps := 60 // one second: settled, not yet asleep
			if tc.want == 0 {
				steps = 1 // the one far above is still far above
			}
			for i := 0; i < steps; i++ {
				w.Step()
			}
			got := w.Contacts(nil)
			if len(got) != tc.want {
				t.Fatalf("%d contacts %+v, want %d (particle at %v)", len(got), got, tc.want, w.Position(p))
			}
			if tc.want == 0 {
				return
			}
			c := got[0]
			if c.Particle != p || c.Collider != 0 {
				t.Errorf("contact of particle %d with collider %d, want particle %d with collider 0", c.Particle, c.Collider, p)
			}
			if d := vecmath.Len(c.Normal.Sub(tc.normal)); d > 1e-4 {
				t.Errorf("normal %v, want %v (off by %.2g)", c.Normal, tc.normal, d)
			}
			surface, _ := tc.collider.Closest(c.Point)
			if d := vecmath.Len(surface.Sub(c.Point)); d > 1e-4 {
				t.Errorf("point %v is %.2g m off the collider's surface, want on it", c.Point, d)
			}
			if d := vecmath.Len(w.Position(p).Sub(c.Point)); d > radius+1e-4 {
				t.Errorf("point %v is %.4f m from the particle at %v, want within its radius %.2f m", c.Point, d, w.Position(p), radius)
			}
			dst := make([]verlet3d.Contact, 0, 4)
			if a := testing.AllocsPerRun(100, func() { dst = w.Contacts(dst[:0]) }); a != 0 {
				t.Errorf("Contacts with a reused slice: %v allocations per call, want 0", a)
			}
		})
	}
}

// Contacts appends: what dst held is kept.
func TestContactsAppend(t *testing.T) {
	w := newWorld(t, nil)
	floor, _ := verlet3d.NewPlane(mgl32.Vec3{}, mgl32.Vec3{0, 1, 0})
	if err := w.AddCollider(floor, verlet3d.ContactSettings{}); err != nil {
		t.Fatal(err)
	}
	add(t, w, mgl32.Vec3{0, 0.005, 0}, 1)
	w.Step()
	mark := verlet3d.Contact{Particle: 99, Collider: 7}
	got := w.Contacts([]verlet3d.Contact{mark})
	if len(got) != 2 || got[0] != mark || got[1].Particle != 0 {
		t.Errorf("Contacts(one element) = %+v, want it followed by the contact of particle 0", got)
	}
}

// Removing a collider drops its contacts, and the contacts with colliders
// after it name their new index in Colliders.
func TestContactsRemoveCollider(t *testing.T) {
	w := newWorld(t, nil)
	left, _ := verlet3d.NewBox(mgl32.Vec3{-1, -0.5, 0}, mgl32.Vec3{0.5, 0.5, 0.5}, mgl32.QuatIdent())
	right, _ := verlet3d.NewBox(mgl32.Vec3{1, -0.5, 0}, mgl32.Vec3{0.5, 0.5, 0.5}, mgl32.QuatIdent())
	for _, b := range []*verlet3d.Box{left, right} {
		if err := w.AddCollider(b, verlet3d.ContactSettings{}); err != nil {
			t.Fatal(err)
		}
	}
	add(t, w, mgl32.Vec3{-1, 0.005, 0}, 1)
	onRight := add(t, w, mgl32.Vec3{1, 0.005, 0}, 1)
	w.Step()
	if n := len(w.Contacts(nil)); n != 2 {
		t.Fatalf("%d contacts before the removal, want 2", n)
	}
	w.RemoveCollider(left)
	got := w.Contacts(nil)
	if len(got) != 1 || got[0].Particle != onRight || got[0].Collider != 0 || w.Colliders()[0] != right {
		t.Errorf("after removing the left box: contacts %+v, want one of particle %d with collider 0 (the right box)", got, onRight)
	}
}

// A ball dropped on the floor rests on it: its contact is the floor's
// point under it, with the floor's normal.
func ExampleWorld_Contacts() {
	w, _ := verlet3d.NewWorld(verlet3d.DefaultConfig())
	defer w.Close()
	floor, _ := verlet3d.NewPlane(mgl32.Vec3{}, mgl32.Vec3{0, 1, 0})
	w.AddCollider(floor, verlet3d.ContactSettings{Friction: 0.5})
	ball, _ := w.AddParticle(mgl32.Vec3{0.3, 0.5, -0.2}, 0.1)
	w.SetRadius(ball, 0.05)
	for i := 0; i < 60; i++ {
		w.Step()
	}
	var contacts []verlet3d.Contact // keep it between frames: no allocation once grown
	contacts = w.Contacts(contacts[:0])
	for _, c := range contacts {
		fmt.Printf("particle %d on collider %d at (%.2f, %.2f, %.2f) m, normal (%.0f, %.0f, %.0f)\n",
			c.Particle, c.Collider, c.Point[0], c.Point[1], c.Point[2], c.Normal[0], c.Normal[1], c.Normal[2])
	}
	// Output: particle 0 on collider 0 at (0.30, 0.00, -0.20) m, normal (0, 1, 0)
}

// ColliderSettings gives each collider's settings by its index in
// Colliders, also after an earlier collider was removed, and panics on an
// index out of range.
func TestColliderSettings(t *testing.T) {
	w := newWorld(t, nil)
	var boxes []*verlet3d.Box
	for i := 0; i < 3; i++ {
		b, _ := verlet3d.NewBox(mgl32.Vec3{float32(i), 0, 0}, mgl32.Vec3{0.1, 0.1, 0.1}, mgl32.QuatIdent())
		if err := w.AddCollider(b, verlet3d.ContactSettings{Friction: float32(0.1 * float32(i+1))}); err != nil {
			t.Fatal(err)
		}
		boxes = append(boxes, b)
	}
	w.RemoveCollider(boxes[0])
	for i, want := range []float32{0.2, 0.3} {
		if got := w.ColliderSettings(i).Friction; got != want {
			t.Errorf("ColliderSettings(%d).Friction = %v, want %v", i, got, want)
		}
	}
	defer func() {
		if r := recover(); r == nil || !strings.Contains(fmt.Sprint(r), "out of range") {
			t.Errorf("ColliderSettings(2) with 2 colliders: panic %v, want one naming the range", r)
		}
	}()
	w.ColliderSettings(2)
}
