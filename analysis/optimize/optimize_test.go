package optimize

import (
	"math"
	"math/rand/v2"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/apache/arrow/go/v15/arrow/memory"

	"github.com/benchtrim/benchtrim/estimate"
	"github.com/benchtrim/benchtrim/internal/stats"
	"github.com/benchtrim/benchtrim/table"
)

// handSeries is a 2 trials × 2 iterations × 3 slices run (1 s slices):
//
//	trial 1 iteration 1: 100, 101, 102
//	trial 1 iteration 2: 101, 100,  99
//	trial 2 iteration 1: 100.6, 130, 130
//	trial 2 iteration 2: 100, 100, 100
func handSeries(t *testing.T) []*table.Series {
	t.Helper()
	vals := [2][2][3]float64{{{100, 101, 102}, {101, 100, 99}}, {{100.6, 130, 130}, {100, 100, 100}}}
	b := table.NewBuilder(memory.NewGoAllocator(), 0)
	defer b.Release()
	key := table.Key{Project: "hand", Version: "v1", Benchmark: "BenchmarkHand/sub", Mode: "go"}
	for tr := range vals {
		for it := range vals[tr] {
			for sl, v := range vals[tr][it] {
				b.Append(&table.Row{Project: key.Project, Version: key.Version, Benchmark: key.Benchmark, Mode: "go",
					Unit: "ns/op", Value: v, NsPerOp: v, Count: 1000,
					Trial: int32(tr + 1), Iteration: int32(it + 1), Slice: int32(sl + 1)})
			}
		}
	}
	if err := b.AddSetup(table.Setup{Key: key, Tool: "go", Trials: 2, Slices: 3, SliceTimeNs: 1e9, MeasurementTimeNs: 3e9}); err != nil {
		t.Fatal(err)
	}
	tab := b.Finish()
	defer tab.Release()
	return tab.Collect(table.Filter{})
}

// TestHandComputed checks the chosen configuration and its time on a case
// small enough to compute by hand. With MinRepetitions 2 the cheapest
// candidates (2 s) are trial=1 iteration=2 slice=1, values {100, 101}:
// mean 100.5, population sd 0.5, CV = RMAD = 0.5/100.5 = 0.004975; and
// trial=2 iteration=1 slice=1, values {100, 100.6}: CV = RMAD = 0.3/100.3 =
// 0.002991. With threshold 0.01 both are stable and the smaller metric wins;
// with 0.004 only the second is; with 0.002 nothing up to the full
// configuration is stable (the 4 s candidates have CV 0.004975, 0.1166 and
// 0.004226; the 6 s ones 0.009529 and 0.1226; the 8 s one 0.1069; full 0.0921).
func TestHandComputed(t *testing.T) {
	series := handSeries(t)
	cases := []struct {
		metric    Metric
		threshold float64
		status    Status
		chosen    Config
		value     float64
		timeS     float64
	}{
		{CV, 0.01, StatusReduced, Config{1, 2, 1, 1, 1}, 0.3 / 100.3, 2},
		{RMAD, 0.01, StatusReduced, Config{1, 2, 1, 1, 1}, 0.3 / 100.3, 2},
		{CV, 0.004, StatusReduced, Config{1, 2, 1, 1, 1}, 0.3 / 100.3, 2},
		{CV, 0.0049, StatusReduced, Config{1, 2, 1, 1, 1}, 0.3 / 100.3, 2},
		{CV, 0.002, StatusNotReduced, Config{1, 2, 1, 2, 3}, 0, 12},
	}
	for _, tc := range cases {
		for _, all := range []bool{false, true} {
			opt := fastOptions()
			opt.Metrics = []Metric{tc.metric}
			opt.Threshold = tc.threshold
			opt.MinRepetitions = 2
			opt.AllConfigs = all
			rep, err := optimize(series, opt)
			if err != nil {
				t.Fatal(err)
			}
			r := rep.Results[0]
			if r.Status != tc.status || r.Chosen.Config != tc.chosen || r.Chosen.seconds() != tc.timeS {
				t.Errorf("%s ts=%v all=%v: status %s, chosen %v (%v s), want %s, %v (%v s)", tc.metric, tc.threshold, all,
					r.Status, r.Chosen.Config, r.Chosen.seconds(), tc.status, tc.chosen, tc.timeS)
			}
			if tc.status == StatusReduced {
				checkClose(t, "chosen value", r.Chosen.Value, tc.value, 1e-12)
			}
			if r.Full.Config != (Config{1, 2, 1, 2, 3}) || r.Full.seconds() != 12 || r.Full.Observations != 12 {
				t.Errorf("full = %+v", r.Full)
			}
			// Minimum baseline: 2 s, lexicographically first: trial 1.
			if r.Minimum.Config != (Config{1, 1, 1, 2, 1}) || r.Minimum.seconds() != 2 {
				t.Errorf("minimum = %v (%v s), want trial=1 iteration=2 slice=1 (2 s)", r.Minimum.Config, r.Minimum.seconds())
			}
			if r.Configurations != 12 || r.Candidates != 9 {
				t.Errorf("configurations %d candidates %d, want 12 and 9", r.Configurations, r.Candidates)
			}
		}
	}
	// Full configuration values by hand: mean of the 12 values.
	opt := fastOptions()
	opt.Metrics = []Metric{CV}
	opt.MinRepetitions = 2
	rep, err := optimize(series, opt)
	if err != nil {
		t.Fatal(err)
	}
	r := rep.Results[0]
	x := []float64{100, 101, 102, 101, 100, 99, 100.6, 130, 130, 100, 100, 100}
	var sum float64
	for _, v := range x {
		sum += v
	}
	mean := sum / 12
	var ss float64
	for _, v := range x {
		ss += (v - mean) * (v - mean)
	}
	checkClose(t, "full average", r.Full.Average, mean, 1e-9)
	checkClose(t, "full cv", r.Full.Value, math.Sqrt(ss/12)/mean, 1e-12)
	// Change rate of the chosen (mean 100.3) against the full mean.
	checkClose(t, "change rate", r.changeRate(MethodUOpTime), math.Abs(100.3-mean)/mean, 1e-12)
	if got := r.timeSavedNs(MethodUOpTime); got != 10e9 {
		t.Errorf("time saved %d ns, want 10 s", got)
	}
	if !(r.Chosen.Lower < 100.3 && r.Chosen.Upper > 100.3 && r.Chosen.Lower >= 100 && r.Chosen.Upper <= 100.6) {
		t.Errorf("chosen CI [%v, %v] should lie in [100, 100.6] around 100.3", r.Chosen.Lower, r.Chosen.Upper)
	}
	// Default MinRepetitions 3: the 2 s candidates are out; the cheapest
	// with 3 repetitions is 3 s (trial 2 × ... impossible: 2×2 grid has
	// t·i ∈ {1, 2, 4}), so 4 s: trial=2 iteration=2 slice=1, values
	// {100, 101, 100.6, 100}, CV 0.004226 < 0.01.
	opt.MinRepetitions = 3
	rep, err = optimize(series, opt)
	if err != nil {
		t.Fatal(err)
	}
	r = rep.Results[0]
	if r.Chosen.Config != (Config{1, 2, 1, 2, 1}) || r.Chosen.seconds() != 4 {
		t.Errorf("min reps 3: chosen %v (%v s), want trial=2 iteration=2 slice=1 (4 s)", r.Chosen.Config, r.Chosen.seconds())
	}
	checkClose(t, "cv trial=2 iteration=2 slice=1", r.Chosen.Value, math.Sqrt(0.18)/100.4, 1e-12)
	cmd := reducedCommand(&r)
	if got, want := cmd.Line(), `go test -run '^$' -bench '^BenchmarkHand$/^sub$' -count 2 -benchtime 1s`; got != want || cmd.Repeat != 2 {
		t.Errorf("command %q ×%d, want %q ×2", got, cmd.Repeat, want)
	}
}

