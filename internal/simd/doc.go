// Package simd tells drape's physics packages whether the processor has
// the vector instructions their hand-written kernels use (AVX2 on amd64).
// Every kernel computes exactly what the portable Go loop beside it
// computes, operation for operation, so a World steps to the same bits
// with or without them.
package simd
