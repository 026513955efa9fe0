// Package bodies gives a verlet3d World cube rigid bodies: crates that
// fall, tumble, stack, get thrown, and carry cloth draped over them.
//
// A System solves its cubes with one of two engines, chosen by
// Settings.Engine when it is made: PoseEngine, the default and the game
// case, and ParticleEngine for jelly cubes and cubes whose corners a game
// wants as World particles.
//
// # PoseEngine
//
// Each cube is a pose, a center and a rotation, and the pose it had a
// substep before: its velocity is the change of pose over the substep, as
// a Verlet particle's is the change of position (Müller, Macklin et al.,
// "Detailed Rigid Body Simulation with Extended Position Based Dynamics",
// 2020). A cube's inertia is isotropic, so its inverse is one number in
// any frame and a free cube keeps its spin exactly. The step, in the order
// it runs (posestep.go):
//
//   - once a step, in the World's first substep: the contacts between
//     cubes (separating axes; a face axis clips the incident face against
//     the reference face, keeping up to four points; a clearly shallower
//     edge axis gives the two edges' closest points) and of each corner
//     against the System's colliders, plus the collider's point nearest
//     the cube's center when it reaches deeper than every corner (a ball
//     under a face), every point within a speculative
//     margin that covers the step's motion, so a contact that closes
//     during the step is in place before it does (a crate thrown at 40 m/s
//     stops at a 2 cm wall). A cube that moved under 0.1 mm keeps last
//     step's contacts. Contacts that touch join cubes into islands; each
//     island's contacts are ordered from the ground up;
//   - the cubes move Settings.Substeps times a step, each of their
//     substeps spanning one or more of the World's: it begins (Prepare)
//     with the cubes moving by their velocity, gravity and damping; in
//     every World iteration it spans, the World's particles inside a cube
//     are pushed out and the cube back (poseparticle.go); it ends (Finish)
//     with each island, on one of the World's workers, solving its
//     contacts against the cubes' move and turn since the step's start:
//     Config.Iterations passes of the normal constraints, a manifold's
//     points together (Jacobi within it, each point's depth over its row
//     of the manifold's coupling: four corners as deep as each other move
//     a crate, solid or hollow, exactly out instead of tipping it in turn
//     or, summed, pushing it out twice), then friction as one patch
//     per manifold (its center held on an anchor kept while it sticks, and
//     a twist, within one Coulomb cone), the velocities from the change of
//     pose, restitution, and a last normal pass that leaves no speed with
//     the lower cube of each contact held (a stack does not squeeze);
//   - after the last substep, islands whose cubes all stayed still
//     (within half of Config.SleepSpeed x SleepDelay for SleepDelay) fall
//     asleep; a touch by a moving cube, a throw, an impulse, a grab, new
//     settings or a collider that moves near them wakes them. A collider
//     that moved since the last step's start lends its contacts its
//     velocity over that step: the surface moves on within the step.
//
// It adds no particle to the World and refuses jelly cubes. Islands share
// no awake cube and each is solved the same way on any worker: the same
// bits for any Config.Workers.
//
// # ParticleEngine
//
// A cube is eight corner particles and, by default, a ninth at its center
// holding 2/3 of the mass (so it has the inertia of a solid cube), joined
// by rigid links between every pair: 36 links, 28 for a Hollow cube of
// corners only. Nothing else stores the body: its center and rotation are
// recovered from the corners by shape matching (the polar decomposition of
// the corners' moment matrix, which is the face-average frame
// orthonormalised) and stay well defined while contacts squash the cube for
// an instant. Corners are ordinary particles, so colliders added to the
// World directly keep them out, the mouse grabs them (World.Pick, DragTo)
// and Release throws the cube with the dragged velocity. Colliders given to
// System.AddCollider hold cubes through the System's own contacts instead
// (rigid, swept for fast cubes, with the collider's friction and
// restitution): see ParticleGroup.
//
// A rigid cube (Compliance 0) also keeps its momentum, as a shape-matched
// body does. Every substep the System reads its velocity and spin from
// the particles' integrated motion (gravity, force fields, Throw,
// ApplyImpulse, World.SetVelocity, Teleport and Reset all arrive that way),
// places the particles by the exact rotation rather than along the Verlet
// chord, and after the solve adds to the velocity and spin only what
// contacts, colliders and friction did; the links, internal forces, add
// nothing. So a free cube spins on with the angular momentum it has
// (projection alone takes about ω²h/2 of it per second), while it still
// lands, tumbles, stacks and carries cloth as before. A cube held by a
// pinned or dragged particle, and a jelly cube, move as their particles
// and links say; a dragged cube is thrown with the velocity it was dragged
// with.
//
// A System owns the cubes of one World and registers itself with it once
// as a verlet3d.ConstraintSet. Every substep, after integration, it builds
// temporary contact constraints that live for that substep only:
//
//   - cube against cube: the separating-axis test picks one normal per
//     pair; on a face axis, the incident face is clipped against the
//     reference face (corners and crossing edges: vertex-face contacts), on
//     a clearly shallower edge axis the two supporting edges touch
//     (edge-edge). A fast pair, half a cube or more closer in one substep
//     (a crate thrown at 80 m/s moves 13 cm a substep), is tested with its
//     bounds over its path and its centers where the substep began, so
//     that the normal points the way the cubes came even when they end
//     the substep past each other;
//   - cube against the colliders given to AddCollider: each corner, tested
//     along its path this substep so that a fast cube stops at a thin wall,
//     and the face facing a small collider that pokes in between the
//     corners; a cube that came in fast leaves with the collider's
//     restitution. A cube held by one pinned or dragged particle (a crate
//     dragged by a corner) turns about it when it meets other cubes, with
//     its inertia about that particle; held by more, it is immovable to
//     them. Either way its other corners are kept out of the colliders as
//     the World keeps particles out, and its links turn it about what
//     holds it;
//   - cube against every other particle of the World: cloth and hair are
//     pushed out through the face they came in by (beside an edge or a
//     corner, straight away from it), and push back according to their
//     mass; a fast cube also meets the particles it passed in the substep,
//     so a crate thrown through a curtain carries the cloth on its face. A
//     particle that a World collider holds against the push (cloth
//     on the floor under a crate) does not give way into the collider: the
//     crate rests on it as on the floor. Across the floor it gives way only
//     to a push tilted beyond the collider's friction cone (the crate's
//     weight presses it on the floor, so a crate resting tilted does not
//     work the cloth out from under itself), and the collider holds it
//     against the cube's friction, so a crate holds on cloth on a slope.
//     Depth a particle began a substep in is pushed out at 5 cm/s, so that
//     it does not become a kick.
//
// A contact point sits on a feature and is carried by that feature's
// corners with barycentric weights (1 for a corner, 1-t and t along an
// edge, bilinear on a face). Corrections are impulses at that point: a
// cloth particle moves by P/m, a cube moves as the rigid body its particles
// form, by P/M and the turn I⁻¹(r×P), every particle following. An edge
// contact therefore turns a cube about its center of mass the way a real
// box turns and never shoves its center sideways, which is the sliding the
// seed article warns about when a temporary constraint pushes the center.
// Friction is Coulomb friction at the position level (the sliding since the
// start of the substep is cancelled within the friction cone), so a crate
// rests on a slope up to its friction angle without creeping;
// Settings.Passes sweeps per substep let four corners (and a stack) agree;
// a lone cube's contacts start each substep from the impulses they ended
// the last one with (warm.go), so a crate at rest needs a pass or two, and
// a stack's from 40% of them.
// Restitution is optional.
//
// Depth a cube began a substep in, against a cube or a collider (squeezed
// between the floor and a crate dragged onto it, or set inside another),
// is pushed out at 2 m/s at most; the substep's own approach is stopped in
// full.
//
// Pairs are found by sort-and-sweep on x and particles by a binary search
// in the same order, so a hundred cubes do not test every pair. A cube
// whose corners stayed within 10 µm of where its contacts were found keeps
// them for the rest of the step (reuse.go): crates at rest do not look for
// their contacts ten times a frame.
//
// # Cost and workers
//
// Cubes that touch through other cubes form an island; islands share no
// movable body and are solved one by one, each through compact solver
// rows (island.go, rows.go). The islands, most of the cost, run on the
// World's workers in contiguous shares of about equal work, one a worker
// (one Solve call per substep with only rigid cubes and nothing else
// touching them, else one per World iteration); every share writes only
// its own cubes, rows and contacts, so the result is bit for bit the same
// for any Config.Workers. The per-cube work (prediction and frames in
// Prepare, the carry in Finish) and the narrow phase run in one share a
// worker too, each on its own cubes and its own slot of contacts, joined
// in range order. The System starts no goroutine of its own and
// allocates nothing per step once its slices have grown.
//
// A worker pays for every cache line another core wrote last, so data
// stays with the worker that uses it: the System gives a worker the
// same range of cubes in every job, and that worker also finds those
// cubes' pairs (reading of the other cubes only their bounds, in the
// sweep order) and copies their contacts into place; an island sets up
// its own rows, solve state and warm start (kept in its cube) on the
// worker that solves it; and the serial parts of a substep read of every
// cube and contact only small arrays beside them (bounds, held, fixed, the
// contacts' cubes, the contacts that came together fast), and the cubes
// themselves only where they meet something (a sleeper and a mover, a
// particle, a fast contact) and, once a step, for sleeping.
//
// # Sleeping
//
// Cubes at rest sleep island by island, by the World's Config.SleepSpeed
// and SleepDelay, even while other things in the World move (sleep.go): an
// asleep cube is frozen, costs little more than the World's own work on
// its particles, and meets everything else as an immovable body. Anything
// that would move it (a throw, an impulse, a set velocity or position, a
// pin or drag, a change of gravity, a moving cube, collider or fast
// particle running into it, System.Wake, new Settings) wakes it and the
// cubes that fell asleep with it, and it then moves as a cube that never
// slept. System.Sleeping and Stats.Sleeping tell which and how many.
//
// # Registration and errors
//
// NewSystem adds the System's hooks to the World and AddCube its
// particles and links; System.Remove takes the hooks out. Creating things and changing
// settings return errors that name the field and the value, and a
// constructor that fails leaves the World as it was; misusing a handle
// (a nil World or Grid, an index out of range) panics with a clear message,
// as in verlet3d.
package bodies
