package main

import (
	"image"
	"image/color"
	"math"
)

func init() {
	register("cape", capeTexture)
}

// capeTexture draws a woven crimson cloth with a gold border along the hem
// and sides and a diamond emblem, so the cape's motion and both of its
// sides read clearly. Row 0 of the image is the top edge of the cape.
func capeTexture() image.Image {
	const n = 512
	img := image.NewRGBA(image.Rect(0, 0, n, n))
	base := color.RGBA{190, 28, 38, 255}
	gold := color.RGBA{214, 170, 60, 255}
	for y := 0; y < n; y++ {
		for x := 0; x < n; x++ {
			c := base
			// Weave: a fine twill of alternating threads.
			w := math.Sin(float64(x+y)*0.9)*6 + math.Sin(float64(x-y)*0.45)*4
			// Border along the sides and the hem, with a thin inner line.
			d := min(x, n-1-x, n-1-y)
			if d < 22 || (d >= 30 && d < 36) {
				c = gold
			}
			// Diamond emblem in the upper middle.
			dx, dy := math.Abs(float64(x-n/2)), math.Abs(float64(y-n*2/5))
			if r := dx + dy; r < 70 && r > 52 || r < 30 {
				c = gold
			}
			img.SetRGBA(x, y, shade(c, w))
		}
	}
	return img
}
