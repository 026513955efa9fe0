package simd

// Broadcast returns x in all eight lanes: the kernels' arguments carry
// their constants this way, to be read as one 32-byte vector.
func Broadcast(x float32) [8]float32 {
	return [8]float32{x, x, x, x, x, x, x, x}
}
