package cloth

import (
	"fmt"
	"github.com/drape3d/drape/internal/vecmath"
	"math"

	"github.com/drape3d/drape/verlet3d"
	"github.com/go-gl/mathgl/mgl32"
)

// WindSettings describe the air around a Grid and how the cloth catches it.
type WindSettings struct {
	// Air is the velocity field of the air in m/s: steady wind, gusts and
	// turbulence (see verlet3d.Wind). The zero value is still air, which
	// still slows moving cloth.
	Air verlet3d.Wind
	// Density is the air density in kg/m³. DefaultWindSettings uses 1.2.
	Density float32
	// Drag is the pressure coefficient: a triangle facing air at relative
	// speed u feels ½·Density·Drag·area·u² along its normal. About 1 for
	// fabric; DefaultWindSettings uses 1.
	Drag float32
	// Lift is the lift coefficient: at an angle θ to the flow a triangle
	// also feels ½·Density·Lift·area·u²·cos θ·sin θ across it. It makes a
	// flag flutter instead of just streaming. DefaultWindSettings uses 0.5.
	Lift float32
	// SampleStride is the spacing, in cells, of the lattice on which the
	// air velocity is sampled when it has turbulence; triangles between
	// samples interpolate, >= 1. DefaultWindSettings uses 4. Uniform air
	// (no turbulence) is sampled once.
	SampleStride int
}

// DefaultWindSettings returns still air of density 1.2 kg/m³ with drag 1
// and lift 0.5; set Air to make it blow.
func DefaultWindSettings() WindSettings {
	return WindSettings{Density: 1.2, Drag: 1, Lift: 0.5, SampleStride: 4}
}

// Validate reports the first invalid field, naming it and its value.
func (s WindSettings) Validate() error {
	if err := s.Air.Validate(); err != nil {
		return fmt.Errorf("cloth: WindSettings.Air: %w", err)
	}
	for _, f := range []struct {
		name string
		v    float32
	}{{"Density", s.Density}, {"Drag", s.Drag}, {"Lift", s.Lift}} {
		if !finite(f.v) || f.v < 0 {
			return fmt.Errorf("cloth: WindSettings.%s = %v, want a finite value >= 0", f.name, f.v)
		}
	}
	if s.SampleStride < 1 {
		return fmt.Errorf("cloth: WindSettings.SampleStride = %d, want cells >= 1", s.SampleStride)
	}
	return nil
}

// WindForce turns moving air into forces on a Grid's triangles.
// NewWindForce adds it to the grid's World and Remove takes it out. Per
// triangle it
// takes the air velocity relative to the triangle (the mean of its
// vertices' Verlet velocities), splits it on the unit normal, and shares a
// pressure force along the normal and a lift force across the flow equally
// among the three vertices. Both vanish for a triangle edge-on to the air.
// The triangles are shared among the World's Config.Workers in bands of
// rows, each vertex summing its triangles' forces in the same order for
// any worker count.
type WindForce struct {
	g *Grid
	s WindSettings

	// Air sampling lattice over the grid's rows and columns.
	stride     int
	nodeR      []int32 // grid row of each lattice row
	nodeC      []int32 // grid column of each lattice column
	rowI, colJ []int32 // lattice interval of each cell row / column
	rowF, colF []float32
	samples    []mgl32.Vec3 // air at each lattice node, m/s
	cellAir    []mgl32.Vec3 // air at each cell center, m/s
	sampled    bool         // cellAir holds this step's air
	force      []mgl32.Vec3 // force on each render vertex this substep, N
	net        mgl32.Vec3   // total force of the last substep, N
	hooks      windHooks

	// A substep's forces are found band by band (bands of whole cell
	// rows: bands two apart share no vertex), the even bands at once on
	// the World's workers, then the odd ones. bandNet is each band's
	// share of net; the substep's inputs are set for the jobs, bound
	// once.
	bandNet    [windBands]mgl32.Vec3
	nBands     int
	pos, prev  []mgl32.Vec3
	air        mgl32.Vec3 // uniform air, m/s
	uniform    bool
	cp, cq, k3 float32
	odd        int // 0 while the even bands run, 1 for the odd ones
	bandJob    func(lo, hi int)
	pushJob    func(lo, hi int)
	noKernel   bool // the Go loop even where the AVX2 kernel runs (tests)

	// corners[k][t] is 3 x the particle at corner k of triangle t (its
	// first float in the World's positions), for the kernel to load
	// eight triangles' corners at once; rebuilt when the grid's
	// topology changes (cornersOf: Grid.version).
	corners   [3][]int32
	cornersOf uint64
	cornersOK bool
	// triAir[k][t] is coordinate k of the air at triangle t's cell (its
	// cellAir), for the kernel to load eight triangles' air at once;
	// filled when the air is sampled.
	triAir [3][]float32
}

