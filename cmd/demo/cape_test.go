package main

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"image"
	"math"
	"os"
	"path/filepath"
	"testing"
)

// capePixels counts the cape's crimson cloth in r, the bright (lit) part
// of it, and the number of distinct shades of red it shows.
func capePixels(img image.Image, r image.Rectangle) (crimson, lit, shades int) {
	isCrimson := func(R, G, B uint8) bool { return R > 50 && int(R) > 2*int(G)+10 && int(R) > 2*int(B)+5 }
	levels := map[uint8]bool{}
	crimson = countPixels(img, r, func(R, G, B uint8) bool {
		if isCrimson(R, G, B) {
			levels[R>>2] = true
			return true
		}
		return false
	})
	// Lit: well above what ambient light alone gives (R < 90).
	lit = countPixels(img, r, func(R, G, B uint8) bool { return R >= 135 && isCrimson(R, G, B) })
	return crimson, lit, len(levels)
}

// The cape scene from behind mid-walk: the red cape covers a good part of
// the figure's back, shows shades of light (lit, not flat) and the frame is
// not blank.
func TestCapeSceneBehind(t *testing.T) {
	img := runDemo(t, "-scene", "cape", "-cape-view", "behind", "-frames", "120")
	b := img.Bounds()
	center := image.Rect(b.Dx()/2-250, b.Dy()/2-250, b.Dx()/2+250, b.Dy()/2+250)
	crimson, lit, shades := capePixels(img, center)
	t.Logf("crimson %d, lit %d pixels, %d shades of red; %d colors", crimson, lit, shades, distinctColors(img))
	if crimson < 6000 {
		t.Errorf("cape: %d crimson pixels in the middle of the frame, want > 6000", crimson)
	}
	// Lit: most of the cloth is bright (an unlit or black-textured cape is
	// dark), and folds and the weave give it many shades (not flat).
	if lit < crimson/3 || shades < 6 {
		t.Errorf("cape looks unlit or flat: %d of %d crimson pixels bright, %d shades; want a third bright and >= 6 shades (ambient alone gives R < 90; the weave alone 3 shades)", lit, crimson, shades)
	}
	if n := distinctColors(img); n < 40 {
		t.Errorf("%d distinct colors: the frame looks flat", n)
	}
}

// From the side at a run the cape still shows: it streams behind the body,
// it does not vanish inside it.
func TestCapeSceneSideRun(t *testing.T) {
	img := runDemo(t, "-scene", "cape", "-cape-view", "side", "-cape-gait", "run", "-frames", "150")
	b := img.Bounds()
	crimson, _, _ := capePixels(img, image.Rect(0, 100, b.Dx(), b.Dy()))
	t.Logf("crimson %d pixels", crimson)
	if crimson < 1500 {
		t.Errorf("cape from the side at a run: %d crimson pixels, want > 1500", crimson)
	}
}

