package hair

// pool runs a function over strand ranges on n goroutines; the caller is
// worker 0. It exists so that dispatching a phase does not allocate.
type pool struct {
	n     int
	start []chan job
	done  chan struct{}
}

type job struct {
	f      func(lo, hi int)
	lo, hi int
}

func newPool(n int) *pool {
	p := &pool{n: n, start: make([]chan job, n), done: make(chan struct{}, n)}
	for i := 1; i < n; i++ {
		p.start[i] = make(chan job, 1)
		go func(c chan job, done chan struct{}) {
			for j := range c {
				j.f(j.lo, j.hi)
				done <- struct{}{}
			}
		}(p.start[i], p.done)
	}
	return p
}

// run calls f on n contiguous ranges of [0, count) and waits for all.
func (p *pool) run(f func(lo, hi int), count int) {
	for i := 1; i < p.n; i++ {
		p.start[i] <- job{f, count * i / p.n, count * (i + 1) / p.n}
	}
	f(0, count/p.n)
	for i := 1; i < p.n; i++ {
		<-p.done
	}
}

func (p *pool) close() {
	for i := 1; i < p.n; i++ {
		close(p.start[i])
	}
}
