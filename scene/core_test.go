package scene

import (
	"github.com/drape3d/drape/internal/vecmath"
	"math"
	"testing"

	"github.com/drape3d/drape/bodies"
	"github.com/drape3d/drape/cloth"
	"github.com/drape3d/drape/hair"
	"github.com/drape3d/drape/verlet3d"
	"github.com/g3n/engine/core"
	"github.com/g3n/engine/math32"
	"github.com/go-gl/mathgl/mgl32"
)

// mixedWorld is one World holding what a game puts in it at once: a flag
// in gusty wind with self-collision, a head of hair that turns, cubes on a
// floor and a sphere collider that follows a moving node.
type mixedWorld struct {
	w    *verlet3d.World
	h    *hair.Hair
	f    *Follower
	node *core.Node
	ball *verlet3d.Sphere
}

func newMixedWorld(t testing.TB, workers int) *mixedWorld {
	t.Helper()
	w := newTestWorld(t, func(c *verlet3d.Config) { c.Workers = workers })
	floor, err := verlet3d.NewPlane(mgl32.Vec3{}, mgl32.Vec3{0, 1, 0})
	if err != nil {
		t.Fatal(err)
	}
	if err := w.AddCollider(floor, verlet3d.ContactSettings{Friction: 0.5}); err != nil {
		t.Fatal(err)
	}
	cs := cloth.DefaultSettings()
	// Over 2,048 links, so that the World's link passes are shared by
	// the workers (in regions; smaller link sets' color batches are not
	// worth a barrier each).
	cs.Cols, cs.Rows, cs.Spacing = 48, 36, 0.021
	cs.Origin = mgl32.Vec3{-0.5, 1.5, 0.5}
	cs.PinCols = []int{0}
	g, err := cloth.New(w, cs)
	if err != nil {
		t.Fatal(err)
	}
	ws := cloth.DefaultWindSettings()
	ws.Air = verlet3d.Wind{Steady: mgl32.Vec3{4, 0, 1}, Gust: 0.5, GustPeriod: 2, Turbulence: 1, TurbulenceScale: 0.5}
	if _, err := cloth.NewWindForce(g, ws); err != nil {
		t.Fatal(err)
	}
	if _, err := cloth.NewSelfCollision(g, 0.02); err != nil {
		t.Fatal(err)
	}
	head := hair.DefaultHead()
	head.Center = mgl32.Vec3{1, 1.6, 0}
	hs := hair.DefaultSettings()
	hs.Strands, hs.Segments = 120, 10
	h, err := hair.New(w, head, hs)
	if err != nil {
		t.Fatal(err)
	}
	if err := h.SetWind(ws.Air); err != nil {
		t.Fatal(err)
	}
	sys, err := bodies.NewSystem(w, bodies.DefaultSettings())
	if err != nil {
		t.Fatal(err)
	}
	if err := sys.AddCollider(floor, verlet3d.ContactSettings{Friction: 0.6}); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 4; i++ {
		if _, err := sys.AddCube(bodies.CubeSettings{Size: 0.3, Mass: 2, Position: mgl32.Vec3{-1, 0.2 + float32(0.35*float32(i)), float32(0.05 * float32(i))}}); err != nil {
			t.Fatal(err)
		}
	}
	node := core.NewNode()
	node.SetPosition(0, 0.8, 0.8)
	node.UpdateMatrixWorld()
	f := NewFollower(w)
	ball, err := f.AddSphere(node, math32.Vector3{}, 0.2, verlet3d.ContactSettings{Friction: 0.3})
	if err != nil {
		t.Fatal(err)
	}
	return &mixedWorld{w: w, h: h, f: f, node: node, ball: ball}
}

// frame moves the node and the head for frame i and advances one frame.
func (m *mixedWorld) frame(t testing.TB, i int) {
	tm := float64(i) / 60
	m.node.SetPosition(float32(0.3*math.Sin(tm)), 0.8, 0.8)
	m.node.UpdateMatrixWorld()
	m.f.Sync()
	if err := m.h.SetHead(mgl32.Vec3{1, 1.6, 0}, vecmath.QuatAxisAngle(float32(0.6*math.Sin(float64(3*tm))), mgl32.Vec3{0, 1, 0})); err != nil {
		t.Fatal(err)
	}
	m.w.Advance(1.0 / 60)
}

// recorder is a hook that checks the Substep context it is told in every
// phase, and where the Follower's sphere is when forces are applied.
type recorder struct {
	t           testing.TB
	w           *verlet3d.World
	ball        *verlet3d.Sphere
	from, to    mgl32.Vec3 // the ball's blend for this step
	next        int        // substep index expected next
	applies     int
	prepares    int
	solves      int
	finishes    int
	worstTime   float64
	worstCenter float32
}

