package main

import (
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"

	"github.com/drape3d/drape/verlet3d"
)

// options holds every command-line flag: the demo's own, then each scene's
// in a struct of its own. parseFlags fills it; the shell hands each scene
// its part, and a scene's slider that needs a rebuild changes its part
// here, so the rebuilt scene (and the scene after a switch back) sees it.
type options struct {
	scene, shot, cam, look string
	script                 string  // -script file
	scriptData             *script // parsed by checkFlags
	list                   bool
	frames, width, height  int
	workers                int
	workerSpin             float64 // -worker-spin, seconds

	cape       capeOptions
	cubes      cubesOptions
	flag       flagOptions
	hair       hairOptions
	showcase   showcaseOptions
	tablecloth tableclothOptions
}

// capeOptions are the cape scene's flags.
type capeOptions struct {
	view, gait string
	wind, hair bool
	// gltf is the character file; bones, anim, body and animation apply
	// to it.
	gltf, bones, anim, body, animation string
	// offset is "x,y,z", where in meters the scene is built (the
	// character's walk, the floor): "5000,0,0" shows the cape 5 km out.
	offset string
}

// cubesOptions are the cubes scene's flags.
type cubesOptions struct {
	rain           int
	cloth, surface bool
	size           float64 // m
	engine         string  // pose or particle
}

// flagOptions are the flag scene's flags.
type flagOptions struct {
	wind, tear float64 // m/s, strain
	hole       bool
}

// hairOptions are the hair scene's flags.
type hairOptions struct {
	wind, length              float64 // m/s, m
	strands, segments, dense  int
	turn, walk, run, denseCPU bool
}

// showcaseOptions are the showcase scene's flags.
type showcaseOptions struct {
	wind     float64 // m/s
	strands  int
	curtains bool
}

// tableclothOptions are the tablecloth scene's flags.
type tableclothOptions struct {
	size int
	self bool
}

