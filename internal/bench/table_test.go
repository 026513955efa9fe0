package bench_test

import (
	"flag"
	"fmt"
	"math"
	"math/rand"
	"os"
	"regexp"
	"runtime"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/drape3d/drape/bodies"
	"github.com/drape3d/drape/cloth"
	"github.com/drape3d/drape/hair"
	"github.com/drape3d/drape/internal/checks"
	"github.com/drape3d/drape/internal/draped"
	"github.com/drape3d/drape/internal/simd"
	"github.com/drape3d/drape/verlet3d"
	"github.com/go-gl/mathgl/mgl32"
)

var table = flag.Bool("table", false, "time every scene and print the benchmark table (make bench)")

var only = flag.String("only", "", "with -table, time only the scenes whose names match this regular expression")

// scene is one benchmark scene built for a worker count: frame runs one
// 1/60 s frame of it.
type scene struct {
	w           *verlet3d.World
	also        *verlet3d.World // a second World the frame steps too (nil: none)
	frame       func()
	constraints int            // per solver pass
	cubes       *bodies.System // the cubes scene's System
}

// close closes the scene's Worlds.
func (sc scene) close() {
	sc.w.Close()
	if sc.also != nil {
		sc.also.Close()
	}
}

type spec struct {
	name   string
	frames int // timed frames after warm-up
	warm   int // frames before timing
	build  func(t testing.TB, workers int) scene
}

// tableRuns is how many times TestTable times each scene on each worker
// count. The machine's speed drifts within a minute (the second vCPU comes
// and goes), so one run can catch a slow spell; the median of the runs'
// medians is what the scene costs, as the baseline's is.
const tableRuns = 3

// tableSpecs returns the table's scenes, in its order.
func tableSpecs() []spec {
	return []spec{
		{"cloth64", 120, 30, func(t testing.TB, w int) scene { return clothScene(t, w, 10, 1) }},
		{"cloth64default", 120, 30, func(t testing.TB, w int) scene { return clothScene(t, w, 0, 0) }},
		{"hair2000", 120, 30, hairScene},
		{"cubes100", 120, 0, cubesScene},
		{"boxes100", 120, 60, func(t testing.TB, w int) scene { return boxesScene(t, w, false) }},
		{"boxes100sleep", 120, 60, func(t testing.TB, w int) scene { return boxesScene(t, w, true) }},
		{"crates_cloth", 120, 300, cratesClothScene},
		{"crates_cloth_rest", 120, 900, cratesClothScene},
		{"cape", 240, 60, capeScene},
		{"resting", 120, 3000, restingScene},
		{"showcase_before", 120, 60, func(t testing.TB, w int) scene { return showcaseScene(t, w, showcaseBefore) }},
		{"showcase", 120, 60, func(t testing.TB, w int) scene { return showcaseScene(t, w, showcaseAfter) }},
		{"walker_1world", 120, 60, func(t testing.TB, w int) scene { return showcaseScene(t, w, walkerOneWorld) }},
		{"walker_2worlds", 120, 60, walkerTwoWorlds},
	}
}