// windBands is at most how many bands a substep's triangles are cut into
// (fewer for a grid of fewer cell rows): a fixed number, so that the
// order in which a vertex sums its triangles' forces, and so the result,
// is the same for any Config.Workers.
const windBands = 8

// windHooks is the wind's verlet3d.ForceField, unexported so a game never
// sees solver plumbing.
type windHooks struct{ wd *WindForce }

func (k windHooks) Apply(w *verlet3d.World, s verlet3d.Substep) { k.wd.apply(w, s) }

// BlocksSleep keeps the World awake while the wind gusts or swirls (it
// changes by itself), see verlet3d.SleepBlocker.
func (k windHooks) BlocksSleep() bool {
	a := k.wd.s.Air
	return a.Gust > 0 || a.Turbulence > 0
}

// Remove takes the wind force out of the World.
func (wd *WindForce) Remove() { wd.g.w.RemoveForceField(wd.hooks) }

// NetForce returns the total force in newtons the last substep put on the
// cloth (pinned particles included): the wind load on a flag's pole.
func (wd *WindForce) NetForce() mgl32.Vec3 { return wd.net }

// NewWindForce makes a WindForce for g and adds it to g's World. It
// returns an error naming an invalid setting, and panics on a nil g.
func NewWindForce(g *Grid, s WindSettings) (*WindForce, error) {
	if g == nil {
		panic("cloth: NewWindForce: Grid is nil")
	}
	if err := s.Validate(); err != nil {
		return nil, err
	}
	wd := &WindForce{g: g}
	wd.bandJob, wd.pushJob = wd.bands, wd.push
	wd.set(s)
	wd.hooks = windHooks{wd}
	g.w.AddForceField(wd.hooks)
	return wd, nil
}

// Settings returns the current settings.
func (wd *WindForce) Settings() WindSettings { return wd.s }

// Set changes all settings at run time; invalid settings return an error
// and change nothing.
func (wd *WindForce) Set(s WindSettings) error {
	if err := s.Validate(); err != nil {
		return err
	}
	wd.set(s)
	return nil
}

// SetAir changes the air velocity field at run time, for example to raise
// the wind; a non-finite or negative setting returns an error and changes
// nothing.
func (wd *WindForce) SetAir(air verlet3d.Wind) error {
	s := wd.s
	s.Air = air
	return wd.Set(s)
}

func (wd *WindForce) set(s WindSettings) {
	wd.s = s
	wd.g.w.Wake()
	stride := s.SampleStride
	if stride == wd.stride {
		return
	}
	wd.stride = stride
	rows, cols := wd.g.s.Rows, wd.g.s.Cols
	wd.nodeR, wd.rowI, wd.rowF = lattice(rows, stride)
	wd.nodeC, wd.colJ, wd.colF = lattice(cols, stride)
	wd.samples = make([]mgl32.Vec3, len(wd.nodeR)*len(wd.nodeC))
	wd.cellAir = make([]mgl32.Vec3, (rows-1)*(cols-1))
	wd.sampled = false
}

