package page

import (
	"bytes"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/benchtrim/benchtrim/analysis/trim"
	"github.com/benchtrim/benchtrim/reports"
	"github.com/benchtrim/benchtrim/table"
)

// TestFirstScreen: the answer section shows trim against the fixed
// minimum and, per benchmark run, the time saved, the precision and the
// detectable slowdown, recorded → recommended, before any other section.
func TestFirstScreen(t *testing.T) {
	rep := &trim.Report{Options: trim.DefaultOptions}
	for i, name := range []string{"fast", "slow"} {
		b := trim.Benchmark{Key: table.Key{Project: "p", Version: "v1", Benchmark: "Benchmark" + name, Mode: "go"}, Tool: "go",
			Path: trim.PathGo, Status: trim.StatusTrimmed, Forks: 1,
			Recorded:    trim.Config{Instances: 1, Trials: 1, Forks: 1, Iterations: 10, Slices: 1, IterationTimeNs: 1e9, TimeNs: 10e9},
			Recommended: trim.Config{Instances: 1, Trials: 1, Forks: 1, Iterations: 2 + i, Slices: 1, IterationTimeNs: 1e9, TimeNs: int64(2+i) * 1e9},
			Precision:   0.004, RecommendedPrecision: 0.009 + 0.001*float64(i), DetectableRecorded: 0.012, Detectable: 0.027,
			Estimate: 100, Reference: 100, RefLower: 99, RefUpper: 101, InCI: true,
			Minimum: trim.Baseline{TimeNs: 3e9, ChangeRate: 0.01, Precision: 0.02, Detectable: 0.05}}
		rep.Benchmarks = append(rep.Benchmarks, b)
	}
	var buf bytes.Buffer
	if err := Write(&buf, rep); err != nil {
		t.Fatal(err)
	}
	page := buf.String()
	answer, rest, ok := strings.Cut(page, `<section id="tradeoff">`)
	if !ok {
		t.Fatal("no trade-off section after the answer")
	}
	for _, want := range []string{
		"the suite takes <b>5 s instead of 20 s</b> (<b>75.0 %</b> saved)",
		"their median detectable slowdown goes from 1.2 % to 2.7 %, and the CI of the mean from ±0.4 % to ±0.9 %",
		`<th>fixed minimum</th>`, `<td>6 s</td>`, "2 benchmark runs: 2 trimmed.",
	} {
		if !strings.Contains(answer, want) {
			t.Errorf("the answer section lacks %q", want)
		}
	}
	index, _, ok := strings.Cut(rest, `<div id="run-sections">`)
	if !ok {
		t.Fatal("no run sections after the index")
	}
	for _, want := range []string{`<section id="index">`, `<a href="#run-1"><bdi>Benchmarkfast</bdi></a>`, `>80.0 %</td>`, `>70.0 %</td>`, `>1.2 % → 2.7 %</td>`,
		"trim's take 25.0 % and detect 2.7 %", "the fixed minimum (JMH: 1 fork × 5 iterations, go test -count 3) takes 30.0 % and detects 5.0 %"} {
		if !strings.Contains(index, want) {
			t.Errorf("the trade-off and index lack %q", want)
		}
	}
}

// TestWriteDirOnlyWhatApplies: a report without duet data, steady-state
// forks or versions writes no empty duet-*.csv, fork or compare tables;
// the plan always; loadDir reads the folder back and its manifest lists
// exactly what was written.
func TestWriteDirOnlyWhatApplies(t *testing.T) {
	rep := &trim.Report{Options: trim.DefaultOptions, Benchmarks: []trim.Benchmark{{
		Key: table.Key{Project: "p", Version: "v1", Benchmark: "BenchmarkX", Mode: "go"}, Tool: "go", Path: trim.PathGo, Status: trim.StatusKept,
		Recorded:    trim.Config{Instances: 1, Trials: 1, Forks: 1, Iterations: 3, Slices: 1, IterationTimeNs: 1e9, TimeNs: 3e9},
		Recommended: trim.Config{Instances: 1, Trials: 1, Forks: 1, Iterations: 3, Slices: 1, IterationTimeNs: 1e9, TimeNs: 3e9}}}}
	dir := t.TempDir()
	if err := WriteDir(dir, rep, nil); err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if want := []string{manifestName, "plan.csv", "report.html"}; strings.Join(names, " ") != strings.Join(want, " ") {
		t.Errorf("files %v, want %v", names, want)
	}
	if _, err := loadDir(dir); err != nil {
		t.Errorf("loadDir: %v", err)
	}
}

