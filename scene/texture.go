package scene

import (
	"image"
	"image/draw"

	"github.com/g3n/engine/gls"
	"github.com/g3n/engine/texture"
)

// TextureFromImage makes a g3n texture from any image (a PNG you decoded,
// a generated pattern), repeating in both directions, for NewClothMesh and
// NewCubesView. It must run on the thread that owns the GL context, after
// the window is open.
func TextureFromImage(img image.Image) *texture.Texture2D {
	rgba, ok := img.(*image.RGBA)
	if !ok || rgba.Rect.Min != (image.Point{}) {
		b := img.Bounds()
		rgba = image.NewRGBA(image.Rect(0, 0, b.Dx(), b.Dy()))
		draw.Draw(rgba, rgba.Rect, img, b.Min, draw.Src)
	}
	t := texture.NewTexture2DFromRGBA(rgba)
	t.SetWrapS(gls.REPEAT)
	t.SetWrapT(gls.REPEAT)
	return t
}