// TestTable prints the benchmark table and BENCH lines, timed from a
// goroutine locked to its OS thread, as a g3n game calls Step. Each scene is
// built afresh for 1 and 2 workers, run warm frames, then timed frame by
// frame; a run's figure is its median frame. This is done tableRuns
// times, 1 and 2 workers alternating (which goes first alternates too),
// and the table gives the median of the runs' figures, with their range
// below it. The baseline (the plain naive loop, 1 integration and 10
// passes on 64 x 64, median of 5 runs' medians) is timed in the same
// run, before and after the scenes, and its faster figure kept.
func TestTable(t *testing.T) {
	if !*table {
		t.Skip("run with -table (make bench)")
	}
	// As in a g3n game, whose main goroutine (which calls Step) g3n locks
	// to its OS thread for OpenGL: a parallel step that does well only
	// unlocked (the dispatcher yielding its thread while it waited made 2
	// workers slower than 1 there) must show here.
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	specs := tableSpecs()
	baseline := naiveMedian()
	type row struct {
		name                   string
		particles, cons, s, it int
		ms1, ms2, allocs       float64
		portable               float64   // 1 worker, the kernels off: the portable loops arm64 runs
		runsP                  []float64 // each run's median frame with the kernels off, sorted
		refP                   float64   // portable over the reference loop timed beside it: the median of the runs'
		runsRefP               []float64 // each run's portable over its reference, sorted
		runs1, runs2           []float64 // each run's median frame, sorted
		probes                 []probe   // probeSecondVCPU before each run
	}
	var rows []row
	keep := regexp.MustCompile(*only)
	for _, sp := range specs {
		if !keep.MatchString(sp.name) {
			continue
		}
		var r row
		r.name = sp.name
		for run := 0; run < tableRuns; run++ {
			order := []int{1, 2}
			if run%2 == 1 {
				order = []int{2, 1}
			}
			r.probes = append(r.probes, probeSecondVCPU())
			for _, workers := range order {
				sc := sp.build(t, workers)
				for i := 0; i < sp.warm; i++ {
					sc.frame()
				}
				ms, allocs := timeFrames(sc.frame, sp.frames)
				cfg := sc.w.Config()
				r.particles, r.cons, r.s, r.it = sc.w.NumParticles(), sc.constraints, cfg.Substeps, cfg.Iterations
				if sc.also != nil {
					r.particles += sc.also.NumParticles()
				}
				if workers == 1 {
					r.runs1 = append(r.runs1, ms)
					r.allocs = max(r.allocs, allocs)
				} else {
					r.runs2 = append(r.runs2, ms)
				}
				sc.close()
			}
			// Once more on 1 worker with the kernels off (the portable
			// loops -tags purego and arm64 run), for the portable column,
			// between two timings of the reference loop: the machine's
			// speed drifts (a vCPU slows for a while), and the ratio to
			// the reference timed beside the scene compares the two in the
			// same spell. A slow spell still slows the scenes more than the
			// reference, whose data is less than half of cloth64's.
			refBefore := naiveRun()
			simd.SetKernels(false)
			sc := sp.build(t, 1)
			for i := 0; i < sp.warm; i++ {
				sc.frame()
			}
			ms, _ := timeFrames(sc.frame, sp.frames)
			r.runsP = append(r.runsP, ms)
			sc.close()
			simd.SetKernels(true)
			r.runsRefP = append(r.runsRefP, ms/((refBefore+naiveRun())/2))
		}
		sort.Float64s(r.runsP)
		r.portable = r.runsP[len(r.runsP)/2]
		sort.Float64s(r.runsRefP)
		r.refP = r.runsRefP[len(r.runsRefP)/2]
		sort.Float64s(r.runs1)
		sort.Float64s(r.runs2)
		r.ms1, r.ms2 = r.runs1[len(r.runs1)/2], r.runs2[len(r.runs2)/2]
		rows = append(rows, r)
	}
	baseline = math.Min(baseline, naiveMedian())

	var b strings.Builder
	fmt.Fprintf(&b, "machine: %s, %d CPUs, %s\n", cpuName(), runtime.NumCPU(), runtime.Version())
	fmt.Fprintf(&b, "baseline (plain naive loop, 64x64, 1 x 10 passes, median frame): %.3f ms\n\n", baseline)
	fmt.Fprintf(&b, "| scene | particles | constraints | substeps x iterations | ms/frame (1 worker) | ns per constraint pass | allocs/frame | x baseline | ms/frame (2 workers) | 2-worker speed-up | ms/frame portable (1 worker, kernels off) | portable / kernels | portable x reference beside it |\n")
	fmt.Fprintf(&b, "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n")
	for _, r := range rows {
		ns := r.ms1 * 1e6 / float64(max(1, r.cons*r.s*r.it))
		fmt.Fprintf(&b, "| %s | %d | %d | %d x %d | %.3f | %.2f | %.0f | %.2f | %.3f | %.2fx | %.3f | %.2fx | %.3f |\n",
			r.name, r.particles, r.cons, r.s, r.it, r.ms1, ns, r.allocs, r.ms1/baseline, r.ms2, r.ms1/r.ms2, r.portable, r.portable/r.ms1, r.refP)
	}
	fmt.Fprintf(&b, "\nRange of the %d runs' median frames, ms (1 worker; 2 workers; portable), and of the portable runs over the reference timed beside each:\n", tableRuns)
	for _, r := range rows {
		fmt.Fprintf(&b, "- %s: %.3f-%.3f; %.3f-%.3f; %.3f-%.3f; %.3f-%.3f\n", r.name, r.runs1[0], r.runs1[len(r.runs1)-1], r.runs2[0], r.runs2[len(r.runs2)-1], r.runsP[0], r.runsP[len(r.runsP)-1], r.runsRefP[0], r.runsRefP[len(r.runsRefP)-1])
	}
	fmt.Fprintf(&b, "\nThe two vCPUs before each run (probeSecondVCPU): a cache line's round trip between them, ns; a job of private work split between two goroutines, ns an item: the first's, the second's first %d, its others. A short round trip marks a spell where 2 workers gain most, and items much slower on one goroutine than on the other one where a vCPU runs slower and they gain least (probe_test.go):\n", probeFirst)
	for _, r := range rows {
		fmt.Fprintf(&b, "- %s:", r.name)
		for k, p := range r.probes {
			sep := ";"
			if k == 0 {
				sep = ""
			}
			fmt.Fprintf(&b, "%s %.0f ns, %.0f/%.0f/%.0f", sep, p.roundTrip, p.one, p.first, p.rest)
		}
		b.WriteString("\n")
	}
	b.WriteString("\n")
	for _, r := range rows {
		fmt.Fprintf(&b, "BENCH %s ms=%.3f baseline_ms=%.3f w2_ratio=%.2f allocs=%.0f purego_ms=%.3f purego_ratio=%.2f purego_x_reference=%.3f\n", r.name, r.ms1, baseline, r.ms1/r.ms2, r.allocs, r.portable, r.portable/r.ms1, r.refP)
	}
	fmt.Print(b.String())
}

