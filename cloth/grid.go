package cloth

import (
	"fmt"
	"github.com/drape3d/drape/internal/vecmath"
	"math"
	"strings"

	"github.com/drape3d/drape/verlet3d"
	"github.com/go-gl/mathgl/mgl32"
)

// Spring is the setting of one kind of link.
type Spring struct {
	// Compliance is the XPBD compliance in m/N: 0 is rigid, larger is
	// softer. See the package documentation for the scale.
	Compliance float32
	// Off leaves this kind of link out.
	Off bool
}

// Settings describe a Grid. Start from DefaultSettings, or fill in at least
// Cols, Rows, Spacing and Mass (or ParticleMass, or MassAt).
type Settings struct {
	// Cols and Rows are the number of particles across and down, each >= 2.
	Cols, Rows int
	// Spacing is the rest distance between neighbors in meters, > 0.
	Spacing float32
	// Origin is the position of the particle at row 0, column 0, in meters.
	Origin mgl32.Vec3
	// Across is the direction of increasing column; zero means +X.
	Across mgl32.Vec3
	// Down is the direction of increasing row; zero means -Y (a hanging
	// curtain). It is made perpendicular to Across. The front side of the
	// triangles faces Down × Across (+Z with the defaults).
	Down mgl32.Vec3
	// Mass is the total mass in kg, shared equally by the particles. Set
	// either Mass or ParticleMass (or MassAt).
	Mass float32
	// ParticleMass is the mass of each particle in kg.
	ParticleMass float32
	// MassAt, if set, gives each particle's mass in kg and overrides Mass
	// and ParticleMass. It must return a finite value > 0.
	MassAt func(row, col int) float32
	// Radius is the collision radius of every particle in meters: colliders
	// keep particle centers this far away. Default 0.
	Radius float32
	// Group is the collision group bits of the particles (World.SetGroup);
	// 0 means 1.
	Group uint32
	// Structural links join row and column neighbors.
	Structural Spring
	// Shear links join the diagonals of each cell.
	Shear Spring
	// Bend links join particles two apart along rows and columns.
	Bend Spring
	// TearStrain, when > 0, tears structural and shear links stretched past
	// this strain ((length-rest)/rest): 0.5 tears at 150% of the rest
	// length. 0 (default) never tears.
	TearStrain float32
	// PinRows and PinCols pin whole rows and columns (0-based).
	PinRows, PinCols []int
	// Pin, if set, pins every particle for which it returns true.
	Pin func(row, col int) bool
	// Tethers adds a long-range tether from each free particle to the
	// nearest pinned particle of the grid, so a hanging cloth cannot stretch
	// beyond its rest size whatever the iteration count.
	Tethers bool
	// TetherSlack lets tethers stretch by this fraction of their rest
	// distance before they act (0.02 allows 2%), at most MaxTetherSlack.
	// Default 0.
	TetherSlack float32
}

// MaxTetherSlack is the largest TetherSlack: tethers that let a cloth
// stretch to eleven times its size no longer hold anything, and far
// larger ones overflowed the World's tether lengths.
const MaxTetherSlack = 10

// DefaultSettings returns a 32 x 32 grid of 5 cm cells (1.55 m square),
// 0.5 kg in all, hanging from row 0 at the origin with soft bending and
// nothing pinned.
func DefaultSettings() Settings {
	return Settings{
		Cols: 32, Rows: 32,
		Spacing:    0.05,
		Mass:       0.5,
		Structural: Spring{Compliance: 0},
		Shear:      Spring{Compliance: 1e-3},
		Bend:       Spring{Compliance: 0.05},
	}
}

// maxParticles is the most particles a Grid (or a Cape) may have.
const maxParticles = 1 << 22

