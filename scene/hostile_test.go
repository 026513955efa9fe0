package scene

import (
	"math"
	"strings"
	"testing"

	"github.com/drape3d/drape/assets/mannequin"
	"github.com/drape3d/drape/hair"
	"github.com/drape3d/drape/internal/vecmath"
	"github.com/drape3d/drape/verlet3d"
	"github.com/g3n/engine/core"
	"github.com/g3n/engine/math32"
	"github.com/go-gl/mathgl/mgl32"
)

var hostileNaN = float32(math.NaN())

// badFrameCase is one bad animation frame: it corrupts a node and returns
// a function that puts it back.
type badFrameCase struct {
	name string
	node string
	edit func(n *core.Node)
	want string // in BadPose; "" for a frame that is taken
}

func moveNode(x, y, z float32) func(*core.Node) {
	return func(n *core.Node) { n.SetPosition(x, y, z) }
}

// allFinite fails on a non-finite particle or a reset by the World's guard
// since resets.
func allFinite(t *testing.T, w *verlet3d.World, resets int, when string) {
	t.Helper()
	for i, x := range w.Positions() {
		if !vecmath.Finite(x) {
			t.Fatalf("%s: particle %d at %v", when, i, x)
		}
	}
	if n := w.Stats().NonFiniteResets; n != resets {
		t.Errorf("%s: NonFiniteResets went from %d to %d", when, resets, n)
	}
}

// One bad frame of the character's animation (a NaN key, a hips bone
// thrown to 1e30 m, a bone scaled through zero) reaching Cape.Sync is not
// taken: the cape and its body colliders hold their last good pose,
// NumBadPoses counts the frame and BadPose names the setting and the node.
// No panic, no non-finite particle, no reset, no pop, and the walk goes on
// without a jump.
func TestCapeSyncHoldsBadFrames(t *testing.T) {
	cases := []badFrameCase{
		{"NaN hips", mannequin.NodePelvis, moveNode(0, hostileNaN, 0), `scene: Cape.Sync: CapeSettings.Anchors[0]: node "shoulder.R" is at [NaN`},
		{"hips at 1e30", mannequin.NodePelvis, moveNode(1e30, 1, 0), `want a finite pose within ±1e+09 m (verlet3d.MaxCoordinate)`},
		{"root at 1e30", mannequin.NodeRoot, moveNode(0, 0, 1e30), `CapeSettings.Anchors[0]`},
		{"neck scaled through zero", mannequin.NodeNeck, func(n *core.Node) { n.SetScale(0, 0, 0) },
			`CapeSettings.Anchors[1]: node "neck" axis 0 = [0 0 0], want a finite axis, not collapsed`},
		{"NaN thigh", "thigh.L", moveNode(hostileNaN, 0, 0), `CapeSettings.Body[`},
		// A hand scaled to zero collapses its collider to a point: a
		// pose, taken.
		{"hand scaled to zero", "hand.L", func(n *core.Node) { n.SetScale(0, 0, 0) }, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w, m, cp := mannequinCape(t, func(s *CapeSettings) { s.MaxLag = 0.5 })
			for range 60 {
				frame(w, m, cp, nil)
			}
			resets, jumps := w.Stats().NonFiniteResets, cp.Teleports
			before := append([]mgl32.Vec3(nil), w.Positions()...)
			n, err := m.Node(c.node)
			if err != nil {
				t.Fatal(err)
			}
			pos, scale := n.Position(), n.Scale()
			m.Update(1.0 / 60)
			c.edit(n)
			m.Root.UpdateMatrixWorld()
			cp.Sync()
			w.Step()
			n.SetPositionVec(&pos)
			n.SetScaleVec(&scale)

			wantBad := 0
			if c.want != "" {
				wantBad = 1
			}
			if got := cp.NumBadPoses(); got != wantBad {
				t.Errorf("NumBadPoses = %d, want %d", got, wantBad)
			}
			if err := cp.BadPose(); c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)) {
				t.Errorf("BadPose() = %v, want it to contain %q", err, c.want)
			} else if c.want == "" && err != nil {
				t.Errorf("BadPose() = %v, want nil", err)
			}
			allFinite(t, w, resets, "after the bad frame")
			var pop float32
			for i, x := range w.Positions() {
				pop = max(pop, vecmath.Len(x.Sub(before[i])))
			}
			if pop > 0.1 {
				t.Errorf("a particle moved %.3g m in the bad frame's step, want a held cape", pop)
			}
			for range 60 {
				frame(w, m, cp, nil)
			}
			allFinite(t, w, resets, "after the walk went on")
			if cp.Teleports != jumps {
				t.Errorf("Teleports went from %d to %d: the walk did not go on from the held pose", jumps, cp.Teleports)
			}
			if e := cp.PinError(); e > 1e-3 {
				t.Errorf("PinError = %.3g m after the walk went on", e)
			}
		})
	}
}

