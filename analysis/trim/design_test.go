package trim

import (
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/benchtrim/benchtrim/synth"
	"github.com/benchtrim/benchtrim/table"
)

// seriesOf builds a Series of one benchmark from rows of level indices
// (fork, iteration, slice; instance and trial 1) and values.
func seriesOf(levels [][3]int32, values []float64) *table.Series {
	s := &table.Series{Key: table.Key{Benchmark: "B", Mode: "avgt"}, Metric: table.Primary}
	for i, l := range levels {
		s.Levels[table.LevelInstance] = append(s.Levels[table.LevelInstance], 1)
		s.Levels[table.LevelTrial] = append(s.Levels[table.LevelTrial], 1)
		s.Levels[table.LevelFork] = append(s.Levels[table.LevelFork], l[0])
		s.Levels[table.LevelIteration] = append(s.Levels[table.LevelIteration], l[1])
		s.Levels[table.LevelSlice] = append(s.Levels[table.LevelSlice], l[2])
		s.Value = append(s.Value, values[i])
		s.NsPerOp = append(s.NsPerOp, values[i])
		s.Count = append(s.Count, 1)
		s.Warmup = append(s.Warmup, false)
	}
	return s
}

// TestDesignComponents checks the variance components against R's
// one-way and nested ANOVA (testdata/components.R; the method-of-moments
// estimators from the mean squares of aov()): a balanced fork × iteration
// design and a balanced fork × iteration × slice design.
func TestDesignComponents(t *testing.T) {
	// 3 forks × 4 iterations.
	y2 := []float64{10.1, 10.3, 9.9, 10.2, 11.0, 11.4, 10.8, 11.1, 9.5, 9.7, 9.6, 9.9}
	var l2 [][3]int32
	for f := int32(1); f <= 3; f++ {
		for i := int32(1); i <= 4; i++ {
			l2 = append(l2, [3]int32{f, i, 1})
		}
	}
	d := newDesign(seriesOf(l2, y2), 0)
	if d == nil || len(d.levels) != 2 || d.levels[0] != table.LevelFork || d.levels[1] != table.LevelIteration {
		t.Fatalf("design %v", d)
	}
	// testdata/components.R: MS_fork 2.04333333333333, MS_within
	// 0.0402777777777777 (df 2, 9); S²_iteration = MS_within,
	// S²_fork = (MS_fork − MS_within) / 4.
	checkNear(t, "2-level S²_iteration", d.s2[1], 0.0402777777777777, 1e-12)
	checkNear(t, "2-level S²_fork", d.s2[0], 0.500763888888889, 1e-12)
	checkNear(t, "2-level mean", d.mean, 10.2916666666667, 1e-12)

	// 2 forks × 3 iterations × 2 slices.
	y3 := []float64{5.0, 5.2, 5.1, 5.4, 4.9, 5.0, 6.0, 6.3, 6.1, 5.8, 6.4, 6.2}
	var l3 [][3]int32
	for f := int32(1); f <= 2; f++ {
		for i := int32(1); i <= 3; i++ {
			for s := int32(1); s <= 2; s++ {
				l3 = append(l3, [3]int32{f, i, s})
			}
		}
	}
	d = newDesign(seriesOf(l3, y3), 0)
	if d == nil || len(d.levels) != 3 {
		t.Fatalf("design %v", d)
	}
	// testdata/components.R, aov(y ~ fork/iteration): MS_fork 3.20333333333332,
	// MS_iteration 0.0533333333333334, MS_slice 0.0299999999999997 (df 1,
	// 4, 6); S²_slice = MS_slice, S²_iteration = (MS_iteration − MS_slice)/2,
	// S²_fork = (MS_fork − MS_iteration)/6.
	checkNear(t, "3-level S²_slice", d.s2[2], 0.0299999999999997, 1e-12)
	checkNear(t, "3-level S²_iteration", d.s2[1], 0.0116666666666669, 1e-12)
	checkNear(t, "3-level S²_fork", d.s2[0], 0.524999999999998, 1e-12)
	// V(k) = Σ S²_j / Π k; at the recorded counts, MS_fork / 12 (the
	// variance of the grand mean of a balanced nested design).
	checkNear(t, "V(recorded)", d.variance([]float64{2, 3, 2}), 3.20333333333332/12, 1e-12)
}

func checkNear(t *testing.T, what string, got, want, tol float64) {
	t.Helper()
	if math.Abs(got-want) > tol {
		t.Errorf("%s = %.12g, want %.12g", what, got, want)
	}
}