// Validate reports the first invalid field, naming it and its value.
func (s *Settings) Validate() error {
	switch {
	case s.Cols < 2:
		return fmt.Errorf("cloth: Settings.Cols = %d, want >= 2", s.Cols)
	case s.Rows < 2:
		return fmt.Errorf("cloth: Settings.Rows = %d, want >= 2", s.Rows)
	// Each side first, so that the product cannot overflow.
	case s.Cols > maxParticles || s.Rows > maxParticles || s.Cols*s.Rows > maxParticles:
		return fmt.Errorf("cloth: Settings.Cols x Rows = %d x %d, want at most %d particles", s.Cols, s.Rows, maxParticles)
	case !finite(s.Spacing) || s.Spacing <= 0:
		return fmt.Errorf("cloth: Settings.Spacing = %v, want meters > 0", s.Spacing)
	case !vecmath.Finite(s.Origin):
		return fmt.Errorf("cloth: Settings.Origin = %v, want a finite position", s.Origin)
	case !vecmath.Finite(s.Across):
		return fmt.Errorf("cloth: Settings.Across = %v, want a finite direction", s.Across)
	case !vecmath.Finite(s.Down):
		return fmt.Errorf("cloth: Settings.Down = %v, want a finite direction", s.Down)
	case !finite(s.Mass) || s.Mass < 0:
		return fmt.Errorf("cloth: Settings.Mass = %v, want kg > 0", s.Mass)
	case !finite(s.ParticleMass) || s.ParticleMass < 0:
		return fmt.Errorf("cloth: Settings.ParticleMass = %v, want kg > 0", s.ParticleMass)
	case s.MassAt == nil && s.Mass == 0 && s.ParticleMass == 0:
		return fmt.Errorf("cloth: Settings.Mass = 0 and ParticleMass = 0, want one of them in kg > 0")
	case s.MassAt == nil && s.Mass > 0 && s.ParticleMass > 0:
		return fmt.Errorf("cloth: Settings.Mass = %v and ParticleMass = %v both set, want one", s.Mass, s.ParticleMass)
	case !finite(s.Radius) || s.Radius < 0:
		return fmt.Errorf("cloth: Settings.Radius = %v, want meters >= 0", s.Radius)
	case !finite(s.TearStrain) || s.TearStrain < 0:
		return fmt.Errorf("cloth: Settings.TearStrain = %v, want >= 0 (0 never tears)", s.TearStrain)
	case !finite(s.TetherSlack) || s.TetherSlack < 0 || s.TetherSlack > MaxTetherSlack:
		return fmt.Errorf("cloth: Settings.TetherSlack = %v, want a fraction in [0, %d]", s.TetherSlack, MaxTetherSlack)
	}
	// The whole grid must lie where the World accepts particles.
	lim := float32(verlet3d.MaxCoordinate)
	if ext := float64(float64(s.Spacing) * float64(s.Cols+s.Rows)); ext+math.Abs(float64(s.Origin[0]))+math.Abs(float64(s.Origin[1]))+math.Abs(float64(s.Origin[2])) > float64(lim) {
		return fmt.Errorf("cloth: Settings.Spacing = %v with Origin = %v spans beyond ±%g m (verlet3d.MaxCoordinate)", s.Spacing, s.Origin, lim)
	}
	if s.Radius > lim {
		return fmt.Errorf("cloth: Settings.Radius = %v, want meters in [0, %g]", s.Radius, lim)
	}
	if s.MassAt == nil {
		// Each particle's mass must be one the World accepts.
		field, v, pm := "ParticleMass", s.ParticleMass, s.ParticleMass
		if s.Mass > 0 {
			field, v, pm = "Mass", s.Mass, s.Mass/float32(s.Cols*s.Rows)
		}
		if pm < verlet3d.MinMass || pm > verlet3d.MaxMass {
			return fmt.Errorf("cloth: Settings.%s = %v gives %v kg per particle, want [%g, %g] (verlet3d.MinMass, MaxMass)", field, v, pm, verlet3d.MinMass, verlet3d.MaxMass)
		}
	}
	if err := checkCompliance(func(kind string) string { return "Settings." + kind + ".Compliance" },
		s.Structural.Compliance, s.Shear.Compliance, s.Bend.Compliance); err != nil {
		return err
	}
	for _, r := range s.PinRows {
		if r < 0 || r >= s.Rows {
			return fmt.Errorf("cloth: Settings.PinRows has %d, want 0..%d", r, s.Rows-1)
		}
	}
	for _, c := range s.PinCols {
		if c < 0 || c >= s.Cols {
			return fmt.Errorf("cloth: Settings.PinCols has %d, want 0..%d", c, s.Cols-1)
		}
	}
	if _, _, err := s.axes(); err != nil {
		return err
	}
	if s.MassAt != nil {
		for r := 0; r < s.Rows; r++ {
			for c := 0; c < s.Cols; c++ {
				if m := s.MassAt(r, c); !finite(m) || m < verlet3d.MinMass || m > verlet3d.MaxMass {
					return fmt.Errorf("cloth: Settings.MassAt(%d, %d) = %v, want kg in [%g, %g]", r, c, m, verlet3d.MinMass, verlet3d.MaxMass)
				}
			}
		}
	}
	return nil
}

// axes returns the unit Across and Down directions, Down made perpendicular
// to Across.
func (s *Settings) axes() (across, down mgl32.Vec3, err error) {
	across, down = s.Across, s.Down
	if across == (mgl32.Vec3{}) {
		across = mgl32.Vec3{1, 0, 0}
	}
	if down == (mgl32.Vec3{}) {
		down = mgl32.Vec3{0, -1, 0}
	}
	la := vecmath.Len(across)
	if la < 1e-12 || !finite(la) {
		return across, down, fmt.Errorf("cloth: Settings.Across = %v, want a non-zero direction", s.Across)
	}
	across = vecmath.Scale(across, 1/la)
	down = down.Sub(vecmath.Scale(across, vecmath.Dot(down, across)))
	ld := vecmath.Len(down)
	if ld < 1e-6*vecmath.Len(s.Down) || ld < 1e-12 {
		return across, down, fmt.Errorf("cloth: Settings.Down = %v is parallel to Across = %v, want another direction", s.Down, s.Across)
	}
	return across, vecmath.Scale(down, 1/ld), nil
}

