package hair_test

import (
	"github.com/drape3d/drape/internal/vecmath"
	"math"
	"os"
	"runtime"
	"testing"

	"github.com/drape3d/drape/hair"
	"github.com/drape3d/drape/verlet3d"
	"github.com/go-gl/mathgl/mgl32"
)

// soakSeconds is the simulated length of a soak: 20 s in `make test`,
// 10 minutes with DRAPE_SOAK=1 (`make soak`).
func soakSeconds() float64 {
	if os.Getenv("DRAPE_SOAK") == "1" {
		return 600
	}
	return 20
}

func heapAfterGC() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// kinetic returns the hair's kinetic energy relative to the head's
// center velocity v, in J.
func kinetic(h *hair.Hair, v mgl32.Vec3) float64 {
	w := h.World()
	first, n := h.Particles()
	pos, prev, inv := w.Positions(), w.PrevPositions(), w.InvMasses()
	hs := float64(w.SubstepLength())
	var e float64
	for i := int(first); i < int(first)+n; i++ {
		if inv[i] == 0 {
			continue
		}
		d := vecmath.Scale(pos[i].Sub(prev[i]), float32(1/hs)).Sub(v)
		e += 0.5 * float64(vecmath.Dot(d, d)) / float64(inv[i])
	}
	return e
}

// A head shaken violently for the soak time: ±30° at 2 Hz about the
// vertical and ±20° nodding at 3 Hz while running at 6 m/s with a 5 cm
// bob, a 0.5 rad snap every 3 s, a 0.25 s hitch every 5 s and a 30 m
// teleport every 11 s, in 15 m/s gusty wind. No NaN, roots on the scalp,
// energy bounded, heap flat.
func TestSoakShakenHead(t *testing.T) {
	r := newRig(t, func(s *hair.Settings) { s.Strands = 150 }, 1)
	h, w := r.h, r.w
	if err := h.SetWind(verlet3d.Wind{Steady: mgl32.Vec3{15, 0, 4}, Gust: 0.6, GustPeriod: 2, Turbulence: 3, TurbulenceScale: 0.5}); err != nil {
		t.Fatal(err)
	}
	dur := soakSeconds()
	frames := int(float64(dur * 60))
	head := h.Head()
	base := head.Center
	var heap0 uint64
	window := []float64{}
	var worstRoot float32
	off := mgl32.Vec3{}
	for f := 0; f < frames; f++ {
		tm := float64(f) / 60
		dt := float32(frame)
		if f%300 == 299 {
			dt = 0.25
		}
		if f%660 == 659 {
			off = off.Add(mgl32.Vec3{30, 0, -12})
		}
		yaw := float32(0.52 * math.Sin(float64(2*math.Pi*2*tm)))
		if int(tm/3)%2 == 1 {
			yaw += 0.5 // the snap: a 0.5 rad jump every 3 s
		}
		nod := float32(0.35 * math.Sin(float64(2*math.Pi*3*tm)))
		q := vecmath.QuatMul(vecmath.QuatAxisAngle(yaw, mgl32.Vec3{0, 1, 0}), vecmath.QuatAxisAngle(nod, mgl32.Vec3{1, 0, 0}))
		run := float32(math.Mod(float64(6*tm), 60)) // runs 60 m, then starts over (another jump)
		c := base.Add(off).Add(mgl32.Vec3{0, float32(0.05 * float32(math.Sin(float64(2*math.Pi*2.5*tm)))), run})
		if err := h.SetHead(c, q); err != nil {
			t.Fatal(err)
		}
		w.Advance(dt)
		for i, p := range w.Positions() {
			if !vecmath.Finite(p) {
				t.Fatalf("t = %.2f s: particle %d at %v", tm, i, p)
			}
		}
		if n := w.Stats().NonFiniteResets; n != 0 {
			t.Fatalf("t = %.2f s: %d non-finite resets", tm, n)
		}
		hd := h.Head()
		for i := 0; i < h.NumStrands(); i += 7 {
			root, _ := h.Strand(i)
			d := vecmath.Len(w.Position(root).Sub(hd.Center)) - hd.Radius
			worstRoot = max(worstRoot, float32(math.Abs(float64(d))))
		}
		e := kinetic(h, mgl32.Vec3{0, 0, 6})
		k := int(tm / 10)
		for len(window) <= k {
			window = append(window, 0)
		}
		window[k] = max(window[k], e)
		if f == 120 {
			heap0 = heapAfterGC()
		}
	}
	heap1 := heapAfterGC()
	ref := max(window[0], window[min(1, len(window)-1)])
	for k, e := range window {
		if e > 4*ref {
			t.Errorf("kinetic energy peak %.3g J in window %d, over 4 x the first windows' %.3g J", e, k, ref)
		}
	}
	t.Logf("%.0f s simulated: peak kinetic energy first %.3g J, last %.3g J; worst root off the scalp %.2g m; %d recoveries; heap %d -> %d KiB",
		dur, window[0], window[len(window)-1], worstRoot, h.NumRecovered(), heap0>>10, heap1>>10)
	if worstRoot > 1e-3 {
		t.Errorf("a root sat %.3g m off the scalp sphere, want within 1 mm", worstRoot)
	}
	if heap1 > heap0+1<<20 {
		t.Errorf("heap grew from %d to %d KiB", heap0>>10, heap1>>10)
	}
}
