package steady

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/benchtrim/benchtrim/internal/stats"
)

// referenceSeries is series() of testdata/outliers_reference.py.
func referenceSeries(n int) []float64 {
	x := make([]float64, n)
	for i := range x {
		t := float64(i)
		x[i] = 100 + 2*math.Sin(0.7*t) + 0.5*math.Cos(1.3*t) + 50*math.Exp(-t/8)
	}
	for _, s := range []struct {
		k int
		f float64
	}{{3, 3.0}, {57, 1.2}, {240, 1.5}, {241, 1.5}, {400, 0.7}, {598, 2.0}} {
		if s.k < n {
			x[s.k] *= s.f
		}
	}
	return x
}

func TestFindOutliersReference(t *testing.T) {
	// Expected indices from testdata/outliers_reference.py (numpy 1.24.2,
	// Debian python3), an emulation of Traini et al.'s filter_outliers.py.
	// Exact: the flagged points lie far outside their bands.
	x := referenceSeries(600)
	for _, tc := range []struct {
		window, skip int
		want         []int
	}{
		{200, 18, []int{57, 240, 241, 400, 598}},
		{200, 0, []int{3, 57, 240, 241, 400, 598}},
		// With 50-point windows p99 interpolates halfway to the window's
		// maximum, so a lone spike widens its own band and hides.
		{50, 5, nil},
	} {
		opt := defaultOutlierOptions
		opt.Window = tc.window
		got := findOutliers(x, opt, tc.skip)
		if !slices.Equal(got, tc.want) {
			t.Errorf("window %d skip %d: outliers %v, want %v", tc.window, tc.skip, got, tc.want)
		}
	}
}

// naiveOutliers is the definition of findOutliers, window by window.
func naiveOutliers(x []float64, opt OutlierOptions, skip int) []int {
	flag := make([]bool, len(x))
	for s := skip; s+opt.Window <= len(x); s++ {
		w := slices.Clone(x[s : s+opt.Window])
		slices.Sort(w)
		med := stats.QuantileSorted(w, 0.5, nil)
		band := opt.Width * (stats.QuantileSorted(w, opt.HighQuantile, nil) - stats.QuantileSorted(w, opt.LowQuantile, nil))
		for i := s; i < s+opt.Window; i++ {
			if x[i] > med+band || x[i] < med-band {
				flag[i] = true
			}
		}
	}
	var out []int
	for i, f := range flag {
		if f {
			out = append(out, i)
		}
	}
	return out
}

func TestFindOutliersMatchesDefinition(t *testing.T) {
	// Heavy-tailed seeded data with ties (values rounded to a grid) so that
	// the sliding sorted window and the deques meet duplicates and both
	// directions of outliers.
	r := rand.New(rand.NewPCG(7, 11))
	for trial := 0; trial < 60; trial++ {
		n := 20 + r.IntN(400)
		x := make([]float64, n)
		for i := range x {
			v := 100 + 3*r.NormFloat64()
			switch u := r.Float64(); {
			case u < 0.03:
				v *= 1 + 5*r.Float64()
			case u < 0.05:
				v *= 0.2
			}
			x[i] = math.Round(v*4) / 4
		}
		opt := defaultOutlierOptions
		opt.Window = 3 + r.IntN(60)
		opt.Width = []float64{0.5, 1, 3}[r.IntN(3)]
		skip := r.IntN(30)
		got, want := findOutliers(x, opt, skip), naiveOutliers(x, opt, skip)
		if !slices.Equal(got, want) {
			t.Fatalf("trial %d (n %d window %d width %v skip %d): got %v, want %v", trial, n, opt.Window, opt.Width, skip, got, want)
		}
	}
}

func TestFindOutliersEdges(t *testing.T) {
	x := referenceSeries(150)
	opt := defaultOutlierOptions
	if got := findOutliers(x, opt, 0); got != nil {
		t.Errorf("150 points, window 200: got %v, want none", got)
	}
	if got := findOutliers(referenceSeries(600)[:210], opt, 18); got != nil {
		t.Errorf("192 points after skip, window 200: got %v, want none", got)
	}
	opt.Disabled = true
	if got := findOutliers(referenceSeries(600), opt, 0); got != nil {
		t.Errorf("disabled: got %v", got)
	}
	// x is not modified.
	y := referenceSeries(600)
	findOutliers(y, defaultOutlierOptions, 0)
	if !slices.Equal(y, referenceSeries(600)) {
		t.Error("FindOutliers modified its input")
	}
}

func TestTrainiSkip(t *testing.T) {
	// ceil(200/log(1+ops)): log(1+1e5) = 11.5129 → 17.37 → 18;
	// log(2) = 0.6931 → 288.54 → 289; log(1+1000) = 6.9088 → 28.95 → 29.
	for _, tc := range []struct {
		ops  float64
		want int
	}{{1e5, 18}, {1, 289}, {0, 289}, {0.3, 289}, {1000, 29}, {999.2, 29}} {
		if got := trainiSkip(200, tc.ops); got != tc.want {
			t.Errorf("TrainiSkip(200, %v) = %d, want %d", tc.ops, got, tc.want)
		}
	}
}
