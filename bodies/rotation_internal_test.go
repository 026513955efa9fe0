package bodies

import (
	"math"
	"math/rand"
	"testing"
)

// normalize returns a unit quaternion: from near unit length (the Newton
// step), from far off it (the square root), and over a million small
// turns, as a spinning cube takes in 28 minutes at 10 substeps.
func TestNormalizeGivesUnitLength(t *testing.T) {
	unit := func(q quatd) float64 {
		return math.Abs(math.Sqrt(float64(q.w*q.w)+float64(q.x*q.x)+float64(q.y*q.y)+float64(q.z*q.z)) - 1)
	}
	r := rand.New(rand.NewSource(3))
	for _, off := range []float64{0, 1e-15, 1e-9, 9e-7, 1.1e-6, 1e-3, 0.5, 7} {
		for i := 0; i < 100; i++ {
			q := quatd{r.NormFloat64(), r.NormFloat64(), r.NormFloat64(), r.NormFloat64()}
			s := math.Sqrt(1+off) / math.Sqrt(float64(q.w*q.w)+float64(q.x*q.x)+float64(q.y*q.y)+float64(q.z*q.z)) // |q|² = 1 + off
			q = quatd{float64(q.w * s), float64(q.x * s), float64(q.y * s), float64(q.z * s)}
			if e := unit(q.normalize()); e > 1e-12 {
				t.Fatalf("|q|² = 1%+g: normalized length off by %.2g, want < 1e-12", off, e)
			}
		}
	}
	q := quatd{w: 1}
	for i := 0; i < 1_000_000; i++ {
		q = q.turned(float64(r.NormFloat64()*0.01), float64(r.NormFloat64()*0.01), float64(r.NormFloat64()*0.01))
	}
	if e := unit(q); e > 1e-14 {
		t.Errorf("after a million turns the rotation's length is off by %.2g, want < 1e-14", e)
	}
	for _, q := range []quatd{{}, {math.NaN(), 0, 0, 0}} {
		if got := q.normalize(); got != (quatd{w: 1}) {
			t.Errorf("%v.normalize() = %v, want the identity", q, got)
		}
	}
}
