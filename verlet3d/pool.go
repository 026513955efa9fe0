package verlet3d

import (
	"runtime"
	"sync/atomic"
)

// workerPool runs the link batches of solve on Config.Workers goroutines.
// The calling goroutine is worker 0. Between colour batches every worker
// waits at a spinning barrier, so one batch never overlaps the next.
type workerPool struct {
	n     int
	start []chan struct{}
	done  chan struct{}
	bar   barrier
	// The job of the current substep.
	w     *World
	h     float32
	invH2 float32
}

type barrier struct {
	n     int32
	count atomic.Int32
	gen   atomic.Uint32
}

func (b *barrier) wait() {
	g := b.gen.Load()
	if b.count.Add(1) == b.n {
		b.count.Store(0)
		b.gen.Add(1)
		return
	}
	for i := 0; b.gen.Load() == g; i++ {
		if i > 100 {
			runtime.Gosched()
		}
	}
}

func newWorkerPool(n int) *workerPool {
	p := &workerPool{n: n, done: make(chan struct{}, n)}
	p.bar.n = int32(n)
	p.start = make([]chan struct{}, n)
	for i := 1; i < n; i++ {
		p.start[i] = make(chan struct{}, 1)
		go p.loop(i)
	}
	return p
}

func (p *workerPool) loop(id int) {
	for range p.start[id] {
		p.run(id)
		p.done <- struct{}{}
	}
}

// run is one worker's share of all iterations of one substep. Worker 0 also
// solves the serial tail and the constraint types after links while the
// others wait at the barrier.
func (p *workerPool) run(id int) {
	w := p.w
	ls := &w.links
	for it := 0; it < w.cfg.Iterations; it++ {
		for b := 0; b+1 < len(ls.batches); b++ {
			lo, hi := int(ls.batches[b]), int(ls.batches[b+1])
			n := hi - lo
			a := lo + n*id/p.n
			z := lo + n*(id+1)/p.n
			solveLinks(ls.hot[a:z], w.pos, w.invMass, p.invH2)
			p.bar.wait()
		}
		if id == 0 {
			solveLinks(ls.hot[ls.serial:], w.pos, w.invMass, p.invH2)
			w.solveRest(p.h)
		}
		p.bar.wait()
	}
}

func (w *World) solveParallel(h, invH2 float32) {
	if w.pool == nil {
		w.pool = newWorkerPool(w.cfg.Workers)
	}
	p := w.pool
	p.w, p.h, p.invH2 = w, h, invH2
	for i := 1; i < p.n; i++ {
		p.start[i] <- struct{}{}
	}
	p.run(0)
	for i := 1; i < p.n; i++ {
		<-p.done
	}
}

// Close stops the World's worker goroutines (Config.Workers > 1). The World
// stays usable; the next Step starts them again.
func (w *World) Close() {
	if w.pool == nil {
		return
	}
	for i := 1; i < w.pool.n; i++ {
		close(w.pool.start[i])
	}
	w.pool = nil
}
