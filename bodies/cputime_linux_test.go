package bodies_test

import "syscall"

// threadCPU returns the CPU time the calling OS thread has used, in
// nanoseconds, or -1 if unknown. With the goroutine locked to its thread
// it times a 1-worker benchmark without the time other processes on a
// busy machine take from it.
func threadCPU() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(1 /* RUSAGE_THREAD */, &ru); err != nil {
		return -1
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}