// TestDesignWarmupAndSubset: the first w iterations of every fork are
// left out, and a subset of top units is a design of its own.
func TestDesignWarmupAndSubset(t *testing.T) {
	var l [][3]int32
	var y []float64
	for f := int32(1); f <= 4; f++ {
		for i := int32(1); i <= 5; i++ {
			l = append(l, [3]int32{f, i, 1})
			v := 100 + float64(f)
			if i <= 2 {
				v = 1000 // warmup
			}
			y = append(y, v+0.1*float64(i))
		}
	}
	d := newDesign(seriesOf(l, y), 2)
	if len(d.obs) != 12 || d.maxK[0] != 4 || d.maxK[1] != 3 {
		t.Fatalf("after warmup 2: %d observations, counts %v", len(d.obs), d.maxK)
	}
	checkNear(t, "mean after warmup", d.mean, 102.5+0.4, 1e-9)
	s := d.subset([]int{1, 3})
	if s.units[0] != 2 || len(s.obs) != 6 {
		t.Fatalf("subset: %d top units, %d observations", s.units[0], len(s.obs))
	}
	checkNear(t, "subset mean", s.mean, (102+104)/2.0+0.4, 1e-9)
	if got := d.replay([]float64{2, 1}); math.Abs(got-(101.3+102.3)/2) > 1e-9 {
		t.Errorf("replay 2 forks × 1 iteration = %v", got)
	}
	// kept: the observations replay averages (the report's "recommended"
	// distribution), the first iterations of the first forks after the
	// warmup.
	if got, want := d.kept([]float64{2, 2}), []float64{101.3, 101.4, 102.3, 102.4}; !slices.Equal(got, want) {
		t.Errorf("kept 2 forks × 2 iterations = %v, want %v", got, want)
	}
	if got := d.kept(d.maxKf()); !slices.Equal(got, d.obs) {
		t.Errorf("kept of the recorded counts = %v, want every observation %v", got, d.obs)
	}
}

// TestGoTimeModel: go test -bench output recorded with -benchtime 100ms
// costs Σ N × ns/op, not one second per line, plus go test's own time
// where the file prints the run's wall time ("ok pkg 1.2s": the recording
// then costs exactly that), and the command asks for the recorded
// -benchtime.
func TestGoTimeModel(t *testing.T) {
	ns := []float64{100000, 104000, 98000, 101000, 99000, 103000, 100500, 97000, 102000, 99500}
	for _, tc := range []struct {
		end  string
		wall float64 // 0: Σ N × ns/op
	}{{"PASS\n", 0}, {"PASS\nok  \texample.com/x\t1.2s\n", 1.2e9}} {
		var b strings.Builder
		b.WriteString("goos: linux\ngoarch: amd64\npkg: example.com/x\n")
		var sum float64
		for i, v := range ns {
			n := 1000 + 10*i // go test picks N per run
			b.WriteString("BenchmarkX-8\t" + strconv.Itoa(n) + "\t" + strconv.FormatFloat(v, 'f', -1, 64) + " ns/op\n")
			sum += float64(n) * v
		}
		b.WriteString(tc.end)
		want := sum
		if tc.wall > 0 {
			want = tc.wall
		}
		path := filepath.Join(t.TempDir(), "go.txt")
		if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		opt := fastOptions()
		opt.Detect = 0.5
		rep, err := Run(readFiles(t, path), opt)
		if err != nil {
			t.Fatal(err)
		}
		x := &rep.Benchmarks[0]
		if got := float64(x.Recorded.TimeNs); math.Abs(got-want) > 10 {
			t.Errorf("%q: recorded time %v ns, want %v (Σ N × ns/op = %v)", tc.end, got, want, sum)
		}
		if !x.Status.reduced() || x.Recommended.TimeNs >= x.Recorded.TimeNs {
			t.Fatalf("status %s (%s), %d → %d ns", x.Status, x.Reason, x.Recorded.TimeNs, x.Recommended.TimeNs)
		}
		if line := x.Command.Line(); !strings.Contains(line, "-benchtime 100ms") || !strings.Contains(line, "-count "+strconv.Itoa(x.Recommended.Iterations)) {
			t.Errorf("command %q, want -benchtime 100ms and -count %d", line, x.Recommended.Iterations)
		}
	}
}

