package hair

// pullStrands runs the kernel (pull_amd64.s).
//
//go:noescape
func pullStrands(a *pullArgs)
