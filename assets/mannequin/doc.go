// Package mannequin is drape's procedural animated character: a jointed
// wooden-artist's mannequin built from g3n meshes on a node hierarchy, with
// idle, walk, run and turn cycles computed from our own keyframe curves and
// blended smoothly when the gait changes. No model file is involved.
//
// The hierarchy (names are the Node* constants):
//
//	root            placement on the ground; Update moves and turns it
//	└ pelvis
//	  ├ spine
//	  │ └ chest
//	  │   ├ neck └ head
//	  │   ├ shoulder.L └ upperarm.L └ forearm.L └ hand.L
//	  │   └ shoulder.R └ upperarm.R └ forearm.R └ hand.R
//	  ├ thigh.L └ shin.L └ foot.L
//	  └ thigh.R └ shin.R └ foot.R
//
// The character stands on y = 0, faces +Z (the glTF convention: its left is
// +X) and is 1.8 m tall. Every body part is a capsule (a sphere when both
// ends coincide); Capsules returns their definitions in node-local space so
// that physics colliders can follow the animated nodes. The visible meshes
// are exactly those capsules, so what the cloth collides with is what you see.
//
// The package imports g3n (assets may); the physics packages never import it.
package mannequin
