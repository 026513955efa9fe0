// Package nofma finds the floating-point expressions that a Go compiler
// may fuse into one multiply-add, and rewrites them so that it cannot.
//
// The Go specification lets an implementation compute x*y + z with one
// rounding instead of two unless an explicit conversion rounds the
// product: float32(x*y) + z cannot fuse. The gc compiler fuses on arm64
// (a + and a - of a product, in either order, also through a negation),
// on amd64 at GOAMD64=v3 (a + of a product), and on loong64, ppc64,
// riscv64 and s390x. It does so after inlining and across statements: a product kept
// in a variable, returned from a small function or handed to one is fused
// with the addition that later reads it. drape promises the same bits on
// every machine, and its AVX2 kernels round every product, so drape's
// physics code rounds every product whose value can reach an addition.
//
// Check reports two kinds of finding:
//
//   - a product: a float multiplication (x*y, or x *= y, or x/c for a
//     constant c that is a power of two, which the compiler turns into
//     x*(1/c)) whose value is not rounded by an explicit conversion before
//     it can reach an addition.
//     A product is safe where it is converted (float32(x*y)), where it is an
//     operand of another multiplication or of a division (the outer
//     expression is then the one judged), where it is compared, and where
//     it multiplies or divides a variable in place (v *= x*y). A negation
//     passes the judgement to its own context. Everywhere else (an
//     addition, an assignment, a return, an argument, a composite literal)
//     it must be converted.
//   - a call of a function or method of github.com/go-gl/mathgl/mgl32 whose
//     body holds a product the first rule reports (Vec3.Dot, Cross, Len,
//     Normalize, Quat.Mul, Rotate, the matrix products, and Vec3.Mul too:
//     its products, returned, fuse with the addition that reads them), found
//     by reading mgl32's own source: compiled into drape's code, they fuse
//     there. Add and Sub do not. Calls with a helper in
//     github.com/drape3d/drape/internal/vecmath (Helpers) are rewritten to
//     it; the helper computes mgl32's operations in mgl32's order, each
//     product rounded, so the bits on amd64 stay the same.
//
// Rewrite applies the fixes: it wraps each product in a conversion to its
// own type (float32(x*y)), turns v *= x into v = float32(v * x) where v
// can be evaluated twice, and replaces helper calls. On a processor that
// does not fuse, a conversion of a float32 to float32 changes nothing, so
// the rewritten code gives the same bits there.
package nofma

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/build"
	"go/constant"
	"go/format"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// MGL32 is the import path of the vector package whose fusing methods
// Check reports.
const MGL32 = "github.com/go-gl/mathgl/mgl32"

// VecmathPath is the import path of the helpers that replace them.
const VecmathPath = "github.com/drape3d/drape/internal/vecmath"

// Helpers maps an mgl32 function or method ("Vec3.Dot", "QuatRotate") to
// the vecmath function that replaces it. A method's receiver becomes the
// helper's first argument.
var Helpers = map[string]string{
	"Vec3.Dot":           "Dot",
	"Vec3.Cross":         "Cross",
	"Vec3.Len":           "Len",
	"Vec3.LenSqr":        "LenSqr",
	"Vec3.Normalize":     "Normalize",
	"Quat.Mul":           "QuatMul",
	"Quat.Rotate":        "QuatRotate",
	"Quat.Len":           "QuatLen",
	"Quat.Normalize":     "QuatNormalize",
	"Quat.Inverse":       "QuatInverse",
	"Quat.Dot":           "QuatDot",
	"Quat.Mat4":          "QuatMat4",
	"Vec3.Mul":           "Scale",
	"Quat.Scale":         "QuatScale",
	"Quat.Conjugate":     "QuatConjugate",
	"QuatRotate":         "QuatAxisAngle",
	"Mat4ToQuat":         "Mat4ToQuat",
	"Mat3.Mul3":          "Mat3Mul3",
	"QuatSlerp":          "QuatSlerp",
	"QuatBetweenVectors": "QuatBetweenVectors",
}

// PhysicsDirs are the directories, relative to the module's root, whose
// code steps a World: the physics packages and the internal helpers they
// and their goldens use. The checker test holds them to no finding.
var PhysicsDirs = []string{
	"verlet3d", "cloth", "hair", "bodies",
	"internal/vecmath", "internal/simd", "internal/checks", "internal/draped",
}

