package verlet3d

import (
	"math"
	"unsafe"

	"github.com/go-gl/mathgl/mgl32"
)

// Links eight at a time.
//
// Where the processor has 8-wide vector arithmetic (AVX2 on amd64; see
// linkvec_amd64.s), a pass solves plain XPBD links in groups of eight
// consecutive solver slots that share no particle (most of a color
// batch). A group reads its sixteen particles, computes each link exactly
// as solveLinks does (the same operations in the same order, each rounded
// the same way: no fused multiply-add, no reciprocal estimates), and writes
// them back. Since the eight links share no particle, solving them side by
// side gives the same bits as solving them one after another, so the World
// steps to the same result with or without the vector path, on any machine
// and for any Config.Workers. Every other slot (flagged links, groups whose
// links share a particle or straddle a range's end, a group with a link of
// zero length) is solved by solveLinks.
//
// Without the kernel the same groups go to a Go loop, solveLinkGroupsGo,
// which reads their columns instead of linkHot and invMass and solves a
// group whose links share no particle in two sweeps (see there).

// linkGroupSize is the number of links a vector group solves together.
const linkGroupSize = 8

// linkGroup is what the vector kernel reads for eight consecutive solver
// slots, field by field (224 bytes): prepare fills it from hot.
type linkGroup struct {
	a3, b3 [linkGroupSize]int32   // 3 x particle index: the index of x in pos as a []float32
	rest   [linkGroupSize]float32 // m
	alphaH [linkGroupSize]float32 // compliance / h², as solveLinks rounds c.alpha*invH2
	invDen [linkGroupSize]float32
	wa, wb [linkGroupSize]float32 // inverse masses of a and b
}

// linkGroupArgs is what the kernel is handed: pointers to the first
// group's data, its multipliers and the positions.
type linkGroupArgs struct {
	pos    unsafe.Pointer // &pos[0][0]
	group  unsafe.Pointer // &groups[g]
	lambda unsafe.Pointer // &lambda[8g]
	eps    float32        // the degenerate length², as solveLinks compares it
	first  uint32         // 1 on a substep's first pass: multipliers start at zero
	// exact is 1 when the kernel loads each particle as the 8 and 4 bytes
	// it stores (ROWS12), not as one 16-byte row (ROWS): for groups that
	// read particles the groups just before them wrote (linkStore.groupNear).
	// A 16-byte load over two smaller stores still in flight cannot take
	// its data from them and waits for them to reach the cache; the exact
	// loads cost a shuffle a particle more, which loses where groups are
	// far apart (cloth 64 x 64 16% slower with exact loads everywhere, the
	// cape 12% faster).
	exact uint32
}

// prepareGroups fills ls.groups, ls.groupOK and ls.groupIdle from hot,
// which prepare has just brought up to date. A group is solved by the
// kernel when its eight links are plain XPBD links and share no particle,
// and skipped when none of them is solved (idle or broken: the links of
// cubes that bodies alone moves).
//
// Without kernels the Go loop solveLinkGroupsGo reads the same groups: a
// group is solved by it when its eight links are plain XPBD links (they
// may share particles, and touch the last one) whose inverse denominators
// are at least minGoInvDen, and groupGo tells what more it may assume
// (goSep, goSameW).
func (ls *linkStore) prepareGroups(invMass []float32, invH2 float32, kernels bool) {
	ng := len(ls.hot) / linkGroupSize
	if ng == 0 || len(invMass) > maxVectorParticles {
		ls.groupOK, ls.groupIdle = ls.groupOK[:0], ls.groupIdle[:0]
		return
	}
	if cap(ls.groups) < ng {
		ls.groups = make([]linkGroup, ng)
		ls.groupOK = make([]bool, ng)
		ls.groupIdle = make([]bool, ng)
	}
	ls.groups, ls.groupOK, ls.groupIdle = ls.groups[:ng], ls.groupOK[:ng], ls.groupIdle[:ng]
	ls.goGroups = !kernels
	last := int32(-1) // no particle: the Go loop takes any
	if kernels {
		ls.markNear(len(invMass))
		last = int32(len(invMass) - 1) // the kernel reads 16 bytes per particle
	} else {
		if cap(ls.groupGo) < ng {
			ls.groupGo = make([]uint8, ng)
		}
		ls.groupGo = ls.groupGo[:ng]
	}
	for g := range ls.groups {
		hot := ls.hot[g*linkGroupSize : (g+1)*linkGroupSize]
		idle := true
		for k := range hot {
			idle = idle && hot[k].flags&(linkIdle|linkBroken) != 0
		}
		ls.groupIdle[g] = idle
		plain, sep, bigDen, sameW := true, true, true, true
		for k := range hot {
			c := &hot[k]
			if c.flags != 0 || c.a == last || c.b == last {
				plain = false
				break
			}
			for j := range k {
				if o := &hot[j]; o.a == c.a || o.a == c.b || o.b == c.a || o.b == c.b {
					sep = false
				}
			}
			bigDen = bigDen && c.invDen >= minGoInvDen
			sameW = sameW && math.Float32bits(invMass[c.a]) == math.Float32bits(invMass[c.b])
		}
		ok := plain && sep
		if !kernels {
			ok = plain && bigDen
			var f uint8
			if sep {
				f |= goSep
			}
			if sameW {
				f |= goSameW
			}
			ls.groupGo[g] = f
		}
		ls.groupOK[g] = ok
		if !ok {
			continue
		}
		gr := &ls.groups[g]
		for k := range hot {
			c := &hot[k]
			gr.a3[k], gr.b3[k] = 3*c.a, 3*c.b
			gr.rest[k], gr.alphaH[k], gr.invDen[k] = c.rest, float32(c.alpha*invH2), c.invDen
			gr.wa[k], gr.wb[k] = invMass[c.a], invMass[c.b]
		}
	}
}

