package character

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"

	"fmt"
	"image"
	_ "image/jpeg" // glTF textures are PNG or JPEG
	_ "image/png"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/drape3d/drape/internal/errctx"
	"github.com/g3n/engine/core"
	"github.com/g3n/engine/graphic"
	g3ngltf "github.com/g3n/engine/loader/gltf"
	"github.com/qmuntal/gltf"
	"github.com/qmuntal/gltf/modeler"
)

// GLTFLimits bound what LoadGLTF reads. Every size is checked against them
// (and against the bytes actually present) before anything is allocated.
type GLTFLimits struct {
	// MaxFileBytes bounds the .gltf/.glb file and each external buffer or
	// image file it names.
	MaxFileBytes int64
	// MaxTotalBytes bounds all buffers, images and expanded accessors
	// together.
	MaxTotalBytes int64
	// MaxImagePixels bounds width x height of any texture.
	MaxImagePixels int64
}

// DefaultGLTFLimits are generous for a game character: 256 MiB per file,
// 512 MiB in all, 8192 x 8192 textures.
func DefaultGLTFLimits() GLTFLimits {
	return GLTFLimits{MaxFileBytes: 256 << 20, MaxTotalBytes: 512 << 20, MaxImagePixels: 8192 * 8192}
}

// GLTFModel is a glTF file made safe for g3n and loaded by it: the node
// tree with meshes, materials and skins (g3n renders them), and the
// animations as drape Clips (drape samples them; g3n's player is not used).
type GLTFModel struct {
	// Root holds the file's default scene.
	Root *core.Node
	// Nodes are the g3n nodes by glTF node index; nil for nodes that are not
	// in the scene.
	Nodes []*core.Node
	// Names are the glTF node names by index.
	Names []string
	// Skins are the file's skins by index (nil for a skin no mesh of the
	// scene uses).
	Skins []*graphic.Skeleton
	// Clips are the animations, in file order.
	Clips []*Clip
	// Notes say what was changed to make the file load: dropped material
	// extensions, skipped morph-weight channels, and the like.
	Notes []string

	joints map[*core.Node]bool // every skin joint
}

// Unsupported required extensions: the geometry cannot be read without
// them, so the file is refused with a clear error.
var gltfRefused = map[string]bool{
	"KHR_draco_mesh_compression": true, "EXT_meshopt_compression": true,
	"KHR_meshopt_compression": true, "KHR_texture_basisu": true, "EXT_texture_webp": true,
	"EXT_texture_avif": true,
}

// LoadGLTF reads a .gltf or .glb file, checks it and hands a sanitized copy
// to g3n's loader:
//   - buffers and images are read only from the file's own folder (URIs with
//     "..", absolute paths and schemes other than data: are refused);
//   - every declared length and count is checked against lim and against
//     the bytes present before anything is allocated;
//   - every index (node, mesh, accessor, ...) is checked, and the node graph
//     must be a forest;
//   - material extensions g3n refuses (KHR_materials_specular, ...) are
//     dropped: the material keeps its base color and texture (a
//     specular-glossiness material keeps its diffuse color and texture);
//   - sparse accessors, accessors without a buffer view and skins without
//     inverse bind matrices are expanded; a skinned mesh of several
//     primitives is split into one skinned node per primitive;
//   - animations are sampled by drape (Clip), never by g3n: morph-target
//     "weights" channels are skipped.
//
// Errors name the file and the field at fault. LoadGLTF never panics on a
// bad file: a panic inside g3n's loader is returned as an error.
func LoadGLTF(file string, lim GLTFLimits) (*GLTFModel, error) {
	if lim.MaxFileBytes <= 0 || lim.MaxTotalBytes <= 0 || lim.MaxImagePixels <= 0 {
		return nil, fmt.Errorf("character: LoadGLTF: limits %+v, want every limit > 0 (see DefaultGLTFLimits)", lim)
	}
	abs, err := filepath.Abs(file)
	if err != nil {
		return nil, fmt.Errorf("character: LoadGLTF(%q): %w", file, err)
	}
	dir := filepath.Dir(abs)
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, fmt.Errorf("character: LoadGLTF(%q): %w", file, err)
	}
	defer root.Close()
	l := &gltfLoad{file: file, root: root, lim: lim}
	data, err := l.readFile(filepath.Base(abs), "file")
	if err != nil {
		return nil, err
	}
	jsonBytes, bin, err := l.split(data)
	if err != nil {
		return nil, err
	}
	doc := new(gltf.Document)
	if err := json.Unmarshal(jsonBytes, doc); err != nil {
		return nil, l.errf("JSON: %v", err)
	}
	if err := l.buffers(doc, bin); err != nil {
		return nil, err
	}
	if err := l.validate(doc); err != nil {
		return nil, err
	}
	m := &GLTFModel{}
	// Clips are read from the checked document before it is rewritten.
	clips, notes := readClips(doc)
	l.notes = append(l.notes, notes...)
	if err := l.sanitize(doc); err != nil {
		return nil, err
	}
	m.Names = make([]string, len(doc.Nodes))
	for i, n := range doc.Nodes {
		m.Names[i] = n.Name
	}
	if err := l.toG3N(doc, m, dir); err != nil {
		return nil, err
	}
	for _, c := range clips {
		c.bind(m.Nodes)
	}
	m.Clips = clips
	m.Notes = l.notes
	return m, nil
}

