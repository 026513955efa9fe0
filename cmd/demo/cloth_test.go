package main

import (
	"image"
	"strings"
	"testing"
)

// flagRegion is where the flag flies on screen in the flag scene's default
// view (1280 x 720): right of the pole, below the HUD.
func flagRegion(b image.Rectangle) image.Rectangle {
	sx, sy := float64(b.Dx())/1280, float64(b.Dy())/720
	return image.Rect(int(480*sx), int(220*sy), int(760*sx), int(460*sy))
}

// A torn flag shows the sky through its hole: the same flag in the same
// wind, with and without a hole cut at the start, and in the flag's region
// of the frame the holed one shows clearly more background.
func TestFlagHoleShowsBackground(t *testing.T) {
	whole := runDemo(t, "-scene", "flag", "-flag-wind", "6", "-frames", "150")
	holed := runDemo(t, "-scene", "flag", "-flag-wind", "6", "-frames", "150", "-flag-hole")
	r := flagRegion(whole.Bounds())
	fw, fh := regionBackgroundFraction(whole, r), regionBackgroundFraction(holed, r)
	t.Logf("background in the flag's region: %.1f%% whole, %.1f%% with the hole", 100*fw, 100*fh)
	if fw > 0.6 {
		t.Fatalf("the whole flag covers only %.0f%% of its region: it is not where the test looks", 100*(1-fw))
	}
	if fh < fw+0.05 {
		t.Errorf("the hole shows %.1f%% background against %.1f%% for the whole flag, want at least 5 points more", 100*fh, 100*fw)
	}
	// Lit and textured: the flag's colors, in a range of shades.
	teal := countPixels(whole, r, func(r, g, b uint8) bool { return g > r+30 && b > r+30 && r < 80 })
	gold := countPixels(whole, r, func(r, g, b uint8) bool { return r > 150 && g > 100 && b < 90 })
	if teal < 3000 || gold < 300 {
		t.Errorf("flag texture: %d teal and %d gold pixels, want > 3000 and > 300", teal, gold)
	}
	if n := distinctColors(whole); n < 60 {
		t.Errorf("%d distinct colors: the flag looks unlit", n)
	}
}

// The tablecloth lands on the box and ball and drapes: the checked cloth
// fills the middle of the frame, in both light and shadow.
func TestTableclothRenders(t *testing.T) {
	img := runDemo(t, "-scene", "tablecloth", "-frames", "240")
	b := img.Bounds()
	center := image.Rect(b.Dx()/2-250, b.Dy()/2-150, b.Dx()/2+250, b.Dy()/2+200)
	red := countPixels(img, center, func(r, g, b uint8) bool { return r > 120 && g < 90 && b < 90 })
	cream := countPixels(img, center, func(r, g, b uint8) bool { return r > 200 && g > 190 && b > 160 })
	shaded := countPixels(img, center, func(r, g, b uint8) bool { return r > 70 && r < 150 && g < 50 && b < 50 })
	t.Logf("red %d, cream %d, shaded red %d pixels", red, cream, shaded)
	if red < 8000 || cream < 5000 {
		t.Errorf("tablecloth: %d red and %d cream pixels, want > 8000 and > 5000", red, cream)
	}
	if shaded < 300 {
		t.Errorf("tablecloth: %d shaded red pixels, want > 300: the cloth looks unlit", shaded)
	}
}

// The flag keeps whole in its default wind (7 m/s, gusting) and tears in
// a gale (22 m/s), as its -flag-wind help says ("the flag tears from about
// 20"). With a tear strain of 0.3 its free corner tore 3 s into the
// default wind.
func TestFlagTearsInAGaleOnly(t *testing.T) {
	for _, tc := range []struct {
		wind  string
		whole bool
	}{{"7", true}, {"22", false}} {
		probes := runScript(t, "8.0 probe end\n", "-scene", "flag", "-flag-wind", tc.wind, "-frames", "490", "-width", "480", "-height", "270")
		need(t, probes, "end")
		hud := probes["end"].HUD
		if whole := strings.Contains(hud, " 0 links torn"); whole != tc.whole {
			i := strings.Index(hud, "links torn")
			t.Errorf("wind %s m/s after 8 s: %q, want whole %v", tc.wind, hud[max(0, i-40):i+10], tc.whole)
		}
	}
}
