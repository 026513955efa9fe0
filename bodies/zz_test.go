package bodies

import (
	"math/rand"
	"testing"

	"github.com/drape3d/drape/verlet3d"
	"github.com/go-gl/mathgl/mgl32"
)

type zzSnap struct {
	s       *System
	frame   int
	rows    []row
	rig     []rigid
	islands []island
	icubes  []int32
	done    bool
}

func (z *zzSnap) Prepare(w *verlet3d.World, sub verlet3d.Substep) {
	if z.done || sub.Step != int64(z.frame) || sub.Index != 3 {
		return
	}
	s := z.s
	pos := w.Positions()
	ground := len(s.islandCubes)
	s.rig = make([]rigid, ground+1)
	for i := range s.islands {
		is := &s.islands[i]
		rows := s.rows[is.lo:is.hi]
		s.islandStart(is, pos)
		s.initRows(rows, s.rowContact[is.lo:is.hi])
		for k := range rows {
			s.setup(&rows[k], &s.contacts[rows[k].ci], pos)
		}
		if is.lone() {
			s.warmStart(is)
		}
	}
	z.rows = append([]row(nil), s.rows...)
	z.rig = append([]rigid(nil), s.rig...)
	z.islands = append([]island(nil), s.islands...)
	z.icubes = append([]int32(nil), s.islandCubes...)
	z.done = true
}
func (z *zzSnap) Solve(*verlet3d.World, verlet3d.Substep) {}

func BenchmarkZZRows(b *testing.B) {
	cfg := verlet3d.DefaultConfig()
	cfg.Workers = 1
	w, _ := verlet3d.NewWorld(cfg)
	defer w.Close()
	sys, _ := NewSystem(w, DefaultSettings())
	floor, _ := verlet3d.NewPlane(mgl32.Vec3{}, mgl32.Vec3{0, 1, 0})
	sys.AddCollider(floor, verlet3d.ContactSettings{Friction: 0.6})
	r := rand.New(rand.NewSource(7))
	for i := 0; i < 100; i++ {
		x, z := float32(i%10)-5, float32(i/10)-5
		q := mgl32.QuatRotate(r.Float32()*6.28, mgl32.Vec3{r.Float32() - 0.5, r.Float32() - 0.5, r.Float32() - 0.5}.Normalize())
		sys.AddCube(CubeSettings{Size: 0.4, Mass: 1, Position: mgl32.Vec3{x * 0.7, 0.5 + 1.5*r.Float32(), z * 0.7}, Rotation: q,
			Velocity:        mgl32.Vec3{r.Float32() - 0.5, 0, r.Float32() - 0.5}.Mul(2),
			AngularVelocity: mgl32.Vec3{r.Float32() - 0.5, r.Float32() - 0.5, r.Float32() - 0.5}.Mul(6)})
	}
	z := &zzSnap{s: sys, frame: 60}
	w.AddConstraintSet(z)
	for f := 0; f < 62; f++ {
		w.Step()
	}
	s := sys
	s.rows, s.rig, s.islands, s.islandCubes = append([]row(nil), z.rows...), append([]rigid(nil), z.rig...), append([]island(nil), z.islands...), z.icubes
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		copy(s.rows, z.rows)
		copy(s.rig, z.rig)
		copy(s.islands, z.islands)
		for k := range s.islands {
			s.solveIsland(&s.islands[k], s.set.Passes)
		}
	}
	b.StopTimer()
	n, rp := 0, 0
	for k := range s.islands {
		n += int(s.islands[k].pass)
		rp += int(s.islands[k].pass) * int(s.islands[k].hi-s.islands[k].lo)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(rp), "ns/rowpass")
	b.ReportMetric(float64(n), "island-passes")
	b.ReportMetric(float64(len(s.rows)), "rows")
	var h float32
	for _, r := range s.rows {
		h += r.pn + r.p1 + r.p2
	}
	b.ReportMetric(float64(h), "checksum")
}