// TestMetricKnownValues checks the metric kernels on values computed by hand.
func TestMetricKnownValues(t *testing.T) {
	x := []float64{1, 2, 3, 4, 10}
	ws := new(workspace)
	opt := estimate.BootstrapOptions{Resamples: 1000, Confidence: 0.99}
	// mean 4, population variance (9+4+1+0+36)/5 = 10.
	v, avg, lo, hi := metricValue(CV, x, false, opt, nil, ws)
	checkClose(t, "cv", v, math.Sqrt(10)/4, 1e-15)
	checkClose(t, "cv average", avg, 4, 0)
	if !math.IsNaN(lo) || !math.IsNaN(hi) {
		t.Errorf("cv without CI gave bounds %v %v", lo, hi)
	}
	// median 3; |x − 3| = 2 1 0 1 7, median 1.
	v, avg, _, _ = metricValue(RMAD, x, false, opt, nil, ws)
	checkClose(t, "rmad", v, 1.0/3, 1e-15)
	checkClose(t, "rmad average", avg, 3, 0)
	// Even count: median of 1 2 3 4 is 2.5; deviations 1.5 .5 .5 1.5 → 1.
	v, avg, _, _ = metricValue(RMAD, []float64{4, 1, 3, 2}, false, opt, nil, ws)
	checkClose(t, "rmad even", v, 1/2.5, 1e-15)
	checkClose(t, "median even", avg, 2.5, 0)

	// The RCIW metrics are (U − L)/estimate of the stats kernels on the same stream.
	kernels := []struct {
		m  Metric
		ci stats.CIMethod
	}{{RCIWMean, stats.MeanPercentile}, {RCIWMeanT, stats.MeanStudentized}, {RCIWMedian, stats.MedianPercentile}}
	for _, k := range kernels {
		v, avg, lo, hi := metricValue(k.m, x, false, opt, stats.NewStream(7, "k", 1), ws)
		iv, err := stats.BootstrapCI(k.ci, x, opt, stats.NewStream(7, "k", 1), nil)
		if err != nil {
			t.Fatal(err)
		}
		if v != (iv.Upper-iv.Lower)/iv.Estimate || lo != iv.Lower || hi != iv.Upper || avg != iv.Estimate {
			t.Errorf("%s: got %v [%v, %v] avg %v, stats gives %+v", k.m, v, lo, hi, avg, iv)
		}
	}

	// Own RMAD equals stats.RMAD on random data.
	r := rand.New(rand.NewPCG(3, 4))
	for n := 1; n < 40; n++ {
		y := make([]float64, n)
		for i := range y {
			y[i] = math.Floor(r.Float64()*20) + 100 // ties on purpose
		}
		got, med := rmad(y, ws)
		if want := stats.RMAD(y, nil); got != want || med != stats.Median(y, nil) {
			t.Fatalf("rmad(%v) = %v (median %v), stats says %v", y, got, med, want)
		}
	}
}

