package hair

import (
	"fmt"
	"math"
	"sync/atomic"

	"github.com/drape3d/drape/internal/errctx"
	"github.com/drape3d/drape/internal/vecmath"
	"github.com/drape3d/drape/verlet3d"
	"github.com/go-gl/mathgl/mgl32"
)

// Hair is a set of strands rooted on a head, living in one verlet3d.World.
// It is the World's ForceField (head motion and air drag, each substep),
// ConstraintSet (stretch, bend and style, once per solver pass) and
// Finisher (head contact and friction); New registers it. It is not safe
// for concurrent use.
type Hair struct {
	w    *verlet3d.World
	set  Settings
	per  int               // particles per strand, Segments+1
	base verlet3d.Particle // first particle of strand 0

	// Rest shape in the head's frame, one entry per particle in strand
	// order; the root entry is the scalp point.
	rest []mgl32.Vec3
	// restLen is each strand's rest length along its segments, m.
	restLen []float32
	// shade is a per-strand random number in [0, 1) for color variation.
	shade []float32

	head    *verlet3d.Sphere // collider that follows the head
	start   Head             // pose at the start of the current step
	end     Head             // target pose, from the last SetHead
	now     Head             // pose at the end of the last substep
	cur     frame            // pose of the current substep
	prevCur frame            // pose of the previous substep

	wind verlet3d.Wind

	// Style keeping: per-particle-along-strand stiffness per substep and
	// per iteration (recomputed when the iteration count changes).
	styleSub  []float32
	styleIter []float32
	js        []float32 // float32(j) for j in [0, per), read by the pull kernel
	// noKernels turns the AVX2 kernels off (tests compare the two
	// paths).
	noKernels bool
	headC     headConsts // the head's pose broadcast for the kernels, this substep's (setHeadConsts)
	styleN    int
	restSeg   []float32 // rest segment length per strand, m

	// Strand constraints, solved per strand by the ConstraintSet.
	bendRest   []float32    // rest distance from particle j-2 to j, by particle
	segInv     []float32    // 1/restSeg
	lamS, lamB []float32    // XPBD multipliers of stretch and bend, by particle
	kS, kB     []float32    // XPBD denominators 1/(w_a+w_b+α/h²)
	kAS, kAB   float32      // the α/h² kS and kB were made with (-1: none yet)
	invSeen    []float32    // inverse masses kS and kB were made with
	bendInv    []float32    // 1/bendRest
	target     []mgl32.Vec3 // style targets of this substep, by particle
	// Per-substep solver state shared with the workers.
	pos       []mgl32.Vec3
	prev      []mgl32.Vec3
	inv       []float32
	acc       []mgl32.Vec3 // the World's accelerations, for the drag kernel (bound when dragging)
	invH2     float32
	first     bool    // this is the first pass of the substep
	last      bool    // this is the last pass of the substep
	lastSub   bool    // this is the last substep of the step
	t         float32 // substep start time, for the wind
	dragScale float32 // drag runs once per step: Substeps times stronger
	still     bool    // the wind is still air
	hooks     hooks
	carrying  bool // this substep carries the strands with the head
	dragging  bool // this substep adds the step's air drag
	iters     int  // solver passes per substep
	pending   bool // this substep's prepare has not run yet
	fused     bool // this substep's solve and finish ran at Prepare
	// Method values bound once, so dispatching them does not allocate.
	passFn, wholeFn, applyFn, finFn func(lo, hi int)
	blocksFn                        func(lo, hi int) // runBlocks
	runFn                           func(lo, hi int) // what runBlocks calls, set by run

	// The carried part of the head's motion in this substep (setCarry).
	carryM             mgl32.Mat3
	carryFrom, carryTo mgl32.Vec3
	// recovered counts strands put back on their rest shape.
	recovered atomic.Int64
}