// particleMass returns the mass of the particle at (r, c).
func (s *Settings) particleMass(r, c int) float32 {
	switch {
	case s.MassAt != nil:
		return s.MassAt(r, c)
	case s.ParticleMass > 0:
		return s.ParticleMass
	default:
		return s.Mass / float32(s.Rows*s.Cols)
	}
}

// Link kinds.
const (
	kindStructural uint8 = iota // row or column neighbors, a triangle edge
	kindDiagonal                // the cell diagonal that is a triangle edge
	kindAnti                    // the other cell diagonal
	kindBend                    // two apart along a row or column
)

// triCorner names a triangle and one of its corners.
type triCorner struct {
	tri    int32 // -1 when unused
	corner int8
}

// gridLink is the grid's record of one of its verlet3d links.
type gridLink struct {
	h    verlet3d.Link
	a, b int32 // render vertices at the ends
	kind uint8
	dead bool    // broken or removed: the grid no longer touches it
	rest float32 // m
	// Triangles that hold the link in place: sa contain end a, sb end b.
	// The link survives while a live triangle of sa and one of sb share a
	// vertex, and its ends follow those triangles' corners when vertices
	// are split.
	sa, sb [2]triCorner
}

// gridTether is one tether added by the grid.
type gridTether struct {
	h         verlet3d.Tether
	anchor, p int32   // render vertices
	max       float32 // length as built, m
	graph     float32 // graph distance through links as built, m
}

// Grid is a rectangular piece of cloth in a World: particles, links,
// optional tethers, and the mesh data to render it. A Grid registers itself
// with the World as a verlet3d.ConstraintSet when it can tear, to split its
// mesh as links break. It is not safe for concurrent use.
type Grid struct {
	w            *verlet3d.World
	s            Settings
	across, down mgl32.Vec3

	// Render vertices. The first Rows*Cols are the grid's particles in
	// row-major order; split duplicates are appended.
	verts  []verlet3d.Particle
	origin []int32 // grid index (row*Cols+col) each vertex was split from
	next   []int32 // next duplicate split from the same grid vertex, -1 at the end
	uvs    []mgl32.Vec2
	vtris  [][8]int32 // triangles around each vertex; -1 unused
	pinned []bool     // pinned or kinematic through the grid

	tris     [][3]int32 // render vertices, counter-clockwise seen from the front
	triAlive []bool
	triCell  []int32 // cell index (row*(Cols-1)+col) of each triangle
	indices  []uint32
	version  uint64

	links    []gridLink
	tethers  []gridTether
	seen     int // World.Stats().LinksBroken when tears were last applied
	tearable bool
	hooks    gridHooks

	// Scratch for tearing.
	affected []int32
	mark     []bool
}

// New adds a grid of cloth to w as described by s and returns it. Invalid
// settings return an error naming the field, and leave w unchanged.
func New(w *verlet3d.World, s Settings) (*Grid, error) {
	if w == nil {
		panic("cloth: New: World is nil")
	}
	var g *Grid
	err := w.Atomically(func() (err error) { g, err = newGrid(w, s); return err })
	if err != nil {
		return nil, err
	}
	return g, nil
}

// newGrid builds what New returns.
func newGrid(w *verlet3d.World, s Settings) (*Grid, error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	across, down, _ := s.axes()
	s.PinRows = append([]int(nil), s.PinRows...)
	s.PinCols = append([]int(nil), s.PinCols...)
	if s.Group == 0 {
		s.Group = 1
	}
	g := &Grid{w: w, s: s, across: across, down: down}
	cols, rows := s.Cols, s.Rows
	n := cols * rows
	g.verts = make([]verlet3d.Particle, n)
	g.origin = make([]int32, n)
	g.next = make([]int32, n)
	g.uvs = make([]mgl32.Vec2, n)
	g.vtris = make([][8]int32, n)
	g.pinned = make([]bool, n)
	// Built in the World's frame, moved to the cloth first when the World
	// has nothing near its frame's origin (verlet3d.World.Recenter).
	w.Recenter(s.Origin)
	o := w.ToLocal(s.Origin)
	for r := 0; r < rows; r++ {
		for c := 0; c < cols; c++ {
			i := r*cols + c
			pos := g.restAt(o, r, c)
			p, err := w.AddParticleLocal(pos, s.particleMass(r, c))
			if err != nil {
				return nil, fmt.Errorf("cloth: particle (%d, %d): %w", r, c, err)
			}
			g.verts[i] = p
			g.origin[i] = int32(i)
			g.next[i] = -1
			// v runs up the image: row 0 is the top edge of the texture.
			g.uvs[i] = mgl32.Vec2{float32(c) / float32(cols-1), 1 - float32(r)/float32(rows-1)}
			for k := range g.vtris[i] {
				g.vtris[i][k] = -1
			}
			if s.Radius > 0 {
				if err := w.SetRadius(p, s.Radius); err != nil {
					return nil, err
				}
			}
			if s.Group != 1 {
				w.SetGroup(p, s.Group)
			}
		}
	}
	g.buildTriangles()
	if err := g.buildLinks(); err != nil {
		return nil, err
	}
	for _, r := range s.PinRows {
		g.PinRow(r)
	}
	for _, c := range s.PinCols {
		g.PinColumn(c)
	}
	if s.Pin != nil {
		g.PinWhere(s.Pin)
	}
	if s.Tethers {
		if err := g.AddTethers(s.TetherSlack); err != nil {
			return nil, err
		}
	}
	g.seen = w.Stats().LinksBroken
	g.tearable = s.TearStrain > 0
	g.hooks = gridHooks{g}
	if g.tearable {
		// Only a tearing grid has work for a hook; without one, nothing
		// of the grid's runs between a substep's integration and its first
		// link pass, and the World's workers do both in one job.
		w.AddConstraintSet(g.hooks)
	}
	return g, nil
}

