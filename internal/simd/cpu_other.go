//go:build purego || !amd64

package simd

// AVX2 is false off amd64 and under the purego build tag: the portable
// loops run.
func AVX2() bool { return false }

// SetKernels does nothing: there are no kernels to turn on.
func SetKernels(on bool) {}
