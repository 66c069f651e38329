package compare

import (
	"math"
	"strings"
	"testing"

	"github.com/benchtrim/benchtrim/internal/stats"
	"github.com/benchtrim/benchtrim/synth"
	"github.com/benchtrim/benchtrim/table"
)

// TestAAFalsePositiveRateNearAlpha checks the property STYLE.md asks for:
// on seeded data without any change, the A/A false-positive rate is near
// the nominal level. 200 benchmarks × 30 forks × 10 iterations, split by
// fork 15+15, 95 % intervals and α = 0.05 (so that 200 comparisons give
// about 10 expected false positives; the binomial sd is then 1.5 points).
//
// Expected rates: with between-fork variation (ForkSD 3 %, the dominant
// term) the percentile interval of a 15-unit bootstrap is slightly narrow
// (its variance is (n−1)/n of the plug-in one and the tails are t-like),
// which puts the expected rate near 6–7 %, so the interval's rate must lie
// in [α/5, 2.5·α]. The U test on iteration means treats the 150 iterations
// of a half as independent, which they are not when forks differ: its rate
// is far above α there (that is why the verdict rests on the interval).
// Without fork effects (ForkSD 0) the iterations are independent and the U
// test's rate must lie in [α/5, 2·α]; the interval, which then counts the
// iteration noise at both levels, is conservative (at most 2.5·α).
func TestAAFalsePositiveRateNearAlpha(t *testing.T) {
	const alpha = 0.05
	opt := aaOptions()
	opt.Bootstrap.Resamples = 1000
	opt.Bootstrap.Confidence = 1 - alpha
	opt.Alpha = alpha
	opt.Split = table.LevelFork
	for _, tc := range []struct {
		name             string
		forkSD           float64
		ciLo, ciHi       float64
		uLo, uHi         float64
		wantUInflated    bool
		wantCIConservant bool
	}{
		{name: "fork effects", forkSD: 0.03, ciLo: alpha / 5, ciHi: 2.5 * alpha, wantUInflated: true},
		{name: "independent iterations", forkSD: 0, ciLo: 0, ciHi: 2.5 * alpha, uLo: alpha / 5, uHi: 2 * alpha},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := flatConfig(200, 30, 10, 21)
			c.ForkSD = tc.forkSD
			rep, err := aaSeries(readSuite(t, suite(t, c), synth.FormatJMH, "aa"), opt)
			if err != nil {
				t.Fatal(err)
			}
			a := rep.rates()
			if a.comparisons != 200 || a.failed != 0 || len(rep.skipped) != 0 {
				t.Fatalf("rates %+v, %d skipped", a, len(rep.skipped))
			}
			t.Logf("CI rate %.3f, U rate %.3f (nominal %.2f)", a.ciRate, a.uRate, alpha)
			if a.ciRate < tc.ciLo || a.ciRate > tc.ciHi {
				t.Errorf("interval false-positive rate %.3f outside [%.3f, %.3f]", a.ciRate, tc.ciLo, tc.ciHi)
			}
			if tc.wantUInflated {
				if a.uRate < 4*alpha {
					t.Errorf("U test rate %.3f with fork effects; want well above α (iteration means are not independent)", a.uRate)
				}
			} else if a.uRate < tc.uLo || a.uRate > tc.uHi {
				t.Errorf("U test false-positive rate %.3f outside [%.3f, %.3f]", a.uRate, tc.uLo, tc.uHi)
			}
		})
	}
}