// nearGroups is how many groups back a group's loads count as near the
// stores of: a group takes about 60 cycles, and its 32 stores take longer
// than that to leave the store buffer when the groups before have filled it.
const nearGroups = 2

// markNear sets groupNear (growing it to the groups' count): group g is
// near when one of its particles' 16-byte rows (the particle and the next
// one's x) overlaps a particle written by one of the nearGroups groups
// before it in solver order. In a level-ordered serial run (levelOrder: a
// small cloth such as the cape, where a level holds two or three groups)
// most groups are; in color batches and regions almost none.
func (ls *linkStore) markNear(nParticles int) {
	ng := len(ls.groupOK)
	if cap(ls.groupNear) < ng {
		ls.groupNear = make([]bool, ng)
	}
	ls.groupNear = ls.groupNear[:ng]
	if cap(ls.wroteBy) < nParticles+1 {
		ls.wroteBy = make([]int32, nParticles+1)
	}
	// wroteBy[p] is 1 + the last group that wrote particle p (0: none).
	wrote := ls.wroteBy[:nParticles+1]
	clear(wrote)
	for g := range ng {
		near := false
		hot := ls.hot[g*linkGroupSize : (g+1)*linkGroupSize]
		for k := range hot {
			for _, p := range [2]int32{hot[k].a, hot[k].b} {
				if int(max(wrote[p], wrote[p+1])) >= g+1-nearGroups {
					near = true
				}
			}
		}
		ls.groupNear[g] = near
		for k := range hot {
			wrote[hot[k].a], wrote[hot[k].b] = int32(g+1), int32(g+1)
		}
	}
}

// maxVectorParticles bounds the particle count for the kernel, whose
// gathers index pos as float32s with 32-bit signed indices (3 per particle).
const maxVectorParticles = (1<<31 - 1) / 3

