package main

import (
	"flag"
	"math"
	"testing"
	"time"

	"github.com/drape3d/drape/hair"
	"github.com/drape3d/drape/verlet3d"
	"github.com/g3n/engine/core"
	"github.com/g3n/engine/texture"
	"github.com/go-gl/mathgl/mgl32"
)

// newTestHairScene builds the hair scene's physics, body and meshes
// without a window (no GUI, keys or shader), with strands strands.
func newTestHairScene(t *testing.T, strands int) *hairScene {
	t.Helper()
	o := defaultOptions(t).hair
	o.strands = strands
	d := &Demo{Scene: core.NewNode(), Workers: 1, textures: map[string]*texture.Texture2D{}}
	w, err := d.NewWorld(hair.WorldConfig())
	if err != nil {
		t.Fatal(err)
	}
	s, err := newHairScene(d, w, &o)
	if err != nil {
		t.Fatal(err)
	}
	d.OnUpdate(s.update)
	d.OnStep(s.step)
	t.Cleanup(s.drv.World.Close)
	return s
}

// defaultOptions returns the flags' defaults.
func defaultOptions(t *testing.T) *options {
	t.Helper()
	o, err := parseFlags(flag.NewFlagSet("demo", flag.ContinueOnError), nil)
	if err != nil {
		t.Fatal(err)
	}
	return o
}

// frame runs one frame of the scene through the demo's own frame code.
func (s *hairScene) frame(dt float32) int {
	n, _ := s.d.simulate(dt)
	return n
}

// At about 3 fps (software GL) the head's spring must not integrate the raw
// 0.33 s frame time with explicit Euler, or it spins without bound: it
// advances by the Driver's capped steps with the spring's exact solution,
// and the yaw never leaves the range the keys can ask for, even with the keys
// hammered and the character running.
func TestHairHeadBoundedAt3fps(t *testing.T) {
	const dt = 0.33
	// The old integration, for the record: it diverges at this frame time.
	{
		const k = 1 / 0.15
		x, v := 0.0, 0.0
		for i := 0; i < 100; i++ {
			a := k*k*(hairMaxYaw-x) - 2*k*v
			v += a * dt
			x += v * dt
		}
		if !(math.Abs(x) > 1e10) {
			t.Fatalf("the raw-frame-time Euler spring reached only %g: the test no longer shows the old bug", x)
		}
	}
	s := newTestHairScene(t, 200)
	s.motion.gait = gaitRun
	w := s.drv.World
	maxYaw, maxPitch := 0.0, 0.0
	steps := 0
	for i := 0; i < 150; i++ {
		// A user hammering the arrow keys: full left, full right, nod.
		switch i % 40 {
		case 0:
			s.motion.yawT, s.motion.pitchT = hairMaxYaw, hairMinPitch
		case 20:
			s.motion.yawT, s.motion.pitchT = -hairMaxYaw, hairMaxPitch
		}
		steps += s.frame(dt)
		m := &s.motion
		if !(math.Abs(m.yaw) <= hairMaxYaw+1e-9) || !(m.pitch >= hairMinPitch-1e-9 && m.pitch <= hairMaxPitch+1e-9) {
			t.Fatalf("frame %d: yaw %v, pitch %v left the key range ±%v, [%v, %v]", i, m.yaw, m.pitch, hairMaxYaw, hairMinPitch, hairMaxPitch)
		}
		maxYaw, maxPitch = math.Max(maxYaw, math.Abs(m.yaw)), math.Max(maxPitch, math.Abs(m.pitch))
	}
	// The head moved with the physics: 4 steps (the cap) per 0.33 s frame.
	simT := s.motion.time
	t.Logf("150 frames of %.2f s: %d steps (%.2f per frame), motion time %.3f s, World time %.3f s; max |yaw| %.3f rad, max |pitch| %.3f rad; %d non-finite resets, %d strands recovered",
		dt, steps, float64(steps)/150, simT, w.Time(), maxYaw, maxPitch, w.Stats().NonFiniteResets, s.h.NumRecovered())
	if math.Abs(simT-w.Time()) > 1e-3 {
		t.Errorf("the head's clock %.4f s drifted from the World's %.4f s", simT, w.Time())
	}
	if maxYaw < 1.0 {
		t.Errorf("max |yaw| %.3f: the head hardly turned toward ±%v", maxYaw, hairMaxYaw)
	}
	if n := w.Stats().NonFiniteResets; n != 0 {
		t.Errorf("%d non-finite resets", n)
	}
	if n := s.h.NumRecovered(); n != 0 {
		t.Errorf("%d strands recovered: the hair was torn", n)
	}
}

