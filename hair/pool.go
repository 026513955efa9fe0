package hair

import (
	"runtime"
	"sync/atomic"
)

// pool runs a function over strand ranges on n goroutines; the caller is
// worker 0. A substep dispatches several short phases back to back (drag,
// prepare, one pass per iteration, finish), a few hundred microseconds
// each, so a worker that has finished one spins for the next for a while
// before it sleeps: waking a sleeping goroutine costs a thread wake-up,
// which on a virtual machine can take as long as a phase. Dispatching does
// not allocate.
type pool struct {
	n     int
	f     func(lo, hi int) // the current job, set before gen moves
	count int
	gen   atomic.Uint32 // bumped once per job
	left  atomic.Int32  // workers other than the caller still on the job
	quit  atomic.Bool
	// asleep[i] is set by worker i before it blocks on wake[i]; the
	// dispatcher clears it and sends one wake-up.
	asleep []atomic.Bool
	wake   []chan struct{}
}

// spinRounds is how many times an idle worker polls for the next job
// before it sleeps; with runtime.Gosched every 64 rounds this is roughly
// 100 µs of polling.
const spinRounds = 4096

func newPool(n int) *pool {
	p := &pool{n: n, asleep: make([]atomic.Bool, n), wake: make([]chan struct{}, n)}
	for i := 1; i < n; i++ {
		p.wake[i] = make(chan struct{}, 1)
		go p.loop(i)
	}
	return p
}

func (p *pool) loop(id int) {
	// Start from the generation the pool was made with, not from a load: a
	// job may be dispatched before this goroutine first runs.
	var seen uint32
	for {
		seen = p.next(id, seen)
		if p.quit.Load() {
			return
		}
		lo, hi := p.count*id/p.n, p.count*(id+1)/p.n
		p.f(lo, hi)
		p.left.Add(-1)
	}
}

// next waits until the job generation moves past seen and returns it.
func (p *pool) next(id int, seen uint32) uint32 {
	for i := 0; i < spinRounds; i++ {
		if g := p.gen.Load(); g != seen {
			return g
		}
		if i%64 == 63 {
			runtime.Gosched()
		}
	}
	p.asleep[id].Store(true)
	if g := p.gen.Load(); g != seen {
		// A job came in while going to sleep. If the dispatcher already
		// took the flag, its wake-up is in the channel: drain it.
		if !p.asleep[id].CompareAndSwap(true, false) {
			<-p.wake[id]
		}
		return g
	}
	<-p.wake[id]
	return p.gen.Load()
}

// run calls f on n contiguous ranges of [0, count) and waits for all.
func (p *pool) run(f func(lo, hi int), count int) {
	p.f, p.count = f, count
	p.left.Store(int32(p.n - 1))
	p.gen.Add(1)
	p.wakeSleepers()
	f(0, count/p.n)
	for i := 0; p.left.Load() != 0; i++ {
		if i%64 == 63 {
			runtime.Gosched()
		}
	}
}

func (p *pool) wakeSleepers() {
	for i := 1; i < p.n; i++ {
		if p.asleep[i].CompareAndSwap(true, false) {
			p.wake[i] <- struct{}{}
		}
	}
}

func (p *pool) close() {
	p.quit.Store(true)
	p.gen.Add(1)
	p.wakeSleepers()
}
