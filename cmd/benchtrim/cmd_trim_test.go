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

// TestTrimRulesExclusive: --target and --tradeoff are two rules; giving
// both is a usage error, before any input is read; a negative λ is out
// of range.
func TestTrimRulesExclusive(t *testing.T) {
	_, _, err := runCLI(t, "trim", "--target", "0.02", "--tradeoff", "0.1", "missing.json")
	if !isUsageError(err) || !strings.Contains(err.Error(), "--tradeoff") {
		t.Errorf("--target with --tradeoff: err %v, want a usage error naming --tradeoff", err)
	}
	if _, _, err := runCLI(t, "trim", "--tradeoff", "-1", "missing.json"); err == nil || !strings.Contains(err.Error(), "tradeoff") {
		t.Errorf("--tradeoff -1: err %v, want an error naming --tradeoff", err)
	}
}

// TestTrimBudget runs trim --tradeoff 0.02 --budget B on a generated
// µOpTime suite for the budgets minimum and 40 %: the text, the plan's
// budget column and the report name the budget, no benchmark's
// configuration costs more than max(minimum_time_s, B × recorded_time_s),
// and at 40 % some benchmark spends more than the minimum's time (the
// share binds). A budget without a trade-off is refused.
func TestTrimBudget(t *testing.T) {
	dir := t.TempDir()
	in := generated(t, dir, "u.csv", "--preset", "uoptime", "--benchmarks", "3")
	for _, tc := range []struct {
		arg, text, html string
		share           float64
	}{
		{"minimum", "trade-off 0.02 within the fixed minimum's time", "within the fixed minimal configuration&#39;s time", 0},
		{"40%", "trade-off 0.02 within max(the fixed minimum's time, 40 % of the recorded)", "and 40.0 % of the recorded", 0.4},
	} {
		plan, report := filepath.Join(dir, "plan.csv"), filepath.Join(dir, "r.html")
		out, stderr, err := runCLI(t, "-q", "trim", "--resamples", "500", "--splits", "2", "--tradeoff", "0.02", "--budget", tc.arg, "-o", plan, "--report", report, in)
		if err != nil {
			t.Fatalf("--budget %s: %v\n%s", tc.arg, err, stderr)
		}
		if !strings.Contains(out, tc.text) {
			t.Errorf("--budget %s: the text does not name the budget:\n%s", tc.arg, out)
		}
		rows := readCSV(t, plan)
		if len(rows) < 4 {
			t.Fatalf("plan has %d rows, want a header and 3 benchmarks at least", len(rows))
		}
		col := columnsOf(rows[0])
		overMin := 0
		for _, r := range rows[1:] {
			if b, _ := strconv.ParseFloat(r[col["budget"]], 64); b != tc.share {
				t.Errorf("--budget %s: %s: budget %q, want %v", tc.arg, r[col["benchmark"]], r[col["budget"]], tc.share)
			}
			ts, _ := strconv.ParseFloat(r[col["time_s"]], 64)
			ms, _ := strconv.ParseFloat(r[col["minimum_time_s"]], 64)
			rs, _ := strconv.ParseFloat(r[col["recorded_time_s"]], 64)
			if cap := max(ms, tc.share*rs); !(ts > 0 && ts <= cap*(1+1e-9)) {
				t.Errorf("--budget %s: %s: time_s %v, fixed minimum %v, recorded %v: want within the budget %v", tc.arg, r[col["benchmark"]], ts, ms, rs, cap)
			}
			if ts > ms*(1+1e-9) {
				overMin++
			}
		}
		if tc.share > 0 && overMin == 0 {
			t.Errorf("--budget %s: no benchmark spends more than the fixed minimum's time: the share does not bind", tc.arg)
		}
		if html, err := os.ReadFile(report); err != nil || !strings.Contains(string(html), tc.html) {
			t.Errorf("--budget %s: the report does not name the budget (err %v)", tc.arg, err)
		}
	}
	for _, args := range [][]string{{"--tradeoff", "0", "--budget", "minimum"}, {"--target", "0.01", "--budget", "5%"}, {"--target", "0.01", "--max-loss", "2"}} {
		if _, _, err := runCLI(t, append(append([]string{"trim"}, args...), in)...); err == nil || !strings.Contains(err.Error(), "--budget and --max-loss bound the second") {
			t.Errorf("%v: err %v, want an error saying --budget bounds the trade-off rule", args, err)
		}
	}
	if _, _, err := runCLI(t, "trim", "--tradeoff", "0.02", "--budget", "150%", in); err == nil || !strings.Contains(err.Error(), "budget") {
		t.Errorf("--budget 150%%: err %v, want an error naming the budget", err)
	}
}
