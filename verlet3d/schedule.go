package verlet3d

import (
	"time"

	"github.com/go-gl/mathgl/mgl32"
)

// schedule is the part of a World that runs a step rather than holds what
// is simulated: the workers, the jobs bound to them once (so dispatching
// one does not allocate), the current substep's context, and what a fused
// fast path did ahead of the phase that would otherwise do it. The World's
// other fields are its state: particles, links, tethers, colliders, force
// fields, constraint sets, the clock, stats and sleep.
//
// The phases of a substep, in the order World.step runs them (the package
// doc's "The step" numbers them alike):
//
//  1. forces: gravity and every ForceField (applyForces);
//  2. integrate: Verlet with damping, kinematic targets, the speed clamp
//     (integrate), unless ahead.integrated;
//  3. collide: the colliders' contacts (collide), unless ahead.collided,
//     then every ConstraintSet's Prepare;
//  4. solve: Config.Iterations passes of links, tethers, each set's Solve
//     and the collider contacts (solve);
//  5. respond: the contacts' friction and restitution (contactResponse),
//     then every Finisher's Finish;
//  6. post: broken links, the non-finite guard, the last projection out of
//     colliders (post), which may integrate the next substep in the same
//     dispatch.
//
// The fast paths are choices inside a phase, decided there and recorded in
// ahead for the phase they stand in for:
//   - post integrates the next substep with its guard on the workers when
//     nothing can change the accelerations in between (no force field),
//     and sets ahead.integrated; phase 2 of that substep then does nothing.
//   - the integration job of a large World on several workers may also find
//     the collider contacts and run the first link pass, unit by unit, as
//     each unit's particles are integrated (solveLinksFused), and sets
//     ahead.collided; phase 3 then only runs Prepare and phase 4 starts at
//     the second link pass.
type schedule struct {
	exec  *executor
	sub   Substep // the substep being run, for the bound range jobs
	invH2 float32 // 1/h² of the current substep
	// firstPass: the link pass running is the substep's first
	// (solveLinks).
	firstPass bool
	// ahead is what a fused path did for the substep about to run.
	ahead struct {
		integrated bool // post integrated it
		collided   bool // its contacts and first link pass ran with its integration
	}
	// fusing tells solveUnits what to do to each unit's particles before
	// its first link pass (fuseNone, fuseIntegrate, fuseGuard).
	fusing int
	fused  [2]int // passes solveLinksFused ran, without and with the guard
	// The bound jobs: links by unit, the particle-range phases with their
	// per-worker tallies, the broad phase, collide and clampOutside.
	unitJob           func(lo, hi int) // solveUnits
	integrateJob      func(id, lo, hi int)
	guardJob          func(id, lo, hi int)
	guardIntegrateJob func(id, lo, hi int)
	gravityJob        func(id, lo, hi int)
	blocksJob         func(lo, hi int)
	collideJob        func(id, lo, hi int)
	clampJob          func(id, lo, hi int)
	tally             []workerTally
	// oddsDone counts, by odd boundary between link regions, the units
	// done beside it (solveLinksShared).
	oddsDone [mostRegions/2 - 1]unitsDone
	// noKernels turns the AVX2 kernels off (tests compare the two paths).
	noKernels bool
	// The collision broad phase's boxes (buildBlocks) and its inputs for
	// blocksJob; collide's contacts by worker.
	blocks      []particleBlock
	blockPrev   []mgl32.Vec3
	blockMargin float32
	blockMask   uint32 // the colliders' Masks, ORed
	found       []colliderFound
}

// step runs one step; left is how many steps, this one included, the
// current frame still has (1 for Step): kinematic motion set once per frame
// is spread evenly over them.
func (w *World) step(left int) {
	if w.sleep.asleep {
		if w.stayAsleep() {
			w.steps++
			w.time = w.timeBase + float64(float64(w.steps)*float64(w.cfg.TimeStep))
			w.stats.Steps++
			w.stats.SleepingSteps++
			return
		}
		w.sleep.asleep = false
		w.sleep.still = 0
	}
	w.recenter()
	if w.links.dirty {
		w.links.color(len(w.pos))
	}
	if w.run.exec != nil {
		w.run.exec.checkProcs() // GOMAXPROCS may have changed since the last step
	}
	n := w.cfg.Substeps
	h := w.SubstepLength()
	w.run.invH2 = 1 / (h * h)
	for s := 0; s < n; s++ {
		sub := w.substep(s, left)
		w.run.sub = sub
		ph := &w.stats.Phases
		t := time.Now()
		// 1. forces
		w.applyForces(sub)
		t = lap(&ph.Forces, t)
		// 2. integrate, unless the last substep's post did
		if w.run.ahead.integrated {
			w.run.ahead.integrated = false
		} else {
			w.stats.SpeedClamps += w.integrate(false).clamps
		}
		t = lap(&ph.Integrate, t)
		// 3. collide, unless the integration's job did (solveLinksFused;
		// solve then skips its first link pass and clears ahead.collided)
		if !w.run.ahead.collided {
			w.collide(s == 0)
		}
		t = lap(&ph.Collide, t)
		// (3.) the sets' Prepare
		for _, cs := range w.sets {
			cs.Prepare(w, sub)
		}
		// 4. solve
		w.solve(sub)
		t = lap(&ph.Solve, t)
		// 5. respond
		w.contactResponse()
		sub.Iteration = 0
		for _, cs := range w.sets {
			if f, ok := cs.(Finisher); ok {
				f.Finish(w, sub)
			}
		}
		t = lap(&ph.Respond, t)
		// 6. post, which may integrate the next substep (ahead.integrated)
		w.post(s, left)
		lap(&ph.Post, t)
	}
	w.steps++
	w.time = w.timeBase + float64(float64(w.steps)*float64(w.cfg.TimeStep))
	w.stats.Steps++
	w.updateSleep()
}
