package main

import (
	"encoding/csv"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/benchtrim/benchtrim/internal/atomicfile"
	"github.com/benchtrim/benchtrim/synth"
)

// writeVersions writes two versions of a small µOpTime Go suite in which
// series 1 becomes 30 % slower, and returns the paths and its Go name.
func writeVersions(t *testing.T, dir string) ([]string, string) {
	t.Helper()
	cfg := synth.UOpTimeSuiteConfig()
	cfg.Project = "gen"
	cfg.Benchmarks = 5
	cfg.Seed = 3
	vs, err := synth.NewVersions(cfg, synth.VersionsConfig{Labels: []string{"v1.0", "v2.0"},
		Changes: []synth.Change{{Benchmark: 1, Version: 1, Factor: 1.3}}})
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for v, label := range vs.Labels() {
		p := filepath.Join(dir, "gen-"+label+".csv")
		if err := atomicfile.Write(p, func(w io.Writer) error { return vs.Suite(v).Write(synth.FormatUOpTime, w) }); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	var changed string
	for _, p := range vs.PairTruth() {
		if p.Changed {
			changed = p.GoName
		}
	}
	return paths, changed
}

func readCSVFile(t *testing.T, path string) [][]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	return recs
}

func TestOptimizeCommand(t *testing.T) {
	dir := t.TempDir()
	inputs, changed := writeVersions(t, dir)
	if changed == "" {
		t.Fatal("synth reported no changed benchmark")
	}
	outputs := func(tag string) []string {
		return []string{filepath.Join(dir, tag+".csv"), filepath.Join(dir, tag+"-summary.csv"),
			filepath.Join(dir, tag+"-versions.csv"), filepath.Join(dir, tag+".sh")}
	}
	runWith := func(workers string) (string, []string) {
		o := outputs("w" + workers)
		args := append([]string{"optimize", "--quiet", "--details", "--workers", workers, "--metric", "rmad,rciw-mean", "--resamples", "2000",
			"-o", o[0], "--summary-out", o[1], "--versions-out", o[2], "--commands-out", o[3]}, inputs...)
		out, errOut, err := runCLI(t, args...)
		if err != nil {
			t.Fatalf("optimize: %v\n%s", err, errOut)
		}
		return out, o
	}
	out1, o1 := runWith("1")
	out8, o8 := runWith("8")
	if strings.ReplaceAll(out1, "w1", "w8") != out8 {
		t.Errorf("stdout differs between --workers 1 and 8:\n%s\n---\n%s", out1, out8)
	}
	for i := range o1 {
		a, _ := os.ReadFile(o1[i])
		b, _ := os.ReadFile(o8[i])
		if len(a) == 0 || string(a) != string(b) {
			t.Errorf("%s and %s differ (or are empty)", o1[i], o8[i])
		}
	}
	if !strings.HasPrefix(out1, "µOpTime: rmad cuts ") {
		t.Errorf("stdout does not start with the one-line answer:\n%s", out1)
	}
	for _, want := range []string{"### µOpTime time saving", "### µOpTime against the baselines",
		"### Comparing the metrics' change rates", "### Change detection across versions", "| gen     | v1.0    | rmad "} {
		if !strings.Contains(out1, want) {
			t.Errorf("stdout lacks %q:\n%s", want, out1)
		}
	}
	// Per-benchmark CSV: 5 benchmarks × 2 versions × 2 metrics × 3 methods.
	res := readCSVFile(t, o1[0])
	if len(res) != 1+5*2*2*3 || res[0][0] != "project" || res[0][8] != "instance" {
		t.Errorf("results: %d rows, header %v", len(res)-1, res[0])
	}
	// Versions CSV: the full configuration detects the changed benchmark; so
	// does µOpTime's RMAD configuration (a 30 % change).
	ver := readCSVFile(t, o1[2])
	col := columnsOf(ver[0])
	found := false
	for _, r := range ver[1:] {
		if r[col["metric"]] == "rmad" && r[col["method"]] == "uoptime" && r[col["scope"]] == "pair" {
			found = true
			full, _ := strconv.Atoi(r[col["full_changes"]])
			tp, _ := strconv.Atoi(r[col["tp"]])
			if full < 1 || tp < 1 || r[col["from"]] != "v1.0" || r[col["to"]] != "v2.0" {
				t.Errorf("rmad pair row %v", r)
			}
		}
	}
	if !found {
		t.Errorf("no rmad uoptime pair row in %v", ver)
	}
	script, _ := os.ReadFile(o1[3])
	if !strings.Contains(string(script), "go test -run '^$' -bench '^"+changed+"$'") ||
		strings.Contains(string(script), "gen@v2.0") {
		t.Errorf("script should hold the base version's commands only:\n%s", script)
	}

	// --first instance: every configuration, full ones too, keeps instance 1.
	o := filepath.Join(dir, "first.csv")
	if _, errOut, err := runCLI(t, append([]string{"optimize", "-q", "--metric", "cv", "--resamples", "500", "--first", "instance", "-o", o}, inputs[0])...); err != nil {
		t.Fatalf("%v\n%s", err, errOut)
	}
	first := readCSVFile(t, o)
	for _, r := range first[1:] {
		if r[8] != "1" || r[20] != "1" {
			t.Fatalf("--first instance row keeps instance %s (full %s)", r[8], r[20])
		}
	}
}