// solveRange is one pass over the links hot[lo:hi]: the vector kernel (or,
// without kernels, solveRangeGo's Go loop) on every whole group in the
// range that prepareGroups marked, solveLinks on the rest, in solver order.
//
// keep is false when the pass is its substep's only one, so that no pass
// reads the multipliers it sets: the Go loop may then leave them unwritten
// (solveLinkGroupsGo).
func (ls *linkStore) solveRange(lo, hi int, pos []mgl32.Vec3, invMass []float32, invH2 float32, first, keep bool) {
	if len(ls.groupOK) == 0 {
		solveLinks(ls.hot[lo:hi], ls.lambda[lo:hi], pos, invMass, invH2, first)
		return
	}
	if ls.goGroups {
		ls.solveRangeGo(lo, hi, pos, invMass, invH2, first, keep)
		return
	}
	args := linkGroupArgs{pos: unsafe.Pointer(unsafe.SliceData(pos)), eps: 1e-18}
	if first {
		args.first = 1
	}
	k := lo
	for k < hi {
		g := k / linkGroupSize
		if k%linkGroupSize == 0 && k+linkGroupSize <= hi && ls.groupIdle[g] {
			// As solveLinkFlagged leaves each of them.
			if first {
				clear(ls.lambda[k : k+linkGroupSize])
			}
			k += linkGroupSize
			continue
		}
		if k%linkGroupSize != 0 || k+linkGroupSize > hi || !ls.groupOK[g] {
			e := min(hi, (g+1)*linkGroupSize)
			solveLinks(ls.hot[k:e], ls.lambda[k:e], pos, invMass, invH2, first)
			k = e
			continue
		}
		n := 1
		near := ls.groupNear[g]
		for (g+n+1)*linkGroupSize <= hi && ls.groupOK[g+n] && ls.groupNear[g+n] == near {
			n++
		}
		args.exact = 0
		if near {
			args.exact = 1
		}
		args.group = unsafe.Pointer(&ls.groups[g])
		args.lambda = unsafe.Pointer(&ls.lambda[k])
		done := solveLinkGroups(&args, n)
		k += done * linkGroupSize
		if done < n {
			// A link of (nearly) zero length: this group goes link by link.
			solveLinks(ls.hot[k:k+linkGroupSize], ls.lambda[k:k+linkGroupSize], pos, invMass, invH2, first)
			k += linkGroupSize
		}
	}
}

// solveRangeGo is solveRange without kernels: solveLinkGroupsGo on every
// run of whole groups in the range that prepareGroups marked, solveLinks
// on the rest, in solver order. keep is false when no later pass of the
// substep reads the multipliers (see solveRange).
func (ls *linkStore) solveRangeGo(lo, hi int, pos []mgl32.Vec3, invMass []float32, invH2 float32, first, keep bool) {
	k := lo
	for k < hi {
		g := k / linkGroupSize
		whole := k%linkGroupSize == 0 && k+linkGroupSize <= hi
		if whole && ls.groupIdle[g] {
			if first {
				clear(ls.lambda[k : k+linkGroupSize])
			}
			k += linkGroupSize
			continue
		}
		if !whole || !ls.groupOK[g] {
			e := min(hi, (g+1)*linkGroupSize)
			solveLinks(ls.hot[k:e], ls.lambda[k:e], pos, invMass, invH2, first)
			k = e
			continue
		}
		// The run of marked groups from g, to the range's last whole group.
		ok := ls.groupOK[g : hi/linkGroupSize]
		n := 1
		for n < len(ok) && ok[n] {
			n++
		}
		e := k + n*linkGroupSize
		solveLinkGroupsGo(ls.groups[g:g+n], ls.groupGo[g:g+n], ls.lambda[k:e], pos, first, keep)
		k = e
	}
}

// Column offsets in a linkGroup, for the Go loops that walk a pointer
// along a group's first column (solveLinkGroupsGo).
const (
	offB3     = unsafe.Offsetof(linkGroup{}.b3)
	offRest   = unsafe.Offsetof(linkGroup{}.rest)
	offAlphaH = unsafe.Offsetof(linkGroup{}.alphaH)
	offInvDen = unsafe.Offsetof(linkGroup{}.invDen)
	offWa     = unsafe.Offsetof(linkGroup{}.wa)
	offWb     = unsafe.Offsetof(linkGroup{}.wb)
)

// What solveLinkGroupsGo may assume of a group (linkStore.groupGo).
const (
	goSep   uint8 = 1 << iota // its links share no particle
	goSameW                   // each link's two inverse masses are equal (bit for bit)
)

// minGoInvDen is the least inverse denominator of a link that
// solveLinkGroupsGo solves (2^-94): on a first pass it stores a link's
// multiplier as dl, where solveLinks stores 0 + dl, which differ only for
// dl = -0. dl = (rest - d)·invDen, and rest - d is never -0 (d > 0) and,
// when not 0, at least 2^-54 in magnitude (d is at least 2^-30, as d² is
// at least 1e-18, and rest - d is then a multiple of 2^-54 unless rest is
// under d/2); times an invDen of at least 2^-94 it cannot round to zero.
// The links below it (between two pinned particles, or of a compliance
// near MaxCompliance) are left to solveLinks.
const minGoInvDen = 0x1p-94

