package main

import (
	"encoding/csv"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/benchtrim/benchtrim/analysis/reconfigure"
	"github.com/benchtrim/benchtrim/internal/atomicfile"
	"github.com/benchtrim/benchtrim/synth"
)

// steadyInput writes a JMH avgt file recorded with -wi 0: 3 forks × 200
// iterations of 1 s of a 40-iteration warmup, a flat and a slowdown at 90.

// The columns of steady's forks, benchmarks and evaluation frames
// (analysis/steady's forksFrame, benchmarksFrame, evaluationFrame), in order.
var (
	steadyForkColumns = []string{"project", "version", "benchmark", "params", "mode", "instance", "trial", "fork",
		"points", "dropped", "outliers", "outlier_indices", "skip", "penalty", "penalty_rule", "changepoints", "segments",
		"class", "barrett_class", "st_index", "st_s", "steady_mean_ns", "total_s", "error"}
	steadyBenchmarkColumns = []string{"project", "version", "benchmark", "params", "mode", "forks",
		"steady_forks", "no_steady_forks", "too_short_forks", "failed_forks", "class",
		"flat_forks", "warmup_forks", "slowdown_forks", "st_median_index", "st_max_index", "st_median_s", "st_max_s", "steady_window"}
	steadyEvaluationColumns = []string{"set", "project", "version", "benchmark", "params", "mode", "instance", "trial", "fork",
		"class", "config", "warmup_iterations", "measurement_iterations", "complete", "wt_s", "st_s",
		"wee_s", "deviation_s", "estimation", "time_waste_s", "rpd", "ratio_ci_lower", "ratio_ci_upper"}
)

func steadyInput(t *testing.T, dir string) (string, []synth.BenchmarkTruth) {
	t.Helper()
	cfg := synth.DefaultSuiteConfig()
	cfg.Seed = 11
	cfg.Benchmarks = 3
	cfg.Params = nil
	cfg.Instances, cfg.Trials, cfg.Forks, cfg.Iterations = 1, 1, 3, 200
	cfg.GC.Enabled = false
	cfg.Specs = []synth.BenchmarkSpec{
		{Class: "Parse", Method: "json", Kind: synth.KindWarmup, Mean: 5000, WarmupIterations: 40, WarmupFactor: 3},
		{Class: "Parse", Method: "xml", Kind: synth.KindFlat, Mean: 8000},
		{Class: "Cache", Method: "get", Kind: synth.KindSlowdown, Mean: 300, SlowdownAt: 90, SlowdownFactor: 1.3},
	}
	s, err := synth.NewSuite(cfg)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "run-v1.json")
	if err := atomicfile.Write(path, s.WriteJMH); err != nil {
		t.Fatal(err)
	}
	return path, s.Truth()
}

// columnsOf maps the names of a CSV header to their positions.
func columnsOf(header []string) map[string]int {
	col := make(map[string]int, len(header))
	for j, h := range header {
		col[h] = j
	}
	return col
}

func readCSV(t *testing.T, path string) [][]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return rows
}

