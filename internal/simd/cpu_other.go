//go:build !amd64

package simd

// AVX2 is false off amd64: the portable loops run.
func AVX2() bool { return false }