var defaults = flag.Bool("defaults", false, "time the scenes at the old and new defaults (issue 12)")

// TestDefaultsCost prints the cost per frame of cloth 64 x 64, the cape,
// 100 cubes and hair 2,000 x 16 at the defaults before issue 12 and at
// today's, in one run, 1 worker (hair keeps hair.WorldConfig).
func TestDefaultsCost(t *testing.T) {
	if !*defaults {
		t.Skip("run with -defaults")
	}
	for _, sp := range []spec{
		{"cloth64", 120, 30, func(t testing.TB, w int) scene { return clothScene(t, w, 0, 0) }},
		{"cape", 240, 60, capeScene},
		{"cubes100", 120, 0, cubesScene},
		{"hair2000", 120, 30, hairScene},
	} {
		var ms [2]float64
		for k, old := range []bool{true, false} {
			oldDefaults = old
			sc := sp.build(t, 1)
			for i := 0; i < sp.warm; i++ {
				sc.frame()
			}
			ms[k], _ = timeFrames(sc.frame, sp.frames)
			sc.w.Close()
		}
		oldDefaults = false
		fmt.Printf("DEFAULTS %s old_ms=%.3f new_ms=%.3f ratio=%.2f\n", sp.name, ms[0], ms[1], ms[1]/ms[0])
	}
}

var gaps = flag.Bool("gaps", false, "time 1 and 2 workers with a game's pause between frames")

// workerSpin, when > 0, is the scenes' Config.WorkerSpin (TestFrameGaps).
var workerSpin float32

// TestFrameGaps prints the cost of a frame of cloth64, hair2000 and
// cubes100 on 1 and 2 workers when, as in a game, each frame is followed
// by 8 ms of something else (rendering; here a sleep), stepped from a
// goroutine locked to its OS thread as g3n's main goroutine is. Between
// frames the workers sleep, and the first job of a frame wakes them. On a
// 2-vCPU virtual machine that can cost as much as the second worker gives
// or more: the guest kernel, which sees no cache shared by the vCPUs,
// tends to wake the worker's thread on the caller's vCPU, where the two
// take turns. Each line also times 2 workers kept awake between frames
// (Config.WorkerSpin 20 ms). BENCHMARKS.md gives the figures.
func TestFrameGaps(t *testing.T) {
	if !*gaps {
		t.Skip("run with -gaps")
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	for _, sp := range tableSpecs() {
		if sp.name != "cloth64" && sp.name != "hair2000" && sp.name != "cubes100" {
			continue
		}
		// 1 worker, 2, and 2 kept awake between frames (WorkerSpin).
		var ms [3]float64
		for k, workers := range []int{1, 2, 2} {
			workerSpin = 0
			if k == 2 {
				workerSpin = 0.02
			}
			sc := sp.build(t, workers)
			for i := 0; i < sp.warm; i++ {
				sc.frame()
			}
			ms[k], _ = timePausedFrames(sc.frame, sp.frames, 8*time.Millisecond)
			sc.w.Close()
		}
		workerSpin = 0
		fmt.Printf("GAPS %s ms=%.3f w2_ms=%.3f w2_ratio=%.2f w2_spin_ms=%.3f w2_spin_ratio=%.2f\n", sp.name, ms[0], ms[1], ms[0]/ms[1], ms[2], ms[0]/ms[2])
	}
}

// timeFrames runs frame n times and returns the median frame in ms and
// the heap allocations per frame.
func timeFrames(frame func(), n int) (ms, allocs float64) {
	return timePausedFrames(frame, n, 0)
}

// timePausedFrames is timeFrames with a pause before each frame, not
// timed.
func timePausedFrames(frame func(), n int, pause time.Duration) (ms, allocs float64) {
	ts := make([]float64, n)
	var m0, m1 runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&m0)
	for i := range ts {
		if pause > 0 {
			time.Sleep(pause)
		}
		start := time.Now()
		frame()
		ts[i] = float64(time.Since(start).Nanoseconds()) / 1e6
	}
	runtime.ReadMemStats(&m1)
	sort.Float64s(ts)
	return ts[n/2], float64(m1.Mallocs-m0.Mallocs) / float64(n)
}

