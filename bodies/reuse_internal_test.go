package bodies

import (
	"github.com/drape3d/drape/internal/vecmath"
	"math"
	"math/rand"
	"testing"

	"github.com/drape3d/drape/verlet3d"
	"github.com/go-gl/mathgl/mgl32"
)

// The contacts a settled cube keeps are the ones generate finds for it
// again, to the tolerance reuse.go claims: the same features, the normal
// within 2·keepMove over the half size (plus rounding), the points within
// 2·keepMove. 100 crates dropped on a floor, some into piles (the
// benchmark's cubes100), looked at in the last substep of every step from
// 0.75 s to 1.5 s, when most have landed.
func TestKeptContactsAreTheFoundOnes(t *testing.T) {
	w, s := floorWorld(t)
	r := rand.New(rand.NewSource(7))
	for i := 0; i < 100; i++ {
		x, z := float32(i%10)-5, float32(i/10)-5
		q := vecmath.QuatAxisAngle(float32(r.Float32()*6.28), vecmath.Normalize(mgl32.Vec3{r.Float32() - 0.5, r.Float32() - 0.5, r.Float32() - 0.5}))
		if _, err := s.AddCube(CubeSettings{Size: 0.4, Mass: 1, Position: mgl32.Vec3{float32(x * 0.7), 0.5 + float32(1.5*r.Float32()), float32(z * 0.7)}, Rotation: q,
			Velocity:        vecmath.Scale(mgl32.Vec3{r.Float32() - 0.5, 0, r.Float32() - 0.5}, 2),
			AngularVelocity: vecmath.Scale(mgl32.Vec3{r.Float32() - 0.5, r.Float32() - 0.5, r.Float32() - 0.5}, 6)}); err != nil {
			t.Fatal(err)
		}
	}
	chk := &keptCheck{s: s, t: t, from: 45}
	w.AddConstraintSet(chk)
	for f := 0; f < 90; f++ {
		w.Step()
	}
	keptCols, keptPairs := chk.cols, chk.pairs
	if keptCols < 10000 || keptPairs < 2000 {
		t.Errorf("compared %d collider and %d pair contacts of settled cubes, want at least 10000 and 2000", keptCols, keptPairs)
	}
	t.Logf("%d collider and %d pair contacts of settled cubes compared", keptCols, keptPairs)
}

// keptCheck compares, right after the System's Prepare in every substep
// from step from on, the contacts every settled cube kept with those
// generate finds for it from the same positions.
type keptCheck struct {
	s           *System
	t           *testing.T
	from        int64
	cols, pairs int
}

func (k *keptCheck) Solve(*verlet3d.World, verlet3d.Substep) {}
func (k *keptCheck) Prepare(w *verlet3d.World, sub verlet3d.Substep) {
	if sub.Step < k.from || sub.Step%3 != 0 {
		return
	}
	const tolN = 2*keepMove/0.2 + 1e-5 // rad
	const tolP = 2*keepMove + 1e-5     // m
	s, t := k.s, k.t
	pos, prev, inv := w.Positions(), w.PrevPositions(), w.InvMasses()
	var kept, found []contact
	for i := range s.cubes {
		cb := &s.cubes[i]
		if !cb.keep.settled || cb.asleep {
			continue
		}
		kept, found = kept[:0], found[:0]
		for _, c := range s.contacts[:s.nRigid] {
			if c.kind == kindCollider && c.ca == int32(i) {
				kept = append(kept, c)
			}
		}
		for ci := range s.colliders {
			s.cubeCollider(int32(i), int32(ci), pos, prev, inv, &found)
		}
		k.cols += len(kept)
		sameContacts(t, "collider", kept, found, tolN, tolP)
		for j := range s.cubes {
			if j == i || !s.cubes[j].keep.settled {
				continue
			}
			kept, found = kept[:0], found[:0]
			for _, c := range s.contacts[:s.nRigid] {
				if c.kind == kindCube && (c.ca == int32(i) && c.cb == int32(j) || c.ca == int32(j) && c.cb == int32(i)) {
					kept = append(kept, c)
				}
			}
			if len(kept) == 0 {
				continue
			}
			s.cubePair(int32(i), int32(j), pos, inv, &found)
			if len(found) > 0 && found[0].ca != kept[0].ca {
				found = found[:0]
				s.cubePair(int32(j), int32(i), pos, inv, &found)
			}
			k.pairs += len(kept)
			sameContacts(t, "pair", kept, found, tolN, tolP)
		}
	}
}

