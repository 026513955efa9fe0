package verlet3d_test

import (
	"flag"
	"math"
	"testing"

	"github.com/drape3d/drape/verlet3d"
)

var survey = flag.Bool("survey", false, "print the defaults survey (go test ./verlet3d -run Survey -survey -v)")

// TestSurvey prints the measurements that chose DefaultConfig's substeps
// and iterations: the section 6 references for each split of a frame into
// substeps x iterations, at Damping 0. The cost side is
// BenchmarkStepCloth64Split. It only runs with -survey.
func TestSurvey(t *testing.T) {
	if !*survey {
		t.Skip("run with -survey")
	}
	for _, c := range [][2]int{{2, 10}, {4, 5}, {5, 4}, {8, 2}, {10, 1}, {10, 2}, {16, 1}, {20, 1}} {
		cfg := verlet3d.DefaultConfig()
		cfg.Damping = 0
		cfg.Substeps, cfg.Iterations = c[0], c[1]
		loss := pendulumLoss(cfg, 20*math.Pi/180)
		sag, strain := catenary(cfg)
		fall := freeFall(cfg, 1.5)
		w, _ := verlet3d.NewWorld(cfg)
		buildCloth(t, w, 64, 0.02)
		for i := 0; i < 120; i++ {
			w.Step()
		}
		cs := w.MaxLinkStrain()
		w.Close()
		t.Logf("%2dx%-2d pendulum %.2f%%/swing  chain sag %.4f m strain %.3f%%  fall error %+.2f%%  cloth64 strain %.2f%%",
			c[0], c[1], float64(loss*100), sag, float64(strain*100), float64((fall/11.03625-1)*100), float32(cs*100))
	}
}
