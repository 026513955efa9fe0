package main

import (
	"image"
	"image/color"
	"math"
)

// Cloth textures: a woven check for tablecloths and capes, and a flag.
func init() {
	register("fabric_check", func() image.Image { return wovenCheck(256, 4) })
	register("flag", func() image.Image { return flagImage(512, 320) })
}

// wovenCheck draws a tileable gingham: n x n pixels, checks cells across,
// with visible over-under threads so light reads as fabric.
func wovenCheck(n, checks int) image.Image {
	img := image.NewRGBA(image.Rect(0, 0, n, n))
	cell := n / checks
	base := [3]float64{236, 232, 222} // undyed cotton
	dye := [3]float64{176, 36, 44}    // madder red
	const threadsPerCell = 16
	thread := float64(cell) / threadsPerCell
	for y := 0; y < n; y++ {
		for x := 0; x < n; x++ {
			// Warp (vertical threads) dyed in alternate columns, weft
			// (horizontal threads) in alternate rows; where both are dyed the
			// color is full, where one is, half: the gingham look.
			warpDyed := (x/cell)%2 == 0
			weftDyed := (y/cell)%2 == 0
			// Plain weave: which thread is on top alternates every thread.
			tx, ty := int(float64(x)/thread), int(float64(y)/thread)
			warpOnTop := (tx+ty)%2 == 0
			dyed := weftDyed
			if warpOnTop {
				dyed = warpDyed
			}
			var c [3]float64
			for k := range c {
				if dyed {
					c[k] = dye[k]
				} else {
					c[k] = base[k]
				}
			}
			// Each visible thread is rounded: darker at its edges.
			across := math.Mod(float64(x), thread) / thread
			if warpOnTop {
				across = math.Mod(float64(y), thread) / thread
			}
			shadeK := 0.82 + 0.18*math.Sin(math.Pi*across)
			img.SetRGBA(x, y, color.RGBA{
				uint8(c[0] * shadeK), uint8(c[1] * shadeK), uint8(c[2] * shadeK), 255,
			})
		}
	}
	return img
}

// flagImage draws a made-up banner: three horizontal bands (teal, cream, teal)
// with a golden eight-pointed star in the middle and a hoist stripe, plus
// a faint fabric grain.
func flagImage(w, h int) image.Image {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	teal := color.RGBA{18, 96, 120, 255}
	cream := color.RGBA{240, 232, 205, 255}
	gold := color.RGBA{226, 168, 38, 255}
	navy := color.RGBA{28, 36, 72, 255}
	cx, cy := float64(w)*0.55, float64(h)/2
	ro, ri := float64(h)*0.3, float64(h)*0.14
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			c := cream
			if y < h/3 || y >= 2*h/3 {
				c = teal
			}
			if x < w/8 {
				c = navy
			}
			// Star: radius between ri and ro varying with 8 points.
			dx, dy := float64(x)-cx, float64(y)-cy
			r := math.Hypot(dx, dy)
			a := math.Atan2(dy, dx)
			tip := math.Abs(math.Mod(a*8/(2*math.Pi)+8.5, 1)-0.5) * 2 // 1 at tips
			if r < ri+(ro-ri)*tip*tip {
				c = gold
			}
			g := math.Sin(float64(x)*1.7)*2 + math.Sin(float64(y)*1.3)*2
			img.SetRGBA(x, y, shade(c, g))
		}
	}
	return img
}