func TestAASplitFollowsTheDocumentedStream(t *testing.T) {
	// Fork f holds the constant 10^f, so a half's mean tells its forks.
	var forks [][]float64
	for f := 0; f < 5; f++ {
		v := math.Pow(10, float64(f))
		forks = append(forks, []float64{v, v, v})
	}
	s := handSeries("B", "v1", forks...)
	one := handSeries("C", "v1", []float64{1, 2, 3})
	opt := aaOptions()
	opt.Bootstrap.Resamples, opt.Repeats, opt.Seed = 100, 4, 5
	rep, err := aaSeries([]*table.Series{s, one}, opt)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.skipped) != 1 || rep.skipped[0].key != one.Key || rep.skipped[0].reason != "1 fork" {
		t.Errorf("skipped %+v, want C with 1 fork", rep.skipped)
	}
	if len(rep.results) != 4 {
		t.Fatalf("%d results, want 4", len(rep.results))
	}
	split := stats.NewRand(5, s.Key.String(), 0)
	distinct := map[float64]bool{}
	for r, res := range rep.results {
		perm := split.Perm(5)
		var a, b float64
		inA := map[int]bool{perm[0]: true, perm[1]: true}
		for f := 0; f < 5; f++ {
			if inA[f] {
				a += math.Pow(10, float64(f))
			} else {
				b += math.Pow(10, float64(f))
			}
		}
		a, b = a/2, b/3
		if res.err != nil || res.repeat != r+1 || res.unitsA != 2 || res.unitsB != 3 ||
			res.Base.Iterations != 6 || res.Test.Iterations != 9 {
			t.Fatalf("split %d: %+v", r+1, res)
		}
		if math.Abs(res.Base.Mean.Estimate-a) > 1e-9*a || math.Abs(res.Test.Mean.Estimate-b) > 1e-9*b {
			t.Errorf("split %d: half means %v and %v, want %v and %v from the permutation %v", r+1,
				res.Base.Mean.Estimate, res.Test.Mean.Estimate, a, b, perm)
		}
		distinct[a] = true
	}
	if len(distinct) < 2 {
		t.Errorf("4 repeats gave the same split every time")
	}
	var text strings.Builder
	if err := rep.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"skipped (1 runs with fewer than 2 forks to split)", "p@v1: 1 with 1 fork", "false-positive rate over 4 comparisons of 1 runs"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("text lacks %q:\n%s", want, text.String())
		}
	}
}

func TestAASplitLevels(t *testing.T) {
	// µOpTime-shaped: 3 instances × 3 trials × 5 iterations × 5 slices, one fork.
	c := synth.UOpTimeSuiteConfig()
	c.Benchmarks, c.Seed = 3, 4
	series := readSuite(t, suite(t, c), synth.FormatUOpTime, "uopt-v1")
	for _, tc := range []struct {
		split        table.Level
		a, b, skip   int
		wantResample []string
	}{
		{table.LevelInstance, 1, 2, 0, []string{"instance", "trial", "iteration"}},
		{table.LevelTrial, 4, 5, 0, []string{"instance", "trial", "iteration"}},
		// Each fork is one (instance, trial, fork) unit: with one fork per
		// trial, splitting by fork is splitting by trial.
		{table.LevelFork, 4, 5, 0, []string{"instance", "trial", "iteration"}},
	} {
		opt := aaOptions()
		opt.Bootstrap.Resamples, opt.Split = 200, tc.split
		rep, err := aaSeries(series, opt)
		if err != nil {
			t.Fatal(err)
		}
		if len(rep.skipped) != tc.skip || len(rep.results) != 3-tc.skip {
			t.Errorf("%v: %d results, %d skipped", tc.split, len(rep.results), len(rep.skipped))
			continue
		}
		for _, res := range rep.results {
			if res.err != nil || res.unitsA != tc.a || res.unitsB != tc.b || res.Base.Iterations+res.Test.Iterations != 45 {
				t.Errorf("%v: %s: err %v, units %d+%d, iterations %d+%d", tc.split, res.key, res.err, res.unitsA, res.unitsB,
					res.Base.Iterations, res.Test.Iterations)
			}
			// A half with one instance does not resample instances; the
			// other does, so the union is reported.
			if strings.Join(res.Resampled, ",") != strings.Join(tc.wantResample, ",") {
				t.Errorf("%v: resampled %v, want %v", tc.split, res.Resampled, tc.wantResample)
			}
		}
		var text strings.Builder
		if err := rep.WriteText(&text); err != nil {
			t.Fatal(err)
		}
		if tc.split == table.LevelInstance && !strings.Contains(text.String(), "have a half with a single instance") {
			t.Errorf("instance split: no note on single-instance halves:\n%s", text.String())
		}
	}
}
