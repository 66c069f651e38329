package synth

import (
	"bytes"
	"math"
	"runtime"
	"sort"
	"sync"
	"testing"
)

func TestKindsAreStratified(t *testing.T) {
	c := DefaultSuiteConfig()
	c.Benchmarks, c.Params = 40, nil
	c.Warmup.Fraction, c.Slowdown.Fraction, c.NoSteady.Fraction = 0.4, 0.1, 0.15
	s := mustSuite(t, c)
	counts := map[Kind]int{}
	shapes := map[NoSteadyShape]int{}
	for _, tr := range s.Truth() {
		counts[tr.Kind]++
		if tr.Kind == KindNoSteadyState {
			shapes[tr.Shape]++
		}
		switch tr.Kind {
		case KindFlat:
			if tr.SteadyStart != 0 || tr.WarmupIterations != 0 || tr.SlowdownAt != -1 {
				t.Errorf("flat series %d: %+v", tr.Index, tr)
			}
		case KindWarmup:
			if tr.SteadyStart != tr.WarmupIterations || tr.WarmupIterations < c.Warmup.MinIterations || tr.WarmupIterations > c.Warmup.MaxIterations ||
				tr.WarmupFactor < c.Warmup.minFactor || tr.WarmupFactor > c.Warmup.maxFactor {
				t.Errorf("warmup series %d: %+v", tr.Index, tr)
			}
		case KindSlowdown:
			if tr.SteadyStart != tr.SlowdownAt || tr.SlowdownAt < 50 || tr.SlowdownAt > 80 || tr.FinalMean != tr.Mean*tr.SlowdownFactor {
				t.Errorf("slowdown series %d: %+v", tr.Index, tr)
			}
		case KindNoSteadyState:
			if tr.SteadyStart != -1 || tr.Shape == ShapeNone {
				t.Errorf("no-steady-state series %d: %+v", tr.Index, tr)
			}
		}
		if tr.Mean < c.MinMean || tr.Mean > c.MaxMean {
			t.Errorf("series %d: mean %v outside [%v, %v]", tr.Index, tr.Mean, c.MinMean, c.MaxMean)
		}
	}
	// round(0.4·40) = 16, round(0.1·40) = 4, round(0.15·40) = 6, rest flat.
	if counts[KindWarmup] != 16 || counts[KindSlowdown] != 4 || counts[KindNoSteadyState] != 6 || counts[KindFlat] != 14 {
		t.Errorf("kind counts %v", counts)
	}
	if shapes[ShapeOscillation] != 3 || shapes[ShapeDrift] != 3 {
		t.Errorf("shapes %v, want 3 oscillations and 3 drifts", shapes)
	}
}

func TestCurve(t *testing.T) {
	tr := BenchmarkTruth{Kind: KindWarmup, WarmupIterations: 20, WarmupFactor: 3, WarmupShape: 4, Iterations: 100}
	if tr.curve(0) != 3 || tr.curve(20) != 1 || tr.curve(99) != 1 {
		t.Errorf("warmup curve: c(0)=%v c(L)=%v c(99)=%v", tr.curve(0), tr.curve(20), tr.curve(99))
	}
	for k := 1; k <= 20; k++ {
		if !(tr.curve(k) < tr.curve(k-1)) {
			t.Errorf("warmup curve not decreasing at %d", k)
		}
	}
	// Formula at k = 10: 1 + 2·(e^-2 − e^-4)/(1 − e^-4).
	if want := 1 + 2*(math.Exp(-2)-math.Exp(-4))/(1-math.Exp(-4)); math.Abs(tr.curve(10)-want) > 1e-15 {
		t.Errorf("c(10) = %v, want %v", tr.curve(10), want)
	}
	osc := BenchmarkTruth{Kind: KindNoSteadyState, Shape: ShapeOscillation, Amplitude: 0.1, Period: 6, Phase: 1}
	want := []float64{1.1, 1.1, 0.9, 0.9, 0.9, 1.1, 1.1, 1.1}
	for k, w := range want {
		if math.Abs(osc.curve(k)-w) > 1e-15 {
			t.Errorf("oscillation c(%d) = %v, want %v", k, osc.curve(k), w)
		}
	}
	drift := BenchmarkTruth{Kind: KindNoSteadyState, Shape: ShapeDrift, Drift: 0.3, Iterations: 11}
	if drift.curve(0) != 1 || math.Abs(drift.curve(10)-1.3) > 1e-15 || math.Abs(drift.curve(5)-1.15) > 1e-15 {
		t.Errorf("drift curve %v %v %v", drift.curve(0), drift.curve(5), drift.curve(10))
	}
}

