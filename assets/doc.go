// Package assets holds drape's generated textures, embedded with go:embed.
//
// Every PNG under textures/ is made by the generator in assets/gen from code
// in this repository (no third-party images); run `go run ./assets/gen` from
// the module root to rewrite them. Subpackages hold the procedural animated
// character used by the demo.
package assets