func (r *recorder) Apply(w *verlet3d.World, s verlet3d.Substep) {
	r.applies++
	if s.Index != r.next || s.Count != w.Config().Substeps {
		r.t.Fatalf("substep %d of %d, want %d", s.Index, s.Count, r.next)
	}
	cfg := w.Config()
	wantTime := w.Time() + float64(s.Index)*float64(cfg.TimeStep)/float64(cfg.Substeps)
	r.worstTime = math.Max(r.worstTime, math.Abs(s.Time-wantTime))
	if want := float32(s.Index+1) / float32(s.Count); s.Frac != want {
		r.t.Fatalf("substep %d: Frac %v, want %v", s.Index, s.Frac, want)
	}
	// The Follower's hook ran before this one: its sphere is at the
	// substep's fraction of the way to the synced pose.
	want := r.from.Add(vecmath.Scale(r.to.Sub(r.from), s.Frac))
	r.worstCenter = max(r.worstCenter, vecmath.Len(r.ball.Center.Sub(want)))
}

func (r *recorder) Prepare(_ *verlet3d.World, s verlet3d.Substep) {
	r.prepares++
	if s.Index != r.next {
		r.t.Fatalf("Prepare in substep %d, want %d", s.Index, r.next)
	}
}

func (r *recorder) Solve(_ *verlet3d.World, s verlet3d.Substep) {
	r.solves++
	if s.Index != r.next || s.Iteration < 0 || s.Iteration >= s.Iterations {
		r.t.Fatalf("Solve in substep %d iteration %d, want substep %d", s.Index, s.Iteration, r.next)
	}
}

func (r *recorder) Finish(_ *verlet3d.World, s verlet3d.Substep) {
	r.finishes++
	if s.Index != r.next {
		r.t.Fatalf("Finish in substep %d, want %d", s.Index, r.next)
	}
	r.next = (r.next + 1) % s.Count
}

// Past 12 hours of simulated play every hook is told every substep exactly
// once, with the right index, fraction and time (a float32 clock would be
// off by one substep in ten by then), and a followed collider is blended at
// the right fraction; cloth, hair and cubes stay finite.
func TestHooksAfterTwelveHours(t *testing.T) {
	m := newMixedWorld(t, 1)
	if err := m.w.SetTime(12*3600 + 0.37); err != nil {
		t.Fatal(err)
	}
	r := &recorder{t: t, w: m.w, ball: m.ball}
	m.w.AddForceField(r)
	m.w.AddConstraintSet(r)
	const frames = 240
	for i := 0; i < frames; i++ {
		r.from = m.ball.Center
		tm := float64(i) / 60
		r.to = mgl32.Vec3{float32(0.3 * math.Sin(tm)), 0.8, 0.8}
		m.frame(t, i)
	}
	cfg := m.w.Config()
	n := frames * cfg.Substeps
	if r.applies != n || r.prepares != n || r.finishes != n || r.solves != n*cfg.Iterations {
		t.Errorf("hooks ran %d/%d/%d/%d times, want %d each (solve %d)", r.applies, r.prepares, r.solves, r.finishes, n, n*cfg.Iterations)
	}
	t.Logf("after 12 h: worst substep time error %.3g s, worst collider blend error %.3g m", r.worstTime, r.worstCenter)
	if r.worstTime > 1e-9 {
		t.Errorf("substep time off by %.3g s", r.worstTime)
	}
	if r.worstCenter > 1e-6 {
		t.Errorf("followed sphere off its blended pose by %.3g m", r.worstCenter)
	}
	if st := m.w.Stats(); st.NonFiniteResets != 0 || m.h.NumRecovered() != 0 {
		t.Errorf("%d non-finite resets, %d hair recoveries", st.NonFiniteResets, m.h.NumRecovered())
	}
}

// Cloth, hair, cubes and a follower in one World give bit-identical
// positions on 1, 2 and 4 workers, and the parallel paths really ran.
func TestMixedWorldDeterministic(t *testing.T) {
	run := func(workers int) []mgl32.Vec3 {
		m := newMixedWorld(t, workers)
		for i := 0; i < 150; i++ {
			m.frame(t, i)
		}
		if st := m.w.Stats(); workers > 1 && (st.ParallelLinkPasses == 0 || st.ParallelJobs == 0) {
			t.Fatalf("%d workers: %d parallel link passes, %d parallel jobs", workers, st.ParallelLinkPasses, st.ParallelJobs)
		}
		return append([]mgl32.Vec3(nil), m.w.Positions()...)
	}
	a := run(1)
	for _, workers := range []int{2, 4} {
		b := run(workers)
		for i := range a {
			if a[i] != b[i] {
				t.Fatalf("particle %d: %v with 1 worker, %v with %d", i, a[i], b[i], workers)
			}
		}
	}
}
