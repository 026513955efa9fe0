//go:build !purego

package cloth

import "github.com/drape3d/drape/internal/simd"

// haveWindKernel reports whether windGroup runs: the processor and the
// operating system support AVX2, and nothing turned the kernels off.
func haveWindKernel() bool { return simd.AVX2() }

// windGroup finds the forces of the windGroupSize triangles from a.tris
// (wind_amd64.s).
//
//go:noescape
func windGroup(a *windArgs)
