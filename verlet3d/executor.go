package verlet3d

import (
	"runtime"
	"sync"
	"sync/atomic"
	"time"
)

// executor is the World's one pool of goroutines: every parallel phase of a
// step (link colours, and any component's work through World.Parallel) runs
// on it, and World.Close stops it. The calling goroutine is worker 0.
//
// A substep dispatches many short jobs back to back (a link pass, a hair
// pass, a few hundred microseconds each), so a worker that finished one
// spins for the next for a while before it sleeps: waking a sleeping
// goroutine costs a thread wake-up, which on a virtual machine can take as
// long as the job. Dispatching does not allocate.
//
// There are two kinds of job. An all-hands job (run: a link pass with its
// barriers) needs every worker. A range job (runShares: World.Parallel and
// the per-particle phases) is cut into one share per worker, and a share
// no one has begun goes to the first worker free: the job waits only for
// shares under way, not for a worker that is late to start.
type executor struct {
	n   int
	job func(worker int) // the current job, set before gen moves
	gen atomic.Uint32    // bumped once per job
	// left counts workers other than the caller still on the job.
	left atomic.Int32
	quit atomic.Bool
	// wake[i] holds at most one wake-up for worker i: the dispatcher
	// offers one per job without blocking, and a worker that wakes with
	// no new job (a stale token) just looks again. No wake-up can be lost:
	// a worker checks the generation after it last emptied its channel
	// and before it blocks.
	wake []chan struct{}
	bar  barrier
	// The dispatcher waits for the job's end by spinning, then sleeping
	// on done: the worker that brings left to 0 wakes it if it sleeps.
	doneMu   sync.Mutex
	done     sync.Cond
	sleeping atomic.Bool
	busy     bool // a job is running: nested Parallel calls run inline

	// A range job (World.Parallel, and the World's own particle phases,
	// told the share's index as the worker id) is cut into n shares, share
	// k of count items being [count·k/n, count·(k+1)/n). Worker k claims
	// share k first, then any share no one has claimed yet, and the job
	// ends when every share is done: a worker that is late (its thread
	// descheduled by a busy machine, a game's other threads) leaves its
	// share to the others instead of holding them up. shareJob is the
	// range job's number, moved once per job; claimed[k] holds the number
	// of the last job whose share k was claimed (every job has each share
	// claimed once, so job r claims share k by moving it from r-1 to r);
	// shareDone counts the shares done. f, fi and count are written before
	// shareJob moves and read only by a worker that claimed a share.
	shareJob  atomic.Uint32
	claimed   []shareClaim
	shareDone atomic.Int32
	f         func(lo, hi int)
	fi        func(id, lo, hi int)
	count     int
}

// shareClaim is a share's last claiming job, alone on its cache line: the
// worker that claims its own share every job keeps the line.
type shareClaim struct {
	job atomic.Uint32
	_   [60]byte
}

// spinFor is how long an idle worker polls for the next job before it
// sleeps. It is measured in time, not rounds: a round count that spins
// 100 µs on a quiet machine spun 12 µs on a busy one, shorter than the
// serial phases between two parallel ones, and every substep then paid a
// thread wake-up. 100 µs covers the serial work between the parallel
// phases of a substep (hooks, colliders) for the scenes of DESIGN section
// 7; between frames a worker sleeps.
const spinFor = 100 * time.Microsecond

func newExecutor(n int) *executor {
	e := makeExecutor(n)
	for i := 1; i < n; i++ {
		go e.loop(i)
	}
	return e
}

// makeExecutor is newExecutor without its worker goroutines.
func makeExecutor(n int) *executor {
	e := &executor{n: n, wake: make([]chan struct{}, n), claimed: make([]shareClaim, n)}
	e.bar.n = int32(n)
	e.bar.cond.L = &e.bar.mu
	e.done.L = &e.doneMu
	for i := 1; i < n; i++ {
		e.wake[i] = make(chan struct{}, 1)
	}
	return e
}

