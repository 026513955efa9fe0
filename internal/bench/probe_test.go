package bench_test

import (
	"runtime"
	"sort"
	"sync/atomic"
	"time"
)

// The two vCPUs of a shared virtual machine do not stay the same from one
// minute to the next. On one such machine, probed every 2.5 s for 7
// minutes beside cubes100
// (the scene with the most jobs and shared data a frame) on 1 and 2
// workers, four states came and went:
//
//	round trip  item ns (1st, 2nd)  cubes100 ms (1 worker, 2)  speed-up
//	400-450 ns  79-82, 71-73        1.34-1.45, 1.10-1.18       1.2x   most of the time
//	 91-95 ns   79-82, 71-73        1.35-1.39, 0.79-0.82       1.7x   spells of 20-40 s
//	 92-111 ns  98-113, 89-94       1.71-1.86, 1.02-1.16       1.7x   one worker slow
//	400-440 ns  80-101, 87-99       1.35-1.54, 1.31-1.40       1.0x   spells of 10-30 s
//
// The round trip is a cache line passed from one vCPU to the other and
// back (the vCPUs closer together in the second and third states); the
// item times are a job of private work split in halves between two
// goroutines, as the per-particle phases and bodies split a range job. In the last state one goroutine's
// items take 85-110 ns against 71-78, the first's or the second's (a
// `make bench` in such a spell: cubes100 1.00x, hair2000 1.26x, cloth64
// 1.38x): one vCPU runs a third slower, and a job split in halves waits
// for it (World.Parallel's chunks let the other worker take some of its
// share: executor.go). probeSecondVCPU measures both before each run of the table, so
// that its 2-worker figures can be read.
const (
	probeBursts = 200 // round-trip bursts
	probeTrips  = 100 // round trips a burst
	probeJobs   = 2000
	probeItems  = 50 // per goroutine and job
	probeFirst  = 5  // the items counted as a job's first
)

// probe is what probeSecondVCPU measured. Each is a median, over the
// bursts or the jobs, so that a moment a thread was descheduled does not
// count.
type probe struct {
	roundTrip float64 // ns for a cache line to go to the second goroutine and back
	// ns per item of a job split between two goroutines: the first's items,
	// and the second's first probeFirst items and its others.
	one, first, rest float64
}

// probeFlag is a counter on its own cache line.
type probeFlag struct {
	n atomic.Int64
	_ [56]byte
}

func probeSecondVCPU() probe {
	var p probe
	p.roundTrip = probeRoundTrip()
	p.one, p.first, p.rest = probeJob()
	return p
}

// probeRoundTrip passes a counter between two goroutines, each waiting for
// the other's increment, and returns the median time of a round trip over
// probeBursts bursts, ns.
func probeRoundTrip() float64 {
	var f probeFlag
	go func() {
		for i := int64(1); i < 2*probeBursts*probeTrips; i += 2 {
			wait(&f, i, 4096)
			f.n.Store(i + 1)
		}
	}()
	bursts := make([]float64, probeBursts)
	var n int64
	for b := range bursts {
		t := time.Now()
		for range probeTrips {
			f.n.Store(n + 1)
			wait(&f, n+2, 4096)
			n += 2
		}
		bursts[b] = float64(time.Since(t).Nanoseconds()) / probeTrips
	}
	sort.Float64s(bursts)
	return bursts[probeBursts/2]
}

// probeJob splits a job of private work (each item its own 256 bytes,
// nothing shared) in halves between the calling goroutine and a second
// one, as bodies splits a range job, probeJobs times over, and returns the
// median time per item of the caller's items, of the second goroutine's
// first probeFirst items and of its others, ns.
func probeJob() (one, first, rest float64) {
	mk := func() [][32]float64 { return make([][32]float64, probeItems) }
	mine, theirs := mk(), mk()
	var start, done probeFlag
	firsts, rests := make([]float64, probeJobs), make([]float64, probeJobs)
	go func() {
		for j := int64(1); j <= probeJobs; j++ {
			wait(&start, j, 64)
			t0 := time.Now()
			var t1 time.Time
			for i := range theirs {
				probeItem(&theirs[i])
				if i == probeFirst-1 {
					t1 = time.Now()
				}
			}
			t2 := time.Now()
			firsts[j-1] = float64(t1.Sub(t0).Nanoseconds()) / probeFirst
			rests[j-1] = float64(t2.Sub(t1).Nanoseconds()) / (probeItems - probeFirst)
			done.n.Store(j)
		}
	}()
	ones := make([]float64, probeJobs)
	for j := int64(1); j <= probeJobs; j++ {
		start.n.Store(j)
		t0 := time.Now()
		for i := range mine {
			probeItem(&mine[i])
		}
		ones[j-1] = float64(time.Since(t0).Nanoseconds()) / probeItems
		wait(&done, j, 64)
	}
	sort.Float64s(firsts)
	sort.Float64s(rests)
	sort.Float64s(ones)
	return ones[probeJobs/2], firsts[probeJobs/2], rests[probeJobs/2]
}

// wait spins until f reaches n, yielding every yieldEvery rounds.
// probeJob yields as the executor's workers do (every 64); the round trip
// only after thousands (a partner descheduled, or sharing the only CPU),
// so that no yield counts in a round trip.
func wait(f *probeFlag, n int64, yieldEvery int) {
	for i := 1; f.n.Load() < n; i++ {
		if i%yieldEvery == 0 {
			runtime.Gosched()
		}
	}
}

// probeItem is about 130 ns of arithmetic on b alone.
func probeItem(b *[32]float64) {
	for r := 0; r < 5; r++ {
		for i := range b {
			b[i] = b[i]*0.999 + 0.5
		}
	}
}
