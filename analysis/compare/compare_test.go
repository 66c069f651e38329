package compare

import (
	"errors"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/benchtrim/benchtrim/estimate"
	"github.com/benchtrim/benchtrim/synth"
	"github.com/benchtrim/benchtrim/table"
)

func TestVerdict(t *testing.T) {
	for _, tc := range []struct {
		ratio estimate.Interval
		want  string
		ch    Change
	}{
		{estimate.Interval{Estimate: 1.042, Lower: 1.01, Upper: 1.08}, "+4.2 % slower", Slower},
		{estimate.Interval{Estimate: 0.969, Lower: 0.95, Upper: 0.99}, "-3.1 % faster", Faster},
		{estimate.Interval{Estimate: 1.02, Lower: 0.99, Upper: 1.05}, "no change", NoChange},
		// An interval touching 1 straddles it.
		{estimate.Interval{Estimate: 1.03, Lower: 1, Upper: 1.06}, "no change", NoChange},
		{estimate.Interval{Estimate: 0.97, Lower: 0.94, Upper: 1}, "no change", NoChange},
		{estimate.Interval{Estimate: 1.00083, Lower: 1.0001, Upper: 1.002}, "+0.083 % slower", Slower},
		{estimate.Interval{Estimate: 0.9921, Lower: 0.9879, Upper: 0.9954}, "-0.79 % faster", Faster},
		{estimate.Interval{Estimate: 2.5, Lower: 2.1, Upper: 2.9}, "+150.0 % slower", Slower},
		{estimate.Interval{Estimate: math.NaN(), Lower: math.NaN(), Upper: math.NaN()}, "no change", NoChange},
	} {
		v := verdictOf(tc.ratio)
		if v.Change != tc.ch || v.String() != tc.want {
			t.Errorf("VerdictOf(%+v) = %v %q, want %v %q", tc.ratio, v.Change, v, tc.ch, tc.want)
		}
	}
}

// versionPair generates two versions of a flat JMH suite in which series
// changed (by factor) and reads both.
func versionPair(t *testing.T, c synth.SuiteConfig, changed int, factor float64) (base, test []*table.Series, truth []synth.VersionPairTruth) {
	t.Helper()
	vs, err := synth.NewVersions(c, synth.VersionsConfig{Labels: []string{"v1", "v2"},
		Changes: []synth.Change{{Benchmark: changed, Version: 1, Factor: factor}}})
	if err != nil {
		t.Fatal(err)
	}
	base = readSuite(t, vs.Suite(0), synth.FormatJMH, "suite-v1")
	test = readSuite(t, vs.Suite(1), synth.FormatJMH, "suite-v2")
	return base, test, vs.PairTruth()
}

func TestKnownSlowdownIsDetected(t *testing.T) {
	c := flatConfig(10, 10, 20, 7)
	base, test, truth := versionPair(t, c, 3, 1.10)
	rep, err := compareSets(runSet{Label: "v1", Series: base}, runSet{Label: "v2", Series: test}, testOptions(2000))
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Results) != 10 || len(rep.Unmatched) != 0 {
		t.Fatalf("%d results, %d unmatched; want 10 and 0", len(rep.Results), len(rep.Unmatched))
	}
	noChange := 0
	for _, tr := range truth {
		r := resultFor(t, rep, tr.JMHName, tr.ParamsKey)
		if r.Err != nil {
			t.Fatalf("%s: %v", tr.JMHName, r.Err)
		}
		if r.Base.Iterations != 200 || r.Test.Iterations != 200 {
			t.Errorf("%s: %d+%d iterations, want 200+200", r.Name, r.Base.Iterations, r.Test.Iterations)
		}
		if !tr.Changed {
			if r.Verdict.Change == NoChange {
				noChange++
			}
			continue
		}
		// The 10 % slowdown: slower, its interval covers the true ratio,
		// and the reported size and change rate agree with the estimate.
		if r.Verdict.Change != Slower {
			t.Errorf("%s: verdict %v, want slower (ratio %+v)", r.Name, r.Verdict, r.Ratio)
		}
		if !(r.Ratio.Lower <= 1.10 && 1.10 <= r.Ratio.Upper) {
			t.Errorf("%s: ratio CI [%v, %v] does not cover the true 1.10", r.Name, r.Ratio.Lower, r.Ratio.Upper)
		}
		if math.Abs(r.Verdict.Percent-100*(r.Ratio.Estimate-1)) > 1e-9 || math.Abs(r.ChangeRate-(r.Ratio.Estimate-1)) > 1e-9 {
			t.Errorf("%s: percent %v, change rate %v, ratio %v disagree", r.Name, r.Verdict.Percent, r.ChangeRate, r.Ratio.Estimate)
		}
		if r.CliffsDelta < 0.9 || r.P > 1e-6 {
			t.Errorf("%s: δ = %v, p = %v; a 10 %% slowdown over 200 iterations should separate the samples", r.Name, r.CliffsDelta, r.P)
		}
		if !reflect.DeepEqual(r.Resampled, []string{"fork", "iteration"}) {
			t.Errorf("%s: resampled levels %v, want [fork iteration]", r.Name, r.Resampled)
		}
	}
	// Unchanged series have identical distributions in both versions.
	if noChange < 8 {
		t.Errorf("%d of 9 unchanged benchmarks were 'no change'; want at least 8", noChange)
	}
	s := rep.summary()
	if s.compared != 10 || s.slower < 1 || s.slower+s.faster+s.noChange != 10 {
		t.Errorf("summary %+v", s)
	}
}