// buildTriangles makes two triangles per cell, alternating the diagonal in
// a checkerboard so the cloth drapes the same way in every direction.
func (g *Grid) buildTriangles() {
	cols, rows := g.s.Cols, g.s.Rows
	nt := 2 * (cols - 1) * (rows - 1)
	g.tris = make([][3]int32, 0, nt)
	g.triCell = make([]int32, 0, nt)
	for r := 0; r+1 < rows; r++ {
		for c := 0; c+1 < cols; c++ {
			a := int32(r*cols + c)
			b := a + 1
			d := a + int32(cols)
			e := d + 1
			cell := int32(r*(cols-1) + c)
			if (r+c)%2 == 0 {
				g.tris = append(g.tris, [3]int32{a, d, e}, [3]int32{a, e, b})
			} else {
				g.tris = append(g.tris, [3]int32{a, d, b}, [3]int32{b, d, e})
			}
			g.triCell = append(g.triCell, cell, cell)
		}
	}
	g.triAlive = make([]bool, len(g.tris))
	for t, tri := range g.tris {
		g.triAlive[t] = true
		for _, v := range tri {
			addTri(&g.vtris[v], int32(t))
		}
	}
	g.rebuildIndices()
}

func addTri(l *[8]int32, t int32) {
	for k := range l {
		if l[k] < 0 {
			l[k] = t
			return
		}
	}
	panic("cloth: more than 8 triangles around a vertex")
}

func cornerOf(tri [3]int32, v int32) int8 {
	for k, u := range tri {
		if u == v {
			return int8(k)
		}
	}
	return -1
}

