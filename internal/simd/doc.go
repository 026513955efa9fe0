// Package simd tells drape's physics packages whether the processor has
// the vector instructions their hand-written kernels use (AVX2 on amd64).
// Every kernel computes exactly what the portable Go loop beside it
// computes, operation for operation, so a World steps to the same bits
// with or without them.
//
// Two switches turn the kernels off: GODEBUG=cpu.avx2=off at run time
// (golang.org/x/sys/cpu honours it), and the purego build tag, which
// leaves every assembly file out of the build.
package simd
