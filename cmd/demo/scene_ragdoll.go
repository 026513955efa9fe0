package main

import (
	"math"

	"github.com/drape3d/drape/verlet3d"
	"github.com/g3n/engine/geometry"
	"github.com/g3n/engine/graphic"
	"github.com/g3n/engine/material"
	"github.com/g3n/engine/math32"
	"github.com/g3n/engine/window"
	"github.com/go-gl/mathgl/mgl32"
)

// The stick man (after datagenetics' rag doll): joints are particles; bones
// are rigid links; a torso brace (a chest point in front of the spine) makes
// the torso a rigid solid; hidden soft springs between joints two bones
// apart hold a relaxed pose without locking it; and a small constraint set
// keeps limbs out of the body and each other, so he cannot fold through
// himself. Facing +X, left is -Z.
const (
	jHead = iota
	jNeck
	jChest
	jLShoulder
	jRShoulder
	jLElbow
	jRElbow
	jLHand
	jRHand
	jLHip
	jRHip
	jLKnee
	jRKnee
	jLFoot
	jRFoot
	numJoints
)

// ragJoints are the joints' rest positions relative to the point between
// the feet, m, their radii and masses.
var ragJoints = [numJoints]struct {
	pos    mgl32.Vec3
	radius float32
	mass   float32
}{
	jHead:      {mgl32.Vec3{0, 1.6, 0}, 0.11, 5},
	jNeck:      {mgl32.Vec3{0, 1.43, 0}, 0.05, 4},
	jChest:     {mgl32.Vec3{0.1, 1.2, 0}, 0.08, 8},
	jLShoulder: {mgl32.Vec3{0, 1.4, -0.2}, 0.06, 4},
	jRShoulder: {mgl32.Vec3{0, 1.4, 0.2}, 0.06, 4},
	jLElbow:    {mgl32.Vec3{0.02, 1.12, -0.26}, 0.05, 2},
	jRElbow:    {mgl32.Vec3{0.02, 1.12, 0.26}, 0.05, 2},
	jLHand:     {mgl32.Vec3{0.08, 0.86, -0.28}, 0.05, 1},
	jRHand:     {mgl32.Vec3{0.08, 0.86, 0.28}, 0.05, 1},
	jLHip:      {mgl32.Vec3{0, 0.92, -0.11}, 0.07, 8},
	jRHip:      {mgl32.Vec3{0, 0.92, 0.11}, 0.07, 8},
	jLKnee:     {mgl32.Vec3{0.04, 0.5, -0.11}, 0.06, 4},
	jRKnee:     {mgl32.Vec3{0.04, 0.5, 0.11}, 0.06, 4},
	jLFoot:     {mgl32.Vec3{0, 0.06, -0.11}, 0.06, 2},
	jRFoot:     {mgl32.Vec3{0, 0.06, 0.11}, 0.06, 2},
}

// Limb bones (drawn, and measured by the 2% test), torso bones (drawn)
// and the brace (hidden, rigid).
var (
	ragLimbs = [][2]int{
		{jLShoulder, jLElbow}, {jLElbow, jLHand}, {jRShoulder, jRElbow}, {jRElbow, jRHand},
		{jLHip, jLKnee}, {jLKnee, jLFoot}, {jRHip, jRKnee}, {jRKnee, jRFoot},
	}
	ragTorso = [][2]int{
		{jHead, jNeck}, {jNeck, jLShoulder}, {jNeck, jRShoulder}, {jLShoulder, jLHip},
		{jRShoulder, jRHip}, {jLHip, jRHip},
	}
	ragBrace = [][2]int{
		{jLShoulder, jRShoulder}, {jLShoulder, jRHip}, {jRShoulder, jLHip},
		{jChest, jNeck}, {jChest, jLShoulder}, {jChest, jRShoulder}, {jChest, jLHip}, {jChest, jRHip},
		{jHead, jLShoulder}, {jHead, jRShoulder}, {jHead, jChest},
	}
	// Hidden springs: soft links across joints that hold a relaxed pose.
	ragSprings = [][2]int{
		{jLShoulder, jLHand}, {jRShoulder, jRHand}, {jLElbow, jLHip}, {jRElbow, jRHip},
		{jLHip, jLFoot}, {jRHip, jRFoot}, {jLKnee, jChest}, {jRKnee, jChest},
		{jLKnee, jRKnee}, {jLFoot, jRFoot},
	}
)

// ragSpringCompliance is the hidden springs' compliance, m/N: a 4 kg limb
// under gravity bends them a few centimeters.
const ragSpringCompliance = 2e-3

