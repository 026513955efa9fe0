package verlet3d

// UnbrokenLinks appends to dst the handle of every link that is neither
// removed nor broken, in handle order (the order they were added), and
// returns the extended slice, which is the caller's. It is for debug views
// that draw every link (LinkParticles, LinkStrain): pass dst[:0] of a
// slice kept between calls, and with enough capacity it does not
// allocate.
func (w *World) UnbrokenLinks(dst []Link) []Link {
	ls := &w.links
	for l, i := range ls.slot {
		if i >= 0 && ls.hot[i].flags&linkBroken == 0 {
			dst = append(dst, Link(l))
		}
	}
	return dst
}