// New grows hair on head in w with settings s and registers it with w: its
// particles (roots pinned, the rest free, in Settings.Group), the head's
// Sphere collider, and itself as force field and constraint set. It returns
// an error naming the field for invalid input, before touching w.
func New(w *verlet3d.World, head Head, s Settings) (*Hair, error) {
	if w == nil {
		panic("hair: New: World is nil")
	}
	var h *Hair
	err := w.Atomically(func() (err error) { h, err = newHair(w, head, s); return err })
	if err != nil {
		return nil, err
	}
	return h, nil
}

// newHair builds what New returns.
func newHair(w *verlet3d.World, head Head, s Settings) (*Hair, error) {
	// The hair lives in the World's frame (verlet3d.World.Origin), moved
	// to the head first when nothing else is near it.
	if vecmath.Finite(head.Center) {
		w.Recenter(head.Center)
		head.Center = w.ToLocal(head.Center)
	}
	if err := head.Validate(); err != nil {
		return nil, err
	}
	if err := s.Validate(); err != nil {
		return nil, err
	}
	head.Rotation = head.rotation()
	h := &Hair{w: w, set: s, per: s.Segments + 1, start: head, end: head, now: head}
	roots, err := scalpPoints(s)
	if err != nil {
		return nil, err
	}
	h.grow(head.Radius, roots)

	n := s.Strands * h.per
	f := head.frame()
	pm := s.Mass / float32(s.Segments)
	h.base = verlet3d.Particle(w.NumParticles())
	for i, r := range h.rest {
		mass := pm
		if i%h.per == 0 {
			mass = 0 // roots are pinned and moved with the head
		}
		p, err := w.AddParticleLocal(f.apply(r), mass)
		if err != nil {
			return nil, fmt.Errorf("hair: strand %d: %w", i/h.per, err)
		}
		if p != h.base+verlet3d.Particle(i) {
			return nil, fmt.Errorf("hair: World particles were added concurrently (got handle %d, want %d)", p, h.base+verlet3d.Particle(i))
		}
		if err := w.SetRadius(p, s.Radius); err != nil {
			return nil, err
		}
		w.SetGroup(p, s.Group)
	}
	h.restShapeChanged()
	h.lamS = make([]float32, n)
	h.lamB = make([]float32, n)
	h.kS = make([]float32, n)
	h.kB = make([]float32, n)
	h.invSeen = make([]float32, n)
	h.target = make([]mgl32.Vec3, n)
	h.kAS, h.kAB = -1, -1
	h.bindPasses()
	sph, err := verlet3d.NewSphere(w.ToWorld(head.Center), head.Radius)
	if err != nil {
		return nil, fmt.Errorf("hair: head collider: %w", err)
	}
	h.head = sph
	// The World's Mask 0 means every group: a head that stops no other
	// group is not added at all.
	if mask := s.HeadMask &^ s.Group; mask != 0 {
		if err := w.AddCollider(sph, verlet3d.ContactSettings{Friction: s.HeadFriction, Mask: mask}); err != nil {
			return nil, fmt.Errorf("hair: head collider: %w", err)
		}
	}
	h.cur = head.frame()
	h.prevCur = h.cur
	h.setStyle()
	h.hooks = hooks{h}
	w.AddForceField(h.hooks)
	w.AddConstraintSet(h.hooks)
	return h, nil
}

// Remove takes the hair's hooks and head collider out of the World. Its
// particles stay (a World never removes particles) but no longer feel the
// hair's constraints; build a new World to get rid of them.
func (h *Hair) Remove() {
	h.w.RemoveForceField(h.hooks)
	h.w.RemoveConstraintSet(h.hooks)
	h.w.RemoveCollider(h.head)
}

