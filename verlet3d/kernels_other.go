//go:build purego || !amd64

package verlet3d

import "github.com/go-gl/mathgl/mgl32"

// haveKernels is false: this architecture runs the Go loops.
func haveKernels() bool { return false }

func solveLinkGroups(*linkGroupArgs, int) int { panic("verlet3d: no link kernel on this architecture") }

func integrateGroups(*integrateArgs, int) int {
	panic("verlet3d: no integration kernel on this architecture")
}

func blockBounds(pos, prev *mgl32.Vec3, radius, invMass *float32, group *uint32, out *[8]float32) {
	panic("verlet3d: no bounds kernel on this architecture")
}

func pathsNear(pos, prev *mgl32.Vec3, radius, invMass *float32, group *uint32, a *nearArgs) uint64 {
	panic("verlet3d: no broad-phase kernel on this architecture")
}

func finiteGroups(*mgl32.Vec3, int) bool {
	panic("verlet3d: no finiteness kernel on this architecture")
}

func solveTetherGroups(*tetherArgs, int) { panic("verlet3d: no tether kernel on this architecture") }