func TestSteadyCommand(t *testing.T) {
	dir := t.TempDir()
	in, truth := steadyInput(t, dir)
	// A dynamic configuration: every fork of every benchmark stops its
	// warmup after 45 recorded iterations and measures 20, 2 forks.
	dyn := filepath.Join(dir, "dyn.csv")
	var b strings.Builder
	b.WriteString(strings.Join(reconfigure.ConfigColumns, ",") + "\n")
	for _, tr := range truth {
		for f := 1; f <= 2; f++ {
			b.WriteString(strings.Join([]string{"run", "v1", tr.JMHName, "", "avgt", "cv", "1", "1", strconv.Itoa(f), "45", "20", "2", "true", "true"}, ",") + "\n")
		}
	}
	if err := os.WriteFile(dyn, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	forks, benches, eval := filepath.Join(dir, "forks.csv"), filepath.Join(dir, "benchmarks.csv"), filepath.Join(dir, "eval.csv")
	plots := filepath.Join(dir, "plots")
	out, _, err := runCLI(t, "--quiet", "steady", "--details", "--project", "run", "--version", "v1", "--penalty", "15log", "--steady-window", "60", "--resamples", "2000",
		"--wi", "2", "--w", "10s", "--i", "5", "--r", "1s", "--f", "3", "--configs", dyn,
		"--forks-out", forks, "--benchmarks-out", benches, "--eval-out", eval, "--plots", plots, in)
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	for _, want := range []string{"### Steady state", "### Benchmark runs", "### Configurations against the steady state",
		"### Comparison of configuration sets", "| flags ", "| dynamic-cv ", "wrote " + forks, "wrote " + filepath.Join(dir, "eval.benchmarks.csv")} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}

	rows := readCSV(t, forks)
	if !slices.Equal(rows[0], steadyForkColumns) || len(rows) != 1+3*3 {
		t.Fatalf("forks CSV: header %v, %d rows; want %d", rows[0], len(rows), 1+9)
	}
	col := func(name string) int { return slices.Index(steadyForkColumns, name) }
	for _, r := range rows[1:] {
		bench, class, barrett := r[col("benchmark")], r[col("class")], r[col("barrett_class")]
		st, _ := strconv.Atoi(r[col("st_index")])
		switch {
		case strings.HasSuffix(bench, "json"):
			// 40-iteration warmup from 3× the steady mean; PELT at 15·log n
			// may put the change a few iterations into the steady state.
			if class != "steady state" || barrett != "warmup" || st < 20 || st > 60 {
				t.Errorf("warmup fork %s: %s/%s st %d, want steady/warmup st in [20, 60]", r[col("fork")], class, barrett, st)
			}
		case strings.HasSuffix(bench, "xml"):
			if class != "steady state" || barrett != "flat" || st != 0 {
				t.Errorf("flat fork %s: %s/%s st %d", r[col("fork")], class, barrett, st)
			}
		case strings.HasSuffix(bench, "get"):
			if class != "steady state" || barrett != "slowdown" || st < 89 || st > 91 {
				t.Errorf("slowdown fork %s: %s/%s st %d, want steady/slowdown st 90", r[col("fork")], class, barrett, st)
			}
		}
	}
	if rows := readCSV(t, benches); !slices.Equal(rows[0], steadyBenchmarkColumns) || len(rows) != 4 {
		t.Errorf("benchmarks CSV: %d rows", len(rows))
	}

	// Evaluation: -wi 2 -w 10s over 1-s iterations consumes 20 iterations,
	// wt = 20 s; -i 5 -r 1s keeps 5. The dynamic set consumes 45.
	rows = readCSV(t, eval)
	ecol := func(name string) int { return slices.Index(steadyEvaluationColumns, name) }
	var flags, dynamic int
	for _, r := range rows[1:] {
		switch r[ecol("set")] {
		case "flags":
			flags++
			if r[ecol("warmup_iterations")] != "20" || r[ecol("measurement_iterations")] != "5" {
				t.Errorf("flags: warmup %s, measurement %s; want 20, 5", r[ecol("warmup_iterations")], r[ecol("measurement_iterations")])
			}
			if wt, _ := strconv.ParseFloat(r[ecol("wt_s")], 64); wt < 19.99 || wt > 20.01 {
				t.Errorf("flags: wt %v, want 20 s", wt)
			}
		case "dynamic-cv":
			dynamic++
			if r[ecol("warmup_iterations")] != "45" || r[ecol("measurement_iterations")] != "20" {
				t.Errorf("dynamic: warmup %s, measurement %s; want 45, 20", r[ecol("warmup_iterations")], r[ecol("measurement_iterations")])
			}
		}
	}
	if flags != 9 || dynamic != 6 {
		t.Errorf("evaluation rows: %d flags, %d dynamic; want 9 and 6 (3 and 2 forks of 3 benchmarks)", flags, dynamic)
	}
	if rows := readCSV(t, filepath.Join(dir, "eval.benchmarks.csv")); len(rows) != 1+6 {
		t.Errorf("benchmark evaluation: %d rows, want 7", len(rows))
	}
	entries, err := os.ReadDir(plots)
	if err != nil || len(entries) != 9+1 { // 15log: series plots only, and index.csv
		t.Errorf("plots: %d files (%v), want 9 and index.csv", len(entries), err)
	}
	if rows := readCSV(t, filepath.Join(plots, "index.csv")); len(rows) != 1+9 || strings.Join(rows[0], ",") != "file,plot,benchmark,fork,title" {
		t.Errorf("plots' index: %d rows, header %v", len(rows), rows[0])
	}
}

func TestSteadyCommandDeterministic(t *testing.T) {
	dir := t.TempDir()
	in, _ := steadyInput(t, dir)
	var outs [][]byte
	for _, workers := range []string{"1", "3"} {
		path := filepath.Join(dir, "forks"+workers+".csv")
		if _, _, err := runCLI(t, "--quiet", "--workers", workers, "steady", "--steady-window", "60", "--resamples", "500", "--forks-out", path, in); err != nil {
			t.Fatal(err)
		}
		b, _ := os.ReadFile(path)
		outs = append(outs, b)
	}
	if string(outs[0]) != string(outs[1]) {
		t.Errorf("1 and 3 workers differ:\n%s\n---\n%s", outs[0], outs[1])
	}
}

