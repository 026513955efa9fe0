package bench_test

import (
	"testing"

	"github.com/drape3d/drape/hair"
	"github.com/drape3d/drape/internal/showcase"
	g3nscene "github.com/drape3d/drape/scene"
	"github.com/drape3d/drape/verlet3d"
)

// The showcase scenes: the demo's showcase (internal/showcase) built
// without GL, and its caped walker with long hair alone, in one World and
// in two.

// showcaseBefore is the showcase with its hair solved at the World's 10
// iterations a substep and passing through the cape, as it was before
// hair.Settings.Iterations and the hair-on-cape collision.
func showcaseBefore() showcase.Options {
	o := showcase.DefaultOptions()
	o.HairIterations = showcase.Config().Iterations
	o.HairOnCape = false
	return o
}

// showcaseAfter is the demo's showcase: 200 strands at their own 3
// passes, lying on the cape.
func showcaseAfter() showcase.Options { return showcase.DefaultOptions() }

// walkerOneWorld is the showcase's walker alone: cape and 500 strands of
// 0.5 m lying on it, in one World.
func walkerOneWorld() showcase.Options {
	o := showcase.DefaultOptions()
	o.Flags, o.Curtains = false, false
	o.Strands = 500
	return o
}

// showcaseScene builds the showcase with the options opts gives, in a
// World of showcase.Config on the given workers; a frame advances the
// walker's animation and steps the World by 1/60 s.
func showcaseScene(t testing.TB, workers int, opts func() showcase.Options) scene {
	cfg := showcase.Config()
	cfg.Workers = workers
	w, err := verlet3d.NewWorld(cfg)
	if err != nil {
		t.Fatal(err)
	}
	s, err := showcase.Build(w, g3nscene.NewDriver(w), opts())
	if err != nil {
		t.Fatal(err)
	}
	return scene{w: w, constraints: w.NumLinks() + w.NumTethers(), frame: func() { s.Update(1.0 / 60) }}
}

// walkerTwoWorlds is walkerOneWorld's walker with the hair in a World of
// its own at hair.WorldConfig (2 x 3), as before hair could share one:
// the hair passes through the cape.
func walkerTwoWorlds(t testing.TB, workers int) scene {
	cfg := showcase.Config()
	cfg.Workers = workers
	w, err := verlet3d.NewWorld(cfg)
	if err != nil {
		t.Fatal(err)
	}
	o := walkerOneWorld()
	o.Strands = 0
	s, err := showcase.Build(w, g3nscene.NewDriver(w), o)
	if err != nil {
		t.Fatal(err)
	}
	hcfg := hair.WorldConfig()
	hcfg.Workers = workers
	hw, err := verlet3d.NewWorld(hcfg)
	if err != nil {
		t.Fatal(err)
	}
	hd := g3nscene.NewDriver(hw)
	o = walkerOneWorld()
	h, _, err := showcase.GrowHair(hw, hd, s.Mannequin, o)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.SetWind(o.Wind); err != nil {
		t.Fatal(err)
	}
	if err := h.SetWind(showcase.Air(o.Wind)); err != nil {
		t.Fatal(err)
	}
	return scene{w: w, also: hw, constraints: w.NumLinks() + w.NumTethers(), frame: func() {
		s.Update(1.0 / 60)
		hd.Update(1.0 / 60)
	}}
}