// lattice picks sample lines every stride particles (and the last one) and
// tells each cell which interval it is in and how far along its center is.
func lattice(n, stride int) (nodes, interval []int32, frac []float32) {
	for i := 0; i < n-1; i += stride {
		nodes = append(nodes, int32(i))
	}
	nodes = append(nodes, int32(n-1))
	interval = make([]int32, n-1)
	frac = make([]float32, n-1)
	for c := 0; c < n-1; c++ {
		k := c / stride
		if k > len(nodes)-2 {
			k = len(nodes) - 2
		}
		lo, hi := float32(nodes[k]), float32(nodes[k+1])
		interval[c] = int32(k)
		frac[c] = (float32(c) + 0.5 - lo) / (hi - lo)
	}
	return nodes, interval, frac
}

// apply adds the wind's forces for substep s.
func (wd *WindForce) apply(w *verlet3d.World, sub verlet3d.Substep) {
	t := float32(sub.Time)
	g := wd.g
	s := &wd.s
	wd.net = mgl32.Vec3{}
	if s.Density == 0 || s.Drag == 0 && s.Lift == 0 {
		return
	}
	pos, prev := w.Positions(), w.PrevPositions()
	verts := g.verts
	uniform := s.Air.Turbulence == 0
	var air mgl32.Vec3
	if uniform {
		air = s.Air.Velocity(mgl32.Vec3{}, t)
	} else if sub.Index == 0 || !wd.sampled {
		// Swirls are sampled once per step: they change over tenths of a
		// second and half meters, a step over a sixtieth of a second.
		wd.sampleAir(pos, t)
		wd.sampled = true
		if wd.kernel() {
			wd.airByTriangle()
		}
	}
	if len(wd.force) < len(verts) {
		wd.force = make([]mgl32.Vec3, len(verts), 2*len(verts))
	}
	wd.force = wd.force[:len(verts)] // all zero: push clears what it adds
	half := float32(0.5 * s.Density)
	wd.pos, wd.prev, wd.air, wd.uniform = pos, prev, air, uniform
	wd.cp, wd.cq = half*0.5*(s.Drag+s.Lift)/3, half*0.5*s.Lift/3 // pressure and lift, per vertex
	wd.k3 = 1 / sub.H / 3
	wd.nBands = min(windBands, g.s.Rows-1)
	if wd.kernel() && (!wd.cornersOK || wd.cornersOf != g.version) {
		wd.findCorners()
	}
	for wd.odd = 0; wd.odd < 2; wd.odd++ {
		w.Parallel((wd.nBands+1-wd.odd)/2, wd.bandJob)
	}
	wd.pos, wd.prev = nil, nil
	var net mgl32.Vec3
	for _, n := range wd.bandNet[:wd.nBands] {
		net = net.Add(n)
	}
	wd.net = vecmath.Scale(net, 3)
	w.Parallel(len(verts), wd.pushJob)
}

// airByTriangle fills triAir from cellAir.
func (wd *WindForce) airByTriangle() {
	cells := wd.g.triCell
	for k := range wd.triAir {
		a := wd.triAir[k]
		if cap(a) < len(cells) {
			a = make([]float32, len(cells))
		}
		a = a[:len(cells)]
		for t, c := range cells {
			a[t] = wd.cellAir[c][k]
		}
		wd.triAir[k] = a
	}
}

// findCorners fills corners from the grid's triangles and vertices.
func (wd *WindForce) findCorners() {
	g := wd.g
	for k := range wd.corners {
		c := wd.corners[k]
		if cap(c) < len(g.tris) {
			c = make([]int32, len(g.tris))
		}
		c = c[:len(g.tris)]
		for t := range c {
			c[t] = 3 * int32(g.verts[g.tris[t][k]])
		}
		wd.corners[k] = c
	}
	wd.cornersOf, wd.cornersOK = g.version, true
}

// push adds the force found for each vertex of [lo, hi) to its particle
// and clears it for the next substep (a World.Parallel job of apply: one
// AddForce a vertex, not three a triangle).
func (wd *WindForce) push(lo, hi int) {
	w, verts := wd.g.w, wd.g.verts
	for v := lo; v < hi; v++ {
		// Component by component (see package vecmath).
		f := &wd.force[v]
		if x, y, z := f[0], f[1], f[2]; x != 0 || y != 0 || z != 0 {
			w.AddForce(verts[v], mgl32.Vec3{x, y, z})
		}
		f[0], f[1], f[2] = 0, 0, 0
	}
}

