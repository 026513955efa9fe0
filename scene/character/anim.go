package character

import (
	"fmt"
	"math"
	"sort"

	"github.com/g3n/engine/core"
	"github.com/g3n/engine/math32"
	"github.com/go-gl/mathgl/mgl32"
	"github.com/qmuntal/gltf"
)

// Clip is one glTF animation, sampled by drape rather than by g3n's
// animation package: translation, rotation and scale channels with STEP,
// LINEAR (spherical for rotations) and CUBICSPLINE interpolation. Any clock
// value is safe, including exactly the last keyframe, before the first, and
// a channel of one or two keyframes. Morph-target weights are not played.
type Clip struct {
	Name string
	// Duration is the time of the last keyframe, in seconds.
	Duration float64
	tracks   []track
}

type trsPath uint8

const (
	pathTranslation trsPath = iota
	pathRotation
	pathScale
)

type interp uint8

const (
	interpLinear interp = iota
	interpStep
	interpCubic
)

type track struct {
	target int        // glTF node index
	node   *core.Node // bound g3n node
	path   trsPath
	interp interp
	times  []float32
	// values: one per keyframe (three for CUBICSPLINE: in-tangent, value,
	// out-tangent), x y z (w) in the first 3 (4) components.
	values []mgl32.Vec4
}

// NumTracks returns the number of node channels the clip plays.
func (c *Clip) NumTracks() int { return len(c.tracks) }

// readClips converts the document's animations (already validated) into
// Clips; channels that cannot be played are skipped with a note.
func readClips(doc *gltf.Document) ([]*Clip, []string) {
	var clips []*Clip
	var notes []string
	weights := 0
	for ai, a := range doc.Animations {
		c := &Clip{Name: a.Name}
		if c.Name == "" {
			c.Name = fmt.Sprintf("animation %d", ai)
		}
		for ci, ch := range a.Channels {
			skip := func(why string) {
				notes = append(notes, fmt.Sprintf("animations[%d] (%s).channels[%d] skipped: %s", ai, c.Name, ci, why))
			}
			if ch.Target.Node == nil {
				continue
			}
			var t track
			t.target = *ch.Target.Node
			switch ch.Target.Path {
			case gltf.TRSTranslation:
				t.path = pathTranslation
			case gltf.TRSRotation:
				t.path = pathRotation
			case gltf.TRSScale:
				t.path = pathScale
			case gltf.TRSWeights:
				weights++
				continue
			default:
				skip("unknown path")
				continue
			}
			s := a.Samplers[ch.Sampler]
			switch s.Interpolation {
			case gltf.InterpolationStep:
				t.interp = interpStep
			case gltf.InterpolationCubicSpline:
				t.interp = interpCubic
			default:
				t.interp = interpLinear
			}
			in, err := readAccessor(doc, s.Input)
			if err != nil {
				skip(err.Error())
				continue
			}
			times, ok := in.([]float32)
			if !ok {
				skip(fmt.Sprintf("input accessor %d is not float scalars", s.Input))
				continue
			}
			bad := false
			for i, x := range times {
				if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) || x < 0 || (i > 0 && x < times[i-1]) {
					bad = true
					break
				}
			}
			if bad {
				skip(fmt.Sprintf("input accessor %d: keyframe times are not finite, >= 0 and increasing", s.Input))
				continue
			}
			out, err := readAccessor(doc, s.Output)
			if err != nil {
				skip(err.Error())
				continue
			}
			vals, err := toVec4s(out, doc.Accessors[s.Output].Normalized || t.path == pathRotation)
			if err != nil {
				skip(fmt.Sprintf("output accessor %d: %v", s.Output, err))
				continue
			}
			per := 1
			if t.interp == interpCubic {
				per = 3
			}
			if len(vals) != per*len(times) {
				skip(fmt.Sprintf("output accessor %d has %d values for %d keyframes", s.Output, len(vals), len(times)))
				continue
			}
			finite := true
			for _, v := range vals {
				for _, x := range v {
					if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
						finite = false
					}
				}
			}
			if !finite {
				skip("non-finite values")
				continue
			}
			t.times, t.values = times, vals
			c.tracks = append(c.tracks, t)
			c.Duration = max(c.Duration, float64(times[len(times)-1]))
		}
		clips = append(clips, c)
	}
	if weights > 0 {
		notes = append(notes, fmt.Sprintf("%d morph-target weights channels skipped (drape plays node transforms)", weights))
	}
	return clips, notes
}