// TestRCIWWidth checks the bootstrap RCIW of the mean against the normal
// approximation 2·z_{0.995}·sd/(√n·mean) on a large sample: with n = 400
// values of CV 2 % the width is 2·2.5758·0.02/20 = 0.0051517; the bootstrap
// with 10,000 resamples agrees within 5 %.
func TestRCIWWidth(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	x := make([]float64, 400)
	for i := range x {
		x[i] = 1000 * (1 + 0.02*r.NormFloat64())
	}
	ws := new(workspace)
	cv := stats.StdDev(x, nil) / stats.Mean(x, nil)
	want := 2 * 2.5758293035489 * cv / 20
	for _, m := range []Metric{RCIWMean, RCIWMeanT} {
		v, _, _, _ := metricValue(m, x, false, estimate.DefaultBootstrap, stats.NewStream(1, "w", uint64(m)), ws)
		if math.Abs(v/want-1) > 0.05 {
			t.Errorf("%s = %v, normal approximation %v", m, v, want)
		}
	}
	// The median's standard error is √(π/2) ≈ 1.2533 times the mean's for normal data.
	v, _, _, _ := metricValue(RCIWMedian, x, false, estimate.DefaultBootstrap, stats.NewStream(1, "w", 9), ws)
	if ratio := v / want; ratio < 1.0 || ratio > 1.6 {
		t.Errorf("rciw-median / rciw-mean approximation = %v, want about 1.25", ratio)
	}
}

// TestPruningEquivalence: pruned and exhaustive searches choose the same
// configurations, and the exhaustive choice is the rule applied to the
// whole table.
func TestPruningEquivalence(t *testing.T) {
	for _, seed := range []uint64{1, 2, 3} {
		specs := goSuiteGrid("p", "v1", 10, seed, nil, grid{instances: 2, trials: 3, forks: 1, iterations: 4, slices: 3})
		jmh := grid{instances: 1, trials: 1, forks: 3, iterations: 12, slices: 1}
		for i, noise := range []float64{0.002, 0.01, 0.03} {
			specs = append(specs, spec{project: "j", version: "v1", name: "org.ex.B.m" + string(rune('a'+i)), mode: "avgt",
				grid: jmh, mean: 500, noise: noise, forkSD: noise, seed: seed})
		}
		series := build(t, specs...)
		for _, ts := range []float64{0.01, 0.003} {
			opt := fastOptions()
			opt.Bootstrap.Resamples = 100
			opt.Threshold = ts
			opt.Seed = seed
			pruned, err := optimize(series, opt)
			if err != nil {
				t.Fatal(err)
			}
			opt.AllConfigs = true
			full, err := optimize(series, opt)
			if err != nil {
				t.Fatal(err)
			}
			reduced := 0
			for i := range pruned.Results {
				a, b := &pruned.Results[i], &full.Results[i]
				if a.Status != b.Status || a.Chosen != b.Chosen || a.Full != b.Full || a.Minimum != b.Minimum || a.Random != b.Random {
					t.Fatalf("seed %d ts %v %s %s: pruned %s %+v, exhaustive %s %+v", seed, ts, a.Key, a.Metric, a.Status, a.Chosen, b.Status, b.Chosen)
				}
				if a.Evaluated > b.Evaluated || b.Evaluated != b.Candidates || len(b.All) != b.Candidates {
					t.Errorf("%s %s: evaluated %d pruned, %d exhaustive of %d candidates", a.Key, a.Metric, a.Evaluated, b.Evaluated, b.Candidates)
				}
				if a.Status == StatusReduced {
					reduced++
				}
				// Apply the rule to the exhaustive table.
				var best *Evaluation
				for j := range b.All {
					e := &b.All[j]
					if !stable(e.Value, ts) {
						continue
					}
					if best == nil || e.TimeNs < best.TimeNs || (e.TimeNs == best.TimeNs && e.Value < best.Value) ||
						(e.TimeNs == best.TimeNs && e.Value == best.Value && lexLess(e.Config, best.Config)) {
						best = e
					}
				}
				if (best == nil) != (b.Status != StatusReduced) || (best != nil && best.Config != b.Chosen.Config) {
					t.Errorf("%s %s: rule on the whole table gives %v, search chose %v", b.Key, b.Metric, best, b.Chosen.Config)
				}
			}
			if reduced == 0 || reduced == len(pruned.Results) {
				t.Errorf("seed %d ts %v: %d of %d reduced; the test data should mix both", seed, ts, reduced, len(pruned.Results))
			}
		}
	}
}