// bands runs bands 2k+odd for k in [lo, hi) (a World.Parallel job of
// apply): band b is the triangles of cell rows [R·b/n, R·(b+1)/n) of R,
// which touch vertex rows R·b/n to R·(b+1)/n, so that bands two apart
// share no vertex.
func (wd *WindForce) bands(lo, hi int) {
	g := wd.g
	rows, cellCols := g.s.Rows-1, g.s.Cols-1
	for k := lo; k < hi; k++ {
		b := 2*k + wd.odd
		t0 := 2 * cellCols * (rows * b / wd.nBands)
		t1 := 2 * cellCols * (rows * (b + 1) / wd.nBands)
		wd.bandNet[b] = wd.band(t0, t1)
	}
}

// band adds the force of each live triangle of [t0, t1) on each of its
// vertices to force, and returns the sum of those forces.
func (wd *WindForce) band(t0, t1 int) (net mgl32.Vec3) {
	if wd.kernel() {
		return wd.bandKernel(t0, t1)
	}
	for ti := t0; ti < t1; ti++ {
		net = wd.tri(ti, net)
	}
	return net
}

// tri adds the force of triangle ti, if it is alive, on each of its
// vertices to force, and returns net plus that force.
func (wd *WindForce) tri(ti int, net mgl32.Vec3) mgl32.Vec3 {
	g := wd.g
	if !g.triAlive[ti] {
		return net
	}
	pos, prev, verts, force := wd.pos, wd.prev, g.verts, wd.force
	air, k3, cp, cq := wd.air, wd.k3, wd.cp, wd.cq
	tri := &g.tris[ti]
	pa, pb, pc := verts[tri[0]], verts[tri[1]], verts[tri[2]]
	a, b, c := &pos[pa], &pos[pb], &pos[pc]
	if !wd.uniform {
		air = wd.cellAir[g.triCell[ti]]
	}
	// Air relative to the triangle: air minus the mean vertex velocity.
	qa, qb, qc := &prev[pa], &prev[pb], &prev[pc]
	ux := air[0] - float32((a[0]+b[0]+c[0]-qa[0]-qb[0]-qc[0])*k3)
	uy := air[1] - float32((a[1]+b[1]+c[1]-qa[1]-qb[1]-qc[1])*k3)
	uz := air[2] - float32((a[2]+b[2]+c[2]-qa[2]-qb[2]-qc[2])*k3)
	u2 := float32(ux*ux) + float32(uy*uy) + float32(uz*uz)
	if u2 < 1e-12 {
		return net
	}
	ex, ey, ez := b[0]-a[0], b[1]-a[1], b[2]-a[2]
	fx, fy, fz := c[0]-a[0], c[1]-a[1], c[2]-a[2]
	nx, ny, nz := float32(ey*fz)-float32(ez*fy), float32(ez*fx)-float32(ex*fz), float32(ex*fy)-float32(ey*fx)
	n2 := float32(nx*nx) + float32(ny*ny) + float32(nz*nz)
	if n2 < 1e-24 {
		return net // degenerate triangle: no normal, no area
	}
	// Each vertex gets a third of ½ρ·area·u²·|cos θ| (θ between the
	// air u and the normal n, whose length nl is twice the area) times
	// Drag along the unit normal on the side the air blows onto, plus
	// Lift along the part of that normal across the flow (length
	// sin θ). In n and u: ½ρ/2·(Drag+Lift)/3 · u²·(u·n)/(nl·ul) along
	// n, minus ½ρ/2·Lift/3 · (u·n)²/(nl·ul) along u. One square root
	// and one division a triangle, where term by term it takes two and
	// five.
	dot := float32(ux*nx) + float32(uy*ny) + float32(uz*nz)
	d := float32(dot * float32(1/math.Sqrt(float64(float64(n2)*float64(u2)))))
	an := float32(cp * u2 * d)
	au := float32(cq * dot * d)
	wx, wy, wz := float32(an*nx)-float32(au*ux), float32(an*ny)-float32(au*uy), float32(an*nz)-float32(au*uz)
	if !(wx < maxWindForce && wx > -maxWindForce && wy < maxWindForce && wy > -maxWindForce && wz < maxWindForce && wz > -maxWindForce) {
		s := &wd.s
		f := windForce64(float32(0.5*s.Density), s.Drag, s.Lift, mgl32.Vec3{nx, ny, nz}, mgl32.Vec3{ux, uy, uz})
		wx, wy, wz = f[0], f[1], f[2]
	}
	// Component by component (see package vecmath), for the Go loop
	// where the kernel does not run.
	for _, v := range tri {
		p := &force[v]
		p[0], p[1], p[2] = p[0]+wx, p[1]+wy, p[2]+wz
	}
	return mgl32.Vec3{net[0] + wx, net[1] + wy, net[2] + wz}
}