// A strand grabbed with Shift+drag and let go moves again under gravity,
// through the demo's own grab tool: a stretch form that turns a strongly
// stretched strand to NaN would have the World reset its particles to
// their build position every step and leave it frozen.
func TestHairReleasedStrandMoves(t *testing.T) {
	s := newTestHairScene(t, 200)
	w := s.drv.World
	for i := 0; i < 60; i++ {
		s.frame(1.0 / 60)
	}
	// The tip of a strand hanging beside the face.
	var p verlet3d.Particle
	best := float32(-1)
	for i := 0; i < s.h.NumStrands(); i++ {
		root, n := s.h.Strand(i)
		tip := root + verlet3d.Particle(n-1)
		if x := w.Position(tip); x[0] > best && x[1] < 1.55 {
			best, p = x[0], tip
		}
	}
	x0 := w.Position(p)
	eye := x0.Add(mgl32.Vec3{0, 0, 1})
	var g grabber
	if !g.begin(w, eye, x0.Sub(eye).Normalize()) || g.p != p {
		t.Fatalf("picked %d (ok %v), want the tip %d at %v", g.p, g.on, p, x0)
	}
	// Drag it 6 cm up and out over a third of a second, hold it.
	lift := mgl32.Vec3{0.04, 0.06, 0}
	for i := 1; i <= 30; i++ {
		k := float32(min(i, 20)) / 20
		target := x0.Add(lift.Mul(k))
		g.move(eye, target.Sub(eye).Normalize())
		s.frame(1.0 / 60)
	}
	held := w.Position(p)
	g.end()
	if w.Pinned(p) {
		t.Fatalf("released tip is still pinned/kinematic")
	}
	lowest, moved := held[1], float32(0)
	for i := 0; i < 60; i++ {
		s.frame(1.0 / 60)
		x := w.Position(p)
		lowest = min(lowest, x[1])
		moved = max(moved, x.Sub(held).Len())
	}
	t.Logf("tip held at %v (%.3f m from where it hung); after release it moved up to %.3f m and fell %.3f m; %d non-finite resets, %d strands recovered",
		held, held.Sub(x0).Len(), moved, held[1]-lowest, w.Stats().NonFiniteResets, s.h.NumRecovered())
	if held.Sub(x0.Add(lift)).Len() > 0.01 {
		t.Errorf("held tip at %v, want the drag target %v", held, x0.Add(lift))
	}
	if moved < 0.03 || held[1]-lowest < 0.03 {
		t.Errorf("released tip moved %.3f m and fell %.3f m: want it to fall back (> 3 cm)", moved, held[1]-lowest)
	}
	if n := w.Stats().NonFiniteResets; n != 0 {
		t.Errorf("%d non-finite resets", n)
	}
	if n := s.h.NumRecovered(); n != 0 {
		t.Errorf("%d strands recovered: the hair was torn", n)
	}
}

// Walking and running: the character reaches its gait's speed, the head
// bobs by the gait's height, the hair stays on the head (every particle
// within a strand's length of the head, roots on the scalp) and nothing
// goes non-finite.
func TestHairWalkRun(t *testing.T) {
	for _, g := range []gait{gaitWalk, gaitRun} {
		t.Run(gaits[g].name, func(t *testing.T) {
			s := newTestHairScene(t, 200)
			s.motion.gait = g
			w := s.drv.World
			var lo, hi float32 = 10, -10
			var d0 float64
			const frames = 300
			worstRoot, worstReach := float32(0), float32(0)
			for i := 0; i < frames; i++ {
				if i == frames-120 {
					d0, lo, hi = s.motion.dist, 10, -10
				}
				s.frame(1.0 / 60)
				c := s.h.Head().Center
				lo, hi = min(lo, c[1]), max(hi, c[1])
				for k := 0; k < s.h.NumStrands(); k++ {
					root, n := s.h.Strand(k)
					worstRoot = max(worstRoot, abs32(w.Position(root).Sub(c).Len()-hairHeadRadius))
					for j := 1; j < n; j++ {
						worstReach = max(worstReach, w.Position(root+verlet3d.Particle(j)).Sub(c).Len())
					}
				}
			}
			speed := (s.motion.dist - d0) / 2
			want := gaits[g]
			reach := hairHeadRadius + float32(s.o.length)*1.05
			t.Logf("%s: %.3f m/s over the last 2 s (want %.1f), head bob %.1f cm peak to peak (want %.1f), walked %.2f m; roots off the scalp by %.1e m, farthest particle %.3f m from the head center (limit %.3f); %d non-finite resets, %d recovered",
				want.name, speed, want.speed, 100*(hi-lo), 100*want.bob, s.motion.dist, worstRoot, worstReach, reach, w.Stats().NonFiniteResets, s.h.NumRecovered())
			if math.Abs(speed-want.speed) > 0.03*want.speed {
				t.Errorf("speed %.3f m/s, want %.2f ± 3%%", speed, want.speed)
			}
			if b := float64(hi - lo); math.Abs(b-want.bob) > 0.15*want.bob {
				t.Errorf("bob %.4f m, want %.3f ± 15%%", b, want.bob)
			}
			if worstRoot > 1e-3 {
				t.Errorf("a root is %.4f m off the scalp", worstRoot)
			}
			if worstReach > reach {
				t.Errorf("a hair particle is %.3f m from the head center, beyond %.3f: the hair does not follow the head", worstReach, reach)
			}
			if n := w.Stats().NonFiniteResets; n != 0 {
				t.Errorf("%d non-finite resets", n)
			}
			if n := s.h.NumRecovered(); n != 0 {
				t.Errorf("%d strands recovered: the hair was torn", n)
			}
		})
	}
}

