package main

import (
	"math"

	"github.com/go-gl/mathgl/mgl32"
)

// The key-driven head targets stay in these ranges, radians.
const (
	hairMaxYaw   = 1.3
	hairMinPitch = -0.5
	hairMaxPitch = 0.6
)

type gait int

const (
	gaitStand gait = iota
	gaitWalk
	gaitRun
	numGaits
)

// gaits: speed in m/s, and the head's bob, peak to peak in meters, and its
// frequency in Hz (one bob per footfall).
var gaits = [numGaits]struct {
	name       string
	speed      float64
	bob, bobHz float64
}{
	{"standing", 0, 0, 0},
	{"walking", 1.1, 0.025, 2},
	{"running", 4, 0.06, 3},
}

// hairWalkRadius is the radius of the circle the character walks, m. It
// starts at the origin facing +Z and turns left (towards +X).
const hairWalkRadius = 3.0

// hairMotion is the character of the hair scene: where it stands on its
// walking circle, how fast it goes, and the head's turn and nod. It knows
// nothing of g3n or the World; step advances it by one physics step.
type hairMotion struct {
	// Head turn (yaw) and nod (pitch) relative to the body, radians, and
	// their rates; each follows its key target with a critically damped
	// spring.
	yaw, pitch, yawV, pitchV float64
	yawT, pitchT             float64
	gesture                  string
	gestureT                 float64
	turnAt                   float64 // time at which the -hair-turn gesture starts, or -1
	time                     float64 // s, advanced by step

	gait  gait
	speed float64 // m/s, easing toward the gait's speed
	dist  float64 // m walked along the circle
	phase float64 // bob phase, radians
}

func newHairMotion() hairMotion { return hairMotion{turnAt: -1} }

func (m *hairMotion) startGesture(g string) { m.gesture, m.gestureT = g, 0 }

// hairSpringRate is the head spring's rate, 1/s: it settles in about
// 3/rate = 0.45 s.
const hairSpringRate = 1 / 0.15

// critical moves x (with rate v) toward target as a critically damped
// spring of rate k does over h seconds. It uses the spring's exact
// solution, x(t) = target + (e + (v + k e) t) e^(-kt) with e = x - target,
// so no step length can make it overshoot or diverge.
func critical(x, v *float64, target, k, h float64) {
	e := *x - target
	c := *v + k*e
	ex := math.Exp(-k * h)
	*x = target + (e+c*h)*ex
	*v = (*v - k*c*h) * ex
}

// step advances the motion by one physics step of h seconds.
func (m *hairMotion) step(h float64) {
	if !(h > 0) {
		return
	}
	m.time += h
	if m.turnAt >= 0 && m.time >= m.turnAt {
		m.turnAt = -1
		m.startGesture("turn")
	}
	critical(&m.yaw, &m.yawV, m.yawT, hairSpringRate, h)
	critical(&m.pitch, &m.pitchV, m.pitchT, hairSpringRate, h)
	if m.gesture != "" {
		m.gestureT += h
		if m.gestureT >= 1.2 {
			m.gesture = ""
		}
	}
	// Speed eases toward the gait's in about a second (rate 3/s), the
	// bob's frequency and height follow the speed.
	target := gaits[m.gait].speed
	m.speed = target + (m.speed-target)*math.Exp(-3*h)
	if m.gait == gaitStand && m.speed < 0.01 {
		m.speed = 0
	}
	m.dist += m.speed * h
	_, hz := m.bob()
	// One bob per footfall, two footfalls per stride: the phase runs
	// over two bobs.
	m.phase = math.Mod(m.phase+2*math.Pi*hz*h, 4*math.Pi)
}

// bob returns the head's bob, peak to peak (m), and frequency (Hz) at the
// current speed, interpolated between the gaits.
func (m *hairMotion) bob() (height, hz float64) {
	w, r := gaits[gaitWalk], gaits[gaitRun]
	switch v := m.speed; {
	case v <= 0:
		return 0, 0
	case v <= w.speed:
		return w.bob * v / w.speed, w.bobHz
	default:
		k := math.Min((v-w.speed)/(r.speed-w.speed), 1.5)
		return w.bob + k*(r.bob-w.bob), w.bobHz + k*(r.bobHz-w.bobHz)
	}
}

// hairPose is where the motion puts the body and the head.
type hairPose struct {
	pos     mgl32.Vec3 // body origin on the floor, raised by the bob
	bodyYaw float64    // heading, radians about +Y (0 faces +Z)
	bodyRot mgl32.Quat
	head    mgl32.Vec3 // head center, world
	headRot mgl32.Quat // head frame to world
	yaw     float64    // head yaw relative to the body, with gestures
	stride  float64    // leg swing, radians (left leg forward for > 0)
}

// at maps a point of the body's frame to world space.
func (p hairPose) at(local mgl32.Vec3) mgl32.Vec3 { return p.pos.Add(p.bodyRot.Rotate(local)) }

// pose returns the current pose: the body on its circle, the head on the
// body turned by the springs and the gesture under way.
func (m *hairMotion) pose() hairPose {
	phi := m.dist / hairWalkRadius
	// The circle's center is at (R, 0, 0): at dist 0 the body is at the
	// origin heading +Z, and heading = phi.
	x := hairWalkRadius * (1 - math.Cos(phi))
	z := hairWalkRadius * math.Sin(phi)
	height, _ := m.bob()
	y := height / 2 * (1 - math.Cos(m.phase))
	p := hairPose{pos: mgl32.Vec3{float32(x), float32(y), float32(z)}, bodyYaw: math.Mod(phi, 2*math.Pi)}
	p.bodyRot = mgl32.QuatRotate(float32(p.bodyYaw), mgl32.Vec3{0, 1, 0})
	p.stride = math.Min(0.6, 0.3*math.Sqrt(m.speed)) * math.Sin(m.phase/2)

	yaw, pitch := m.yaw, m.pitch
	if t := m.gestureT; m.gesture != "" {
		switch m.gesture {
		case "shake": // "no": 3 quick swings, fading
			yaw += 0.45 * math.Sin(2*math.Pi*2.5*t) * (1 - t/1.2)
		case "nod": // "yes"
			pitch += 0.3 * math.Sin(2*math.Pi*2*t) * (1 - t/1.2)
		case "turn": // a fast look over the shoulder and back, with a nod
			e := math.Sin(math.Pi * t / 1.2)
			yaw += 1.2 * e * math.Sin(math.Pi*t/1.2*2)
			pitch += 0.3 * e
		}
	}
	p.yaw = yaw
	p.head = p.at(hairHeadCenter)
	p.headRot = p.bodyRot.Mul(mgl32.QuatRotate(float32(yaw), mgl32.Vec3{0, 1, 0})).
		Mul(mgl32.QuatRotate(float32(pitch), mgl32.Vec3{1, 0, 0}))
	return p
}