// TestWorkersDeterminism: the same seed gives identical reports for 1 and 8 workers.
func TestWorkersDeterminism(t *testing.T) {
	series := build(t, goSuite("p", "v1", 6, 5, nil)...)
	opt := fastOptions()
	opt.Workers = 1
	a, err := optimize(series, opt)
	if err != nil {
		t.Fatal(err)
	}
	opt.Workers = 8
	b, err := optimize(series, opt)
	if err != nil {
		t.Fatal(err)
	}
	a.Options.Workers, b.Options.Workers = 0, 0
	if !reflect.DeepEqual(a, b) {
		t.Fatal("reports differ between 1 and 8 workers")
	}
	opt.Seed = 2
	c, err := optimize(series, opt)
	if err != nil {
		t.Fatal(err)
	}
	same := 0
	for i := range c.Results {
		if c.Results[i].Metric.bootstrapped() && c.Results[i].Full.Value == b.Results[i].Full.Value {
			same++
		}
	}
	if same > 0 {
		t.Errorf("another seed reproduced %d bootstrap values", same)
	}
}

// TestRagged: missing observations are reported and configurations use
// the values that exist.
func TestRagged(t *testing.T) {
	dropIt := func(ix [table.NumLevels]int32) bool { // iteration 2 of trial 1 on instance 2, as the real prometheus file
		return ix[table.LevelInstance] == 2 && ix[table.LevelTrial] == 1 && ix[table.LevelIteration] == 2
	}
	dropFirst := func(ix [table.NumLevels]int32) bool { // instance 1 trial 1 iteration 1 slices 1-2
		return ix[table.LevelInstance] == 1 && ix[table.LevelTrial] == 1 && ix[table.LevelIteration] == 1 && ix[table.LevelSlice] <= 2
	}
	series := build(t,
		spec{project: "p", version: "v1", name: "BenchmarkRagged", grid: goGrid, mean: 100, noise: 0.003, drop: dropIt, seed: 1},
		spec{project: "p", version: "v1", name: "BenchmarkRagged2", grid: goGrid, mean: 100, noise: 0.003, drop: dropFirst, seed: 1},
		spec{project: "p", version: "v1", name: "BenchmarkWhole", grid: goGrid, mean: 100, noise: 0.003, seed: 1},
	)
	opt := fastOptions()
	rep, err := optimize(series, opt)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Ragged) != 2 || rep.Ragged[0].Key.Benchmark != "BenchmarkRagged" || rep.Ragged[0].Missing != 5 || rep.Ragged[0].Expected != 225 ||
		rep.Ragged[1].Missing != 2 {
		t.Fatalf("ragged = %+v", rep.Ragged)
	}
	for _, r := range rep.Results {
		switch r.Key.Benchmark {
		case "BenchmarkRagged":
			if r.Missing != 5 || r.Full.Observations != 220 || r.Full.Repetitions != 44 {
				t.Errorf("%s: missing %d, full keeps %d observations, %d repetitions", r.Key.Benchmark, r.Missing, r.Full.Observations, r.Full.Repetitions)
			}
		case "BenchmarkRagged2":
			// The very first configuration (1 instance, 1 trial, 1 iteration, 1 slice) has no value.
			p, _ := prepare(series[1], &opt)
			if len(p.gather(nil, Config{1, 1, 1, 1, 1})) != 0 {
				t.Errorf("dropped slice still gathered")
			}
			if got := len(p.gather(nil, Config{1, 1, 1, 1, 3})); got != 1 {
				t.Errorf("config keeps %d values of slice 3, want 1", got)
			}
			if r.Status != StatusReduced {
				t.Errorf("%s %s not reduced", r.Key.Benchmark, r.Metric)
			}
		default:
			if r.Missing != 0 {
				t.Errorf("%s: missing %d", r.Key.Benchmark, r.Missing)
			}
		}
	}
	// Data with a finite value missing entirely is skipped, not a crash.
	b := table.NewBuilder(memory.NewGoAllocator(), 0)
	defer b.Release()
	b.Append(&table.Row{Benchmark: "BenchmarkNaN", Mode: "go", NsPerOp: math.NaN(), Count: 1})
	tab := b.Finish()
	defer tab.Release()
	rep, err = optimize(tab.Collect(table.Filter{}), opt)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Skipped) != 1 || !strings.Contains(rep.Skipped[0].Reason, "non-finite") || len(rep.Results) != 0 {
		t.Errorf("skipped = %+v", rep.Skipped)
	}
}

