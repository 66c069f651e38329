package gobench_test

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/benchtrim/benchtrim/format/gobench"
	"github.com/benchtrim/benchtrim/format/internal/formattest"
	"github.com/benchtrim/benchtrim/internal/benchstattest"
	"github.com/benchtrim/benchtrim/synth"
	"github.com/benchtrim/benchtrim/table"
)

// writeVersions writes two µOpTime versions of a small generated suite
// (6 benchmarks, 3 instances × 3 suite runs × 5 iterations × 5 slices; the
// third benchmark +25 % in the second version) and returns their paths
// and the Go names of the suite.
func writeVersions(t *testing.T, dir string) (paths, names []string) {
	t.Helper()
	cfg := synth.UOpTimeSuiteConfig()
	cfg.Seed, cfg.Benchmarks, cfg.Project = 3, 6, "demo"
	vs, err := synth.NewVersions(cfg, synth.VersionsConfig{Labels: []string{"v1.0.0", "v1.1.0"},
		Changes: []synth.Change{{Benchmark: 2, Version: 1, Factor: 1.25}}})
	if err != nil {
		t.Fatal(err)
	}
	for v, label := range vs.Labels() {
		var buf bytes.Buffer
		if err := vs.Suite(v).Write(synth.FormatUOpTime, &buf); err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, "demo-"+label+".csv")
		if err := os.WriteFile(p, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	for _, tr := range vs.Suite(0).Truth() {
		names = append(names, tr.GoName)
	}
	return paths, names
}

func exportGoBench(t *testing.T, path string, opt gobench.WriteOptions, in ...string) {
	t.Helper()
	tab := formattest.ReadFiles(t, in...)
	var buf bytes.Buffer
	if _, err := gobench.WriteWith(&buf, tab, opt); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

var benchstatRow = regexp.MustCompile(`^(\S+)\s+.*│?\s+(?:[+-]\d+\.\d+%|~) \(p=\d\.\d+ n=(\d+)(?:\+(\d+))?\)`)

// checkOneTable asserts that benchstat's output is one sec/op table whose
// header names both columns, with a delta and n = 45 (the iterations) for
// every benchmark; it returns the deltas by name.
func checkOneTable(t *testing.T, out string, cols [2]string, names []string) map[string]string {
	t.Helper()
	if n := strings.Count(out, "sec/op"); n != 2 { // "│ sec/op │ sec/op  vs base │"
		t.Errorf("benchstat printed %d sec/op columns, want one table with 2:\n%s", n, out)
	}
	header := false
	deltas := map[string]string{}
	for _, l := range strings.Split(out, "\n") {
		if strings.Contains(l, cols[0]) && strings.Contains(l, cols[1]) {
			header = true
		}
		if m := benchstatRow.FindStringSubmatch(l); m != nil {
			if m[2] != "45" || m[3] != "" && m[3] != "45" {
				t.Errorf("benchstat n in %q, want 45 (one sample per iteration)", l)
			}
			deltas[m[1]] = l
		}
	}
	if !header {
		t.Errorf("no header naming %s and %s:\n%s", cols[0], cols[1], out)
	}
	for _, n := range names {
		if deltas[strings.TrimPrefix(n, "Benchmark")] == "" {
			t.Errorf("no delta for %s:\n%s", n, out)
		}
	}
	if len(deltas) != len(names) {
		t.Errorf("%d rows with a delta, want %d:\n%s", len(deltas), len(names), out)
	}
	return deltas
}

// TestBenchstatComparesTwoExports exports two versions to Go benchmark
// text and runs benchstat (golang.org/x/perf, benchstattest.Version) on
// them as a user would: one table, both columns, a delta and n = 45 for
// every benchmark, and the +25 % change found. The same holds for one file
// holding both versions with benchstat -col commit, and for the labelled
// form with -ignore project,commit,instance,trial.
func TestBenchstatComparesTwoExports(t *testing.T) {
	benchstattest.Path(t) // skips when benchstat cannot be installed
	dir := t.TempDir()
	csvs, names := writeVersions(t, dir)
	old, new := filepath.Join(dir, "old.txt"), filepath.Join(dir, "new.txt")
	exportGoBench(t, old, gobench.WriteOptions{}, csvs[0])
	exportGoBench(t, new, gobench.WriteOptions{}, csvs[1])
	for _, f := range []string{old, new} {
		if b, _ := os.ReadFile(f); bytes.Contains(b, []byte(":")) {
			t.Errorf("%s has configuration lines:\n%.300s", f, b)
		}
	}
	t.Chdir(dir)
	out := benchstattest.Run(t, "old.txt", "new.txt")
	t.Logf("benchstat old.txt new.txt:\n%s", out)
	deltas := checkOneTable(t, out, [2]string{"old.txt", "new.txt"}, names)
	if d := deltas[strings.TrimPrefix(names[2], "Benchmark")]; !regexp.MustCompile(`\+2\d\.\d\d% \(p=0\.000`).MatchString(d) {
		t.Errorf("the +25 %% change of %s: %q", names[2], d)
	}

	both := filepath.Join(dir, "both.txt")
	exportGoBench(t, both, gobench.WriteOptions{}, csvs...)
	out = benchstattest.Run(t, "-col", "commit", "both.txt")
	t.Logf("benchstat -col commit both.txt:\n%s", out)
	checkOneTable(t, out, [2]string{"v1.0.0", "v1.1.0"}, names)

	lo, ln := filepath.Join(dir, "old-labels.txt"), filepath.Join(dir, "new-labels.txt")
	exportGoBench(t, lo, gobench.WriteOptions{Labels: true}, csvs[0])
	exportGoBench(t, ln, gobench.WriteOptions{Labels: true}, csvs[1])
	out = benchstattest.Run(t, "-ignore", "project,commit,instance,trial", "old-labels.txt", "new-labels.txt")
	checkOneTable(t, out, [2]string{"old-labels.txt", "new-labels.txt"}, names)
}

// TestGoBenchKeepsGoTestText reads go test -bench -count 3 -benchmem output
// and exports it: the result lines come back with the same names (params
// and the -8 GOMAXPROCS suffix included), iteration counts and every
// value/unit pair (ns/op, p99-ns, B/op, allocs/op).
func TestGoBenchKeepsGoTestText(t *testing.T) {
	in := filepath.Join("..", "..", "testdata", "gobench", "small.txt")
	tab := formattest.ReadFiles(t, in)
	var buf bytes.Buffer
	if err := writeGoBench(&buf, tab); err != nil {
		t.Fatal(err)
	}
	orig, err := os.ReadFile(in)
	if err != nil {
		t.Fatal(err)
	}
	want, got := resultLines(t, orig), resultLines(t, buf.Bytes())
	if len(want) != 12 || !reflect.DeepEqual(want, got) {
		t.Errorf("result lines differ:\nwant %q\ngot  %q\n%s", want, got, buf.String())
	}
}

// resultLines normalises the result lines of Go benchmark text: name, N
// and the value/unit pairs sorted by unit, values parsed, lines sorted.
func resultLines(t *testing.T, text []byte) []string {
	t.Helper()
	var out []string
	sc := bufio.NewScanner(bytes.NewReader(text))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) < 4 || !strings.HasPrefix(f[0], "Benchmark") {
			continue
		}
		var pairs []string
		for i := 2; i+1 < len(f); i += 2 {
			v, err := strconv.ParseFloat(f[i], 64)
			if err != nil {
				t.Fatal(err)
			}
			pairs = append(pairs, fmt.Sprintf("%s=%v", f[i+1], v))
		}
		sort.Strings(pairs)
		out = append(out, f[0]+" "+f[1]+" "+strings.Join(pairs, " "))
	}
	sort.Strings(out)
	return out
}

