package bodies

// Islands.
//
// Cubes that touch, directly or through other cubes, form an island; the
// ground, colliders and held cubes (which the solve does not move) join
// nothing. Islands share no movable body, so each is solved on its own:
// its contacts sit together in System.contacts, in the order they were
// made, and its passes end as soon as its own contacts stop moving and
// sliding, so a cube that came to rest costs two passes per solver
// iteration while a tumbling pile next to it takes all of Settings.Passes.
// The result of an island does not depend on the others, nor on the
// order or the goroutine that solves them (World.Parallel), which is what
// makes the solve the same for any worker count.

// island is a range of System.contacts[:nRigid].
type island struct {
	lo, hi int32
	pass   int32 // passes since Prepare, for the alternating order
}

// find returns the root of cube i in the union-find forest s.parent.
func (s *System) find(i int32) int32 {
	for s.parent[i] != i {
		s.parent[i] = s.parent[s.parent[i]]
		i = s.parent[i]
	}
	return i
}

// buildIslands groups contacts[:nRigid] by island (a stable counting
// sort: within an island, contacts keep the order they were made in) and
// fills s.islands, numbered in the order of their first contact.
func (s *System) buildIslands() {
	n := len(s.cubes)
	s.islands = s.islands[:0]
	if s.nRigid == 0 {
		return
	}
	if cap(s.parent) < n {
		s.parent = make([]int32, n)
		s.islandOf = make([]int32, n)
	}
	s.parent, s.islandOf = s.parent[:n], s.islandOf[:n]
	for i := range s.parent {
		s.parent[i] = int32(i)
		s.islandOf[i] = -1
	}
	cs := s.contacts[:s.nRigid]
	for k := range cs {
		c := &cs[k]
		if c.ca < 0 || c.cb < 0 || s.cubes[c.ca].held || s.cubes[c.cb].held {
			continue
		}
		a, b := s.find(c.ca), s.find(c.cb)
		if a != b {
			// The smaller index becomes the root: the forest depends on
			// the contacts only.
			if a < b {
				s.parent[b] = a
			} else {
				s.parent[a] = b
			}
		}
	}
	if cap(s.contactIsland) < len(cs) {
		s.contactIsland = make([]int32, len(cs), cap(s.contacts))
	}
	s.contactIsland = s.contactIsland[:len(cs)]
	for k := range cs {
		c := &cs[k]
		// The movable side names the island (a contact always has one).
		m := c.ca
		if m < 0 || s.cubes[m].held {
			m = c.cb
		}
		r := s.find(m)
		id := s.islandOf[r]
		if id < 0 {
			id = int32(len(s.islands))
			s.islandOf[r] = id
			s.islands = append(s.islands, island{})
		}
		s.contactIsland[k] = id
		s.islands[id].hi++ // count for now
	}
	// Offsets, then the stable scatter.
	var at int32
	for i := range s.islands {
		cnt := s.islands[i].hi
		s.islands[i] = island{lo: at, hi: at}
		at += cnt
	}
	if cap(s.sorted) < len(cs) {
		s.sorted = make([]contact, len(cs), cap(s.contacts))
	}
	s.sorted = s.sorted[:len(cs)]
	for k := range cs {
		is := &s.islands[s.contactIsland[k]]
		s.sorted[is.hi] = cs[k]
		is.hi++
	}
	copy(cs, s.sorted)
	if cap(s.rows) < len(cs) {
		s.rows = make([]row, len(cs), cap(s.contacts))
	}
	s.rows = s.rows[:len(cs)]
	for k := range cs {
		c := &cs[k]
		t1, t2 := tangents(c.n)
		s.rows[k] = row{n: c.n, t1: t1, t2: t2, mu: c.mu}
	}
}

// solveIslands is the island job of a Solve call: for islands [lo, hi),
// the rows' geometry from the current positions, then the passes. It
// touches only the rows, contacts and cubes of its own islands.
func (s *System) solveIslands(lo, hi int) {
	pos := s.pos
	for i := lo; i < hi; i++ {
		is := &s.islands[i]
		cs := s.contacts[is.lo:is.hi]
		rows := s.rows[is.lo:is.hi]
		for k := range rows {
			s.setup(&rows[k], &cs[k], pos)
		}
		s.solveIsland(is, s.passes)
		for k := range rows {
			cs[k].pn = rows[k].pn
		}
	}
}