// The tolerances below follow from the configured noise: iteration noise
// σ = 1 %, fork factor σ = 2 % over 10 forks, no instance/trial factors.
// Ratios within a fork cancel the fork factor; a mean over 10 forks has
// relative sd ≈ 0.02/√10 ≈ 0.6 %, so 3 % is ≈ 5 sd.

func TestWarmupTruthHolds(t *testing.T) {
	c := quietSuiteConfig()
	c.Warmup.Fraction, c.Slowdown.Fraction, c.NoSteady.Fraction = 1, 0, 0
	s := mustSuite(t, c)
	for _, tr := range s.Truth() {
		var tails []float64
		for f := 1; f <= c.Forks; f++ {
			x := s.ForkValues(tr.Index, 1, 1, f)
			tail := mean(x[tr.WarmupIterations:])
			tails = append(tails, tail)
			// First iteration is W times the steady level (noise 1 % → 5 %).
			if r := x[0] / tail; math.Abs(r/tr.WarmupFactor-1) > 0.05 {
				t.Errorf("series %d fork %d: x0/tail = %.3f, want W = %.3f", tr.Index, f, r, tr.WarmupFactor)
			}
			// Halfway through warmup the curve's excess is still visible.
			h := tr.WarmupIterations / 2
			if r := x[h] / tail; math.Abs(r/tr.curve(h)-1) > 0.05 {
				t.Errorf("series %d fork %d: x[%d]/tail = %.3f, want %.3f", tr.Index, f, h, r, tr.curve(h))
			}
		}
		if m := mean(tails); math.Abs(m/tr.Mean-1) > 0.03 {
			t.Errorf("series %d: steady mean %.4g, true mean %.4g", tr.Index, m, tr.Mean)
		}
	}
}

func TestSlowdownAndNoSteadyTruthHold(t *testing.T) {
	c := quietSuiteConfig()
	c.Warmup.Fraction, c.Slowdown.Fraction, c.NoSteady.Fraction = 0, 0.5, 0.5
	s := mustSuite(t, c)
	for _, tr := range s.Truth() {
		for f := 1; f <= c.Forks; f++ {
			x := s.ForkValues(tr.Index, 1, 1, f)
			switch {
			case tr.Kind == KindSlowdown:
				r := mean(x[tr.SlowdownAt:]) / mean(x[:tr.SlowdownAt])
				if math.Abs(r/tr.SlowdownFactor-1) > 0.01 {
					t.Errorf("series %d fork %d: after/before = %.4f, want %.4f", tr.Index, f, r, tr.SlowdownFactor)
				}
			case tr.Shape == ShapeOscillation:
				var hi, lo []float64
				for k, v := range x {
					if tr.curve(k) > 1 {
						hi = append(hi, v)
					} else {
						lo = append(lo, v)
					}
				}
				want := (1 + tr.Amplitude) / (1 - tr.Amplitude)
				if r := mean(hi) / mean(lo); math.Abs(r/want-1) > 0.01 {
					t.Errorf("series %d fork %d: high/low = %.4f, want %.4f", tr.Index, f, r, want)
				}
			case tr.Shape == ShapeDrift:
				n := len(x)
				r := mean(x[n-10:]) / mean(x[:10])
				want := mean(curveRange(tr, n-10, n)) / mean(curveRange(tr, 0, 10))
				if math.Abs(r/want-1) > 0.02 {
					t.Errorf("series %d fork %d: last/first = %.4f, want %.4f", tr.Index, f, r, want)
				}
			default:
				t.Fatalf("series %d: unexpected kind %v", tr.Index, tr.Kind)
			}
		}
	}
}

func curveRange(tr BenchmarkTruth, lo, hi int) []float64 {
	var c []float64
	for k := lo; k < hi; k++ {
		c = append(c, tr.curve(k))
	}
	return c
}