type gltfLoad struct {
	file  string
	root  *os.Root
	lim   GLTFLimits
	total int64
	notes []string
	noted map[string]bool
}

func (l *gltfLoad) errf(format string, args ...any) error {
	return fmt.Errorf("character: glTF %q: %s", l.file, fmt.Sprintf(format, args...))
}

func (l *gltfLoad) note(s string) {
	if l.noted == nil {
		l.noted = map[string]bool{}
	}
	if !l.noted[s] {
		l.noted[s] = true
		l.notes = append(l.notes, s)
	}
}

// spend accounts n more bytes against MaxTotalBytes.
func (l *gltfLoad) spend(n int64, what string) error {
	if n < 0 || n > l.lim.MaxTotalBytes-l.total {
		return l.errf("%s needs %d bytes, over the limit of %d bytes in all (GLTFLimits.MaxTotalBytes)", what, n, l.lim.MaxTotalBytes)
	}
	l.total += n
	return nil
}

// checkURI refuses URIs that could leave the model's folder.
func (l *gltfLoad) checkURI(uri, field string) (string, error) {
	if strings.Contains(uri, "\\") {
		uri = strings.ReplaceAll(uri, "\\", "/")
	}
	if i := strings.IndexByte(uri, ':'); i >= 0 && !strings.ContainsAny(uri[:i], "/") {
		return "", l.errf("%s = %q: only data: URIs and relative paths inside the model's folder are read", field, uri)
	}
	p := uri
	if strings.Contains(p, "%") {
		// Percent-encoded paths ("My%20Model.bin") are decoded first, so
		// "%2e%2e/" cannot hide a "..".
		if q, err := urlUnescape(p); err == nil {
			p = q
		} else {
			return "", l.errf("%s = %q: %v", field, uri, err)
		}
	}
	p = strings.TrimPrefix(p, "./")
	if strings.HasPrefix(p, "/") || filepath.IsAbs(p) || !fs.ValidPath(p) {
		return "", l.errf("%s = %q: the path leaves the model's folder or is not a plain relative path; only files inside the folder are read", field, uri)
	}
	return p, nil
}

func urlUnescape(s string) (string, error) {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '%' {
			b.WriteByte(s[i])
			continue
		}
		if i+2 >= len(s) {
			return "", fmt.Errorf("bad percent escape")
		}
		var v byte
		for _, c := range []byte(s[i+1 : i+3]) {
			v <<= 4
			switch {
			case c >= '0' && c <= '9':
				v |= c - '0'
			case c >= 'a' && c <= 'f':
				v |= c - 'a' + 10
			case c >= 'A' && c <= 'F':
				v |= c - 'A' + 10
			default:
				return "", fmt.Errorf("bad percent escape")
			}
		}
		b.WriteByte(v)
		i += 2
	}
	return b.String(), nil
}

