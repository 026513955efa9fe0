//go:build !purego

package simd

import "golang.org/x/sys/cpu"

// avx2 reports whether the processor and the operating system support
// AVX2: 8-wide float arithmetic on YMM registers. golang.org/x/sys/cpu
// reads GODEBUG at start-up, so GODEBUG=cpu.avx2=off turns the kernels off
// and runs the portable loops on a processor that has AVX2.
var avx2 = cpu.X86.HasAVX2

// AVX2 reports whether the amd64 kernels can run.
func AVX2() bool { return avx2 }
