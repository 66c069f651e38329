package reconfigure

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/benchtrim/benchtrim/internal/stats"
	"github.com/benchtrim/benchtrim/table"
)

// flatSuite generates n flat avgt benchmarks of 5 forks × 100 iterations
// (2 % iteration noise, 1 % between forks), the shape of the paper's data.
func flatSuite(n int, seed uint64) []*table.Series {
	out := make([]*table.Series, n)
	for i := range out {
		key := table.Key{Project: fmt.Sprintf("proj%d", i%2), Version: "v1", Benchmark: fmt.Sprintf("Bench.flat%02d", i), Mode: "avgt"}
		out[i] = genSeries(key, genSpec{forks: 5, iters: 100, mean: 1000 * float64(i+1), noise: 0.02, forkSD: 0.01}, seed)
	}
	return out
}

// TestAAFlatNotDifferent: on flat data the dynamic and the static
// configuration measure the same distribution, so the 99 % A/A interval
// of the ratio of means should contain 1 for most benchmarks (a few
// exceptions come from stopping rules and the bootstrap's coverage of
// few forks).
func TestAAFlatNotDifferent(t *testing.T) {
	series := flatSuite(20, 3)
	opt := DefaultOptions
	opt.AA.Resamples = 2000 // enough for a 99 % interval; keeps the test fast
	res, err := replayAll(series, opt)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range AllCriteria {
		nd, tested := 0, 0
		var change float64
		for _, r := range res {
			if r.Skipped != "" {
				t.Fatalf("%s skipped: %s", r.Key, r.Skipped)
			}
			cr := r.Criterion(c)
			if !cr.AA.Available {
				t.Fatalf("%s %s: no A/A: %s", r.Key, c, cr.AA.Reason)
			}
			tested++
			if cr.AA.NotDifferent {
				nd++
			}
			change += cr.AA.ChangeRate
		}
		if nd < 16 {
			t.Errorf("%s: %d of %d A/A tests not different, want at least 16", c, nd, tested)
		}
		if mean := change / float64(tested); mean > 0.02 {
			t.Errorf("%s: mean change rate %.4f on flat data, want below 2 %%", c, mean)
		}
	}
	// The summary agrees with the per-benchmark results.
	rows := summaryRows(res, nil)
	if len(rows) != 3*3 {
		t.Fatalf("%d summary rows, want 9 (2 projects + all, 3 criteria)", len(rows))
	}
	last := rows[len(rows)-1]
	if last.Project != overall || last.Criterion != CriterionKLD || last.Benchmarks != 20 || last.AATested != 20 {
		t.Errorf("overall KLD row = %+v", last)
	}
	checkClose(t, "static hours", last.StaticHours, 20*5*100.0/3600, 1e-9)
}

// TestAADetectsChange: when the dynamic measurements come from a slower
// part of the data than the baseline, the A/A test reports a difference.
func TestAADetectsChange(t *testing.T) {
	key := table.Key{Project: "p", Benchmark: "late", Mode: "avgt"}
	// Iterations 1–50 are 10 % slower than 51–100: the dynamic
	// configuration measures among the first 60, the baseline 51–100.
	slow := func(k int) float64 {
		if k < 50 {
			return 1.1
		}
		return 1
	}
	s := genSeries(key, genSpec{forks: 5, iters: 100, mean: 2000, noise: 0.01, forkSD: 0.005, curve: slow}, 5)
	res, err := replaySeries(s, DefaultOptions)
	if err != nil {
		t.Fatal(err)
	}
	for _, cr := range res.Criteria {
		if !cr.AA.Available || cr.AA.NotDifferent {
			t.Errorf("%s: A/A %+v, want a detected difference", cr.Criterion, cr.AA)
			continue
		}
		checkClose(t, cr.Criterion.String()+" ratio", cr.AA.Ratio.Ratio.Estimate, 1.1, 0.02)
	}
}

