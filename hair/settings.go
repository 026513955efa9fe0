package hair

import (
	"fmt"
	"math"

	"github.com/drape3d/drape/verlet3d"
	"github.com/go-gl/mathgl/mgl32"
)

// Settings describe how a Hair is grown and how it moves. Start from
// DefaultSettings and change what you need; New rejects invalid values with
// an error naming the field.
type Settings struct {
	// Strands is the number of strands, >= 1. Each simulated strand stands
	// for a wisp of real hairs. Default 1200.
	Strands int
	// Segments is the number of segments (links) per strand, >= 1; a strand
	// has Segments+1 particles. Default 12.
	Segments int
	// Length is the longest strand's length in meters, in [1e-3, 100]. Default 0.22.
	Length float32
	// LengthVariation in [0, 1): each strand is shortened by a random
	// fraction up to this. Default 0.2.
	LengthVariation float32

	// CapAngle is the half-angle in radians, in (0, π], of the scalp cap
	// that roots cover, measured from the cap axis. Default 1.6.
	CapAngle float32
	// CapTilt tips the cap axis from the crown (+Y) toward the back of the
	// head (-Z) by this many radians, so the hairline sits above the
	// forehead while the nape is covered. Default 0.55.
	CapTilt float32
	// Parting is the sideways position of the parting in radians from the
	// head's midline, positive toward the head's left (+X). Hair in front of
	// the crown is combed away from it on both sides. Default 0.25.
	Parting float32
	// PartingWidth is the angular width in radians of the bare gap along
	// the parting, in [0, 0.5]. 0 leaves no gap. Default 0.05.
	PartingWidth float32
	// Lift in [0, 4] is how much strands rise off the scalp before falling:
	// the root direction is the comb direction plus Lift times the scalp
	// normal. More lift gives more volume. Default 0.4.
	Lift float32
	// Volume is the thickness in meters of the layer of hair over the
	// scalp in the rest shape; strands are laid at random depths in it.
	// Default 0.012.
	Volume float32

	// Iterations is the number of solver passes over every strand in each
	// substep of the World, 1..64, whatever the World's own
	// Config.Iterations: hair sharing a World with cloth (a cape it lies
	// on) keeps its own count, as Jolt gives each soft body its own. The
	// passes are spread over the World's iterations, the last on its last
	// one. Strands are solved root to tip and a follow-the-leader sweep
	// ends every substep, so few passes do: style keeping and XPBD bending
	// do not depend on the count. Default 3.
	Iterations int

	// Mass of one strand in kg, > 0, spread over its particles (the root
	// is pinned). Only matters against other bodies in the World. Default
	// 0.002.
	Mass float32
	// Radius is the collision radius of each hair particle in meters:
	// colliders keep particles this far out of their surface. Default
	// 0.002.
	Radius float32
	// StretchCompliance of the links between neighboring particles, in
	// m/N; 0 (default) is inextensible.
	StretchCompliance float32
	// BendCompliance of the links between every other particle, in m/N;
	// larger bends more easily. Hair particles are light (the default
	// strand of 2 g has 0.15 g particles), so useful values are large:
	// below about 1 the links are so stiff against the stretch links that
	// a few iterations leave strands zigzagging. Default 3.
	BendCompliance float32
	// FollowDamping in [0, 1] is the share of each follow-the-leader
	// correction taken off the parent particle's velocity (Müller et al.
	// 2012, "Fast Simulation of Inextensible Hair and Fur", whose
	// s_damping it is). The sweep that ends every substep moves a child
	// back to its segment length; left alone, that move becomes the
	// child's velocity and whips moving strands into zigzags (a head
	// running at 4 m/s frizzes). 0 turns the correction off. Default 1.
	// It acts only with StretchCompliance 0, the only case with a sweep.
	FollowDamping float32
	// StyleStiffness in [0, 1] is the fraction of the distance to the rest
	// shape (in the head's frame) removed per substep at the root. 0
	// turns style keeping off. Default 0.08.
	StyleStiffness float32
	// StyleTip in [0, 1] is the fraction of StyleStiffness left at the
	// tip; the stiffness fades as (1-t)² from root to tip in between.
	// Default 0.02.
	StyleTip float32
	// WindDrag is the air drag in 1/s: a segment moving through air at a
	// relative speed v, across its length, accelerates by WindDrag·v. It
	// damps swinging hair in still air and lets wind blow it, in [0, 100]. Default 1.5.
	WindDrag float32
	// HeadFriction in [0, 1] is the fraction of a strand particle's
	// sliding over the scalp (relative to the moving head) removed per
	// substep while it touches the head. Default 0.3.
	HeadFriction float32
	// CarryLinear in [0, 1] is the fraction of the head's motion (its
	// center's travel) that every strand particle takes directly each
	// substep, without it becoming the strand's own velocity: the hair's
	// inertia is 1 - CarryLinear, as with NvCloth's inertia scale. 0 is
	// pure physics; 1 moves the hair rigidly with the head. Default 0.3.
	CarryLinear float32
	// CarryAngular in [0, 1] is the same for the head's rotation about its
	// center. Default 0.3.
	CarryAngular float32
	// TeleportDistance in meters: when the head's center moves farther than
	// this in one step (a respawn, a cut in an animation, a long frame hitch
	// at a run) the strands move with it rigidly, keeping their shape and
	// velocity, as Teleport does. Default 0.5 (30 m/s at 60 steps a second).
	TeleportDistance float32
	// Group is the collision group bits of hair particles
	// (verlet3d.World.SetGroup), non-zero and not all bits. The head's
	// verlet3d.Sphere collider masks them out: the hair's own solver keeps
	// strands off the head, exactly and more cheaply. Default 1<<30.
	Group uint32
	// HeadMask is the collision group bits of the World's other particles
	// that the head's sphere collider stops (cloth blown over the head, a
	// hood); Group's bits never count. Default all bits; 0 stops none
	// (for a sphere that also encloses the neck, where it would push a cape
	// pinned at the shoulders off its pins).
	HeadMask uint32
	// Seed drives the per-strand variation (lengths, depths, color).
	// The same seed grows the same hair. Default 1.
	Seed uint64
	// Scalp, when not nil, is the scalp of a head that is not round: its
	// distance in meters from the head's center along a unit direction of
	// the head's frame (package scene/character fits one to a character's
	// head mesh). The roots sit on it and the rest shape lies over it
	// (each at least Head.Radius from the center: never inside the head
	// sphere), and the render roots of NewDense too. The head sphere
	// alone still keeps the moving strands out, so a sphere inside the
	// scalp lets them sink where the scalp stands above it, as far as
	// style keeping lets them. A value that is not finite, not positive
	// or above 100 m counts as Head.Radius. New calls it while it grows
	// the hair and NewDense while it places render roots, never during a
	// step. Default nil: the scalp is the sphere.
	Scalp func(dir mgl32.Vec3) float32
}