// readFile reads name (relative to the model's folder) after checking its
// size against the limits.
func (l *gltfLoad) readFile(name, what string) ([]byte, error) {
	f, err := l.root.Open(name)
	if err != nil {
		return nil, l.errf("%s: %v", what, err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, l.errf("%s: %v", what, err)
	}
	if !st.Mode().IsRegular() {
		return nil, l.errf("%s %q is not a regular file", what, name)
	}
	if st.Size() > l.lim.MaxFileBytes {
		return nil, l.errf("%s %q is %d bytes, over the limit of %d (GLTFLimits.MaxFileBytes)", what, name, st.Size(), l.lim.MaxFileBytes)
	}
	if err := l.spend(st.Size(), what); err != nil {
		return nil, err
	}
	data := make([]byte, st.Size())
	if _, err := io.ReadFull(f, data); err != nil {
		return nil, l.errf("%s %q: %v", what, name, err)
	}
	return data, nil
}

const glbMagic = 0x46546C67 // "glTF"

// split returns the JSON text and, for a GLB, its BIN chunk.
func (l *gltfLoad) split(data []byte) (jsonBytes, bin []byte, err error) {
	if len(data) >= 4 && binary.LittleEndian.Uint32(data) == glbMagic {
		if len(data) < 20 {
			return nil, nil, l.errf("GLB is %d bytes, shorter than its 12-byte header and a chunk header: truncated", len(data))
		}
		if v := binary.LittleEndian.Uint32(data[4:]); v != 2 {
			return nil, nil, l.errf("GLB version = %d, want 2", v)
		}
		if n := int64(binary.LittleEndian.Uint32(data[8:])); n > int64(len(data)) {
			return nil, nil, l.errf("GLB header length = %d, but the file has %d bytes: truncated or corrupt", n, len(data))
		}
		rest := data[12:]
		var chunks [][]byte
		for len(rest) >= 8 {
			n := int64(binary.LittleEndian.Uint32(rest))
			typ := binary.LittleEndian.Uint32(rest[4:])
			if n > int64(len(rest)-8) {
				return nil, nil, l.errf("GLB chunk %d length = %d bytes, but only %d remain in the file: truncated or corrupt", len(chunks), n, len(rest)-8)
			}
			c := rest[8 : 8+n]
			switch {
			case len(chunks) == 0 && typ != 0x4E4F534A:
				return nil, nil, l.errf("GLB first chunk type = %#x, want JSON (0x4E4F534A)", typ)
			case len(chunks) == 0:
				jsonBytes = c
			case len(chunks) == 1 && typ == 0x004E4942:
				bin = c
			}
			chunks = append(chunks, c)
			rest = rest[8+n:]
		}
		if jsonBytes == nil {
			return nil, nil, l.errf("GLB has no JSON chunk: truncated")
		}
		return jsonBytes, bin, nil
	}
	t := bytes.TrimLeft(data, " \t\r\n\xef\xbb\xbf")
	if len(t) == 0 || t[0] != '{' {
		return nil, nil, l.errf("neither a GLB (no \"glTF\" magic) nor glTF JSON (no leading '{')")
	}
	return data, nil, nil
}

// buffers loads every buffer's bytes: the GLB BIN chunk, data: URIs and
// files inside the model's folder, each checked against its byteLength.
func (l *gltfLoad) buffers(doc *gltf.Document, bin []byte) error {
	for i, b := range doc.Buffers {
		field := fmt.Sprintf("buffers[%d]", i)
		if b == nil {
			return l.errf("%s is null", field)
		}
		if b.ByteLength <= 0 || int64(b.ByteLength) > l.lim.MaxFileBytes {
			return l.errf("%s.byteLength = %d, want 1 to %d (GLTFLimits.MaxFileBytes)", field, b.ByteLength, l.lim.MaxFileBytes)
		}
		var data []byte
		switch {
		case b.URI == "" && i == 0 && bin != nil:
			if len(bin) < b.ByteLength {
				return l.errf("%s.byteLength = %d, but the GLB BIN chunk has %d bytes: truncated", field, b.ByteLength, len(bin))
			}
			data = bin[:b.ByteLength:b.ByteLength]
		case b.URI == "":
			return l.errf("%s has no uri and is not the GLB BIN chunk", field)
		case strings.HasPrefix(b.URI, "data:"):
			comma := strings.IndexByte(b.URI, ',')
			if comma < 0 || !strings.HasSuffix(b.URI[:comma], ";base64") {
				return l.errf("%s.uri: a data: URI must be base64 (\"data:...;base64,\")", field)
			}
			enc := b.URI[comma+1:]
			if err := l.spend(int64(base64.StdEncoding.DecodedLen(len(enc))), field); err != nil {
				return err
			}
			d, err := base64.StdEncoding.DecodeString(enc)
			if err != nil {
				return l.errf("%s.uri: base64: %v", field, err)
			}
			data = d
		default:
			name, err := l.checkURI(b.URI, field+".uri")
			if err != nil {
				return err
			}
			if data, err = l.readFile(name, field); err != nil {
				return err
			}
		}
		if len(data) < b.ByteLength {
			return l.errf("%s.byteLength = %d, but only %d bytes are there: truncated", field, b.ByteLength, len(data))
		}
		b.Data = data[:b.ByteLength:b.ByteLength]
		b.URI = ""
	}
	return nil
}

// Number of bytes an accessor's elements take, in int64 so a hostile count
// cannot overflow.
func accessorSpan(a *gltf.Accessor, stride int) (elem, span int64) {
	elem = int64(gltf.SizeOfElement(a.ComponentType, a.Type))
	s := int64(stride)
	if s == 0 {
		s = elem
	}
	if a.Count <= 0 {
		return elem, 0
	}
	return elem, int64(a.Count-1)*s + elem
}

func validComponent(c gltf.ComponentType) bool {
	switch c {
	case gltf.ComponentByte, gltf.ComponentUbyte, gltf.ComponentShort, gltf.ComponentUshort,
		gltf.ComponentUint, gltf.ComponentFloat:
		return true
	}
	return false
}

func validType(t gltf.AccessorType) bool {
	return t >= gltf.AccessorScalar && t <= gltf.AccessorMat4
}

// validate checks every index and size the loaders follow.
func (l *gltfLoad) validate(doc *gltf.Document) error {
	in := func(i, n int) bool { return i >= 0 && i < n }
	for _, r := range doc.ExtensionsRequired {
		if gltfRefused[r] {
			return l.errf("extensionsRequired has %q: the file needs a decoder drape and g3n do not have; re-export it without that compression", r)
		}
	}
	for i, v := range doc.BufferViews {
		f := fmt.Sprintf("bufferViews[%d]", i)
		if v == nil {
			return l.errf("%s is null", f)
		}
		if !in(v.Buffer, len(doc.Buffers)) {
			return l.errf("%s.buffer = %d, have %d buffers", f, v.Buffer, len(doc.Buffers))
		}
		if v.ByteOffset < 0 || v.ByteLength <= 0 || int64(v.ByteOffset)+int64(v.ByteLength) > int64(len(doc.Buffers[v.Buffer].Data)) {
			return l.errf("%s: byteOffset %d + byteLength %d, buffer %d has %d bytes", f, v.ByteOffset, v.ByteLength, v.Buffer, len(doc.Buffers[v.Buffer].Data))
		}
		if v.ByteStride != 0 && (v.ByteStride < 4 || v.ByteStride > 252) {
			return l.errf("%s.byteStride = %d, want 4 to 252", f, v.ByteStride)
		}
	}
	for i, a := range doc.Accessors {
		f := fmt.Sprintf("accessors[%d]", i)
		if a == nil {
			return l.errf("%s is null", f)
		}
		if !validComponent(a.ComponentType) || !validType(a.Type) {
			return l.errf("%s: componentType %d, type %v: not a glTF accessor type", f, a.ComponentType, a.Type)
		}
		if a.Count <= 0 {
			return l.errf("%s.count = %d, want >= 1", f, a.Count)
		}
		if a.ByteOffset < 0 {
			return l.errf("%s.byteOffset = %d, want >= 0", f, a.ByteOffset)
		}
		if a.BufferView != nil {
			if !in(*a.BufferView, len(doc.BufferViews)) {
				return l.errf("%s.bufferView = %d, have %d", f, *a.BufferView, len(doc.BufferViews))
			}
			v := doc.BufferViews[*a.BufferView]
			elem, span := accessorSpan(a, v.ByteStride)
			if v.ByteStride != 0 && int64(v.ByteStride) < elem {
				return l.errf("%s: byteStride %d is less than the element size %d", f, v.ByteStride, elem)
			}
			if int64(a.ByteOffset)+span > int64(v.ByteLength) {
				return l.errf("%s.count = %d needs %d bytes from byteOffset %d, bufferView %d has %d", f, a.Count, span, a.ByteOffset, *a.BufferView, v.ByteLength)
			}
		} else {
			_, span := accessorSpan(a, 0)
			if err := l.spend(span, f+" (no bufferView: zeros)"); err != nil {
				return err
			}
		}
		if s := a.Sparse; s != nil {
			if s.Count <= 0 || s.Count > a.Count {
				return l.errf("%s.sparse.count = %d, want 1 to count %d", f, s.Count, a.Count)
			}
			for _, p := range []struct {
				view, off int
				c         gltf.ComponentType
				what      string
			}{{s.Indices.BufferView, s.Indices.ByteOffset, s.Indices.ComponentType, "indices"}, {s.Values.BufferView, s.Values.ByteOffset, a.ComponentType, "values"}} {
				if !in(p.view, len(doc.BufferViews)) {
					return l.errf("%s.sparse.%s.bufferView = %d, have %d", f, p.what, p.view, len(doc.BufferViews))
				}
				t := a.Type
				if p.what == "indices" {
					t = gltf.AccessorScalar
					if p.c != gltf.ComponentUbyte && p.c != gltf.ComponentUshort && p.c != gltf.ComponentUint {
						return l.errf("%s.sparse.indices.componentType = %d, want an unsigned type", f, p.c)
					}
				}
				_, span := accessorSpan(&gltf.Accessor{ComponentType: p.c, Type: t, Count: s.Count}, 0)
				if p.off < 0 || int64(p.off)+span > int64(doc.BufferViews[p.view].ByteLength) {
					return l.errf("%s.sparse.%s: %d elements from byteOffset %d overrun bufferView %d", f, p.what, s.Count, p.off, p.view)
				}
			}
		}
	}
	acc := func(i int, f string) error {
		if !in(i, len(doc.Accessors)) {
			return l.errf("%s = %d, have %d accessors", f, i, len(doc.Accessors))
		}
		return nil
	}
	for i, t := range doc.Textures {
		if t == nil {
			return l.errf("textures[%d] is null", i)
		}
		if t.Source != nil && !in(*t.Source, len(doc.Images)) {
			return l.errf("textures[%d].source = %d, have %d images", i, *t.Source, len(doc.Images))
		}
		if t.Sampler != nil && !in(*t.Sampler, len(doc.Samplers)) {
			return l.errf("textures[%d].sampler = %d, have %d samplers", i, *t.Sampler, len(doc.Samplers))
		}
	}
	for i, im := range doc.Images {
		if im == nil {
			return l.errf("images[%d] is null", i)
		}
		if im.BufferView != nil && !in(*im.BufferView, len(doc.BufferViews)) {
			return l.errf("images[%d].bufferView = %d, have %d", i, *im.BufferView, len(doc.BufferViews))
		}
		if im.BufferView == nil && im.URI == "" {
			return l.errf("images[%d] has neither uri nor bufferView", i)
		}
	}
	tex := func(ti *int, f string) error {
		if ti != nil && !in(*ti, len(doc.Textures)) {
			return l.errf("%s = %d, have %d textures", f, *ti, len(doc.Textures))
		}
		return nil
	}
	for i, m := range doc.Materials {
		f := fmt.Sprintf("materials[%d]", i)
		if m == nil {
			return l.errf("%s is null", f)
		}
		if p := m.PBRMetallicRoughness; p != nil {
			if p.BaseColorTexture != nil {
				if err := tex(&p.BaseColorTexture.Index, f+".pbrMetallicRoughness.baseColorTexture.index"); err != nil {
					return err
				}
			}
			if p.MetallicRoughnessTexture != nil {
				if err := tex(&p.MetallicRoughnessTexture.Index, f+".pbrMetallicRoughness.metallicRoughnessTexture.index"); err != nil {
					return err
				}
			}
		}
		if m.NormalTexture != nil {
			if err := tex(m.NormalTexture.Index, f+".normalTexture.index"); err != nil {
				return err
			}
		}
		if m.OcclusionTexture != nil {
			if err := tex(m.OcclusionTexture.Index, f+".occlusionTexture.index"); err != nil {
				return err
			}
		}
		if m.EmissiveTexture != nil {
			if err := tex(&m.EmissiveTexture.Index, f+".emissiveTexture.index"); err != nil {
				return err
			}
		}
	}
	for i, m := range doc.Meshes {
		if m == nil || len(m.Primitives) == 0 {
			return l.errf("meshes[%d] has no primitives", i)
		}
		for j, p := range m.Primitives {
			f := fmt.Sprintf("meshes[%d].primitives[%d]", i, j)
			if p == nil {
				return l.errf("%s is null", f)
			}
			if _, ok := p.Attributes[gltf.POSITION]; !ok {
				return l.errf("%s has no POSITION attribute", f)
			}
			for name, a := range p.Attributes {
				if err := acc(a, f+".attributes."+name); err != nil {
					return err
				}
			}
			if p.Indices != nil {
				if err := acc(*p.Indices, f+".indices"); err != nil {
					return err
				}
			}
			if p.Material != nil && !in(*p.Material, len(doc.Materials)) {
				return l.errf("%s.material = %d, have %d materials", f, *p.Material, len(doc.Materials))
			}
			for k, t := range p.Targets {
				for name, a := range t {
					if err := acc(a, fmt.Sprintf("%s.targets[%d].%s", f, k, name)); err != nil {
						return err
					}
				}
			}
		}
	}
	for i, s := range doc.Skins {
		f := fmt.Sprintf("skins[%d]", i)
		if s == nil || len(s.Joints) == 0 {
			return l.errf("%s has no joints", f)
		}
		for j, n := range s.Joints {
			if !in(n, len(doc.Nodes)) {
				return l.errf("%s.joints[%d] = %d, have %d nodes", f, j, n, len(doc.Nodes))
			}
		}
		if s.InverseBindMatrices != nil {
			if err := acc(*s.InverseBindMatrices, f+".inverseBindMatrices"); err != nil {
				return err
			}
			a := doc.Accessors[*s.InverseBindMatrices]
			if a.Type != gltf.AccessorMat4 || a.ComponentType != gltf.ComponentFloat || a.Count < len(s.Joints) {
				return l.errf("%s.inverseBindMatrices: accessor %d holds %d %v, want %d float MAT4", f, *s.InverseBindMatrices, a.Count, a.Type, len(s.Joints))
			}
		}
	}
	// Nodes: indices in range, and a forest (one parent each, no cycle), or
	// g3n's recursive loader never ends.
	parent := make([]int, len(doc.Nodes))
	for i := range parent {
		parent[i] = -1
	}
	for i, n := range doc.Nodes {
		f := fmt.Sprintf("nodes[%d]", i)
		if n == nil {
			return l.errf("%s is null", f)
		}
		if n.Mesh != nil && !in(*n.Mesh, len(doc.Meshes)) {
			return l.errf("%s.mesh = %d, have %d meshes", f, *n.Mesh, len(doc.Meshes))
		}
		if n.Skin != nil && !in(*n.Skin, len(doc.Skins)) {
			return l.errf("%s.skin = %d, have %d skins", f, *n.Skin, len(doc.Skins))
		}
		if n.Camera != nil {
			n.Camera = nil // g3n's cameras are not needed; the game has its own
		}
		for _, v := range append(append([]float64{}, n.Translation[:]...), append(n.Rotation[:], append(n.Scale[:], n.Matrix[:]...)...)...) {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return l.errf("%s has a non-finite transform", f)
			}
		}
		for _, c := range n.Children {
			if !in(c, len(doc.Nodes)) {
				return l.errf("%s.children has %d, have %d nodes", f, c, len(doc.Nodes))
			}
			if parent[c] >= 0 || c == i {
				return l.errf("%s.children has node %d, which already has a parent (%d): the node graph must be a tree", f, c, parent[c])
			}
			parent[c] = i
		}
	}
	for i := range doc.Nodes {
		// Walk up: a cycle revisits a node within len(nodes) steps.
		p, steps := i, 0
		for p >= 0 {
			p = parent[p]
			if steps++; steps > len(doc.Nodes) {
				return l.errf("nodes[%d] is in a cycle of children", i)
			}
		}
	}
	if len(doc.Scenes) == 0 {
		return l.errf("scenes is empty: nothing to show")
	}
	if doc.Scene != nil && !in(*doc.Scene, len(doc.Scenes)) {
		return l.errf("scene = %d, have %d scenes", *doc.Scene, len(doc.Scenes))
	}
	for i, s := range doc.Scenes {
		if s == nil {
			return l.errf("scenes[%d] is null", i)
		}
		for _, n := range s.Nodes {
			if !in(n, len(doc.Nodes)) {
				return l.errf("scenes[%d].nodes has %d, have %d nodes", i, n, len(doc.Nodes))
			}
		}
	}
	for i, a := range doc.Animations {
		if a == nil {
			return l.errf("animations[%d] is null", i)
		}
		for j, s := range a.Samplers {
			f := fmt.Sprintf("animations[%d].samplers[%d]", i, j)
			if s == nil {
				return l.errf("%s is null", f)
			}
			if err := acc(s.Input, f+".input"); err != nil {
				return err
			}
			if err := acc(s.Output, f+".output"); err != nil {
				return err
			}
		}
		for j, c := range a.Channels {
			f := fmt.Sprintf("animations[%d].channels[%d]", i, j)
			if c == nil {
				return l.errf("%s is null", f)
			}
			if !in(c.Sampler, len(a.Samplers)) {
				return l.errf("%s.sampler = %d, have %d samplers", f, c.Sampler, len(a.Samplers))
			}
			if c.Target.Node != nil && !in(*c.Target.Node, len(doc.Nodes)) {
				return l.errf("%s.target.node = %d, have %d nodes", f, *c.Target.Node, len(doc.Nodes))
			}
		}
	}
	return nil
}