// toVec4s converts an accessor's elements to Vec4s; integer components are
// normalized when norm is set (quantised rotations).
func toVec4s(data any, norm bool) ([]mgl32.Vec4, error) {
	var out []mgl32.Vec4
	switch d := data.(type) {
	case [][3]float32:
		out = make([]mgl32.Vec4, len(d))
		for i, v := range d {
			out[i] = mgl32.Vec4{v[0], v[1], v[2], 0}
		}
	case [][4]float32:
		out = make([]mgl32.Vec4, len(d))
		for i, v := range d {
			out[i] = mgl32.Vec4(v)
		}
	case [][4]int8:
		out = make([]mgl32.Vec4, len(d))
		for i, v := range d {
			for k := range v {
				out[i][k] = max(float32(v[k])/127, -1)
			}
		}
	case [][4]uint8:
		out = make([]mgl32.Vec4, len(d))
		for i, v := range d {
			for k := range v {
				out[i][k] = float32(v[k]) / 255
			}
		}
	case [][4]int16:
		out = make([]mgl32.Vec4, len(d))
		for i, v := range d {
			for k := range v {
				out[i][k] = max(float32(v[k])/32767, -1)
			}
		}
	case [][4]uint16:
		out = make([]mgl32.Vec4, len(d))
		for i, v := range d {
			for k := range v {
				out[i][k] = float32(v[k]) / 65535
			}
		}
	default:
		return nil, fmt.Errorf("element type %T is not a translation, rotation or scale", data)
	}
	_ = norm
	return out, nil
}

// bind attaches the tracks to the loaded nodes; tracks whose node is not in
// the scene are dropped.
func (c *Clip) bind(nodes []*core.Node) {
	keep := c.tracks[:0]
	for _, t := range c.tracks {
		if t.target < len(nodes) && nodes[t.target] != nil {
			t.node = nodes[t.target]
			keep = append(keep, t)
		}
	}
	c.tracks = keep
}

// Pose sets every animated node to the clip's pose at time t seconds; t is
// clamped to [0, Duration]. Call UpdateMatrixWorld afterwards. Keys are
// finite (Load skips a channel that is not), but finite keys near float32's
// range can still interpolate to an infinity or a NaN: such a sample is not
// applied, and its node keeps its last value.
func (c *Clip) Pose(t float64) { c.pose(t) }

// pose is Pose; it returns the number of samples it did not apply.
func (c *Clip) pose(t float64) (bad int) {
	if !(t >= 0) {
		t = 0
	}
	tt := float32(min(t, c.Duration))
	for i := range c.tracks {
		tr := &c.tracks[i]
		v := tr.sample(tt)
		if !finite4(v) {
			bad++
			continue
		}
		switch tr.path {
		case pathTranslation:
			tr.node.SetPosition(v[0], v[1], v[2])
		case pathScale:
			tr.node.SetScale(v[0], v[1], v[2])
		case pathRotation:
			q := mgl32.Quat{W: v[3], V: mgl32.Vec3{v[0], v[1], v[2]}}
			if l := q.Len(); l > 1e-6 {
				q = q.Scale(1 / l)
				tr.node.SetQuaternionQuat(&math32.Quaternion{X: q.V[0], Y: q.V[1], Z: q.V[2], W: q.W})
			}
		}
	}
	return bad
}

// finite4 reports whether every component of v is a finite number.
func finite4(v mgl32.Vec4) bool {
	for _, x := range v {
		if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
			return false
		}
	}
	return true
}

// sample returns the track's value at time t.
func (tr *track) sample(t float32) mgl32.Vec4 {
	n := len(tr.times)
	per := 1
	if tr.interp == interpCubic {
		per = 3
	}
	value := func(k int) mgl32.Vec4 { return tr.values[k*per+per/2] }
	if n == 1 || t <= tr.times[0] {
		return value(0)
	}
	if t >= tr.times[n-1] {
		return value(n - 1)
	}
	// k: the last keyframe at or before t, k+1 < n.
	k := sort.Search(n, func(i int) bool { return tr.times[i] > t }) - 1
	k = max(0, min(k, n-2))
	t0, t1 := tr.times[k], tr.times[k+1]
	dt := t1 - t0
	if !(dt > 0) || tr.interp == interpStep {
		return value(k)
	}
	s := (t - t0) / dt
	a, b := value(k), value(k+1)
	switch tr.interp {
	case interpCubic:
		s2, s3 := s*s, s*s*s
		out := tr.values[k*3+2].Mul(dt)  // out-tangent of k
		in := tr.values[(k+1)*3].Mul(dt) // in-tangent of k+1
		return a.Mul(2*s3 - 3*s2 + 1).Add(out.Mul(s3 - 2*s2 + s)).Add(b.Mul(-2*s3 + 3*s2)).Add(in.Mul(s3 - s2))
	}
	if tr.path == pathRotation {
		qa := mgl32.Quat{W: a[3], V: a.Vec3()}
		qb := mgl32.Quat{W: b[3], V: b.Vec3()}
		if qa.Dot(qb) < 0 {
			qb = qb.Scale(-1)
		}
		q := slerp(qa, qb, s)
		return mgl32.Vec4{q.V[0], q.V[1], q.V[2], q.W}
	}
	return a.Add(b.Sub(a).Mul(s))
}