// solveLinkGroupsGo is one pass over groups (whose multipliers are
// lambda, eight a group; flags tells what each group allows: goSep,
// goSameW) in Go: each link, in slot order, computed as solveLinks
// computes a plain XPBD link, operation for operation and rounded the
// same way, but read from the group's columns (particle indices already
// scaled by 3, alpha/h² and both inverse masses kept by prepareGroups)
// instead of linkHot and invMass: fewer loads, no multiply for alpha/h²
// and no flags to test a link.
//
// These loops are bound by the processor's floating-point adders and
// loads, and every operation that changes no bit is left out: on a first
// pass the multiplier starts at 0, so alphaH·l is ±0 (alphaH is finite,
// MaxCompliance) and subtracting it leaves rest - d, which is never -0,
// unchanged; 0 + dl is dl (minGoInvDen). Where a link's two inverse
// masses are equal (goSameW: a cloth of one mass), its two scales wa·s
// and wb·s are one product.
//
// A link's arithmetic is one long chain (a square root, then a division),
// and one link after another the processor's window holds too few links to
// hide it. A group whose links share no particle (goSep) is therefore
// solved out of order: on a substep's first pass with equal masses (the
// common case: every pass of a one-pass substep on a cloth of one mass),
// one sweep that reads the next link and takes its square root while it
// moves the particles of this one (solveLinkGroupPiped); otherwise in two
// sweeps, the first taking the eight square roots and the second the rest
// (solveLinkGroupSep). Either overlaps independent chains, and gives the
// same bits as link by link, since no link reads what another of its group
// writes. Other groups go link by link (solveLinkGroupGo).
//
// With keep false (the substep's only pass) the multipliers are written
// to a scratch array on the piped path: nothing reads them, and cloth64
// spent 2% of its frame storing them.
//
// Positions are read through unsafe pointers, as in solveLinks:
// prepareGroups has indexed invMass (with bounds checks) by every grouped
// link's two particles, and pos has one entry per particle. The loops walk
// a pointer along a group's first column and read the others at their
// fixed offsets from it: indexing gr.rest[k] made the compiler rebuild each
// column's address (two LEAs a field).
func solveLinkGroupsGo(groups []linkGroup, flags []uint8, lambda []float32, pos []mgl32.Vec3, first, keep bool) {
	lambda = lambda[:len(groups)*linkGroupSize]
	flags = flags[:len(groups)]
	p0 := unsafe.Pointer(unsafe.SliceData(pos))
	var scratch [linkGroupSize]float32
	for g := range groups {
		lam := (*[linkGroupSize]float32)(lambda[g*linkGroupSize:])
		gr := &groups[g]
		f := flags[g]
		if first && f == goSep|goSameW {
			out := lam
			if !keep {
				out = &scratch
			}
			if k := solveLinkGroupPiped(gr, out, p0); k < linkGroupSize {
				solveLinkGroupGo(gr, lam, p0, first, k)
			}
			continue
		}
		if f&goSep == 0 || !solveLinkGroupSep(gr, lam, p0, first, f&goSameW != 0) {
			solveLinkGroupGo(gr, lam, p0, first, 0)
		}
	}
}

