package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"

	"github.com/drape3d/drape/verlet3d"
	"github.com/g3n/engine/math32"
	"github.com/g3n/engine/window"
	"github.com/go-gl/mathgl/mgl32"
)

// A script (-script FILE) is timed input: mouse and key events sent
// through the window's dispatcher, so g3n's GUI manager and the demo's
// input router get them exactly as they get a person's, plus probes that
// print the demo's state and captures. One command a line:
//
//	TIME COMMAND ARGS...   # TIME in seconds of frame time (1/60 s a frame with -frames)
//
//	move POS                       cursor to POS
//	down POS [BUTTON] [MODS...]    cursor to POS, then press (BUTTON left, right or middle; MODS shift, ctrl, alt)
//	up POS [BUTTON]                cursor to POS, then release
//	scroll DY                      wheel
//	key NAME [MODS...]             press a key: A-Z, 0-9, F1-F12, Up, Down, Left, Right, Home, End, Space, Escape, Tab, Enter, Equal, Minus
//	probe [LABEL]                  print one line "probe {json}" on stdout
//	shot FILE                      write the frame to a PNG
//	quit                           end the demo
//
// POS is X,Y in window pixels, rDX,DY relative to the cursor, pN where
// particle N of the scene's World is on screen at that moment, or pA~pB
// halfway between two particles on screen, or mSCENE the middle of that
// scene's button in the scene menu. A probe's label may name
// particles (pN, pA~pB): it reports their window positions. Blank lines and # comments are ignored.
// Input commands due in a frame run before its physics; probes, shots and
// quit after its render.
type script struct {
	file string
	cmds []scriptCmd
	next int // first command not yet run
}

type scriptCmd struct {
	line   int
	t      float64
	name   string
	pos    scriptPos
	button window.MouseButton
	mods   window.ModifierKey
	key    window.Key
	dy     float32
	arg    string // probe label, shot file
}

type scriptPos struct {
	x, y     float32
	particle int    // -1: x, y (absolute, or relative if rel)
	menu     string // the center of this scene's button in the scene menu
	other    int    // with particle: the midpoint of the two on screen; -1 none
	rel      bool
}

// parseScript reads and checks a script file; each error names the file
// and the line.
func parseScript(file string) (*script, error) {
	b, err := os.ReadFile(file)
	if err != nil {
		return nil, fmt.Errorf("-script = %q: %v", file, errText(err))
	}
	return parseScriptText(file, b)
}

func errText(err error) string {
	if pe, ok := err.(*os.PathError); ok {
		return pe.Err.Error()
	}
	return err.Error()
}

func parseScriptText(file string, b []byte) (*script, error) {
	s := &script{file: file}
	sc := bufio.NewScanner(bytes.NewReader(b))
	n := 0
	last := 0.0
	for sc.Scan() {
		n++
		line := sc.Text()
		if i := strings.IndexByte(line, '#'); i >= 0 {
			line = line[:i]
		}
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		bad := func(format string, args ...any) error {
			return fmt.Errorf("-script %s line %d %q: %s", file, n, strings.TrimSpace(sc.Text()), fmt.Sprintf(format, args...))
		}
		t, err := strconv.ParseFloat(f[0], 64)
		if err != nil || math.IsNaN(t) || math.IsInf(t, 0) || t < 0 {
			return nil, bad("want a time in seconds >= 0 first, got %q", f[0])
		}
		if t < last {
			return nil, bad("time %v is before the previous line's %v", t, last)
		}
		last = t
		if len(f) < 2 {
			return nil, bad("want a command after the time")
		}
		c := scriptCmd{line: n, t: t, name: f[1], button: window.MouseButtonLeft}
		args := f[2:]
		need := func(k int) error {
			if len(args) < k {
				return bad("%s wants %d argument(s)", c.name, k)
			}
			return nil
		}
		mods := func(words []string, allowButton bool) error {
			for _, w := range words {
				switch strings.ToLower(w) {
				case "shift":
					c.mods |= window.ModShift
				case "ctrl", "control":
					c.mods |= window.ModControl
				case "alt":
					c.mods |= window.ModAlt
				case "left":
					c.button = window.MouseButtonLeft
				case "right":
					c.button = window.MouseButtonRight
				case "middle":
					c.button = window.MouseButtonMiddle
				default:
					return bad("unknown modifier or button %q", w)
				}
				if !allowButton && (w == "left" || w == "right" || w == "middle") {
					return bad("%s takes no mouse button", c.name)
				}
			}
			return nil
		}
		switch c.name {
		case "move", "down", "up":
			if err := need(1); err != nil {
				return nil, err
			}
			p, err := parsePos(args[0])
			if err != nil {
				return nil, bad("%v", err)
			}
			c.pos = p
			if c.name != "move" {
				if err := mods(args[1:], true); err != nil {
					return nil, err
				}
			} else if len(args) > 1 {
				return nil, bad("move takes only a position")
			}
		case "scroll":
			if err := need(1); err != nil {
				return nil, err
			}
			v, err := strconv.ParseFloat(args[0], 32)
			if err != nil || math.IsNaN(v) || math.Abs(v) > 100 {
				return nil, bad("want a wheel step in [-100, 100], got %q", args[0])
			}
			c.dy = float32(v)
		case "key":
			if err := need(1); err != nil {
				return nil, err
			}
			k, ok := keyByName(args[0])
			if !ok {
				return nil, bad("unknown key %q", args[0])
			}
			c.key = k
			if err := mods(args[1:], false); err != nil {
				return nil, err
			}
		case "probe":
			c.arg = strings.Join(args, " ")
		case "shot":
			if err := need(1); err != nil {
				return nil, err
			}
			c.arg = args[0]
		case "quit":
		default:
			return nil, bad("unknown command %q (want move, down, up, scroll, key, probe, shot or quit)", c.name)
		}
		s.cmds = append(s.cmds, c)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("-script = %q: %v", file, err)
	}
	return s, nil
}