func TestOptimizeCommandErrors(t *testing.T) {
	dir := t.TempDir()
	inputs, _ := writeVersions(t, dir)
	one := inputs[1:]
	for _, tc := range []struct {
		args   []string
		inputs []string // nil: both versions
		want   string
	}{
		{[]string{"--metric", "speed"}, nil, "unknown metric"},
		{[]string{"--fixed", "core"}, nil, "unknown level"},
		{[]string{"--threshold", "0"}, nil, "threshold"},
		{[]string{"--parallel", "iteration"}, nil, "parallel"},
		{[]string{"--base-version", "v7"}, one, "nothing to compare"},
		{[]string{"--base-version", "v7"}, nil, "base version"},
		{[]string{"--versions-out", filepath.Join(dir, "v.csv")}, one, "nothing to compare"},
		{[]string{"-o", filepath.Join(dir, "x.xlsx")}, nil, "unsupported extension \".xlsx\""},
		{[]string{"--bench", "("}, nil, "--bench"},
		{nil, []string{}, "no input files"},
	} {
		in := tc.inputs
		if in == nil {
			in = inputs
		}
		args := append(append([]string{"optimize", "-q", "--resamples", "200", "--metric", "cv"}, tc.args...), in...)
		_, _, err := runCLI(t, args...)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: error %v, want %q", args[1:], err, tc.want)
		}
	}
}

// TestShardsGiveTheSameRows: --shard K/N splits the benchmarks between
// runs, and every benchmark's rows are the same as in the unsplit run
// (seeds come from the benchmark key, not the shard), for optimize (its
// per-benchmark results) and steady (its per-fork results).
func TestShardsGiveTheSameRows(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "suite.csv")
	if _, _, err := runCLI(t, "--seed", "5", "generate", "--preset", "uoptime", "--benchmarks", "12", "-o", in); err != nil {
		t.Fatal(err)
	}
	jmh := filepath.Join(dir, "suite.json")
	if _, _, err := runCLI(t, "--seed", "5", "generate", "--benchmarks", "6", "--forks", "2", "--iterations", "60", "-o", jmh); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		args []string
		out  string
	}{
		{"optimize", []string{"optimize", "--metric", "rmad,cv", "--resamples", "300", in}, "-o"},
		{"steady", []string{"steady", "--steady-window", "20", "--resamples", "300", jmh}, "--forks-out"},
	} {
		rows := func(shard string) []string {
			out := filepath.Join(dir, tc.name+strings.ReplaceAll(shard, "/", "of")+".csv")
			args := append([]string{"--quiet"}, tc.args...)
			args = append(args, tc.out, out)
			if shard != "" {
				args = append(args, "--shard", shard)
			}
			if _, _, err := runCLI(t, args...); err != nil {
				t.Fatalf("%s --shard %s: %v", tc.name, shard, err)
			}
			var lines []string
			for _, row := range readCSV(t, out)[1:] {
				lines = append(lines, strings.Join(row, "\x1f"))
			}
			return lines
		}
		full := rows("")
		for _, n := range []int{2, 3} {
			var union []string
			for k := 0; k < n; k++ {
				part := rows(fmt.Sprintf("%d/%d", k, n))
				if len(part) == 0 || len(part) == len(full) {
					t.Errorf("%s shard %d/%d: %d of %d rows", tc.name, k, n, len(part), len(full))
				}
				union = append(union, part...)
			}
			sort.Strings(union)
			want := append([]string(nil), full...)
			sort.Strings(want)
			if !slices.Equal(union, want) {
				t.Errorf("%s: the %d shards' rows differ from the unsplit run's (%d vs %d rows)", tc.name, n, len(union), len(want))
			}
		}
	}
}

// TestOptimizeAnswerWithoutCIs: optimize skips the reported CIs unless an
// output shows them (optimize.Options.NoReportedCIs); the printed answer
// and details are the same either way, and -o writes every CI.
func TestOptimizeAnswerWithoutCIs(t *testing.T) {
	dir := t.TempDir()
	inputs, _ := writeVersions(t, dir)
	args := []string{"optimize", "-q", "--resamples", "1000", "--first", "instance", "--details", inputs[0]}
	alone, _, err := runCLI(t, args...)
	if err != nil {
		t.Fatal(err)
	}
	res := filepath.Join(dir, "res.csv")
	withOut, _, err := runCLI(t, append(args, "-o", res)...)
	if err != nil {
		t.Fatal(err)
	}
	wrote := "\nwrote " + res + "\n"
	if !strings.Contains(withOut, wrote) {
		t.Errorf("the output with -o does not say %q", wrote)
	}
	if got := strings.TrimSpace(strings.Replace(withOut, wrote, "", 1)); got != strings.TrimSpace(alone) {
		t.Errorf("the answer differs with -o:\n%s\nwithout:\n%s", withOut, alone)
	}
	recs := readCSVFile(t, res)
	cols := map[string]int{}
	for i, name := range recs[0] {
		cols[name] = i
	}
	checked := 0
	for _, name := range []string{"full_ci_lower", "full_ci_upper", "ci_lower", "ci_upper"} {
		i, ok := cols[name]
		if !ok {
			t.Fatalf("no column %s in %q", name, recs[0])
		}
		for _, r := range recs[1:] {
			if v, err := strconv.ParseFloat(r[i], 64); err != nil || v != v {
				t.Errorf("%s = %q, want a number", name, r[i])
			}
			checked++
		}
	}
	if checked == 0 {
		t.Error("no result rows")
	}
}
