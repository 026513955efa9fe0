package scene

import (
	"math"

	"github.com/drape3d/drape/cloth"
	"github.com/drape3d/drape/hair"
	"github.com/drape3d/drape/internal/vecmath"
	"github.com/drape3d/drape/verlet3d"
	"github.com/go-gl/mathgl/mgl32"
)

// HairOnCape's reach under the cape and gap over it, in meters.
const (
	// hairOnCapeReach is how far under the cape a strand particle is
	// found and taken out every substep: tips that slip around the cape's
	// top corners over the shoulders come out from up to 5 cm.
	hairOnCapeReach = 0.08
	// hairOnCapeGap is how far strands lie off the cape's surface, their
	// radius apart: the cape is drawn at its particles' centers.
	hairOnCapeGap = 0.01
)

// HairOnCape lays long hair on a cape it shares a World with, and keeps
// it on the cape's outside: without it strands hang through the cape, or
// under it between the collar and the neck.
//
// It bends the hair's rest shape over the cape as it hangs now
// (hair.Hair.Drape over spheres on the cape's particles and a box in the
// gap the cape's Standoff leaves behind the neck), so style keeping holds
// strands on the cape instead of pulling them under it, and returns the
// cloth.SurfaceCollision that keeps every strand particle on the cape's
// outside (Cape.Outside), 1 cm plus the hair's radius off it, one-way (strands held by the head do not push the cape about). Call
// it once both are built, with the cape at its pose; Remove the returned
// collision to let the hair through again. Both must be in the same
// World; a nil h or c panics.
//
// In a World of 4 substeps, a cape and 500 strands of 0.5 m cost 6.5 ms a
// frame on one core where two Worlds (the hair's at hair.WorldConfig,
// passing through the cape) cost 1.2 ms: see BENCHMARKS.md.
func HairOnCape(h *hair.Hair, c *Cape) (*cloth.SurfaceCollision, error) {
	if h == nil || c == nil {
		panic("scene: HairOnCape: nil Hair or Cape")
	}
	g := c.Grid
	w := g.World()
	phys := c.Physics()
	fabric := phys.Settings()
	th := hairOnCapeGap + h.Settings().Radius
	sp := g.Settings().Spacing
	var colliders []verlet3d.Collider
	for _, v := range g.Vertices() {
		ball, err := verlet3d.NewSphere(w.Position(v), float32(0.75*sp)+th)
		if err != nil {
			return nil, err
		}
		colliders = append(colliders, ball)
	}
	// The collar box: from the top row forward by the standoff, 10 cm
	// deep, as wide as the top row, turned with the cape.
	cols := g.Cols()
	var top mgl32.Vec3
	for col := 0; col < cols; col++ {
		top = top.Add(w.Position(g.Particle(0, col)))
	}
	top = vecmath.Scale(top, 1/float32(cols))
	normals := g.Normals(nil)
	var out mgl32.Vec3
	for col := 0; col < cols; col++ {
		out = out.Add(normals[col])
	}
	if phys.Outside() == cloth.SideBack {
		out = vecmath.Scale(out, -1)
	}
	out[1] = 0
	if depth := fabric.Standoff; vecmath.Len(out) > 1e-6 && depth > 0 {
		out = vecmath.Normalize(out)
		width := vecmath.Len(w.Position(g.Particle(0, cols-1)).Sub(w.Position(g.Particle(0, 0))))
		const h = 0.1
		center := top.Sub(vecmath.Scale(out, float32(depth/2))).Sub(mgl32.Vec3{0, h / 2, 0})
		turn := vecmath.QuatAxisAngle(float32(math.Atan2(float64(out[0]), float64(out[2]))), mgl32.Vec3{0, 1, 0})
		box, err := verlet3d.NewBox(center, mgl32.Vec3{max(float32(width/2), th), h / 2, float32(depth / 2)}, turn)
		if err != nil {
			return nil, err
		}
		colliders = append(colliders, box)
	}
	h.Drape(colliders...)

	first, n := h.Particles()
	pts := make([]verlet3d.Particle, n)
	for i := range pts {
		pts[i] = first + verlet3d.Particle(i)
	}
	sc, err := cloth.NewSurfaceCollision(g, pts, th)
	if err != nil {
		return nil, err
	}
	if err := sc.SetSide(phys.Outside(), hairOnCapeReach); err != nil {
		sc.Remove()
		return nil, err
	}
	sc.SetOneWay(true)
	return sc, nil
}