// readAccessor reads a validated accessor; sparse indices are checked
// before they are used.
func readAccessor(doc *gltf.Document, i int) (any, error) {
	a := doc.Accessors[i]
	if s := a.Sparse; s != nil {
		idx, err := modeler.ReadIndices(doc, &gltf.Accessor{
			ComponentType: s.Indices.ComponentType, Count: s.Count, Type: gltf.AccessorScalar,
			BufferView: &s.Indices.BufferView, ByteOffset: s.Indices.ByteOffset,
		}, nil)
		if err != nil {
			return nil, err
		}
		for _, j := range idx {
			if int(j) >= a.Count {
				return nil, fmt.Errorf("accessors[%d].sparse.indices has %d, want < count %d", i, j, a.Count)
			}
		}
	}
	return modeler.ReadAccessor(doc, a, nil)
}

// sanitize rewrites the checked document into one g3n loads: one buffer,
// embedded images, no material extensions, plain accessors, one primitive
// per skinned mesh, no animations (drape plays them).
func (l *gltfLoad) sanitize(doc *gltf.Document) error {
	for _, e := range doc.ExtensionsUsed {
		if strings.HasPrefix(e, "KHR_materials_") {
			l.note("material extension " + e + " dropped: base color and texture kept")
		}
	}
	doc.ExtensionsUsed, doc.ExtensionsRequired, doc.Extensions = nil, nil, nil
	for _, m := range doc.Materials {
		if sg, ok := m.Extensions["KHR_materials_pbrSpecularGlossiness"]; ok && m.PBRMetallicRoughness == nil {
			m.PBRMetallicRoughness = specGlossBase(sg, len(doc.Textures))
		}
		for e := range m.Extensions {
			l.note("material extension " + e + " dropped: base color and texture kept")
		}
		m.Extensions = nil
	}
	// The new buffer: every old buffer, 4-byte aligned, then expanded data.
	var blob []byte
	base := make([]int, len(doc.Buffers))
	for i, b := range doc.Buffers {
		for len(blob)%4 != 0 {
			blob = append(blob, 0)
		}
		base[i] = len(blob)
		blob = append(blob, b.Data...)
	}
	for _, v := range doc.BufferViews {
		v.ByteOffset += base[v.Buffer]
		v.Buffer = 0
	}
	addView := func(data []byte) int {
		for len(blob)%4 != 0 {
			blob = append(blob, 0)
		}
		doc.BufferViews = append(doc.BufferViews, &gltf.BufferView{Buffer: 0, ByteOffset: len(blob), ByteLength: len(data)})
		blob = append(blob, data...)
		return len(doc.BufferViews) - 1
	}
	// Accessors g3n cannot read: sparse ones and those without a view.
	for i, a := range doc.Accessors {
		if a.Sparse == nil && a.BufferView != nil {
			continue
		}
		data, err := readAccessor(doc, i)
		if err != nil {
			return l.errf("accessors[%d]: %v", i, err)
		}
		var raw bytes.Buffer
		if err := binary.Write(&raw, binary.LittleEndian, data); err != nil {
			return l.errf("accessors[%d]: %v", i, err)
		}
		if err := l.spend(int64(raw.Len()), fmt.Sprintf("accessors[%d] (expanded)", i)); err != nil {
			return err
		}
		v := addView(raw.Bytes())
		a.BufferView, a.ByteOffset, a.Sparse = &v, 0, nil
	}
	// Images: embedded in the buffer, checked to be a PNG or JPEG within
	// the pixel limit (g3n decodes them whole).
	for i, im := range doc.Images {
		f := fmt.Sprintf("images[%d]", i)
		var data []byte
		switch {
		case im.BufferView != nil:
			v := doc.BufferViews[*im.BufferView]
			data = blob[v.ByteOffset : v.ByteOffset+v.ByteLength]
		case strings.HasPrefix(im.URI, "data:"):
			comma := strings.IndexByte(im.URI, ',')
			if comma < 0 || !strings.HasSuffix(im.URI[:comma], ";base64") {
				return l.errf("%s.uri: a data: URI must be base64", f)
			}
			d, err := base64.StdEncoding.DecodeString(im.URI[comma+1:])
			if err != nil {
				return l.errf("%s.uri: base64: %v", f, err)
			}
			data = d
		default:
			name, err := l.checkURI(im.URI, f+".uri")
			if err != nil {
				return err
			}
			if data, err = l.readFile(name, f); err != nil {
				return err
			}
		}
		cfg, format, err := image.DecodeConfig(bytes.NewReader(data))
		if err == nil && int64(cfg.Width)*int64(cfg.Height) > l.lim.MaxImagePixels {
			err = fmt.Errorf("%d x %d pixels, over the limit of %d (GLTFLimits.MaxImagePixels)", cfg.Width, cfg.Height, l.lim.MaxImagePixels)
		}
		if err == nil && cfg.Width*cfg.Height == 0 {
			err = fmt.Errorf("empty image")
		}
		if err != nil {
			// A texture g3n cannot decode: a white pixel keeps the material's
			// color (and the file loading).
			l.note(fmt.Sprintf("%s (%s): %v; replaced by white", f, format, err))
			data = whitePNG
		}
		if err == nil && format != "png" && format != "jpeg" {
			data = whitePNG
		}
		v := addView(data)
		im.BufferView, im.URI, im.MimeType = &v, "", ""
	}
	// Skins without inverse bind matrices: identities.
	for _, s := range doc.Skins {
		if s.InverseBindMatrices != nil {
			continue
		}
		var raw bytes.Buffer
		for range s.Joints {
			binary.Write(&raw, binary.LittleEndian, [16]float32{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1})
		}
		v := addView(raw.Bytes())
		doc.Accessors = append(doc.Accessors, &gltf.Accessor{BufferView: &v, ComponentType: gltf.ComponentFloat, Count: len(s.Joints), Type: gltf.AccessorMat4})
		ai := len(doc.Accessors) - 1
		s.InverseBindMatrices = &ai
	}
	// Primitive modes g3n does not draw are dropped; a skinned mesh of
	// several primitives becomes one skinned child node per primitive.
	for i, m := range doc.Meshes {
		var keep []*gltf.Primitive
		for _, p := range m.Primitives {
			switch p.Mode {
			case gltf.PrimitiveTriangles, gltf.PrimitiveLines, gltf.PrimitiveLineStrip, gltf.PrimitivePoints:
				keep = append(keep, p)
			default:
				l.note(fmt.Sprintf("meshes[%d]: a primitive of mode %v dropped (g3n draws triangles, lines and points)", i, p.Mode))
			}
		}
		m.Primitives = keep
	}
	nNodes := len(doc.Nodes)
	for i := 0; i < nNodes; i++ {
		n := doc.Nodes[i]
		if n.Mesh == nil {
			continue
		}
		m := doc.Meshes[*n.Mesh]
		if len(m.Primitives) == 0 {
			n.Mesh, n.Skin = nil, nil
			continue
		}
		if n.Skin == nil || len(m.Primitives) == 1 {
			continue
		}
		for j, p := range m.Primitives {
			doc.Meshes = append(doc.Meshes, &gltf.Mesh{Name: fmt.Sprintf("%s_%d", m.Name, j), Primitives: []*gltf.Primitive{p}, Weights: m.Weights})
			mi := len(doc.Meshes) - 1
			skin := *n.Skin
			doc.Nodes = append(doc.Nodes, &gltf.Node{Name: fmt.Sprintf("%s_%d", n.Name, j), Mesh: &mi, Skin: &skin,
				Matrix: gltf.DefaultMatrix, Rotation: gltf.DefaultRotation, Scale: gltf.DefaultScale})
			n.Children = append(n.Children, len(doc.Nodes)-1)
		}
		n.Mesh, n.Skin = nil, nil
	}
	doc.Animations = nil
	doc.Buffers = []*gltf.Buffer{{ByteLength: len(blob), Data: blob}}
	if len(blob) == 0 {
		doc.Buffers = nil
	}
	return nil
}