// writeSkinnedGLTF writes a minimal skinned, animated glTF character: a
// torso box skinned to a Hips-Spine-Neck chain with two shoulder bones,
// whose hips walk forward. It stands in for a user's model file.
func writeSkinnedGLTF(t *testing.T) string {
	t.Helper()
	var buf bytes.Buffer
	put := func(vs ...float32) {
		for _, v := range vs {
			binary.Write(&buf, binary.LittleEndian, v)
		}
	}
	// Box 0.36 x 0.6 x 0.24 around the spine, from y 1.0 to 1.6.
	x, z := float32(0.18), float32(0.12)
	corners := [][3]float32{{-x, 1.0, -z}, {x, 1.0, -z}, {x, 1.6, -z}, {-x, 1.6, -z}, {-x, 1.0, z}, {x, 1.0, z}, {x, 1.6, z}, {-x, 1.6, z}}
	for _, c := range corners { // POSITION, offset 0
		put(c[0], c[1], c[2])
	}
	for _, c := range corners { // NORMAL, offset 96
		n := [3]float32{c[0] / x, 0, c[2] / z}
		l := float32(math.Sqrt(float64(n[0]*n[0] + n[2]*n[2])))
		put(n[0]/l, 0, n[2]/l)
	}
	for range corners { // JOINTS_0 as unsigned bytes (all on Spine), offset 192
		buf.Write([]byte{1, 0, 0, 0})
	}
	for range corners { // WEIGHTS_0, offset 224
		put(1, 0, 0, 0)
	}
	idx := []uint16{0, 2, 1, 0, 3, 2, 4, 5, 6, 4, 6, 7, 0, 4, 7, 0, 7, 3, 1, 2, 6, 1, 6, 5, 3, 7, 6, 3, 6, 2, 0, 1, 5, 0, 5, 4}
	for _, i := range idx { // indices, offset 352
		binary.Write(&buf, binary.LittleEndian, i)
	}
	// Inverse bind matrices (offset 424): translations by minus each
	// bone's world position.
	bonesY := []float32{1.0, 1.15, 1.5, 1.45, 1.45}
	bonesX := []float32{0, 0, 0, 0.15, -0.15}
	for i := range bonesY {
		put(1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, -bonesX[i], -bonesY[i], 0, 1)
	}
	// Animation (offset 744): times, then hips translations.
	put(0, 1, 2)
	put(0, 1, 0, 0, 1.02, 1.2, 0, 1, 2.4)
	data := base64.StdEncoding.EncodeToString(buf.Bytes())
	doc := fmt.Sprintf(`{
 "asset": {"version": "2.0"},
 "scene": 0,
 "scenes": [{"nodes": [0, 1]}],
 "nodes": [
  {"name": "Hips", "translation": [0, 1, 0], "children": [2]},
  {"name": "Body", "mesh": 0, "skin": 0},
  {"name": "Spine", "translation": [0, 0.15, 0], "children": [3, 4, 5]},
  {"name": "Neck", "translation": [0, 0.35, 0]},
  {"name": "LeftShoulder", "translation": [0.15, 0.3, 0]},
  {"name": "RightShoulder", "translation": [-0.15, 0.3, 0]}
 ],
 "meshes": [{"primitives": [{"attributes": {"POSITION": 0, "NORMAL": 1, "JOINTS_0": 2, "WEIGHTS_0": 3}, "indices": 4}]}],
 "skins": [{"inverseBindMatrices": 5, "joints": [0, 2, 3, 4, 5]}],
 "animations": [{"name": "walk", "channels": [{"sampler": 0, "target": {"node": 0, "path": "translation"}}],
   "samplers": [{"input": 6, "output": 7, "interpolation": "LINEAR"}]}],
 "buffers": [{"byteLength": %d, "uri": "data:application/octet-stream;base64,%s"}],
 "bufferViews": [
  {"buffer": 0, "byteOffset": 0, "byteLength": 96},
  {"buffer": 0, "byteOffset": 96, "byteLength": 96},
  {"buffer": 0, "byteOffset": 192, "byteLength": 32},
  {"buffer": 0, "byteOffset": 224, "byteLength": 128},
  {"buffer": 0, "byteOffset": 352, "byteLength": 72},
  {"buffer": 0, "byteOffset": 424, "byteLength": 320},
  {"buffer": 0, "byteOffset": 744, "byteLength": 12},
  {"buffer": 0, "byteOffset": 756, "byteLength": 36}
 ],
 "accessors": [
  {"bufferView": 0, "componentType": 5126, "count": 8, "type": "VEC3", "min": [-0.18, 1.0, -0.12], "max": [0.18, 1.6, 0.12]},
  {"bufferView": 1, "componentType": 5126, "count": 8, "type": "VEC3"},
  {"bufferView": 2, "componentType": 5121, "count": 8, "type": "VEC4"},
  {"bufferView": 3, "componentType": 5126, "count": 8, "type": "VEC4"},
  {"bufferView": 4, "componentType": 5123, "count": 36, "type": "SCALAR"},
  {"bufferView": 5, "componentType": 5126, "count": 5, "type": "MAT4"},
  {"bufferView": 6, "componentType": 5126, "count": 3, "type": "SCALAR", "min": [0], "max": [2]},
  {"bufferView": 7, "componentType": 5126, "count": 3, "type": "VEC3"}
 ]
}`, buf.Len(), data)
	path := filepath.Join(t.TempDir(), "character.gltf")
	if err := os.WriteFile(path, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// A user's glTF character: the cape is pinned to named bones of its skin
// and hangs visibly behind it.
func TestCapeSceneGLTF(t *testing.T) {
	file := writeSkinnedGLTF(t)
	img := runDemo(t, "-scene", "cape", "-cape-gltf", file, "-cape-bones", "LeftShoulder,Neck,RightShoulder",
		"-cape-body", "Spine:0.13,Hips:0.13", "-cape-view", "behind", "-frames", "90")
	b := img.Bounds()
	crimson, lit, _ := capePixels(img, image.Rect(0, 100, b.Dx(), b.Dy()))
	t.Logf("crimson %d, lit %d pixels", crimson, lit)
	if crimson < 3000 {
		t.Errorf("cape on the glTF character: %d crimson pixels, want > 3000", crimson)
	}
}

// Switching scene frees the old scene's GPU buffers and textures; coming
// back to the cape after three other scenes still shows it textured and
// lit (a disposed g3n texture that stayed cached would draw empty).
func TestSceneSwitchBackKeepsTextures(t *testing.T) {
	script := filepath.Join(t.TempDir(), "switch.txt")
	if err := os.WriteFile(script, []byte("0.5 key 2\n1.0 key 3\n1.5 key 4\n2.0 key 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if sceneNames()[0] != "cape" {
		t.Fatalf("key 1 is %q, want cape", sceneNames()[0])
	}
	img := runDemo(t, "-scene", "cape", "-cape-view", "behind", "-frames", "240", "-script", script)
	b := img.Bounds()
	center := image.Rect(b.Dx()/2-250, b.Dy()/2-250, b.Dx()/2+250, b.Dy()/2+250)
	crimson, lit, shades := capePixels(img, center)
	t.Logf("after switching back: crimson %d, lit %d pixels, %d shades of red", crimson, lit, shades)
	if crimson < 6000 || shades < 6 {
		t.Errorf("cape after switching back: %d crimson pixels, %d shades; want > 6000 and >= 6 (textured)", crimson, shades)
	}
}