// TestNeverCostsMore: on every path (Go slices, go test lines, JMH -wi 0
// long and short forks) no recommendation costs more than the recorded
// configuration, and every reduced one saves at least minSaving.
func TestNeverCostsMore(t *testing.T) {
	opt := fastOptions()
	opt.Splits = 2
	for _, tc := range []struct {
		name string
		cfg  synth.SuiteConfig
		kind string
	}{
		{"uoptime", func() synth.SuiteConfig { c := synth.UOpTimeSuiteConfig(); c.Benchmarks = 4; return c }(), synth.FormatUOpTime},
		{"gobench", func() synth.SuiteConfig { c := synth.UOpTimeSuiteConfig(); c.Benchmarks = 4; return c }(), synth.FormatGoBench},
		{"jmh short", jmhSuite(3, 3, 120, 4), synth.FormatJMH},
		{"jmh steady", jmhSuite(3, 3, 600, 5), synth.FormatJMH},
	} {
		tab, _ := suiteTable(t, tc.cfg, tc.kind)
		rep, err := Run(tab, opt)
		if err != nil {
			t.Fatal(err)
		}
		checkNeverMore(t, tc.name, rep)
	}
	// Stated warmup: the JMH suite as if recorded with -wi 5.
	s, err := synth.NewSuite(jmhSuite(3, 3, 30, 6))
	if err != nil {
		t.Fatal(err)
	}
	var js strings.Builder
	if err := s.Write(synth.FormatJMH, &js); err != nil {
		t.Fatal(err)
	}
	stated := strings.ReplaceAll(js.String(), `"warmupIterations" : 0`, `"warmupIterations" : 5`)
	if stated == js.String() {
		t.Fatal("no warmupIterations field to state")
	}
	path := filepath.Join(t.TempDir(), "stated.json")
	if err := os.WriteFile(path, []byte(stated), 0o644); err != nil {
		t.Fatal(err)
	}
	rep, err := Run(readFiles(t, path), opt)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Benchmarks[0].Path != PathStatedWarmup {
		t.Fatalf("path %s, want stated-warmup", rep.Benchmarks[0].Path)
	}
	checkNeverMore(t, "jmh stated warmup", rep)
}

// checkNeverMore fails when a recommendation of rep costs more than its
// recorded configuration, or is called reduced while saving less than
// minSaving.
func checkNeverMore(t *testing.T, name string, rep *Report) {
	t.Helper()
	for _, b := range rep.Benchmarks {
		if b.Recommended.TimeNs > b.Recorded.TimeNs || b.Recorded.TimeNs <= 0 {
			t.Errorf("%s %s: recommended %d ns, recorded %d ns", name, b.Key.Benchmark, b.Recommended.TimeNs, b.Recorded.TimeNs)
		}
		if b.Status.reduced() && float64(b.Recommended.TimeNs) > (1-minSaving)*float64(b.Recorded.TimeNs) {
			t.Errorf("%s %s: reduced, but saves less than %g", name, b.Key.Benchmark, minSaving)
		}
	}
}

// TestVersionChecks: with two versions of a suite, every run of the
// second gets the first's choice replayed on its data (FromPrevious), and
// the totals count the pairs; runs of the first version have no base.
func TestVersionChecks(t *testing.T) {
	dir := t.TempDir()
	var paths []string
	for i, v := range []string{"v1", "v2"} {
		cfg := synth.UOpTimeSuiteConfig()
		cfg.Benchmarks, cfg.Version, cfg.Seed = 3, v, uint64(10+i)
		s, err := synth.NewSuite(cfg)
		if err != nil {
			t.Fatal(err)
		}
		var buf strings.Builder
		if err := s.Write(synth.FormatUOpTime, &buf); err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, "suite-"+v+".csv")
		if err := os.WriteFile(p, []byte(buf.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	rep, err := Run(readFiles(t, paths...), fastOptions())
	if err != nil {
		t.Fatal(err)
	}
	pairs := 0
	for _, b := range rep.Benchmarks {
		c := b.FromPrevious
		switch b.Key.Version {
		case "v1":
			if c.Base != "" {
				t.Errorf("%s: base %q, want none", b.Key, c.Base)
			}
		default:
			pairs++
			if c.Base != "v1" || !(c.Error >= 0 && c.Error < 0.1) || !(c.MinimumError >= 0 && c.MinimumError < 0.2) {
				t.Errorf("%s: check %+v", b.Key, c)
			}
		}
	}
	if pairs == 0 || rep.Totals.Versions.Pairs != pairs {
		t.Errorf("pairs %d, totals %+v", pairs, rep.Totals.Versions)
	}
}
