package main

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/g3n/engine/core"
)

// In the ragdoll scene, tumbling onto the steps, D, L and K show a dot per
// World particle, a line per unbroken link and a line and a dot per
// contact of World.Contacts that frame, drawn over the scene in their own
// colors; pressed again they hide everything. The HUD lists the keys.
func TestParticleLinkContactViews(t *testing.T) {
	dir := t.TempDir()
	shotOn, shotOff := filepath.Join(dir, "on.png"), filepath.Join(dir, "off.png")
	script := fmt.Sprintf(`1.00 probe before
1.02 key D
1.04 key L
1.06 key K
1.50 shot %s
1.50 probe on
1.52 key D
1.54 key L
1.56 key K
1.60 shot %s
1.60 probe off
`, shotOn, shotOff)
	probes := runScript(t, script, "-scene", "ragdoll", "-frames", "100")
	need(t, probes, "before", "on", "off")

	views := func(p probeReport) [5]int {
		return [...]int{p.Dots, p.PinnedDots, p.LinkSegments, p.ContactSegments, p.ContactDots}
	}
	for _, l := range []string{"before", "off"} {
		if got := views(probes[l]); got != [5]int{} {
			t.Errorf("%s: dots, pinned dots, link lines, contact lines, contact dots = %v, want none (views off)", l, got)
		}
	}
	on := probes["on"]
	t.Logf("on: %d particles, %d links (%d broken), %d contacts; views %v", on.Particles, on.Links, on.Broken, on.WorldContacts, views(on))
	if on.Particles == 0 || on.Dots != on.Particles {
		t.Errorf("%d dots, want one per World particle (%d)", on.Dots, on.Particles)
	}
	if on.Broken != 0 || on.LinkSegments != on.Links {
		t.Errorf("%d link lines, want one per unbroken link (%d links, %d broken)", on.LinkSegments, on.Links, on.Broken)
	}
	if on.WorldContacts == 0 || on.ContactSegments != on.WorldContacts || on.ContactDots != on.WorldContacts {
		t.Errorf("%d contact lines and %d dots, want one each per contact of World.Contacts (%d, and more than 0: he lies on the steps)",
			on.ContactSegments, on.ContactDots, on.WorldContacts)
	}
	for _, k := range []string{"D dots", "L links", "K contacts"} {
		if !strings.Contains(on.HUD, k) {
			t.Errorf("the HUD's key help lacks %q:\n%s", k, on.HUD)
		}
	}

	// On screen: the dots' and contacts' exact colors appear with the
	// views on, not without them.
	o := newOverlays(core.NewNode())
	free, contact := colorOf(o.freeDots.color), colorOf(o.contDots.color)
	count := func(file string) (int, int) {
		img := loadPNG(t, file)
		is := func(r, g, b uint8, c [3]uint8) bool { return r == c[0] && g == c[1] && b == c[2] }
		return countPixels(img, img.Bounds(), func(r, g, b uint8) bool { return is(r, g, b, [3]uint8{free.R, free.G, free.B}) }),
			countPixels(img, img.Bounds(), func(r, g, b uint8) bool { return is(r, g, b, [3]uint8{contact.R, contact.G, contact.B}) })
	}
	freeOn, contactOn := count(shotOn)
	freeOff, contactOff := count(shotOff)
	t.Logf("dot-colored pixels %d on, %d off; contact-colored %d on, %d off", freeOn, freeOff, contactOn, contactOff)
	if freeOn-freeOff < 2*on.Dots {
		t.Errorf("%d more particle-dot pixels with the views on, want at least %d (2 per dot)", freeOn-freeOff, 2*on.Dots)
	}
	if contactOn-contactOff < 2*on.WorldContacts {
		t.Errorf("%d more contact pixels with the views on, want at least %d (2 per contact)", contactOn-contactOff, 2*on.WorldContacts)
	}
}

// The key help wraps before keyHelpWidth characters, so that a scene with
// many keys (showcase) does not run under the settings panel; it keeps
// every key in order.
func TestKeyHelpWraps(t *testing.T) {
	d := &Demo{}
	var want []string
	for i := 0; i < 30; i++ {
		h := fmt.Sprintf("%c key %d", 'A'+i%26, i)
		if i%7 == 0 {
			h = "←/→ turn"
		}
		d.OnKey(0, h, func() {})
		want = append(want, h)
	}
	d.OnKey(0, "", func() {}) // no help: not shown
	help := d.keyHelp()
	lines := strings.Split(help, "\n")
	keys := lines[:len(lines)-1] // the last line is the mouse's
	if len(keys) < 2 {
		t.Fatalf("key help of 30 keys on %d line(s), want it wrapped:\n%s", len(keys), help)
	}
	var got []string
	for _, l := range keys {
		if n := utf8.RuneCountInString(l); n > keyHelpWidth {
			t.Errorf("a key help line of %d characters, want at most %d: %q", n, keyHelpWidth, l)
		}
		got = append(got, strings.Split(l, "  ")...)
	}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("key help lists %q, want %q", got, want)
	}
}