func TestSpeedupIsFaster(t *testing.T) {
	c := flatConfig(3, 8, 20, 11)
	base, test, truth := versionPair(t, c, 1, 0.8)
	rep, err := compareSets(runSet{Series: base}, runSet{Series: test}, testOptions(2000))
	if err != nil {
		t.Fatal(err)
	}
	for _, tr := range truth {
		if !tr.Changed {
			continue
		}
		r := resultFor(t, rep, tr.JMHName, tr.ParamsKey)
		if r.Verdict.Change != Faster || !(r.Ratio.Lower <= 0.8 && 0.8 <= r.Ratio.Upper) || r.CliffsDelta > -0.9 {
			t.Errorf("%s: %v, ratio %+v, δ %v; want faster around 0.8 with δ near -1", r.Name, r.Verdict, r.Ratio, r.CliffsDelta)
		}
		if !strings.HasSuffix(r.Verdict.String(), "% faster") || !strings.HasPrefix(r.Verdict.String(), "-") {
			t.Errorf("verdict text %q", r.Verdict)
		}
	}
}

func TestEstimatesByHand(t *testing.T) {
	// Two forks per side; test iterations are all above base ones.
	base := handSeries("B", "v1", []float64{10, 11, 12}, []float64{11, 12, 13})
	test := handSeries("B", "v2", []float64{20, 21}, []float64{22, 23, 24})
	rep, err := compareSets(runSet{Series: []*table.Series{base}}, runSet{Series: []*table.Series{test}}, testOptions(500))
	if err != nil {
		t.Fatal(err)
	}
	r := &rep.Results[0]
	if r.Err != nil {
		t.Fatal(r.Err)
	}
	// InvocationSamples 0: the mean of the iteration means.
	if got, want := r.Base.Mean.Estimate, 69.0/6; math.Abs(got-want) > 1e-12 {
		t.Errorf("base mean %v, want %v", got, want)
	}
	if got, want := r.Test.Mean.Estimate, 110.0/5; math.Abs(got-want) > 1e-12 {
		t.Errorf("test mean %v, want %v", got, want)
	}
	if got, want := r.Ratio.Estimate, (110.0/5)/(69.0/6); math.Abs(got-want) > 1e-12 {
		t.Errorf("ratio %v, want %v", got, want)
	}
	// Every test value exceeds every base value: δ = 1, U = n·m = 30, and
	// benchstat's p (the exact distribution, also with the base's ties, as
	// 5 and 6 values are at most 25) is that of the one most extreme of
	// C(11, 5) = 462 equally likely arrangements, two-sided: 2/462
	// (scipy's default, asymptotic with ties, gives 0.0078).
	if r.CliffsDelta != 1 || r.Magnitude.String() != "large" || r.U != 30 {
		t.Errorf("δ %v (%v), U %v; want 1 (large), 30", r.CliffsDelta, r.Magnitude, r.U)
	}
	if math.Abs(r.P-2.0/462) > 1e-12 {
		t.Errorf("p = %v, want 2/462", r.P)
	}
	if r.Base.Units != [5]int{1, 1, 1, 2, 6} || r.Test.Units != [5]int{1, 1, 1, 2, 5} {
		t.Errorf("units %v and %v", r.Base.Units, r.Test.Units)
	}
}

