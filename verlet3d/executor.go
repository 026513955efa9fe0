package verlet3d

import (
	"runtime"
	"sync"
	"sync/atomic"
	"time"
)

// executor is the World's one pool of goroutines: every parallel phase of a
// step (the link passes, the per-particle phases, and any component's work
// through World.Parallel) runs on it, and World.Close stops it. The calling
// goroutine is worker 0.
//
// A substep dispatches many short jobs back to back (a link pass, a hair
// pass, a few hundred microseconds each), so a worker that finished one
// spins for the next for a while before it sleeps: waking a sleeping
// goroutine costs a thread wake-up, which on a virtual machine can take as
// long as the job. Dispatching does not allocate.
//
// Every job is a range job (runShares) cut into chunks, each worker owning
// one or more consecutive ones; a worker that is done with its own takes
// chunks from the end of another's, so the job waits neither for a worker
// that is late to start nor, more than a chunk, for one whose core runs
// slower. No job has a barrier inside.
type executor struct {
	n    int
	quit atomic.Bool
	// wake[i] holds at most one wake-up for worker i: the dispatcher
	// offers one per job without blocking, and a worker that wakes with
	// no new job (a stale token) just looks again. No wake-up can be lost:
	// a worker checks the job number after it last emptied its channel
	// and before it blocks.
	wake []chan struct{}
	// The dispatcher waits for the job's end by spinning, then sleeping
	// on done: the worker that finishes the last chunk wakes it if it
	// sleeps.
	doneMu   sync.Mutex
	done     sync.Cond
	sleeping atomic.Bool
	busy     bool // a job is running: nested Parallel calls run inline
	// yield: the workers have fewer Ps than they need (GOMAXPROCS below
	// n), so await yields while it spins. Read once a step (World.step)
	// and when the executor starts: runtime.GOMAXPROCS takes the
	// scheduler's lock, which the workers' own yields take too.
	yield bool
	spin  time.Duration // Config.WorkerSpin
	naps  atomic.Int64  // times a worker went to sleep (tests)

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

// newExecutor starts n-1 workers that poll for the next job for spin
// (Config.WorkerSpin) before they sleep. The spin is measured in time, not
// rounds: a round count that spins 100 µs on a quiet machine spins far
// less on a busy one, shorter than the serial phases between two parallel
// ones, and every substep would then pay a thread wake-up.
func newExecutor(n int, spin time.Duration) *executor {
	e := makeExecutor(n)
	e.spin = spin
	for i := 1; i < n; i++ {
		go e.loop(i)
	}
	return e
}

// seconds converts a Config time in seconds to a Duration.
func seconds(s float32) time.Duration { return time.Duration(float64(float64(s) * 1e9)) }

// makeExecutor is newExecutor without its worker goroutines.
func makeExecutor(n int) *executor {
	e := &executor{n: n, wake: make([]chan struct{}, n), spans: make([]chunkSpan, n), spin: seconds(DefaultConfig().WorkerSpin)}
	e.checkProcs()
	e.done.L = &e.doneMu
	for i := 1; i < n; i++ {
		e.wake[i] = make(chan struct{}, 1)
	}
	return e
}

// checkProcs sets yield from the current GOMAXPROCS.
func (e *executor) checkProcs() { e.yield = runtime.GOMAXPROCS(0) < e.n }

func (e *executor) loop(id int) {
	// Start from the range job the executor was made with, not from a
	// load: a job may be dispatched before this goroutine first runs.
	var seen uint32
	for {
		r := e.next(id, seen)
		if e.quit.Load() {
			return
		}
		// Help with job r if any chunk is left (it may be over, and even
		// a later job begun: then this claims none).
		seen = r
		e.claimShares(id, r)
	}
}

// wakeDispatcher wakes the dispatcher if it sleeps on done.
func (e *executor) wakeDispatcher() {
	e.doneMu.Lock()
	e.done.Broadcast()
	e.doneMu.Unlock()
}

// next waits until the range job moves past seen, or the executor is
// closed, and returns the job's number.
func (e *executor) next(id int, seen uint32) uint32 {
	var start time.Time
	for i := 0; ; i++ {
		if r := e.shareJob.Load(); r != seen || e.quit.Load() {
			return r
		}
		if i%64 == 63 {
			if i == 63 {
				start = time.Now()
			} else if time.Since(start) > e.spin {
				break
			}
			runtime.Gosched()
		}
	}
	e.naps.Add(1)
	for {
		<-e.wake[id]
		if r := e.shareJob.Load(); r != seen || e.quit.Load() {
			return r
		}
	}
}

// await returns once pending reports false: the workers finished the job
// (the one that finishes it calls wakeDispatcher). It spins for spinWait,
// then, when a worker is late (its thread was descheduled: the machine is
// busy), sleeps on done instead of burning the core that worker may need.
//
// While it spins it yields its P only when the workers have too few to
// run on (yield: GOMAXPROCS below Config.Workers). Otherwise a yield helps no
// one and is costly where Step is called from in a g3n game: the main
// goroutine, locked to its OS thread for OpenGL, where runtime.Gosched
// parks the thread and wakes it again through the OS, enough to make 2
// workers slower than 1 (make bench times a locked caller).
func (e *executor) await(pending func() bool) {
	if spinWhile(pending, e.yield) {
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
	done := int32(0)
	for j := range e.n {
		k := (id + j) % e.n
		span := &e.spans[k].word
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
			// Claimed: the job's fields hold until its chunks are done.
			lo, hi := e.count*c/m, e.count*(c+1)/m
			if lo < hi {
				if e.f != nil {
					e.f(lo, hi)
				} else {
					e.fi(c, lo, hi)
				}
			}
			done++
		}
	}
	if done > 0 && e.shareDone.Add(done) == int32(m) && e.sleeping.Load() {
		e.wakeDispatcher()
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
	e.wakeSleepers()
}

// spinWait is how long the dispatcher spins at the end of a job before it
// sleeps. On a quiet machine the workers finish within microseconds of
// each other; when one does not, its thread was descheduled (a busy
// machine, a game's other threads), and spinning longer would only take
// the core it needs.
const spinWait = 50 * time.Microsecond

// spinWhile polls cond until it is false, for at most spinWait, and
// reports whether it became false; it yields every 64 polls if yield.
func spinWhile(cond func() bool, yield bool) bool {
	var start time.Time
	for i := 0; cond(); i++ {
		if i%64 == 63 {
			if i == 63 {
				start = time.Now()
			} else if time.Since(start) > spinWait {
				return false
			}
			if yield {
				runtime.Gosched()
			}
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
// job: enough that when one of two cores runs a third slower (as a
// virtual machine's vCPU can for spells of tens of seconds) the other
// takes a share of its work (with 4, the slower one has claimed its last
// chunk by the time the other is done), few enough that a chunk of hair's
// 2,000 strands is about 60 strands (BENCHMARKS.md, "Thresholds").
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
	if workers <= 1 || (w.run.exec != nil && w.run.exec.busy) {
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
	if w.run.exec == nil {
		w.run.exec = newExecutor(w.cfg.Workers, seconds(w.cfg.WorkerSpin))
	}
	return w.run.exec
}

// unitsDone counts, over every pass, the units done on either side of one
// odd boundary between link regions: two a pass, so the count is even once
// both of a pass are done. Alone on its cache line, as the two units may
// be done by two workers.
type unitsDone struct {
	n atomic.Uint32
	_ [60]byte
}

// solveLinksShared is one link pass over a link set cut into regions (the
// only kind the workers share; colorRegions gives the order), as a range
// job over its units (two neighboring regions and the links between
// them), a chunk a unit where it can: each worker solves its own run of
// units front to back, and a worker done with its own takes the ones
// another has not begun, from the back, so that a worker on a slower core
// holds the pass up by at most a unit, and a worker whose thread is
// descheduled not at all. The links of an odd boundary (between units u
// and u+1) are solved by whichever worker finishes the second of those two
// units, right after it, so a pass has no barrier. The caller then solves
// the links between regions farther apart, if any. Every link is solved
// after the links before it in hot that share a particle with it, whoever
// solves which unit, so the result is the same for any Config.Workers.
func (w *World) solveLinksShared() {
	e, ls := w.executor(), &w.links
	units := len(ls.pairs) - 1
	e.f, e.count = w.run.unitJob, units
	e.runShares((units + e.n - 1) / e.n)
	if rest := int(ls.odds[len(ls.odds)-1]); rest < len(ls.hot) {
		w.solveLinkRange(rest, len(ls.hot))
	}
}

// fusePass reports whether a substep's integration, contact detection and
// first link pass can run as one job (solveLinksFused): the pass is
// shared by region units cut for the World's particles, and nothing else
// runs between the integration and the pass (no ConstraintSet), and every
// collider is one of this package's shapes (parallelColliders). It
// prepares the links for the pass, as solve would.
func (w *World) fusePass() bool {
	ls := &w.links
	if !w.splitParticles() || len(w.sets) > 0 || ls.dirty || !ls.shared() || int(ls.regionParticles) != len(w.pos) {
		return false
	}
	if len(w.colliders) > 0 && !w.parallelColliders() {
		return false
	}
	ls.prepare(w.invMass, w.massGen, w.run.invH2, w.kernels())
	return ls.active > 0
}

// solveLinksFused is solveLinksShared with each unit's particles (those of
// its two regions) first integrated for substep w.run.sub (and before that,
// with guard, put through the last substep's non-finite guard), and their
// contacts with the colliders found, by the worker that takes the unit: a
// unit's links touch no other particle, and the links between units run
// once both are done, so no worker waits for all particles to be
// integrated before it starts on its links. Particles, contacts and links
// are dealt with in the same order as by separate jobs, so the result is
// the same bits. It sets ahead.collided and returns the guard's and
// integration's tallies.
func (w *World) solveLinksFused(guard bool) workerTally {
	units := len(w.links.pairs) - 1
	w.clearTally(units) // one a unit
	// The job does the substep's collide (which step then skips: it sees
	// ahead.collided).
	w.contacts = w.contacts[:0]
	collide := len(w.colliders) > 0
	if collide {
		w.blocksFor(w.prev[:len(w.pos)], w.cfg.ContactMargin)
		w.colliderBounds(w.run.sub.Index == 0)
		w.sizeFound(units)
	}
	w.run.fusing = fuseIntegrate
	if guard {
		w.run.fusing = fuseGuard
	}
	w.run.firstPass = true
	w.solveLinksShared()
	w.run.fusing = fuseNone
	if collide {
		w.run.blockPrev = nil
		w.joinFound(units)
	}
	w.stats.Contacts = len(w.contacts)
	w.run.ahead.collided = true
	if guard {
		w.run.fused[1]++
	} else {
		w.run.fused[0]++
	}
	w.stats.ParallelLinkPasses++
	return w.sumTally()
}

// What solveUnits does to a unit's particles before its links.
const (
	fuseNone      = iota
	fuseIntegrate // integrate them (solveLinksFused)
	fuseGuard     // guard and integrate them
)

// solveUnits solves link units [lo, hi) of a pass, and each odd boundary
// beside them whose other unit is already done (a range job of
// solveLinksShared).
func (w *World) solveUnits(lo, hi int) {
	ls := &w.links
	units := len(ls.pairs) - 1
	for u := lo; u < hi; u++ {
		if w.run.fusing != fuseNone {
			lo, hi := ls.regionStart(2*u), ls.regionStart(2*u+2)
			if w.run.fusing == fuseGuard {
				w.guardRange(u, lo, hi)
			}
			w.integrateRange(u, lo, hi)
			if len(w.colliders) > 0 {
				w.blocksUpTo((lo+blockSize-1)/blockSize, (hi+blockSize-1)/blockSize, hi)
				w.collideRange(u, lo, hi)
			}
		}
		w.solveLinkRange(int(ls.regions[2*u]), int(ls.regions[2*u+2]))
		w.solveLinkRange(int(ls.pairs[u]), int(ls.pairs[u+1]))
		if u > 0 {
			w.unitDone(u - 1)
		}
		if u+1 < units {
			w.unitDone(u)
		}
	}
}

// unitDone tells odd boundary k that one of its two units is done, and
// solves its links if that was the second.
func (w *World) unitDone(k int) {
	if w.run.oddsDone[k].n.Add(1)%2 == 0 {
		ls := &w.links
		w.solveLinkRange(int(ls.odds[k]), int(ls.odds[k+1]))
	}
}

// Close stops the World's worker goroutines (Config.Workers > 1). The World
// stays usable; the next Step starts them again. Every component's parallel
// work runs on these goroutines, so this one call is all a game makes.
func (w *World) Close() {
	if w.run.exec == nil {
		return
	}
	w.run.exec.close()
	w.run.exec = nil
}
