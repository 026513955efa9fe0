// Package scene binds drape's physics to the g3n engine: a fixed-step Driver
// that advances a verlet3d.World from g3n's variable frame time, meshes whose
// buffers follow the particles every frame, pins and colliders that follow g3n
// nodes, and picking in physics space.
//
// It is the only drape package that imports g3n; the physics packages build
// and test without cgo or a GPU.
//
// Frame order matters: update animation, then the nodes' world matrices, then
// Driver.Update (which runs BeforeStep hooks, steps, then AfterStep hooks), then
// render. Pins read node transforms in BeforeStep, so they never lag a frame.
//
// # Registration and errors
//
// NewCape and NewFollower add what they make to the World (particles,
// links, colliders, hooks); their Remove takes hooks and colliders out. Creating things and changing
// settings return errors that name the field and the value, and a
// constructor that fails leaves the World as it was; misusing a handle
// (a nil World or Grid, an index out of range) panics with a clear message,
// as in verlet3d.
package scene
