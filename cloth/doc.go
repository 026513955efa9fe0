// Package cloth builds fabric on drape's verlet3d solver: rectangular grids
// of particles joined by structural, shear and bend links, with UVs and a
// triangle list for rendering, pins and kinematic anchors, long-range
// tethers, aerodynamic wind on triangles, tearing that splits the mesh, and
// optional self-collision.
//
// # Building
//
// New adds a Grid's particles and links to a World. Settings say how many
// particles (Cols across, Rows down), how far apart (Spacing), where row 0,
// column 0 sits (Origin) and which way columns and rows run (Across, Down).
// The defaults hang a curtain: columns along +X, rows along -Y, the front
// side facing +Z. A tablecloth lying flat uses Down = +Z (front side up).
//
//	g, err := cloth.New(w, cloth.Settings{
//		Cols: 32, Rows: 24, Spacing: 0.05, Mass: 0.4,
//		Origin:  mgl32.Vec3{-0.8, 2, 0},
//		PinRows: []int{0}, Tethers: true,
//	})
//
// # Capes
//
// NewCape builds a cape on a character given as poses (mgl32, meters): a
// Grid hanging from anchor poses across the back, tilted back from vertical
// until it clears the body capsules, its top row pinned and tethered. Every
// frame, Cape.SetPose takes the character's reference pose, the anchors'
// poses and the body capsules: it sets the top edge's kinematic targets,
// carries the cape by a chosen fraction of the character's motion, jumps it
// rigidly on a teleport, and moves the MaxLag limits (Jolt's skinned max
// distance, NvCloth's motion constraints: each particle stays within a
// radius of where it hangs below its pinned column). A pose with a position
// that is not finite or beyond verlet3d.MaxCoordinate, or a non-finite
// rotation (one bad animation frame), is refused and the last good pose
// held: Cape.NumBadPoses counts such calls and Cape.BadPose tells what was
// wrong with the last. The body colliders are the caller's; scene.Cape
// drives a Cape from g3n nodes.
//
// # Points on a cloth
//
// A cloth keeps colliders and other bodies out only at its own particles.
// NewSurfaceCollision keeps chosen particles of other bodies (a crate's
// corners, hair strands) out of its triangles, each on the side it came
// from, or with SetSide on one side of every triangle wherever it came
// from (Cape.Outside names a cape's outside), pushing the cloth back by
// their masses or, with SetOneWay, not at all.
//
// # Links
//
// Structural links join neighbors along rows and columns, shear links join
// both diagonals of every cell and bend links join particles two apart along
// rows and columns. Each kind has its own XPBD compliance (m/N, 0 rigid).
// Compliance acts against particle inertia: for a particle of m kg solved at
// substep h, a compliance near h²/m makes a link noticeably soft.
//
// # Wind
//
// NewWindForce adds a grid's wind to its World (as an unexported
// verlet3d.ForceField; WindForce.Remove takes it out). For every triangle it
// takes the air
// velocity from a verlet3d.Wind field relative to the triangle's velocity
// and splits it on the unit normal: a pressure (drag) force along the normal
// and a lift force across the flow, both proportional to the triangle's area
// and the air density and both vanishing when the cloth is edge-on.
//
// # Tearing
//
// With Settings.TearStrain > 0, structural and shear links break when
// stretched past it. The Grid, whose hooks New adds to the World, then
// removes the triangles the broken link held together, duplicates vertices
// where the remaining triangles only touch at a point, moves links onto the
// duplicates and re-indexes the triangle list, so a real hole opens. Cut and
// CutNear break links on purpose, for a mouse knife. Version changes whenever
// the mesh changes so a renderer knows to re-upload indices.
//
// # Rendering data
//
// Vertices maps render vertices to particles, UVs and Indices give texture
// coordinates and a counter-clockwise triangle list, Positions and Normals
// fill caller-provided slices without allocating once they are big enough.
//
// # Registration and errors
//
// cloth.New, NewCape, NewWindForce and NewSelfCollision add what they make
// to the World (particles, links, hooks); Grid.Remove, Cape.Remove,
// WindForce.Remove and SelfCollision.Remove take the hooks out again. Creating things and changing
// settings return errors that name the field and the value, and a
// constructor that fails leaves the World as it was; misusing a handle
// (a nil World or Grid, an index out of range) panics with a clear message,
// as in verlet3d.
package cloth