func TestUnmatchedBenchmarks(t *testing.T) {
	a := handSeries("A", "v1", []float64{1, 2, 3})
	b1 := handSeries("B", "v1", []float64{1, 2, 3})
	b2 := handSeries("B", "v2", []float64{1, 2, 3})
	c := handSeries("C", "v2", []float64{1, 2, 3})
	rep, err := compareSets(runSet{Label: "old", Series: []*table.Series{a, b1}}, runSet{Label: "new", Series: []*table.Series{b2, c}}, testOptions(200))
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Results) != 1 || rep.Results[0].Benchmark != "B" {
		t.Fatalf("results %+v, want only B", rep.Results)
	}
	want := []Row{
		{Name: Name{Benchmark: "A", Params: "", Mode: "avgt"}, Metric: table.Primary, Unit: "ns/op", BaseRuns: []table.Key{a.Key}},
		{Name: Name{Benchmark: "C", Params: "", Mode: "avgt"}, Metric: table.Primary, Unit: "ns/op", TestRuns: []table.Key{c.Key}},
	}
	if !reflect.DeepEqual(rep.Unmatched, want) {
		t.Errorf("unmatched %+v, want %+v", rep.Unmatched, want)
	}
	if a, c := rep.Unmatched[0].only(), rep.Unmatched[1].only(); a != "base" || c != "test" {
		t.Errorf("only in %q and %q, want base and test", a, c)
	}
	if s := rep.summary(); s.onlyBase != 1 || s.onlyTest != 1 || s.compared != 1 {
		t.Errorf("summary %+v", s)
	}
	var text strings.Builder
	if err := reportOf(rep).WriteText(&text); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"only in base (1, not compared): A", "only in test (1, not compared): C", "unmatched: 1 only in base, 1 only in test"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("text lacks %q:\n%s", want, text.String())
		}
	}
	// Params and mode are part of the match.
	p := handSeries("B", "v2", []float64{1, 2, 3})
	p.Params = "n=1"
	m := handSeries("B", "v2", []float64{1, 2, 3})
	m.Mode = "thrpt"
	pairs, un := matchBy([]*table.Series{b1}, []*table.Series{p, m}, nameOf)
	if len(pairs) != 0 || len(un) != 3 {
		t.Errorf("B vs B[n=1] and B (thrpt): %d pairs, %d unmatched; want 0 and 3", len(pairs), len(un))
	}
}

func TestPooledRunsAreTopLevelUnits(t *testing.T) {
	b1 := handSeries("B", "r1", []float64{10, 11}, []float64{12, 13})
	b2 := handSeries("B", "r2", []float64{10, 12}, []float64{11, 13})
	tt := handSeries("B", "new", []float64{10, 11}, []float64{12, 13})
	rep, err := compareSets(runSet{Series: []*table.Series{b1, b2}}, runSet{Series: []*table.Series{tt}}, testOptions(200))
	if err != nil {
		t.Fatal(err)
	}
	r := &rep.Results[0]
	if r.Err != nil || len(r.BaseRuns) != 2 || r.Base.Units != [5]int{2, 2, 2, 4, 8} || r.Base.Iterations != 8 {
		t.Fatalf("pooled base: err %v, runs %v, units %v, iterations %d", r.Err, r.BaseRuns, r.Base.Units, r.Base.Iterations)
	}
	if !reflect.DeepEqual(r.Resampled, []string{"run", "fork", "iteration"}) {
		t.Errorf("resampled %v", r.Resampled)
	}
	if math.Abs(r.Base.Mean.Estimate-11.5) > 1e-12 || math.Abs(r.Ratio.Estimate-1) > 1e-12 {
		t.Errorf("base mean %v, ratio %v; want 11.5 and 1", r.Base.Mean.Estimate, r.Ratio.Estimate)
	}
}

