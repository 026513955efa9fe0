package main

import (
	"image"
	"image/color"
	"math"
)

func init() {
	register("checker", func() image.Image {
		return checker(256, 8, color.RGBA{220, 220, 225, 255}, color.RGBA{90, 110, 150, 255})
	})
	register("floor", func() image.Image {
		return checker(512, 16, color.RGBA{150, 150, 145, 255}, color.RGBA{120, 122, 118, 255})
	})
}

// checker draws an n x n image of cells x cells squares with a soft edge.
func checker(n, cells int, a, b color.RGBA) image.Image {
	img := image.NewRGBA(image.Rect(0, 0, n, n))
	cell := n / cells
	for y := 0; y < n; y++ {
		for x := 0; x < n; x++ {
			c := a
			if (x/cell+y/cell)%2 == 1 {
				c = b
			}
			// A faint grain so lighting reads on large flat areas.
			g := float64(int(math.Sin(float64(x)*0.9)*3 + math.Cos(float64(y)*1.3)*3))
			img.SetRGBA(x, y, shade(c, g))
		}
	}
	return img
}

func shade(c color.RGBA, d float64) color.RGBA {
	cl := func(v float64) uint8 { return uint8(math.Max(0, math.Min(255, v))) }
	return color.RGBA{cl(float64(c.R) + d), cl(float64(c.G) + d), cl(float64(c.B) + d), c.A}
}
