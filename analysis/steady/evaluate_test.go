package steady

import (
	"math"
	"testing"

	"github.com/benchtrim/benchtrim/table"
)

// levelSegmenter puts a change point wherever the value changes: the exact
// segmentation of a piecewise-constant test series.
type levelSegmenter struct{}

func (levelSegmenter) Segment(x []float64) (*Segmentation, error) {
	var cps []int
	for i := 1; i < len(x); i++ {
		if x[i] != x[i-1] {
			cps = append(cps, i)
		}
	}
	return &Segmentation{Changepoints: cps, Penalty: nan, Rule: "levels"}, nil
}

// levels builds a fork of n iterations of sec seconds each whose value is
// level[j] from start[j] on (start[0] = 0).
func levels(fork int32, n int, sec float64, start []int, level []float64) forkSeries {
	f := forkSeries{id: ForkID{1, 1, fork}, ops: 1e6}
	j := 0
	for i := 0; i < n; i++ {
		if j+1 < len(start) && i >= start[j+1] {
			j++
		}
		f.values = append(f.values, level[j])
		f.nanos = append(f.nanos, sec*1e9)
	}
	return f
}

func fixedSet(name string, forks int, c WarmupConfig) ConfigSet {
	return ConfigSet{Name: name, lookup: func(table.Key, *table.Setup) (benchmarkConfig, bool) {
		return benchmarkConfig{forks: forks, Default: c, hasDefault: true}, true
	}}
}

func close(a, b float64) bool { return math.Abs(a-b) <= 1e-12*math.Max(1, math.Abs(b)) }

func TestReplay(t *testing.T) {
	sec := func(n int, s float64) []float64 {
		x := make([]float64, n)
		for i := range x {
			x[i] = s * 1e9
		}
		return x
	}
	for _, tc := range []struct {
		name     string
		nanos    []float64
		c        WarmupConfig
		w, m     int
		complete bool
	}{
		// -w 2s over 1-s iterations: each warmup iteration takes 2 recorded
		// ones, 3 of them 6; -r 1s: 2 measurement iterations take 2 more.
		{"2s over 1s", sec(20, 1), WarmupConfig{3, 2e9, 2, 1e9}, 6, 8, true},
		// Ten 0.1-s iterations make one of 1 s (Σ = 0.9999999999999999 in
		// float64 without the tolerance, which would need an 11th).
		{"0.1s over 1s", sec(30, 0.1), WarmupConfig{2, 1e9, 1, 1e9}, 20, 30, true},
		// The accumulated time restarts at 0: a 2-s iteration completes one
		// 1-s iteration, nothing carries over.
		{"2s over 1s carry", sec(10, 2), WarmupConfig{3, 1e9, 2, 1e9}, 3, 5, true},
		// Unknown times: one recorded iteration per configured iteration.
		{"unknown times", sec(10, 0.3), WarmupConfig{4, 0, 3, 0}, 4, 7, true},
		// No warmup consumes nothing (the script would consume one).
		{"no warmup", sec(10, 1), WarmupConfig{0, 1e9, 3, 1e9}, 0, 3, true},
		// The fork ends first.
		{"truncated warmup", sec(5, 1), WarmupConfig{10, 1e9, 2, 1e9}, 5, 5, false},
		{"truncated measurement", sec(5, 1), WarmupConfig{2, 1e9, 10, 1e9}, 2, 5, false},
	} {
		w, m, ok := replay(tc.nanos, tc.c)
		if w != tc.w || m != tc.m || ok != tc.complete {
			t.Errorf("%s: Replay = %d, %d, %v; want %d, %d, %v", tc.name, w, m, ok, tc.w, tc.m, tc.complete)
		}
	}
}

func TestRPD(t *testing.T) {
	for _, tc := range []struct{ lo, hi, want float64 }{
		{0.98, 1.03, 0}, {1, 1, 0}, {1.1, 1.3, 0.2}, {0.7, 0.9, 0.2}, {1.5, 1.5, 0.5},
	} {
		if got := rpd(tc.lo, tc.hi); !close(got, tc.want) {
			t.Errorf("RPD(%v, %v) = %v, want %v", tc.lo, tc.hi, got, tc.want)
		}
	}
	if !math.IsNaN(rpd(nan, 1)) {
		t.Error("RPD with a NaN bound is not NaN")
	}
}