// buildLinks adds structural, shear and bend links with their supporting
// triangles.
func (g *Grid) buildLinks() error {
	cols, rows := g.s.Cols, g.s.Rows
	// Triangles around each undirected edge.
	type edge struct{ a, b int32 }
	edges := make(map[edge][2]int32, 3*cols*rows)
	key := func(a, b int32) edge {
		if a > b {
			a, b = b, a
		}
		return edge{a, b}
	}
	for t, tri := range g.tris {
		for k := 0; k < 3; k++ {
			e := key(tri[k], tri[(k+1)%3])
			ts, ok := edges[e]
			if !ok {
				ts = [2]int32{-1, -1}
			}
			if ts[0] < 0 {
				ts[0] = int32(t)
			} else {
				ts[1] = int32(t)
			}
			edges[e] = ts
		}
	}
	none := [2]triCorner{{-1, 0}, {-1, 0}}
	onEdge := func(a, b int32) (sa, sb [2]triCorner) {
		sa, sb = none, none
		for k, t := range edges[key(a, b)] {
			if t >= 0 {
				sa[k] = triCorner{t, cornerOf(g.tris[t], a)}
				sb[k] = triCorner{t, cornerOf(g.tris[t], b)}
			}
		}
		return sa, sb
	}
	sp := g.s.Spacing
	var firstErr error
	add := func(a, b int32, kind uint8, spring Spring, rest float32, sa, sb [2]triCorner) {
		if firstErr != nil || spring.Off {
			return
		}
		ls := verlet3d.LinkSettings{Rest: rest, Compliance: spring.Compliance}
		if kind != kindBend {
			ls.BreakStrain = g.s.TearStrain
		}
		h, err := g.w.AddLink(g.verts[a], g.verts[b], ls)
		if err != nil {
			firstErr = fmt.Errorf("cloth: link %d-%d: %w", a, b, err)
			return
		}
		g.links = append(g.links, gridLink{h: h, a: a, b: b, kind: kind, rest: rest, sa: sa, sb: sb})
	}
	// Structural.
	for r := 0; r < rows; r++ {
		for c := 0; c < cols; c++ {
			a := int32(r*cols + c)
			if c+1 < cols {
				sa, sb := onEdge(a, a+1)
				add(a, a+1, kindStructural, g.s.Structural, sp, sa, sb)
			}
			if r+1 < rows {
				sa, sb := onEdge(a, a+int32(cols))
				add(a, a+int32(cols), kindStructural, g.s.Structural, sp, sa, sb)
			}
		}
	}
	// Shear: both diagonals of each cell.
	diag := float32(sp * float32(math.Sqrt2))
	for r := 0; r+1 < rows; r++ {
		for c := 0; c+1 < cols; c++ {
			a := int32(r*cols + c)
			b, d := a+1, a+int32(cols)
			e := d + 1
			t0 := int32(2 * (r*(cols-1) + c))
			t1 := t0 + 1
			main, anti := [2]int32{a, e}, [2]int32{b, d}
			if (r+c)%2 != 0 {
				main, anti = anti, main
			}
			sa, sb := onEdge(main[0], main[1])
			add(main[0], main[1], kindDiagonal, g.s.Shear, diag, sa, sb)
			// The anti-diagonal's ends each sit in one of the cell's triangles.
			sa, sb = none, none
			for _, t := range [2]int32{t0, t1} {
				if k := cornerOf(g.tris[t], anti[0]); k >= 0 {
					sa[0] = triCorner{t, k}
				}
				if k := cornerOf(g.tris[t], anti[1]); k >= 0 {
					sb[0] = triCorner{t, k}
				}
			}
			add(anti[0], anti[1], kindAnti, g.s.Shear, diag, sa, sb)
		}
	}
	// Bend: two apart, held by the edges on either side of the middle.
	for r := 0; r < rows; r++ {
		for c := 0; c < cols; c++ {
			a := int32(r*cols + c)
			if c+2 < cols {
				sa, _ := onEdge(a, a+1)
				_, sb := onEdge(a+1, a+2)
				add(a, a+2, kindBend, g.s.Bend, float32(2*sp), sa, sb)
			}
			if r+2 < rows {
				n := int32(cols)
				sa, _ := onEdge(a, a+n)
				_, sb := onEdge(a+n, a+2*n)
				add(a, a+2*n, kindBend, g.s.Bend, float32(2*sp), sa, sb)
			}
		}
	}
	return firstErr
}

// Remove takes the grid's hooks (tearing) out of the World. Its particles
// and links stay (a World never removes particles); remove its WindForce
// and SelfCollision with their own Remove.
func (g *Grid) Remove() { g.w.RemoveConstraintSet(g.hooks) }

// World returns the World the grid lives in.
func (g *Grid) World() *verlet3d.World { return g.w }

// Settings returns the settings the grid was built with.
func (g *Grid) Settings() Settings { return g.s }

// Cols returns the number of particles across.
func (g *Grid) Cols() int { return g.s.Cols }

// Rows returns the number of particles down.
func (g *Grid) Rows() int { return g.s.Rows }

func (g *Grid) index(row, col int) int {
	if row < 0 || row >= g.s.Rows || col < 0 || col >= g.s.Cols {
		panic(fmt.Sprintf("cloth: (row %d, col %d) outside a %d x %d grid", row, col, g.s.Rows, g.s.Cols))
	}
	return row*g.s.Cols + col
}

// Particle returns the particle at (row, col). After a tear splits that
// vertex it keeps one side; the duplicates are further Vertices.
func (g *Grid) Particle(row, col int) verlet3d.Particle { return g.verts[g.index(row, col)] }

// Rest returns where (row, col) was built, in meters: Origin + col·Spacing·
// Across + row·Spacing·Down. A cape's anchors are these points moved with
// the character.
func (g *Grid) Rest(row, col int) mgl32.Vec3 {
	g.index(row, col)
	return g.restAt(g.s.Origin, row, col)
}

// restAt is Rest with the grid's origin at o.
func (g *Grid) restAt(o mgl32.Vec3, row, col int) mgl32.Vec3 {
	sp := g.s.Spacing
	return o.Add(vecmath.Scale(g.across, float32(float32(col)*sp))).Add(vecmath.Scale(g.down, float32(float32(row)*sp)))
}

// Axes returns the unit Across and Down directions the grid was built with.
func (g *Grid) Axes() (across, down mgl32.Vec3) { return g.across, g.down }

// Pin fixes (row, col) where it is (it keeps its mass for Unpin).
func (g *Grid) Pin(row, col int) {
	i := g.index(row, col)
	for v := int32(i); v >= 0; v = g.next[v] {
		g.w.Pin(g.verts[v])
		g.pinned[v] = true
	}
}

// Unpin frees (row, col) and its split duplicates.
func (g *Grid) Unpin(row, col int) {
	i := g.index(row, col)
	for v := int32(i); v >= 0; v = g.next[v] {
		g.w.Unpin(g.verts[v])
		g.pinned[v] = false
	}
}

