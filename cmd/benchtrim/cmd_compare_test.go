package main

import (
	"encoding/csv"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/benchtrim/benchtrim/synth"
)

// demoFiles writes the demo data set and returns the µOpTime files of its
// three versions and the names of the benchmarks that change from the first
// to the second version.
func demoFiles(t *testing.T) (dir string, uopt []string, changed []string) {
	t.Helper()
	dir = t.TempDir()
	if _, err := synth.WriteDemoData(dir, 1); err != nil {
		t.Fatal(err)
	}
	for _, v := range []string{"v1.0.0", "v1.1.0", "v1.2.0"} {
		uopt = append(uopt, filepath.Join(dir, synth.DemoUOpTimeFile(v)))
	}
	raw, err := os.ReadFile(filepath.Join(dir, synth.DemoTruth))
	if err != nil {
		t.Fatal(err)
	}
	var truth synth.DemoTruthFile
	if err := json.Unmarshal(raw, &truth); err != nil {
		t.Fatal(err)
	}
	for _, ch := range truth.UOpTimeChanges {
		if ch.From == "v1.0.0" && ch.To == "v1.1.0" {
			changed = append(changed, ch.GoName)
		}
	}
	if len(changed) == 0 {
		t.Fatal("truth.json has no change from v1.0.0 to v1.1.0")
	}
	return dir, uopt, changed
}

func compareCSV(t *testing.T, path string) [][]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

// column returns the values of a named column (without the header).
func compareColumn(t *testing.T, rows [][]string, name string) []string {
	t.Helper()
	for j, n := range rows[0] {
		if n == name {
			var out []string
			for _, r := range rows[1:] {
				out = append(out, r[j])
			}
			return out
		}
	}
	t.Fatalf("no column %s in %v", name, rows[0])
	return nil
}

func TestCompareCommandABThreeWays(t *testing.T) {
	dir, uopt, changed := demoFiles(t)
	out1, out2, out3 := filepath.Join(dir, "pos.csv"), filepath.Join(dir, "flags.csv"), filepath.Join(dir, "labels.csv")
	stdout, _, err := runCLI(t, "--quiet", "compare", "--resamples", "1000", "-o", out1, uopt[0], uopt[1])
	if err != nil {
		t.Fatal(err)
	}
	var changedLine string
	lines := strings.Split(stdout, "\n")
	for _, l := range lines {
		// The table leaves out the "Benchmark" all names share.
		if strings.HasPrefix(l, strings.TrimPrefix(changed[0], "Benchmark")+" ") {
			changedLine = l
		}
	}
	if !strings.HasSuffix(changedLine, " slower") {
		t.Errorf("the +25 %% benchmark %s is not reported slower: %q\n%s", changed[0], changedLine, stdout)
	}
	// The default rule is benchstat's: the medians, the U test at α =
	// 0.05 (benchstat calls the same 6 changed, docs/export.md).
	if !strings.HasPrefix(lines[0], "6 of 12 benchmarks changed: 3 slower (up to +2") || !strings.Contains(lines[0], "3 faster (up to -") {
		t.Errorf("first line %q, want the one-line answer", lines[0])
	}
	for _, want := range []string{"base: " + uopt[0], "test: " + uopt[1], "1000 resamples", "geomean", "benchmarks: Benchmark…", "12 compared:", "wrote " + out1} {
		if !strings.Contains(stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, stdout)
		}
	}
	// The same comparison named by --base/--test (a quoted glob on one
	// side) gives byte-identical results.
	if _, _, err := runCLI(t, "--quiet", "compare", "--resamples", "1000", "-o", out2,
		"--base", filepath.Join(dir, "uoptime-v1.0.*.csv"), "--test", uopt[1]); err != nil {
		t.Fatal(err)
	}
	a, b := compareCSV(t, out1), compareCSV(t, out2)
	if len(a) != 13 {
		t.Fatalf("%d CSV rows, want header + 12", len(a))
	}
	if strings.Join(compareColumn(t, a, "ratio_ci_lower"), ",") != strings.Join(compareColumn(t, b, "ratio_ci_lower"), ",") ||
		strings.Join(compareColumn(t, a, "verdict"), ",") != strings.Join(compareColumn(t, b, "verdict"), ",") {
		t.Errorf("--base/--test differs from OLD NEW")
	}
	// And chosen by version labels from one table of all three files.
	stdout, _, err = runCLI(t, "--quiet", "compare", "--resamples", "1000", "-o", out3,
		"--base-version", "v1.0.0", "--test-version", "v1.1.0", uopt[0], uopt[1], uopt[2])
	if err != nil {
		t.Fatal(err)
	}
	c := compareCSV(t, out3)
	if strings.Join(compareColumn(t, a, "ratio_ci_upper"), ",") != strings.Join(compareColumn(t, c, "ratio_ci_upper"), ",") {
		t.Errorf("--base-version/--test-version differs from OLD NEW")
	}
	if got := compareColumn(t, c, "base_runs")[0]; got != "uoptime@v1.0.0" {
		t.Errorf("base_runs %q, want uoptime@v1.0.0", got)
	}
	if !strings.Contains(stdout, "base: version v1.0.0") {
		t.Errorf("stdout:\n%s", stdout)
	}
}