// TestEvaluateHandComputed checks the steady-state analysis and the
// evaluation on piecewise-constant forks whose results follow by hand:
// constant samples make every bootstrap replicate equal, so the CIs are
// exact.
func TestEvaluateHandComputed(t *testing.T) {
	opt := DefaultOptions
	opt.Segmenter = levelSegmenter{}
	opt.SteadyWindow = 30
	opt.Bootstrap.Resamples = 2000
	cfg := WarmupConfig{WarmupIterations: 5, WarmupTimeNs: 1e9, MeasurementIterations: 10, MeasurementTimeNs: 1e9}
	opt.Configs = []ConfigSet{fixedSet("all forks", 0, cfg), fixedSet("two forks", 2, cfg)}
	forks := []forkSeries{
		// A: 20 iterations at 150 ns, then 100 ns; 1 s each.
		levels(1, 60, 1, []int{0, 20}, []float64{150, 100}),
		// B: 4 iterations at 130, then 100.
		levels(2, 60, 1, []int{0, 4}, []float64{130, 100}),
		// C: 2 iterations at 200, then 100; 2 s each.
		levels(3, 60, 2, []int{0, 2}, []float64{200, 100}),
		// D: a step up at 50, inside the last 30 iterations.
		levels(4, 60, 1, []int{0, 50}, []float64{100, 150}),
	}
	br, err := analyzeForks(table.Key{Benchmark: "hand"}, nil, forks, opt)
	if err != nil {
		t.Fatal(err)
	}
	// Steady state: A's segment at 150 has mean(last)/mean = 100/150, a CI
	// of [0.667, 0.667] <= 0.95, so it differs and st = 20 (20 s). B: st =
	// 4 (4 s); C: st = 2 (2 iterations of 2 s = 4 s); D: the first segment
	// (ratio 1.5 >= 1.05) differs, st = 50 > 60 − 30: no steady state.
	wantForks := []struct {
		class   ForkClass
		barrett BarrettClass
		st      int
		stSec   float64
	}{
		{ForkSteady, BarrettWarmup, 20, 20},
		{ForkSteady, BarrettWarmup, 4, 4},
		{ForkSteady, BarrettWarmup, 2, 4},
		{ForkNoSteady, BarrettNoSteady, -1, nan},
	}
	for i, w := range wantForks {
		f := br.Forks[i]
		if f.Class != w.class || f.Barrett != w.barrett || f.SteadyStart != w.st ||
			!(close(f.SteadySeconds, w.stSec) || math.IsNaN(w.stSec) && math.IsNaN(f.SteadySeconds)) {
			t.Errorf("fork %d: class %v/%v st %d (%v s), want %v/%v st %d (%v s)",
				i+1, f.Class, f.Barrett, f.SteadyStart, f.SteadySeconds, w.class, w.barrett, w.st, w.stSec)
		}
	}
	if br.Class != benchmarkInconsistent {
		t.Errorf("benchmark class %v, want inconsistent", br.Class)
	}

	// Evaluation of -wi 5 -w 1s -i 10 -r 1s:
	//   A: warmup 5 iterations, wt = 5 s; wt − st = 5 − 20 = −15:
	//      underestimated, WEE 15, no waste; kept [5, 15) all 150 against
	//      steady [20, 60) all 100: ratio CI [1.5, 1.5], RPD 0.5.
	//   B: wt = 5 s, st = 4 s: deviation 1, exact; kept and steady all 100:
	//      CI [1, 1], RPD 0.
	//   C: 2-s iterations: each completes a 1-s warmup iteration, wt = 10 s,
	//      st = 4 s: deviation 6 >= 5, overestimated, waste 6; RPD 0.
	//   D: not steady: run, but no WEE or RPD.
	type want struct {
		w, m           int
		wt, dev, waste float64
		est            Estimation
		rpd, low, high float64
	}
	wants := []want{
		{5, 10, 5, -15, 0, EstimationUnder, 0.5, 1.5, 1.5},
		{5, 10, 5, 1, 0, EstimationExact, 0, 1, 1},
		{5, 10, 10, 6, 6, EstimationOver, 0, 1, 1},
	}
	ev := br.Evaluations[0]
	if ev.ForksRun != 4 || ev.SteadyForks != 3 {
		t.Errorf("forks run %d, steady %d; want 4, 3", ev.ForksRun, ev.SteadyForks)
	}
	for i, w := range wants {
		fe := ev.Forks[i]
		if !fe.Run || fe.WarmupIterations != w.w || fe.MeasurementIterations != w.m || !close(fe.WarmupSeconds, w.wt) ||
			!close(fe.Deviation, w.dev) || !close(fe.WEE, math.Abs(w.dev)) || !close(fe.TimeWaste, w.waste) || fe.Estimation != w.est ||
			!close(fe.RPD, w.rpd) || !close(fe.RatioLow, w.low) || !close(fe.RatioHigh, w.high) {
			t.Errorf("fork %d: %+v, want %+v", i+1, fe, w)
		}
	}
	if d := ev.Forks[3]; !d.Run || !math.IsNaN(d.WEE) || !math.IsNaN(d.RPD) || d.WarmupIterations != 5 {
		t.Errorf("fork 4 (no steady state): %+v", d)
	}
	// Benchmark RPD: kept fork means 150, 100, 100, 100 (constant within
	// forks), steady all 100. A replicate draws 4 forks; with k draws of A
	// the ratio is (150k + 100(4−k))/400 = 1 + k/8, k ~ Binomial(4, 1/4):
	// P(k = 0) = 0.316 > 0.025 gives the lower bound 1; P(k <= 2) = 0.949 <
	// 0.975 <= P(k <= 3) = 0.996 gives the upper bound 1 + 3/8. The CI
	// [1, 1.375] contains 1: RPD 0.
	if !close(ev.RatioLow, 1) || !close(ev.RatioHigh, 1.375) || ev.RPD != 0 {
		t.Errorf("benchmark RPD %v, CI [%v, %v]; want 0, [1, 1.375]", ev.RPD, ev.RatioLow, ev.RatioHigh)
	}
	// With two forks only A and B run: kept means 150 and 100 → ratio 1 +
	// k/4 with k ~ Binomial(2, 1/2): P(k = 0) = 0.25, P(k <= 1) = 0.75, so the
	// CI is [1, 1.5]; forks 3 and 4 are not run.
	ev2 := br.Evaluations[1]
	if ev2.ForksRun != 2 || ev2.Forks[2].Run || ev2.Forks[3].Run || !close(ev2.RatioLow, 1) || !close(ev2.RatioHigh, 1.5) {
		t.Errorf("two forks: run %d, fork 3 run %v, CI [%v, %v]; want 2, false, [1, 1.5]", ev2.ForksRun, ev2.Forks[2].Run, ev2.RatioLow, ev2.RatioHigh)
	}

	// Two forks like A: kept all 150, steady all 100 → ratio exactly 1.5.
	br2, err := analyzeForks(table.Key{Benchmark: "hand2"}, nil, []forkSeries{forks[0], levels(2, 60, 1, []int{0, 20}, []float64{150, 100})}, opt)
	if err != nil {
		t.Fatal(err)
	}
	if e := br2.Evaluations[0]; !close(e.RPD, 0.5) || !close(e.RatioLow, 1.5) || !close(e.RatioHigh, 1.5) {
		t.Errorf("benchmark of two A forks: RPD %v CI [%v, %v], want 0.5 [1.5, 1.5]", e.RPD, e.RatioLow, e.RatioHigh)
	}
}

