package main

import (
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
)

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
	if _, err := parseCapeBody(*capeBody); err != nil {
		return sceneDef{}, &flagError{err.Error()}
	}
	def, ok := scenes[opt.scene]
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
		if err := def.Check(); err != nil {
			return def, &flagError{err.Error()}
		}
	}
	return def, nil
}