// TestGoBenchLabelsKeepLevels exports µOpTime data in the labelled form:
// reading it back gives every iteration with its instance, trial, fork
// and iteration (slices merged), where the default form numbers the
// instance × trial runs as forks.
func TestGoBenchLabelsKeepLevels(t *testing.T) {
	in := filepath.Join("..", "..", "testdata", "uoptime", "small.csv")
	tab := formattest.ReadFiles(t, in)
	want := map[string]int{}
	for _, s := range tab.Collect(table.Filter{}) {
		for _, sp := range s.Units(table.LevelIteration) {
			i := sp.Start
			want[fmt.Sprintf("%s i%d t%d f%d it%d", s.Benchmark, s.Levels[table.LevelInstance][i], s.Levels[table.LevelTrial][i], s.Levels[table.LevelFork][i], s.Levels[table.LevelIteration][i])]++
		}
	}
	dir := t.TempDir()
	for _, labels := range []bool{true, false} {
		p := filepath.Join(dir, fmt.Sprintf("labels-%v.txt", labels))
		exportGoBench(t, p, gobench.WriteOptions{Labels: labels}, in)
		back := formattest.ReadFiles(t, p)
		got := map[string]int{}
		forks := map[int32]bool{}
		for _, s := range back.Collect(table.Filter{}) {
			for i := 0; i < s.Len(); i++ {
				got[fmt.Sprintf("%s i%d t%d f%d it%d", s.Benchmark, s.Levels[table.LevelInstance][i], s.Levels[table.LevelTrial][i], s.Levels[table.LevelFork][i], s.Levels[table.LevelIteration][i])]++
				forks[s.Levels[table.LevelFork][i]] = true
			}
		}
		if labels && !reflect.DeepEqual(want, got) {
			t.Errorf("labelled form: levels %v, want %v", got, want)
		}
		if !labels && (len(got) != len(want) || len(forks) != 4) {
			t.Errorf("default form: %d iterations in %d forks, want %d in 2 instances × 2 trials = 4 forks", len(got), len(forks), len(want))
		}
	}
}
