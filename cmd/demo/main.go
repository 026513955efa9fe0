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
package main

import (
	"flag"
	"fmt"
	"os"
	"sort"
	"strings"

	"github.com/drape3d/drape/verlet3d"
)

// sceneDef is one demo scene. Each lives in its own scene_<name>.go file and
// registers itself from init().
type sceneDef struct {
	Name  string            // the -scene value
	About string            // one line, shown by -list and on screen
	Build func(*Demo) error // builds the scene; an error ends the demo with status 1
	// Check validates the scene's own flags before the window opens; an
	// error names the flag and its value and ends the demo with status 2.
	// Optional.
	Check func() error
}

var scenes = map[string]sceneDef{}

func register(s sceneDef) {
	if _, dup := scenes[s.Name]; dup {
		panic("demo: scene " + s.Name + " registered twice")
	}
	scenes[s.Name] = s
}

func sceneNames() []string {
	names := make([]string, 0, len(scenes))
	for n := range scenes {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

func main() {
	var opt options
	flag.StringVar(&opt.scene, "scene", defaultScene(), "scene to show: "+strings.Join(sceneNames(), ", "))
	flag.BoolVar(&opt.list, "list", false, "list the scenes and exit")
	flag.IntVar(&opt.frames, "frames", 0, "render this many frames at a fixed 1/60 s each, then exit (headless capture)")
	flag.StringVar(&opt.shot, "shot", "", "with -frames: write the last frame to this PNG file")
	flag.IntVar(&opt.width, "width", 1280, "window width in pixels")
	flag.IntVar(&opt.height, "height", 720, "window height in pixels")
	flag.IntVar(&opt.workers, "workers", 1, "solver goroutines")
	flag.Float64Var(&opt.workerSpin, "worker-spin", float64(verlet3d.DefaultConfig().WorkerSpin),
		"seconds an idle solver goroutine polls before it sleeps (verlet3d.Config.WorkerSpin; 0.02 keeps -workers 2 awake between frames)")
	flag.StringVar(&opt.cam, "cam", "", "camera position x,y,z (overrides the scene's)")
	flag.StringVar(&opt.look, "look", "", "camera target x,y,z (overrides the scene's)")
	flag.StringVar(&opt.script, "script", "", "play timed mouse and key events from this file (see script.go)")
	flag.Parse()
	if opt.list {
		for _, n := range sceneNames() {
			fmt.Printf("%-12s %s\n", n, scenes[n].About)
		}
		return
	}
	def, err := checkFlags(flag.CommandLine, &opt)
	if err != nil {
		fmt.Fprintln(os.Stderr, "demo:", err)
		os.Exit(2)
	}
	if err := run(def, opt); err != nil {
		fmt.Fprintln(os.Stderr, "demo:", err)
		os.Exit(1)
	}
}

// defaultScene is the scene shown without -scene: the richest one built in.
func defaultScene() string {
	for _, n := range []string{"cape", "flag", "net"} {
		if _, ok := scenes[n]; ok {
			return n
		}
	}
	return "net"
}