func (e *executor) loop(id int) {
	// Start from the generation and range job the executor was made
	// with, not from a load: a job may be dispatched before this
	// goroutine first runs.
	var seen, seenShare uint32
	for {
		g, r := e.next(id, seen, seenShare)
		if e.quit.Load() {
			return
		}
		if r != seenShare {
			// A range job: help with it if any share is left (it may be
			// over, and even a later job begun: then this claims none).
			seenShare = r
			e.claimShares(id, r)
			continue
		}
		seen = g
		e.job(id)
		if e.left.Add(-1) == 0 && e.sleeping.Load() {
			e.wakeDispatcher()
		}
	}
}

// wakeDispatcher wakes the dispatcher if it sleeps on done.
func (e *executor) wakeDispatcher() {
	e.doneMu.Lock()
	e.done.Broadcast()
	e.doneMu.Unlock()
}

// next waits until the job generation moves past seen or the range job
// past seenShare, and returns both.
func (e *executor) next(id int, seen, seenShare uint32) (uint32, uint32) {
	var start time.Time
	for i := 0; ; i++ {
		g, r := e.gen.Load(), e.shareJob.Load()
		if g != seen || r != seenShare {
			return g, r
		}
		if i%64 == 63 {
			if i == 63 {
				start = time.Now()
			} else if time.Since(start) > spinFor {
				break
			}
			runtime.Gosched()
		}
	}
	for {
		<-e.wake[id]
		g, r := e.gen.Load(), e.shareJob.Load()
		if g != seen || r != seenShare || e.quit.Load() {
			return g, r
		}
	}
}

// run calls job(i) for every worker i in [0, n) at once and waits for all.
func (e *executor) run(job func(worker int)) {
	e.busy = true
	e.job = job
	e.left.Store(int32(e.n - 1))
	e.gen.Add(1)
	e.wakeSleepers()
	job(0)
	e.await(func() bool { return e.left.Load() != 0 })
	e.busy = false
}

// await returns once pending reports false: the workers finished the job
// (the one that finishes it calls wakeDispatcher). It spins for spinWait,
// then, when a worker is late (its thread was descheduled: the machine is
// busy), sleeps on done instead of burning the core that worker may need.
func (e *executor) await(pending func() bool) {
	if spinWhile(pending) {
		return
	}
	e.sleeping.Store(true)
	e.doneMu.Lock()
	for pending() {
		e.done.Wait()
	}
	e.doneMu.Unlock()
	e.sleeping.Store(false)
}

// runShares runs the range job set in f or fi (the other nil) over count
// items and waits until every share is done.
func (e *executor) runShares() {
	e.busy = true
	e.shareDone.Store(0)
	r := e.shareJob.Load() + 1
	e.shareJob.Store(r)
	e.wakeSleepers()
	e.claimShares(0, r)
	n := int32(e.n)
	e.await(func() bool { return e.shareDone.Load() != n }) // a share under way on a late worker
	e.f, e.fi = nil, nil
	e.busy = false
}

// claimShares claims and runs the shares of range job r that no one has
// claimed, worker id's own share first.
func (e *executor) claimShares(id int, r uint32) {
	for j := range e.n {
		k := (id + j) % e.n
		// Fails if another claimed it, or if job r is over (then share k
		// holds r or later).
		if !e.claimed[k].job.CompareAndSwap(r-1, r) {
			continue
		}
		// Claimed: the job's fields hold until its shares are done.
		lo, hi := e.count*k/e.n, e.count*(k+1)/e.n
		if lo < hi {
			if e.f != nil {
				e.f(lo, hi)
			} else {
				e.fi(k, lo, hi)
			}
		}
		if e.shareDone.Add(1) == int32(e.n) && e.sleeping.Load() {
			e.wakeDispatcher()
		}
	}
}

func (e *executor) wakeSleepers() {
	for i := 1; i < e.n; i++ {
		select {
		case e.wake[i] <- struct{}{}:
		default: // a wake-up is already waiting
		}
	}
}

func (e *executor) close() {
	e.quit.Store(true)
	e.gen.Add(1)
	e.wakeSleepers()
}

// barrier makes the workers of one job wait for each other (between link
// colours). A waiter spins for spinWait, then sleeps on cond; the last to
// arrive wakes the sleepers.
type barrier struct {
	n        int32
	count    atomic.Int32
	gen      atomic.Uint32
	sleepers atomic.Int32
	mu       sync.Mutex
	cond     sync.Cond
}