// restShapeChanged recomputes what depends on the rest shape.
func (h *Hair) restShapeChanged() {
	n := len(h.rest)
	if len(h.bendRest) != n {
		h.bendRest = make([]float32, n)
		h.bendInv = make([]float32, n)
		h.segInv = make([]float32, len(h.restSeg))
	}
	for o := 0; o < n; o += h.per {
		for j := 2; j < h.per; j++ {
			r := vecmath.Len(h.rest[o+j].Sub(h.rest[o+j-2]))
			h.bendRest[o+j], h.bendInv[o+j] = r, 0
			if r > 0 {
				h.bendInv[o+j] = 1 / r
			}
		}
	}
	for i, r := range h.restSeg {
		h.segInv[i] = 1 / r
	}
}

// World returns the World the hair lives in.
func (h *Hair) World() *verlet3d.World { return h.w }

// Settings returns the settings in use.
func (h *Hair) Settings() Settings { return h.set }

// NumStrands returns the number of strands.
func (h *Hair) NumStrands() int { return h.set.Strands }

// NumSegments returns the number of segments per strand.
func (h *Hair) NumSegments() int { return h.set.Segments }

// Particles returns the range of all hair particles: first and count.
// Strand i is first+i·(Segments+1) .. +Segments, root first.
func (h *Hair) Particles() (first verlet3d.Particle, n int) {
	return h.base, h.set.Strands * h.per
}

// Strand returns the range of strand i: its root particle and its particle
// count (Segments+1). It panics if i is out of range.
func (h *Hair) Strand(i int) (root verlet3d.Particle, n int) {
	if i < 0 || i >= h.set.Strands {
		panic(fmt.Sprintf("hair: strand %d out of range [0, %d)", i, h.set.Strands))
	}
	return h.base + verlet3d.Particle(i*h.per), h.per
}

// StrandLength returns the rest length of strand i in meters.
func (h *Hair) StrandLength(i int) float32 {
	h.Strand(i)
	return h.restLen[i]
}

// RestLocal returns the rest position of particle j (0 is the root) of
// strand i in the head's frame.
func (h *Hair) RestLocal(i, j int) mgl32.Vec3 {
	h.Strand(i)
	if j < 0 || j >= h.per {
		panic(fmt.Sprintf("hair: particle %d of a strand out of range [0, %d)", j, h.per))
	}
	return h.rest[i*h.per+j]
}

// HeadCollider returns the sphere collider that follows the head (in the
// World's colliders unless Settings.HeadMask leaves it no group to stop).
func (h *Hair) HeadCollider() *verlet3d.Sphere { return h.head }

// Head returns the head pose the hair is moving to (the last SetHead).
func (h *Hair) Head() Head {
	hd := h.end
	hd.Center = h.w.ToWorld(hd.Center)
	return hd
}

// SetHead moves the head to center and rotation (head frame to world) over
// the next step: the roots and the head collider follow it exactly at every
// substep. Call it every frame for an animated head.
//
// A center that is not finite or farther than MaxHeadDistance from the
// origin, or a rotation with a non-finite component (one bad frame of an
// animation), returns an error naming SetHead and the field, and the head
// holds its last pose.
func (h *Hair) SetHead(center mgl32.Vec3, rotation mgl32.Quat) error {
	nh := h.end
	nh.Center, nh.Rotation = h.local(center), rotation
	if err := nh.Validate(); err != nil {
		return errctx.Wrap("hair", "SetHead", err)
	}
	nh.Rotation = nh.rotation()
	if nh != h.end {
		h.w.Wake()
	}
	h.end = nh
	return nil
}

// NumRecovered returns how many times a strand the solver could not hold
// (non-finite, or torn far past its length) was put back on its rest shape.
// It stays 0 in normal use; tests assert it.
func (h *Hair) NumRecovered() int { return int(h.recovered.Load()) }