func parsePos(s string) (scriptPos, error) {
	const want = "want X,Y, rDX,DY (relative to the cursor), pN (a particle), pA~pB (between two) or mSCENE (a menu button)"
	if name, ok := strings.CutPrefix(s, "m"); ok {
		if _, known := findScene(name); !known {
			return scriptPos{}, fmt.Errorf("position %q: no scene %q in the menu", s, name)
		}
		return scriptPos{particle: -1, other: -1, menu: name}, nil
	}
	if strings.HasPrefix(s, "p") {
		a, b, two := strings.Cut(s[1:], "~p")
		n, err := strconv.Atoi(a)
		m := -1
		if two && err == nil {
			m, err = strconv.Atoi(b)
		}
		if err != nil || n < 0 || (two && m < 0) {
			return scriptPos{}, fmt.Errorf("position %q: %s", s, want)
		}
		return scriptPos{particle: n, other: m}, nil
	}
	rel := strings.HasPrefix(s, "r")
	f := strings.Split(strings.TrimPrefix(s, "r"), ",")
	if len(f) != 2 {
		return scriptPos{}, fmt.Errorf("position %q: %s", s, want)
	}
	var v [2]float32
	for i := range f {
		x, err := strconv.ParseFloat(f[i], 32)
		if err != nil || math.IsNaN(x) || math.Abs(x) > 1e5 {
			return scriptPos{}, fmt.Errorf("position %q: %q is not a pixel coordinate", s, f[i])
		}
		v[i] = float32(x)
	}
	return scriptPos{x: v[0], y: v[1], particle: -1, other: -1, rel: rel}, nil
}

func keyByName(name string) (window.Key, bool) {
	if len(name) == 1 {
		c := name[0]
		switch {
		case c >= 'A' && c <= 'Z':
			return window.KeyA + window.Key(c-'A'), true
		case c >= 'a' && c <= 'z':
			return window.KeyA + window.Key(c-'a'), true
		case c >= '0' && c <= '9':
			return window.Key0 + window.Key(c-'0'), true
		}
	}
	if len(name) >= 2 && (name[0] == 'F' || name[0] == 'f') {
		if n, err := strconv.Atoi(name[1:]); err == nil && n >= 1 && n <= 12 {
			return window.KeyF1 + window.Key(n-1), true
		}
	}
	k, ok := map[string]window.Key{
		"up": window.KeyUp, "down": window.KeyDown, "left": window.KeyLeft, "right": window.KeyRight,
		"home": window.KeyHome, "end": window.KeyEnd, "space": window.KeySpace, "escape": window.KeyEscape,
		"tab": window.KeyTab, "enter": window.KeyEnter, "equal": window.KeyEqual, "minus": window.KeyMinus,
	}[strings.ToLower(name)]
	return k, ok
}

func isOutput(name string) bool { return name == "probe" || name == "shot" || name == "quit" }