// Finding is one expression that may fuse.
type Finding struct {
	Pos  token.Position
	Kind string // "product", "mulassign" or "mgl32"
	Text string // the expression
	Fix  string // what Rewrite puts in its place; empty if it cannot
}

func (f Finding) String() string {
	s := fmt.Sprintf("%s: %s may fuse: %s", f.Pos, f.Kind, f.Text)
	if f.Fix == "" {
		s += " (no automatic fix)"
	}
	return s
}

// edit replaces src[start:end] with text, or, for a wrap, puts text
// before and close after it.
type edit struct {
	start, end int
	text       string
	wrap       bool
	close      string
	file       string
	import_    bool // the file needs the vecmath import
}

// pkgFiles is one type-checked package of a directory: the package itself
// (with its in-package tests) or its external test package.
type pkgFiles struct {
	files []*ast.File
	info  *types.Info
	pkg   *types.Package
}

// Checker holds what the checks of several directories share: the file
// set, the source importer, and the verdicts on mgl32's functions.
type Checker struct {
	fset *token.FileSet
	imp  types.ImporterFrom
	mgl  *mglSource
}

// NewChecker returns a Checker that type-checks from source.
func NewChecker() *Checker {
	fset := token.NewFileSet()
	return &Checker{
		fset: fset,
		imp:  importer.ForCompiler(fset, "source", nil).(types.ImporterFrom),
	}
}

// load parses and type-checks the Go files of dir (tests included) for
// the host's build context.
func (c *Checker) load(dir string) ([]pkgFiles, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	ents, err := os.ReadDir(abs)
	if err != nil {
		return nil, err
	}
	byPkg := map[string][]*ast.File{}
	var order []string
	for _, e := range ents {
		n := e.Name()
		if e.IsDir() || !strings.HasSuffix(n, ".go") {
			continue
		}
		path := filepath.Join(abs, n)
		ok, err := buildOK(path)
		if err != nil {
			return nil, err
		}
		if !ok {
			continue
		}
		f, err := parser.ParseFile(c.fset, path, nil, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		name := f.Name.Name
		if _, seen := byPkg[name]; !seen {
			order = append(order, name)
		}
		byPkg[name] = append(byPkg[name], f)
	}
	// The package before its external tests, which import it.
	sort.SliceStable(order, func(i, j int) bool {
		return !strings.HasSuffix(order[i], "_test") && strings.HasSuffix(order[j], "_test")
	})
	var out []pkgFiles
	for _, name := range order {
		files := byPkg[name]
		info := &types.Info{
			Types:      map[ast.Expr]types.TypeAndValue{},
			Uses:       map[*ast.Ident]types.Object{},
			Selections: map[*ast.SelectorExpr]*types.Selection{},
			Defs:       map[*ast.Ident]types.Object{},
		}
		conf := types.Config{Importer: &dirImporter{c.imp, abs}, FakeImportC: true}
		pkg, err := conf.Check(name, c.fset, files, info)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", dir, err)
		}
		out = append(out, pkgFiles{files, info, pkg})
	}
	return out, nil
}

// dirImporter imports from dir, so that module-relative paths resolve.
type dirImporter struct {
	imp types.ImporterFrom
	dir string
}

func (d *dirImporter) Import(path string) (*types.Package, error) {
	return d.imp.ImportFrom(path, d.dir, 0)
}

// buildContext is the host's: the files a test on this machine compiles.
var buildContext = build.Default

// buildOK reports whether the host's build context takes the file (its
// name's GOOS/GOARCH and its //go:build line).
func buildOK(path string) (bool, error) {
	return buildContext.MatchFile(filepath.Dir(path), filepath.Base(path))
}

// Check reports the findings of the Go files in dirs, tests included.
func (c *Checker) Check(dirs ...string) ([]Finding, error) {
	var all []Finding
	for _, d := range dirs {
		fs, _, err := c.check(d)
		if err != nil {
			return nil, err
		}
		all = append(all, fs...)
	}
	return all, nil
}

