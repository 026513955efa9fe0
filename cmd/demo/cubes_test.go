package main

import (
	"image"
	"testing"
)

// wood matches the crate texture as lit: orange-brown, red over green over
// blue.
func wood(r, g, b uint8) bool {
	return int(r) > int(g)+25 && int(g) > int(b)+20 && r > 70
}

// The cubes scene renders lit crates (light and shaded faces), the
// chequered cloth draped over them, and sky above.
func TestCubesSceneRenders(t *testing.T) {
	img := runDemo(t, "-scene", "cubes", "-frames", "150")
	b := img.Bounds()
	if f := regionBackgroundFraction(img, image.Rect(0, 100, b.Dx(), 160)); f < 0.5 {
		t.Errorf("sky band shows background in %.0f%% of pixels, want > 50%%", f*100)
	}
	crates := countPixels(img, b, wood)
	bright := countPixels(img, b, func(r, g, bb uint8) bool { return wood(r, g, bb) && r > 200 })
	shaded := countPixels(img, b, func(r, g, bb uint8) bool { return wood(r, g, bb) && r < 150 })
	red := countPixels(img, b, func(r, g, bb uint8) bool { return r > 150 && g < 90 && bb < 90 })
	t.Logf("crate %d (bright %d, shaded %d), cloth red %d pixels, %d colors", crates, bright, shaded, red, distinctColors(img))
	if crates < 30000 {
		t.Errorf("crates: %d wood pixels, want > 30000", crates)
	}
	if bright < 2000 || shaded < 2000 {
		t.Errorf("crates look unlit: %d bright and %d shaded wood pixels, want > 2000 each", bright, shaded)
	}
	if red < 5000 {
		t.Errorf("cloth: %d red pixels, want > 5000", red)
	}
}

// With nothing raining on it, the stack of five still stands after 4 s:
// its top crate is where it started, in the upper middle of the frame.
func TestCubesStackStands(t *testing.T) {
	img := runDemo(t, "-scene", "cubes", "-cubes-rain", "0", "-cubes-cloth=false", "-frames", "240",
		"-cam", "-1.3,1.2,4", "-look", "-1.3,1.2,-0.4")
	b := img.Bounds()
	// The camera looks at the middle of the stack from 4.4 m in front: at
	// 1280 x 720 the top crate (1.6..2.0 m up) spans rows 240..300 at the
	// center, the column of crates runs down to row 540, and left of it
	// there is only sky and floor.
	top := countPixels(img, image.Rect(b.Dx()/2-40, 235, b.Dx()/2+40, 305), wood)
	column := countPixels(img, image.Rect(b.Dx()/2-40, 305, b.Dx()/2+40, 540), wood)
	side := countPixels(img, image.Rect(0, 100, b.Dx()/2-100, 600), wood)
	t.Logf("top band %d, column %d, left side %d wood pixels", top, column, side)
	if top < 3000 || column < 12000 {
		t.Errorf("stack: %d wood pixels at the top, %d in the column, want > 3000 and > 12000 (it fell?)", top, column)
	}
	if side > 500 {
		t.Errorf("%d wood pixels left of the stack, want none (it fell?)", side)
	}
}

// Bad flags are errors (status 2, before a window opens), not a crash or a
// silent clamp.
func TestCubesBadFlags(t *testing.T) {
	bin := demoBinary(t)
	for _, args := range [][]string{{"-cubes-rain", "-1"}, {"-cubes-size", "0"}, {"-cubes-size", "NaN"}} {
		if got := runExit(bin, append([]string{"-scene", "cubes", "-frames", "1"}, args...)...); got != 2 {
			t.Errorf("%v: exit status %d, want 2", args, got)
		}
	}
}
