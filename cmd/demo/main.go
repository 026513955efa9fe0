// Command demo shows drape's scenes in a g3n window.
//
//	demo -scene net                 # open a scene; -list names them all
//	demo -scene net -frames 120 -shot net.png   # render 120 frames, save the last, exit
//
// Mouse: left-drag orbits, right-drag pans, wheel zooms, Shift+left-drag
// grabs the nearest particle, Ctrl+left-drag cuts cloth, Alt+left-drag
// pushes particles. Keys: 1-9 switch scenes, Home resets the view, F
// focuses, R resets, P pauses, Space steps once, V shows strain, O shows
// colliders, F1/F2 hide help/text, Esc quits; scenes add their own keys,
// listed on screen. -script FILE plays timed input (see script.go).
//
// Every flag is parsed once, by parseFlags, into one options value; the
// shell builds the scene of sceneTable it names, handing it a World and its
// part of the options.
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/drape3d/drape/hair"
	"github.com/drape3d/drape/internal/draped"
	"github.com/drape3d/drape/verlet3d"
)

// sceneDef is one demo scene. Each is built in its own scene_<name>.go
// file and listed in sceneTable.
type sceneDef struct {
	Name  string // the -scene value
	About string // one line, shown by -list and on screen
	// Config is the scene's World config; the shell applies -workers and
	// the settings panel's overrides, makes the World and hands it to
	// Build.
	Config func() verlet3d.Config
	// Build builds the scene in d around w with the flags' values; an
	// error ends the demo with status 1. A slider that rebuilds the scene
	// changes o, which outlives the build.
	Build func(d *Demo, w *verlet3d.World, o *options) error
	// Check validates the scene's own flags before the window opens; an
	// error names the flag and its value and ends the demo with status 2.
	// Optional.
	Check func(o *options) error
}

// sceneTable lists the demo's scenes, by name: the menu and the number
// keys follow this order. Each entry hands its builder the scene's own
// options.
func sceneTable() []sceneDef {
	return []sceneDef{{
		Name:   "cape",
		About:  "a cape on an animated character walking a loop; pins and colliders follow the body",
		Config: capeConfig,
		Build:  func(d *Demo, w *verlet3d.World, o *options) error { return buildCape(d, w, &o.cape) },
		Check:  func(o *options) error { return o.cape.check() },
	}, {
		Name:   "cubes",
		About:  "crates stack, tumble and rain down; a cloth drapes them (T throws one, Shift+drag grabs one)",
		Config: draped.Config, // DefaultConfig with SettleDamping 3, so the scene sleeps once it rests
		Build:  func(d *Demo, w *verlet3d.World, o *options) error { return buildCubes(d, w, &o.cubes) },
		Check:  func(o *options) error { return o.cubes.check() },
	}, {
		Name:   "flag",
		About:  "a flag on a pole in gusty wind; raise the wind and it tears",
		Config: flagConfig,
		Build:  func(d *Demo, w *verlet3d.World, o *options) error { return buildFlag(d, w, &o.flag) },
		Check:  func(o *options) error { return o.flag.check() },
	}, {
		Name:   "hair",
		About:  "strands rooted on a head: turn, shake and nod it, walk or run, blow wind, restyle live",
		Config: hair.WorldConfig,
		Build:  func(d *Demo, w *verlet3d.World, o *options) error { return buildHair(d, w, &o.hair) },
		Check:  func(o *options) error { return o.hair.check() },
	}, {
		Name:   "net",
		About:  "a net of particles pinned at two corners falls onto a sphere",
		Config: verlet3d.DefaultConfig,
		Build:  func(d *Demo, w *verlet3d.World, _ *options) error { return buildNet(d, w) },
	}, {
		Name:   "ragdoll",
		About:  "a stick man of particles and links, held in shape by hidden springs, tumbles down steps; grab and throw him",
		Config: ragdollConfig,
		Build:  func(d *Demo, w *verlet3d.World, _ *options) error { return buildRagdoll(d, w) },
	}, {
		Name:   "showcase",
		About:  "a courtyard in gusty wind: flags, curtains, a walking caped character with a head of hair",
		Config: showcaseConfig,
		Build:  func(d *Demo, w *verlet3d.World, o *options) error { return buildShowcase(d, w, &o.showcase) },
		Check:  func(o *options) error { return o.showcase.check() },
	}, {
		Name:   "tablecloth",
		About:  "a tablecloth dropped on a box and a ball lands, drapes and rests",
		Config: tableclothConfig,
		Build:  func(d *Demo, w *verlet3d.World, o *options) error { return buildTablecloth(d, w, &o.tablecloth) },
		Check:  func(o *options) error { return o.tablecloth.check() },
	}}
}

// findScene returns the scene of sceneTable with this name.
func findScene(name string) (sceneDef, bool) {
	for _, s := range sceneTable() {
		if s.Name == name {
			return s, true
		}
	}
	return sceneDef{}, false
}

// sceneNames returns the scenes' names in the table's order.
func sceneNames() []string {
	var names []string
	for _, s := range sceneTable() {
		names = append(names, s.Name)
	}
	return names
}

// defaultScene is the scene shown without -scene: the richest one.
const defaultScene = "cape"

func main() {
	fs := flag.NewFlagSet(os.Args[0], flag.ExitOnError)
	// With ExitOnError, fs itself ends the demo with status 2 on a syntax
	// error, after the usage text.
	opt, err := parseFlags(fs, os.Args[1:])
	if err != nil {
		fmt.Fprintln(os.Stderr, "demo:", err)
		os.Exit(2)
	}
	if opt.list {
		for _, s := range sceneTable() {
			fmt.Printf("%-12s %s\n", s.Name, s.About)
		}
		return
	}
	def, err := checkFlags(fs, opt)
	if err != nil {
		fmt.Fprintln(os.Stderr, "demo:", err)
		os.Exit(2)
	}
	if err := run(def, opt); err != nil {
		fmt.Fprintln(os.Stderr, "demo:", err)
		os.Exit(1)
	}
}
