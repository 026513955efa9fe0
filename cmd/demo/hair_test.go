package main

import (
	"image"
	"testing"
)

// hairPixel reports a hair-colored pixel: brown, from dark roots to lit
// tips (red over green over blue, blue under half the red). Skin has more
// blue, the shirt and the background are blue.
func hairPixel(r, g, b uint8) bool {
	return r > 25 && r >= g && g > b && 2*int(b) < int(r)
}

// hairCount counts hair pixels in rect, the lit ones among them (red
// above 170) and the distinct brightness levels they show.
func hairCount(img image.Image, rect image.Rectangle) (hair, lit, levels int) {
	seen := map[uint32]bool{}
	rect = rect.Intersect(img.Bounds())
	for y := rect.Min.Y; y < rect.Max.Y; y++ {
		for x := rect.Min.X; x < rect.Max.X; x++ {
			R, G, B, _ := img.At(x, y).RGBA()
			r, g, b := uint8(R>>8), uint8(G>>8), uint8(B>>8)
			if !hairPixel(r, g, b) {
				continue
			}
			hair++
			if r > 170 {
				lit++
			}
			seen[uint32(r)>>3] = true
		}
	}
	return hair, lit, len(seen)
}

// hairRegions are the parts of a front view of the head, from the fixed
// camera of hairFront: center (cx, cy) and head radius r in pixels.
func hairRegions(b image.Rectangle) (above, face, left, right image.Rectangle) {
	cx, cy := b.Dx()/2, b.Dy()/2-5
	r := b.Dy() * 85 / 720
	above = image.Rect(cx-r/3, cy-r-r/8, cx+r/3, cy-r) // over the sphere's outline
	face = image.Rect(cx-r*2/3, cy-r/6, cx+r*2/3, cy+r*3/4)
	left = image.Rect(cx-r*3/2, cy, cx-r, cy+r*3/2)
	right = image.Rect(cx+r, cy, cx+r*3/2, cy+r*3/2)
	return above, face, left, right
}

// hairFront is a camera straight at the face, head center mid-frame.
var hairFront = []string{"-scene", "hair", "-cam", "0,1.6,0.75", "-look", "0,1.6,0"}

// The hair scene at rest: hair stands above the head's outline and hangs on
// both sides of the face, is lit (bright highlights and many shades, not
// flat color), and the face itself is clear of hair.
func TestHairSceneRest(t *testing.T) {
	img := runDemo(t, append(hairFront, "-frames", "90")...)
	above, face, left, right := hairRegions(img.Bounds())
	ha, _, _ := hairCount(img, above)
	hf, _, _ := hairCount(img, face)
	hl, _, _ := hairCount(img, left)
	hr, _, _ := hairCount(img, right)
	all, lit, levels := hairCount(img, img.Bounds())
	t.Logf("hair pixels: above the head %d/%d, face %d/%d, left %d/%d, right %d/%d; total %d, lit %d, %d brightness levels",
		ha, above.Dx()*above.Dy(), hf, face.Dx()*face.Dy(), hl, left.Dx()*left.Dy(), hr, right.Dx()*right.Dy(), all, lit, levels)
	if ha < above.Dx()*above.Dy()/3 {
		t.Errorf("no hair on top of the head: %d hair pixels of %d", ha, above.Dx()*above.Dy())
	}
	if hl < left.Dx()*left.Dy()/3 || hr < right.Dx()*right.Dy()/3 {
		t.Errorf("hair does not hang beside the face: %d left, %d right of %d", hl, hr, left.Dx()*left.Dy())
	}
	if hf > face.Dx()*face.Dy()/20 {
		t.Errorf("hair over the face: %d of %d pixels", hf, face.Dx()*face.Dy())
	}
	// Highlights: settled strands (smooth since FollowDamping) catch the
	// key light on the crown only, 75-105 pixels at this size; the earlier
	// threshold of 200 was met only by strands still kinked 1.5 s in
	// (the same build, settled at 300 frames, showed 103). Unlit hair
	// (ambient only) has none: its brightest pixel is red 130.
	if lit < 40 || levels < 16 {
		t.Errorf("hair looks unlit: %d bright pixels, %d brightness levels", lit, levels)
	}
	if f := backgroundFraction(img); f < 0.3 || f > 0.95 {
		t.Errorf("background fraction %.2f: the scene is missing or fills the frame", f)
	}
}