// input sends the input commands due by the shell's clock. It stops at the
// first due output command: that one runs after the frame's render, and
// the input after it waits for the next frame.
func (s *script) input(sh *shell) error {
	for s.next < len(s.cmds) {
		c := s.cmds[s.next]
		if c.t > sh.clock+1e-9 || isOutput(c.name) {
			return nil
		}
		s.next++
		x, y, err := s.where(sh, c)
		if err != nil {
			return err
		}
		a := sh.app
		switch c.name {
		case "move":
			a.Dispatch(window.OnCursor, &window.CursorEvent{Xpos: x, Ypos: y, Mods: c.mods})
		case "down":
			a.Dispatch(window.OnCursor, &window.CursorEvent{Xpos: x, Ypos: y, Mods: c.mods})
			a.Dispatch(window.OnMouseDown, &window.MouseEvent{Xpos: x, Ypos: y, Button: c.button, Mods: c.mods})
		case "up":
			a.Dispatch(window.OnCursor, &window.CursorEvent{Xpos: x, Ypos: y, Mods: c.mods})
			a.Dispatch(window.OnMouseUp, &window.MouseEvent{Xpos: x, Ypos: y, Button: c.button, Mods: c.mods})
		case "scroll":
			a.Dispatch(window.OnScroll, &window.ScrollEvent{Yoffset: c.dy})
		case "key":
			a.Dispatch(window.OnKeyDown, &window.KeyEvent{Key: c.key, Mods: c.mods})
			a.Dispatch(window.OnKeyUp, &window.KeyEvent{Key: c.key, Mods: c.mods})
		}
	}
	return nil
}

// output runs the probes, shots and quits due after the frame's render.
func (s *script) output(sh *shell) error {
	for s.next < len(s.cmds) {
		c := s.cmds[s.next]
		if c.t > sh.clock+1e-9 || !isOutput(c.name) {
			return nil
		}
		s.next++
		switch c.name {
		case "probe":
			rep := sh.probe(c.arg)
			for _, w := range strings.Fields(c.arg) {
				if pos, err := parsePos(w); err == nil && pos.particle >= 0 {
					x, y, err := s.where(sh, scriptCmd{line: c.line, pos: pos})
					if err != nil {
						return err
					}
					if rep.Screen == nil {
						rep.Screen = map[string][2]float32{}
					}
					rep.Screen[w] = [2]float32{x, y}
				}
			}
			b, err := json.Marshal(rep)
			if err != nil {
				return err
			}
			fmt.Printf("probe %s\n", b)
		case "shot":
			if err := sh.d.writeShot(c.arg); err != nil {
				return fmt.Errorf("-script %s line %d: %v", s.file, c.line, err)
			}
		case "quit":
			sh.app.Exit()
		}
	}
	return nil
}

// where resolves a command's position to window pixels.
func (s *script) where(sh *shell, c scriptCmd) (float32, float32, error) {
	if c.name == "scroll" || c.name == "key" {
		return 0, 0, nil
	}
	if c.pos.menu != "" {
		b := sh.menuButton[c.pos.menu]
		p := b.Pospix()
		return p.X + b.Width()/2, p.Y + b.Height()/2, nil
	}
	if c.pos.particle < 0 {
		if c.pos.rel {
			return sh.router.x + c.pos.x, sh.router.y + c.pos.y, nil
		}
		return c.pos.x, c.pos.y, nil
	}
	at := func(n int) (float32, float32, error) {
		d := sh.d
		if d.driver == nil || n >= d.driver.World.NumParticles() {
			return 0, 0, fmt.Errorf("-script %s line %d: scene %s has no particle %d", s.file, c.line, sh.name, n)
		}
		x, y := sh.screen(d.driver.World.Position(verlet3d.Particle(n)))
		return x, y, nil
	}
	x, y, err := at(c.pos.particle)
	if err != nil || c.pos.other < 0 {
		return x, y, err
	}
	x2, y2, err := at(c.pos.other)
	return (x + x2) / 2, (y + y2) / 2, err
}

// screen returns the window position of the world point p.
func (sh *shell) screen(p mgl32.Vec3) (float32, float32) {
	v := math32.Vector3{X: p[0], Y: p[1], Z: p[2]}
	sh.cam.UpdateMatrixWorld()
	sh.cam.Project(&v)
	w, h := sh.app.GetSize()
	return (v.X + 1) / 2 * float32(w), (1 - v.Y) / 2 * float32(h)
}

