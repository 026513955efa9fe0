package character

import (
	"encoding/binary"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// glb assembles a GLB from a JSON text and an optional BIN chunk, with the
// chunk lengths given (a hostile file lies about them).
func glb(jsonText string, jsonLen uint32, bin []byte, binLen uint32) []byte {
	for len(jsonText)%4 != 0 {
		jsonText += " "
	}
	var b []byte
	b = binary.LittleEndian.AppendUint32(b, glbMagic)
	b = binary.LittleEndian.AppendUint32(b, 2)
	total := 12 + 8 + len(jsonText)
	if bin != nil {
		total += 8 + len(bin)
	}
	b = binary.LittleEndian.AppendUint32(b, uint32(total))
	b = binary.LittleEndian.AppendUint32(b, jsonLen)
	b = binary.LittleEndian.AppendUint32(b, 0x4E4F534A)
	b = append(b, jsonText...)
	if bin != nil {
		b = binary.LittleEndian.AppendUint32(b, binLen)
		b = binary.LittleEndian.AppendUint32(b, 0x004E4942)
		b = append(b, bin...)
	}
	return b
}

// loadBounded loads file and checks that it neither panics nor allocates
// more than limit bytes.
func loadBounded(t *testing.T, file string, limit uint64) error {
	t.Helper()
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	var err error
	func() {
		defer func() {
			if r := recover(); r != nil {
				t.Fatalf("LoadGLTF(%s) panicked: %v", filepath.Base(file), r)
			}
		}()
		_, err = LoadGLTF(file, DefaultGLTFLimits())
	}()
	runtime.ReadMemStats(&after)
	d := after.TotalAlloc - before.TotalAlloc
	t.Logf("%s: %d KiB allocated", filepath.Base(file), d>>10)
	if d > limit {
		t.Errorf("LoadGLTF(%s) allocated %d bytes, want under %d", filepath.Base(file), d, limit)
	}
	return err
}

const tri = `"meshes": [{"primitives": [{"attributes": {"POSITION": 0}}]}],
 "nodes": [{"mesh": 0}], "scenes": [{"nodes": [0]}], "scene": 0`

func TestGLTFHostile(t *testing.T) {
	top := t.TempDir()
	dir := filepath.Join(top, "model")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	// A secret outside the model's folder, and a link to it inside.
	secret := filepath.Join(top, "secret.bin")
	if err := os.WriteFile(secret, make([]byte, 36), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(secret, filepath.Join(dir, "link.bin")); err != nil {
		t.Fatal(err)
	}
	gltfWith := func(uri string) string {
		return fmt.Sprintf(`{"asset": {"version": "2.0"}, %s,
 "buffers": [{"byteLength": 36, "uri": %q}],
 "bufferViews": [{"buffer": 0, "byteLength": 36}],
 "accessors": [{"bufferView": 0, "componentType": 5126, "count": 3, "type": "VEC3"}]}`, tri, uri)
	}
	accessor := func(count string) string {
		return fmt.Sprintf(`{"asset": {"version": "2.0"}, %s,
 "buffers": [{"byteLength": 36}],
 "bufferViews": [{"buffer": 0, "byteLength": 36}],
 "accessors": [{"bufferView": 0, "componentType": 5126, "count": %s, "type": "VEC3"}]}`, tri, count)
	}
	bin36 := make([]byte, 36)
	for _, c := range []struct {
		name string
		data []byte
		want string // in the error
	}{
		{"dotdot.gltf", []byte(gltfWith("../secret.bin")), "leaves the model's folder"},
		{"dotdot_escaped.gltf", []byte(gltfWith("%2e%2e/secret.bin")), "leaves the model's folder"},
		{"dotdot_inner.gltf", []byte(gltfWith("sub/../../secret.bin")), "leaves the model's folder"},
		{"absolute.gltf", []byte(gltfWith(secret)), "leaves the model's folder"},
		{"etc_passwd.gltf", []byte(gltfWith("/etc/passwd")), "leaves the model's folder"},
		{"file_scheme.gltf", []byte(gltfWith("file:///etc/passwd")), "only data: URIs"},
		{"backslash.gltf", []byte(gltfWith(`..\secret.bin`)), "leaves the model's folder"},
		{"symlink_out.gltf", []byte(gltfWith("link.bin")), "buffers[0]"},
		{"missing.gltf", []byte(gltfWith("nothing.bin")), "buffers[0]"},
		{"json_chunk_4GB.glb", glb(accessor("3"), 0xFFFFFFF0, bin36, 36), "GLB chunk 0 length = 4294967280"},
		{"bin_chunk_4GB.glb", glb(accessor("3"), uint32(len(accessor("3"))+3)&^3, bin36, 0xFFFFFFF0), "GLB chunk 1 length = 4294967280"},
		{"accessor_2e9.glb", glb(accessor("2000000000"), uint32(len(accessor("2000000000"))+3)&^3, bin36, 36), "accessors[0].count = 2000000000"},
		{"accessor_negative.glb", glb(accessor("-5"), uint32(len(accessor("-5"))+3)&^3, bin36, 36), "accessors[0].count = -5"},
		{"buffer_4GB.glb", glb(strings.Replace(accessor("3"), `"byteLength": 36}]`, `"byteLength": 4294967295}]`, 1), uint32(len(strings.Replace(accessor("3"), `"byteLength": 36}]`, `"byteLength": 4294967295}]`, 1))+3)&^3, bin36, 36), "buffers[0].byteLength = 4294967295"},
		{"garbage.gltf", []byte("\x00\x01 not json at all"), "neither a GLB"},
		{"garbage_json.gltf", []byte(`{"asset": {"version": "2.0"}, "nodes": [{"children": "x"}]`), "JSON"},
		{"truncated_json.gltf", []byte(`{"asset": {"version": "2.0"}, "nodes": [`), "JSON"},
		{"deep.gltf", []byte(`{"extras": ` + strings.Repeat("[", 100000) + strings.Repeat("]", 100000) + `}`), "JSON"},
		{"cycle.gltf", []byte(`{"asset": {"version": "2.0"}, "nodes": [{"children": [1]}, {"children": [0]}], "scenes": [{"nodes": [0]}]}`), "cycle"},
		{"self_child.gltf", []byte(`{"asset": {"version": "2.0"}, "nodes": [{"children": [0]}], "scenes": [{"nodes": [0]}]}`), "already has a parent"},
		{"bad_node_index.gltf", []byte(`{"asset": {"version": "2.0"}, "nodes": [{"mesh": 7}], "scenes": [{"nodes": [0]}]}`), "nodes[0].mesh = 7"},
		{"no_scene.gltf", []byte(`{"asset": {"version": "2.0"}}`), "scenes is empty"},
		{"empty.glb", []byte("glTF"), "truncated"},
		{"draco.gltf", []byte(`{"asset": {"version": "2.0"}, "extensionsRequired": ["KHR_draco_mesh_compression"], "scenes": [{}]}`), "KHR_draco_mesh_compression"},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := filepath.Join(dir, c.name)
			if err := os.WriteFile(f, c.data, 0o644); err != nil {
				t.Fatal(err)
			}
			err := loadBounded(t, f, 32<<20)
			if err == nil {
				t.Fatalf("loaded; want an error containing %q", c.want)
			}
			if !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %q, want it to contain %q", err, c.want)
			}
			if strings.Contains(c.name, "dotdot") || strings.Contains(c.name, "absolute") || strings.Contains(c.name, "symlink") {
				// Reading the 36-byte secret would have loaded the file.
				t.Logf("refused: %v", err)
			}
		})
	}
}