// specGlossBase turns a KHR_materials_pbrSpecularGlossiness material into
// its diffuse color and texture.
func specGlossBase(ext any, nTex int) *gltf.PBRMetallicRoughness {
	raw, err := json.Marshal(ext)
	if err != nil {
		return nil
	}
	var sg struct {
		DiffuseFactor  *[4]float64 `json:"diffuseFactor"`
		DiffuseTexture *struct {
			Index    int `json:"index"`
			TexCoord int `json:"texCoord"`
		} `json:"diffuseTexture"`
	}
	if json.Unmarshal(raw, &sg) != nil {
		return nil
	}
	p := &gltf.PBRMetallicRoughness{BaseColorFactor: sg.DiffuseFactor, MetallicFactor: gltf.Float(0), RoughnessFactor: gltf.Float(0.6)}
	if t := sg.DiffuseTexture; t != nil && t.Index >= 0 && t.Index < nTex {
		p.BaseColorTexture = &gltf.TextureInfo{Index: t.Index, TexCoord: t.TexCoord}
	}
	return p
}

// whitePNG is a 1 x 1 white PNG.
var whitePNG = []byte{
	0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52,
	0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x02, 0x00, 0x00, 0x00, 0x90, 0x77, 0x53,
	0xde, 0x00, 0x00, 0x00, 0x0c, 0x49, 0x44, 0x41, 0x54, 0x08, 0xd7, 0x63, 0xf8, 0xff, 0xff, 0x3f,
	0x00, 0x05, 0xfe, 0x02, 0xfe, 0xa7, 0x35, 0x81, 0x84, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4e,
	0x44, 0xae, 0x42, 0x60, 0x82,
}

