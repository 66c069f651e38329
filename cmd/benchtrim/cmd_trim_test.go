package main

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/benchtrim/benchtrim/analysis/trim"
)

// TestTrimCommand runs trim on steadyInput (3 forks × 200 iterations: a
// 40-iteration warmup, a flat benchmark, a slowdown at 90) with a steady
// window of 60, writes every output, and rebuilds the report from
// --out-dir with benchtrim report.
func TestTrimCommand(t *testing.T) {
	dir := t.TempDir()
	in, _ := steadyInput(t, dir)
	plan, cmds, ann, page, out := filepath.Join(dir, "plan.csv"), filepath.Join(dir, "run.sh"), filepath.Join(dir, "A.java"),
		filepath.Join(dir, "r.html"), filepath.Join(dir, "out")
	stdout, _, err := runCLI(t, "--quiet", "trim", "--steady-window", "60", "--resamples", "1000", "-o", plan,
		"--commands-out", cmds, "--annotations-out", ann, "--report", page, "--out-dir", out, in)
	if err != nil {
		t.Fatalf("%v\n%s", err, stdout)
	}
	if !strings.HasPrefix(stdout, "trim: ") || !strings.Contains(stdout, "wrote "+plan) {
		t.Errorf("output:\n%s", stdout)
	}
	rows := readCSV(t, plan)
	if !slices.Equal(rows[0], trim.PlanColumns) || len(rows) != 4 {
		t.Fatalf("plan: header %v, %d rows", rows[0], len(rows))
	}
	col := func(name string) int { return slices.Index(trim.PlanColumns, name) }
	for _, r := range rows[1:] {
		wi, _ := strconv.Atoi(r[col("warmup_iterations")])
		if r[col("path")] != "steady" {
			t.Errorf("%s: path %s", r[col("benchmark")], r[col("path")])
		}
		switch {
		case strings.HasSuffix(r[col("benchmark")], "json") && strings.HasPrefix(r[col("status")], "trimmed"):
			// 40-iteration warmup from 3×: W, the 0.9 quantile of the
			// forks' detected ends (31, 39 and 50 here), near the true end.
			if wi < 25 || wi > 55 {
				t.Errorf("json: warmup %d, want 25…55", wi)
			}
		case strings.HasSuffix(r[col("benchmark")], "xml") && strings.HasPrefix(r[col("status")], "trimmed"):
			if wi > 2 {
				t.Errorf("xml (flat): warmup %d, want ≤ 2", wi)
			}
		}
		if r[col("status")] == "trimmed" && !strings.Contains(r[col("command")], "-wi "+strconv.Itoa(wi)) {
			t.Errorf("command %q lacks -wi %d", r[col("command")], wi)
		}
	}
	script, _ := os.ReadFile(cmds)
	if n := strings.Count(string(script), "java -jar benchmarks.jar"); n != 3 {
		t.Errorf("script has %d JMH lines, want 3:\n%s", n, script)
	}
	java, _ := os.ReadFile(ann)
	for _, want := range []string{"@Fork(", "@Warmup(iterations = ", "@Measurement(iterations = ", "public class Parse"} {
		if !strings.Contains(string(java), want) {
			t.Errorf("annotations lack %q:\n%s", want, java)
		}
	}
	first, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := runCLI(t, "report", out, "-o", filepath.Join(dir, "again.html")); err != nil {
		t.Fatal(err)
	}
	again, _ := os.ReadFile(filepath.Join(dir, "again.html"))
	if string(first) != string(again) || !strings.Contains(string(first), `<section id="steady">`) {
		t.Error("benchtrim report does not rebuild the page trim wrote")
	}
	if _, _, err := runCLI(t, "report", t.TempDir()); err == nil || !strings.Contains(err.Error(), "no plan") {
		t.Errorf("report of a directory without a plan: %v", err)
	}
}

// TestTrimTargets: --keep and --detect are two targets (a usage error
// together), --test takes u, ratio or overlap and nothing else, and
// --keep below 1 is out of range.
func TestTrimTargets(t *testing.T) {
	for _, tc := range []struct {
		args []string
		flag string
	}{
		{[]string{"--keep", "2", "--detect", "5%"}, "--detect"},
		{[]string{"--test", "t"}, "--test"},
		{[]string{"--keep", "0.5"}, "--keep"},
		{[]string{"--min-effect", "x"}, "--min-effect"},
	} {
		_, _, err := runCLI(t, append(append([]string{"trim"}, tc.args...), "missing.json")...)
		if !isUsageError(err) || !strings.Contains(err.Error(), tc.flag) {
			t.Errorf("%v: err %v, want a usage error naming %s", tc.args, err, tc.flag)
		}
	}
}

// TestTrimDetect runs trim --detect on a generated µOpTime suite: the
// text and the plan name the test and the target, and every trimmed
// benchmark detects at most the target (target_detectable_slowdown), or
// keeps its recording.
func TestTrimDetect(t *testing.T) {
	dir := t.TempDir()
	in := generated(t, dir, "u.csv", "--preset", "uoptime", "--benchmarks", "3")
	plan := filepath.Join(dir, "plan.csv")
	out, stderr, err := runCLI(t, "-q", "trim", "--splits", "2", "--detect", "20%", "--test", "overlap", "-o", plan, in)
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	if !strings.Contains(out, "target: detect 20.0 % with the overlap test at α = 0.05") {
		t.Errorf("the text does not name the target:\n%s", out)
	}
	rows := readCSV(t, plan)
	col := columnsOf(rows[0])
	trimmed := 0
	for _, r := range rows[1:] {
		if r[col["rule"]] != "overlap" || r[col["target_detectable_slowdown"]] != "0.2" {
			t.Errorf("%s: test %q, target %q", r[col["benchmark"]], r[col["test"]], r[col["target_detectable_slowdown"]])
		}
		if r[col["status"]] != "trimmed" {
			continue
		}
		trimmed++
		if d, _ := strconv.ParseFloat(r[col["detectable_slowdown"]], 64); !(d <= 0.2) {
			t.Errorf("%s: trimmed, detects %v, want at most 0.2", r[col["benchmark"]], d)
		}
	}
	if trimmed == 0 {
		t.Errorf("nothing trimmed at --detect 20%%:\n%s", out)
	}
}