func TestOutliersTruthHolds(t *testing.T) {
	c := quietSuiteConfig()
	c.Warmup.Fraction, c.Slowdown.Fraction, c.NoSteady.Fraction = 0, 0, 0
	c.Outliers = OutlierConfig{Rate: 0.01, minMagnitude: 1, maxMagnitude: 3}
	s := mustSuite(t, c)
	total := 0
	for _, tr := range s.Truth() {
		byFork := map[int][]Outlier{}
		for _, o := range tr.Outliers {
			byFork[o.Fork] = append(byFork[o.Fork], o)
			if o.Factor < 2 || o.Factor > 4 || o.Instance != 1 || o.Trial != 1 || o.Iteration < 1 || o.Iteration > c.Iterations {
				t.Errorf("series %d: outlier %+v", tr.Index, o)
			}
		}
		total += len(tr.Outliers)
		for f := 1; f <= c.Forks; f++ {
			x := s.ForkValues(tr.Index, 1, 1, f)
			med := median(x)
			marked := map[int]bool{}
			for _, o := range byFork[f] {
				marked[o.Iteration-1] = true
				if r := x[o.Iteration-1] / med; math.Abs(r/o.Factor-1) > 0.06 {
					t.Errorf("series %d fork %d iteration %d: x/median = %.3f, factor %.3f", tr.Index, f, o.Iteration, r, o.Factor)
				}
			}
			for k, v := range x {
				if !marked[k] && v/med > 1.1 {
					t.Errorf("series %d fork %d iteration %d: unlisted outlier %.3f × median", tr.Index, f, k+1, v/med)
				}
			}
		}
	}
	// 10 series × 10 forks × 120 iterations at 1 %: 120 expected, sd ≈ 10.9.
	if total < 120-45 || total > 120+45 {
		t.Errorf("%d outliers, expected about 120", total)
	}
}

func median(x []float64) float64 {
	s := append([]float64(nil), x...)
	sort.Float64s(s)
	return (s[(len(s)-1)/2] + s[len(s)/2]) / 2
}

func TestSampleModeMeanHolds(t *testing.T) {
	c := quietSuiteConfig()
	c.Warmup.Fraction, c.Slowdown.Fraction, c.NoSteady.Fraction = 0, 0, 0
	c.Mode = modeSampleTime
	c.Iterations = 30
	c.MinMean, c.MaxMean = 1e4, 1e5
	c.Sample = SampleConfig{MaxPerIteration: 500, noise: 0.1, tailRate: 0.01, minTail: 5, maxTail: 20}
	s := mustSuite(t, c)
	for _, tr := range s.Truth() {
		var means []float64
		for f := 1; f <= c.Forks; f++ {
			means = append(means, mean(s.ForkValues(tr.Index, 1, 1, f)))
		}
		// Quantisation floors by < 0.2 %; the tails are rescaled to keep the mean.
		if m := mean(means); math.Abs(m/tr.Mean-1) > 0.03 {
			t.Errorf("series %d: pooled mean %.5g, true %.5g", tr.Index, m, tr.Mean)
		}
	}
}

func TestDeterminism(t *testing.T) {
	configs := map[string]SuiteConfig{}
	avgt := DefaultSuiteConfig()
	avgt.Benchmarks, avgt.Iterations = 4, 20
	configs["avgt"] = avgt
	sample := avgt
	sample.Mode, sample.Sample.MaxPerIteration = modeSampleTime, 50
	configs["sample"] = sample
	u := UOpTimeSuiteConfig()
	u.Benchmarks = 5
	u.ragged.dropIterations, u.ragged.dropSlices = 2, 2
	configs["uoptime"] = u
	formats := []string{FormatJMH, FormatUOpTime, FormatGoBench, formatPA, formatTruth}
	for name, c := range configs {
		for _, format := range formats {
			a := render(t, mustSuite(t, c), format)
			b := render(t, mustSuite(t, c), format)
			if !bytes.Equal(a, b) {
				t.Errorf("%s/%s: same seed gave different output", name, format)
			}
			// One worker and many workers give the same bytes.
			prev := runtime.GOMAXPROCS(1)
			one := render(t, mustSuite(t, c), format)
			runtime.GOMAXPROCS(prev)
			if !bytes.Equal(a, one) {
				t.Errorf("%s/%s: GOMAXPROCS=1 gave different output", name, format)
			}
			d := c
			d.Seed++
			if bytes.Equal(a, render(t, mustSuite(t, d), format)) {
				t.Errorf("%s/%s: different seeds gave identical output", name, format)
			}
		}
	}
}

func TestSeriesIndependentOfSubsetAndOrder(t *testing.T) {
	small := quietSuiteConfig()
	small.Warmup.Fraction, small.Slowdown.Fraction, small.NoSteady.Fraction = 0, 0, 0
	small.Benchmarks = 3
	big := small
	big.Benchmarks = 9
	sSmall, sBig := mustSuite(t, small), mustSuite(t, big)
	byName := map[string]int{}
	for _, tr := range sBig.Truth() {
		byName[tr.JMHName] = tr.Index
	}
	for _, tr := range sSmall.Truth() {
		j, ok := byName[tr.JMHName]
		if !ok {
			t.Fatalf("%s missing from the bigger suite", tr.JMHName)
		}
		a, b := sSmall.ForkValues(tr.Index, 1, 1, 2), sBig.ForkValues(j, 1, 1, 2)
		for k := range a {
			if a[k] != b[k] {
				t.Fatalf("%s: iteration %d differs between suites: %v vs %v", tr.JMHName, k, a[k], b[k])
			}
		}
	}
	// Parallel generation in reverse order equals sequential generation.
	n := sBig.Len()
	seq := make([][]float64, n)
	for i := range seq {
		seq[i] = sBig.ForkValues(i, 1, 1, 3)
	}
	par := make([][]float64, n)
	var wg sync.WaitGroup
	for i := n - 1; i >= 0; i-- {
		wg.Add(1)
		go func() {
			defer wg.Done()
			par[i] = sBig.ForkValues(i, 1, 1, 3)
		}()
	}
	wg.Wait()
	for i := range seq {
		for k := range seq[i] {
			if seq[i][k] != par[i][k] {
				t.Fatalf("series %d iteration %d: parallel %v, sequential %v", i, k, par[i][k], seq[i][k])
			}
		}
	}
}

