package character

import (
	"strings"

	"github.com/drape3d/drape/scene"
	"github.com/g3n/engine/core"
)

// stripDup removes a trailing duplicate marker such as "_1" or ".001".
func stripDup(name string) string {
	i := len(name)
	for i > 0 && name[i-1] >= '0' && name[i-1] <= '9' {
		i--
	}
	if i < len(name) && i > 1 && (name[i-1] == '_' || name[i-1] == '.') {
		return name[:i-1]
	}
	return name
}

type boneCandidate struct {
	name  string
	node  *core.Node
	joint bool // a skin joint
	depth int
}

func depth(n *core.Node) int {
	d := 0
	for p := n.Parent(); p != nil; p = p.Parent() {
		d++
	}
	return d
}

// matchBone picks the candidate for want: the exact name, then the same
// name ignoring case, then the same BoneKey, then the same BoneKey of the
// name without a duplicate marker ("Head_1" for "Head"). At each stage skin
// joints win over other nodes, then the node nearest the root.
func matchBone(cands []boneCandidate, want string) *core.Node {
	ws, wb := scene.BoneKey(want)
	stages := []func(c boneCandidate) bool{
		func(c boneCandidate) bool { return c.name == want },
		func(c boneCandidate) bool { return strings.EqualFold(c.name, want) },
		func(c boneCandidate) bool { s, b := scene.BoneKey(c.name); return s == ws && b == wb && b != "" },
		func(c boneCandidate) bool {
			s, b := scene.BoneKey(stripDup(c.name))
			return s == ws && b == wb && b != ""
		},
	}
	for _, ok := range stages {
		var best *boneCandidate
		for i := range cands {
			c := &cands[i]
			if !ok(*c) {
				continue
			}
			if best == nil || (c.joint && !best.joint) || (c.joint == best.joint && c.depth < best.depth) {
				best = c
			}
		}
		if best != nil {
			return best.node
		}
	}
	return nil
}