// solveLinkGroupPiped solves, on a substep's first pass, a group whose
// links share no particle and have equal inverse masses at both ends, in
// one sweep that computes link k+1's length while it moves link k's
// particles, so that the square root of one overlaps the division and
// updates of the other. It returns how many links it solved: all eight,
// or up to (not including) the first shorter than sqrt(1e-18), which it
// leaves with the rest to solveLinkGroupGo.
func solveLinkGroupPiped(gr *linkGroup, lam *[linkGroupSize]float32, p0 unsafe.Pointer) int {
	c := unsafe.Pointer(&gr.a3[0])
	pa := (*[3]float32)(unsafe.Add(p0, uintptr(*(*int32)(c))*4))
	pb := (*[3]float32)(unsafe.Add(p0, uintptr(*(*int32)(unsafe.Add(c, offB3)))*4))
	dx, dy, dz := pb[0]-pa[0], pb[1]-pa[1], pb[2]-pa[2]
	d2 := float32(dx*dx) + float32(dy*dy) + float32(dz*dz)
	if d2 < 1e-18 {
		return 0
	}
	d := float32(math.Sqrt(float64(d2)))
	for k := 0; k < linkGroupSize; k++ {
		// The next link: its particles are not this one's, so reading
		// them before this one moves its own gives the same values.
		cn := unsafe.Add(c, 4)
		var qa, qb *[3]float32
		var ex, ey, ez, e float32
		next := k+1 < linkGroupSize
		if next {
			qa = (*[3]float32)(unsafe.Add(p0, uintptr(*(*int32)(cn))*4))
			qb = (*[3]float32)(unsafe.Add(p0, uintptr(*(*int32)(unsafe.Add(cn, offB3)))*4))
			ex, ey, ez = qb[0]-qa[0], qb[1]-qa[1], qb[2]-qa[2]
			e2 := float32(ex*ex) + float32(ey*ey) + float32(ez*ez)
			next = !(e2 < 1e-18)
			e = float32(math.Sqrt(float64(e2)))
		}
		// This link, as solveLinkSweepSameW on a first pass.
		dl := float32((*(*float32)(unsafe.Add(c, offRest)) - d) * *(*float32)(unsafe.Add(c, offInvDen)))
		lam[k] = dl
		s := dl / d
		kw := float32(*(*float32)(unsafe.Add(c, offWa)) * s)
		pa[0], pa[1], pa[2] = pa[0]-float32(kw*dx), pa[1]-float32(kw*dy), pa[2]-float32(kw*dz)
		pb[0], pb[1], pb[2] = pb[0]+float32(kw*dx), pb[1]+float32(kw*dy), pb[2]+float32(kw*dz)
		if !next {
			return k + 1
		}
		c, pa, pb, dx, dy, dz, d = cn, qa, qb, ex, ey, ez, e
	}
	return linkGroupSize
}

// solveLinkGroupSep solves a group whose links share no particle in two
// sweeps (see solveLinkGroupsGo), or reports false, having changed
// nothing, when one of its links is shorter than sqrt(1e-18). sameW: each
// link's two inverse masses are equal.
func solveLinkGroupSep(gr *linkGroup, lam *[linkGroupSize]float32, p0 unsafe.Pointer, first, sameW bool) bool {
	var ds [linkGroupSize]float32
	c := unsafe.Pointer(&gr.a3[0])
	for k := 0; k < linkGroupSize; k, c = k+1, unsafe.Add(c, 4) {
		pa := (*[3]float32)(unsafe.Add(p0, uintptr(*(*int32)(c))*4))
		pb := (*[3]float32)(unsafe.Add(p0, uintptr(*(*int32)(unsafe.Add(c, offB3)))*4))
		dx, dy, dz := pb[0]-pa[0], pb[1]-pa[1], pb[2]-pa[2]
		d2 := float32(dx*dx) + float32(dy*dy) + float32(dz*dz)
		if d2 < 1e-18 {
			return false
		}
		ds[k] = float32(math.Sqrt(float64(d2)))
	}
	if sameW {
		solveLinkSweepSameW(gr, lam, p0, &ds, first)
	} else {
		solveLinkSweep(gr, lam, p0, &ds, first)
	}
	return true
}

// solveLinkSweep is the second sweep of solveLinkGroupSep, given the
// links' lengths ds.
func solveLinkSweep(gr *linkGroup, lam *[linkGroupSize]float32, p0 unsafe.Pointer, ds *[linkGroupSize]float32, first bool) {
	c := unsafe.Pointer(&gr.a3[0])
	for k := 0; k < linkGroupSize; k, c = k+1, unsafe.Add(c, 4) {
		pa := (*[3]float32)(unsafe.Add(p0, uintptr(*(*int32)(c))*4))
		pb := (*[3]float32)(unsafe.Add(p0, uintptr(*(*int32)(unsafe.Add(c, offB3)))*4))
		ax, ay, az := pa[0], pa[1], pa[2]
		bx, by, bz := pb[0], pb[1], pb[2]
		dx, dy, dz := bx-ax, by-ay, bz-az
		d := ds[k]
		rest := *(*float32)(unsafe.Add(c, offRest))
		invDen := *(*float32)(unsafe.Add(c, offInvDen))
		var dl float32
		if first {
			dl = float32((rest - d) * invDen)
			lam[k] = dl
		} else {
			l := lam[k]
			alphaH := *(*float32)(unsafe.Add(c, offAlphaH))
			dl = float32((rest - d - float32(alphaH*l)) * invDen)
			lam[k] = l + dl
		}
		s := dl / d
		ka := float32(*(*float32)(unsafe.Add(c, offWa)) * s)
		kb := float32(*(*float32)(unsafe.Add(c, offWb)) * s)
		pa[0], pa[1], pa[2] = ax-float32(ka*dx), ay-float32(ka*dy), az-float32(ka*dz)
		pb[0], pb[1], pb[2] = bx+float32(kb*dx), by+float32(kb*dy), bz+float32(kb*dz)
	}
}