// Teleport moves the head to center and rotation at once, and every strand
// rigidly with it, keeping the strands' shape and their velocity relative to
// the head: for a character that respawns or jumps across the map. The
// roots are on the new scalp immediately. A head that moves farther than
// Settings.TeleportDistance in one step is teleported the same way by
// itself.
func (h *Hair) Teleport(center mgl32.Vec3, rotation mgl32.Quat) error {
	nh := h.end
	nh.Center, nh.Rotation = h.local(center), rotation
	if err := nh.Validate(); err != nil {
		return errctx.Wrap("hair", "Teleport", err)
	}
	nh.Rotation = nh.rotation()
	h.w.Wake()
	h.moveRigidly(h.end, nh)
	h.start, h.end, h.now = nh, nh, nh
	h.cur = nh.frame()
	h.prevCur = h.cur
	return nil
}

// Reset puts every strand back in its rest shape around the current head
// pose, at rest.
func (h *Hair) Reset() {
	h.w.Wake()
	h.start, h.now = h.end, h.end
	f := h.end.frame()
	h.cur, h.prevCur = f, f
	h.head.Center = h.w.ToWorld(h.end.Center) // a collider of the World: world coordinates
	pos, prev := h.w.Positions(), h.w.PrevPositions()
	for i, r := range h.rest {
		p := int(h.base) + i
		x := f.apply(r)
		pos[p], prev[p] = x, x
		h.w.SetHomeLocal(verlet3d.Particle(p), x)
	}
}

// SetWind sets the air the strands move through. The zero Wind is still
// air, which still damps motion through WindDrag.
func (h *Hair) SetWind(wd verlet3d.Wind) error {
	if err := wd.Validate(); err != nil {
		return fmt.Errorf("hair: SetWind: %w", err)
	}
	h.wind = wd
	h.w.Wake()
	return nil
}

// Wind returns the air set by SetWind.
func (h *Hair) Wind() verlet3d.Wind { return h.wind }

// SetStyle changes the style-keeping stiffness at the root and the fraction
// left at the tip, both in [0, 1], at run time.
func (h *Hair) SetStyle(stiffness, tip float32) error {
	s := h.set
	s.StyleStiffness, s.StyleTip = stiffness, tip
	if err := s.Validate(); err != nil {
		return err
	}
	h.set = s
	h.setStyle()
	h.w.Wake()
	return nil
}

// SetWindDrag changes Settings.WindDrag (1/s) at run time.
func (h *Hair) SetWindDrag(drag float32) error {
	s := h.set
	s.WindDrag = drag
	if err := s.Validate(); err != nil {
		return err
	}
	h.set = s
	h.w.Wake()
	return nil
}

// setStyle fills the per-substep stiffness along a strand.
func (h *Hair) setStyle() {
	if cap(h.styleSub) < h.per {
		h.styleSub = make([]float32, h.per)
		h.styleIter = make([]float32, h.per)
	}
	h.styleSub = h.styleSub[:h.per]
	h.styleIter = h.styleIter[:h.per]
	if len(h.js) != h.per {
		h.js = make([]float32, h.per)
		for j := range h.js {
			h.js[j] = float32(j)
		}
	}
	s := h.set
	for j := range h.styleSub {
		t := float32(j) / float32(s.Segments)
		u := float32((1 - t) * (1 - t))
		h.styleSub[j] = float32(s.StyleStiffness * (s.StyleTip + float32((1-s.StyleTip)*u)))
	}
	h.styleSub[0] = 0
	h.styleN = 0 // recompute the per-iteration values
}

// StyleStiffness returns the style-keeping stiffness per substep at
// particle j of a strand (0 is the root, which is pinned anyway).
func (h *Hair) StyleStiffness(j int) float32 { return h.styleSub[j] }

