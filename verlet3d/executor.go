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
// the per-particle phases) is cut into chunks, each worker owning one or
// more consecutive ones; a worker that is done with its own takes chunks
// from the end of another's, so the job waits neither for a worker that is late
// to start nor, more than a chunk, for one whose core runs slower.
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
	// told the chunk's index as the worker id) over count items is cut into
	// m = n·per chunks, chunk j being [count·j/m, count·(j+1)/m); worker k
	// owns chunks [k·per, (k+1)·per) and runs them front to back, so a
	// worker keeps its items from job to job (data a range job writes stays
	// in the cache of the worker that runs the next job over the same
	// range). A worker done with its own takes the others' unclaimed chunks
	// from the back: one whose thread was descheduled (a busy machine, a
	// game's other threads) or whose core runs slower holds the job up by
	// at most the chunk it is on. The job ends when every chunk is done.
	// shareJob is the range job's number, moved once per job; spans[k]
	// holds worker k's chunks left (spanOf); shareDone counts the chunks
	// done. f, fi and count are written before shareJob moves and read only
	// by a worker that claimed a chunk; per is read by workers that may be
	// a job late, so it is atomic.
	shareJob  atomic.Uint32
	spans     []chunkSpan
	shareDone atomic.Int32
	per       atomic.Int32
	f         func(lo, hi int)
	fi        func(id, lo, hi int)
	count     int
}

// chunkSpan is one worker's chunks left in a range job, alone on its cache
// line: the worker that claims its own chunks every job keeps the line.
// Its word packs the number of the job that last claimed a chunk of it
// (high 32 bits) and the chunks [front, back) still unclaimed in that job
// (16 bits each). A span still marked with the previous job is whole: its
// job is over (no job starts before every chunk of the last was done), so
// job r reads it as all the owner's chunks, and the first claim in job r
// marks it.
type chunkSpan struct {
	word atomic.Uint64
	_    [56]byte
}

func packSpan(job uint32, front, back int) uint64 {
	return uint64(job)<<32 | uint64(front)<<16 | uint64(back)
}

