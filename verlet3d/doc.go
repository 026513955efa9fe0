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
//     The displacement is clamped to MaxSpeed·h (500 m/s by default, far
//     above any throw).
//  3. Collide: each Collider builds temporary contacts for the particles near
//     it, or whose path since the substep began crosses it (continuous
//     collision: a particle at 80 m/s cannot skip a 2 cm box or a 3 cm
//     sphere); every ConstraintSet gets Prepare. Contacts live for this
//     substep only.
//  4. Solve, Config.Iterations times: links, then tethers, then each
//     ConstraintSet's Solve, then contacts last so that nothing ends a
//     substep inside a collider. Links are solved in a fixed order: a small
//     set in graph-colored batches (links of one batch share no particle)
//     and a tail in the order they were added; a large set (2,048 links and
//     more) by region: the particles are cut into index ranges (four, or
//     sixteen from 12,288 links), each range's own links go together,
//     color by color, and the links between ranges come last, neighbors
//     0-1, 2-3, ... before 1-2, 3-4, ... On amd64 processors with AVX2 a
//     pass solves plain XPBD links eight at a time where eight links in a
//     row share no particle (most of a color); every link is computed
//     with the same operations, rounded the same way, so the result is
//     bit-identical to the one-by-one loop, on any machine. With
//     Config.Workers > 1 the
//     workers share a large set's regions two at a time, with the links
//     between the two, each worker its own run of them first and then
//     those another has not begun; the links between two such units are
//     solved by the worker that finishes the second of them, so a pass
//     has no barrier. A small set is solved by one goroutine (a barrier
//     after every color cost more than sharing it saved). Whoever solves
//     what, every link comes after the links before it that share a
//     particle with it, so the result is the same for any worker count.
//  5. Friction and restitution on the contacts: static friction undoes the
//     sliding of the substep against a collider at rest (no creep below the
//     friction angle), kinetic friction shortens it, and the velocity into
//     the surface is removed (restitution 0 stops a particle) or reflected.
//  6. Post: links strained past their BreakStrain break and are reported by
//     Broken; non-finite particles are reset and counted; a final projection
//     keeps particles outside colliders.
//
// Links use XPBD: a compliance (inverse stiffness, m/N) of 0 is rigid, and the
// result does not change character with the iteration count. A Jakobsen
// stiffness in (0, 1] is available for the classic relaxation behavior.
//
// # Hooks and their context
//
// Components plug into the step through three interfaces: ForceField
// (phase 1), ConstraintSet (Prepare in phase 3, Solve in every iteration of
// phase 4) and Finisher (after phase 5). Every call is told its Substep:
// index and count, length h, the fraction of the step it ends at (Frac),
// the iteration, and the time as a float64 computed from the step count,
// so nothing is reconstructed from a float32 clock, however long the game
// runs. Kinematic things blend from their step-start pose to their target
// by Frac (LerpPose). Components register unexported adapters, so their
// public API shows only what a game calls.
//
// # One executor
//
// Config.Workers goroutines belong to the World: link regions,
// integration and the NaN guard (in particle ranges, for 2,048 particles
// and more) and every component's parallel work (World.Parallel: hair
// strands, cubes, ...) run on them, split into contiguous ranges that
// depend only on the work size and the worker count, so results are
// bit-identical for any Config.Workers. Between phases a worker spins
// briefly and then sleeps, and a worker done with its ranges takes those
// another has not begun, so a busy machine or a slower core slows a step
// but never stalls it. When nothing else runs between a substep's
// integration and its first link pass (no ConstraintSet, and only this
// package's collider shapes: a cloth in the wind, over a floor or draped
// on a table), a worker integrates a link region's particles, finds their
// contacts and goes straight on to its links, without waiting for the
// other regions; with no force field it also runs the last substep's
// guard on them first. Components never start goroutines.
// World.Close stops them.
// Stats.Phases tells the wall time of each phase.
//
// # Registration
//
// A constructor that takes a World (or something living in one, as
// cloth.NewWindForce takes a Grid) adds everything it makes to that World:
// particles, links, colliders and its hooks. The value it returns has a
// Remove that takes its hooks and colliders out again; particles are never
// removed. A constructor that fails leaves the World as it was.
//
// # Rotations
//
// Every rotation drape takes is a quaternion read by one rule, in every
// package (a Box's Rotation, a Pose's, a hair head's, a cape's anchors, a
// scene mount's or head sphere's turn): it is used at unit length, and a
// quaternion no longer than 1e-6, the zero quaternion included, means no
// rotation (the identity), so a zero-valued struct holds no turn. A
// quaternion with a non-finite component is refused with an error.
//
// # Errors and panics
//
// Creating things and changing settings return errors that name the field
// and the value (NewWorld, AddParticle, AddLink, SetMass, Wind.Validate,
// ...). Misusing a handle panics with a clear message: a particle or link
// handle out of range or removed, a nil World, collider, force field or
// constraint set (typed nils such as a nil *Sphere included), and
// non-finite positions, targets, velocities, offsets or frame times given
// to SetPosition, SetTarget, SetVelocity, Teleport and Advance.
//
// Finite but absurd values are refused by documented limits, never turned
// into NaN: positions, lengths, radii and collider sizes within
// MaxCoordinate (1e9 m), speeds (MaxSpeed, wind) within MaxSpeedLimit,
// compliances within MaxCompliance, masses in [MinMass, MaxMass], the
// clock SetTime sets within MaxTime and ShiftOrigin's offset (and where it
// puts every particle, in world coordinates) within MaxCoordinate; the setters that return no
// error (SetPosition, SetTarget, SetVelocity, Teleport) clamp to those
// limits instead.
//
// # Numerical dissipation and the defaults
//
// Projection damps fast rotation: a rigid link turning at ω loses energy at
// a rate of about ω²h/2 per second with substep length h, whatever Damping
// is. More substeps (smaller h) keep more of it than more iterations (small
// steps, Macklin et al. 2019), so DefaultConfig splits each 1/60 s step into
// 10 substeps of 2 iterations, the same 20 link passes per step as 2 x 10
// but measured (go test ./verlet3d -run Survey -survey -v) to be far
// better: a 1 m pendulum at 20 degrees loses 1.4% of its amplitude per
// swing (6.8% at 2 x 10), a 40-link chain hangs within 0.5% of the
// catenary's sag with 0.37% link strain (2.2% and 1.7%). Damping defaults
// to 0: a free fall is a free fall; air resistance comes from force fields.
//
// # Sleeping
//
// A World whose free particles have all stayed within
// Config.SleepSpeed·SleepDelay/2 of where they were for Config.SleepDelay
// (5 mm for 1 s by default) is still and falls asleep: a resting
// tablecloth or crate pile then costs almost nothing per step. It wakes on
// any change made through its API, a collider whose Bounds change, a pin
// whose target moves, World.Wake (components call it when they change a
// wind or move a head) and while a hook reports SleepBlocker.BlocksSleep
// (gusty wind, awake crates). SleepSpeed 0 turns sleeping off.
//
// Sleep comes from stillness alone: slow motion keeps its own damping. A
// 0.35 m pendulum swinging 5 degrees with Damping 0.5 loses 28% of its
// amplitude a period, the 26% its damping takes (e^(-cT/2)) and what the
// projection of its link takes, swings on and sleeps once its swing is
// down to a few millimeters (after 10 s). What the World does not
// dissipate goes on: at Damping 0 in still air, the corners of a
// tablecloth hanging off a box still swing by 2 cm at 30 s and the World
// stays awake. Config.SettleDamping is the opt-in brake for such
// a scene: with it a World whose free particles have all stayed slower
// than ten times SleepSpeed for half of SleepDelay adds it to Damping
// until something moves faster (a 48 x 48 tablecloth draped on a box and
// a ball then sleeps 12 s after it is dropped). Motion above that speed is
// untouched, bit for bit.
//
// # Far from the origin
//
// Positions are float32: 5 km out they are good to half a millimeter, and
// there a particle's fall from rest does not even start (its gravity per
// substep rounds away). So a World simulates in a frame of its own, kept
// near its particles: World.Origin is the frame's origin, a float64 world
// position; at the start of a step, when the middle of the particles is
// farther than RecenterDistance (8 m) from it and no particle is left
// within that distance, the World moves it there, snapped to whole meters,
// and tells every OriginShifter. A World whose content stays near (0, 0, 0)
// never moves its frame and gives the same bits as ever. A drop from 4,000
// m falls within 0.02% of g t²/2 and a cape walking 5 km out strains as at
// home, with nothing asked of the game.
//
// Single positions speak world coordinates, converted in float64:
// AddParticle, Position, SetPosition, SetTarget, Target, SetHome,
// InterpolatedPosition, Pick, DragTo, and the built-in colliders (Plane,
// Sphere, Capsule, Box), which the World reads each substep into copies in
// its frame: a game keeps writing its colliders' world positions. The
// slices (Positions, PrevPositions, Interpolated), Contacts and the hooks
// work in the frame; ToWorld, ToWorld64, ToLocal and ToLocal64 convert,
// and a renderer places its mesh's node at Origin. A custom Collider is
// given world points, unless it implements OriginShifter: then it works in
// the frame. Components build in the frame (Recenter, AddParticleLocal,
// SetTargetLocal, SetPositionLocal, SetHomeLocal, FrameCollider) and keep
// their poses there. World.ShiftOrigin is for a game that moves its own
// coordinates: every world position, and the built-in colliders, move by
// -offset, and the frame stays with the particles.
//
// Advance runs whole steps from an accumulator fed by the frame time, caps the
// steps per frame and reports the leftover fraction for interpolation.
// The same inputs give bit-identical output, whatever the worker count: links
// of one color never share a particle, so solving them in parallel is the
// same computation as solving them in sequence. They give it on every
// machine too: amd64 with the AVX2 kernels or without them (no AVX2,
// GODEBUG=cpu.avx2=off, or the purego build tag), amd64 built at
// GOAMD64=v3, and arm64. Go lets a compiler fuse x*y + z into one
// multiply-add that rounds once, and arm64 and GOAMD64=v3 do; drape's
// physics code rounds every product that can reach an addition first
// (float32(x*y) + z) and calls internal/vecmath where mgl32's methods would
// fuse, and a test (internal/checks/nofma) fails on any expression that
// could. The one gap: the standard library's float64 functions (math.Sin,
// Acos, Pow, ...) may differ in their last bit between machines; drape
// rounds their results to float32, which hides such a difference unless the
// float64 result lies that close to the midpoint of two float32 values.
package verlet3d