func TestConfigValidation(t *testing.T) {
	mutate := []struct {
		name string
		fn   func(c *SuiteConfig)
	}{
		{"no benchmarks", func(c *SuiteConfig) { c.Benchmarks = 0 }},
		{"zero forks", func(c *SuiteConfig) { c.Forks = 0 }},
		{"bad mode", func(c *SuiteConfig) { c.Mode = "all" }},
		{"thrpt unit in avgt", func(c *SuiteConfig) { c.Unit = "ops/s" }},
		{"unknown unit", func(c *SuiteConfig) { c.Unit = "µs/op" }},
		{"fractions over 1", func(c *SuiteConfig) { c.Warmup.Fraction, c.NoSteady.Fraction = 0.7, 0.5 }},
		{"negative noise", func(c *SuiteConfig) { c.noise = -1 }},
		{"NaN mean", func(c *SuiteConfig) { c.MinMean = math.NaN() }},
		{"param value with comma", func(c *SuiteConfig) { c.Params[0].Values[0] = "a,b" }},
		{"duplicate param value", func(c *SuiteConfig) { c.Params[0].Values[1] = c.Params[0].Values[0] }},
		{"duplicate spec names", func(c *SuiteConfig) {
			c.Specs = []BenchmarkSpec{{Class: "A", Method: "b"}, {Class: "A", Method: "b"}}
		}},
		{"spec warmup too long", func(c *SuiteConfig) { c.Specs = []BenchmarkSpec{{Kind: KindWarmup, WarmupIterations: 100}} }},
		{"too many drops", func(c *SuiteConfig) { c.ragged.dropIterations = 1 << 20 }},
		{"project with space", func(c *SuiteConfig) { c.Project = "a b" }},
	}
	for _, m := range mutate {
		c := DefaultSuiteConfig()
		m.fn(&c)
		if _, err := NewSuite(c); err == nil {
			t.Errorf("%s: accepted", m.name)
		}
	}
	if _, err := NewSuite(DefaultSuiteConfig()); err != nil {
		t.Errorf("default config: %v", err)
	}
	if _, err := NewSuite(UOpTimeSuiteConfig()); err != nil {
		t.Errorf("µOpTime config: %v", err)
	}
}

func TestTruthIsACopy(t *testing.T) {
	s := mustSuite(t, DefaultSuiteConfig())
	tr := s.Truth()
	tr[0].Params[0].Value = "changed"
	tr[0].Mean = -1
	if again := s.Truth(); again[0].Params[0].Value == "changed" || again[0].Mean == -1 {
		t.Error("Truth returned shared state")
	}
	c := DefaultSuiteConfig()
	s = mustSuite(t, c)
	c.Params[0].Values[0] = "x"
	if s.Config().Params[0].Values[0] == "x" {
		t.Error("NewSuite kept the caller's slices")
	}
}

func TestForkValuesPanicsOutOfRange(t *testing.T) {
	s := mustSuite(t, DefaultSuiteConfig())
	defer func() {
		if recover() == nil {
			t.Error("no panic for fork 0")
		}
	}()
	s.ForkValues(0, 1, 1, 0)
}

func TestOutlierRateExtremes(t *testing.T) {
	c := quietSuiteConfig()
	c.Benchmarks, c.Forks = 2, 2
	c.Outliers = OutlierConfig{Rate: 1e-300, minMagnitude: 1, maxMagnitude: 2}
	for _, tr := range mustSuite(t, c).Truth() {
		if len(tr.Outliers) != 0 {
			t.Errorf("rate 1e-300: %d outliers", len(tr.Outliers))
		}
	}
	c.Outliers.Rate = 1
	for _, tr := range mustSuite(t, c).Truth() {
		if len(tr.Outliers) != c.Forks*c.Iterations {
			t.Errorf("rate 1: %d outliers, want every iteration (%d)", len(tr.Outliers), c.Forks*c.Iterations)
		}
	}
}