// spanOf returns the chunks [front, back) that word, the span of worker k,
// leaves unclaimed in range job r with per chunks a worker, or ok false
// when the word belongs to another job (job r is over and a later one
// began, or the worker asking is late).
func spanOf(word uint64, r uint32, k, per int) (front, back int, ok bool) {
	switch uint32(word >> 32) {
	case r - 1:
		return k * per, (k + 1) * per, true
	case r:
		return int(word >> 16 & 0xffff), int(word & 0xffff), true
	}
	return 0, 0, false
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
	e := &executor{n: n, wake: make([]chan struct{}, n), spans: make([]chunkSpan, n)}
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
// items, in per chunks a worker, and waits until every chunk is done.
func (e *executor) runShares(per int) {
	e.busy = true
	e.shareDone.Store(0)
	e.per.Store(int32(per))
	r := e.shareJob.Load() + 1
	e.shareJob.Store(r)
	e.wakeSleepers()
	e.claimShares(0, r)
	m := int32(e.n * per)
	e.await(func() bool { return e.shareDone.Load() != m }) // chunks under way on another worker
	e.f, e.fi = nil, nil
	e.busy = false
}

// claimShares runs the chunks of range job r that no one has claimed:
// worker id's own first, front to back, then the others' from the back.
func (e *executor) claimShares(id int, r uint32) {
	per := int(e.per.Load())
	m := e.n * per
	done := claimChunks(e.spans, id, r, per, func(c int) {
		// Claimed: the job's fields hold until its chunks are done.
		lo, hi := e.count*c/m, e.count*(c+1)/m
		if lo < hi {
			if e.f != nil {
				e.f(lo, hi)
			} else {
				e.fi(c, lo, hi)
			}
		}
	})
	if done > 0 && e.shareDone.Add(done) == int32(m) && e.sleeping.Load() {
		e.wakeDispatcher()
	}
}

// claimChunks runs, by calling run(c), the chunks c of job r that no one
// has claimed in spans (one per worker, per chunks each): worker id's own
// first, front to back, then the others' from the back. It returns how
// many it ran. Every chunk of a job must be claimed before the next job
// over the same spans begins (spanOf reads a span of the previous job as
// whole).
func claimChunks(spans []chunkSpan, id int, r uint32, per int, run func(c int)) int32 {
	n := len(spans)
	done := int32(0)
	for j := range n {
		k := (id + j) % n
		span := &spans[k].word
		for {
			w := span.Load()
			front, back, ok := spanOf(w, r, k, per)
			if !ok || front >= back {
				break
			}
			c := front // the owner takes its next chunk
			if k != id {
				c = back - 1 // another its last
				back--
			} else {
				front++
			}
			// Fails if another claimed a chunk of the span meanwhile, or
			// if job r is over (the span then belongs to a later job).
			if !span.CompareAndSwap(w, packSpan(r, front, back)) {
				continue
			}
			run(c)
			done++
		}
	}
	return done
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
// are done. f must touch only the data of its own range, and must not
// assume which goroutine runs a range or how many ranges there are; the
// result is then the same for any worker count. With one worker, or when
// called from inside another Parallel job, it is simply f(0, n).
// Otherwise, with W = Config.Workers, [0, n) is cut into 16·W chunks
// [n·j/(16·W), n·(j+1)/(16·W)) (no call for an empty one), and worker k
// (the caller is worker 0) runs chunks 16·k to 16·k+15 in order: two calls with
// the same n give each worker the same items, so data a job writes stays
// in that worker's cache for the next job over it. A worker done with its
// own chunks takes the chunks another has not begun, from the end: a
// worker whose thread was descheduled (a busy machine, a game's other
// threads) or whose core runs slower holds a job up by at most the chunk
// it is on. Components call it from their hooks (hair strands, contacts);
// they never start goroutines of their own.
func (w *World) Parallel(n int, f func(lo, hi int)) {
	w.parallel(n, parallelChunks, f)
}

// parallelChunks is how many chunks a worker owns in a World.Parallel
// job: enough that when one of two cores runs a third slower (as one of
// the CI machine's two vCPUs does for spells of tens of seconds) the other
// takes a share of its work (with 4 the slower one had claimed its last
// chunk by the time the other was done), few enough that a chunk of hair's
// 2,000 strands is about 60 strands. hair2000 on 2 workers, the old shares
// and 8 chunks alternating for 8 minutes: 2.12 -> 2.03 ms in the usual
// state, 2.76 -> 2.41 in the spells of one slower vCPU; 16 against 8, 304
// pairs of adjacent runs: 1.7% faster in the usual state and in the spells
// alike (BENCHMARKS.md).
const parallelChunks = 16

// parallel is World.Parallel with per chunks a worker: 1 makes worker k's
// range exactly [n·k/W, n·(k+1)/W), unless it was late to begin.
func (w *World) parallel(n, per int, f func(lo, hi int)) {
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
	e.runShares(per)
}

// executor returns the World's executor, starting it on first use.
func (w *World) executor() *executor {
	if w.exec == nil {
		w.exec = newExecutor(w.cfg.Workers)
		w.linkJob = w.solveLinksWorker
		w.linkPass = linkPass{
			units: make([]chunkSpan, w.cfg.Workers),
			odds:  make([]unitsDone, manyRegions/2-1),
		}
	}
	return w.exec
}

// linkPass is what the workers share in the link passes over a link set
// cut into regions: the pass's number, each worker's units left to claim
// (chunkSpan, numbered by pass), and by odd boundary how many of the
// units on either side are done.
type linkPass struct {
	n     uint32
	units []chunkSpan
	odds  []unitsDone
}

// unitsDone counts, over every pass, the units done on either side of one
// odd boundary: two a pass, so the count is even once both of a pass are
// done. Alone on its cache line, as the two units may be done by two
// workers.
type unitsDone struct {
	n atomic.Uint32
	_ [60]byte
}

// solveLinksWorker is worker id's share of one link pass over a link set
// cut into regions (the only kind the workers share; colourRegions gives
// the order). The units (two regions and the links between them) go out
// as the chunks of a range job do: each worker owns a run of them and
// solves those front to back, and a worker done with its own takes the
// ones another has not begun, from the back, so that a worker on a slower
// core holds the pass up by at most a unit. The links of an odd boundary
// (between units u and u+1) are solved by whichever worker finishes the
// second of those two units, right after it: so no worker waits for
// another except at the end of the pass, and, when a link joins regions
// farther apart, at one barrier before worker 0 solves those. Every link
// is solved after the links before it in hot that share a particle with
// it, whoever solves which unit, so the result is the same for any
// Config.Workers.
func (w *World) solveLinksWorker(id int) {
	e, ls, lp := w.exec, &w.links, &w.linkPass
	units := len(ls.pairs) - 1
	per := (units + e.n - 1) / e.n
	m := e.n * per
	claimChunks(lp.units, id, lp.n, per, func(c int) {
		for u := units * c / m; u < units*(c+1)/m; u++ {
			w.solveLinkRange(int(ls.regions[2*u]), int(ls.regions[2*u+2]))
			w.solveLinkRange(int(ls.pairs[u]), int(ls.pairs[u+1]))
			if u > 0 {
				w.unitDone(u - 1)
			}
			if u+1 < units {
				w.unitDone(u)
			}
		}
	})
	if rest := int(ls.odds[len(ls.odds)-1]); rest < len(ls.hot) {
		e.bar.wait()
		if id == 0 {
			w.solveLinkRange(rest, len(ls.hot))
		}
	}
}

// unitDone tells odd boundary k that one of its two units is done, and
// solves its links if that was the second.
func (w *World) unitDone(k int) {
	if w.linkPass.odds[k].n.Add(1)%2 == 0 {
		ls := &w.links
		w.solveLinkRange(int(ls.odds[k]), int(ls.odds[k+1]))
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