func TestDiscardWarmup(t *testing.T) {
	// The first two iterations of each fork are slow (warmup).
	base := handSeries("B", "v1", []float64{50, 40, 10, 10, 11}, []float64{60, 30, 11, 10, 10})
	test := handSeries("B", "v2", []float64{90, 80, 10, 11, 10}, []float64{70, 20, 10, 11, 11})
	opt := testOptions(500)
	opt.DiscardWarmup = 2
	rep, err := compareSets(runSet{Series: []*table.Series{base}}, runSet{Series: []*table.Series{test}}, opt)
	if err != nil {
		t.Fatal(err)
	}
	r := &rep.Results[0]
	if r.Err != nil || r.Base.Iterations != 6 || r.Test.Iterations != 6 {
		t.Fatalf("err %v, iterations %d+%d; want 6+6", r.Err, r.Base.Iterations, r.Test.Iterations)
	}
	if math.Abs(r.Base.Mean.Estimate-62.0/6) > 1e-12 || math.Abs(r.Test.Mean.Estimate-63.0/6) > 1e-12 {
		t.Errorf("means %v and %v; want 62/6 and 63/6", r.Base.Mean.Estimate, r.Test.Mean.Estimate)
	}
	opt.DiscardWarmup = 5
	rep, _ = compareSets(runSet{Series: []*table.Series{base}}, runSet{Series: []*table.Series{test}}, opt)
	if r := &rep.Results[0]; !errors.Is(r.Err, errNoIterations) {
		t.Errorf("discarding every iteration: err %v, want errNoIterations", r.Err)
	}
}

func TestBadSeriesAreReportedNotDropped(t *testing.T) {
	good := handSeries("A", "v1", []float64{1, 2, 3})
	nan := handSeries("A", "v2", []float64{1, math.NaN(), 3})
	mixed := handSeries("B", "v2", []float64{1, 2}, []float64{3, 4})
	mixed.Pair = []string{"A", "A", "B", "B"}
	rep, err := compareSets(runSet{Series: []*table.Series{good, handSeries("B", "v1", []float64{1, 2})}},
		runSet{Series: []*table.Series{nan, mixed}}, testOptions(100))
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Results) != 2 {
		t.Fatalf("%d results", len(rep.Results))
	}
	for i, want := range []string{"fork 1, iteration 2 has time per operation NaN", `duet pairs "A" and "B"`} {
		if e := rep.Results[i].Err; e == nil || !strings.Contains(e.Error(), want) {
			t.Errorf("%s: err %v, want one containing %q", rep.Results[i].Name, e, want)
		}
	}
	if s := rep.summary(); s.failed != 2 || s.compared != 0 {
		t.Errorf("summary %+v", s)
	}
	// With a pair chosen per side, the duet series compares.
	rep, _ = compareSets(runSet{Series: []*table.Series{mixed}, Pair: "A"}, runSet{Series: []*table.Series{mixed}, Pair: "B"}, testOptions(100))
	if r := &rep.Results[0]; r.Err != nil || r.Base.Mean.Estimate != 1.5 || r.Test.Mean.Estimate != 3.5 {
		t.Errorf("pairs A vs B: err %v, means %v and %v; want 1.5 and 3.5", r.Err, r.Base.Mean.Estimate, r.Test.Mean.Estimate)
	}
}

func TestOptionsValidate(t *testing.T) {
	bad := []func(o *Options){
		func(o *Options) { o.Alpha = 0 },
		func(o *Options) { o.Alpha = 1 },
		func(o *Options) { o.Bootstrap.Resamples = 0 },
		func(o *Options) { o.Bootstrap.Confidence = 1 },
		func(o *Options) { o.Bootstrap.InvocationSamples = -2 },
		func(o *Options) { o.DiscardWarmup = -1 },
		func(o *Options) { o.Split = table.LevelIteration },
		func(o *Options) { o.Repeats = 0 },
	}
	for i, f := range bad {
		o := aaOptions()
		f(&o)
		if o.Validate() == nil {
			t.Errorf("case %d: %+v validated", i, o)
		}
	}
	if err := aaOptions().Validate(); err != nil {
		t.Error(err)
	}
	if _, err := compareSets(runSet{}, runSet{}, Options{}); err == nil {
		t.Error("zero Options accepted")
	}
}