type ragdoll struct {
	w     *verlet3d.World
	p     [numJoints]verlet3d.Particle
	limbs []verlet3d.Link
	body  *bodyGuard
	start mgl32.Vec3 // pelvis at the start

	bones []*graphic.Mesh // one per limb and torso bone
	dots  [numJoints]*graphic.Mesh

	stats ragStats
}

// ragStats is what the ragdoll scene adds to a script probe: the worst
// figures since the scene started.
type ragStats struct {
	MaxLimbStrain float64 `json:"max_limb_strain"` // |length - rest| / rest of the limb bones
	MinClearance  float64 `json:"min_clearance"`   // smallest gap between a limb and a body part / its radius sum, after the solve (1: touching)
	TorsoFlips    int     `json:"torso_flips"`     // steps the torso solid was found inside out
	Drop          float64 `json:"drop"`            // how far the pelvis fell, m
	Speed         float64 `json:"speed"`           // the pelvis speed now, m/s
	Steps         int     `json:"steps"`
}

// ragdollConfig is the ragdoll scene's World config.
func ragdollConfig() verlet3d.Config {
	cfg := verlet3d.DefaultConfig()
	cfg.Substeps = 20 // small steps: 20 x 3 holds the limbs to 0.14% strain where 6 x 10 left 2.4%
	cfg.Iterations = 3
	cfg.Damping = 0.1
	return cfg
}

// buildRagdoll builds the ragdoll scene in w; script probes get its
// figures (probeReport.Ragdoll).
func buildRagdoll(d *Demo, w *verlet3d.World) error {
	// Stairs down along +X: a landing 1.25 m high, four steps of 0.25 m,
	// then the floor.
	stone := material.NewStandard(&math32.Color{R: 0.72, G: 0.68, B: 0.6})
	addBox := func(cx, top, depth float32) error {
		b, err := verlet3d.NewBox(mgl32.Vec3{cx, top / 2, 0}, mgl32.Vec3{depth / 2, top / 2, 1.2}, mgl32.QuatIdent())
		if err != nil {
			return err
		}
		if err := w.AddCollider(b, verlet3d.ContactSettings{Friction: 0.7}); err != nil {
			return err
		}
		m := graphic.NewMesh(geometry.NewBox(depth, top, 2.4), stone)
		m.SetPosition(cx, top/2, 0)
		d.Scene.Add(m)
		return nil
	}
	if err := addBox(-1.3, 1.25, 1.4); err != nil {
		return err
	}
	for i := 0; i < 4; i++ {
		if err := addBox(-0.45+0.35*float32(i), 1.0-0.25*float32(i), 0.35); err != nil {
			return err
		}
	}
	floor, _ := verlet3d.NewPlane(mgl32.Vec3{}, mgl32.Vec3{0, 1, 0})
	if err := w.AddCollider(floor, verlet3d.ContactSettings{Friction: 0.7}); err != nil {
		return err
	}
	d.AddFloor(0, 14)

	r := &ragdoll{w: w}
	feet := mgl32.Vec3{-0.78, 1.25, 0}
	for i, j := range ragJoints {
		p, err := w.AddParticle(feet.Add(j.pos), j.mass)
		if err != nil {
			return err
		}
		if err := w.SetRadius(p, j.radius); err != nil {
			return err
		}
		r.p[i] = p
	}
	link := func(pairs [][2]int, s verlet3d.LinkSettings) ([]verlet3d.Link, error) {
		var out []verlet3d.Link
		for _, pr := range pairs {
			l, err := w.AddLink(r.p[pr[0]], r.p[pr[1]], s)
			if err != nil {
				return nil, err
			}
			out = append(out, l)
		}
		return out, nil
	}
	var err error
	if r.limbs, err = link(ragLimbs, verlet3d.LinkSettings{}); err != nil {
		return err
	}
	if _, err = link(ragTorso, verlet3d.LinkSettings{}); err != nil {
		return err
	}
	if _, err = link(ragBrace, verlet3d.LinkSettings{}); err != nil {
		return err
	}
	if _, err = link(ragSprings, verlet3d.LinkSettings{Compliance: ragSpringCompliance}); err != nil {
		return err
	}
	r.body = newBodyGuard(r)
	w.AddConstraintSet(r.body)
	r.start = r.pelvis()
	r.stats.MinClearance = math.Inf(1)
	r.push()

	// Looks: bones as capsule-ish cylinders, a head, joint balls.
	skin := material.NewStandard(&math32.Color{R: 0.2, G: 0.35, B: 0.75})
	joint := material.NewStandard(&math32.Color{R: 0.95, G: 0.75, B: 0.3})
	for _, b := range append(append([][2]int{}, ragLimbs...), ragTorso...) {
		rad := 0.035
		if b[0] == jHead {
			rad = 0.03
		}
		m := graphic.NewMesh(geometry.NewCylinder(rad, 1, 12, 1, true, true), skin)
		d.Scene.Add(m)
		r.bones = append(r.bones, m)
	}
	for i := range r.dots {
		rad := float64(ragJoints[i].radius) * 0.9
		mat := joint
		if i == jChest {
			continue // the hidden brace point
		}
		if i == jHead {
			mat = material.NewStandard(&math32.Color{R: 0.95, G: 0.8, B: 0.65})
		}
		r.dots[i] = graphic.NewMesh(geometry.NewSphere(rad, 16, 10), mat)
		d.Scene.Add(r.dots[i])
	}
	r.sync()

	drv := d.SetWorld(w)
	drv.AfterStep(func() {
		r.measure()
		r.sync()
		d.Status("limb strain max %.2f%%  clearance min %.2f  torso flips %d  fell %.2f m",
			100*r.stats.MaxLimbStrain, r.stats.MinClearance, r.stats.TorsoFlips, r.stats.Drop)
	})
	d.OnProbe(func(rep *probeReport) { s := r.stats; rep.Ragdoll = &s })
	d.focus = func() (math32.Vector3, bool) {
		p := r.pelvis()
		return math32.Vector3{X: p[0], Y: p[1], Z: p[2]}, true
	}
	d.OnKey(window.KeyT, "T throw", func() {
		for _, p := range r.p {
			w.SetVelocity(p, w.Velocity(p).Add(mgl32.Vec3{-2.5, 5, 1.5}))
		}
	})
	d.LookAt(math32.Vector3{X: 1.0, Y: 2.2, Z: 3.2}, math32.Vector3{X: -0.2, Y: 0.8, Z: 0})
	return nil
}

