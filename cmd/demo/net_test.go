package main

import (
	"image"
	"testing"
)

// The net scene renders: sky at the top, the lit orange sphere and the dark
// blue net in the middle, the floor below; not a blank or one-color frame.
func TestNetSceneRenders(t *testing.T) {
	img := runDemo(t, "-scene", "net", "-frames", "90")
	b := img.Bounds()
	if f := regionBackgroundFraction(img, image.Rect(0, 120, b.Dx(), 200)); f < 0.5 {
		t.Errorf("sky band shows background in %.0f%% of pixels, want > 50%%", f*100)
	}
	if n := distinctColors(img); n < 40 {
		t.Errorf("%d distinct colors: the frame looks flat", n)
	}
	center := image.Rect(b.Dx()/2-200, b.Dy()/2-200, b.Dx()/2+200, b.Dy()/2+150)
	orange := countPixels(img, center, func(r, g, b uint8) bool { return r > 150 && g < 140 && b < 100 })
	// Lit: the sphere shows a range of orange shades, bright highlight to dark limb.
	bright := countPixels(img, center, func(r, g, b uint8) bool { return r > 230 && g > 120 && b < 130 })
	dark := countPixels(img, center, func(r, g, b uint8) bool { return r > 90 && r < 190 && g < 80 && b < 60 })
	net := countPixels(img, center, func(r, g, b uint8) bool { return b > r+30 && b > g+10 && r < 80 })
	t.Logf("orange %d, bright %d, dark %d, net %d pixels", orange, bright, dark, net)
	if orange < 5000 {
		t.Errorf("sphere: %d orange pixels, want > 5000", orange)
	}
	if bright < 50 || dark < 200 {
		t.Errorf("sphere looks unlit: %d highlight and %d shaded pixels", bright, dark)
	}
	if net < 1500 {
		t.Errorf("net: %d dark blue pixels, want > 1500", net)
	}
}

func TestUnknownSceneExits2(t *testing.T) {
	bin := demoBinary(t)
	err := runExit(bin, "-scene", "no-such-scene")
	if err != 2 {
		t.Fatalf("exit status %d, want 2", err)
	}
}
