//go:build purego || !amd64

package cloth

// haveWindKernel is false: this architecture runs the Go loop.
func haveWindKernel() bool { return false }

func windGroup(*windArgs) { panic("cloth: no wind kernel on this architecture") }