// maxWindForce bounds the force of one triangle on each of its vertices,
// N. Air cannot push harder on cloth than this anyway: the World clamps the
// speed it gives (Config.MaxSpeed). Without a bound, a valid but absurd
// setting (Drag 1e20) on a triangle stretched and flung by a far pin target
// overflowed float32 to Inf, and the World's guard had to reset the cloth.
const maxWindForce = 1e30

// windForce64 is apply's force of one triangle on each vertex (n its
// normal, u the air's relative velocity), found in float64 and scaled
// down to maxWindForce where it is larger.
func windForce64(half, cd, cl float32, n, u mgl32.Vec3) mgl32.Vec3 {
	var n2, u2, dot float64
	for i := range 3 {
		n2 += float64(float64(n[i]) * float64(n[i]))
		u2 += float64(float64(u[i]) * float64(u[i]))
		dot += float64(float64(u[i]) * float64(n[i]))
	}
	h := float64(half) * 0.5 / 3
	d := dot / math.Sqrt(float64(n2*u2))
	an := float64(h * (float64(cd) + float64(cl)) * u2 * d)
	au := float64(h * float64(cl) * dot * d)
	var f [3]float64
	for i := range f {
		f[i] = float64(an*float64(n[i])) - float64(au*float64(u[i]))
	}
	l := math.Sqrt(float64(f[0]*f[0]) + float64(f[1]*f[1]) + float64(f[2]*f[2]))
	if !(l > 0) || math.IsInf(l, 0) {
		return mgl32.Vec3{}
	}
	if l > maxWindForce {
		sc := maxWindForce / l
		f = [3]float64{float64(f[0] * sc), float64(f[1] * sc), float64(f[2] * sc)}
	}
	return mgl32.Vec3{float32(f[0]), float32(f[1]), float32(f[2])}
}

// sampleAir fills cellAir from the air at the lattice nodes, sampled where
// the nodes' particles are now.
func (wd *WindForce) sampleAir(pos []mgl32.Vec3, t float32) {
	g := wd.g
	cols := g.s.Cols
	nc := len(wd.nodeC)
	for i, r := range wd.nodeR {
		for j, c := range wd.nodeC {
			p := pos[g.verts[int(r)*cols+int(c)]]
			wd.samples[i*nc+j] = wd.s.Air.Velocity(g.w.ToWorld(p), t) // the air is the world's
		}
	}
	cellCols := cols - 1
	for r := 0; r < g.s.Rows-1; r++ {
		i, fr := int(wd.rowI[r]), wd.rowF[r]
		row0 := wd.samples[i*nc : (i+1)*nc]
		row1 := wd.samples[(i+1)*nc : (i+2)*nc]
		out := wd.cellAir[r*cellCols : (r+1)*cellCols]
		for c := range out {
			// Component by component (see push): top and bottom along
			// the row, then between them.
			j, fc := int(wd.colJ[c]), wd.colF[c]
			gc, gr := 1-fc, 1-fr
			a, b, c0, d := &row0[j], &row0[j+1], &row1[j], &row1[j+1]
			o := &out[c]
			for k := range 3 {
				top := float32(a[k]*gc) + float32(b[k]*fc)
				bot := float32(c0[k]*gc) + float32(d[k]*fc)
				o[k] = float32(top*gr) + float32(bot*fr)
			}
		}
	}
}
