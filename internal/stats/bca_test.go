package stats

import (
	"encoding/json"
	"math"
	"os"
	"testing"

	"github.com/benchtrim/benchtrim/estimate"
)

type bcaCase struct {
	Dist      string    `json:"dist"`
	N         int       `json:"n"`
	Seed      uint64    `json:"seed"`
	X         []float64 `json:"x"`
	Low, High float64
	AHat      float64 `json:"a_hat"`
}

// TestBCaScipy compares BootstrapMeanBCa with scipy.stats.bootstrap(method=
// "BCa") of scipy 1.10.1 (testdata/bca_reference.py, output in
// testdata/bca_reference.json): 36 samples of size 10 to 50 from normal,
// log-normal and exponential distributions; on both sides the bounds are
// averages over 5 independent bootstraps of 200,000 resamples. The
// acceleration is deterministic and must agree to 1e-12; the bounds come
// from different random draws and must agree to within 1 % of the interval
// width (the Monte-Carlo sd of an averaged bound is about 0.1 % of the
// width, 0.7 % for the log-normal sample with an outlier). With the 9,999
// resamples of the duet analysis a single bound's Monte-Carlo sd is about
// 0.7 % of the width for normal data.
func TestBCaScipy(t *testing.T) {
	raw, err := os.ReadFile("testdata/bca_reference.json")
	if err != nil {
		t.Fatal(err)
	}
	var ref struct {
		Resamples   int
		Repetitions int
		Confidence  float64
		Cases       []bcaCase
	}
	if err := json.Unmarshal(raw, &ref); err != nil {
		t.Fatal(err)
	}
	if len(ref.Cases) < 30 {
		t.Fatalf("%d reference cases", len(ref.Cases))
	}
	resamples := ref.Resamples
	opt := estimate.BootstrapOptions{Resamples: resamples, Confidence: ref.Confidence}
	ws := new(Workspace)
	var worst float64
	for _, c := range ref.Cases {
		var lo, hi float64
		for rep := 0; rep < ref.Repetitions; rep++ {
			iv, err := BootstrapMeanBCa(c.X, opt, NewStream(c.Seed, "bca-scipy/"+c.Dist, uint64(100*c.N+rep)), ws)
			if err != nil {
				t.Fatal(err)
			}
			checkClose(t, c.Dist+" a_hat", iv.accel, c.AHat, 1e-12)
			lo += iv.Lower / float64(ref.Repetitions)
			hi += iv.Upper / float64(ref.Repetitions)
		}
		w := c.High - c.Low
		dl, dh := math.Abs(lo-c.Low)/w, math.Abs(hi-c.High)/w
		worst = math.Max(worst, math.Max(dl, dh))
		const tol = 0.01
		if dl > tol || dh > tol {
			t.Errorf("%s n=%d seed=%d: [%.6g, %.6g], scipy [%.6g, %.6g]: differences %.2f%%, %.2f%% of the width",
				c.Dist, c.N, c.Seed, lo, hi, c.Low, c.High, 100*dl, 100*dh)
		}
	}
	t.Logf("largest bound difference: %.3f%% of the interval width (%d cases, B = %d, %d repetitions)", 100*worst, len(ref.Cases), resamples, ref.Repetitions)
}

