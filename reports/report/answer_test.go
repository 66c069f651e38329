package report

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/benchtrim/benchtrim/analysis/trim"
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
	if err := WritePage(&buf, rep); err != nil {
		t.Fatal(err)
	}
	page := buf.String()
	answer, _, ok := strings.Cut(page, `<section id="trim">`)
	if !ok {
		t.Fatal("no trim section")
	}
	for _, want := range []string{
		"the suite takes <b>5 s instead of 20 s</b> (<b>75.0 %</b> saved)",
		"their median detectable slowdown goes from 1.2 % to 2.7 %, and the CI of the mean from ±0.4 % to ±0.9 %",
		`<th>fixed minimum</th>`, `<td>6 s</td>`,
		`id="answer-runs"`, "<bdi>Benchmarkfast</bdi>", `>80.0 %</td>`, `>70.0 %</td>`, `>0.4 %</td>`, `>1.0 %</td>`, `>2.7 %</td>`,
	} {
		if !strings.Contains(answer, want) {
			t.Errorf("the answer section lacks %q", want)
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
	if err := WritePage(&buf, rep); err != nil {
		t.Fatal(err)
	}
	page := buf.String()
	if !strings.Contains(page, "No benchmark run gets a cheaper configuration (2 kept: nothing cheaper keeps the verdicts)") ||
		!strings.Contains(page, "Run the recorded configurations: no cheaper configuration keeps the verdicts of the u test") ||
		strings.Contains(page, "Time per benchmark run, recorded vs recommended") {
		t.Errorf("page does not say that nothing is trimmed, or draws the time chart")
	}
}
