package verlet3d

import (
	"fmt"
	"github.com/drape3d/drape/internal/vecmath"
	"math"
)

// Tether is a handle to a long-range attachment: a particle may not drift
// farther than a maximum distance from an anchor. Tethers from a cape's pins
// to every cloth particle stop the cloth stretching under its own weight
// however few iterations run (NvCloth and Jolt call these long-range
// attachments).
type Tether int32

type tether struct {
	anchor, p int32
	max       float32 // m
	off       bool
}

// AddTether keeps p within maxDist meters of anchor; maxDist 0 takes their
// current distance. Only p is moved: the anchor is meant to be pinned or
// kinematic.
func (w *World) AddTether(anchor, p Particle, maxDist float32) (Tether, error) {
	w.Wake()
	w.check(anchor)
	w.check(p)
	if anchor == p {
		return -1, fmt.Errorf("verlet3d: AddTether(%d, %d): anchor and particle are the same", anchor, p)
	}
	if maxDist == 0 {
		maxDist = vecmath.Len(w.pos[anchor].Sub(w.pos[p]))
	}
	if !inRange(maxDist, MaxCoordinate) || maxDist < 0 {
		return -1, fmt.Errorf("verlet3d: tether maxDist = %v, want meters in [0, %g]", maxDist, float32(MaxCoordinate))
	}
	w.tethers = append(w.tethers, tether{anchor: int32(anchor), p: int32(p), max: maxDist})
	w.tetherGen++
	return Tether(len(w.tethers) - 1), nil
}

// SetTetherLength changes the maximum distance of t in meters.
func (w *World) SetTetherLength(t Tether, maxDist float32) {
	w.Wake()
	if t < 0 || int(t) >= len(w.tethers) {
		panic(fmt.Sprintf("verlet3d: tether handle %d out of range [0, %d)", t, len(w.tethers)))
	}
	if !finite(maxDist) || maxDist < 0 {
		panic(fmt.Sprintf("verlet3d: SetTetherLength(%d, %v): want meters >= 0", t, maxDist))
	}
	w.tethers[t].max = maxDist
	w.tetherGen++
}

// SetTetherEnabled switches t off (false) or back on. A disabled tether
// keeps its length.
func (w *World) SetTetherEnabled(t Tether, on bool) {
	w.Wake()
	if t < 0 || int(t) >= len(w.tethers) {
		panic(fmt.Sprintf("verlet3d: tether handle %d out of range [0, %d)", t, len(w.tethers)))
	}
	w.tethers[t].off = !on
	w.tetherGen++
}

// NumTethers returns the number of tethers.
func (w *World) NumTethers() int { return len(w.tethers) }

func (w *World) solveTethers() {
	if w.prepareTethers() {
		w.solveTethersVec() // tethervec.go
		return
	}
	w.solveTethersRange(0, len(w.tethers))
}

// solveTethersRange is solveTethers' Go loop on tethers [lo, hi).
func (w *World) solveTethersRange(lo, hi int) {
	pos, inv := w.pos, w.invMass
	for i := lo; i < hi; i++ {
		t := &w.tethers[i]
		if inv[t.p] == 0 || t.off {
			continue
		}
		// Most tethers are slack: compare squared lengths, no root.
		// Component by component (see package vecmath).
		a, p := &pos[t.anchor], &pos[t.p]
		dx, dy, dz := p[0]-a[0], p[1]-a[1], p[2]-a[2]
		l2 := float32(dx*dx) + float32(dy*dy) + float32(dz*dz)
		if l2 <= t.max*t.max || l2 == 0 {
			continue
		}
		k := t.max / float32(math.Sqrt(float64(l2)))
		p[0], p[1], p[2] = a[0]+float32(dx*k), a[1]+float32(dy*k), a[2]+float32(dz*k)
	}
}
