package hair_test

import (
	"fmt"
	"github.com/drape3d/drape/internal/vecmath"
	"testing"

	"github.com/drape3d/drape/hair"
	"github.com/drape3d/drape/verlet3d"
	"github.com/go-gl/mathgl/mgl32"
)

// wiggle measures how kinked strands are: along every strand, with e(j)
// the unit direction of segment j and b(j) = e(j+1) - e(j) the bend at
// particle j+1, the mean of |b(j+1) - b(j)| over all strands and joints. A
// smooth curve bends the same way from one joint to the next (0 for a
// straight strand or a circle arc); a zigzag flips its bend every joint
// (up to 4 for a full fold).
func wiggle(h *hair.Hair) float64 {
	pos := h.World().Positions()
	var sum float64
	var n int
	for i := 0; i < h.NumStrands(); i++ {
		first, k := h.Strand(i)
		s := pos[first : int(first)+k]
		dir := func(j int) mgl32.Vec3 { return vecmath.Normalize(s[j+1].Sub(s[j])) }
		for j := 0; j+3 < k; j++ {
			e0, e1, e2 := dir(j), dir(j+1), dir(j+2)
			sum += float64(vecmath.Len(e2.Sub(e1).Sub(e1.Sub(e0))))
			n++
		}
	}
	return sum / float64(n)
}

// Strands stay smooth on a moving head: the follow-the-leader sweep's
// corrections, taken back from the parents' velocity (FollowDamping), do
// not whip strands into zigzags. Measured over 1-3 s of each motion with
// the README's hair. With FollowDamping 0 the same motions kink: wiggle
// 0.20 walking and shaking, 0.09 at rest; with the default 1, 0.09 and
// 0.04.
func TestStrandsStaySmooth(t *testing.T) {
	ms := motions()
	for _, c := range []struct {
		m     motion
		limit float64
	}{
		{ms[0], 0.06},  // rest
		{ms[1], 0.12},  // walk 1.1 m/s
		{ms[4], 0.12},  // shake 30 deg at 2 Hz
		{ms[5], 0.12},  // nod 20 deg at 2 Hz
		{ms[12], 0.18}, // gusts of 20 m/s
	} {
		for _, damping := range []float32{hair.DefaultSettings().FollowDamping, 0} {
			t.Run(fmt.Sprintf("%s/FollowDamping %g", c.m.name, damping), func(t *testing.T) {
				w, err := verlet3d.NewWorld(hair.WorldConfig())
				if err != nil {
					t.Fatal(err)
				}
				defer w.Close()
				s := hair.DefaultSettings()
				s.FollowDamping = damping
				head := hair.DefaultHead()
				head.Center = start
				h, err := hair.New(w, head, s)
				if err != nil {
					t.Fatal(err)
				}
				if err := h.SetWind(c.m.wind); err != nil {
					t.Fatal(err)
				}
				var clock, sum float64
				frames := 0
				for clock < 3 {
					clock += 1.0 / 60
					if err := h.SetHead(c.m.pose(clock)); err != nil {
						t.Fatal(err)
					}
					w.Advance(1.0 / 60)
					if clock > 1 {
						sum += wiggle(h)
						frames++
					}
				}
				got := sum / float64(frames)
				t.Logf("wiggle %.3f (limit %.2f with the default)", got, c.limit)
				if damping == 0 {
					// The control: without the damping the test must see kinks,
					// or it measures nothing.
					if got <= c.limit {
						t.Errorf("wiggle %.3f without FollowDamping: the metric no longer sees the kinks it is for", got)
					}
					return
				}
				if got > c.limit {
					t.Errorf("strands kink: wiggle %.3f, want at most %.2f", got, c.limit)
				}
			})
		}
	}
}
