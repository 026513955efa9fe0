//go:build !amd64

package hair

func pullStrands(*pullArgs) { panic("hair: no pull kernel on this architecture") }
