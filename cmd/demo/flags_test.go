package main

import (
	"flag"
	"io"
	"sort"
	"testing"
)

// The scene table is sorted by name (the menu and the number keys follow
// it), names each scene once, and gives each a config and a builder.
func TestSceneTable(t *testing.T) {
	names := sceneNames()
	if !sort.StringsAreSorted(names) {
		t.Errorf("scenes %q, want them sorted by name", names)
	}
	seen := map[string]bool{}
	for _, s := range sceneTable() {
		if seen[s.Name] {
			t.Errorf("scene %q listed twice", s.Name)
		}
		seen[s.Name] = true
		if s.About == "" || s.Config == nil || s.Build == nil {
			t.Errorf("scene %q: About, Config and Build are required", s.Name)
		}
	}
	if _, ok := findScene(defaultScene); !ok {
		t.Errorf("the default scene %q is not in the table", defaultScene)
	}
}

// parseFlags puts each scene's flags in its part of the options and keeps
// the defaults of the flags not given.
func TestParseFlags(t *testing.T) {
	fs := flag.NewFlagSet("demo", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	o, err := parseFlags(fs, []string{"-scene", "cubes", "-cubes-rain", "7", "-hair-strands", "9",
		"-cape-body", "Spine:0.1", "-animation", "Run", "-flag-hole", "-showcase-curtains=false", "-tablecloth-size", "20"})
	if err != nil {
		t.Fatal(err)
	}
	if o.scene != "cubes" || o.cubes.rain != 7 || o.hair.strands != 9 || o.cape.body != "Spine:0.1" ||
		o.cape.animation != "Run" || !o.flag.hole || o.showcase.curtains || o.tablecloth.size != 20 {
		t.Errorf("flags not in their options: %+v", o)
	}
	if o.cubes.size != 0.4 || o.hair.segments != 14 || o.cape.view != "side" || o.flag.tear != 0.45 || o.width != 1280 {
		t.Errorf("defaults lost: %+v", o)
	}
	bad := flag.NewFlagSet("demo", flag.ContinueOnError)
	bad.SetOutput(io.Discard)
	if _, err := parseFlags(bad, []string{"-no-such-flag"}); err == nil {
		t.Errorf("an unknown flag parsed")
	}
}