// PinRow pins every particle of a row.
func (g *Grid) PinRow(row int) {
	for c := 0; c < g.s.Cols; c++ {
		g.Pin(row, c)
	}
}

// PinColumn pins every particle of a column.
func (g *Grid) PinColumn(col int) {
	for r := 0; r < g.s.Rows; r++ {
		g.Pin(r, col)
	}
}

// PinWhere pins every particle for which f returns true.
func (g *Grid) PinWhere(f func(row, col int) bool) {
	for r := 0; r < g.s.Rows; r++ {
		for c := 0; c < g.s.Cols; c++ {
			if f(r, c) {
				g.Pin(r, c)
			}
		}
	}
}

// Pinned reports whether (row, col) was pinned or given a target through
// the grid.
func (g *Grid) Pinned(row, col int) bool { return g.pinned[g.index(row, col)] }

// checkCompliance returns an error for the first of the structural, shear
// and bend compliances outside [0, verlet3d.MaxCompliance], its name made
// by name from "Structural", "Shear" or "Bend".
func checkCompliance(name func(kind string) string, structural, shear, bend float32) error {
	for _, sp := range []struct {
		kind string
		v    float32
	}{{"Structural", structural}, {"Shear", shear}, {"Bend", bend}} {
		if !finite(sp.v) || sp.v < 0 || sp.v > verlet3d.MaxCompliance {
			return fmt.Errorf("cloth: %s = %v, want m/N in [0, %g]", name(sp.kind), sp.v, float32(verlet3d.MaxCompliance))
		}
	}
	return nil
}

// SetCompliance changes the compliance in m/N of the grid's structural,
// shear and bend links live, as the Compliance fields of Settings would
// have set them (kinds built Off stay off). Values outside [0,
// verlet3d.MaxCompliance] return an error naming the field and change
// nothing.
func (g *Grid) SetCompliance(structural, shear, bend float32) error {
	if err := checkCompliance(func(kind string) string { return "SetCompliance: " + strings.ToLower(kind) },
		structural, shear, bend); err != nil {
		return err
	}
	g.s.Structural.Compliance, g.s.Shear.Compliance, g.s.Bend.Compliance = structural, shear, bend
	for _, l := range g.links {
		if l.dead {
			continue
		}
		c := structural
		switch l.kind {
		case kindDiagonal, kindAnti:
			c = shear
		case kindBend:
			c = bend
		}
		g.w.SetLinkCompliance(l.h, c)
	}
	return nil
}

// SetTarget makes (row, col) kinematic and moves it to target (m) over the
// next step, with any duplicates split from it. Call it every frame for
// anchors that follow an animated node.
func (g *Grid) SetTarget(row, col int, target mgl32.Vec3) {
	i := g.index(row, col)
	for v := int32(i); v >= 0; v = g.next[v] {
		g.w.SetTarget(g.verts[v], target)
		g.pinned[v] = true
	}
}

// AddTethers adds a tether from every free particle to the nearest particle
// pinned so far, at its rest distance times 1+slack. New calls it when
// Settings.Tethers is set; call it yourself after pinning later. It returns
// an error, and adds nothing, if slack is not a fraction in [0,
// MaxTetherSlack], nothing is pinned, or a tether would be longer than
// verlet3d.MaxCoordinate.
func (g *Grid) AddTethers(slack float32) error {
	if !finite(slack) || slack < 0 || slack > MaxTetherSlack {
		return fmt.Errorf("cloth: tether slack = %v, want a fraction in [0, %d]", slack, MaxTetherSlack)
	}
	cols, rows := g.s.Cols, g.s.Rows
	nearest, dist2 := nearestPins(g.pinned[:rows*cols], rows, cols)
	if nearest == nil {
		return fmt.Errorf("cloth: AddTethers: no particle of the grid is pinned")
	}
	var far float64
	for i := 0; i < rows*cols; i++ {
		if !g.pinned[i] {
			far = max(far, float64(math.Sqrt(float64(dist2[i]))*float64(g.s.Spacing)*(1+float64(slack))))
		}
	}
	if far > verlet3d.MaxCoordinate {
		return fmt.Errorf("cloth: AddTethers: slack %v makes the longest tether %.3g m, beyond %g m (verlet3d.MaxCoordinate)", slack, far, float32(verlet3d.MaxCoordinate))
	}
	for i := 0; i < rows*cols; i++ {
		if g.pinned[i] {
			continue
		}
		best, bestD := nearest[i], float32(dist2[i])
		rest := float32(float32(math.Sqrt(float64(bestD))) * g.s.Spacing)
		h, err := g.w.AddTether(g.verts[best], g.verts[i], float32(rest*(1+slack)))
		if err != nil {
			return err
		}
		g.tethers = append(g.tethers, gridTether{h: h, anchor: best, p: int32(i), max: float32(rest * (1 + slack))})
	}
	g.measureTethers(true)
	return nil
}