// Follower.Sync holds a pin or collider whose node's pose is out of range
// at its last good pose and moves the others; NumBadPoses counts the call.
func TestFollowerSyncHoldsBadFrames(t *testing.T) {
	inf := float32(math.Inf(1))
	cases := []struct {
		name    string
		bad     int // 0 the pin's node, 1 the sphere's, 2 the capsule's
		x, y, z float32
		want    string
	}{
		{"NaN pin node", 0, hostileNaN, 1, 0, `scene: Follower.Sync: pin 0 (particle 0, node "pin"): target [NaN`},
		{"pin node at 1e30", 0, 0, 1e30, 0, `target [0 1e+30 0], want finite meters within ±1e+09 (verlet3d.MaxCoordinate)`},
		{"infinite sphere node", 1, 0, 1, inf, `sphere 0 (node "ball"): center [0 1 +Inf]`},
		{"capsule node at -2e9", 2, -2e9, 1, 0, `capsule 0 (node "limb"): ends [-2e+09`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w := newTestWorld(t, nil)
			t.Cleanup(w.Close)
			var nodes [3]*core.Node
			for i, name := range []string{"pin", "ball", "limb"} {
				nodes[i] = core.NewNode()
				nodes[i].SetName(name)
				nodes[i].SetPosition(float32(i), 1, 0)
				nodes[i].UpdateMatrixWorld()
			}
			p, err := w.AddParticle(mgl32.Vec3{0, 1, 0}, 0)
			if err != nil {
				t.Fatal(err)
			}
			free, err := w.AddParticle(mgl32.Vec3{1, 0.5, 0}, 1)
			if err != nil {
				t.Fatal(err)
			}
			f := NewFollower(w)
			if err := f.Pin(p, Anchor{Node: nodes[0]}); err != nil {
				t.Fatal(err)
			}
			sph, err := f.AddSphere(nodes[1], math32.Vector3{}, 0.1, verlet3d.ContactSettings{})
			if err != nil {
				t.Fatal(err)
			}
			cap, err := f.AddCapsule(nodes[2], math32.Vector3{}, math32.Vector3{Y: 0.5}, 0.05, verlet3d.ContactSettings{})
			if err != nil {
				t.Fatal(err)
			}
			_ = free
			move := func(dy float32) {
				for i, n := range nodes {
					n.SetPosition(float32(i), 1+dy, 0)
					n.UpdateMatrixWorld()
				}
			}
			for i := range 10 {
				move(float32(i) / 100)
				f.Sync()
				w.Step()
			}
			resets := w.Stats().NonFiniteResets
			heldPin, heldSphere, heldCap := w.Position(p), sph.Center, cap.A
			move(0.1)
			nodes[c.bad].SetPosition(c.x, c.y, c.z)
			nodes[c.bad].UpdateMatrixWorld()
			f.Sync()
			w.Step()
			if f.NumBadPoses() != 1 {
				t.Errorf("NumBadPoses = %d, want 1", f.NumBadPoses())
			}
			if err := f.BadPose(); err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("BadPose() = %v, want it to contain %q", err, c.want)
			}
			// The bad one holds, the others move on.
			for i, held := range []bool{w.Position(p) == heldPin, sph.Center == heldSphere, cap.A == heldCap} {
				if held != (i == c.bad) {
					t.Errorf("part %d held = %v, want %v", i, held, i == c.bad)
				}
			}
			allFinite(t, w, resets, "after the bad frame")
			for i := 11; i < 30; i++ {
				move(float32(i) / 100)
				f.Sync()
				w.Step()
			}
			allFinite(t, w, resets, "after good frames")
			if f.NumBadPoses() != 1 {
				t.Errorf("NumBadPoses = %d after good frames, want 1", f.NumBadPoses())
			}
			if e := f.PinError(); e > 1e-4 {
				t.Errorf("PinError = %.3g m after good frames", e)
			}
		})
	}
}