// TestDeterministicAcrossWorkers: the same seed gives the same results with
// 1 and 4 workers, and another seed changes the random parts.
func TestDeterministicAcrossWorkers(t *testing.T) {
	series := flatSuite(6, 11)
	series = append(series, genSeries(table.Key{Project: "s", Benchmark: "sampled", Mode: "sample"},
		genSpec{forks: 3, iters: 70, mean: 3000, noise: 0.02, forkSD: 0.01, invocations: 300, invNoise: 0.05}, 11))
	render := func(workers int, seed uint64) string {
		opt := DefaultOptions
		opt.Workers, opt.Seed = workers, seed
		opt.AA.Resamples = 2000
		res, err := replayAll(series, opt)
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(t.TempDir(), "benchmarks.csv")
		if err := benchmarkTable(res).WriteFile(path); err != nil {
			t.Fatal(err)
		}
		csv, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		b := bytes.NewBuffer(csv)
		if err := writeConfigs(b, configs(res)); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	one, four := render(1, 1), render(4, 1)
	if one != four {
		t.Fatalf("results differ between 1 and 4 workers:\n%s\n---\n%s", one, four)
	}
	if other := render(4, 2); other == one {
		t.Error("seed 2 gives the same results as seed 1")
	}
}

// TestShortAndRaggedForks: forks with fewer than wi_max + mi iterations cap
// the warmup so that mi measurements remain; a fork with no more than mi
// iterations is measured without warmup; fewer forks than f_max and no
// baseline iterations are reported, not errors.
func TestShortAndRaggedForks(t *testing.T) {
	key := table.Key{Project: "p", Benchmark: "ragged", Mode: "avgt"}
	// Never stable (geometric drift), so every fork runs to its cap.
	drift := func(k int) float64 { return math.Pow(1.2, float64(k)) }
	s := genSeries(key, genSpec{forks: 3, mean: 100, noise: 0.01, curve: drift, forkIters: []int{30, 8, 50}}, 1)
	opt := DefaultOptions
	opt.Criteria = []Criterion{CriterionCV}
	res, err := replaySeries(s, opt)
	if err != nil {
		t.Fatal(err)
	}
	if res.Skipped != "" {
		t.Fatal(res.Skipped)
	}
	if !res.Short || res.ForksInData != 3 || fmt.Sprint(res.IterationsInData) != "[30 8 50]" {
		t.Errorf("short %v, forks %d, iterations %v; want true, 3, [30 8 50]", res.Short, res.ForksInData, res.IterationsInData)
	}
	cr := res.Criteria[0]
	want := []struct{ warm, meas int }{{20, 10}, {0, 8}, {40, 10}}
	if len(cr.Forks) != 3 {
		t.Fatalf("%d forks run, want all 3 of the data", len(cr.Forks))
	}
	for i, w := range want {
		f := cr.Forks[i]
		if f.WarmupIterations != w.warm || f.MeasurementIterations != w.meas || f.WarmupStable || !f.Short {
			t.Errorf("fork %d: warmup %d (stable %v), measurement %d, short %v; want %d (capped), %d, short",
				i+1, f.WarmupIterations, f.WarmupStable, f.MeasurementIterations, f.Short, w.warm, w.meas)
		}
	}
	if cr.ForksStable {
		t.Error("forks stable on a drifting benchmark")
	}
	if cr.AA.Available || !strings.Contains(cr.AA.Reason, "no baseline") {
		t.Errorf("A/A = %+v, want unavailable for lack of baseline iterations", cr.AA)
	}
	if res.BaselineForks != 0 || res.BaselineIterations != 0 {
		t.Errorf("baseline forks %d, iterations %d; want none (no fork has more than 50 iterations)", res.BaselineForks, res.BaselineIterations)
	}
	rows := summaryRows([]Result{res}, opt.Criteria)
	if rows[0].Short != 1 || rows[0].WarmupNeverStable != 1 || rows[0].ForksNeverStable != 1 {
		t.Errorf("summary %+v: want 1 short benchmark, all warmups and forks capped", rows[0])
	}
}

// TestBaselineFromShortForks: a fork with 55 iterations contributes
// iterations 51–55 to the baseline; the A/A test runs on what exists.
func TestBaselineFromShortForks(t *testing.T) {
	key := table.Key{Project: "p", Benchmark: "short", Mode: "avgt"}
	s := genSeries(key, genSpec{forks: 2, mean: 100, noise: 0.01, forkIters: []int{55, 40}}, 1)
	res, err := replaySeries(s, DefaultOptions)
	if err != nil {
		t.Fatal(err)
	}
	if res.BaselineForks != 1 || res.BaselineIterations != 5 || !res.Short {
		t.Errorf("baseline forks %d, iterations %d, short %v; want 1, 5, true", res.BaselineForks, res.BaselineIterations, res.Short)
	}
	for _, cr := range res.Criteria {
		if !cr.AA.Available {
			t.Errorf("%s: A/A unavailable: %s", cr.Criterion, cr.AA.Reason)
		}
	}
}

// TestBadSeriesSkipped: a series with a non-positive or NaN value is
// skipped with a reason naming the row; the others are replayed.
func TestBadSeriesSkipped(t *testing.T) {
	good := seriesOf(table.Key{Benchmark: "good"}, []float64{1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1})
	bad := seriesOf(table.Key{Benchmark: "bad"}, []float64{1, 1, math.NaN(), 1})
	zero := seriesOf(table.Key{Benchmark: "zero"}, []float64{1, 0, 1})
	res, err := replayAll([]*table.Series{good, bad, zero}, DefaultOptions)
	if err != nil {
		t.Fatal(err)
	}
	if res[0].Skipped != "" {
		t.Errorf("good series skipped: %s", res[0].Skipped)
	}
	if !strings.Contains(res[1].Skipped, "row 3") || !strings.Contains(res[1].Skipped, "NaN") {
		t.Errorf("bad series: skipped %q, want the row and the value", res[1].Skipped)
	}
	if !strings.Contains(res[2].Skipped, "row 2") {
		t.Errorf("zero series: skipped %q, want row 2", res[2].Skipped)
	}
	rows := summaryRows(res, nil)
	if rows[0].Benchmarks != 1 {
		t.Errorf("summary counts %d benchmarks, want the 1 replayed", rows[0].Benchmarks)
	}
}

// TestInvocationSample: the criterion sample of a sample-mode iteration
// has InvocationSample draws, none from rows slower than 10× the median,
// and the others in proportion to their counts.
func TestInvocationSample(t *testing.T) {
	key := table.Key{Benchmark: "hist", Mode: "sample"}
	s := &table.Series{Key: key}
	for _, r := range []struct {
		v float64
		c int64
	}{{100, 900}, {200, 100}, {5000, 5}} {
		s.Levels[table.LevelInstance] = append(s.Levels[table.LevelInstance], 1)
		s.Levels[table.LevelTrial] = append(s.Levels[table.LevelTrial], 1)
		s.Levels[table.LevelFork] = append(s.Levels[table.LevelFork], 1)
		s.Levels[table.LevelIteration] = append(s.Levels[table.LevelIteration], 1)
		s.Levels[table.LevelSlice] = append(s.Levels[table.LevelSlice], 1)
		s.NsPerOp = append(s.NsPerOp, r.v)
		s.Value = append(s.Value, r.v)
		s.Count = append(s.Count, r.c)
	}
	d, err := splitSeries(s)
	if err != nil {
		t.Fatal(err)
	}
	opt := DefaultOptions
	sm := &sampler{opt: &opt}
	got, dropped := sm.sample(d, table.Span{Start: 0, End: 3}, stats.NewStream(1, "t", 0))
	if dropped != 1 {
		t.Errorf("dropped %d rows, want 1 (5000 > 10 × median 100)", dropped)
	}
	if fmt.Sprint(got.x) != "[100 200]" || got.total() != 1000 {
		t.Fatalf("sample values %v total %v, want [100 200] and 1000 draws", got.x, got.total())
	}
	// Share of 200: binomial(1000, 0.1), sd 0.0095; allow 4 sd.
	checkClose(t, "share of 200", got.w[1]/1000, 0.1, 0.038)
}