func TestSteadyCommandErrors(t *testing.T) {
	dir := t.TempDir()
	in, _ := steadyInput(t, dir)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--penalty", "lots"}, "--penalty"},
		{[]string{"--penalty", "15log", "--pen-range", "4,1e5"}, "--pen-range applies"},
		{[]string{"--pen-range", "4"}, `--pen-range: penalty range "4": want a,b`},
		{[]string{"--pen-range", "5,1", "--steady-window", "60"}, "want 0 <= a < b"},
		{[]string{"--equivalence", "georges"}, "--equivalence"},
		{[]string{"--w", "-1s"}, "--w"},
		{[]string{"--i", "0"}, "--i 0"},
		{[]string{"--plots", dir, "--plot-format", "gif"}, "--plot-format"},
		{[]string{"--configs", filepath.Join(dir, "missing.csv")}, "missing.csv"},
		{[]string{"--steady-window", "0"}, "--steady-window 0: want auto or a whole number of iterations of at least 1"},
		{[]string{"--steady-window", "many"}, "--steady-window many: want auto"},
		{[]string{"--steady-window", "100000"}, "are too short: no fork has --steady-window 100000 iterations (the longest has"},
	} {
		_, _, err := runCLI(t, append(append([]string{"--quiet", "steady"}, tc.args...), in)...)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: error %v, want one mentioning %q", tc.args, err, tc.want)
		}
	}
	if _, _, err := runCLI(t, "--quiet", "steady"); err == nil {
		t.Error("no input files: no error")
	}
}

func TestSteadyDemoStep(t *testing.T) {
	dir := t.TempDir()
	// The reconfigure step writes the dynamic configurations the steady
	// step then evaluates.
	if _, errs, err := runCLI(t, "--quiet", "--workers", "2", "demo", "--dir", dir, "--only", "reconfigure"); err != nil {
		t.Fatalf("reconfigure step: %v\n%s", err, errs)
	}
	stdout, errs, err := runCLI(t, "--quiet", "--workers", "2", "demo", "--dir", dir, "--only", "steady")
	if err != nil {
		t.Fatalf("%v\n%s", err, errs)
	}
	for _, want := range []string{"$ benchtrim steady --steady-window 30", "### Steady state", "steady state: 9 of 10 benchmark runs (38 of 40 forks) reach a steady state",
		"| flags ", "| dynamic-cv ", "--configs $DEMO/dynamic.csv"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("demo output lacks %q:\n%s", want, stdout)
		}
	}
	// The demo's parseXml benchmark is flat: all 8 of its forks steady from 0.
	rows := readCSV(t, filepath.Join(dir, "steady-forks.csv"))
	col := func(name string) int { return slices.Index(steadyForkColumns, name) }
	flat := 0
	for _, r := range rows[1:] {
		if strings.HasSuffix(r[col("benchmark")], "parseXml") && r[col("barrett_class")] == "flat" && r[col("st_index")] == "0" {
			flat++
		}
	}
	if len(rows) != 1+10*4 || flat != 8 {
		t.Errorf("demo forks CSV: %d rows, %d flat parseXml forks; want 41 and 8", len(rows), flat)
	}
	if entries, err := os.ReadDir(filepath.Join(dir, "steady-plots")); err != nil || len(entries) < 40 {
		t.Errorf("demo plots: %d (%v), want at least one per fork", len(entries), err)
	}
}

// TestSteadyPenaltySpellings: steady reads --penalty and --pen-range as the
// changepoint command does (changepoint.ParsePenalty): NUMBERlog is
// NUMBER·log n of each fork's series.
func TestSteadyPenaltySpellings(t *testing.T) {
	dir := t.TempDir()
	in, _ := steadyInput(t, dir)
	forks := filepath.Join(dir, "forks.csv")
	if _, _, err := runCLI(t, "--quiet", "steady", "--penalty", "10log", "--steady-window", "60", "--forks-out", forks, in); err != nil {
		t.Fatal(err)
	}
	rows := readCSV(t, forks)
	col := func(name string) int { return slices.Index(steadyForkColumns, name) }
	for _, r := range rows[1:] {
		points, _ := strconv.Atoi(r[col("points")])
		pen, _ := strconv.ParseFloat(r[col("penalty")], 64)
		if r[col("penalty_rule")] != "manual" || math.Abs(pen-10*math.Log(float64(points))) > 1e-9 {
			t.Errorf("fork %v: penalty %v (%s), want 10·log %d", r[:8], pen, r[col("penalty_rule")], points)
		}
	}
	if _, _, err := runCLI(t, "--quiet", "steady", "--pen-range", "4log,1e5log", "--steady-window", "60", in); err != nil {
		t.Errorf("--pen-range 4log,1e5log: %v", err)
	}
}
