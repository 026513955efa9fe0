// Package scene binds drape's physics to the g3n engine: a fixed-step Driver
// that advances a verlet3d.World from g3n's variable frame time, meshes whose
// buffers follow the particles every frame, pins and colliders that follow g3n
// nodes, and picking in physics space.
//
// Its sub-package character loads glTF characters, plays their
// animations and fits a cape and hair to their skeletons. The physics
// packages (verlet3d, cloth, hair, bodies) never import g3n: they build and
// test without cgo or a GPU.
//
// What it holds: Driver (fixed steps from g3n's frame time); ClothMesh,
// HairMesh (ribbons, and dense hair built on the GPU), CubesView and NetView
// (meshes that follow the particles); Follower, Anchor and Mount (pins and
// colliders that follow nodes, in meters whatever a bone's scale); Cape (a
// cloth.Cape driven by nodes, with body colliders); HeadFollower and
// HeadHair (hair on a head bone); HairOnCape (long hair lying on a cape in
// the same World); FindBone, FindNode, BoneKey and NodePose (bones and
// their poses).
//
// Frame order matters: update animation, then the nodes' world matrices, then
// Driver.Update (which runs BeforeStep hooks, steps, then AfterStep hooks), then
// render. Pins read node transforms in BeforeStep, so they never lag a frame.
//
// # Registration and errors
//
// NewCape, NewFollower and NewHeadHair add what they make to the World
// (particles, links, colliders, hooks); their Remove takes hooks and
// colliders out. Creating things and changing settings return errors that
// name the field and the value, and a constructor that fails leaves the
// World as it was; misusing a handle (a nil World or Grid, an index out of
// range) panics with a clear message, as in verlet3d.
//
// # Bad frames
//
// A node's pose comes from an animation, and one bad frame (a NaN key, a bone
// scaled through zero, a hips bone thrown to 1e30 m) must not reach the
// physics. What reads nodes every frame holds the last good pose instead and
// counts the frame: Cape.Sync (the whole cape and its body colliders),
// Follower.Sync (each pin or collider on its own), HeadFollower.Sync and
// Mount.Update. A pose is refused when a point is not finite or beyond
// ±verlet3d.MaxCoordinate, or when the axes a rotation is read from are not
// finite or collapsed. Each has NumBadPoses and BadPose, which names the call,
// the node and the value.
package scene