// TestBaselines: the minimum baseline is the cheapest configuration with
// enough repetitions; the random one is uniform over those, the same for
// every metric.
func TestBaselines(t *testing.T) {
	g := grid{instances: 1, trials: 2, forks: 1, iterations: 3, slices: 2}
	counts := map[Config]int{}
	const draws = 1200
	series := build(t, spec{project: "p", version: "v1", name: "BenchmarkB", grid: g, mean: 10, noise: 0.5, seed: 1})
	for seed := uint64(1); seed <= draws; seed++ {
		opt := fastOptions()
		opt.Seed = seed
		opt.Bootstrap.Resamples = 10
		opt.Metrics = []Metric{CV, RMAD}
		opt.Threshold = 1e-9 // nothing stable: only baselines matter
		p, _ := prepare(series[0], &opt)
		minimum, random, ok := p.baselines(&opt)
		if !ok {
			t.Fatal("no candidates")
		}
		counts[random]++
		if seed <= 3 {
			rep, err := optimize(series, opt)
			if err != nil {
				t.Fatal(err)
			}
			if rep.Results[0].Random.Config != rep.Results[1].Random.Config || rep.Results[0].Random.Config != random {
				t.Errorf("random baseline differs between metrics: %v %v", rep.Results[0].Random.Config, rep.Results[1].Random.Config)
			}
			if rep.Results[0].Status != StatusNotReduced || rep.Results[0].Chosen.Config != rep.Results[0].Full.Config {
				t.Errorf("unstable benchmark: %s, chosen %v", rep.Results[0].Status, rep.Results[0].Chosen.Config)
			}
			// 2×3×2 grid, reps = trials × iterations ≥ 3: (1,3,s) 3·s s, (2,2,s) 4·s s, (2,3,s) 6·s s.
			if minimum != (Config{1, 1, 1, 3, 1}) || rep.Results[0].Minimum.seconds() != 3 {
				t.Errorf("minimum = %v (%v s)", minimum, rep.Results[0].Minimum.seconds())
			}
		}
	}
	// Candidates: trial 1 × iteration 3, trial 2 × iteration 2 or 3, each with slices 1 or 2: 6.
	if len(counts) != 6 {
		t.Fatalf("random baseline drew %d distinct configurations, want the 6 candidates: %v", len(counts), counts)
	}
	var chi2 float64
	for _, n := range counts {
		d := float64(n) - draws/6.0
		chi2 += d * d / (draws / 6.0)
	}
	// χ²(5) 0.999 quantile is 20.5.
	if chi2 > 20.5 {
		t.Errorf("random baseline not uniform: χ² = %.1f, counts %v", chi2, counts)
	}
}

// TestDiscardWarmup: JMH-shaped data with a warmup phase; discarding it
// shrinks the iteration level and counts its time per fork.
func TestDiscardWarmup(t *testing.T) {
	g := grid{instances: 1, trials: 1, forks: 3, iterations: 30, slices: 1}
	series := build(t, spec{project: "j", version: "1", name: "org.ex.W.m", mode: "avgt", grid: g, mean: 100,
		noise: 0.003, warmupIters: 10, warmupFactor: 3, seed: 4})
	opt := fastOptions()
	opt.Metrics = []Metric{CV}
	rep, err := optimize(series, opt)
	if err != nil {
		t.Fatal(err)
	}
	with := rep.Results[0]
	opt.DiscardWarmup = 10
	rep, err = optimize(series, opt)
	if err != nil {
		t.Fatal(err)
	}
	r := rep.Results[0]
	if r.Full.Config != (Config{1, 1, 3, 20, 1}) || r.WarmupNs != 10e9 || r.Full.seconds() != 3*(10+20) {
		t.Errorf("discard 10: full %v, warmup %d ns, time %v s; want fork=3 iteration=20, 10 s, 90 s", r.Full.Config, r.WarmupNs, r.Full.seconds())
	}
	if rep.Excluded != 30 {
		t.Errorf("excluded %d observations, want 30", rep.Excluded)
	}
	// Without discarding, the cheapest stable configuration is the first
	// iteration of every fork: stable, but 3× too slow (warmup).
	if r.Status != StatusReduced || math.Abs(r.Chosen.Average/100-1) > 0.02 || with.Chosen.Average < 150 {
		t.Errorf("after discarding: %s, average %v (want ≈ 100); without: average %v (want the warmup's ≈ 300)",
			r.Status, r.Chosen.Average, with.Chosen.Average)
	}
	// Every configuration runs at least one fork with its 10 s warmup.
	if r.Chosen.TimeNs < 10e9+3e9 {
		t.Errorf("chosen time %v s misses the warmup", r.Chosen.seconds())
	}
	cmd := reducedCommand(&r)
	line := cmd.Line()
	if !strings.HasPrefix(line, `java -jar benchmarks.jar '^org\.ex\.W\.m$' -f `) || !strings.Contains(line, " -wi 10 ") ||
		!strings.Contains(line, " -w 1s -r 1s -bm avgt") {
		t.Errorf("command %q", line)
	}
}