// nearestPins finds, for every cell of a rows x cols grid, the pinned cell
// nearest in the grid's plane and the squared distance to it in cells, by
// the exact two-pass Euclidean distance transform (Felzenszwalb and
// Huttenlocher 2012): down each column, then the lower envelope of
// parabolas along each row. It takes time proportional to the cells, not
// cells times pins (a 500 x 500 cape with a pinned top row is instant). It
// returns nil when nothing is pinned.
func nearestPins(pinned []bool, rows, cols int) (nearest []int32, dist2 []int64) {
	const far = int64(1) << 50
	// Pass 1: per column, the nearest pinned row.
	colRow := make([]int32, rows*cols) // nearest pinned row in the column, -1: none
	f := make([]int64, rows*cols)      // squared row distance to it
	any := false
	for c := 0; c < cols; c++ {
		last := -1
		for r := 0; r < rows; r++ {
			if pinned[r*cols+c] {
				last, any = r, true
			}
			colRow[r*cols+c] = int32(last)
		}
		last = -1
		for r := rows - 1; r >= 0; r-- {
			if pinned[r*cols+c] {
				last = r
			}
			i := r*cols + c
			up := colRow[i]
			switch {
			case up < 0 && last < 0:
				f[i] = far
			case up < 0 || last >= 0 && last-r < r-int(up):
				colRow[i] = int32(last)
			}
			if colRow[i] >= 0 {
				d := int64(r - int(colRow[i]))
				f[i] = d * d
			}
		}
	}
	if !any {
		return nil, nil
	}
	// Pass 2: per row, d(c) = min over c' of (c-c')² + f(c').
	nearest = make([]int32, rows*cols)
	dist2 = make([]int64, rows*cols)
	v := make([]int, cols)       // columns of the parabolas in the envelope
	z := make([]float64, cols+1) // where each parabola starts to be lowest
	for r := 0; r < rows; r++ {
		row := f[r*cols : (r+1)*cols]
		k := -1
		for q := 0; q < cols; q++ {
			if row[q] >= far {
				continue
			}
			var sx float64
			for k >= 0 {
				p := v[k]
				sx = float64(row[q]+int64(q*q)-row[p]-int64(p*p)) / float64(2*(q-p))
				if sx > z[k] {
					break
				}
				k--
			}
			k++
			v[k] = q
			if k == 0 {
				z[k] = math.Inf(-1)
			} else {
				z[k] = sx
			}
			z[k+1] = math.Inf(1)
		}
		j := 0
		for c := 0; c < cols; c++ {
			for z[j+1] < float64(c) {
				j++
			}
			p := v[j]
			i := r*cols + c
			d := int64(c - p)
			dist2[i] = d*d + row[p]
			nearest[i] = int32(int(colRow[r*cols+p])*cols + p)
		}
	}
	return nearest, dist2
}

// Vertices returns the particle of each render vertex. The first Rows·Cols
// are the grid in row-major order; tearing appends duplicates. The slice is
// live: read it, do not change it.
func (g *Grid) Vertices() []verlet3d.Particle { return g.verts }

// UVs returns the texture coordinates of each render vertex: u from 0 at
// column 0 to 1 at the last column, v from 1 at row 0 to 0 at the last row.
// The slice is live.
func (g *Grid) UVs() []mgl32.Vec2 { return g.uvs }

// Indices returns the triangle list: three render vertex indices per
// triangle, counter-clockwise seen from the front side. The slice is live
// and replaced when the grid tears (see Version).
func (g *Grid) Indices() []uint32 { return g.indices }

// NumTriangles returns the number of triangles left.
func (g *Grid) NumTriangles() int { return len(g.indices) / 3 }

// Version counts changes to Vertices, UVs and Indices; a renderer compares
// it with the version it uploaded.
func (g *Grid) Version() uint64 { return g.version }

// Origin returns the (row, col) a render vertex was built at (duplicates
// report the vertex they were split from).
func (g *Grid) Origin(vertex int) (row, col int) {
	o := int(g.origin[vertex])
	return o / g.s.Cols, o % g.s.Cols
}

// Positions writes the position of each render vertex into dst, grown if
// too short, and returns dst[:len(Vertices())]. Like
// verlet3d.World.Positions they are in the World's frame: a renderer
// places its node at World.Origin. It does not allocate when dst is long
// enough.
func (g *Grid) Positions(dst []mgl32.Vec3) []mgl32.Vec3 {
	dst = grow(dst, len(g.verts))
	pos := g.w.Positions()
	for i, p := range g.verts {
		dst[i] = pos[p]
	}
	return dst
}

