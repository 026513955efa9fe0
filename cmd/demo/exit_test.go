package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// runExit runs bin and returns its exit status.
func runExit(bin string, args ...string) int {
	code, _ := runExitStderr(bin, args...)
	return code
}

// runExitStderr runs bin and returns its exit status and what it wrote to
// stderr.
func runExitStderr(bin string, args ...string) (int, string) {
	cmd := exec.Command(bin, args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err := cmd.Run()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return ee.ExitCode(), stderr.String()
	}
	if err != nil {
		return -1, err.Error()
	}
	return 0, stderr.String()
}

// Every bad flag value ends the demo before a window opens, with status 2
// and one line on stderr that names the flag and the value: no panic, no
// register dump, no silent clamp. Runs without a display.
func TestBadFlags(t *testing.T) {
	bin := buildDemo(t)
	dir := t.TempDir()
	script := func(name, text string) string {
		f := filepath.Join(dir, name)
		if err := os.WriteFile(f, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return f
	}
	badTime := script("time.txt", "0.5 probe ok\nsoon key A\n")
	badCmd := script("cmd.txt", "# comment\n\n1 jump 3\n")
	badKey := script("key.txt", "1 key NoSuchKey\n")
	badPos := script("pos.txt", "1 down 10;20 shift\n")
	backwards := script("back.txt", "2 probe a\n1 probe b\n")
	for _, c := range []struct {
		args []string
		want []string // substrings of stderr
	}{
		{[]string{"-width", "0"}, []string{"-width = 0", "16..8192"}},
		{[]string{"-width", "-100"}, []string{"-width = -100"}},
		{[]string{"-width", "100000"}, []string{"-width = 100000"}},
		{[]string{"-height", "0"}, []string{"-height = 0"}},
		{[]string{"-height", "-1"}, []string{"-height = -1"}},
		{[]string{"-frames", "-5"}, []string{"-frames = -5"}},
		{[]string{"-workers", "0"}, []string{"-workers = 0"}},
		{[]string{"-workers", "1000"}, []string{"-workers = 1000"}},
		{[]string{"-worker-spin", "-1"}, []string{"-worker-spin = -1", "[0, 1]"}},
		{[]string{"-worker-spin", "5"}, []string{"-worker-spin = 5"}},
		{[]string{"-scene", "no-such-scene"}, []string{`-scene = "no-such-scene"`, "hair"}},
		{[]string{"-cam", "NaN,1,2"}, []string{`-cam = "NaN,1,2"`, "NaN"}},
		{[]string{"-cam", "0,Inf,2"}, []string{`-cam = "0,Inf,2"`, "+Inf"}},
		{[]string{"-look", "1,2"}, []string{`-look = "1,2"`, "want x,y,z"}},
		{[]string{"-look", "1,b,2"}, []string{`-look = "1,b,2"`, `"b" is not a number`}},
		{[]string{"-cam", "1e30,0,0"}, []string{`-cam = "1e30,0,0"`}},
		{[]string{"-cam", "1,2,3", "-look", "1,2,3"}, []string{`-cam = "1,2,3" equals -look`}},
		{[]string{"-shot", "x.png"}, []string{`-shot "x.png" needs -frames`}},
		{[]string{"-frames", "1", "-shot", "/no/such/dir/x.png"}, []string{`-shot = "/no/such/dir/x.png"`, "does not exist"}},
		{[]string{"stray"}, []string{`unexpected argument "stray"`}},
		{[]string{"-script", "/no/such/script.txt"}, []string{`-script = "/no/such/script.txt"`, "no such file"}},
		{[]string{"-script", dir}, []string{`-script = "` + dir + `"`, "directory"}},
		{[]string{"-script", badTime}, []string{"line 2", `"soon"`, "time in seconds"}},
		{[]string{"-script", badCmd}, []string{"line 3", `unknown command "jump"`}},
		{[]string{"-script", badKey}, []string{"line 1", `unknown key "NoSuchKey"`}},
		{[]string{"-script", badPos}, []string{"line 1", `position "10;20"`}},
		{[]string{"-script", backwards}, []string{"line 2", "before the previous line"}},
		{[]string{"-scene", "hair", "-hair-wind", "NaN"}, []string{"-hair-wind = NaN"}},
		{[]string{"-scene", "hair", "-hair-wind", "-Inf"}, []string{"-hair-wind = -Inf"}},
		{[]string{"-scene", "hair", "-hair-wind", "-1"}, []string{"-hair-wind = -1"}},
		{[]string{"-scene", "hair", "-hair-strands", "0"}, []string{"-hair-strands = 0"}},
		{[]string{"-scene", "hair", "-hair-strands", "300000000"}, []string{"-hair-strands = 300000000"}},
		{[]string{"-scene", "hair", "-hair-segments", "0"}, []string{"-hair-segments = 0"}},
		{[]string{"-scene", "hair", "-hair-length", "0"}, []string{"-hair-length = 0"}},
		{[]string{"-scene", "hair", "-hair-length", "1e-45"}, []string{"-hair-length = 1e-45"}},
		{[]string{"-scene", "hair", "-hair-walk", "-hair-run"}, []string{"-hair-walk and -hair-run"}},
		{[]string{"-scene", "flag", "-flag-wind", "Inf"}, []string{"-flag-wind = +Inf"}},
		{[]string{"-scene", "flag", "-flag-wind", "100"}, []string{"-flag-wind = 100"}},
		{[]string{"-scene", "flag", "-flag-tear", "-0.1"}, []string{"-flag-tear = -0.1"}},
		{[]string{"-scene", "cubes", "-cubes-rain", "-1"}, []string{"-cubes-rain = -1"}},
		{[]string{"-scene", "cubes", "-cubes-size", "NaN"}, []string{"-cubes-size = NaN"}},
		{[]string{"-scene", "cubes", "-cubes-engine", "jelly"}, []string{`-cubes-engine = "jelly"`}},
		{[]string{"-scene", "cape", "-cape-view", "top"}, []string{`-cape-view = "top"`, "side, behind or front"}},
		{[]string{"-scene", "cape", "-cape-gait", "fly"}, []string{`-cape-gait = "fly"`}},
		{[]string{"-scene", "tablecloth", "-tablecloth-size", "2"}, []string{"-tablecloth-size = 2"}},
		// A flag of another scene is checked too: NaN is never a value.
		{[]string{"-scene", "net", "-hair-length", "NaN"}, []string{"-hair-length = NaN"}},
		// -cape-body holds numbers in a string: checked whatever the scene
		// and whether or not -cape-gltf is given.
		{[]string{"-scene", "cape", "-cape-body", "Spine:NaN"}, []string{`-cape-body = "Spine:NaN"`, "radius NaN", "not a finite number"}},
		{[]string{"-cape-body", "Spine:0.13,Hips:+Inf"}, []string{`-cape-body = "Spine:0.13,Hips:+Inf"`, "radius +Inf", "not a finite number"}},
		{[]string{"-scene", "net", "-cape-body", "mixamorig:Spine:-Inf"}, []string{"-cape-body", "radius -Inf"}},
		{[]string{"-cape-body", "Spine:1e30"}, []string{`-cape-body = "Spine:1e30"`, `"Spine:1e30"`, "0 < radius <= 10"}},
		{[]string{"-cape-body", "Spine"}, []string{`-cape-body = "Spine"`, "bone:radius"}},
		{[]string{"-cape-body", ":0.1"}, []string{`-cape-body = ":0.1"`, "bone:radius"}},
		// Syntax errors are the flag package's: status 2 as well.
		{[]string{"-width", "wide"}, []string{"-width"}},
		{[]string{"-no-such-flag"}, []string{"no-such-flag"}},
	} {
		code, stderr := runExitStderr(bin, c.args...)
		name := strings.Join(c.args, " ")
		if code != 2 {
			t.Errorf("%s: exit status %d, want 2; stderr:\n%s", name, code, stderr)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(stderr, w) {
				t.Errorf("%s: stderr %q does not say %q", name, stderr, w)
			}
		}
		for _, bad := range []string{"panic:", "goroutine 1 [", "SIGSEGV", "signal "} {
			if strings.Contains(stderr, bad) {
				t.Errorf("%s: stderr shows a crash (%q):\n%s", name, bad, stderr)
			}
		}
		// Our own errors are one line; the flag package's syntax errors
		// add the usage text.
		syntax := c.args[0] == "-no-such-flag" || c.args[len(c.args)-1] == "wide"
		if !syntax && strings.Count(strings.TrimSpace(stderr), "\n") > 0 {
			t.Errorf("%s: want one line on stderr, got:\n%s", name, stderr)
		}
	}
}

// Without a display GLFW cannot open a window: the demo says so and exits
// with status 1 instead of panicking.
func TestNoDisplay(t *testing.T) {
	bin := buildDemo(t)
	cmd := exec.Command(bin, "-scene", "net", "-frames", "1")
	cmd.Env = append(cmd.Environ(), "DISPLAY=", "WAYLAND_DISPLAY=")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err := cmd.Run()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 1 {
		t.Fatalf("exit: %v, want status 1; stderr:\n%s", err, stderr.String())
	}
	if s := stderr.String(); !strings.Contains(s, "cannot open") || strings.Contains(s, "goroutine 1 [") {
		t.Errorf("stderr does not explain the missing display, or shows a crash:\n%s", s)
	}
}
