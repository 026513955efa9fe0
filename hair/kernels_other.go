//go:build purego || !amd64

package hair

func pullStrands(*pullArgs) { panic("hair: no pull kernel on this architecture") }

func solveStrands8(*linkArgs) { panic("hair: no links kernel on this architecture") }

func carryParticles(*carryArgs) { panic("hair: no carry kernel on this architecture") }

func headContacts(*contactArgs) { panic("hair: no head contact kernel on this architecture") }

func followStrands8(*followArgs) { panic("hair: no follow-the-leader kernel on this architecture") }

func styleTargets(*styleArgs) { panic("hair: no style target kernel on this architecture") }

func dragStrands8(*dragArgs) { panic("hair: no air drag kernel on this architecture") }

func denseStrands8(*denseArgs) uint64 { panic("hair: no render strand kernel on this architecture") }
