// Package hair grows strands of hair on a head sphere and simulates them in a
// verlet3d.World.
//
// A Hair is a set of strands rooted on a scalp cap of a sphere (the head).
// Roots are spread evenly over the cap by a golden-angle (Fibonacci) spiral,
// leaving a gap along the parting. On a head that is not round,
// Settings.Scalp moves each root out along its direction onto the head's
// surface and lays the rest shape over that surface; the sphere, inside
// it, still keeps the moving strands out. From each root a strand is grown into a
// rest shape (the style): combed away from the parting and the face, lifted
// off the scalp, drooping over the head and past the ears. Each strand is a
// chain of Segments+1 particles held by
//
//   - stretch links between neighbors (rigid by default),
//   - bend links between every other particle (XPBD, soft), and
//   - a style-keeping pull toward the rest shape expressed in the head's
//     frame, strong at the root and fading as (1-t)² toward the tip, so hair
//     keeps its shape without freezing into a helmet.
//
// The Hair is the World's ConstraintSet for these: strands are chains, so it
// solves them strand by strand from root to tip (several strands side by
// side, and split between Config.Workers goroutines), which converges in a
// few passes; a follow-the-leader sweep at the end of each substep removes
// any stretch left over, and takes its corrections back from the parents'
// velocity (Settings.FollowDamping) so that they do not whip moving
// strands into zigzags. WorldConfig gives a World tuned for that. When the
// hair is alone in its World (no other particles, links, tethers or
// collider contacts in a substep) it runs a substep's passes and head
// contact block by block in one World.Parallel call, with the same result
// as pass by pass; otherwise it spreads its Settings.Iterations passes a
// substep over the World's iterations (its own count, whatever the
// World's: a hair sharing a cape's World of 10 substeps needs fewer than
// the cape), so that colliders and other constraint sets act between its
// passes. (A
// ConstraintSet of the game's own that owns no particles but moves the
// hair's then acts after the hair's passes of a substep, not between them.)
//
// The head moves with SetHead: roots are pinned and follow the head
// transform exactly at every substep, and the head's verlet3d.Sphere
// collider moves with it. Strands are kept outside the head sphere by the
// hair's own solver (on each substep's first pass, with a leash that keeps
// every particle within the strand's length of its root, and at the end of
// each substep with friction against the moving scalp); the Sphere
// collider masks the hair's collision group
// (Settings.Group) and stops the World's other particles in
// Settings.HeadMask (by default all of them). Add extra
// colliders such as neck and shoulder capsules to the World directly, and
// call Drape so the style starts resting on them.
//
// Air acts on every segment as drag against the relative air velocity, taken
// from a shared verlet3d.Wind field: still air damps swinging hair, wind
// blows it. The Hair is also the World's ForceField for that.
//
// All strand particles are one contiguous range of the World's particles,
// strand after strand, root first, so renderers read
// World.Positions()[first:first+n] directly (Particles, Strand). Tangents and
// Colors give per-vertex render data in the same order.
//
// # Frames and units
//
// Lengths are meters, times seconds. In the head's own frame +Y points to the
// crown, +Z out of the face and +X to the head's left (the viewer's right
// when facing it).
//
// # Registration and errors
//
// hair.New adds the strands' particles, the head collider and the hair's
// hooks to the World; Hair.Remove takes the hooks and the collider out.
// Hair.Teleport moves a respawning head and its strands in one jump. Creating things and changing
// settings return errors that name the field and the value, and a
// constructor that fails leaves the World as it was; misusing a handle
// (a nil World or Grid, an index out of range) panics with a clear message,
// as in verlet3d.
package hair
