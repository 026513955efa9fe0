package character

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzLoadGLTF hands mutated glTF/GLB files to LoadGLTF (it needs no GL:
// g3n builds nodes and geometry in memory) and plays every clip of what
// loads. Properties: no panic, an error names the file, a loaded model's
// clips pose at any clock value. Seeds: the generated rig (quirks of real
// exports: centimeter bones, KHR_materials_specular, morph weights,
// two-keyframe and CUBICSPLINE channels) and a one-triangle .gltf.
//
//	go test ./scene -run '^$' -fuzz '^FuzzLoadGLTF$' -fuzztime 5m -parallel 1
func FuzzLoadGLTF(f *testing.F) {
	dir := f.TempDir()
	for _, fx := range rigFixtures {
		data, err := os.ReadFile(writeRig(f, dir, fx))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte(`{"asset": {"version": "2.0"}, ` + tri + `,
 "buffers": [{"byteLength": 36, "uri": "data:application/octet-stream;base64,AAAAAAAAAAAAAAAAAACAPwAAAAAAAAAAAAAAAAAAgD8AAAAA"}],
 "bufferViews": [{"buffer": 0, "byteLength": 36}],
 "accessors": [{"bufferView": 0, "componentType": 5126, "count": 3, "type": "VEC3", "min": [0,0,0], "max": [1,1,0]}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		file := filepath.Join(t.TempDir(), "model.glb")
		if err := os.WriteFile(file, data, 0o644); err != nil {
			t.Fatal(err)
		}
		m, err := LoadGLTF(file, DefaultGLTFLimits())
		if err != nil {
			if !strings.Contains(err.Error(), "model.glb") {
				t.Fatalf("error %q does not name the file", err)
			}
			return
		}
		for _, c := range m.Clips {
			for _, tm := range []float64{-1, 0, c.Duration / 3, c.Duration, c.Duration + 1, 1e9, math.NaN()} {
				c.Pose(tm)
			}
		}
	})
}