// push starts him toppling forward off the landing: the interesting
// moment is the fall, so it begins at once.
func (r *ragdoll) push() {
	for i, p := range r.p {
		h := ragJoints[i].pos[1]
		r.w.SetVelocity(p, mgl32.Vec3{1.6 * h, 0.4, 0.25 * h})
	}
}

func (r *ragdoll) pelvis() mgl32.Vec3 {
	return r.w.Position(r.p[jLHip]).Add(r.w.Position(r.p[jRHip])).Mul(0.5)
}

// torsoVolume is the signed volume of the torso solid's main tetrahedron;
// its sign flips if the torso turns inside out.
func (r *ragdoll) torsoVolume() float32 {
	x := func(j int) mgl32.Vec3 { return r.w.Position(r.p[j]) }
	a, b, c, e := x(jLShoulder), x(jRShoulder), x(jLHip), x(jChest)
	return b.Sub(a).Cross(c.Sub(a)).Dot(e.Sub(a))
}

func (r *ragdoll) measure() {
	w := r.w
	for _, l := range r.limbs {
		r.stats.MaxLimbStrain = math.Max(r.stats.MaxLimbStrain, math.Abs(float64(w.LinkStrain(l))))
	}
	if v0 := torsoRestVolume(); (r.torsoVolume() > 0) != (v0 > 0) {
		r.stats.TorsoFlips++
	}
	r.stats.MinClearance = math.Min(r.stats.MinClearance, r.body.clearance())
	p := r.pelvis()
	r.stats.Drop = math.Max(r.stats.Drop, float64(r.start[1]-p[1]))
	v := w.Velocity(r.p[jLHip]).Add(w.Velocity(r.p[jRHip])).Mul(0.5)
	r.stats.Speed = float64(v.Len())
	r.stats.Steps++
}

func torsoRestVolume() float32 {
	x := func(j int) mgl32.Vec3 { return ragJoints[j].pos }
	a, b, c, e := x(jLShoulder), x(jRShoulder), x(jLHip), x(jChest)
	return b.Sub(a).Cross(c.Sub(a)).Dot(e.Sub(a))
}

