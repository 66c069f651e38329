package steady

import (
	"math"
	"slices"
	"testing"

	"github.com/benchtrim/benchtrim/table"
)

// series builds a Series from rows (instance, trial, fork, iteration, ns/op, count).
func series(setup *table.Setup, rows [][6]float64) *table.Series {
	s := &table.Series{Key: table.Key{Benchmark: "b"}, Setup: setup}
	for _, r := range rows {
		for l, v := range []float64{r[0], r[1], r[2], r[3], 1} {
			s.Levels[l] = append(s.Levels[l], int32(v))
		}
		s.Warmup = append(s.Warmup, false)
		s.Value = append(s.Value, r[4])
		s.NsPerOp = append(s.NsPerOp, r[4])
		s.Count = append(s.Count, int64(r[5]))
	}
	return s
}

func TestForksOf(t *testing.T) {
	// Configured iteration time 100 ms: an iteration of 3e7 ns/op runs
	// ceil(1e8/3e7) = 4 operations, 1.2e8 ns; one of 2.5e7 exactly 4, 1e8
	// ns. The NaN iteration is dropped. Ops = ceil(1e8 / 2.75e7) = 4.
	// Instance 2's first iteration is a histogram: (10·3 + 20·1)/4 = 12.5
	// ns/op, ceil(1e8/12.5) = 8e6 operations, 1e8 ns.
	s := series(&table.Setup{MeasurementTimeNs: 1e8}, [][6]float64{
		{1, 1, 1, 1, 3e7, 1}, {1, 1, 1, 2, 2.5e7, 1}, {1, 1, 1, 3, math.NaN(), 1},
		{2, 1, 1, 1, 10, 3}, {2, 1, 1, 1, 20, 1}, {2, 1, 1, 2, 40, 1},
	})
	forks := forksOf(s)
	if len(forks) != 2 {
		t.Fatalf("%d forks, want 2", len(forks))
	}
	f := forks[0]
	if f.id != (ForkID{1, 1, 1}) || !slices.Equal(f.values, []float64{3e7, 2.5e7}) || !slices.Equal(f.nanos, []float64{1.2e8, 1e8}) ||
		f.dropped != 1 || f.ops != 4 {
		t.Errorf("fork 1: %+v", f)
	}
	g := forks[1]
	if g.id != (ForkID{2, 1, 1}) || !slices.Equal(g.values, []float64{12.5, 40}) || !slices.Equal(g.nanos, []float64{1e8, 1e8}) || g.dropped != 0 {
		t.Errorf("fork 2: %+v", g)
	}
	if g.id.String() != "instance 2 trial 1 fork 1" || f.id.String() != "fork 1" {
		t.Errorf("ids %q, %q", f.id, g.id)
	}

	// Without a configured time an iteration lasts count × mean: 5 × 10 ns
	// and (3·10 + 1·20) = 50 ns; Ops is the mean count, (5 + 4)/2.
	s = series(nil, [][6]float64{{1, 1, 1, 1, 10, 5}, {1, 1, 1, 2, 10, 3}, {1, 1, 1, 2, 20, 1}})
	forks = forksOf(s)
	if len(forks) != 1 || !slices.Equal(forks[0].nanos, []float64{50, 50}) || forks[0].ops != 4.5 {
		t.Errorf("no setup: %+v", forks)
	}
}

func TestShortAndFailedForks(t *testing.T) {
	opt := DefaultOptions
	opt.SteadyWindow = 500
	forks := []forkSeries{
		levels(1, 40, 1, []int{0, 10}, []float64{300, 100}),
		{id: ForkID{1, 1, 2}},
	}
	br, err := analyzeForks(table.Key{Benchmark: "short"}, nil, forks, opt)
	if err != nil {
		t.Fatal(err)
	}
	if f := br.Forks[0]; f.Class != ForkTooShort || f.Barrett != BarrettUndecided || f.SteadyStart != -1 || len(f.Segments) == 0 {
		t.Errorf("40 iterations, window 500: %+v", f)
	}
	if f := br.Forks[1]; f.Class != ForkFailed || f.Err == "" {
		t.Errorf("empty fork: %+v", f)
	}
	if br.Class != benchmarkTooShort {
		t.Errorf("benchmark class %v, want too short", br.Class)
	}
	// Three points cannot hold a change point (minimum segment length 2).
	br, _ = analyzeForks(table.Key{Benchmark: "tiny"}, nil, []forkSeries{levels(1, 3, 1, []int{0}, []float64{5})}, opt)
	if f := br.Forks[0]; f.PenaltyRule != "none" || len(f.Segments) != 1 || f.Class != ForkTooShort {
		t.Errorf("3 points: %+v", f)
	}
}

func TestClassifyBenchmark(t *testing.T) {
	S, N, T, F := ForkSteady, ForkNoSteady, ForkTooShort, ForkFailed
	for _, tc := range []struct {
		forks []ForkClass
		want  BenchmarkClass
	}{
		{[]ForkClass{S, S, S}, benchmarkSteady},
		{[]ForkClass{N, N}, benchmarkNoSteady},
		{[]ForkClass{S, N, S}, benchmarkInconsistent},
		{[]ForkClass{S, T, F}, benchmarkSteady},
		{[]ForkClass{T, F}, benchmarkTooShort},
		{nil, benchmarkTooShort},
	} {
		if got := classifyBenchmark(tc.forks); got != tc.want {
			t.Errorf("ClassifyBenchmark(%v) = %v, want %v", tc.forks, got, tc.want)
		}
	}
}

// TestAutoWindow: the default steady window is ⌈n/6⌉ of a run's longest
// fork, between 5 and 500 (Traini's 500 on 3,000 iterations), so a fork of
// 40 iterations whose warmup ends at 10 is steady (W = 7), one of 3 is too
// short, and each run reports the window it was classified with.
func TestAutoWindow(t *testing.T) {
	for n, want := range map[int]int{1: 5, 3: 5, 10: 5, 30: 5, 31: 6, 40: 7, 50: 9, 150: 25, 3000: 500, 100000: 500} {
		if got := AutoWindow(n); got != want {
			t.Errorf("AutoWindow(%d) = %d, want %d", n, got, want)
		}
	}
	opt := DefaultOptions
	if opt.SteadyWindow != 0 {
		t.Fatalf("default steady window %d, want 0 (auto)", opt.SteadyWindow)
	}
	for _, tc := range []struct {
		n, window int
		class     ForkClass
		st        int
	}{{40, 7, ForkSteady, 10}, {3, 5, ForkTooShort, -1}} {
		cut := min(10, tc.n-1)
		br, err := analyzeForks(table.Key{Benchmark: "b"}, nil, []forkSeries{levels(1, tc.n, 1, []int{0, cut}, []float64{300, 100})}, opt)
		if err != nil {
			t.Fatal(err)
		}
		if f := br.Forks[0]; br.Window != tc.window || f.Class != tc.class || f.SteadyStart != tc.st {
			t.Errorf("%d iterations: window %d, class %v, st %d; want %d, %v, %d", tc.n, br.Window, f.Class, f.SteadyStart, tc.window, tc.class, tc.st)
		}
	}
}