// naiveMedian times the plain loop as the shared reference does: 5
// repetitions of 30 warm-up and 120 timed frames; the median of the
// per-repetition medians.
func naiveMedian() float64 {
	var meds []float64
	for r := 0; r < 5; r++ {
		meds = append(meds, naiveRun())
	}
	sort.Float64s(meds)
	return meds[len(meds)/2]
}

// naiveRun is one repetition of naiveMedian: the median of 120 frames of
// the plain loop after 30 warm-up frames, in ms.
func naiveRun() float64 {
	c := checks.NewNaiveGrid(64)
	for i := 0; i < 30; i++ {
		c.Frame(1.0/60, 10)
	}
	ms, _ := timeFrames(func() { c.Frame(1.0/60, 10) }, 120)
	return ms
}

func cpuName() string {
	b, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		return runtime.GOARCH
	}
	for _, l := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(l, "model name") {
			if i := strings.Index(l, ":"); i >= 0 {
				return strings.TrimSpace(l[i+1:])
			}
		}
	}
	return runtime.GOARCH
}

// oldDefaults makes newWorld use the defaults before issue 12 (2 substeps
// of 10 iterations, Damping 0.5, MaxSpeed 50, no sleeping).
var oldDefaults bool

func newWorld(t testing.TB, workers, substeps, iterations int, edit ...func(*verlet3d.Config)) *verlet3d.World {
	cfg := verlet3d.DefaultConfig()
	for _, e := range edit {
		e(&cfg)
	}
	if oldDefaults {
		cfg.Substeps, cfg.Iterations, cfg.Damping, cfg.MaxSpeed, cfg.SleepSpeed = 2, 10, 0.5, 50, 0
	}
	cfg.Workers = workers
	if workerSpin > 0 {
		cfg.WorkerSpin = workerSpin
	}
	if substeps > 0 {
		cfg.Substeps, cfg.Iterations = substeps, iterations
	}
	w, err := verlet3d.NewWorld(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return w
}

// settle opts a scene into Config.SettleDamping 3, as the demo's cubes
// scene does (draped.Config), so it sleeps once it rests.
func settle(c *verlet3d.Config) { c.SettleDamping = 3 }

// clothScene is the reference cloth (64 x 64, 4 m wide, top row pinned,
// structural, shear and distance-2 bend links of compliance 1e-5) falling
// from horizontal; substeps 0 means DefaultConfig.
func clothScene(t testing.TB, workers, substeps, iterations int) scene {
	w := newWorld(t, workers, substeps, iterations)
	if err := checks.NewNaiveGrid(64).Build(w, verlet3d.LinkSettings{Compliance: 1e-5}); err != nil {
		t.Fatal(err)
	}
	return scene{w: w, frame: w.Step, constraints: w.NumLinks()}
}

// hairScene is 2,000 strands of 16 segments on a turning head, at
// hair.WorldConfig.
func hairScene(t testing.TB, workers int) scene {
	cfg := hair.WorldConfig()
	cfg.Workers = workers
	if workerSpin > 0 {
		cfg.WorkerSpin = workerSpin
	}
	w, err := verlet3d.NewWorld(cfg)
	if err != nil {
		t.Fatal(err)
	}
	s := hair.DefaultSettings()
	s.Strands, s.Segments = 2000, 16
	h, err := hair.New(w, hair.DefaultHead(), s)
	if err != nil {
		t.Fatal(err)
	}
	c := h.Head().Center
	i := 0
	return scene{w: w, constraints: 2 * s.Strands * s.Segments, frame: func() {
		h.SetHead(c, mgl32.QuatRotate(0.5*float32(i%120)/120, mgl32.Vec3{0, 1, 0}))
		w.Step()
		i++
	}}
}

// cubesScene is 100 particle cubes (bodies.ParticleEngine) of 0.4 m
// dropped turning and thrown onto a floor: the timed frames are the two
// seconds of landing and tumbling.
func cubesScene(t testing.TB, workers int) scene {
	w := newWorld(t, workers, 0, 0)
	set := bodies.DefaultSettings()
	set.Engine = bodies.ParticleEngine
	sys, err := bodies.NewSystem(w, set)
	if err != nil {
		t.Fatal(err)
	}
	floor, _ := verlet3d.NewPlane(mgl32.Vec3{}, mgl32.Vec3{0, 1, 0})
	if err := sys.AddCollider(floor, verlet3d.ContactSettings{Friction: 0.6}); err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewSource(7))
	for i := 0; i < 100; i++ {
		x, z := float32(i%10)-5, float32(i/10)-5
		q := mgl32.QuatRotate(r.Float32()*6.28, mgl32.Vec3{r.Float32() - 0.5, r.Float32() - 0.5, r.Float32() - 0.5}.Normalize())
		if _, err := sys.AddCube(bodies.CubeSettings{
			Size: 0.4, Mass: 1,
			Position:        mgl32.Vec3{x * 0.7, 0.5 + 1.5*r.Float32(), z * 0.7},
			Rotation:        q,
			Velocity:        mgl32.Vec3{r.Float32() - 0.5, 0, r.Float32() - 0.5}.Mul(2),
			AngularVelocity: mgl32.Vec3{r.Float32() - 0.5, r.Float32() - 0.5, r.Float32() - 0.5}.Mul(6),
		}); err != nil {
			t.Fatal(err)
		}
	}
	return scene{w: w, frame: w.Step, constraints: w.NumLinks(), cubes: sys}
}