func TestInvocationSamplesOnSampleMode(t *testing.T) {
	c := flatConfig(2, 3, 5, 5)
	c.Mode, c.Unit = "sample", "us/op"
	c.Sample.MaxPerIteration = 200
	series := readSuite(t, suite(t, c), synth.FormatJMH, "sample")
	s := series[0]
	// Reference estimates computed here from the rows: the mean of the
	// iteration means (is = 0) and the count-weighted mean of all
	// invocations (is = -1).
	var iterSum, all, cnt float64
	its := s.Units(table.LevelIteration)
	for _, it := range its {
		iterSum += s.WeightedMean(it)
		for i := it.Start; i < it.End; i++ {
			all += s.NsPerOp[i] * float64(s.Count[i])
			cnt += float64(s.Count[i])
		}
	}
	for _, tc := range []struct {
		is   int
		want float64
	}{{0, iterSum / float64(len(its))}, {-1, all / cnt}} {
		opt := testOptions(200)
		opt.Bootstrap.InvocationSamples = tc.is
		rep, err := compareSets(runSet{Series: series[:1]}, runSet{Series: series[:1]}, opt)
		if err != nil {
			t.Fatal(err)
		}
		r := &rep.Results[0]
		if r.Err != nil || math.Abs(r.Base.Mean.Estimate-tc.want) > 1e-9*tc.want || r.Ratio.Estimate != 1 {
			t.Errorf("is %d: err %v, mean %v, ratio %v; want mean %v, ratio 1", tc.is, r.Err, r.Base.Mean.Estimate, r.Ratio.Estimate, tc.want)
		}
		if r.Verdict.Change != NoChange {
			t.Errorf("is %d: a benchmark against itself: %v", tc.is, r.Verdict)
		}
	}
}

func TestDeterministicAtAnyWorkerCount(t *testing.T) {
	c := flatConfig(12, 4, 10, 3)
	base, test, _ := versionPair(t, c, 0, 1.05)
	run := func(workers int, seed uint64) *metricRows {
		opt := testOptions(300)
		opt.Workers, opt.Seed = workers, seed
		rep, err := compareSets(runSet{Series: base}, runSet{Series: test}, opt)
		if err != nil {
			t.Fatal(err)
		}
		rep.Options.Workers = 0
		return rep
	}
	one := run(1, 9)
	for _, w := range []int{2, 5} {
		if got := run(w, 9); !reflect.DeepEqual(got, one) {
			t.Errorf("workers %d: report differs from workers 1", w)
		}
	}
	if other := run(1, 10); reflect.DeepEqual(other.Results[0].Ratio, one.Results[0].Ratio) {
		t.Errorf("seed 10 gave the same interval as seed 9: the seed is not used")
	}
	aa := func(workers int) *aaReport {
		opt := aaOptions()
		opt.Bootstrap.Resamples, opt.Repeats, opt.Workers = 200, 3, workers
		rep, err := aaSeries(base, opt)
		if err != nil {
			t.Fatal(err)
		}
		rep.options.Workers = 0
		return rep
	}
	a1 := aa(1)
	if got := aa(4); !reflect.DeepEqual(got, a1) {
		t.Errorf("A/A with 4 workers differs from 1 worker")
	}
}

func TestTopUnits(t *testing.T) {
	for _, tc := range []struct {
		units [5]int
		want  int
	}{{[5]int{1, 3, 9, 9, 45}, 3}, {[5]int{1, 1, 1, 10, 500}, 10}, {[5]int{2, 2, 2, 4, 8}, 2}, {[5]int{1, 1, 1, 1, 1}, 1}} {
		s := SideStats{Units: tc.units}
		if got := s.topUnits(); got != tc.want {
			t.Errorf("TopUnits(%v) = %d, want %d", tc.units, got, tc.want)
		}
	}
}
