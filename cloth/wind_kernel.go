package cloth

import (
	"unsafe"

	"github.com/go-gl/mathgl/mgl32"
)

// windArgs is what windGroup (wind_amd64.s) reads and writes, at the
// offsets TestWindArgsLayout checks: the group's triangles, the substep's
// inputs, the force and net force it adds to, and its scratch.
type windArgs struct {
	tris, alive unsafe.Pointer    // &tris[t], &triAlive[t]
	airs        [3]unsafe.Pointer // &WindForce.triAir[k][t] (nil: uniform air)
	corners     [3]unsafe.Pointer // &WindForce.corners[k][t]
	pos, prev   unsafe.Pointer    // &pos[0], &prev[0]
	air         mgl32.Vec3        // the uniform air, m/s
	k3, cp, cq  float32           // see WindForce
	one         float64           // 1
	f           [3][8]float32     // scratch: each triangle's force on each vertex, x, y, z
	u           [3][8]float32     // scratch: the air relative to each triangle
	e           [6][8]float32     // scratch: its edges b - a and c - a
	fallback    uint32            // out: a bit a triangle whose force needs float64 (all for a group on last3)
	last3       int32             // 3 x the World's last particle, whose 16 bytes would pass the end of pos
	force       unsafe.Pointer    // &WindForce.force[0]
	net         mgl32.Vec3        // in and out: the band's net force so far
}

// windGroupSize is how many consecutive triangles windGroup takes.
const windGroupSize = 8

// kernel reports whether this wind runs the AVX2 kernel.
func (wd *WindForce) kernel() bool { return haveWindKernel() && !wd.noKernel }

// bandKernel is band with windGroup finding the forces of the triangles
// eight at a time and adding them to the vertices, and to net, in triangle
// order, so every sum is as band's loop makes it. A group with a triangle
// whose force needs float64 (see windForce64), or on the World's last
// particle (see windArgs.last3), goes through tri instead, as do the
// band's last few triangles.
func (wd *WindForce) bandKernel(t0, t1 int) mgl32.Vec3 {
	g := wd.g
	force := wd.force
	a := windArgs{
		pos: unsafe.Pointer(&wd.pos[0]), prev: unsafe.Pointer(&wd.prev[0]),
		air: wd.air, k3: wd.k3, cp: wd.cp, cq: wd.cq, one: 1,
		last3: int32(3 * (len(wd.pos) - 1)),
		force: unsafe.Pointer(&force[0]),
	}
	ti := t0
	for ; ti+windGroupSize <= t1; ti += windGroupSize {
		a.tris, a.alive = unsafe.Pointer(&g.tris[ti]), unsafe.Pointer(&g.triAlive[ti])
		for k := range a.corners {
			a.corners[k] = unsafe.Pointer(&wd.corners[k][ti])
		}
		if !wd.uniform {
			for k := range a.airs {
				a.airs[k] = unsafe.Pointer(&wd.triAir[k][ti])
			}
		}
		windGroup(&a)
		if a.fallback == 0 {
			continue // added
		}
		// A force beyond float32's reach, or the last particle: the
		// group goes through tri, which finds what the kernel found for
		// the others.
		for l := range windGroupSize {
			a.net = wd.tri(ti+l, a.net)
		}
	}
	for ; ti < t1; ti++ {
		a.net = wd.tri(ti, a.net)
	}
	return a.net
}