// toG3N encodes the sanitized document as GLB bytes in memory and loads the
// default scene with g3n, turning a panic inside g3n into an error.
func (l *gltfLoad) toG3N(doc *gltf.Document, m *GLTFModel, dir string) (err error) {
	var glb bytes.Buffer
	enc := gltf.NewEncoder(&glb)
	enc.AsBinary = true
	if err := enc.Encode(doc); err != nil {
		return l.errf("re-encoding for g3n: %v", err)
	}
	defer func() {
		if r := recover(); r != nil {
			err = l.errf("g3n's loader failed: %v", r)
		}
	}()
	g, err := g3ngltf.ParseBinReader(bytes.NewReader(glb.Bytes()), dir)
	if err != nil {
		return l.errf("g3n: %v", err)
	}
	si := 0
	if doc.Scene != nil {
		si = *doc.Scene
	}
	in, err := g.LoadScene(si)
	if err != nil {
		return l.errf("g3n: scenes[%d]: %v", si, err)
	}
	m.Root = in.GetNode()
	// Map glTF nodes to g3n nodes: the nodes of the scene are cached by
	// g3n, so LoadNode returns them.
	m.Nodes = make([]*core.Node, len(doc.Nodes))
	var mark func(i int)
	mark = func(i int) {
		n, err := g.LoadNode(i)
		if err != nil || n == nil {
			return
		}
		m.Nodes[i] = n.GetNode()
		for _, c := range doc.Nodes[i].Children {
			mark(c)
		}
	}
	for _, i := range doc.Scenes[si].Nodes {
		mark(i)
	}
	m.Skins = make([]*graphic.Skeleton, len(doc.Skins))
	m.joints = map[*core.Node]bool{}
	used := map[int]bool{}
	for i, n := range doc.Nodes {
		if n.Skin != nil && m.Nodes[i] != nil {
			used[*n.Skin] = true
		}
	}
	for i := range doc.Skins {
		if !used[i] {
			continue
		}
		sk, err := g.LoadSkin(i)
		if err != nil {
			return l.errf("g3n: skins[%d]: %v", i, err)
		}
		m.Skins[i] = sk
		for _, b := range sk.Bones() {
			m.joints[b] = true
		}
	}
	// Skin joints outside the scene still count as bones when they are in
	// it under another name; joints are also found by index.
	for _, s := range doc.Skins {
		for _, j := range s.Joints {
			if j < len(m.Nodes) && m.Nodes[j] != nil {
				m.joints[m.Nodes[j]] = true
			}
		}
	}
	return nil
}