// solveLinkSweepSameW is solveLinkSweep for links whose two inverse masses
// are equal: wa·s is wb·s, one product (its own loop: a branch between
// the two in one loop cost more than the product saves).
func solveLinkSweepSameW(gr *linkGroup, lam *[linkGroupSize]float32, p0 unsafe.Pointer, ds *[linkGroupSize]float32, first bool) {
	c := unsafe.Pointer(&gr.a3[0])
	for k := 0; k < linkGroupSize; k, c = k+1, unsafe.Add(c, 4) {
		pa := (*[3]float32)(unsafe.Add(p0, uintptr(*(*int32)(c))*4))
		pb := (*[3]float32)(unsafe.Add(p0, uintptr(*(*int32)(unsafe.Add(c, offB3)))*4))
		ax, ay, az := pa[0], pa[1], pa[2]
		bx, by, bz := pb[0], pb[1], pb[2]
		dx, dy, dz := bx-ax, by-ay, bz-az
		d := ds[k]
		rest := *(*float32)(unsafe.Add(c, offRest))
		invDen := *(*float32)(unsafe.Add(c, offInvDen))
		var dl float32
		if first {
			dl = float32((rest - d) * invDen)
			lam[k] = dl
		} else {
			l := lam[k]
			alphaH := *(*float32)(unsafe.Add(c, offAlphaH))
			dl = float32((rest - d - float32(alphaH*l)) * invDen)
			lam[k] = l + dl
		}
		s := dl / d
		kw := float32(*(*float32)(unsafe.Add(c, offWa)) * s)
		pa[0], pa[1], pa[2] = ax-float32(kw*dx), ay-float32(kw*dy), az-float32(kw*dz)
		pb[0], pb[1], pb[2] = bx+float32(kw*dx), by+float32(kw*dy), bz+float32(kw*dz)
	}
}

// solveLinkGroupGo solves a group's links one after another, from link
// from on.
func solveLinkGroupGo(gr *linkGroup, lam *[linkGroupSize]float32, p0 unsafe.Pointer, first bool, from int) {
	c := unsafe.Add(unsafe.Pointer(&gr.a3[0]), 4*from)
	for k := from; k < linkGroupSize; k, c = k+1, unsafe.Add(c, 4) {
		pa := (*[3]float32)(unsafe.Add(p0, uintptr(*(*int32)(c))*4))
		pb := (*[3]float32)(unsafe.Add(p0, uintptr(*(*int32)(unsafe.Add(c, offB3)))*4))
		ax, ay, az := pa[0], pa[1], pa[2]
		bx, by, bz := pb[0], pb[1], pb[2]
		dx, dy, dz := bx-ax, by-ay, bz-az
		d2 := float32(dx*dx) + float32(dy*dy) + float32(dz*dz)
		if d2 < 1e-18 {
			if first {
				lam[k] = 0
			}
			continue // degenerate: no direction to push along
		}
		d := float32(math.Sqrt(float64(d2)))
		rest := *(*float32)(unsafe.Add(c, offRest))
		invDen := *(*float32)(unsafe.Add(c, offInvDen))
		var dl float32
		if first {
			dl = float32((rest - d) * invDen)
			lam[k] = dl
		} else {
			l := lam[k]
			alphaH := *(*float32)(unsafe.Add(c, offAlphaH))
			dl = float32((rest - d - float32(alphaH*l)) * invDen)
			lam[k] = l + dl
		}
		s := dl / d
		ka := float32(*(*float32)(unsafe.Add(c, offWa)) * s)
		kb := float32(*(*float32)(unsafe.Add(c, offWb)) * s)
		pa[0], pa[1], pa[2] = ax-float32(ka*dx), ay-float32(ka*dy), az-float32(ka*dz)
		pb[0], pb[1], pb[2] = bx+float32(kb*dx), by+float32(kb*dy), bz+float32(kb*dz)
	}
}