func TestCompareHandComputed(t *testing.T) {
	// Sets A and B evaluated on three steady forks with WEE A = 10, 3, 20
	// and B = 1, 2, 30 seconds. Transformed (below 5 s → 0): A = 10, 0, 20;
	// B = 0, 0, 30. Â12 = Σ over pairs of [a > b] + ½[a = b] / 9:
	// a = 10: 1 + 1 + 0; a = 0: ½ + ½ + 0; a = 20: 1 + 1 + 0 → 5/9.
	// RPD A = 0.2, 0.01, 0 and B = 0, 0, 0 → transformed A = 0.2, 0, 0:
	// a = 0.2 beats all three (3), the zeros tie all three (2·1.5) → 6/9.
	mk := func(wee, rpd []float64) BenchmarkEvaluation {
		ev := BenchmarkEvaluation{Configured: true}
		for i := range wee {
			ev.Forks = append(ev.Forks, ForkEvaluation{Run: true, Class: ForkSteady, WEE: wee[i], RPD: rpd[i]})
		}
		return ev
	}
	res := &Report{Options: Options{Configs: []ConfigSet{{Name: "A"}, {Name: "B"}}}}
	res.Benchmarks = []BenchmarkResult{{
		Forks:       make([]ForkResult, 3),
		Evaluations: []BenchmarkEvaluation{mk([]float64{10, 3, 20}, []float64{0.2, 0.01, 0}), mk([]float64{1, 2, 30}, []float64{0, 0, 0})},
	}}
	cmp, err := compare(res, 0, 1)
	if err != nil {
		t.Fatal(err)
	}
	if len(cmp) != 2 || cmp[0].score != scoreWEE || cmp[0].n != 3 || !close(cmp[0].a12, 5.0/9) || !close(cmp[0].medianA, 10) || !close(cmp[0].medianB, 2) {
		t.Errorf("WEE comparison %+v", cmp[0])
	}
	if !close(cmp[1].a12, 6.0/9) || cmp[1].magnitude != "medium" {
		t.Errorf("RPD comparison %+v, want Â12 6/9 (medium)", cmp[1])
	}
	// Rank-sum p of A = {10, 3, 20} vs B = {1, 2, 30}: U = 6 of 9, exact
	// (no ties, sizes 3 and 3): P(U' >= 6) = 7/20 (scipy 1.10.1's
	// mannwhitneyu, Debian python3: statistic 6, p = 0.7 two-sided;
	// testdata/ranksum_reference.py).
	if !close(cmp[0].p, 0.7) {
		t.Errorf("WEE rank-sum p %v, want 0.7", cmp[0].p)
	}
}
