package verlet3d

import (
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"github.com/go-gl/mathgl/mgl32"
)

// A range job does not wait for a worker that never comes to it (its
// thread descheduled by a busy machine): the caller claims the chunks left
// and the job ends with every item done once. The worker, started late,
// then finds the old job over and takes its part in the next jobs without
// running anything twice.
func TestRangeJobDoesNotWaitForAnAbsentWorker(t *testing.T) {
	const n, items = 2, 101
	e := makeExecutor(n)
	var hits [items]atomic.Int32
	rangeJob := func(lo, hi int) {
		for i := lo; i < hi; i++ {
			hits[i].Add(1)
		}
	}
	check := func(what string, want int32) {
		t.Helper()
		for i := range hits {
			if got := hits[i].Load(); got != want {
				t.Fatalf("%s: item %d done %d times, want %d", what, i, got, want)
			}
		}
	}
	e.f, e.count = rangeJob, items
	e.runShares(1) // worker 1 is not running: this returned only if worker 0 did it all
	check("worker 1 absent", 1)
	e.f, e.count = rangeJob, items
	e.runShares(parallelChunks) // and with chunks
	check("worker 1 absent, chunks", 2)

	go e.loop(1) // late: the job it was offered is over
	for job := 3; job <= 50; job++ {
		e.f, e.count = rangeJob, items
		e.runShares(1 + job%2*(parallelChunks-1))
		check("range job", int32(job))
	}
	var shares [n]atomic.Int32
	e.fi, e.count = func(id, lo, hi int) { shares[id].Add(int32(hi - lo)) }, items
	e.runShares(1)
	if a, b := shares[0].Load(), shares[1].Load(); a != items/n || b != items-items/n {
		t.Errorf("id job: shares told %d and %d items, want %d and %d (the id is the share's)", a, b, items/n, items-items/n)
	}
	e.close()
}

// A worker done with its own chunks takes those a slower worker has not
// claimed, from the back, and leaves it the one it is on; every item is
// done once. Worker 1 is held in its first chunk while worker 0 runs.
func TestRangeJobTakesChunksFromASlowWorker(t *testing.T) {
	const per, items = 4, 80
	e := makeExecutor(2)
	e.per.Store(per)
	r := e.shareJob.Load() + 1
	e.shareJob.Store(r)
	held, release := make(chan struct{}), make(chan struct{})
	var ranBy [2 * per]atomic.Int32 // 1 + the worker that ran a chunk
	var hits [items]atomic.Int32
	mainRuns := false // set only while worker 1 is held
	e.count = items
	e.fi = func(c, lo, hi int) {
		if c == per { // worker 1's first
			close(held)
			<-release
		}
		who := int32(2)
		if mainRuns {
			who = 1
		}
		if !ranBy[c].CompareAndSwap(0, who) {
			t.Errorf("chunk %d ran twice", c)
		}
		for i := lo; i < hi; i++ {
			hits[i].Add(1)
		}
	}
	go e.claimShares(1, r)
	<-held
	mainRuns = true
	e.claimShares(0, r)
	mainRuns = false
	close(release)
	for e.shareDone.Load() != 2*per {
		runtime.Gosched()
	}
	want := [2 * per]int32{1, 1, 1, 1, 2, 1, 1, 1} // worker 0 took chunks 5-7
	for c := range want {
		if got := ranBy[c].Load() - 1; got != want[c]-1 {
			t.Errorf("chunk %d ran on worker %d, want %d", c, got, want[c]-1)
		}
	}
	for i := range hits {
		if got := hits[i].Load(); got != 1 {
			t.Fatalf("item %d done %d times", i, got)
		}
	}
}

// A link pass over regions needs no worker but one to finish: a worker
// that never comes (its thread descheduled for the whole pass) leaves its
// units to the one that does, which takes them from the back and solves
// each odd boundary once both units beside it are done. Pass after pass,
// with a different worker present each time, the cloth ends bit for bit
// where one goroutine solving the links in order leaves it.
func TestLinkPassTakesAnAbsentWorkersUnits(t *testing.T) {
	for _, workers := range []int{2, 3} {
		serial, shared := gridWorld(64), gridWorld(64)
		for _, w := range []*World{serial, shared} {
			for i := range w.pos {
				f := float32(i)
				w.pos[i] = w.pos[i].Add(mgl32.Vec3{float32(0.3 * sin32(f)), float32(0.2 * sin32(float32(1.7*f))), float32(0.25 * sin32(float32(2.3*f)))})
			}
			w.links.color(w.NumParticles())
			w.links.prepare(w.invMass, w.massGen, 3600, w.kernels())
			w.run.invH2 = 3600
		}
		units := len(shared.links.pairs) - 1
		if units != mostRegions/2 {
			t.Fatalf("%d units, want %d", units, mostRegions/2)
		}
		// The executor without its goroutines: only the worker named
		// below takes part, as solveLinksShared's range job would run it.
		shared.cfg.Workers = workers
		e := makeExecutor(workers)
		shared.run.exec = e
		per := (units + workers - 1) / workers
		for pass := 0; pass < 2*workers; pass++ {
			for _, w := range []*World{serial, shared} {
				w.run.firstPass = pass == 0
			}
			serial.solveLinkRange(0, len(serial.links.hot))
			id := pass % workers
			e.f, e.count = shared.run.unitJob, units
			e.per.Store(int32(per))
			e.shareDone.Store(0)
			r := e.shareJob.Load() + 1
			e.shareJob.Store(r)
			e.claimShares(id, r)
			if got := e.shareDone.Load(); got != int32(workers*per) {
				t.Fatalf("%d workers, pass %d by worker %d alone: %d of %d chunks done", workers, pass, id, got, workers*per)
			}
			for i := range serial.pos {
				if serial.pos[i] != shared.pos[i] {
					t.Fatalf("%d workers, pass %d by worker %d alone: particle %d at %v, in order %v",
						workers, pass, id, i, shared.pos[i], serial.pos[i])
				}
			}
		}
		shared.run.exec = nil
	}
}

// An idle worker polls for Config.WorkerSpin before it sleeps: at 0.5 s,
// a game's 5 ms between two steps does not put it to sleep; at the default
// 100 µs it does (the test waits for that nap instead of timing it, as the
// worker may not get a core at once).
func TestWorkerSpinKeepsWorkersAwake(t *testing.T) {
	for _, tc := range []struct {
		spin  float32
		sleep bool
	}{{0.5, false}, {DefaultConfig().WorkerSpin, true}} {
		cfg := DefaultConfig()
		cfg.Workers, cfg.WorkerSpin = 2, tc.spin
		w, _ := fuseWorld(t, cfg, 64)
		w.Step()
		before := w.run.exec.naps.Load()
		time.Sleep(5 * time.Millisecond)
		if tc.sleep {
			// The worker naps once it has run its spin; on a loaded
			// machine it may not get a core within the 5 ms, so wait for
			// it (up to a second) rather than time it.
			for i := 0; i < 200 && w.run.exec.naps.Load() == before; i++ {
				time.Sleep(5 * time.Millisecond)
			}
		}
		w.Step()
		if slept := w.run.exec.naps.Load() > before; slept != tc.sleep {
			t.Errorf("WorkerSpin %v s: the worker slept between two steps 5 ms (or, to nap, up to 1 s) apart: %v, want %v", tc.spin, slept, tc.sleep)
		}
		w.Close()
	}
}
