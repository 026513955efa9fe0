package main

import (
	"image"
	"image/color"
	"math"
)

func init() {
	register("hair_head", hairHeadTexture)
	register("hair_skin", hairSkinTexture)
}

// hairHeadTexture draws a simple face for the hair demo's head sphere, so
// its orientation reads at a glance: eyes, brows, nose shading, mouth and
// ears on skin, and a dark scalp where the hair grows. It is laid out for
// g3n's geometry.NewSphere: u runs around the head from -X through +Z (the
// face, u = 0.25) and +X, and g3n flips textures vertically, so the last
// row is the crown and row 0 the bottom of the head. The scalp
// matches hair.DefaultSettings' cap (tilt 0.55 rad back, half-angle 1.6
// rad), so gaps between strands show hair color rather than skin.
func hairHeadTexture() image.Image {
	const w, h = 1024, 512
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	skin := [3]float64{226, 182, 150}
	scalp := [3]float64{62, 36, 20}
	capAxis := [3]float64{0, math.Cos(0.55), -math.Sin(0.55)}
	for y := 0; y < h; y++ {
		theta := (float64(h-y) - 0.5) / h * math.Pi
		for x := 0; x < w; x++ {
			phi := (float64(x) + 0.5) / w * 2 * math.Pi
			n := [3]float64{-math.Cos(phi) * math.Sin(theta), math.Cos(theta), math.Sin(phi) * math.Sin(theta)}
			// Face coordinates: azimuth from the front (+ toward +X) and
			// elevation above the equator, radians.
			az := math.Atan2(n[0], n[2])
			el := math.Asin(n[1])
			c := skin
			// Soft shading toward the back and the crown, and rosy cheeks.
			c = hairMix(c, [3]float64{205, 160, 130}, 0.3*hairSmooth(0.2, 1.2, math.Abs(az)))
			c = hairMix(c, [3]float64{232, 150, 135}, 0.35*hairBlob(az, el, 0.42, -0.22, 0.16, 0.12))
			c = hairMix(c, [3]float64{232, 150, 135}, 0.35*hairBlob(az, el, -0.42, -0.22, 0.16, 0.12))
			// Nose: a shaded ridge down the middle with darker nostrils.
			c = hairMix(c, [3]float64{196, 148, 118}, 0.5*hairBlob(az, el, 0.07, -0.12, 0.03, 0.16))
			c = hairMix(c, [3]float64{120, 80, 62}, 0.8*hairBlob(az, el, 0.05, -0.3, 0.025, 0.02))
			c = hairMix(c, [3]float64{120, 80, 62}, 0.8*hairBlob(az, el, -0.05, -0.3, 0.025, 0.02))
			// Mouth.
			if m := hairBlob(az, el+0.02*math.Cos(az*8), 0, -0.5, 0.2, 0.035); m > 0 {
				c = hairMix(c, [3]float64{170, 60, 62}, m)
			}
			// Ears at the sides.
			for _, s := range []float64{1, -1} {
				c = hairMix(c, [3]float64{206, 150, 122}, hairBlob(az, el, s*math.Pi/2, -0.05, 0.12, 0.22))
				c = hairMix(c, [3]float64{170, 115, 95}, hairBlob(az, el, s*math.Pi/2, -0.05, 0.06, 0.13))
			}
			// Eyes: white, blue-gray iris, pupil, with a brow above.
			for _, s := range []float64{1, -1} {
				ax, ay := s*0.36, 0.02
				if e := hairBlob(az, el, ax, ay, 0.13, 0.065); e > 0 {
					c = hairMix(c, [3]float64{245, 245, 240}, e)
					c = hairMix(c, [3]float64{70, 100, 120}, hairBlob(az, el, ax, ay, 0.06, 0.06))
					c = hairMix(c, [3]float64{15, 15, 20}, hairBlob(az, el, ax, ay, 0.028, 0.028))
				}
				brow := el - 0.17 - 0.03*math.Cos((az-ax)*9)
				c = hairMix(c, [3]float64{70, 44, 28}, hairBlob(az, brow, ax, 0, 0.15, 0.025))
			}
			// Scalp: hair color inside the cap, with a streaked edge.
			ang := math.Acos(n[0]*capAxis[0] + n[1]*capAxis[1] + n[2]*capAxis[2])
			streak := 0.03 * math.Sin(phi*90+math.Sin(theta*40))
			if k := hairSmooth(1.62, 1.52, ang+streak); k > 0 {
				g := 1 + 0.12*math.Sin(phi*220+theta*30)*math.Sin(theta*70)
				c = hairMix(c, [3]float64{scalp[0] * g, scalp[1] * g, scalp[2] * g}, k)
			}
			img.SetRGBA(x, y, hairRGB(c))
		}
	}
	return img
}

// hairSkinTexture is a plain skin tone with a faint grain for the neck and
// shoulders.
func hairSkinTexture() image.Image {
	const n = 128
	img := image.NewRGBA(image.Rect(0, 0, n, n))
	for y := 0; y < n; y++ {
		for x := 0; x < n; x++ {
			g := 4 * math.Sin(float64(x)*0.7+math.Sin(float64(y)*0.3)*3) * math.Cos(float64(y)*0.5)
			img.SetRGBA(x, y, hairRGB([3]float64{214 + g, 170 + g, 140 + g}))
		}
	}
	return img
}

// hairBlob is 1 inside an ellipse centered at (cx, cy) with radii (rx, ry),
// falling smoothly to 0 at its edge.
func hairBlob(x, y, cx, cy, rx, ry float64) float64 {
	dx, dy := (x-cx)/rx, (y-cy)/ry
	return hairSmooth(1, 0.7, dx*dx+dy*dy)
}

// hairSmooth is the smoothstep from a to b (either order).
func hairSmooth(a, b, x float64) float64 {
	t := math.Max(0, math.Min(1, (x-a)/(b-a)))
	return t * t * (3 - 2*t)
}

func hairMix(a, b [3]float64, t float64) [3]float64 {
	return [3]float64{a[0] + (b[0]-a[0])*t, a[1] + (b[1]-a[1])*t, a[2] + (b[2]-a[2])*t}
}

func hairRGB(c [3]float64) color.RGBA {
	cl := func(v float64) uint8 { return uint8(math.Max(0, math.Min(255, v))) }
	return color.RGBA{cl(c[0]), cl(c[1]), cl(c[2]), 255}
}