// Normals writes the unit area-weighted normal of each render vertex into
// dst, grown if too short, and returns dst[:len(Vertices())]. Normals point
// out of the front side. A vertex with no triangle gets the front direction
// the grid was built with. It does not allocate when dst is long enough.
func (g *Grid) Normals(dst []mgl32.Vec3) []mgl32.Vec3 {
	dst = grow(dst, len(g.verts))
	clear(dst)
	pos := g.w.Positions()
	verts := g.verts
	idx := g.indices
	for k := 0; k+2 < len(idx); k += 3 {
		ia, ib, ic := idx[k], idx[k+1], idx[k+2]
		a, b, c := &pos[verts[ia]], &pos[verts[ib]], &pos[verts[ic]]
		// (b-a) x (c-a): twice the area along the normal, component by
		// component (see package vecmath).
		ux, uy, uz := b[0]-a[0], b[1]-a[1], b[2]-a[2]
		vx, vy, vz := c[0]-a[0], c[1]-a[1], c[2]-a[2]
		nx, ny, nz := float32(uy*vz)-float32(uz*vy), float32(uz*vx)-float32(ux*vz), float32(ux*vy)-float32(uy*vx)
		d := &dst[ia]
		d[0], d[1], d[2] = d[0]+nx, d[1]+ny, d[2]+nz
		d = &dst[ib]
		d[0], d[1], d[2] = d[0]+nx, d[1]+ny, d[2]+nz
		d = &dst[ic]
		d[0], d[1], d[2] = d[0]+nx, d[1]+ny, d[2]+nz
	}
	front := vecmath.Cross(g.down, g.across)
	for i := range dst {
		n := &dst[i]
		l2 := float32(n[0]*n[0]) + float32(n[1]*n[1]) + float32(n[2]*n[2])
		if l2 < 1e-30 {
			*n = front
			continue
		}
		k := 1 / float32(math.Sqrt(float64(l2)))
		n[0], n[1], n[2] = float32(n[0]*k), float32(n[1]*k), float32(n[2]*k)
	}
	return dst
}

// Bounds returns the axis-aligned box around the grid's particles, in
// world coordinates, m.
func (g *Grid) Bounds() (lo, hi mgl32.Vec3) {
	lo, hi = g.LocalBounds()
	return g.w.ToWorld(lo), g.w.ToWorld(hi)
}

// LocalBounds is Bounds in the World's frame (verlet3d.World.Origin), the
// frame of Positions.
func (g *Grid) LocalBounds() (lo, hi mgl32.Vec3) {
	pos := g.w.Positions()
	// Through pointers, a component at a time (see Normals).
	f := &pos[g.verts[0]]
	x0, y0, z0 := f[0], f[1], f[2]
	x1, y1, z1 := x0, y0, z0
	for _, p := range g.verts[1:] {
		x := &pos[p]
		if x[0] < x0 {
			x0 = x[0]
		}
		if x[0] > x1 {
			x1 = x[0]
		}
		if x[1] < y0 {
			y0 = x[1]
		}
		if x[1] > y1 {
			y1 = x[1]
		}
		if x[2] < z0 {
			z0 = x[2]
		}
		if x[2] > z1 {
			z1 = x[2]
		}
	}
	return mgl32.Vec3{x0, y0, z0}, mgl32.Vec3{x1, y1, z1}
}

// MaxStrain returns the largest strain ((length-rest)/rest) over the grid's
// intact structural links: 0.05 means 5% stretched.
func (g *Grid) MaxStrain() float32 {
	var m float32
	pos := g.w.Positions()
	for i := range g.links {
		l := &g.links[i]
		if l.dead || l.kind != kindStructural {
			continue
		}
		d := vecmath.Len(pos[g.verts[l.a]].Sub(pos[g.verts[l.b]]))
		if s := (d - l.rest) / l.rest; s > m {
			m = s
		}
	}
	return m
}

// KineticEnergy returns the kinetic energy of the grid's free particles in
// joules, from their last substep's motion.
func (g *Grid) KineticEnergy() float64 {
	pos, prev, inv := g.w.Positions(), g.w.PrevPositions(), g.w.InvMasses()
	h := float64(g.w.SubstepLength())
	var e float64
	for _, p := range g.verts {
		if inv[p] == 0 {
			continue
		}
		v := pos[p].Sub(prev[p])
		e += 0.5 * float64(vecmath.Dot(v, v)) / float64(inv[p]) / (h * h)
	}
	return e
}

// rebuildIndices compacts the live triangles into the index list.
func (g *Grid) rebuildIndices() {
	idx := make([]uint32, 0, 3*len(g.tris))
	for t, tri := range g.tris {
		if g.triAlive[t] {
			idx = append(idx, uint32(tri[0]), uint32(tri[1]), uint32(tri[2]))
		}
	}
	g.indices = idx
	g.version++
}

func grow(dst []mgl32.Vec3, n int) []mgl32.Vec3 {
	if cap(dst) < n {
		return make([]mgl32.Vec3, n)
	}
	return dst[:n]
}

func finite(f float32) bool { return vecmath.Finite32(f) }
