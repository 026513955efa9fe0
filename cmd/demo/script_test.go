package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"image"
	"image/png"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
)

// runScript runs the demo with a script and returns its probes by label
// (the label's first word).
func runScript(t *testing.T, text string, args ...string) map[string]probeReport {
	t.Helper()
	m, _ := runScriptAll(t, text, args...)
	return m
}

// runScriptAll also returns every probe in order.
func runScriptAll(t *testing.T, text string, args ...string) (map[string]probeReport, []probeReport) {
	t.Helper()
	bin := demoBinary(t)
	file := filepath.Join(t.TempDir(), "script.txt")
	if err := os.WriteFile(file, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, append(args, "-script", file)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("demo %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
	}
	probes := map[string]probeReport{}
	var all []probeReport
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line, ok := strings.CutPrefix(sc.Text(), "probe ")
		if !ok {
			continue
		}
		var r probeReport
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatalf("probe %q: %v", line, err)
		}
		probes[strings.Fields(r.Label + " -")[0]] = r
		all = append(all, r)
	}
	return probes, all
}

func need(t *testing.T, probes map[string]probeReport, labels ...string) {
	t.Helper()
	for _, l := range labels {
		if _, ok := probes[l]; !ok {
			t.Fatalf("no probe %q in the demo's output (got %d probes)", l, len(probes))
		}
	}
}

func loadPNG(t *testing.T, file string) image.Image {
	t.Helper()
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	if dir := os.Getenv("DRAPE_SHOTS"); dir != "" {
		b, _ := os.ReadFile(file)
		_ = os.WriteFile(filepath.Join(dir, t.Name()+"_"+filepath.Base(file)), b, 0o644)
	}
	return img
}

