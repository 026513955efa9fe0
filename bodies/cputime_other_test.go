//go:build !linux

package bodies_test

func threadCPU() int64 { return -1 }
