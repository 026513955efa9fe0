package cloth_test

import (
	"testing"

	"github.com/drape3d/drape/cloth"
	"github.com/drape3d/drape/verlet3d"
)

// A constructor that fails leaves the World exactly as it was, even when
// it fails half-way (issue 16's findings: tethers with nothing pinned,
// a spacing that overflows positions).
func TestFailedNewLeavesWorldUnchanged(t *testing.T) {
	for _, tc := range []struct {
		name string
		edit func(*cloth.Settings)
	}{
		{"tethers, nothing pinned", func(s *cloth.Settings) { s.Cols, s.Rows, s.Tethers, s.PinRows = 4, 4, true, nil }},
		{"spacing 1e38", func(s *cloth.Settings) { s.Spacing = 1e38 }},
	} {
		w, err := verlet3d.NewWorld(verlet3d.DefaultConfig())
		if err != nil {
			t.Fatal(err)
		}
		ok := cloth.DefaultSettings()
		ok.Cols, ok.Rows, ok.PinRows = 3, 3, []int{0}
		if _, err := cloth.New(w, ok); err != nil {
			t.Fatal(err)
		}
		before := [3]int{w.NumParticles(), w.NumLinks(), w.NumTethers()}
		s := cloth.DefaultSettings()
		tc.edit(&s)
		if _, err := cloth.New(w, s); err == nil {
			t.Errorf("%s: accepted", tc.name)
			continue
		}
		if after := [3]int{w.NumParticles(), w.NumLinks(), w.NumTethers()}; after != before {
			t.Errorf("%s: particles, links, tethers %v before, %v after the failed New", tc.name, before, after)
		}
		for i := 0; i < 10; i++ {
			w.Step() // the World still steps
		}
	}
}