// parseFlags defines every flag of the demo on fs, parses args with it
// and returns the values. It checks only the syntax (fs's error handling
// decides what a syntax error does); checkFlags checks the values.
func parseFlags(fs *flag.FlagSet, args []string) (*options, error) {
	o := &options{}
	fs.StringVar(&o.scene, "scene", defaultScene, "scene to show: "+strings.Join(sceneNames(), ", "))
	fs.BoolVar(&o.list, "list", false, "list the scenes and exit")
	fs.IntVar(&o.frames, "frames", 0, "render this many frames at a fixed 1/60 s each, then exit (headless capture)")
	fs.StringVar(&o.shot, "shot", "", "with -frames: write the last frame to this PNG file")
	fs.IntVar(&o.width, "width", 1280, "window width in pixels")
	fs.IntVar(&o.height, "height", 720, "window height in pixels")
	fs.IntVar(&o.workers, "workers", 1, "solver goroutines")
	fs.Float64Var(&o.workerSpin, "worker-spin", float64(verlet3d.DefaultConfig().WorkerSpin),
		"seconds an idle solver goroutine polls before it sleeps (verlet3d.Config.WorkerSpin; 0.02 keeps -workers 2 awake between frames)")
	fs.StringVar(&o.cam, "cam", "", "camera position x,y,z (overrides the scene's)")
	fs.StringVar(&o.look, "look", "", "camera target x,y,z (overrides the scene's)")
	fs.StringVar(&o.script, "script", "", "play timed mouse and key events from this file (see script.go)")

	c := &o.cape
	fs.StringVar(&c.view, "cape-view", "side", "cape scene camera: side, behind or front")
	fs.StringVar(&c.gait, "cape-gait", "walk", "cape scene gait: idle, walk, run or turn")
	fs.StringVar(&c.offset, "cape-offset", "", "cape scene: build the scene at x,y,z meters from the origin (5000,0,0: 5 km out)")
	fs.BoolVar(&c.wind, "cape-wind", false, "cape scene: start with the wind blowing")
	fs.StringVar(&c.gltf, "cape-gltf", "", "cape scene: load this glTF character (.gltf or .glb, skinned) instead of the mannequin")
	fs.StringVar(&c.bones, "cape-bones", "", "cape scene with -cape-gltf: bones the cape's top edge is pinned to, comma-separated, either order across the back (default: the shoulders and neck, found as LeftShoulder/ShoulderL/shoulder.L/mixamorig:LeftShoulder...)")
	fs.StringVar(&c.anim, "cape-anim", "", "cape scene with -cape-gltf: animation to play, by name (same as -animation)")
	fs.StringVar(&c.body, "cape-body", "", "cape scene with -cape-gltf: bone:radius colliders (radius in meters; split at the last colon, so mixamorig:Spine:0.13 works), a capsule from each bone to its child (default: spine and thighs, fitted to the skinned mesh, else sized from the shoulders)")
	fs.BoolVar(&c.hair, "cape-hair", false, "cape scene: put a head of hair on the character's head bone too (the mannequin's head, or a glTF's Head bone)")
	fs.StringVar(&c.animation, "animation", "", "cape scene with -cape-gltf: animation to play, by name (default a walk if the file has one, else the first)")

	cb := &o.cubes
	fs.IntVar(&cb.rain, "cubes-rain", 30, "cubes scene: cubes raining down (0..300)")
	fs.BoolVar(&cb.cloth, "cubes-cloth", true, "cubes scene: drop a cloth over the cubes")
	fs.Float64Var(&cb.size, "cubes-size", 0.4, "cubes scene: edge length of the stacked cubes in meters (0.1..1)")
	fs.BoolVar(&cb.surface, "cubes-surface", true, "cubes scene: with -cubes-engine particle, keep the crates' corners out of the cloth's triangles (cloth.SurfaceCollision)")
	fs.StringVar(&cb.engine, "cubes-engine", "pose", "cubes scene: how crates are solved: pose (bodies.PoseEngine) or particle (bodies.ParticleEngine)")

	f := &o.flag
	fs.Float64Var(&f.wind, "flag-wind", 7, "flag scene: wind speed in m/s (the flag tears from about 20)")
	// 0.45: in a minute of the scene's gusty wind the flag keeps every
	// link at 7 and 10 m/s and tears within 2 s at 20 m/s; at 0.3 its
	// free corner tore 3 s in at the default 7 m/s.
	fs.Float64Var(&f.tear, "flag-tear", 0.45, "flag scene: strain at which the flag's links tear (0 never)")
	fs.BoolVar(&f.hole, "flag-hole", false, "flag scene: cut a hole in the middle of the flag at the start (for captures of a tear)")

	h := &o.hair
	fs.Float64Var(&h.wind, "hair-wind", 0, "hair scene: start with wind of this speed in m/s blowing from the viewer's left")
	fs.BoolVar(&h.turn, "hair-turn", false, "hair scene: after 1 s of settling, start a fast head turn (yaw to 70° and back with a nod, 1.2 s)")
	fs.IntVar(&h.strands, "hair-strands", 2000, "hair scene: number of strands (1..20000)")
	fs.IntVar(&h.segments, "hair-segments", 14, "hair scene: segments per strand (1..64)")
	fs.Float64Var(&h.length, "hair-length", 0.24, "hair scene: longest strand length in meters (0.01..1)")
	fs.BoolVar(&h.walk, "hair-walk", false, "hair scene: start walking (1.1 m/s) around a circle on the floor, camera following from the side")
	fs.IntVar(&h.dense, "hair-dense", 1, "hair scene: render strands drawn per simulated guide strand (1..16; 1 draws just the guides)")
	fs.BoolVar(&h.denseCPU, "hair-dense-cpu", false, "hair scene: compute the render strands of -hair-dense on the CPU (scene.NewDenseHairMeshCPU) rather than in the vertex shader; faster under a software renderer")
	fs.BoolVar(&h.run, "hair-run", false, "hair scene: start running (4 m/s, with a bob) around a circle on the floor, camera following from the side")

	s := &o.showcase
	fs.Float64Var(&s.wind, "showcase-wind", 6, "showcase scene: mean wind speed in m/s (0..25)")
	fs.IntVar(&s.strands, "showcase-strands", 200, "showcase scene: hair strands on the walker's head (0..2000)")
	fs.BoolVar(&s.curtains, "showcase-curtains", true, "showcase scene: hang the curtains")

	t := &o.tablecloth
	fs.IntVar(&t.size, "tablecloth-size", 48, "tablecloth scene: particles along each side (8..160)")
	fs.BoolVar(&t.self, "tablecloth-self", false, "tablecloth scene: turn on self-collision")

	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	return o, nil
}

