package verlet3d

import "github.com/go-gl/mathgl/mgl32"

// Contact is one particle-collider contact, read back for debug views and
// tests. It is a copy: changing it changes nothing in the World.
type Contact struct {
	// Particle is the particle the contact holds.
	Particle Particle
	// Collider is the collider's index in World.Colliders().
	Collider int
	// Point is where the contact plane touches the collider: the point of
	// its surface nearest the particle when the contact was built (or
	// where the particle's path crossed the surface), m.
	Point mgl32.Vec3
	// Normal is the collider's unit outward normal at Point: the contact
	// keeps the particle's center at least its radius along Normal from
	// the plane through Point.
	Normal mgl32.Vec3
}

// Contacts appends to dst the contacts of the last substep the World ran
// (the last substep of the last Step or Advance that was not skipped
// asleep; a World asleep keeps the contacts it fell asleep with) and
// returns the extended slice, which is the caller's. A contact exists
// for every free particle that ended that substep's integration inside a
// collider or within its radius plus Config.ContactMargin of one, or whose
// path crossed it (and is in one of the collider's Mask groups): as many
// as Stats().Contacts counts, less those with a collider removed since, in
// collider order, then in particle order. Positions are in meters, in the World's frame at that
// substep (see World.Origin; a later move of the frame does not move them). Pass dst[:0] of a slice kept
// between calls: with enough capacity Contacts does not allocate.
func (w *World) Contacts(dst []Contact) []Contact {
	for i := range w.contacts {
		c := &w.contacts[i]
		dst = append(dst, Contact{
			Particle: Particle(c.p),
			Collider: int(c.collider),
			Point:    c.surface,
			Normal:   c.normal,
		})
	}
	return dst
}

// dropContacts removes the contacts with collider ci, which was just
// removed, and renumbers those with the colliders after it.
func (w *World) dropContacts(ci int32) {
	kept := w.contacts[:0]
	for _, c := range w.contacts {
		switch {
		case c.collider == ci:
			continue
		case c.collider > ci:
			c.collider--
		}
		kept = append(kept, c)
	}
	w.contacts = kept
}
