//go:build !amd64

package verlet3d

// haveKernels is false: this architecture runs the Go loops.
const haveKernels = false

func solveLinkGroups(*linkGroupArgs, int) int { panic("verlet3d: no link kernel on this architecture") }

func integrateGroups(*integrateArgs, int) int {
	panic("verlet3d: no integration kernel on this architecture")
}