func (b *barrier) wait() {
	g := b.gen.Load()
	if b.count.Add(1) == b.n {
		b.count.Store(0)
		b.gen.Add(1)
		if b.sleepers.Load() > 0 {
			b.mu.Lock()
			b.cond.Broadcast()
			b.mu.Unlock()
		}
		return
	}
	if spinWhile(func() bool { return b.gen.Load() == g }) {
		return
	}
	// The generation is read after sleepers is raised, and the last
	// arrival reads sleepers after it moves the generation: one of the
	// two sees the other, so no wake-up is lost.
	b.sleepers.Add(1)
	b.mu.Lock()
	for b.gen.Load() == g {
		b.cond.Wait()
	}
	b.mu.Unlock()
	b.sleepers.Add(-1)
}

// spinWait is how long a worker spins at a barrier, or the dispatcher at
// the end of a job, before it sleeps. On a quiet machine the others arrive
// within microseconds; when they do not, their thread was descheduled (a
// busy machine, a game's other threads), and spinning longer would only
// take the core it needs.
const spinWait = 50 * time.Microsecond

// spinWhile polls cond until it is false, for at most spinWait, and
// reports whether it became false.
func spinWhile(cond func() bool) bool {
	var start time.Time
	for i := 0; cond(); i++ {
		if i%64 == 63 {
			if i == 63 {
				start = time.Now()
			} else if time.Since(start) > spinWait {
				return false
			}
			runtime.Gosched()
		}
	}
	return true
}

// Parallel calls f on contiguous ranges [lo, hi) that together cover
// [0, n), on the World's Config.Workers goroutines, and returns when all
// are done. The ranges depend only on n and Config.Workers, and f must
// touch only the data of its own range, so the result is the same for any
// worker count. With one worker, or when called from inside another
// Parallel job, it is simply f(0, n). Otherwise, with W = Config.Workers,
// the ranges are the shares [n·k/W, n·(k+1)/W), k < W, and no call when
// one is empty. Worker k (the caller is worker 0) runs share k, so two
// calls with the same n give each worker the same range and data a range
// job writes stays in that worker's cache for the next job over it; but a
// worker that has not begun its share when another is done with its own
// (its thread descheduled) leaves the share to that one, so f must not
// assume which goroutine runs a range. Components call it from their
// hooks (hair strands, contacts); they never start goroutines of their
// own.
func (w *World) Parallel(n int, f func(lo, hi int)) {
	if n <= 0 {
		return
	}
	workers := w.cfg.Workers
	if workers > n {
		workers = n
	}
	if workers <= 1 || (w.exec != nil && w.exec.busy) {
		f(0, n)
		return
	}
	e := w.executor()
	e.f, e.count = f, n
	w.stats.ParallelJobs++
	e.runShares()
}

// executor returns the World's executor, starting it on first use.
func (w *World) executor() *executor {
	if w.exec == nil {
		w.exec = newExecutor(w.cfg.Workers)
		w.linkJob = w.solveLinksWorker
	}
	return w.exec
}

// solveLinksWorker is worker id's share of one link pass over a link set
// cut into regions (the only kind the workers share): its whole regions
// (and, when they are exactly a pair, the links between the two), one
// barrier, then worker 0 solves the rest of the links between regions.
func (w *World) solveLinksWorker(id int) {
	e := w.exec
	ls := &w.links
	tail := ls.serial
	r := ls.regions
	k := len(r) - 1 // regions
	rlo, rhi := k*id/e.n, k*(id+1)/e.n
	w.solveLinkRange(int(r[rlo]), int(r[rhi]))
	// With as many workers as pairs every worker holds one pair and
	// solves its links here, touching only its own particles.
	if pairs := len(ls.pairs) - 1; e.n == pairs {
		lo, hi := ls.pairs[id], ls.pairs[id+1]
		w.solveLinkRange(int(lo), int(hi))
		tail = ls.pairs[pairs]
	}
	e.bar.wait()
	if id == 0 {
		w.solveLinkRange(int(tail), len(ls.hot))
	}
}

// Close stops the World's worker goroutines (Config.Workers > 1). The World
// stays usable; the next Step starts them again. Every component's parallel
// work runs on these goroutines, so this one call is all a game makes.
func (w *World) Close() {
	if w.exec == nil {
		return
	}
	w.exec.close()
	w.exec = nil
}