// Node returns the node of the model called name: the exact name, then the
// same name ignoring case, then the same BoneKey (so "LeftShoulder" finds
// "mixamorig:LeftShoulder" or "shoulder.L"), then the same BoneKey without
// a duplicate marker ("Head_1" for "Head"). At each stage skin joints win
// over other nodes, then the node nearest the root.
func (m *GLTFModel) Node(name string) (*core.Node, error) {
	var cands []boneCandidate
	for i, n := range m.Nodes {
		if n != nil {
			cands = append(cands, boneCandidate{name: m.Names[i], node: n, joint: m.joints[n], depth: depth(n)})
		}
	}
	if n := matchBone(cands, name); n != nil {
		return n, nil
	}
	var names []string
	for _, c := range cands {
		if c.joint {
			names = append(names, c.name)
		}
	}
	if len(names) == 0 {
		for _, c := range cands {
			names = append(names, c.name)
		}
	}
	sort.Strings(names)
	return nil, fmt.Errorf("character: no bone or node matching %q (have %s)", name, errctx.Names(names))
}

// Clip returns the animation called name: exact, then ignoring case, then
// the first whose name contains it ("walk" finds "Walking").
func (m *GLTFModel) Clip(name string) (*Clip, error) {
	for _, c := range m.Clips {
		if c.Name == name {
			return c, nil
		}
	}
	low := strings.ToLower(name)
	for _, c := range m.Clips {
		if strings.ToLower(c.Name) == low {
			return c, nil
		}
	}
	for _, c := range m.Clips {
		if low != "" && strings.Contains(strings.ToLower(c.Name), low) {
			return c, nil
		}
	}
	names := make([]string, len(m.Clips))
	for i, c := range m.Clips {
		names[i] = c.Name
	}
	if len(names) == 0 {
		return nil, fmt.Errorf("character: no animation %q: the file has no animations", name)
	}
	return nil, fmt.Errorf("character: no animation %q (have %s)", name, strings.Join(names, ", "))
}
