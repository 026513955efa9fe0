package main

import (
	"image"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// GL tests run the built demo as a subprocess under the current X display
// (make test provides Xvfb) and inspect the PNG it writes: g3n's window is a
// process-wide singleton that wants the main thread, so one process per
// capture keeps the tests independent.

var (
	buildOnce sync.Once
	demoBin   string
	buildErr  error
)

func demoBinary(t *testing.T) string {
	t.Helper()
	if os.Getenv("DISPLAY") == "" {
		if os.Getenv("DRAPE_GL") == "1" {
			t.Fatal("DRAPE_GL=1 but DISPLAY is empty: run under xvfb-run (make test does)")
		}
		t.Skip("no DISPLAY: GL tests run under Xvfb with make test")
	}
	return buildDemo(t)
}

// buildDemo builds the demo once per test run and returns its path; it
// needs no display (tests of flag errors run it without one).
func buildDemo(t *testing.T) string {
	t.Helper()
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "drape-demo-")
		if err != nil {
			buildErr = err
			return
		}
		demoBin = filepath.Join(dir, "demo")
		out, err := exec.Command("go", "build", "-o", demoBin, ".").CombinedOutput()
		if err != nil {
			buildErr = err
			demoBin = string(out)
		}
	})
	if buildErr != nil {
		t.Fatalf("building the demo: %v\n%s", buildErr, demoBin)
	}
	return demoBin
}

// runDemo runs the demo with args plus -shot and returns the decoded frame.
func runDemo(t *testing.T, args ...string) image.Image {
	t.Helper()
	bin := demoBinary(t)
	shot := filepath.Join(t.TempDir(), "shot.png")
	cmd := exec.Command(bin, append(args, "-shot", shot)...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("demo %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	f, err := os.Open(shot)
	if err != nil {
		t.Fatalf("demo %s wrote no PNG: %v\n%s", strings.Join(args, " "), err, out)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	if dir := os.Getenv("DRAPE_SHOTS"); dir != "" {
		// Keep a copy for a person to look at.
		name := strings.ReplaceAll(t.Name(), "/", "_") + ".png"
		if b, err := os.ReadFile(shot); err == nil {
			_ = os.WriteFile(filepath.Join(dir, name), b, 0o644)
		}
	}
	return img
}

func near(a, b uint32) bool {
	d := int(a>>8) - int(b>>8)
	return d >= -6 && d <= 6
}

func isBackground(img image.Image, x, y int) bool {
	bg := colorOf(demoBackground)
	r, g, b, _ := img.At(x, y).RGBA()
	return near(r, uint32(bg.R)*0x101) && near(g, uint32(bg.G)*0x101) && near(b, uint32(bg.B)*0x101)
}

// regionBackgroundFraction returns the fraction of pixels in r that show the
// clear color.
func regionBackgroundFraction(img image.Image, r image.Rectangle) float64 {
	r = r.Intersect(img.Bounds())
	if r.Empty() {
		return 0
	}
	n := 0
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			if isBackground(img, x, y) {
				n++
			}
		}
	}
	return float64(n) / float64(r.Dx()*r.Dy())
}

// backgroundFraction returns the fraction of the frame showing the clear color.
func backgroundFraction(img image.Image) float64 {
	return regionBackgroundFraction(img, img.Bounds())
}

// distinctColors counts distinct colors, quantized to 5 bits a channel.
func distinctColors(img image.Image) int {
	seen := map[uint32]bool{}
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y += 2 {
		for x := b.Min.X; x < b.Max.X; x += 2 {
			r, g, bl, _ := img.At(x, y).RGBA()
			seen[(r>>11)<<10|(g>>11)<<5|bl>>11] = true
		}
	}
	return len(seen)
}

// countPixels counts pixels in r for which match returns true (8-bit channels).
func countPixels(img image.Image, r image.Rectangle, match func(r, g, b uint8) bool) int {
	r = r.Intersect(img.Bounds())
	n := 0
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			cr, cg, cb, _ := img.At(x, y).RGBA()
			if match(uint8(cr>>8), uint8(cg>>8), uint8(cb>>8)) {
				n++
			}
		}
	}
	return n
}
