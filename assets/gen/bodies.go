package main

import (
	"image"
	"image/color"
	"math"
)

func init() {
	register("crate", crate)
}

// crate draws a wooden crate face: horizontal planks with grain and dark
// seams inside a frame of darker boards, with a nail at each frame corner.
func crate() image.Image {
	const n = 256
	const frame = 28 // frame board width, px
	img := image.NewRGBA(image.Rect(0, 0, n, n))
	light := [3]float64{196, 150, 94}
	dark := [3]float64{150, 104, 60}
	for y := 0; y < n; y++ {
		for x := 0; x < n; x++ {
			fx, fy := float64(x), float64(y)
			inFrame := x < frame || x >= n-frame || y < frame || y >= n-frame
			base := light
			// Grain runs along the board: across for the planks and the
			// top and bottom boards, down for the side boards.
			along, across := fx, fy
			plank := 0
			if inFrame {
				base = dark
				if (x < frame || x >= n-frame) && y >= frame && y < n-frame {
					along, across = fy, fx
				}
			} else {
				plank = (y - frame) / ((n - 2*frame) / 4)
				// Planks differ a little in tone.
				base[0] += float64(plank%2)*10 - 5
				base[1] += float64(plank%3)*6 - 6
			}
			g := 0.55*math.Sin(across*0.9+3*math.Sin(along*0.021+float64(plank)))*
				math.Sin(along*0.013+across*0.05) +
				0.3*math.Sin(across*2.3+along*0.04+float64(plank)*1.7) +
				0.15*math.Sin(along*0.37+across*0.11)
			shade := 1 + 0.09*g
			// Seams between planks and around the frame.
			seam := 1.0
			if !inFrame {
				py := (y - frame) % ((n - 2*frame) / 4)
				if py < 2 {
					seam = 0.55
				}
			}
			if d := min(crateAbs(x-frame), crateAbs(x-(n-frame)), crateAbs(y-frame), crateAbs(y-(n-frame))); d < 2 {
				seam = 0.5
			}
			if x < 2 || y < 2 || x >= n-2 || y >= n-2 {
				seam = 0.45
			}
			// Nails in the frame corners.
			for _, c := range [][2]float64{{14, 14}, {n - 14, 14}, {14, n - 14}, {n - 14, n - 14}} {
				if r := math.Hypot(fx-c[0], fy-c[1]); r < 4 {
					seam = 0.35 + 0.5*(1-r/4)
				}
			}
			k := shade * seam
			img.SetRGBA(x, y, color.RGBA{crateClamp(base[0] * k), crateClamp(base[1] * k), crateClamp(base[2] * k), 255})
		}
	}
	return img
}

func crateAbs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

func crateClamp(v float64) uint8 { return uint8(math.Max(0, math.Min(255, v))) }