// Cut files at many lengths and flip bytes: always an error or a model,
// never a panic, never unbounded memory.
func TestGLTFTruncatedAndCorrupt(t *testing.T) {
	dir := t.TempDir()
	files := []string{writeRig(t, dir, rigFixtures[0])}
	if _, err := os.Stat(robotFile); err == nil {
		files = append(files, robotFile)
	} else {
		t.Logf("%s absent: cutting the generated rig only", robotFile)
	}
	rng := rand.New(rand.NewSource(1))
	for _, src := range files {
		data, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		cut := filepath.Join(dir, "cut.glb")
		for _, n := range []int{0, 1, 4, 11, 12, 19, 20, 21, 64, len(data) / 3, len(data) / 2, len(data) - 100, len(data) - 1} {
			if n < 0 || n >= len(data) {
				continue
			}
			if err := os.WriteFile(cut, data[:n], 0o644); err != nil {
				t.Fatal(err)
			}
			if err := loadBounded(t, cut, 64<<20+4*uint64(len(data))); err == nil {
				t.Errorf("%s cut to %d of %d bytes loaded without an error", filepath.Base(src), n, len(data))
			}
		}
		// Flipped bytes in the JSON chunk: any outcome but a panic.
		jsonLen := int(binary.LittleEndian.Uint32(data[12:]))
		for i := 0; i < 60; i++ {
			bad := append([]byte(nil), data...)
			for k := 0; k < 3; k++ {
				bad[20+rng.Intn(jsonLen)] = "0123456789-[]{},:\"e."[rng.Intn(20)]
			}
			if err := os.WriteFile(cut, bad, 0o644); err != nil {
				t.Fatal(err)
			}
			loadBounded(t, cut, 64<<20+4*uint64(len(data)))
		}
	}
}