// TestBCaCoverage checks that 95 % BCa intervals of the mean cover the true
// mean in 93–97 % of seeded repetitions, for normal N(10, 2²) and
// log-normal LN(0, 0.25²) samples of 50 values. With -short there are 400
// repetitions of B = 1,999 (binomial sd 1.1 %), otherwise 2,000 of
// B = 9,999 (sd 0.5 %).
//
// The expected coverage is below 95 % for small n: for normal data the BCa
// interval of the mean is close to x̄ ± z·σ̂/√n with the ML σ̂, whose
// coverage is P(|t_{n−1}| < 1.96·√((n−1)/n)) = 0.942 at n = 50 (0.936 at
// n = 30). Skewed data under-cover more: LN(0, 0.5²) at n = 30 gives about
// 0.91 here and 0.92 ± 0.013 with scipy 1.10.1 (400 repetitions), which is
// why that case is logged, not asserted.
func TestBCaCoverage(t *testing.T) {
	reps, opt := 2000, estimate.BootstrapOptions{Resamples: 9999, Confidence: 0.95}
	if testing.Short() {
		reps, opt.Resamples = 400, 1999
	}
	for _, c := range []struct {
		name   string
		n      int
		draw   func(r *Stream) float64
		mean   float64
		assert bool
	}{
		{"normal", 50, func(r *Stream) float64 { return 10 + 2*newRandFrom(r).NormFloat64() }, 10, true},
		{"lognormal", 50, func(r *Stream) float64 { return math.Exp(0.25 * newRandFrom(r).NormFloat64()) }, math.Exp(0.25 * 0.25 / 2), true},
		{"lognormal σ=0.5 n=30", 30, func(r *Stream) float64 { return math.Exp(0.5 * newRandFrom(r).NormFloat64()) }, math.Exp(0.125), false},
	} {
		data := NewStream(11, "bca-coverage-data/"+c.name, 0)
		x := make([]float64, c.n)
		ws := new(Workspace)
		hit := 0
		for i := 0; i < reps; i++ {
			for j := range x {
				x[j] = c.draw(data)
			}
			iv, err := BootstrapMeanBCa(x, opt, NewStream(11, "bca-coverage/"+c.name, uint64(i)), ws)
			if err != nil {
				t.Fatal(err)
			}
			if iv.Lower <= c.mean && c.mean <= iv.Upper {
				hit++
			}
		}
		cov := float64(hit) / float64(reps)
		t.Logf("%s: coverage %.4f (%d repetitions, B = %d)", c.name, cov, reps, opt.Resamples)
		if c.assert && (cov < 0.93 || cov > 0.97) {
			t.Errorf("%s: coverage %.4f outside [0.93, 0.97]", c.name, cov)
		}
	}
}

// TestBCaEdges: two values give [min, max] (the bootstrap distribution has
// atoms of mass 1/4 at both ends, â = 0 and ẑ0 ≈ 0), constant data and one
// value give NaN bounds (scipy's DegenerateDataWarning), and bad input is
// an error.
func TestBCaEdges(t *testing.T) {
	opt := estimate.BootstrapOptions{Resamples: 9999, Confidence: 0.95}
	iv, err := BootstrapMeanBCa([]float64{-105226682.14285715, 15099764.4}, opt, NewStream(1, "two", 0), nil)
	if err != nil {
		t.Fatal(err)
	}
	if iv.Lower != -105226682.14285715 || iv.Upper != 15099764.4 || math.Abs(iv.accel) > 1e-12 {
		t.Errorf("two values: %+v", iv)
	}
	for _, x := range [][]float64{{3, 3, 3, 3}, {7}} {
		iv, err := BootstrapMeanBCa(x, opt, NewStream(1, "const", 0), nil)
		if err != nil {
			t.Fatal(err)
		}
		if !math.IsNaN(iv.Lower) || !math.IsNaN(iv.Upper) || iv.Estimate != x[0] {
			t.Errorf("%v: %+v, want NaN bounds", x, iv)
		}
	}
	if _, err := BootstrapMeanBCa(nil, opt, NewStream(1, "e", 0), nil); err == nil {
		t.Error("empty sample: no error")
	}
	if _, err := BootstrapMeanBCa([]float64{1, math.NaN()}, opt, NewStream(1, "e", 0), nil); err == nil {
		t.Error("NaN: no error")
	}
}

// TestBCaDeterminism: the same stream gives the same interval, and the
// resampling loop does not allocate with a workspace.
func TestBCaDeterminism(t *testing.T) {
	x := normals(NewStream(1, "data", 0), 20, 50, 3)
	opt := estimate.BootstrapOptions{Resamples: 9999, Confidence: 0.95}
	ws := new(Workspace)
	a, _ := BootstrapMeanBCa(x, opt, NewStream(5, "k", 1), ws)
	b, _ := BootstrapMeanBCa(x, opt, NewStream(5, "k", 1), nil)
	if a != b {
		t.Errorf("%+v != %+v", a, b)
	}
	s := NewStream(5, "k", 1)
	if n := testing.AllocsPerRun(5, func() { BootstrapMeanBCa(x, opt, s, ws) }); n != 0 {
		t.Errorf("%v allocations per call", n)
	}
}
