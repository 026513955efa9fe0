package verlet3d

// Atomically runs add, which adds things to the World (particles, links,
// tethers, colliders, force fields, constraint sets), and, if add returns
// an error, removes everything add added and returns that error: a
// component's constructor that fails half-way leaves the World exactly as
// it was, the rule every constructor of drape keeps. Call it between
// steps, not from a hook.
func (w *World) Atomically(add func() error) error {
	m := w.mark()
	if err := add(); err != nil {
		w.rollback(m)
		return err
	}
	return nil
}

// mark records how much of each list a World holds, so that a constructor
// that fails half-way can put the World back exactly as it was.
type mark struct {
	particles, links, tethers, colliders, fields, sets int
}

func (w *World) mark() mark {
	return mark{
		particles: len(w.pos), links: len(w.links.slot), tethers: len(w.tethers),
		colliders: len(w.colliders), fields: len(w.fields), sets: len(w.sets),
	}
}

// rollback removes everything added since m. Nothing may have stepped in
// between: new links are then the last entries of the solver's list.
func (w *World) rollback(m mark) {
	ls := &w.links
	for l := len(ls.slot) - 1; l >= m.links; l-- {
		if i := ls.slot[l]; i >= 0 {
			ls.live--
			if ls.hot[i].flags&linkBroken != 0 {
				ls.nBroken--
			}
		}
	}
	if len(ls.slot) > m.links {
		// Links added since m sit at the end of hot in handle order (no
		// coloring ran in between); drop them and their handles.
		keep := len(ls.hot)
		for keep > 0 && int(ls.handle[keep-1]) >= m.links {
			keep--
		}
		ls.hot, ls.handle, ls.lambda = ls.hot[:keep], ls.handle[:keep], ls.lambda[:keep]
		ls.slot, ls.strain = ls.slot[:m.links], ls.strain[:m.links]
		ls.dirty = true
	}
	n := m.particles
	w.pos, w.prev, w.acc = w.pos[:n], w.prev[:n], w.acc[:n]
	w.invMass, w.mass, w.radius, w.group = w.invMass[:n], w.mass[:n], w.radius[:n], w.group[:n]
	w.state, w.target, w.stepStart, w.home = w.state[:n], w.target[:n], w.stepStart[:n], w.home[:n]
	w.sleep.anchor = w.sleep.anchor[:n]
	w.tethers = w.tethers[:m.tethers]
	w.tetherGen++
	w.colliders = w.colliders[:m.colliders]
	w.fields = w.fields[:m.fields]
	w.sets = w.sets[:m.sets]
}