// probeReport is what a probe prints: enough for tests to check the
// camera, the grab, the HUD's figures against wall time, and the World.
type probeReport struct {
	Label  string     `json:"label"`
	Scene  string     `json:"scene"`
	Frame  int        `json:"frame"`
	Time   float64    `json:"time"` // the script's clock, s
	Wall   float64    `json:"wall"` // s since the loop started
	Eye    [3]float32 `json:"eye"`
	Target [3]float32 `json:"target"`
	Owner  string     `json:"owner"`
	Cursor [2]float32 `json:"cursor"`  // window pixels
	HUDFPS float64    `json:"hud_fps"` // parsed back from the HUD's text
	HUD    string     `json:"hud"`
	// The HUD meter's last window: wall ms per frame, and the scene
	// update, physics and render ms per frame in it.
	FrameMS   float64 `json:"frame_ms"`
	SceneMS   float64 `json:"scene_ms"`
	PhysicsMS float64 `json:"physics_ms"`
	RenderMS  float64 `json:"render_ms"`
	Particles int     `json:"particles"`
	Links     int     `json:"links"`
	Broken    int     `json:"broken"`
	Cut       int     `json:"cut"`    // links the knife broke in this scene
	Pushed    int     `json:"pushed"` // particle pushes by the brush since start
	// StrainSegments is how many cloth edges the strain view draws (0:
	// off); MaxStrain the largest edge strain it drew.
	StrainSegments int `json:"strain_segments"`
	// StrainTriangles is how many cloth triangles the strain view paints.
	StrainTriangles int     `json:"strain_triangles"`
	MaxStrain       float32 `json:"max_strain"`
	// Dots is how many particle dots the particle view shows (0: off),
	// PinnedDots how many of them are pinned or kinematic.
	Dots       int `json:"dots"`
	PinnedDots int `json:"pinned_dots"`
	// LinkSegments is how many links the link view draws (0: off).
	LinkSegments int `json:"link_segments"`
	// ContactSegments and ContactDots are how many contact lines and
	// dots the contact view draws (0: off); WorldContacts is how many
	// contacts World.Contacts returns now, drawn or not.
	ContactSegments int  `json:"contact_segments"`
	ContactDots     int  `json:"contact_dots"`
	WorldContacts   int  `json:"world_contacts"`
	NonFinite       int  `json:"nonfinite"`
	AllFinite       bool `json:"all_finite"`
	Paused          bool `json:"paused"`
	// Iterations and Substeps are the World's solver settings now.
	Iterations int        `json:"iterations"`
	Substeps   int        `json:"substeps"`
	Grab       *probeGrab `json:"grab,omitempty"`
	// Screen holds the window position of each particle the probe's label
	// names (pN or pA~pB).
	Screen map[string][2]float32 `json:"screen,omitempty"`
	// Ragdoll holds the ragdoll scene's figures (Demo.OnProbe).
	Ragdoll *ragStats `json:"ragdoll,omitempty"`
}

type probeGrab struct {
	Particle  int        `json:"particle"`
	Pos       [3]float32 `json:"pos"`
	RayOrigin [3]float32 `json:"ray_origin"` // the cursor's ray now
	RayDir    [3]float32 `json:"ray_dir"`
}

func (sh *shell) probe(label string) probeReport {
	d := sh.d
	e, t := sh.orbit.Eye(), sh.orbit.Target()
	r := probeReport{
		Label: label, Scene: sh.name, Frame: sh.frames, Time: sh.clock,
		Wall:    timeSince(sh.wallStart),
		Eye:     [3]float32{e.X, e.Y, e.Z},
		Target:  [3]float32{t.X, t.Y, t.Z},
		Owner:   sh.router.owner.String(),
		Cursor:  [2]float32{sh.router.x, sh.router.y},
		HUD:     sh.hud.Text(),
		Cut:     sh.knife.broken,
		Pushed:  sh.brush.pushed,
		FrameMS: sh.meter.frameMS, SceneMS: sh.meter.sceneMS,
		PhysicsMS: sh.meter.physicsMS, RenderMS: sh.meter.renderMS,
	}
	if f := strings.Fields(r.HUD); len(f) > 0 {
		for i := 1; i < len(f); i++ {
			if f[i] == "fps" {
				r.HUDFPS, _ = strconv.ParseFloat(f[i-1], 64)
				break
			}
		}
	}
	if d.driver != nil {
		w := d.driver.World
		st := w.Stats()
		r.Particles, r.Links, r.Broken, r.NonFinite = w.NumParticles(), w.NumLinks(), st.LinksBroken, st.NonFiniteResets
		r.Paused = d.driver.Paused()
		r.Iterations, r.Substeps = w.Config().Iterations, w.Config().Substeps
		r.AllFinite = true
		for _, p := range w.Positions() {
			if !finite3(p) {
				r.AllFinite = false
				break
			}
		}
		r.WorldContacts = len(w.Contacts(nil))
		if g := sh.grab; g.on {
			o, dir := d.ray(sh.router.x, sh.router.y)
			p := w.Position(g.p)
			r.Grab = &probeGrab{Particle: int(g.p), Pos: p, RayOrigin: o, RayDir: dir}
		}
	}
	for _, f := range d.probes {
		f(&r)
	}
	v := sh.views
	r.Dots, r.PinnedDots = v.freeDots.shown()+v.pinnedDots.shown(), v.pinnedDots.shown()
	r.LinkSegments = v.links.shown()
	r.ContactSegments, r.ContactDots = v.contacts.shown(), v.contDots.shown()
	if sh.views.strainOn {
		r.StrainSegments, r.MaxStrain = len(sh.views.strain.buf)/12, sh.views.maxStrain
		r.StrainTriangles = len(sh.views.surface.idx) / 3
	}
	return r
}

func finite3(v mgl32.Vec3) bool {
	for _, x := range v {
		if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
			return false
		}
	}
	return true
}