// Flag limits. A window outside them either fails inside GLFW (0 or a
// negative size crashes it) or is useless; the camera and look-at points
// are bounded so a typo does not put the scene out of float32 range.
const (
	minWindow = 16
	maxWindow = 8192
	maxFrames = 10_000_000
	maxCoord  = 1e4 // m, for -cam and -look
)

// flagError is bad command-line input: main reports it and exits with
// status 2, before any window opens.
type flagError struct{ msg string }

func (e *flagError) Error() string { return e.msg }

func badFlag(format string, args ...any) error {
	return &flagError{fmt.Sprintf(format, args...)}
}

// checkFlags validates every flag before the window opens and returns the
// scene to run. Each error names the flag and the value it was given.
func checkFlags(fs *flag.FlagSet, opt *options) (sceneDef, error) {
	if fs.NArg() > 0 {
		return sceneDef{}, badFlag("unexpected argument %q: flags start with -, e.g. -scene hair", fs.Arg(0))
	}
	// Any number flag of any scene: NaN and ±Inf parse but mean nothing.
	var err error
	fs.VisitAll(func(f *flag.Flag) {
		g, ok := f.Value.(flag.Getter)
		if !ok || err != nil {
			return
		}
		if x, ok := g.Get().(float64); ok && (math.IsNaN(x) || math.IsInf(x, 0)) {
			err = badFlag("-%s = %v: want a finite number", f.Name, x)
		}
	})
	if err != nil {
		return sceneDef{}, err
	}
	// A string flag that holds numbers, of any scene.
	if _, err := parseCapeBody(opt.cape.body); err != nil {
		return sceneDef{}, &flagError{err.Error()}
	}
	def, ok := findScene(opt.scene)
	if !ok {
		return sceneDef{}, badFlag("-scene = %q: unknown scene; scenes: %s", opt.scene, strings.Join(sceneNames(), ", "))
	}
	switch {
	case opt.width < minWindow || opt.width > maxWindow:
		return def, badFlag("-width = %d: want pixels in %d..%d", opt.width, minWindow, maxWindow)
	case opt.height < minWindow || opt.height > maxWindow:
		return def, badFlag("-height = %d: want pixels in %d..%d", opt.height, minWindow, maxWindow)
	case opt.frames < 0 || opt.frames > maxFrames:
		return def, badFlag("-frames = %d: want 0 (interactive) or a count up to %d", opt.frames, maxFrames)
	case opt.workers < 1 || opt.workers > 64:
		return def, badFlag("-workers = %d: want 1..64", opt.workers)
	case opt.workerSpin < 0 || opt.workerSpin > 1:
		return def, badFlag("-worker-spin = %v: want seconds in [0, 1]", opt.workerSpin)
	case opt.shot != "" && opt.frames == 0:
		return def, badFlag("-shot %q needs -frames N > 0", opt.shot)
	}
	if opt.shot != "" {
		if dir := filepath.Dir(opt.shot); dir != "" {
			if st, err := os.Stat(dir); err != nil || !st.IsDir() {
				return def, badFlag("-shot = %q: folder %q does not exist", opt.shot, dir)
			}
		}
	}
	for _, v := range []struct{ name, val string }{{"cam", opt.cam}, {"look", opt.look}} {
		if v.val == "" {
			continue
		}
		if _, err := parseVec(v.val); err != nil {
			return def, badFlag("-%s = %q: %v", v.name, v.val, err)
		}
	}
	if opt.cam != "" && opt.look != "" {
		c, _ := parseVec(opt.cam)
		l, _ := parseVec(opt.look)
		if c == l {
			return def, badFlag("-cam = %q equals -look: the camera needs a direction to look in", opt.cam)
		}
	}
	if opt.script != "" {
		s, err := parseScript(opt.script)
		if err != nil {
			return def, &flagError{err.Error()}
		}
		opt.scriptData = s
	}
	if def.Check != nil {
		if err := def.Check(opt); err != nil {
			return def, &flagError{err.Error()}
		}
	}
	return def, nil
}