// WorldConfig returns verlet3d.DefaultConfig tuned for a World that holds
// hair: 2 substeps of 3 solver iterations instead of 10 of 2, and Damping
// 0.5 /s. Strands converge fast because they are solved root to tip, style
// keeping and XPBD bending do not depend on the iteration count, and a
// final follow-the-leader sweep removes any stretch left over, so small
// steps buy hair little and cost it five times the integration; the
// damping is the still air that settles a head of hair (wind and drag come
// on top through Settings.WindDrag).
func WorldConfig() verlet3d.Config {
	c := verlet3d.DefaultConfig()
	c.Substeps = 2
	c.Iterations = 3
	c.Damping = 0.5
	return c
}

// maxSegments is the most Segments a strand may have.
const maxSegments = 256

// maxIterations is the most Iterations a hair may have.
const maxIterations = 64

// DefaultSettings returns a shoulder-length side-parted style.
func DefaultSettings() Settings {
	return Settings{
		Strands:          1200,
		Segments:         12,
		Iterations:       3,
		Length:           0.22,
		LengthVariation:  0.2,
		CapAngle:         1.6,
		CapTilt:          0.55,
		Parting:          0.25,
		PartingWidth:     0.05,
		Lift:             0.4,
		Volume:           0.012,
		Mass:             0.002,
		Radius:           0.002,
		BendCompliance:   3,
		FollowDamping:    1,
		StyleStiffness:   0.08,
		StyleTip:         0.02,
		WindDrag:         1.5,
		HeadFriction:     0.3,
		CarryLinear:      0.3,
		CarryAngular:     0.3,
		TeleportDistance: 0.5,
		Group:            1 << 30,
		HeadMask:         math.MaxUint32,
		Seed:             1,
	}
}