// sync places the bone and joint meshes.
func (r *ragdoll) sync() {
	bones := append(append([][2]int{}, ragLimbs...), ragTorso...)
	up := math32.Vector3{Y: 1}
	for i, b := range bones {
		a, c := r.w.Position(r.p[b[0]]), r.w.Position(r.p[b[1]])
		dir := c.Sub(a)
		l := dir.Len()
		if l < 1e-6 {
			continue
		}
		mid := a.Add(c).Mul(0.5)
		m := r.bones[i]
		m.SetPosition(mid[0], mid[1], mid[2])
		n := math32.Vector3{X: dir[0] / l, Y: dir[1] / l, Z: dir[2] / l}
		var q math32.Quaternion
		q.SetFromUnitVectors(&up, &n)
		m.SetQuaternionQuat(&q)
		m.SetScale(1, l, 1)
	}
	for i, m := range r.dots {
		if m == nil {
			continue
		}
		x := r.w.Position(r.p[i])
		m.SetPosition(x[0], x[1], x[2])
	}
}

// bodyGuard keeps the stick man from passing through himself: every joint
// stays outside the capsules of the body parts it is not attached to (the
// torso's sides and diagonals, the limbs), by the sum of the joint's and
// the part's radii. A position-based contact solved with the links.
type bodyGuard struct {
	r     *ragdoll
	parts []guardPart
	pairs [][2]int // part, joint
}

type guardPart struct {
	a, b   int
	radius float32
}

func newBodyGuard(r *ragdoll) *bodyGuard {
	g := &bodyGuard{r: r}
	for _, l := range ragLimbs {
		g.parts = append(g.parts, guardPart{l[0], l[1], 0.04})
	}
	for _, t := range [][2]int{{jLShoulder, jLHip}, {jRShoulder, jRHip}, {jLShoulder, jRHip}, {jRShoulder, jLHip}, {jNeck, jChest}} {
		g.parts = append(g.parts, guardPart{t[0], t[1], 0.06})
	}
	// A joint is tested against a part unless it is one of the part's ends
	// or joined to one of them by a bone (its neighbors touch it anyway).
	adj := map[[2]int]bool{}
	for _, set := range [][][2]int{ragLimbs, ragTorso, ragBrace} {
		for _, b := range set {
			adj[[2]int{b[0], b[1]}], adj[[2]int{b[1], b[0]}] = true, true
		}
	}
	for pi, p := range g.parts {
		for j := 0; j < numJoints; j++ {
			if j == p.a || j == p.b || adj[[2]int{j, p.a}] || adj[[2]int{j, p.b}] || j == jChest {
				continue
			}
			g.pairs = append(g.pairs, [2]int{pi, j})
		}
	}
	return g
}

func (g *bodyGuard) Prepare(*verlet3d.World, verlet3d.Substep) {}

func (g *bodyGuard) Solve(w *verlet3d.World, _ verlet3d.Substep) {
	pos := w.Positions()
	inv := w.InvMasses()
	for _, pr := range g.pairs {
		part := g.parts[pr[0]]
		ia, ib, ip := g.r.p[part.a], g.r.p[part.b], g.r.p[pr[1]]
		a, b, x := pos[ia], pos[ib], pos[ip]
		ab := b.Sub(a)
		l2 := ab.Dot(ab)
		if l2 < 1e-12 {
			continue
		}
		t := min(max(x.Sub(a).Dot(ab)/l2, 0), 1)
		q := a.Add(ab.Mul(t))
		n := x.Sub(q)
		dist := n.Len()
		want := part.radius + ragJoints[pr[1]].radius
		if dist >= want || dist < 1e-9 {
			continue
		}
		n = n.Mul(1 / dist)
		wp, wa, wb := inv[ip], inv[ia]*(1-t), inv[ib]*t
		den := inv[ip] + inv[ia]*(1-t)*(1-t) + inv[ib]*t*t
		if den == 0 {
			continue
		}
		s := (want - dist) / den
		pos[ip] = x.Add(n.Mul(wp * s))
		pos[ia] = a.Sub(n.Mul(wa * s))
		pos[ib] = b.Sub(n.Mul(wb * s))
	}
}

// clearance returns the smallest distance between a guarded joint and a
// body part over the sum of their radii (1 is touching, below 1 inside).
func (g *bodyGuard) clearance() float64 {
	w := g.r.w
	best := math.Inf(1)
	for _, pr := range g.pairs {
		part := g.parts[pr[0]]
		a, b, x := w.Position(g.r.p[part.a]), w.Position(g.r.p[part.b]), w.Position(g.r.p[pr[1]])
		ab := b.Sub(a)
		t := min(max(x.Sub(a).Dot(ab)/ab.Dot(ab), 0), 1)
		dist := x.Sub(a.Add(ab.Mul(t))).Len()
		best = math.Min(best, float64(dist/(part.radius+ragJoints[pr[1]].radius)))
	}
	return best
}

var _ verlet3d.ConstraintSet = (*bodyGuard)(nil)
