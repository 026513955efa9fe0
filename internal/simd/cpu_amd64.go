//go:build !purego

package simd

import "golang.org/x/sys/cpu"

// avx2 reports whether the processor and the operating system support
// AVX2: 8-wide float arithmetic on YMM registers. golang.org/x/sys/cpu
// reads GODEBUG at start-up, so GODEBUG=cpu.avx2=off turns the kernels off
// and runs the portable loops on a processor that has AVX2.
var avx2 = cpu.X86.HasAVX2

// AVX2 reports whether the amd64 kernels run.
func AVX2() bool { return avx2 }

// SetKernels turns the kernels off (false), or back on where the processor
// has them (true). The benchmark table times the portable loops this way,
// beside the kernels, in one binary. A World or a component chooses its
// path as it is built and as it steps: call SetKernels only while nothing
// steps, and build what is to be timed after it.
func SetKernels(on bool) { avx2 = on && cpu.X86.HasAVX2 }
