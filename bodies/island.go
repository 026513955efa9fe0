package bodies

import "github.com/go-gl/mathgl/mgl32"

// Islands.
//
// Cubes that touch, directly or through other cubes, form an island; the
// ground, colliders and held cubes (which the solve does not move) join
// nothing. Islands share no movable body, so each is solved on its own:
// its contacts' rows sit together in System.rows, in the order the
// contacts were made, and its passes end as soon as its own contacts stop
// moving and sliding (convergedMove, and convergedSlide or the float32
// spacing of the island's coordinates: slideBound), whatever the rest of
// the World does. The result of an island does not depend on the others,
// nor on the order or the goroutine that solves them (System.shares),
// which is what makes the solve the same for any worker count.

// island is a range of System.rows.
type island struct {
	lo, hi   int32 // its rows: System.rows[lo:hi]
	clo, chi int32 // its movable cubes: System.islandCubes[clo:chi]
	pass     int32 // passes since Prepare, for the alternating order
}

// lone reports whether is holds a single movable cube (a crate on the
// floor, or on held or asleep cubes): its contacts are warm-started
// (warm.go) and settle in a pass or two.
func (is *island) lone() bool { return is.chi-is.clo == 1 }

// find returns the root of cube i in the union-find forest s.parent.
func (s *System) find(i int32) int32 {
	for s.parent[i] != i {
		s.parent[i] = s.parent[s.parent[i]]
		i = s.parent[i]
	}
	return i
}

