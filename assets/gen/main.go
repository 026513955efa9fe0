// Command gen writes drape's textures into assets/textures. Each component
// registers its generators from its own file in this folder; run it from the
// module root:
//
//	go run ./assets/gen
package main

import (
	"flag"
	"fmt"
	"image"
	"image/png"
	"log"
	"os"
	"path/filepath"
	"sort"
)

// generators maps a texture name to the function that draws it.
var generators = map[string]func() image.Image{}

func register(name string, f func() image.Image) {
	if _, dup := generators[name]; dup {
		panic("gen: texture " + name + " registered twice")
	}
	generators[name] = f
}

func main() {
	out := flag.String("out", "assets/textures", "folder to write PNGs into")
	flag.Parse()
	names := make([]string, 0, len(generators))
	for n := range generators {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		if err := write(filepath.Join(*out, n+".png"), generators[n]()); err != nil {
			log.Fatal(err)
		}
		fmt.Println("wrote", n)
	}
}

func write(path string, img image.Image) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	enc := png.Encoder{CompressionLevel: png.BestCompression}
	if err := enc.Encode(f, img); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