// TestLabelsTellNamesApart: labels keep both ends of a long name, and two
// names that would still read alike show where they differ.
func TestLabelsTellNamesApart(t *testing.T) {
	a := "org.example.deep.pkg.VeryLongBenchmarkClassName.methodWithALongName[size=1000,variant=alpha] @v1"
	b := "org.example.deep.pkg.VeryLongBenchmarkClassName.methodWithALongName[size=1000,variant=omega] @v1"
	got := distinctLabels([]string{a, b}, 40)
	if got[0] == got[1] || len([]rune(got[0])) > 40 || !strings.Contains(got[0], "alpha") || !strings.Contains(got[1], "omega") {
		t.Errorf("labels %q", got)
	}
	short := distinctLabels([]string{"x.A.m[size=1]", "x.B.m[size=1]"}, 40)
	if short[0] != "A.m[size=1]" || short[1] != "B.m[size=1]" {
		t.Errorf("short names %q", short)
	}
}

// TestNothingTrimmed: when no run gets a cheaper configuration the page
// says so in one sentence with the statuses, and draws no time chart.
func TestNothingTrimmed(t *testing.T) {
	rep := &trim.Report{Options: trim.DefaultOptions}
	for _, name := range []string{"BenchmarkA", "BenchmarkB"} {
		c := trim.Config{Instances: 1, Trials: 1, Forks: 1, Iterations: 3, Slices: 1, IterationTimeNs: 1e9, TimeNs: 3e9}
		rep.Benchmarks = append(rep.Benchmarks, trim.Benchmark{Key: table.Key{Project: "p", Version: "v1", Benchmark: name, Mode: "go"},
			Tool: "go", Path: trim.PathGo, Status: trim.StatusKept, Recorded: c, Recommended: c})
	}
	var buf bytes.Buffer
	if err := Write(&buf, rep); err != nil {
		t.Fatal(err)
	}
	page := string(expand(t, buf.Bytes()))
	if !strings.Contains(page, "No benchmark run gets a cheaper configuration (2 kept: nothing cheaper keeps the verdicts)") ||
		!strings.Contains(page, "Run the recorded configurations: no cheaper configuration keeps the verdicts of the u test") ||
		strings.Contains(page, "Time per benchmark run, recorded vs recommended") {
		t.Errorf("page does not say that nothing is trimmed, or draws the time chart")
	}
	// Every cell of the answer says what was found; the index says none
	// was saved, the sections why the recording is kept.
	answer, _, _ := strings.Cut(page, `<section id="tradeoff">`)
	for _, want := range []string{"<td>none trimmed</td>", "<td>no split ran (too few forks or lines to halve)</td>", ">none</td>",
		"Keep -count 3 (3 s): under the u test at α = 0.05 the recording detects"} {
		if !strings.Contains(answer, want) && !strings.Contains(page, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
	for _, blank := range []string{"<td></td>", "from  to", "± to", "±–", "NaN"} {
		if strings.Contains(answer, blank) {
			t.Errorf("the answer shows a blank value: %q", blank)
		}
	}
}

// TestEmptyVersion: runs without a version label read "recorded" and
// "recommended", never "· recorded", and their names carry no "@".
func TestEmptyVersion(t *testing.T) {
	rep := &trim.Report{Options: trim.DefaultOptions}
	c := trim.Config{Instances: 1, Trials: 1, Forks: 1, Iterations: 10, Slices: 1, IterationTimeNs: 1e9, TimeNs: 10e9}
	k := table.Key{Benchmark: "BenchmarkA", Mode: "go"}
	rep.Benchmarks = append(rep.Benchmarks, trim.Benchmark{Key: k, Tool: "go", Path: trim.PathGo, Status: trim.StatusKept, Recorded: c, Recommended: c,
		Distributions: []reports.Distribution{reports.Summarize(reports.Distribution{Key: k, Configuration: "recorded", Values: []float64{10, 11, 12, 13, 12}})}})
	var buf bytes.Buffer
	if err := Write(&buf, rep); err != nil {
		t.Fatal(err)
	}
	page := string(expand(t, buf.Bytes()))
	if strings.Contains(page, "· recorded") || strings.Contains(page, " @<") || strings.Contains(page, "BenchmarkA @") {
		t.Error("a run without a version reads \"· recorded\" or carries an empty @version")
	}
	if !strings.Contains(page, "recorded (5 values)") {
		t.Error("the density's legend does not name the recorded distribution")
	}
}

// TestRunLabels: labels of long JMH names show what tells them apart:
// the class (shortened to its humps when long) and the whole method, the
// params that vary (the shared ones dropped) and the version; four names
// that cut on both sides read alike stay four labels.
func TestRunLabels(t *testing.T) {
	names := []string{
		"com.wl.benchmark.ManySamplesNoRepetitionsPowerDistBenchmark.simple_07",
		"com.wl.benchmark.ManySamplesNoRepetitionsPowerDistBenchmark.statefulTwisted",
		"com.wl.benchmark.ManySamplesWithRepetitionsPowerDistBenchmark.twistedBrother",
		"com.wl.benchmark.OneSampleNoRepetitionsRandomDistBenchmark.reservoir",
	}
	got := runLabels(names, 40)
	seen := map[string]bool{}
	for i, l := range got {
		if seen[l] || len([]rune(l)) > 40 || strings.Contains(l, "com.wl") {
			t.Errorf("label %q of %s: repeated, longer than 40 runes or with the package", l, names[i])
		}
		seen[l] = true
	}
	if got[0] != "ManSamNoRepPowDisBen.simple_07" || !strings.HasSuffix(got[2], ".twistedBrother") {
		t.Errorf("labels %q", got)
	}
	p := runLabels([]string{"org.jetbrains.ObjectToObjectBenchmark.get_sqlite[compression=0,mapSize=100K,oneFailureOutOf=2]",
		"org.jetbrains.ObjectToObjectBenchmark.get_sqlite[compression=0,mapSize=10K,oneFailureOutOf=2]"}, 40)
	if p[0] != "ObjectToObjectBenchmark.get_sqlite[mapSize=100K]" && p[0] != "ObjToObjBen.get_sqlite[mapSize=100K]" {
		t.Errorf("param labels %q: want the varying mapSize alone", p)
	}
	if l := runLabels([]string{"BenchmarkDecode/size=1.5KB-8"}, 40); l[0] != "BenchmarkDecode/size=1.5KB-8" {
		t.Errorf("a Go name is split at its sub-benchmark's dot: %q", l)
	}
}

// TestTicksApart: the tick labels of an axis never overlap and a log
// axis labels in one notation: a ratio axis from 0.5 to 3 keeps 1 and 2
// and drops steps too close to them; a CROPS penalty axis from 500 to
// 2·10⁶ reads 1e3 … 1e6.
func TestTicksApart(t *testing.T) {
	for _, a := range []axis{{lo: 0.5, hi: 3, p0: 0, p1: 200, log: true}, {lo: 0.9, hi: 1.6, p0: 0, p1: 460, log: true},
		{lo: 500, hi: 2e6, p0: 0, p1: 350, log: true}, {lo: 0, hi: 123456, p0: 0, p1: 300}, {lo: 15800, hi: 16400, p0: 0, p1: 660}} {
		ts := a.ticks(6, true, false)
		if len(ts) < 2 {
			t.Errorf("axis %+v: %d ticks", a, len(ts))
		}
		for i := 1; i < len(ts); i++ {
			gap := ts[i].pos - ts[i-1].pos - (textWidth(ts[i].label, tickPx)+textWidth(ts[i-1].label, tickPx))/2
			if gap < tickGap-1e-9 {
				t.Errorf("axis %+v: labels %q and %q %.1f px apart", a, ts[i-1].label, ts[i].label, gap)
			}
		}
	}
	var labels []string
	for _, tk := range (axis{lo: 500, hi: 2e6, p0: 0, p1: 350, log: true}).ticks(5, false, false) {
		labels = append(labels, tk.label)
	}
	if strings.Join(labels, " ") != "1e3 1e4 1e5 1e6" {
		t.Errorf("penalty axis labels %q", labels)
	}
	var ratio []string
	for _, tk := range (axis{lo: 0.5, hi: 3, p0: 0, p1: 200, log: true}).ticks(5, true, false) {
		ratio = append(ratio, tk.label)
	}
	if !slices.Contains(ratio, "1") || !slices.Contains(ratio, "2") {
		t.Errorf("ratio axis labels %q: want 1 and 2 kept", ratio)
	}
}

// TestScoreUnits: a JMH thrpt run shows ops/s (k / ns: 2 threads of
// 1e9 ns per s over 4e5 ns is 5000 ops/s, higher is better), an avgt run
// its file's us/op, a go run a time unit chosen by magnitude.
func TestScoreUnits(t *testing.T) {
	th := recordedUnit("thrpt", "ops/s", 2e9)
	if th.name() != "ops/s" || th.of(4e5) != 5000 || th.better() != "higher is better" {
		t.Errorf("thrpt: %s %v %s", th.name(), th.of(4e5), th.better())
	}
	av := recordedUnit("avgt", "us/op", 1e3)
	if av.name() != "us/op" || av.of(2500) != 2.5 {
		t.Errorf("avgt: %s %v", av.name(), av.of(2500))
	}
	g := recordedUnit("go", "ns/op", 1).autoFor(2.5e6)
	if g.name() != "ms/op" || g.of(2.5e6) != 2.5 {
		t.Errorf("go: %s %v", g.name(), g.of(2.5e6))
	}
	if got := configOf("jmh", 1, 1, 3, 5, 20, 1); got != "3 forks × (5 warmup + 20 iterations)" {
		t.Errorf("JMH configuration %q", got)
	}
	if got := configOf("go", 1, 1, 1, 0, 10, 1); got != "-count 10" {
		t.Errorf("go configuration %q", got)
	}
}