func (c *Checker) check(dir string) ([]Finding, []edit, error) {
	pkgs, err := c.load(dir)
	if err != nil {
		return nil, nil, err
	}
	var finds []Finding
	var edits []edit
	for _, p := range pkgs {
		for _, f := range p.files {
			fs, es := c.checkFile(p, f)
			finds = append(finds, fs...)
			edits = append(edits, es...)
		}
	}
	return finds, edits, nil
}

func isFloat(t types.Type) bool {
	if t == nil {
		return false
	}
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsFloat != 0
}

// floatName is the name to convert a value of type t with in package pkg,
// or "" if there is none.
func floatName(t types.Type, pkg *types.Package) string {
	switch t := t.(type) {
	case *types.Basic:
		switch t.Kind() {
		case types.Float32:
			return "float32"
		case types.Float64:
			return "float64"
		}
	case *types.Named:
		if t.Obj().Pkg() == pkg {
			return t.Obj().Name()
		}
	}
	return ""
}

// isConversion reports whether call converts to a float type.
func isConversion(info *types.Info, call *ast.CallExpr) bool {
	tv, ok := info.Types[call.Fun]
	return ok && tv.IsType() && isFloat(tv.Type)
}

// context returns the nearest ancestor of stack's top that is not a
// parenthesis or a sign, and the child of it on the path.
func context(stack []ast.Node) (parent, child ast.Node) {
	child = stack[len(stack)-1]
	for i := len(stack) - 2; i >= 0; i-- {
		switch n := stack[i].(type) {
		case *ast.ParenExpr:
		case *ast.UnaryExpr:
			if n.Op != token.SUB && n.Op != token.ADD {
				return n, child
			}
		default:
			return n, child
		}
		child = stack[i]
	}
	return nil, child
}

// safeProduct reports whether a product whose path from the file is stack
// is rounded or consumed before it can reach an addition.
func safeProduct(info *types.Info, stack []ast.Node) bool {
	parent, _ := context(stack)
	switch p := parent.(type) {
	case *ast.CallExpr:
		return isConversion(info, p)
	case *ast.BinaryExpr:
		switch p.Op {
		case token.MUL, token.QUO, token.EQL, token.NEQ, token.LSS, token.LEQ, token.GTR, token.GEQ:
			return true
		}
	case *ast.AssignStmt:
		return p.Tok == token.MUL_ASSIGN || p.Tok == token.QUO_ASSIGN
	}
	return false
}

// simpleLHS reports whether e can be evaluated twice without a change: a
// name, a field, an element at a name's or a constant's index, a pointer's
// target.
func simpleLHS(info *types.Info, e ast.Expr) bool {
	switch e := e.(type) {
	case *ast.Ident:
		return true
	case *ast.ParenExpr:
		return simpleLHS(info, e.X)
	case *ast.SelectorExpr:
		return simpleLHS(info, e.X)
	case *ast.StarExpr:
		return simpleLHS(info, e.X)
	case *ast.IndexExpr:
		if _, ok := e.Index.(*ast.Ident); !ok {
			if tv, ok := info.Types[e.Index]; !ok || tv.Value == nil {
				return false
			}
		}
		return simpleLHS(info, e.X)
	}
	return false
}