// Validate reports the first invalid field, naming it and its value.
func (s Settings) Validate() error {
	type rng struct {
		name   string
		v      float32
		lo, hi float32
		loOpen bool
		unit   string
	}
	inf := float32(math.Inf(1))
	if s.Strands < 1 || s.Strands > 1<<20 {
		return fmt.Errorf("hair: Settings.Strands = %d, want 1..%d", s.Strands, 1<<20)
	}
	if s.Group == 0 || s.Group == math.MaxUint32 {
		return fmt.Errorf("hair: Settings.Group = %#x, want some bits but not all", s.Group)
	}
	if s.Segments < 1 || s.Segments > maxSegments {
		return fmt.Errorf("hair: Settings.Segments = %d, want 1..%d", s.Segments, maxSegments)
	}
	if s.Iterations < 1 || s.Iterations > maxIterations {
		return fmt.Errorf("hair: Settings.Iterations = %d, want 1..%d solver passes per substep", s.Iterations, maxIterations)
	}
	if n := int64(s.Strands) * int64(s.Segments+1); n > 1<<22 {
		return fmt.Errorf("hair: Settings.Strands x (Segments+1) = %d x %d = %d particles, want at most %d", s.Strands, s.Segments+1, n, 1<<22)
	}
	for _, r := range []rng{
		{"Length", s.Length, 1e-3, 100, false, "meters"},
		{"LengthVariation", s.LengthVariation, 0, 0.99, false, ""},
		{"CapAngle", s.CapAngle, 0, math.Pi, true, "radians"},
		{"CapTilt", s.CapTilt, -math.Pi, math.Pi, false, "radians"},
		{"Parting", s.Parting, -math.Pi / 2, math.Pi / 2, false, "radians"},
		{"PartingWidth", s.PartingWidth, 0, 0.5, false, "radians"},
		{"Lift", s.Lift, 0, 4, false, ""},
		{"Volume", s.Volume, 0, 100, false, "meters"},
		{"Mass", s.Mass, 1e-6, 1e9, false, "kg"},
		{"Radius", s.Radius, 0, 100, false, "meters"},
		{"StretchCompliance", s.StretchCompliance, 0, verlet3d.MaxCompliance, false, "m/N"},
		{"BendCompliance", s.BendCompliance, 0, verlet3d.MaxCompliance, false, "m/N"},
		{"FollowDamping", s.FollowDamping, 0, 1, false, ""},
		{"StyleStiffness", s.StyleStiffness, 0, 1, false, ""},
		{"StyleTip", s.StyleTip, 0, 1, false, ""},
		{"WindDrag", s.WindDrag, 0, 100, false, "1/s"},
		{"HeadFriction", s.HeadFriction, 0, 1, false, ""},
		{"CarryLinear", s.CarryLinear, 0, 1, false, ""},
		{"CarryAngular", s.CarryAngular, 0, 1, false, ""},
		{"TeleportDistance", s.TeleportDistance, 0, inf, true, "meters"},
	} {
		bad := !finite32(r.v) || r.v > r.hi || r.v < r.lo || (r.loOpen && r.v == r.lo)
		if !bad {
			continue
		}
		open := "["
		if r.loOpen {
			open = "("
		}
		unit := ""
		if r.unit != "" {
			unit = " " + r.unit
		}
		if math.IsInf(float64(r.hi), 1) {
			return fmt.Errorf("hair: Settings.%s = %v, want %s%g, ∞)%s", r.name, r.v, open, r.lo, unit)
		}
		return fmt.Errorf("hair: Settings.%s = %v, want %s%g, %g]%s", r.name, r.v, open, r.lo, r.hi, unit)
	}
	return nil
}
