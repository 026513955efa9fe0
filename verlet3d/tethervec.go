package verlet3d

import "unsafe"

// Tethers eight at a time.
//
// Where the processor has AVX2 (tethervec_amd64.s), a pass solves the
// tethers in groups of eight consecutive ones whose particles differ from
// each other and from the group's anchors (a cloth's tethers, one a
// particle from the nearest pin, all are). A group reads its anchors and
// particles, computes each tether exactly as solveTethers does (the same
// operations in the same order, rounded the same way), and writes back the
// particles it moved; a tether that is off, or whose particle has inverse
// mass 0, leaves its lane's bits alone. Since the eight share no particle
// that one of them moves, the result is the bits solveTethers gives, on
// any machine. Other groups, and the last few tethers, go through the Go
// loop.

// tetherGroup is what the kernel reads for eight consecutive tethers.
type tetherGroup struct {
	a3, p3 [8]int32   // 3 x anchor and particle index: the index of x in pos as a []float32
	max    [8]float32 // m
	max2   [8]float32 // max*max, as solveTethers rounds it
	on     [8]int32   // -1 where the tether is on and its particle free, else 0
}

// tetherArgs is what the kernel is handed.
type tetherArgs struct {
	pos   unsafe.Pointer // &pos[0][0]
	group unsafe.Pointer // &groups[g]
}

// tetherKernels keeps the tether groups, rebuilt when the tethers or the
// inverse masses change (tetherGen, massGen).
type tetherKernels struct {
	groups       []tetherGroup
	ok           []bool // the kernel solves group g
	gen, massGen uint64 // what they were built for
	built        bool
}

// prepareTethers rebuilds the tether groups if the tethers or the masses
// changed since, and reports whether the kernel runs.
func (w *World) prepareTethers() bool {
	tk := &w.tetherK
	if !w.kernels() || len(w.pos) > maxVectorParticles || len(w.tethers) < 8 {
		return false
	}
	if tk.built && tk.gen == w.tetherGen && tk.massGen == w.massGen {
		return true
	}
	ng := len(w.tethers) / 8
	if cap(tk.groups) < ng {
		tk.groups, tk.ok = make([]tetherGroup, ng), make([]bool, ng)
	}
	tk.groups, tk.ok = tk.groups[:ng], tk.ok[:ng]
	last := int32(len(w.pos) - 1) // the kernel reads 16 bytes a particle
	for g := range tk.groups {
		ts := w.tethers[8*g : 8*g+8]
		ok := true
		for k := range ts {
			t := &ts[k]
			if t.p == last || t.anchor == last {
				ok = false
			}
			for j := range ts {
				if j != k && (ts[j].p == t.p || ts[j].anchor == t.p) || j == k && t.anchor == t.p {
					ok = false
				}
			}
		}
		tk.ok[g] = ok
		gr := &tk.groups[g]
		for k := range ts {
			t := &ts[k]
			gr.a3[k], gr.p3[k] = 3*t.anchor, 3*t.p
			gr.max[k], gr.max2[k] = t.max, float32(t.max*t.max)
			gr.on[k] = 0
			if w.invMass[t.p] != 0 && !t.off {
				gr.on[k] = -1
			}
		}
	}
	tk.gen, tk.massGen, tk.built = w.tetherGen, w.massGen, true
	return true
}

// solveTethersVec is solveTethers with the kernel on its whole groups.
func (w *World) solveTethersVec() {
	tk := &w.tetherK
	args := tetherArgs{pos: unsafe.Pointer(unsafe.SliceData(w.pos))}
	ng := len(tk.groups)
	for g := 0; g < ng; {
		if !tk.ok[g] {
			w.solveTethersRange(8*g, 8*g+8)
			g++
			continue
		}
		n := 1
		for g+n < ng && tk.ok[g+n] {
			n++
		}
		args.group = unsafe.Pointer(&tk.groups[g])
		solveTetherGroups(&args, n)
		g += n
	}
	w.solveTethersRange(8*ng, len(w.tethers))
}