// buildIslands makes the rows of contacts[:nRigid] grouped by island (a
// stable counting sort: within an island, rows keep the order their
// contacts were made in) and fills s.islands, numbered in the order of
// their roots (smallest cube index).
func (s *System) buildIslands() {
	n := len(s.cubes)
	s.islands, s.islandCubes, s.rows = s.islands[:0], s.islandCubes[:0], s.rows[:0]
	if cap(s.parent) < n {
		s.parent = make([]int32, n)
		s.islandOf = make([]int32, n)
		s.slotOf = make([]int32, n)
	}
	s.parent, s.islandOf, s.slotOf = s.parent[:n], s.islandOf[:n], s.slotOf[:n]
	for i := range s.parent {
		s.parent[i] = int32(i)
		s.islandOf[i] = -1
		s.slotOf[i] = -1
	}
	if s.nRigid == 0 {
		return
	}
	cs := s.rigidSides[:s.nRigid]
	for k := range cs {
		c := &cs[k]
		if c.ca < 0 || c.cb < 0 || s.fixed[c.ca] || s.fixed[c.cb] {
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
		s.contactIsland = make([]int32, len(cs), max(cap(s.contacts), 2*len(cs)))
	}
	s.contactIsland = s.contactIsland[:len(cs)]
	// The roots with a contact, then the islands numbered in the order of
	// their roots, the smallest cube index of each: the islands come in
	// about the order of the cubes, so a worker's share of them holds
	// mostly the cubes it predicts and carries (the per-cube range jobs
	// split the cubes by index).
	const marked = -2
	for k := range cs {
		s.islandOf[s.find(s.movableSide(cs[k]))] = marked
	}
	for i := range s.islandOf {
		if s.islandOf[i] == marked {
			s.islandOf[i] = int32(len(s.islands))
			s.islands = append(s.islands, island{})
		}
	}
	for k := range cs {
		id := s.islandOf[s.find(s.movableSide(cs[k]))]
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
	if cap(s.rows) < len(cs) {
		s.rows = make([]row, len(cs), max(cap(s.contacts), 2*len(cs)))
		s.rowContact = make([]int32, len(cs), cap(s.rows))
	}
	s.rows, s.rowContact = s.rows[:len(cs)], s.rowContact[:len(cs)]
	// Only the contact of each row: the island job fills the rows
	// (initRows), on the worker that solves them.
	for k := range cs {
		is := &s.islands[s.contactIsland[k]]
		s.rowContact[is.hi] = int32(k)
		is.hi++
	}
	// The movable cubes of every island, in index order.
	for i := range s.cubes {
		if s.fixed[i] {
			continue
		}
		if id := s.islandOf[s.find(int32(i))]; id >= 0 {
			s.islands[id].chi++
		}
	}
	at = 0
	for i := range s.islands {
		is := &s.islands[i]
		cnt := is.chi
		is.clo, is.chi = at, at
		at += cnt
	}
	if cap(s.islandCubes) < int(at) {
		s.islandCubes = make([]int32, at, len(s.cubes))
	}
	s.islandCubes = s.islandCubes[:at]
	for i := range s.cubes {
		if s.fixed[i] {
			continue
		}
		if id := s.islandOf[s.find(int32(i))]; id >= 0 {
			is := &s.islands[id]
			s.islandCubes[is.chi] = int32(i)
			s.slotOf[i] = is.chi
			is.chi++
		}
	}
}

// movableSide returns the cube of a rigid contact with sides c that the
// solve moves, which names its island (a rigid contact always has one).
func (s *System) movableSide(c contactSides) int32 {
	if c.ca < 0 || s.fixed[c.ca] {
		return c.cb
	}
	return c.ca
}

// initRows starts rows, of the contacts rc, for a substep: normal,
// tangents, friction, no impulse yet.
func (s *System) initRows(rows []row, rc []int32) {
	// Contacts in a row often share their normal (a collider's corners):
	// the tangents of the last normal are kept.
	var last, t1, t2 mgl32.Vec3
	for k, ci := range rc {
		c := &s.contacts[ci]
		if k == 0 || c.n != last {
			last = c.n
			t1, t2 = tangents(last)
		}
		// In place: a row is 192 bytes to build and copy, or even to
		// clear. setup fills every other field.
		r := &rows[k]
		r.ci, r.n, r.t1, r.t2, r.mu = ci, c.n, t1, t2, c.mu
		r.pn, r.p1, r.p2, r.key = 0, 0, 0, 0
	}
}

// splitIslands cuts the islands into at most workers contiguous shares of
// about equal rows (islandSplit). Cut by island count, a worker that got
// the piles made the other wait.
func (s *System) splitIslands(workers int) {
	shares := max(min(workers, len(s.islands)), 1)
	s.islandSplit = append(s.islandSplit[:0], 0)
	if shares == 1 {
		s.islandSplit = append(s.islandSplit, int32(len(s.islands)))
		return
	}
	// Cut by rows: each share keeps closer to the cubes its worker
	// predicted and carries (the islands come in the order of their
	// smallest cube), and reads less from the other worker's cache.
	cost := func(is *island) int { return int(is.hi - is.lo) }
	total := 0
	for i := range s.islands {
		total += cost(&s.islands[i])
	}
	sum, k := 0, 1
	for i := range s.islands {
		sum += cost(&s.islands[i])
		if k < shares && sum*shares >= total*k {
			s.islandSplit = append(s.islandSplit, int32(i+1))
			k++
		}
	}
	for len(s.islandSplit) <= shares {
		s.islandSplit = append(s.islandSplit, int32(len(s.islands)))
	}
}

// solveIslandShares is the island job of a Solve call for shares [lo, hi)
// of islandSplit.
func (s *System) solveIslandShares(lo, hi int) {
	s.solveIslands(int(s.islandSplit[lo]), int(s.islandSplit[hi]))
}

// solveIslands is the island job of a Solve call: for islands [lo, hi),
// the rows' geometry from the current positions, then the passes. It
// touches only the rows, contacts and cubes of its own islands.
func (s *System) solveIslands(lo, hi int) {
	pos := s.pos
	for i := lo; i < hi; i++ {
		is := &s.islands[i]
		rows := s.rows[is.lo:is.hi]
		s.islandStart(is, pos)
		if is.pass == 0 {
			s.initRows(rows, s.rowContact[is.lo:is.hi]) // the substep's first Solve call
		}
		for k := range rows {
			s.setup(&rows[k], &s.contacts[rows[k].ci], pos)
		}
		if is.pass == 0 { // the substep's first Solve call
			if is.lone() {
				s.warmStart(is)
			} else {
				s.warmStartPile(is)
			}
		}
		s.solveIsland(is, s.passes)
		for k := range rows {
			c := &s.contacts[rows[k].ci]
			c.pn = rows[k].pn
			s.cameFast[rows[k].ci] = c.pn > 0 && c.vn0 < s.minApproach && (c.kind == kindCube || c.na == 1)
		}
		s.saveWarm(is)
		if s.moveInIsland {
			for k := is.clo; k < is.chi; k++ {
				cb, r := &s.cubes[s.islandCubes[k]], &s.rig[k]
				cb.dc, cb.th = r.dc, r.th
				if r.dc != (mgl32.Vec3{}) || r.th != (mgl32.Vec3{}) {
					rigidMove(cb, pos, cb.ctr0, r.dc, r.th)
				}
			}
		}
	}
}