// TestNoWarmupTime: with NoWarmupTime the discarded warmup costs nothing
// (the µOpTime prototype's JMH time model, forks × iterations), so a
// configuration of more forks and fewer iterations can win that loses
// when every fork pays its warmup; the command still runs the warmup.
func TestNoWarmupTime(t *testing.T) {
	g := grid{instances: 1, trials: 1, forks: 3, iterations: 30, slices: 1}
	series := build(t, spec{project: "j", version: "1", name: "org.ex.W.m", mode: "avgt", grid: g, mean: 100,
		noise: 0.003, warmupIters: 10, warmupFactor: 3, seed: 4})
	opt := fastOptions()
	opt.Metrics = []Metric{CV}
	opt.DiscardWarmup = 10
	opt.AllConfigs = true
	timed, err := optimize(series, opt)
	if err != nil {
		t.Fatal(err)
	}
	opt.NoWarmupTime = true
	free, err := optimize(series, opt)
	if err != nil {
		t.Fatal(err)
	}
	tr, fr := timed.Results[0], free.Results[0]
	if fr.WarmupNs != 0 || tr.WarmupNs != 10e9 || fr.Full.seconds() != 3*20 || tr.Full.seconds() != 3*(10+20) {
		t.Errorf("warmup %d and %d ns, full %v and %v s; want 0 and 10 s, 60 and 90 s", fr.WarmupNs, tr.WarmupNs, fr.Full.seconds(), tr.Full.seconds())
	}
	for _, ev := range fr.All {
		want := float64(ev.Config[table.LevelFork] * ev.Config[table.LevelIteration])
		if ev.TimeNs != int64(want*1e9) {
			t.Fatalf("%v: %d ns, want forks × iterations = %v s", ev.Config, ev.TimeNs, want)
		}
	}
	// The cheapest configurations with 3 repetitions are stable here:
	// 3 s without the warmup's time (one fork × 3 iterations or 3 forks ×
	// 1, the smaller cv wins), with it one fork × 3 iterations, 13 s
	// (3 forks × 1 cost 33 s).
	if fr.Chosen.seconds() != 3 || tr.Chosen.seconds() != 13 || tr.Chosen.Config[table.LevelFork] != 1 {
		t.Errorf("chosen %v (%v s) without warmup time, %v (%v s) with; want 3 s and 13 s on one fork", fr.Chosen.Config, fr.Chosen.seconds(), tr.Chosen.Config, tr.Chosen.seconds())
	}
	cmd := reducedCommand(&fr)
	if line := cmd.Line(); !strings.Contains(line, " -wi 10 ") {
		t.Errorf("command %q lacks the warmup", line)
	}
	var sb strings.Builder
	writeText(&sb, free, nil)
	if !strings.Contains(sb.String(), "seed 1; warmup not timed)") {
		t.Errorf("text lacks the time model:\n%s", sb.String())
	}
}

// TestSampleMode: histogram rows of one iteration form one observation
// whose value is their count-weighted mean.
func TestSampleMode(t *testing.T) {
	g := grid{instances: 1, trials: 1, forks: 2, iterations: 5, slices: 1}
	series := build(t, spec{project: "j", version: "1", name: "org.ex.S.m", mode: "sample", grid: g, mean: 1000, noise: 0.01, buckets: 4, seed: 2})
	opt := fastOptions()
	p, skip := prepare(series[0], &opt)
	if skip != nil {
		t.Fatal(skip.Reason)
	}
	if len(p.val) != 10 || series[0].Len() != 40 {
		t.Fatalf("%d observations from %d rows, want 10 from 40", len(p.val), series[0].Len())
	}
	spans := series[0].Units(table.LevelIteration)
	for i, sp := range spans {
		if want := series[0].WeightedMean(sp); p.val[i] != want {
			t.Errorf("observation %d = %v, want weighted mean %v", i, p.val[i], want)
		}
	}
}

