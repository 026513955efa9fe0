package verlet3d

import (
	"sync/atomic"
	"testing"
)

// A range job does not wait for a worker that never comes to it (its
// thread descheduled by a busy machine): the caller claims the share left
// and the job ends with every item done once. The worker, started late,
// then finds the old job over and takes its part in the next jobs, range
// and all-hands alike, without running anything twice.
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
	e.runShares() // worker 1 is not running: this returned only if worker 0 did it all
	check("worker 1 absent", 1)

	go e.loop(1) // late: the job it was offered is over
	var ran [n]atomic.Int32
	for job := 2; job <= 50; job++ {
		e.f, e.count = rangeJob, items
		e.runShares()
		check("range job", int32(job))
		e.run(func(id int) { ran[id].Add(1) })
		for id := range ran {
			if got := ran[id].Load(); got != int32(job-1) {
				t.Fatalf("all-hands job %d: worker %d ran %d of them", job-1, id, got)
			}
		}
	}
	var shares [n]atomic.Int32
	e.fi, e.count = func(id, lo, hi int) { shares[id].Add(int32(hi - lo)) }, items
	e.runShares()
	if a, b := shares[0].Load(), shares[1].Load(); a != items/n || b != items-items/n {
		t.Errorf("id job: shares told %d and %d items, want %d and %d (the id is the share's)", a, b, items/n, items-items/n)
	}
	e.close()
}
