//go:build !amd64

package verlet3d

// haveLinkKernel is false: this architecture solves every link with
// solveLinks.
const haveLinkKernel = false

func solveLinkGroups(*linkGroupArgs, int) int { panic("verlet3d: no link kernel on this architecture") }

func integrateGroups(*integrateArgs, int) int {
	panic("verlet3d: no integration kernel on this architecture")
}