func TestOptionsValidation(t *testing.T) {
	bad := []func(o *Options){
		func(o *Options) { o.Metrics = nil },
		func(o *Options) { o.Metrics = []Metric{CV, CV} },
		func(o *Options) { o.Threshold = 0 },
		func(o *Options) { o.Threshold = math.Inf(1) },
		func(o *Options) { o.Bootstrap.Resamples = 0 },
		func(o *Options) { o.MinRepetitions = 0 },
		func(o *Options) { o.DiscardWarmup = -1 },
		func(o *Options) {
			o.Fixed, o.First = []table.Level{table.LevelInstance}, []table.Level{table.LevelInstance}
		},
		func(o *Options) { o.Parallel = []table.Level{table.LevelIteration} },
	}
	for i, f := range bad {
		o := DefaultOptions
		f(&o)
		if _, err := optimize(nil, o); err == nil {
			t.Errorf("case %d: no error", i)
		}
	}
	if ms, err := ParseMetrics("all"); err != nil || len(ms) != 5 {
		t.Errorf("all: %v %v", ms, err)
	}
	if ms, err := ParseMetrics("rmad, rciw-mean-t"); err != nil || !reflect.DeepEqual(ms, []Metric{RMAD, RCIWMeanT}) {
		t.Errorf("list: %v %v", ms, err)
	}
	for _, s := range []string{"", "cv,cv", "cv,all", "rciw"} {
		if _, err := ParseMetrics(s); err == nil {
			t.Errorf("ParseMetrics(%q): no error", s)
		}
	}
	if ls, err := ParseLevels("instance,fork"); err != nil || !reflect.DeepEqual(ls, []table.Level{table.LevelInstance, table.LevelFork}) {
		t.Errorf("ParseLevels: %v %v", ls, err)
	}
	if _, err := ParseLevels("core"); err == nil {
		t.Error("ParseLevels(core): no error")
	}
	if vs := ParseVersions(" 1.0.0, 1.2.0 ,1.10.0"); !reflect.DeepEqual(vs, []string{"1.0.0", "1.2.0", "1.10.0"}) || ParseVersions("") != nil {
		t.Errorf("ParseVersions: %q, %q", vs, ParseVersions(""))
	}
}

// TestFixedFirstParallel: --first restricts the data, --fixed keeps a
// level whole, parallel instances do not add time.
func TestFixedFirstParallel(t *testing.T) {
	series := build(t, spec{project: "p", version: "v", name: "BenchmarkF", grid: goGrid, mean: 50, noise: 0.002, seed: 3})
	opt := fastOptions()
	opt.Metrics = []Metric{RMAD}
	opt.First = []table.Level{table.LevelInstance}
	rep, err := optimize(series, opt)
	if err != nil {
		t.Fatal(err)
	}
	r := rep.Results[0]
	if r.Full.Config != (Config{1, 3, 1, 5, 5}) || r.Full.Observations != 75 || r.Configurations != 75 || rep.Excluded != 150 {
		t.Errorf("--first instance: full %v with %d values, %d configurations, %d excluded", r.Full.Config, r.Full.Observations, r.Configurations, rep.Excluded)
	}
	if r.Chosen.Config != (Config{1, 1, 1, 3, 1}) && r.Chosen.Config != (Config{1, 3, 1, 1, 1}) {
		t.Errorf("low-noise benchmark should reduce to 3 s, chose %v", r.Chosen.Config)
	}
	opt.First = nil
	opt.Fixed = []table.Level{table.LevelInstance}
	rep, err = optimize(series, opt)
	if err != nil {
		t.Fatal(err)
	}
	r = rep.Results[0]
	if r.Chosen.Config[table.LevelInstance] != 3 || r.Full.seconds() != 75 || r.Configurations != 75 {
		t.Errorf("--fixed instance: chosen %v, full %v s, %d configurations", r.Chosen.Config, r.Full.seconds(), r.Configurations)
	}
	opt.Fixed = nil
	opt.Parallel = nil
	rep, err = optimize(series, opt)
	if err != nil {
		t.Fatal(err)
	}
	if r := rep.Results[0]; r.Full.seconds() != 225 {
		t.Errorf("sequential instances: full %v s, want 225", r.Full.seconds())
	}
}

// TestMetricsShareCIs: the metrics of one series share complete CIs
// (ws.cis), so each metric run alone must report exactly what it reports
// in a run of all metrics; cv and rmad report the shared resampling's CIs,
// and so do the RCIW metrics for configurations costlier than their choice.
func TestMetricsShareCIs(t *testing.T) {
	series := build(t, goSuiteGrid("p", "v1", 4, 9, nil, grid{instances: 1, trials: 2, forks: 1, iterations: 4, slices: 3})...)
	opt := fastOptions()
	opt.Bootstrap.Resamples = 4000
	opt.Threshold = 0.004
	together, err := optimize(series, opt)
	if err != nil {
		t.Fatal(err)
	}
	byKey := map[string]*Result{}
	for i := range together.Results {
		r := &together.Results[i]
		byKey[r.Key.String()+" "+r.Metric.String()] = r
	}
	for _, m := range allMetrics {
		o := opt
		o.Metrics = []Metric{m}
		alone, err := optimize(series, o)
		if err != nil {
			t.Fatal(err)
		}
		for _, a := range alone.Results {
			b := byKey[a.Key.String()+" "+m.String()]
			if a.Status != b.Status || a.Chosen != b.Chosen || a.Full != b.Full || a.Minimum != b.Minimum || a.Random != b.Random {
				t.Errorf("%s %s: alone %s %+v, with the other metrics %s %+v", a.Key, m, a.Status, a.Chosen, b.Status, b.Chosen)
			}
		}
	}
	shared := 0
	for i := range together.Results {
		r := &together.Results[i]
		var other Metric
		switch r.Metric {
		case CV:
			other = RCIWMean
		case RMAD:
			other = RCIWMedian
		default:
			continue
		}
		o := byKey[r.Key.String()+" "+other.String()]
		if o.Status != StatusReduced || o.Full.TimeNs <= o.Chosen.TimeNs {
			continue
		}
		shared++
		if r.Full.Lower != o.Full.Lower || r.Full.Upper != o.Full.Upper {
			t.Errorf("%s: %s and %s report different CIs of the full configuration", r.Key, r.Metric, other)
		}
	}
	if shared == 0 {
		t.Error("no full configuration beyond an RCIW choice; the test checks nothing shared")
	}
}

