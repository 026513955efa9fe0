package verlet3d

import "unsafe"

// Integration eight particles at a time.
//
// Where the processor has AVX2 (integrate_amd64.s), integrateRange hands
// runs of eight free particles to a kernel that integrates them as the Go
// loop does, operation for operation and rounded the same way, so the
// World steps to the same bits with or without it. A group with a pinned or
// kinematic particle, and the particles past the last whole group, go
// through the Go loop.

// integrateArgs is what the kernel reads; the offsets are fixed in
// integrate_amd64.s (TestIntegrateArgsLayout).
type integrateArgs struct {
	pos, prev, acc unsafe.Pointer // the first group's particles
	state          unsafe.Pointer
	// Broadcast to eight lanes: 1 - damping·h, h², gravity (0 when it is
	// in acc), the largest step MaxSpeed·h and its square.
	k, h2, gx, gy, gz, maxStep, maxStep2 [8]float32
	clamps                               int64 // speed clamps, added to
}