// slerp interpolates unit quaternions on the shorter arc (a.b >= 0),
// falling back to a normalized lerp when they are nearly equal.
func slerp(a, b mgl32.Quat, s float32) mgl32.Quat {
	d := float64(a.Dot(b))
	if d > 0.9995 {
		return a.Add(b.Sub(a).Scale(s)).Normalize()
	}
	th := math.Acos(math.Min(1, d))
	sin := math.Sin(th)
	wa := float32(math.Sin((1-float64(s))*th) / sin)
	wb := float32(math.Sin(float64(s)*th) / sin)
	return a.Scale(wa).Add(b.Scale(wb))
}

// Player plays a Clip on a clock kept in float64 seconds and wrapped to the
// clip's length, so hours of play lose no precision. CrossFade switches
// clips smoothly.
type Player struct {
	clip *Clip
	// The clip faded out: its clock, and the fade's length and time left.
	from           *Clip
	fromTime       float64
	fade, fadeLeft float64
	saved          []savedTRS
	// Time is the clock in seconds, in [0, Duration].
	Time float64
	// Speed multiplies dt. 1 plays at the authored rate.
	Speed float64
	// Loop wraps the clock; without it the clip holds its last pose.
	Loop bool
	// bad counts the samples not applied (see Clip.Pose).
	bad int
}

// NumBadSamples returns how many samples Update did not apply because they
// were not finite (see Clip.Pose): their nodes kept their last value.
func (p *Player) NumBadSamples() int { return p.bad }

// NewPlayer returns a looping player of c at speed 1, at time 0.
func NewPlayer(c *Clip) *Player { return &Player{clip: c, Speed: 1, Loop: true} }

// Clip returns the clip being played.
func (p *Player) Clip() *Clip { return p.clip }

type savedTRS struct {
	node  *core.Node
	pos   math32.Vector3
	quat  math32.Quaternion
	scale math32.Vector3
}

// CrossFade switches to c from its start, blending from the current clip
// (which keeps playing) over fade seconds. A fade of 0 switches at once.
func (p *Player) CrossFade(c *Clip, fade float64) {
	if p.clip != nil && fade > 0 && !math.IsInf(fade, 0) {
		p.from, p.fromTime, p.fade, p.fadeLeft = p.clip, p.Time, fade, fade
	} else {
		p.from = nil
	}
	p.clip, p.Time = c, 0
}

// advance moves a clock by step seconds on clip c.
func (p *Player) advance(t, step float64, c *Clip) float64 {
	t += step
	d := c.Duration
	switch {
	case d <= 0:
		return 0
	case p.Loop && t > d:
		return math.Mod(t, d)
	case t > d:
		return d
	}
	return t
}

// Update advances the clock by dt seconds (non-finite or negative dt is
// ignored) and poses the nodes.
func (p *Player) Update(dt float32) {
	if p.clip == nil {
		return
	}
	step := float64(dt) * p.Speed
	if !(step >= 0) || math.IsInf(step, 0) {
		step = 0
	}
	p.Time = p.advance(p.Time, step, p.clip)
	if p.from == nil {
		p.bad += p.clip.pose(p.Time)
		return
	}
	// Fading: pose the old clip, keep its transforms, pose the new one and
	// blend towards it.
	p.fromTime = p.advance(p.fromTime, step, p.from)
	p.fadeLeft -= step
	p.bad += p.from.pose(p.fromTime)
	p.saved = p.saved[:0]
	for _, c := range []*Clip{p.from, p.clip} {
		for i := range c.tracks {
			n := c.tracks[i].node
			p.saved = append(p.saved, savedTRS{node: n, pos: n.Position(), quat: n.Quaternion(), scale: n.Scale()})
		}
	}
	p.bad += p.clip.pose(p.Time)
	w := float32(1 - p.fadeLeft/p.fade)
	if p.fadeLeft <= 0 {
		p.from, w = nil, 1
	}
	for i := range p.saved {
		s := &p.saved[i]
		pos, sc, q := s.node.Position(), s.node.Scale(), s.node.Quaternion()
		pos.Lerp(&s.pos, 1-w)
		sc.Lerp(&s.scale, 1-w)
		a := mgl32.Quat{W: s.quat.W, V: mgl32.Vec3{s.quat.X, s.quat.Y, s.quat.Z}}
		b := mgl32.Quat{W: q.W, V: mgl32.Vec3{q.X, q.Y, q.Z}}
		if a.Dot(b) < 0 {
			b = b.Scale(-1)
		}
		r := slerp(a.Normalize(), b.Normalize(), w)
		s.node.SetPositionVec(&pos)
		s.node.SetScaleVec(&sc)
		s.node.SetQuaternionQuat(&math32.Quaternion{X: r.V[0], Y: r.V[1], Z: r.V[2], W: r.W})
	}
}