// HeadFollower.Sync and Mount.Update hold their last good pose on a bad
// frame of the head bone and count it.
func TestHeadFollowerAndMountHoldBadFrames(t *testing.T) {
	cases := []struct {
		name string
		edit func(*core.Node)
		want string
	}{
		{"NaN head", moveNode(hostileNaN, 0, 0), `node "head": origin [NaN`},
		{"head at 1e30", moveNode(0, 1e30, 0), `origin [0 1e+30 1.7], want finite meters within ±1e+09 (verlet3d.MaxCoordinate)`},
		{"head scaled through zero", func(n *core.Node) { n.SetScale(0, 1, 1) }, `axis 0 = [0 0 0]`},
		{"head 1e5 m away", moveNode(1e5, 0, 0), `hair: SetHead: Head.Center`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w, err := verlet3d.NewWorld(hair.WorldConfig())
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(w.Close)
			s := hair.DefaultSettings()
			s.Strands = 100
			h, err := hair.New(w, hair.DefaultHead(), s)
			if err != nil {
				t.Fatal(err)
			}
			root := core.NewNode()
			root.SetPosition(0, 0, 1.7)
			bone := core.NewNode()
			bone.SetName("head")
			root.Add(bone)
			root.UpdateMatrixWorld()
			f, err := FollowHead(h, bone, mgl32.Vec3{0, 0.08, 0}, mgl32.QuatIdent())
			if err != nil {
				t.Fatal(err)
			}
			mount := NewMount(root, bone, mgl32.QuatIdent())
			step := func(i int) {
				bone.SetRotationY(float32(0.3 * math.Sin(float64(i)/10)))
				root.UpdateMatrixWorld()
				f.Sync()
				mount.Update()
				w.Step()
			}
			for i := range 30 {
				step(i)
			}
			resets, head, mounted := w.Stats().NonFiniteResets, h.Head(), mount.Node.MatrixWorld()
			c.edit(bone)
			root.UpdateMatrixWorld()
			f.Sync()
			mount.Update()
			w.Step()
			if f.NumBadPoses() != 1 {
				t.Errorf("HeadFollower.NumBadPoses = %d, want 1", f.NumBadPoses())
			}
			if err := f.BadPose(); err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "HeadFollower.Sync") {
				t.Errorf("HeadFollower.BadPose() = %v, want it to name HeadFollower.Sync and contain %q", err, c.want)
			}
			if h.Head() != head {
				t.Errorf("head moved to %+v, want %+v held", h.Head(), head)
			}
			// The hair package's own limit is beyond a mount's concern.
			wantMount := 1
			if strings.HasPrefix(c.want, "hair:") {
				wantMount = 0
			}
			if mount.NumBadPoses() != wantMount {
				t.Errorf("Mount.NumBadPoses = %d, want %d", mount.NumBadPoses(), wantMount)
			}
			if wantMount == 1 {
				if err := mount.BadPose(); err == nil || !strings.Contains(err.Error(), "Mount.Update: bone \"head\"") {
					t.Errorf("Mount.BadPose() = %v, want it to name Mount.Update and the bone", err)
				}
				if got := mount.Node.MatrixWorld(); got != mounted {
					t.Errorf("mount moved to %v, want %v held", got, mounted)
				}
			}
			allFinite(t, w, resets, "after the bad frame")
			bone.SetPosition(0, 0, 0)
			bone.SetScale(1, 1, 1)
			for i := 31; i < 60; i++ {
				step(i)
			}
			allFinite(t, w, resets, "after good frames")
			if n := h.NumRecovered(); n != 0 {
				t.Errorf("NumRecovered = %d, want 0", n)
			}
		})
	}
}