// One scripted run of the flag scene, through the same window events
// a person makes: arrow keys (the scene's wind keys), a Shift+drag of a
// flag particle and cursor moves after the release, a steady stretch for
// the HUD's frame rate, a pause and a Ctrl+drag cut between two rows, a
// single step, then a number key that switches scene.
func TestScriptedSession(t *testing.T) {
	const (
		grabbed = 505 // row 12, column 25 of the 40 x 25 flag
		// The cut runs between rows 17 and 18 from column 5 to column 35.
		from = "p685~p725"
		to   = "p715~p755"
	)
	dir := t.TempDir()
	shotA, shotB := filepath.Join(dir, "before.png"), filepath.Join(dir, "after.png")
	names := sceneNames()
	netKey := 0
	for i, n := range names {
		if n == "net" {
			netKey = i + 1
		}
	}
	if netKey == 0 || netKey > 9 {
		t.Fatalf("scene net is not on a number key: %v", names)
	}
	script := fmt.Sprintf(`# a run of the flag scene
0.30 probe start p%[1]d
0.35 key Up
0.40 key Down
0.42 key Left
0.45 key Right
0.50 probe keys
0.52 down 900,500 shift
0.54 move r-60,-40
0.56 move r-60,-40
0.57 up r0,0
0.58 probe empty
0.60 down p%[1]d shift
0.65 move r-8,-6
0.70 move r-8,-6
0.75 move r-8,-6
0.80 move r-8,-6
0.90 move r-8,-6
0.95 probe drag p%[1]d
1.00 up r0,0
1.05 move r30,10
1.10 move r30,10
1.15 move r30,10
1.25 probe after
%[7]s2.80 probe fps2
2.82 down 480,200
2.84 move r0,-300
2.86 move r0,-300
2.88 up r0,0
2.885 probe orbit
2.89 key Home
2.895 probe home
2.90 key P
3.00 shot %[2]s
3.00 probe before %[4]s %[5]s
3.05 down %[4]s ctrl
3.10 move p695~p735
3.15 move p705~p745
3.20 move %[5]s
3.25 up r0,0
3.30 key Space
3.40 shot %[3]s
3.40 probe cut %[4]s %[5]s
3.42 down 860,30
3.44 move r-40,0
3.46 move r-40,0
3.47 probe gui
3.48 up r0,0
3.49 key V
3.50 probe strain
3.52 down p300 alt
3.54 move r25,0
3.56 move r25,0
3.57 up r0,0
3.58 probe push
3.60 key %[6]d
3.70 probe switched
`, grabbed, shotA, shotB, from, to, netKey, ticks())
	probes, all := runScriptAll(t, script, "-scene", "flag", "-frames", "230", "-width", "960", "-height", "540")
	need(t, probes, "start", "keys", "empty", "gui", "orbit", "home", "drag", "after", "fps2", "strain", "push", "before", "cut", "switched")

	// The camera: still after the arrow keys, during the drag and after
	// the release with the mouse moving.
	start := probes["start"]
	for _, l := range []string{"keys", "empty", "drag", "after", "gui", "home"} {
		p := probes[l]
		if p.Eye != start.Eye || p.Target != start.Target {
			t.Errorf("%s: camera at %v looking at %v, want it still at %v looking at %v", l, p.Eye, p.Target, start.Eye, start.Target)
		}
	}
	// A plain drag orbits, down as far as the floor allows and no further.
	if orb := probes["orbit"]; orb.Eye == start.Eye {
		t.Errorf("a left-drag did not orbit the camera")
	} else if orb.Eye[1] < floorMargin-1e-4 {
		t.Errorf("orbiting put the eye at height %.3f m, under the floor (0) plus its margin %.2f", orb.Eye[1], floorMargin)
	}
	// A drag on the settings panel's first row (the wind) belongs to the
	// GUI: the slider moves and the wind changes at once; the camera stays.
	const wind = "wind 7 m/s"
	if g := probes["gui"]; g.Owner != "gui" || !strings.Contains(start.HUD, wind) || strings.Contains(g.HUD, wind) {
		t.Errorf("drag on the wind slider: owner %q, HUD before %q, after %q; want the GUI to own it and the wind changed from 7 m/s",
			g.Owner, start.HUD, g.HUD)
	}
	if o := probes["after"].Owner; o != "none" {
		t.Errorf("after the release the mouse belongs to %q, want none", o)
	}

	// The drag: the grabbed particle is on the cursor's ray, under the
	// cursor on screen.
	drag := probes["drag"]
	if drag.Owner != "grab" || drag.Grab == nil || drag.Grab.Particle != grabbed {
		t.Fatalf("during the drag: owner %q, grab %+v; want particle %d grabbed", drag.Owner, drag.Grab, grabbed)
	}
	g := drag.Grab
	o, d, x := mgl32.Vec3(g.RayOrigin), mgl32.Vec3(g.RayDir), mgl32.Vec3(g.Pos)
	rel := x.Sub(o)
	off := rel.Sub(d.Mul(rel.Dot(d))).Len()
	key := fmt.Sprintf("p%d", grabbed)
	s, c := drag.Screen[key], drag.Cursor
	t.Logf("grabbed particle %.4f m from the cursor ray; on screen at (%.1f, %.1f), the cursor at (%.1f, %.1f)", off, s[0], s[1], c[0], c[1])
	if off > 0.01 {
		t.Errorf("grabbed particle %.4f m from the cursor's ray, want within 0.01 m", off)
	}
	if math.Abs(float64(s[0]-c[0])) > 2 || math.Abs(float64(s[1]-c[1])) > 2 {
		t.Errorf("grabbed particle at (%.1f, %.1f) on screen, the cursor at (%.1f, %.1f): want within 2 px", s[0], s[1], c[0], c[1])
	}

	// The HUD's frame rate against frames counted over wall time: a probe
	// every frame gives each frame's end on the wall clock; the HUD's
	// figure covers a window of at least 0.5 s that ended within the last
	// second or so. Its window is not the test's, and on a loaded machine
	// the frame rate changes from one half second to the next, so the HUD
	// must lie within 20% of the range of frames over wall time of every
	// window of 0.5-1 s that ends in the last 1.2 s.
	f2 := probes["fps2"]
	var ticks []probeReport
	for _, p := range all {
		if p.Label == "tick" && f2.Wall-p.Wall <= 2.2 && p.Wall <= f2.Wall {
			ticks = append(ticks, p)
		}
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, b := range ticks {
		if f2.Wall-b.Wall > 1.2 {
			continue
		}
		for _, a := range ticks {
			if d := b.Wall - a.Wall; d >= 0.5 && d <= 1.0 && b.Frame > a.Frame {
				r := float64(b.Frame-a.Frame) / d
				lo, hi = math.Min(lo, r), math.Max(hi, r)
			}
		}
	}
	if math.IsInf(lo, 1) {
		t.Fatalf("no frame probes in the seconds before fps2")
	}
	t.Logf("HUD %.1f fps; frames over wall time %.1f-%.1f fps in windows of 0.5-1 s ending in the last 1.2 s", f2.HUDFPS, lo, hi)
	if !(f2.HUDFPS > 0) || f2.HUDFPS < 0.8*lo || f2.HUDFPS > 1.2*hi {
		t.Errorf("HUD shows %.1f fps, frames over wall time give %.1f-%.1f: want within 20%% of that range", f2.HUDFPS, lo, hi)
	}

	// The cut: links broke under the path and the capture shows the gap.
	before, cut := probes["before"], probes["cut"]
	if !cut.Paused {
		t.Errorf("P did not pause")
	}
	broke := cut.Broken - before.Broken
	// 30 cells crossed, each with a vertical link, two shear links and
	// two distance-2 bend links across the path.
	t.Logf("the knife broke %d links (World: %d), links %d -> %d", cut.Cut, broke, before.Links, cut.Links)
	if broke < 30*3 || broke > 30*8 {
		t.Errorf("the cut broke %d links crossing 30 cells, want 90..240 (3 to 8 a cell)", broke)
	}
	a, b := loadPNG(t, shotA), loadPNG(t, shotB)
	p0, p1 := before.Screen[from], before.Screen[to]
	gapA, gapB := gapColumns(a, p0, p1), gapColumns(b, p0, p1)
	t.Logf("columns along the path showing the sky: %.0f%% before the cut, %.0f%% after", 100*gapA, 100*gapB)
	if gapA > 0.1 || gapB < 0.5 {
		t.Errorf("sky along the cut: %.0f%% of columns before, %.0f%% after; want under 10%% before and over 50%% after", 100*gapA, 100*gapB)
	}

	// V draws every cloth edge colored by strain; Alt+drag pushes.
	if st := probes["strain"]; st.StrainSegments < 3*1700 || st.StrainTriangles < 1700 || !(st.MaxStrain > 0) {
		t.Errorf("strain view: %d edges and %d triangles drawn (want every edge and triangle of about 1,800), max strain %v", st.StrainSegments, st.StrainTriangles, st.MaxStrain)
	}
	if p := probes["push"]; p.Pushed == 0 || p.Owner != "none" {
		t.Errorf("Alt+drag over the flag pushed %d particles (owner after release %q), want some", p.Pushed, p.Owner)
	}
	if s := probes["switched"].Scene; s != "net" {
		t.Errorf("key %d switched to scene %q, want net", netKey, s)
	}
	for l, p := range probes {
		if !p.AllFinite || p.NonFinite > 0 {
			t.Errorf("%s: non-finite particles (all finite %v, %d resets)", l, p.AllFinite, p.NonFinite)
		}
	}
}

// ticks is a probe every frame from 1.3 s to 2.79 s.
func ticks() string {
	var b strings.Builder
	for f := 78; f < 168; f++ {
		fmt.Fprintf(&b, "%.4f probe tick\n", float64(f)/60+0.001)
	}
	return b.String()
}

// gapColumns returns the fraction of pixel columns along the screen segment
// a-b (its middle 80%) that show the background within 4 px of the segment.
func gapColumns(img image.Image, a, b [2]float32) float64 {
	x0, x1 := a[0]+0.1*(b[0]-a[0]), a[0]+0.9*(b[0]-a[0])
	n, hit := 0, 0
	for x := int(x0); x <= int(x1); x++ {
		k := (float32(x) - a[0]) / (b[0] - a[0])
		y := int(a[1] + k*(b[1]-a[1]))
		n++
		for dy := -4; dy <= 4; dy++ {
			if isBackground(img, x, y+dy) {
				hit++
				break
			}
		}
	}
	if n == 0 {
		return 0
	}
	return float64(hit) / float64(n)
}

// Every scene, in one window, reached through its number key or its
// button in the menu (every other scene): a few
// hundred frames each, then a capture that is lit (not flat: many colors,
// shading across the scene) and a probe with no non-finite particle. In
// the ragdoll scene the stick man falls down the steps, is grabbed by the
// head, flung and let go: his limbs keep their lengths within 2% and he
// never folds through himself.
func TestEveryScene(t *testing.T) {
	names := sceneNames()
	if len(names) > 9 {
		t.Fatalf("%d scenes: the number keys reach only 9", len(names))
	}
	dir := t.TempDir()
	const per = 3.5 // s of frame time per scene (210 frames)
	var b strings.Builder
	b.WriteString("0 key F2\n")
	for i, n := range names {
		t0 := float64(i) * per
		if i%2 == 0 {
			fmt.Fprintf(&b, "%.3f key %d\n", t0+0.01, i+1)
		} else {
			// A click on the scene's button in the menu (F2 shows the
			// panels for it and hides them again for the capture).
			fmt.Fprintf(&b, "%.3f key F2\n", t0+0.001)
			fmt.Fprintf(&b, "%.3f down m%s\n", t0+0.02, n)
			fmt.Fprintf(&b, "%.3f up m%s\n", t0+0.04, n)
			fmt.Fprintf(&b, "%.3f key F2\n", t0+0.08)
		}
		shot := filepath.Join(dir, n+".png")
		if n == "ragdoll" {
			// The capture shows him after the fall, on the steps; then
			// he is grabbed by the head, flung up and let go.
			fmt.Fprintf(&b, "%.3f shot %s\n", t0+2.2, shot)
			fmt.Fprintf(&b, "%.3f down p0 shift\n", t0+2.3)
			for k := 1; k <= 4; k++ {
				fmt.Fprintf(&b, "%.3f move r12,-18\n", t0+2.3+float64(k)/60)
			}
			fmt.Fprintf(&b, "%.3f up r0,0\n", t0+2.3+5.0/60)
			fmt.Fprintf(&b, "%.3f probe thrown\n", t0+2.3+6.0/60)
		}
		if n != "ragdoll" {
			fmt.Fprintf(&b, "%.3f shot %s\n", t0+per-0.05, shot)
		}
		fmt.Fprintf(&b, "%.3f probe %s\n", t0+per-0.05, n)
	}
	frames := int(float64(len(names))*per*60) + 2
	probes := runScript(t, b.String(), "-frames", fmt.Sprint(frames), "-width", "480", "-height", "270",
		"-hair-strands", "600", "-scene", names[0])
	for _, n := range names {
		p, ok := probes[n]
		if !ok {
			t.Errorf("%s: no probe", n)
			continue
		}
		if p.Scene != n {
			t.Errorf("probe %s was taken in scene %q", n, p.Scene)
		}
		if !p.AllFinite || p.NonFinite > 0 {
			t.Errorf("%s: non-finite particles (all finite %v, %d resets)", n, p.AllFinite, p.NonFinite)
		}
		img := loadPNG(t, filepath.Join(dir, n+".png"))
		bg, cols, spread := backgroundFraction(img), distinctColors(img), lumaSpread(img)
		t.Logf("%-10s %d particles; capture: %.0f%% background, %d colors, luma spread %.1f", n, p.Particles, 100*bg, cols, spread)
		if bg > 0.95 || cols < 40 || spread < 12 {
			t.Errorf("%s: flat or empty capture: %.0f%% background, %d colors, luma spread %.1f (want under 95%%, 40 or more, 12 or more)", n, 100*bg, cols, spread)
		}
	}
	rag, ok := probes["ragdoll"]
	thrown, ok2 := probes["thrown"]
	if !ok || !ok2 || rag.Ragdoll == nil || thrown.Ragdoll == nil {
		t.Fatalf("no ragdoll probes")
	}
	r := rag.Ragdoll
	t.Logf("ragdoll: fell %.2f m, limb strain max %.3f%%, clearance min %.3f, torso flips %d; speed %.2f m/s just after the throw",
		r.Drop, 100*r.MaxLimbStrain, r.MinClearance, r.TorsoFlips, thrown.Ragdoll.Speed)
	if r.Drop < 1 {
		t.Errorf("the stick man's pelvis fell %.2f m: he did not go down the steps (want 1 m or more)", r.Drop)
	}
	if r.MaxLimbStrain > 0.02 {
		t.Errorf("limb strain reached %.2f%%, want within 2%%", 100*r.MaxLimbStrain)
	}
	if r.MinClearance < 0.9 || r.TorsoFlips > 0 {
		t.Errorf("the stick man folded through himself: clearance %.3f of the radius sum (want 0.9 or more), torso inside out %d times", r.MinClearance, r.TorsoFlips)
	}
	if thrown.Ragdoll.Speed < 1 {
		t.Errorf("after the throw the pelvis moves at %.2f m/s, want 1 m/s or more", thrown.Ragdoll.Speed)
	}
}

// lumaSpread is the standard deviation of the luma of the pixels that are
// not background: shading and texture give a lit scene a spread.
func lumaSpread(img image.Image) float64 {
	var n, sum, sum2 float64
	bnd := img.Bounds()
	for y := bnd.Min.Y; y < bnd.Max.Y; y += 2 {
		for x := bnd.Min.X; x < bnd.Max.X; x += 2 {
			if isBackground(img, x, y) {
				continue
			}
			r, g, b, _ := img.At(x, y).RGBA()
			l := (0.299*float64(r) + 0.587*float64(g) + 0.114*float64(b)) / 257
			n++
			sum += l
			sum2 += l * l
		}
	}
	if n == 0 {
		return 0
	}
	m := sum / n
	return math.Sqrt(math.Max(sum2/n-m*m, 0))
}

// -cape-hair puts hair on the walking character's head bone: the World
// holds the hair's strands beside the cape and nothing goes non-finite as
// the character walks.
func TestCapeHair(t *testing.T) {
	probes := runScript(t, "2 probe end\n", "-scene", "cape", "-cape-hair", "-frames", "125", "-width", "480", "-height", "270")
	need(t, probes, "end")
	p := probes["end"]
	const cape = 198 // the mannequin's cape particles
	t.Logf("%d particles (cape %d), all finite %v", p.Particles, cape, p.AllFinite)
	if p.Particles < cape+300*2 {
		t.Errorf("%d particles: no hair beside the %d of the cape", p.Particles, cape)
	}
	if !p.AllFinite || p.NonFinite > 0 {
		t.Errorf("non-finite particles (%d resets)", p.NonFinite)
	}
}
