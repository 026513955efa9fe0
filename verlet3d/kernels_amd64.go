//go:build !purego

package verlet3d

import (
	"github.com/drape3d/drape/internal/simd"
	"github.com/go-gl/mathgl/mgl32"
)

// haveKernels reports whether the kernels of linkvec_amd64.s,
// integrate_amd64.s, bounds_amd64.s and finite_amd64.s run: the processor
// and the operating system support AVX2, and nothing turned them off.
func haveKernels() bool { return simd.AVX2() }

// solveLinkGroups solves n consecutive link groups starting at args.group
// and returns how many it solved: fewer than n when a group holds a link
// shorter than sqrt(args.eps), which it leaves untouched for solveLinks.
//
//go:noescape
func solveLinkGroups(args *linkGroupArgs, n int) int

// integrateGroups integrates n groups of eight free particles and returns
// how many it did: fewer than n when a group holds a particle that is not
// free, which it leaves for integrateRange.
//
//go:noescape
func integrateGroups(a *integrateArgs, n int) int

// blockBounds writes the box, largest radius and groups of the blockSize
// particles from pos, prev, radius, invMass and group (bounds_amd64.s):
// least x, y, z, greatest x, y, z, radius, and the groups' bits.
//
//go:noescape
func blockBounds(pos, prev *mgl32.Vec3, radius, invMass *float32, group *uint32, out *[8]float32)

// pathsNear returns which of the blockSize particles from pos may touch
// the collider a describes, a bit each: free, in a group of its mask, and
// their paths from prev grown by radius plus margin meeting its box
// (bounds_amd64.s). collideParticles and clampRange test the same in Go.
//
//go:noescape
func pathsNear(pos, prev *mgl32.Vec3, radius, invMass *float32, group *uint32, a *nearArgs) uint64

// finiteGroups reports whether every coordinate of the n groups of eight
// Vec3s from v is finite (finite_amd64.s).
//
//go:noescape
func finiteGroups(v *mgl32.Vec3, n int) bool

// solveTetherGroups solves n consecutive tether groups from args.group
// (tethervec_amd64.s).
//
//go:noescape
func solveTetherGroups(args *tetherArgs, n int)