// scalpPoints returns s.Strands unit vectors in the head's frame spread
// evenly over the scalp cap by a golden-angle spiral, skipping the parting.
// It returns an error when the parting leaves almost none of the cap (a cap
// a fraction of a degree wide, all of it in the gap): growing the spiral
// until enough points fell outside the gap never ended there.
func scalpPoints(s Settings) ([]mgl32.Vec3, error) {
	n := s.Strands
	var out []mgl32.Vec3
	// The parting removes part of the cap: grow the spiral until enough
	// points fall outside the gap, then drop the extras evenly.
	for m := n; ; m += 1 + (n-len(out))/2 {
		if m > 64*n+1024 {
			return nil, fmt.Errorf("hair: Settings.PartingWidth = %v leaves no room for %d strands on a cap of Settings.CapAngle = %v rad", s.PartingWidth, n, s.CapAngle)
		}
		out = spiral(s, m, out[:0])
		if len(out) >= n {
			break
		}
	}
	if extra := len(out) - n; extra > 0 {
		keep := out[:0]
		for i, p := range out {
			// Drop indices spread evenly through the list.
			if (i+1)*extra/len(out) != i*extra/len(out) {
				continue
			}
			keep = append(keep, p)
		}
		out = keep[:n]
	}
	return out, nil
}

const goldenAngle = math.Pi * (3 - 2.2360679774997896) // π(3-√5)

// spiral appends the points of an m-point Fibonacci spiral on the cap that
// lie outside the parting gap.
func spiral(s Settings, m int, out []mgl32.Vec3) []mgl32.Vec3 {
	axis, u, v := capFrame(s)
	cosCap := math.Cos(float64(s.CapAngle))
	for i := 0; i < m; i++ {
		// Equal-area rings: cos(polar angle) steps evenly.
		z := 1 - (1-cosCap)*(float64(i)+0.5)/float64(m)
		r := math.Sqrt(math.Max(0, 1-float64(z*z)))
		phi := float64(float64(i) * goldenAngle)
		p := vecmath.Scale(axis, float32(z)).
			Add(vecmath.Scale(u, float32(r*math.Cos(phi)))).
			Add(vecmath.Scale(v, float32(r*math.Sin(phi))))
		p = vecmath.Normalize(p)
		if inParting(s, p) {
			continue
		}
		out = append(out, p)
	}
	return out
}

// capFrame returns the cap axis and two unit vectors perpendicular to it.
func capFrame(s Settings) (axis, u, v mgl32.Vec3) {
	st, ct := math.Sincos(float64(s.CapTilt))
	axis = mgl32.Vec3{0, float32(ct), -float32(st)}
	u = mgl32.Vec3{1, 0, 0}
	v = vecmath.Normalize(vecmath.Cross(axis, u))
	return axis, u, v
}

// partingNormal is the unit normal of the plane through the head center and
// the parting line (the plane holds the front-back axis).
func partingNormal(s Settings) mgl32.Vec3 {
	sp, cp := math.Sincos(float64(s.Parting))
	return mgl32.Vec3{float32(cp), -float32(sp), 0}
}

// partingWeight is how much the parting shapes the hair at scalp point p:
// 1 in front of the cap axis (the crown), fading to 0 behind it.
func partingWeight(s Settings, p mgl32.Vec3) float32 {
	return smoothstep(-0.45, 0.05, vecmath.Dot(p, capForward(s)))
}

// capForward is the unit vector perpendicular to the cap axis pointing to
// the face.
func capForward(s Settings) mgl32.Vec3 {
	st, ct := math.Sincos(float64(s.CapTilt))
	return mgl32.Vec3{0, float32(st), float32(ct)}
}

func inParting(s Settings, p mgl32.Vec3) bool {
	if s.PartingWidth == 0 || partingWeight(s, p) < 0.5 || p[1] < 0 {
		return false
	}
	d := vecmath.Dot(p, partingNormal(s)) // sine of the angle to the parting plane
	return float32(math.Abs(float64(d))) < float32(math.Sin(float64(float64(s.PartingWidth)/2)))
}

func smoothstep(a, b, x float32) float32 {
	t := (x - a) / (b - a)
	if t <= 0 {
		return 0
	}
	if t >= 1 {
		return 1
	}
	return float32(t * t * (3 - float32(2*t)))
}