func TestCompareCommandAA(t *testing.T) {
	dir, uopt, _ := demoFiles(t)
	out := filepath.Join(dir, "aa.parquet")
	aa := func(workers string, extra ...string) string {
		t.Helper()
		args := append([]string{"--quiet", "--workers", workers, "compare", "--aa", "--split", "trial", "--aa-repeats", "3", "--resamples", "500"}, extra...)
		out, _, err := runCLI(t, append(args, uopt[0])...)
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	s1 := aa("1")
	s3 := aa("3", "-o", out)
	if !strings.Contains(s1, "false-positive rate over 36 comparisons of 12 runs") || !strings.Contains(s1, "trials A+B") {
		t.Errorf("A/A stdout:\n%s", s1)
	}
	if strings.TrimSuffix(s3, "\nwrote "+out+"\n") != s1 {
		t.Errorf("A/A output depends on --workers:\n%s\nvs\n%s", s1, s3)
	}
	if st, err := os.Stat(out); err != nil || st.Size() == 0 {
		t.Errorf("A/A parquet not written: %v", err)
	}
	// µOpTime runs have one fork per trial: splitting by fork is splitting by trial.
	byTrial, byFork := filepath.Join(dir, "trial.csv"), filepath.Join(dir, "fork.csv")
	aa("1", "-o", byTrial)
	if _, _, err := runCLI(t, "--quiet", "compare", "--aa", "--split", "fork", "--aa-repeats", "3", "--resamples", "500", "-o", byFork, uopt[0]); err != nil {
		t.Fatal(err)
	}
	tr, fo := compareCSV(t, byTrial), compareCSV(t, byFork)
	if len(tr) != 37 || strings.Join(compareColumn(t, tr, "ratio_ci_lower"), ",") != strings.Join(compareColumn(t, fo, "ratio_ci_lower"), ",") {
		t.Errorf("split by fork on one-fork data differs from split by trial (%d rows)", len(tr))
	}
	if got := compareColumn(t, fo, "split")[0]; got != "fork" {
		t.Errorf("split column %q", got)
	}
}

func TestCompareCommandErrors(t *testing.T) {
	_, uopt, _ := demoFiles(t)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{uopt[0], uopt[1], uopt[2]}, "name the two result sets"},
		{[]string{"--base", uopt[0], uopt[2], "--test", uopt[1]}, "repeat the flag"},
		{[]string{"--base", uopt[0], uopt[2]}, "--base and --test must both be given"},
		{[]string{"--aa", "--base", uopt[0], uopt[1]}, "--aa takes the files"},
		{[]string{"--aa", "--split", "iteration", uopt[0]}, "want fork, trial or instance"},
		{[]string{"--aa", "--aa-repeats", "0", uopt[0]}, "--aa-repeats 0: must be at least 1"},
		{[]string{"-o", "x.xlsx", uopt[0], uopt[1]}, "unsupported extension \".xlsx\""},
		{[]string{"--confidence", "1.5", uopt[0], uopt[1]}, "--confidence 1.5: must be between 0 and 1 (exclusive)"},
		{[]string{"--is", "-3", uopt[0], uopt[1]}, "--is -3: must be at least -1"},
		{[]string{"--bench", "([", uopt[0], uopt[1]}, "--bench: filter \"([\""},
		{[]string{"--filter", "([", uopt[0], uopt[1]}, "--filter: filter \"([\""},
		{[]string{"--filter", "A", "--bench", "B", uopt[0], uopt[1]}, "older name of --filter"},
		{[]string{"--filter", "Nothing", uopt[0], uopt[1]}, `filter "Nothing" matches none of the 12 benchmarks; some that exist: BenchmarkCodecCompileStrings, BenchmarkCodecDecodeRecords, `},
		{[]string{"--filter", "Sort/n=16", uopt[0]}, "matches none of the 12 benchmarks"},
		{[]string{"--aa", "--filter", "Nothing", uopt[0]}, "matches none"},
		{[]string{"--metrics", "B/op", uopt[0], uopt[1]}, "--metrics B/op: the inputs have no such metric; they have primary"},
		{[]string{"--base-version", "v9", "--test-version", "v1.1.0", uopt[0], uopt[1]}, "no runs match the base selection (version v9); the input has project@version uoptime@v1.0.0, uoptime@v1.1.0"},
		{[]string{"--base-version", "v1.0.0", uopt[0], uopt[1]}, "needs a selector for each side"},
		{[]string{"--base", filepath.Join(filepath.Dir(uopt[0]), "nothing-*.csv"), "--test", uopt[1]}, "matches no file"},
	} {
		_, _, err := runCLI(t, append([]string{"--quiet", "compare"}, tc.args...)...)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: err %v, want one containing %q", tc.args, err, tc.want)
		}
	}
}

func TestCompareDemoStep(t *testing.T) {
	dir := t.TempDir()
	stdout, _, err := runCLI(t, "--quiet", "demo", "--dir", dir, "--only", "compare (A/B")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"== compare (A/B and A/A) ==", "known changes in the generated µOpTime versions",
		"$ benchtrim compare -o $DEMO/compare-v1.0.0-v1.1.0.csv", "--base-version v1.1.0 --test-version v1.2.0",
		"--aa --split fork --discard-warmup 30", "false-positive rate over 60 comparisons of 12 runs"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("demo output lacks %q:\n%s", want, stdout)
		}
	}
	for _, f := range []string{"compare-v1.0.0-v1.1.0.csv", "compare-aa-v1.0.0.csv"} {
		if rows := compareCSV(t, filepath.Join(dir, f)); len(rows) < 13 {
			t.Errorf("%s: %d rows", f, len(rows))
		}
	}
}