// boxesScene is the rigid-body engines' boxes scene: 100 cubes of 0.5 m
// and 125 kg dropped from 1-5 m into fifty 2-box stacks (10 x 5 cells
// 0.75 m apart) on a floor of friction 0.2, as PoseEngine cubes at
// DefaultConfig; the table times frames 60-179 (landing, then resting).
// With sleep false, sleeping is off (Config.SleepSpeed 0).
func boxesScene(t testing.TB, workers int, sleep bool) scene {
	w := newWorld(t, workers, 0, 0)
	if !sleep {
		cfg := w.Config()
		w.Close()
		cfg.SleepSpeed = 0
		var err error
		if w, err = verlet3d.NewWorld(cfg); err != nil {
			t.Fatal(err)
		}
	}
	set := bodies.DefaultSettings()
	set.Engine = bodies.PoseEngine
	sys, err := bodies.NewSystem(w, set)
	if err != nil {
		t.Fatal(err)
	}
	floor, _ := verlet3d.NewPlane(mgl32.Vec3{}, mgl32.Vec3{0, 1, 0})
	if err := sys.AddCollider(floor, verlet3d.ContactSettings{Friction: 0.2}); err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewSource(1))
	for i := 0; i < 50; i++ {
		x, z := float32(i%10)*0.75-3.375, float32(i/10)*0.75-1.5
		y := 1 + 4*r.Float32()
		for k := 0; k < 2; k++ {
			if _, err := sys.AddCube(bodies.CubeSettings{Size: 0.5, Mass: 125,
				Position: mgl32.Vec3{x, y + float32(k)*0.6, z}}); err != nil {
				t.Fatal(err)
			}
		}
	}
	return scene{w: w, frame: w.Step, constraints: 400, cubes: sys}
}

// cratesClothScene is the demo's crates and tablecloth (internal/draped,
// its default rain of 30) with PoseEngine crates at DefaultConfig with
// SettleDamping 3, as the demo runs it (the cloth has no air: without the
// brake its edges hanging off the crates still swing at 30 s): the table times
// it at 5-7 s (crates_cloth: the cloth settling over the pyramid) and at
// 15-17 s (crates_cloth_rest: asleep from 13.9 s).
func cratesClothScene(t testing.TB, workers int) scene {
	w := newWorld(t, workers, 0, 0, settle)
	sc, err := draped.BuildPose(w, 30, 5)
	if err != nil {
		t.Fatal(err)
	}
	return scene{w: w, frame: w.Step, constraints: w.NumLinks(), cubes: sc.System}
}