func (c *Checker) checkFile(p pkgFiles, f *ast.File) ([]Finding, []edit) {
	name := c.fset.File(f.Pos()).Name()
	src, err := os.ReadFile(name)
	if err != nil {
		return []Finding{{Pos: c.fset.Position(f.Pos()), Kind: "read", Text: err.Error()}}, nil
	}
	off := func(pos token.Pos) int { return c.fset.Position(pos).Offset }
	text := func(n ast.Node) string { return string(src[off(n.Pos()):off(n.End())]) }
	inVecmath := p.pkg.Path() == "vecmath" && strings.HasSuffix(filepath.Dir(name), filepath.FromSlash("internal/vecmath"))
	var finds []Finding
	var edits []edit
	var stack []ast.Node
	ast.Inspect(f, func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return true
		}
		stack = append(stack, n)
		switch n := n.(type) {
		case *ast.BinaryExpr:
			if n.Op != token.MUL && !(n.Op == token.QUO && exactReciprocal(p.info.Types[n.Y])) {
				break
			}
			tv, ok := p.info.Types[n]
			if !ok || tv.Value != nil || !isFloat(tv.Type) || safeProduct(p.info, stack) {
				break
			}
			fd := Finding{Pos: c.fset.Position(n.OpPos), Kind: "product", Text: text(n)}
			if t := floatName(tv.Type, p.pkg); t != "" {
				fd.Fix = t + "(" + fd.Text + ")"
				edits = append(edits, edit{start: off(n.Pos()), end: off(n.End()), text: t + "(", wrap: true, close: ")", file: name})
			}
			finds = append(finds, fd)
		case *ast.AssignStmt:
			if n.Tok != token.MUL_ASSIGN || len(n.Lhs) != 1 {
				break
			}
			tv, ok := p.info.Types[n.Lhs[0]]
			if !ok || !isFloat(tv.Type) {
				break
			}
			fd := Finding{Pos: c.fset.Position(n.TokPos), Kind: "mulassign", Text: text(n)}
			if t := floatName(tv.Type, p.pkg); t != "" && simpleLHS(p.info, n.Lhs[0]) {
				l, r := text(n.Lhs[0]), text(n.Rhs[0])
				if _, bin := ast.Unparen(n.Rhs[0]).(*ast.BinaryExpr); bin {
					r = "(" + r + ")"
				}
				fd.Fix = l + " = " + t + "(" + l + " * " + r + ")"
				edits = append(edits, edit{start: off(n.Pos()), end: off(n.End()), text: fd.Fix, file: name})
			}
			finds = append(finds, fd)
		case *ast.CallExpr:
			obj, recv := c.callee(p.info, n)
			if obj == nil || obj.Pkg() == nil || obj.Pkg().Path() != MGL32 || !c.fusing(obj) {
				break
			}
			key := obj.Name()
			if sig, ok := obj.Type().(*types.Signature); ok && sig.Recv() != nil {
				key = typeName(sig.Recv().Type()) + "." + key
			}
			fd := Finding{Pos: c.fset.Position(n.Pos()), Kind: "mgl32", Text: "mgl32." + key + ": " + text(n)}
			if h, ok := Helpers[key]; ok {
				var args []string
				if recv != nil {
					args = append(args, text(recv))
				}
				for _, a := range n.Args {
					args = append(args, text(a))
				}
				fd.Fix = "vecmath." + h + "(" + strings.Join(args, ", ") + ")"
				if inVecmath {
					fd.Fix = h + "(" + strings.Join(args, ", ") + ")"
				}
				edits = append(edits, edit{start: off(n.Pos()), end: off(n.End()), text: fd.Fix, file: name, import_: !inVecmath})
			}
			finds = append(finds, fd)
		}
		return true
	})
	return finds, edits
}

// exactReciprocal reports whether tv is a constant whose reciprocal is
// exact (a power of two): the compiler turns x/c into x*(1/c), a product
// that fuses like any other.
func exactReciprocal(tv types.TypeAndValue) bool {
	if tv.Value == nil || tv.Value.Kind() == constant.Unknown {
		return false
	}
	c, _ := constant.Float64Val(constant.ToFloat(tv.Value))
	if c == 0 || math.IsInf(c, 0) {
		return false
	}
	m, e := math.Frexp(math.Abs(c))
	return m == 0.5 && e > -125 && e < 126
}

func typeName(t types.Type) string {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	if n, ok := t.(*types.Named); ok {
		return n.Obj().Name()
	}
	return t.String()
}

// callee returns the function or method call calls, and the receiver
// expression of a method call.
func (c *Checker) callee(info *types.Info, call *ast.CallExpr) (types.Object, ast.Expr) {
	switch fn := ast.Unparen(call.Fun).(type) {
	case *ast.Ident:
		if o, ok := info.Uses[fn].(*types.Func); ok {
			return o, nil
		}
	case *ast.SelectorExpr:
		if sel, ok := info.Selections[fn]; ok {
			if sel.Kind() == types.MethodVal {
				return sel.Obj(), fn.X
			}
			return nil, nil
		}
		if o, ok := info.Uses[fn.Sel].(*types.Func); ok {
			return o, nil
		}
	}
	return nil, nil
}

