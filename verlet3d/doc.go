// Package verlet3d is drape's position-based (Verlet) particle solver.
//
// A World owns every particle of a scene in flat slices indexed by an int32
// handle (Particle). Distance links, tethers, collider contacts and any
// component-defined ConstraintSet act on those particles. Because cloth, hair
// and cube bodies all live in one World, a cube pushes cloth and cloth rests on
// a cube without either package knowing about the other.
//
// # The step
//
// Step advances the world by Config.TimeStep, split into Config.Substeps
// substeps of length h. Each substep runs these phases, in this order:
//
//  1. Forces: gravity, then every ForceField in the order it was added.
//  2. Integrate: x' = x + (x - x_prev)(1 - k) + a h², with k = Damping·h.
//     Kinematic particles move to their target instead; pinned ones stay.
//     The displacement is clamped to MaxSpeed·h.
//  3. Collide: each Collider builds temporary contacts for the particles near
//     it; every ConstraintSet gets Prepare. Contacts live for this substep only.
//  4. Solve, Config.Iterations times: links (graph-coloured batches, optionally
//     on several workers), then tethers, then each ConstraintSet's Solve, then
//     contacts last so that nothing ends a substep inside a collider.
//  5. Friction and restitution on the contacts, through the previous position.
//  6. Post: links strained past their BreakStrain break and are reported by
//     Broken; non-finite particles are reset and counted; a final projection
//     keeps particles outside colliders.
//
// Links use XPBD: a compliance (inverse stiffness, m/N) of 0 is rigid, and the
// result does not change character with the iteration count. A Jakobsen
// stiffness in (0, 1] is available for the classic relaxation behaviour.
//
// Advance runs whole steps from an accumulator fed by the frame time, caps the
// steps per frame and reports the leftover fraction for interpolation.
// The same inputs give bit-identical output, whatever the worker count: links
// of one colour never share a particle, so solving them in parallel is the
// same computation as solving them in sequence.
package verlet3d