func abs32(x float32) float32 { return float32(math.Abs(float64(x))) }

// The step clock runs the Driver's rule: whole steps, the frame capped,
// at most MaxStepsPerFrame a frame.
func TestStepClock(t *testing.T) {
	c := stepClock{step: 1.0 / 60, maxSteps: 4, maxFrame: 0.1}
	for _, tc := range []struct {
		dt    float64
		n     int
		steps int
	}{
		{1.0 / 60, 600, 600},
		{1.0 / 120, 600, 300},
		{0.33, 10, 40}, // capped at 0.1 s, then 4 steps
		{0.05, 10, 30}, // 3 steps each
		{math.NaN(), 5, 0},
		{-1, 5, 0},
	} {
		c.acc = 0
		got := 0
		for i := 0; i < tc.n; i++ {
			got += c.advance(tc.dt)
		}
		if d := got - tc.steps; d < -1 || d > 1 {
			t.Errorf("%d frames of %v s: %d steps, want %d", tc.n, tc.dt, got, tc.steps)
		}
	}
}

// The HUD's frame rate is frames over wall time. With frames alternating
// 1 ms and 299 ms (a stutter) the true rate is 6.7 fps; the old mean of
// 1/dt said about 500.
func TestFrameMeter(t *testing.T) {
	for _, tc := range []struct {
		name   string
		frames []time.Duration // repeated
	}{
		{"steady 60", []time.Duration{16667 * time.Microsecond}},
		{"3 fps", []time.Duration{333 * time.Millisecond}},
		{"stutter", []time.Duration{time.Millisecond, 299 * time.Millisecond}},
		{"hitch", []time.Duration{16 * time.Millisecond, 16 * time.Millisecond, 16 * time.Millisecond, 250 * time.Millisecond}},
	} {
		m := frameMeter{span: 500 * time.Millisecond}
		now := time.Unix(1000, 0)
		m.frame(now, 0, 0)
		n, oldFPS := 0, 60.0
		start := now
		for i := 0; now.Sub(start) < 5*time.Second; i++ {
			dt := tc.frames[i%len(tc.frames)]
			now = now.Add(dt)
			m.frame(now, 2*time.Millisecond, 1+i%2)
			n++
			oldFPS = 0.95*oldFPS + 0.05/dt.Seconds()
		}
		truth := float64(n) / now.Sub(start).Seconds()
		t.Logf("%s: %d frames in %.2f s = %.2f fps; meter %.2f fps, %.1f ms/frame, physics %.2f ms/frame, %.2f steps/frame (over %d frames); old 1/dt mean %.0f fps",
			tc.name, n, now.Sub(start).Seconds(), truth, m.fps, m.frameMS, m.physicsMS, m.stepsPerFrm, m.windowFrames, oldFPS)
		if !m.ready() || math.Abs(m.fps-truth) > 0.2*truth {
			t.Errorf("%s: meter %.2f fps, want %.2f ± 20%%", tc.name, m.fps, truth)
		}
		if math.Abs(m.frameMS*m.fps-1000) > 1e-6*1000 {
			t.Errorf("%s: frame time %.3f ms is not 1000/fps", tc.name, m.frameMS)
		}
		if math.Abs(m.physicsMS-2) > 1e-9 || math.Abs(m.stepsPerFrm-1.5) > 0.26 {
			t.Errorf("%s: physics %.3f ms/frame, %.2f steps/frame, want 2 and 1.5", tc.name, m.physicsMS, m.stepsPerFrm)
		}
	}
}