// fusing reports whether the body of mgl32 function obj adds or subtracts
// a float product (through parentheses and a sign) or calls an mgl32
// function that does. It reads and type-checks mgl32's source once.
func (c *Checker) fusing(obj types.Object) bool {
	if c.mgl == nil {
		c.mgl = &mglSource{verdict: map[string]bool{}, decl: map[string]*ast.FuncDecl{}}
		if err := c.mgl.load(c, filepath.Dir(c.fset.Position(obj.Pos()).Filename)); err != nil {
			c.mgl.err = err
		}
	}
	if c.mgl.err != nil {
		return true // cannot tell: treat it as fusing
	}
	return c.mgl.fusing(funcKey(obj))
}

// funcKey names a function "Name" or a method "Type.Name".
func funcKey(obj types.Object) string {
	if sig, ok := obj.Type().(*types.Signature); ok && sig.Recv() != nil {
		return typeName(sig.Recv().Type()) + "." + obj.Name()
	}
	return obj.Name()
}

// mglSource is mgl32's source, type-checked, and the verdicts on its
// functions.
type mglSource struct {
	info    *types.Info
	decl    map[string]*ast.FuncDecl
	verdict map[string]bool
	err     error
}

func (m *mglSource) load(c *Checker, dir string) error {
	fset := token.NewFileSet()
	ents, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	var files []*ast.File
	for _, e := range ents {
		n := e.Name()
		if !strings.HasSuffix(n, ".go") || strings.HasSuffix(n, "_test.go") {
			continue
		}
		if ok, err := buildOK(filepath.Join(dir, n)); err != nil || !ok {
			continue
		}
		f, err := parser.ParseFile(fset, filepath.Join(dir, n), nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		files = append(files, f)
	}
	m.info = &types.Info{Types: map[ast.Expr]types.TypeAndValue{}, Uses: map[*ast.Ident]types.Object{}, Selections: map[*ast.SelectorExpr]*types.Selection{}, Defs: map[*ast.Ident]types.Object{}}
	conf := types.Config{Importer: &dirImporter{c.imp, dir}}
	if _, err := conf.Check("mgl32", fset, files, m.info); err != nil {
		return err
	}
	for _, f := range files {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil {
				if obj := m.info.Defs[fd.Name]; obj != nil {
					m.decl[funcKey(obj)] = fd
				}
			}
		}
	}
	return nil
}

func (m *mglSource) fusing(key string) bool {
	if v, ok := m.verdict[key]; ok {
		return v
	}
	m.verdict[key] = false // recursion stops here
	fd, ok := m.decl[key]
	if !ok {
		m.verdict[key] = true
		return true
	}
	fuse := false
	var stack []ast.Node
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return true
		}
		stack = append(stack, n)
		switch n := n.(type) {
		case *ast.BinaryExpr:
			if n.Op == token.MUL || (n.Op == token.QUO && exactReciprocal(m.info.Types[n.Y])) {
				tv := m.info.Types[n]
				if isFloat(tv.Type) && tv.Value == nil && !safeProduct(m.info, stack) {
					fuse = true
				}
			}
		case *ast.AssignStmt:
			if n.Tok == token.MUL_ASSIGN && isFloat(m.info.Types[n.Lhs[0]].Type) {
				fuse = true
			}
		case *ast.CallExpr:
			var id *ast.Ident
			switch fn := ast.Unparen(n.Fun).(type) {
			case *ast.Ident:
				id = fn
			case *ast.SelectorExpr:
				id = fn.Sel
			}
			if id != nil {
				if obj, ok := m.info.Uses[id].(*types.Func); ok && obj.Pkg() != nil && obj.Pkg().Name() == "mgl32" && m.fusing(funcKey(obj)) {
					fuse = true
				}
			}
		}
		return true
	})
	m.verdict[key] = fuse
	return fuse
}