// sameContacts checks that the kept contacts are the found ones: the same
// features in the same order, the normal and the points within tolerance.
func sameContacts(t *testing.T, what string, kept, found []contact, tolN, tolP float64) {
	t.Helper()
	if len(kept) != len(found) {
		t.Fatalf("%s: a settled cube kept %d contacts, generate finds %d", what, len(kept), len(found))
	}
	for k := range kept {
		a, b := &kept[k], &found[k]
		if a.key() != b.key() {
			t.Fatalf("%s contact %d: kept features %v/%v, found %v/%v", what, k, a.a, a.b, b.a, b.b)
		}
		if d := float64(vecmath.Len(a.n.Sub(b.n))); d > tolN {
			t.Errorf("%s contact %d: normal %v kept, %v found (%.2g rad apart, want < %.2g)", what, k, a.n, b.n, d, tolN)
		}
		if a.nb == 0 {
			if d := float64(vecmath.Len(a.fixed.Sub(b.fixed))); d > tolP {
				t.Errorf("%s contact %d: collider point %v kept, %v found (%.2g m apart, want < %.2g)", what, k, a.fixed, b.fixed, d, tolP)
			}
		}
		for i := 0; i < int(a.na); i++ {
			if d := math.Abs(float64(a.wa[i] - b.wa[i])); d > tolP/0.2 {
				t.Errorf("%s contact %d: weight %g kept, %g found", what, k, a.wa[i], b.wa[i])
			}
		}
		for i := 0; i < int(a.nb); i++ {
			if d := math.Abs(float64(a.wb[i] - b.wb[i])); d > tolP/0.2 {
				t.Errorf("%s contact %d: weight %g kept, %g found", what, k, a.wb[i], b.wb[i])
			}
		}
	}
}

// Contacts kept from before a change of the System's Settings are found
// afresh: the friction between two stacked crates at rest follows a new
// Settings.Friction at once.
func TestNewSettingsReachKeptContacts(t *testing.T) {
	w, s := floorWorld(t)
	for i := 0; i < 2; i++ {
		if _, err := s.AddCube(CubeSettings{Size: 0.4, Mass: 1, Position: mgl32.Vec3{0, 0.2 + float32(0.4*float32(i)), 0}}); err != nil {
			t.Fatal(err)
		}
	}
	for i := 0; i < 30; i++ {
		w.Step()
	}
	if !s.cubes[0].keep.settled || !s.cubes[1].keep.settled {
		t.Fatal("the stacked crates do not keep their contacts at rest")
	}
	set := s.Settings()
	set.Friction = 0.2
	if err := s.SetSettings(set); err != nil {
		t.Fatal(err)
	}
	w.Step()
	n := 0
	for _, c := range s.contacts[:s.nRigid] {
		if c.kind == kindCube {
			n++
			if c.mu != 0.2 {
				t.Errorf("a contact between the crates has friction %g after Settings.Friction became 0.2", c.mu)
			}
		}
	}
	if n == 0 {
		t.Fatal("no contact between the stacked crates")
	}
}

// floorWorld returns a World at DefaultConfig, closed when the test ends,
// with a ParticleEngine System on it (whose contact reuse these tests
// check) and a floor at y = 0 (friction 0.6).
func floorWorld(t *testing.T) (*verlet3d.World, *System) {
	t.Helper()
	w, err := verlet3d.NewWorld(verlet3d.DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(w.Close)
	set := DefaultSettings()
	set.Engine = ParticleEngine
	s, err := NewSystem(w, set)
	if err != nil {
		t.Fatal(err)
	}
	floor, _ := verlet3d.NewPlane(mgl32.Vec3{}, mgl32.Vec3{0, 1, 0})
	if err := s.AddCollider(floor, verlet3d.ContactSettings{Friction: 0.6}); err != nil {
		t.Fatal(err)
	}
	return w, s
}
