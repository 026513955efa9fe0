package assets

import (
	"bytes"
	"embed"
	"fmt"
	"image"
	"image/png"
	"io/fs"
	"sort"
	"strings"
)

//go:embed textures/*.png
var textures embed.FS

// TextureNames lists the embedded textures by name (file name without .png).
func TextureNames() []string {
	ents, _ := fs.ReadDir(textures, "textures")
	var names []string
	for _, e := range ents {
		names = append(names, strings.TrimSuffix(e.Name(), ".png"))
	}
	sort.Strings(names)
	return names
}

// TexturePNG returns the PNG bytes of the named texture, for example
// "checker".
func TexturePNG(name string) ([]byte, error) {
	b, err := textures.ReadFile("textures/" + name + ".png")
	if err != nil {
		return nil, fmt.Errorf("assets: no texture %q (have %v)", name, TextureNames())
	}
	return b, nil
}

// Texture returns the named texture decoded.
func Texture(name string) (image.Image, error) {
	b, err := TexturePNG(name)
	if err != nil {
		return nil, err
	}
	return png.Decode(bytes.NewReader(b))
}