// Rewrite applies the automatic fixes to the Go files of dirs, tests
// included, writing them back if write is set, and returns the files it
// changed and the findings it could not fix. It repeats until nothing is
// left to fix, as one fix can hold another (a conversion inside a
// replaced call).
func (c *Checker) Rewrite(write bool, dirs ...string) (changed []string, left []Finding, err error) {
	seen := map[string]bool{}
	for _, d := range dirs {
		for pass := 0; ; pass++ {
			cc := NewChecker() // the files change between passes
			finds, edits, err := cc.check(d)
			if err != nil {
				return changed, nil, err
			}
			if len(edits) == 0 || pass == 8 || !write {
				for _, f := range finds {
					if f.Fix == "" || !write {
						left = append(left, f)
					}
				}
				if !write {
					for _, e := range edits {
						if !seen[e.file] {
							seen[e.file] = true
							changed = append(changed, e.file)
						}
					}
				}
				break
			}
			files, err := apply(edits)
			if err != nil {
				return changed, nil, err
			}
			for _, f := range files {
				if !seen[f] {
					seen[f] = true
					changed = append(changed, f)
				}
			}
		}
	}
	sort.Strings(changed)
	return changed, left, nil
}

// apply makes the edits that do not overlap one another (the rest wait for
// the next pass) and formats the files.
func apply(edits []edit) ([]string, error) {
	byFile := map[string][]edit{}
	for _, e := range edits {
		byFile[e.file] = append(byFile[e.file], e)
	}
	var files []string
	for name, es := range byFile {
		src, err := os.ReadFile(name)
		if err != nil {
			return nil, err
		}
		// Wraps nest; a replacement may touch nothing else. What is
		// left waits for the next pass.
		sort.SliceStable(es, func(i, j int) bool { return es[i].start < es[j].start })
		var keep []edit
		needImport := false
		for _, e := range es {
			ok := true
			for _, k := range keep {
				if (!e.wrap || !k.wrap) && e.start <= k.end && k.start <= e.end {
					ok = false
					break
				}
			}
			if ok {
				keep = append(keep, e)
				needImport = needImport || e.import_
			}
		}
		// Insertions from the end of the file back; at one offset the
		// narrower wrap's first, so that the wider one's text ends up
		// outside it.
		type ins struct {
			at, span int
			text     string
			repl     edit
		}
		var all []ins
		for _, e := range keep {
			if e.wrap {
				all = append(all, ins{e.start, e.end - e.start, e.text, edit{}}, ins{e.end, -(e.end - e.start), e.close, edit{}})
			} else {
				all = append(all, ins{at: e.start, repl: e, span: -1 << 30})
			}
		}
		sort.SliceStable(all, func(i, j int) bool {
			if all[i].at != all[j].at {
				return all[i].at > all[j].at
			}
			return all[i].span < all[j].span
		})
		out := src
		for _, x := range all {
			if x.span == -1<<30 {
				e := x.repl
				out = append(out[:e.start:e.start], append([]byte(e.text), out[e.end:]...)...)
				continue
			}
			out = append(out[:x.at:x.at], append([]byte(x.text), out[x.at:]...)...)
		}
		if needImport && !bytes.Contains(out, []byte(`"`+VecmathPath+`"`)) {
			out = addImport(out, VecmathPath)
		}
		fmted, err := format.Source(out)
		if err != nil {
			return nil, fmt.Errorf("%s: rewritten file does not parse: %v", name, err)
		}
		if err := os.WriteFile(name, fmted, 0o644); err != nil {
			return nil, err
		}
		files = append(files, name)
	}
	sort.Strings(files)
	return files, nil
}

// addImport adds path to the first import declaration of src, or after
// the package clause.
func addImport(src []byte, path string) []byte {
	s := string(src)
	if i := strings.Index(s, "\nimport ("); i >= 0 {
		j := i + len("\nimport (")
		return []byte(s[:j] + "\n\t\"" + path + "\"" + s[j:])
	}
	if i := strings.Index(s, "\nimport \""); i >= 0 {
		end := strings.Index(s[i+1:], "\n") + i + 1
		return []byte(s[:i] + "\nimport (\n\t\"" + path + "\"\n\t" + s[i+len("\nimport "):end] + "\n)" + s[end:])
	}
	i := strings.Index(s, "\npackage ")
	if !strings.HasPrefix(s, "package ") && i < 0 {
		return src
	}
	if strings.HasPrefix(s, "package ") {
		i = 0
	} else {
		i++
	}
	end := strings.Index(s[i:], "\n") + i
	return []byte(s[:end] + "\n\nimport \"" + path + "\"" + s[end:])
}