// TestPruningEquivalenceEarlyRejection: with enough resamples for the
// early rejection, pruned and exhaustive searches still choose alike.
func TestPruningEquivalenceEarlyRejection(t *testing.T) {
	series := build(t, goSuiteGrid("p", "v1", 5, 9, nil, grid{instances: 1, trials: 2, forks: 1, iterations: 4, slices: 3})...)
	opt := fastOptions()
	opt.Bootstrap.Resamples = 4000
	opt.Metrics = []Metric{RCIWMean, RCIWMeanT, RCIWMedian}
	opt.Threshold = 0.004
	pruned, err := optimize(series, opt)
	if err != nil {
		t.Fatal(err)
	}
	opt.AllConfigs = true
	full, err := optimize(series, opt)
	if err != nil {
		t.Fatal(err)
	}
	rejected := 0
	for i := range pruned.Results {
		a, b := &pruned.Results[i], &full.Results[i]
		rejected += a.EarlyRejected
		if a.Status != b.Status || a.Chosen != b.Chosen || a.Full != b.Full {
			t.Errorf("%s %s: pruned %s %v, exhaustive %s %v", a.Key, a.Metric, a.Status, a.Chosen.Config, b.Status, b.Chosen.Config)
		}
		if b.EarlyRejected != 0 {
			t.Errorf("exhaustive search rejected early")
		}
	}
	if rejected == 0 {
		t.Error("no configuration was rejected early; the test does not exercise the bound")
	}
}

// TestSparseGridSkipped: series whose largest indices span a grid far
// larger than the data are skipped with the reason, without allocating by
// the indices. Tables from ingest cannot hold indices beyond
// table's maxLevelIndex, but a table built in code (or indices below it,
// here iteration 60000 in a run of 3 rows, and a diagonal of forks and
// iterations) still could; before, fork = iteration = 10⁹ panicked
// (makeslice: cap out of range) and iteration = 10⁸ took 13.8 GB.
func TestSparseGridSkipped(t *testing.T) {
	cases := []struct {
		name   string
		levels [][2]int32 // fork, iteration of each row
		reason string
	}{
		{"iteration 60000", [][2]int32{{1, 1}, {1, 2}, {1, 60000}},
			"sparse grid: 1 instances × 1 trials × 1 forks × 60000 iterations × 1 slices is 60000 cells for 3 observations (at most 16·n + 4096 are simulated)"},
		{"fork and iteration 1e9", [][2]int32{{1, 1}, {1, 2}, {1e9, 1e9}},
			"sparse grid: 1 instances × 1 trials × 1000000000 forks × 1000000000 iterations × 1 slices is 1000000000000000000 cells for 3 observations"},
		{"diagonal", diagonal(300), "sparse grid: 1 instances × 1 trials × 300 forks × 300 iterations × 1 slices is 90000 cells for 300 observations"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b := table.NewBuilder(memory.NewGoAllocator(), 0)
			defer b.Release()
			for i, fi := range c.levels {
				if err := b.Append(&table.Row{Benchmark: "b.Sparse", Mode: "avgt", Unit: "ns/op", Value: float64(100 + i), NsPerOp: float64(100 + i),
					Count: 1, Fork: fi[0], Iteration: fi[1]}); err != nil {
					t.Fatal(err)
				}
			}
			tab := b.Finish()
			defer tab.Release()
			var rep *Report
			var err error
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			rep, err = optimize(tab.Collect(table.Filter{}), fastOptions())
			runtime.ReadMemStats(&after)
			if err != nil {
				t.Fatal(err)
			}
			if len(rep.Skipped) != 1 || !strings.HasPrefix(rep.Skipped[0].Reason, c.reason) || len(rep.Results) != 0 {
				t.Errorf("skipped = %+v, want one with reason %q", rep.Skipped, c.reason)
			}
			if n := after.TotalAlloc - before.TotalAlloc; n > 8<<20 {
				t.Errorf("allocated %d bytes, want < 8 MiB", n)
			}
		})
	}
}

// diagonal is n rows at fork i, iteration i.
func diagonal(n int) [][2]int32 {
	out := make([][2]int32, n)
	for i := range out {
		out[i] = [2]int32{int32(i + 1), int32(i + 1)}
	}
	return out
}