// rng is a small deterministic generator (SplitMix64).
type rng uint64

func (r *rng) next() uint64 {
	*r += 0x9e3779b97f4a7c15
	z := uint64(*r)
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// float returns a number in [0, 1).
func (r *rng) float() float32 { return float32(float32(r.next()>>40) / (1 << 24)) }

// grow fills the rest shape: from each root the strand leaves the scalp
// along the comb direction lifted by the normal, bends down under a
// "gravity" of the style, and lies over the head at a random depth of the
// hair layer, never inside it.
func (h *Hair) grow(radius float32, roots []mgl32.Vec3) {
	s := h.set
	h.rest = make([]mgl32.Vec3, 0, s.Strands*h.per)
	h.restLen = make([]float32, s.Strands)
	h.restSeg = make([]float32, s.Strands)
	h.shade = make([]float32, s.Strands)
	r := rng(s.Seed)
	pn := partingNormal(s)
	axis, _, _ := capFrame(s)
	down := mgl32.Vec3{0, -1, 0}
	back := mgl32.Vec3{0, 0, -1}
	for k, n := range roots {
		length := float32(s.Length * (1 - float32(s.LengthVariation*r.float())))
		depth := s.Radius + float32(s.Volume*(0.15+float32(0.85*r.float())))
		h.shade[k] = r.float()
		h.restLen[k] = length
		h.restSeg[k] = length / float32(s.Segments)
		seg := length / float32(s.Segments)

		// Comb direction in the scalp's tangent plane: away from the
		// parting in front of the crown, away from the cap axis behind
		// it, and always a little back, away from the face.
		wp := partingWeight(s, n)
		side := pn
		if vecmath.Dot(n, pn) < 0 {
			side = vecmath.Scale(pn, -1)
		}
		away := n.Sub(axis)
		if vecmath.Len(away) < 1e-4 {
			away = back
		}
		away = vecmath.Normalize(away)
		front := smoothstep(-0.3, 0.5, vecmath.Dot(n, capForward(s)))
		comb := vecmath.Scale(side, wp).Add(vecmath.Scale(away, 1-wp)).Add(vecmath.Scale(back, float32(2*front))).Add(vecmath.Scale(down, float32(0.3*(1-front))))
		comb = comb.Sub(vecmath.Scale(n, vecmath.Dot(comb, n)))
		if vecmath.Len(comb) < 1e-4 {
			comb = back.Sub(vecmath.Scale(n, vecmath.Dot(back, n)))
		}
		comb = vecmath.Normalize(comb)
		jitter := vecmath.Scale(mgl32.Vec3{r.float() - 0.5, r.float() - 0.5, r.float() - 0.5}, 0.12)
		// Less lift at the front keeps the hairline neat.
		d := vecmath.Normalize(comb.Add(vecmath.Scale(n, float32(s.Lift*(1-float32(0.6*front))))).Add(jitter))

		p := vecmath.Scale(n, s.scalp(n, radius))
		h.rest = append(h.rest, p)
		minR := radius + depth
		for j := 1; j <= s.Segments; j++ {
			// The style's own gravity: strands droop a little more at
			// every segment; the first ones stay near the comb direction.
			// Over the face the droop turns backward, so hair falls
			// beside and behind the face, never over it.
			face := float32(smoothstep(float32(-0.1*radius), float32(0.5*radius), p[2]) * smoothstep(float32(-0.7*radius), 0, p[1]))
			d = vecmath.Normalize(d.Add(vecmath.Scale(vecmath.Normalize(down.Add(vecmath.Scale(back, float32(1.5*face)))), 0.35)))
			q := p.Add(vecmath.Scale(d, seg))
			// Lay the strand over the head: project out of the layer,
			// then restore the segment length, a few times.
			for it := 0; it < 4; it++ {
				if s.Scalp == nil {
					if l := vecmath.Len(q); l < minR {
						q = vecmath.Scale(q, minR/l)
					}
				} else if l := vecmath.Len(q); l > 0 {
					if m := s.scalp(vecmath.Scale(q, 1/l), radius) + depth; l < m {
						q = vecmath.Scale(q, m/l)
					}
				}
				q = p.Add(vecmath.Scale(vecmath.Normalize(q.Sub(p)), seg))
			}
			d = vecmath.Normalize(q.Sub(p))
			p = q
			h.rest = append(h.rest, p)
		}
	}
}

// scalp returns the scalp's distance from the head's center along the
// unit direction dir (see Settings.Scalp), at least radius.
func (s Settings) scalp(dir mgl32.Vec3, radius float32) float32 {
	if s.Scalp == nil {
		return radius
	}
	d := s.Scalp(dir)
	if !(d > 0 && d <= 100) {
		return radius
	}
	return max(d, radius)
}

// Drape bends the rest shape around the given colliders at the current head
// pose, so that a style grown on a bare head starts resting on the neck and
// shoulders instead of inside them. Each strand is walked from the root:
// where a segment would enter a collider (come within Settings.Radius plus
// the contact margin of it) it turns along the surface instead, as falling
// hair slides off a shoulder. Particles move to the new rest shape, at rest.
// It does not add the colliders to the World.
func (h *Hair) Drape(colliders ...verlet3d.Collider) {
	h.w.Wake()
	if len(colliders) == 0 {
		return
	}
	f := h.end.frame()
	pos, prev := h.w.Positions(), h.w.PrevPositions()
	rad := h.set.Radius + h.w.Config().ContactMargin
	up := f.m.Col(1)
	for i := 0; i < h.set.Strands; i++ {
		o := i * h.per
		seg := h.restLen[i] / float32(h.set.Segments)
		p := f.apply(h.rest[o])
		for j := 1; j < h.per; j++ {
			q := f.apply(h.rest[o+j])
			d := vecmath.Normalize(q.Sub(p))
			for it := 0; it < 4; it++ {
				hit := false
				for _, c := range colliders {
					s, n := c.Closest(q)
					if vecmath.Dot(q.Sub(s), n) >= rad {
						continue
					}
					hit = true
					if dn := vecmath.Dot(d, n); dn < 0 {
						d = d.Sub(vecmath.Scale(n, dn))
					}
					if vecmath.Len(d) < 0.3 {
						// Head-on: slide away from the head's axis.
						out := q.Sub(f.c)
						out = out.Sub(vecmath.Scale(up, vecmath.Dot(out, up)))
						d = d.Add(vecmath.Scale(vecmath.Normalize(out), 0.5))
					}
					d = vecmath.Normalize(d)
				}
				if !hit {
					break
				}
				q = p.Add(vecmath.Scale(d, seg))
			}
			// Whatever is still inside is pushed out; the solver's
			// contacts would do the same.
			for _, c := range colliders {
				s, n := c.Closest(q)
				if dd := vecmath.Dot(q.Sub(s), n); dd < rad {
					q = q.Add(vecmath.Scale(n, rad-dd))
				}
			}
			q = p.Add(vecmath.Scale(vecmath.Normalize(q.Sub(p)), seg))
			h.rest[o+j] = h.end.ToLocal(q)
			p = q
		}
	}
	h.restShapeChanged()
	for i, r := range h.rest {
		x := f.apply(r)
		pos[int(h.base)+i], prev[int(h.base)+i] = x, x
		h.w.SetHomeLocal(h.base+verlet3d.Particle(i), x)
	}
}

// local converts a head center given in world coordinates to the World's
// frame (verlet3d.World.Origin); a non-finite one stays as it is, for
// Validate to name.
func (h *Hair) local(center mgl32.Vec3) mgl32.Vec3 {
	if !vecmath.Finite(center) {
		return center
	}
	return h.w.ToLocal(center)
}