// capeScene is the default cape (cloth.DefaultCapeSettings, 1 m long) on
// a body of four capsules walking a circle at 1.5 m/s, at DefaultConfig.
func capeScene(t testing.TB, workers int) scene {
	w := newWorld(t, workers, 0, 0)
	anchorAt := []mgl32.Vec3{{-0.18, 1.45, -0.17}, {0, 1.5, -0.17}, {0.18, 1.45, -0.17}}
	bodyAt := []verlet3d.Capsule{
		{A: mgl32.Vec3{0, 1.05, 0}, B: mgl32.Vec3{0, 1.35, 0}, Radius: 0.14},
		{A: mgl32.Vec3{-0.08, 0.95, 0}, B: mgl32.Vec3{0.08, 0.95, 0}, Radius: 0.12},
		{A: mgl32.Vec3{-0.1, 0.9, 0}, B: mgl32.Vec3{-0.1, 0.1, 0}, Radius: 0.07},
		{A: mgl32.Vec3{0.1, 0.9, 0}, B: mgl32.Vec3{0.1, 0.1, 0}, Radius: 0.07},
	}
	anchors := make([]verlet3d.Pose, len(anchorAt))
	body := make([]verlet3d.Capsule, len(bodyAt))
	var shapes []*verlet3d.Capsule
	var ref verlet3d.Pose
	place := func(pos mgl32.Vec3, heading float32) {
		q := mgl32.QuatRotate(heading, mgl32.Vec3{0, 1, 0})
		ref = verlet3d.Pose{Position: pos, Rotation: q}
		for i, a := range anchorAt {
			anchors[i] = verlet3d.Pose{Position: pos.Add(q.Rotate(a)), Rotation: q}
		}
		for i, b := range bodyAt {
			body[i] = verlet3d.Capsule{A: pos.Add(q.Rotate(b.A)), B: pos.Add(q.Rotate(b.B)), Radius: b.Radius}
		}
		for i, s := range shapes {
			*s = body[i]
		}
	}
	place(mgl32.Vec3{}, 0)
	for _, b := range body {
		s, _ := verlet3d.NewCapsule(b.A, b.B, b.Radius)
		if err := w.AddCollider(s, verlet3d.ContactSettings{Friction: 0.3}); err != nil {
			t.Fatal(err)
		}
		shapes = append(shapes, s)
	}
	cs := cloth.DefaultCapeSettings()
	cs.Anchors, cs.Reference, cs.Body = anchors, ref, body
	c, err := cloth.NewCape(w, cs)
	if err != nil {
		t.Fatal(err)
	}
	var heading float32
	pos := mgl32.Vec3{}
	return scene{w: w, constraints: w.NumLinks() + w.NumTethers(), frame: func() {
		heading += 0.5 / 60
		pos = pos.Add(mgl32.QuatRotate(heading, mgl32.Vec3{0, 1, 0}).Rotate(mgl32.Vec3{0, 0, 1.5 / 60}))
		place(pos, heading)
		c.SetPose(ref, anchors, body)
		w.Step()
	}}
}

// restingScene is a 64 x 64 tablecloth (2 cm spacing) dropped on a table
// with still-air drag, timed after 50 s, settled (the hanging sides swing
// for about 35 s with only air to slow them, then the World is still and
// sleeps).
func restingScene(t testing.TB, workers int) scene {
	w := newWorld(t, workers, 0, 0)
	table, _ := verlet3d.NewBox(mgl32.Vec3{0, 0.7, 0}, mgl32.Vec3{0.4, 0.05, 0.4}, mgl32.QuatIdent())
	if err := w.AddCollider(table, verlet3d.ContactSettings{Friction: 0.5}); err != nil {
		t.Fatal(err)
	}
	s := cloth.DefaultSettings()
	s.Cols, s.Rows, s.Spacing = 64, 64, 0.02
	s.Origin = mgl32.Vec3{-0.63, 0.9, -0.63}
	s.Across, s.Down = mgl32.Vec3{1, 0, 0}, mgl32.Vec3{0, 0, 1}
	s.Radius = 0.005
	g, err := cloth.New(w, s)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := cloth.NewWindForce(g, cloth.DefaultWindSettings()); err != nil {
		t.Fatal(err)
	}
	return scene{w: w, frame: w.Step, constraints: w.NumLinks()}
}