// Wind from the viewer's left blows the hair to the right: the right side
// of the head shows more hair than the left, and the face stays clear.
func TestHairSceneWind(t *testing.T) {
	img := runDemo(t, append(hairFront, "-hair-wind", "10", "-hair-strands", "1000", "-frames", "120")...)
	_, face, _, _ := hairRegions(img.Bounds())
	b := img.Bounds()
	cx := b.Dx() / 2
	leftHalf := image.Rect(0, 0, cx-20, b.Dy())
	rightHalf := image.Rect(cx+20, 0, b.Dx(), b.Dy())
	hl, _, _ := hairCount(img, leftHalf)
	hr, _, _ := hairCount(img, rightHalf)
	hf, _, _ := hairCount(img, face)
	t.Logf("hair pixels in wind: left half %d, right half %d, face %d", hl, hr, hf)
	if hr < hl*6/5 {
		t.Errorf("wind from the left does not blow the hair right: %d left, %d right", hl, hr)
	}
	if hf > face.Dx()*face.Dy()/10 {
		t.Errorf("hair blown over the face: %d of %d pixels", hf, face.Dx()*face.Dy())
	}
}

// Walking (-hair-walk), seen from the side by the following camera: the
// walker stays in frame (hair on the head in the upper middle, the floor
// below) after 150 frames, 2.5 m along its circle.
func TestHairSceneWalk(t *testing.T) {
	img := runDemo(t, "-scene", "hair", "-hair-walk", "-frames", "150")
	b := img.Bounds()
	head := image.Rect(b.Dx()/2-150, b.Dy()/6, b.Dx()/2+150, b.Dy()/2)
	hh, lit, levels := hairCount(img, head)
	all, _, _ := hairCount(img, b)
	floor := regionBackgroundFraction(img, image.Rect(0, b.Dy()*3/4, b.Dx(), b.Dy()))
	t.Logf("hair pixels round the head %d (lit %d, %d levels), in the frame %d; background in the bottom quarter %.2f", hh, lit, levels, all, floor)
	if hh < 3000 || hh < all*8/10 {
		t.Errorf("hair: %d pixels round the head of %d in the frame: the walker or its hair left the view", hh, all)
	}
	if floor > 0.2 {
		t.Errorf("bottom quarter %.0f%% background: no floor under the walker", 100*floor)
	}
}

// Dense hair drawn by its vertex shader (scene.NewDenseHairMesh) looks as
// the same render strands computed on the CPU (NewDenseHairMeshCPU): the
// two captures match but for a few edge pixels, and both show hair.
func TestDenseHairGPUMatchesCPU(t *testing.T) {
	args := append(hairFront, "-hair-strands", "600", "-hair-dense", "6", "-frames", "40")
	gpu := runDemo(t, args...)
	cpu := runDemo(t, append(args, "-hair-dense-cpu")...)
	b := gpu.Bounds()
	var sum float64
	n, off := 0, 0
	for y := b.Min.Y + b.Dy()/4; y < b.Max.Y; y++ { // below the HUD
		for x := b.Min.X; x < b.Max.X; x++ {
			r1, g1, b1, _ := gpu.At(x, y).RGBA()
			r2, g2, b2, _ := cpu.At(x, y).RGBA()
			d := absDiff(r1, r2) + absDiff(g1, g2) + absDiff(b1, b2)
			sum += float64(d)
			if d > 30 {
				off++
			}
			n++
		}
	}
	hg, _, _ := hairCount(gpu, b)
	hc, _, _ := hairCount(cpu, b)
	t.Logf("mean difference %.3f per pixel, %d of %d pixels differ by more than 30; hair pixels %d (GPU), %d (CPU)", sum/float64(n), off, n, hg, hc)
	if hc < 5000 {
		t.Fatalf("the CPU capture shows %d hair pixels: the comparison would prove nothing", hc)
	}
	// Measured: 0.086 and 806 pixels (0.12%), edges of ribbons where float
	// rounding differs; a shader with two guide weights swapped gave 0.72
	// and 3,856 (0.56%).
	if sum/float64(n) > 0.3 || off > n/400 || absDiff(uint32(hg)<<8, uint32(hc)<<8) > hc/50 {
		t.Errorf("GPU and CPU dense hair differ: mean %.3f per pixel, %d pixels off, %d and %d hair pixels", sum/float64(n), off, hg, hc)
	}
}

// absDiff is |a-b| of two 16-bit color channels, in 8-bit steps.
func absDiff(a, b uint32) int {
	d := int(a>>8) - int(b>>8)
	if d < 0 {
		return -d
	}
	return d
}
