package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/benchtrim/benchtrim/internal/testenv"
	"github.com/benchtrim/benchtrim/synth"
)

// pythonWith returns a python3 that imports the modules: $BENCHTRIM_PYTHON,
// python3 on $PATH, or /usr/bin/python3 (Debian's, where python3-pandas
// installs), the first that does; "" when none does.
func pythonWith(modules string) string {
	for _, py := range []string{os.Getenv("BENCHTRIM_PYTHON"), "python3", "/usr/bin/python3"} {
		if py == "" {
			continue
		}
		if exec.Command(py, "-c", "import "+modules).Run() == nil {
			return py
		}
	}
	return ""
}

// pandasBlocks returns the ```python blocks of docs/outputs.md's pandas
// section.
func pandasBlocks(t *testing.T) []string {
	t.Helper()
	data, err := os.ReadFile(repoFile("docs", "outputs.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, sec, ok := strings.Cut(string(data), "\n## pandas\n")
	if !ok {
		t.Fatal("docs/outputs.md has no ## pandas section")
	}
	sec, _, _ = strings.Cut(sec, "\n## ")
	var blocks []string
	for _, part := range strings.Split(sec, "```python\n")[1:] {
		code, _, _ := strings.Cut(part, "```")
		blocks = append(blocks, code)
	}
	if len(blocks) != 2 {
		t.Fatalf("docs/outputs.md's pandas section has %d python blocks, want 2 (CSV, then pyarrow)", len(blocks))
	}
	return blocks
}

// TestPandasRecipe runs the pandas recipe of docs/outputs.md as shown on
// files benchtrim writes from the demo's inputs: the CSV block (canonical
// table, its .setups.csv sidecar, steady's forks) with any pandas, then
// checks the types it promises; the Parquet block only where pyarrow is
// installed. Both skip visibly without them.
func TestPandasRecipe(t *testing.T) {
	blocks := pandasBlocks(t)
	py := pythonWith("pandas")
	if py == "" {
		testenv.Skip(t, "no python3 with pandas (apt-get install python3-pandas, or set BENCHTRIM_PYTHON)")
	}
	dir := t.TempDir()
	demo := filepath.Join(dir, "demo")
	os.Mkdir(demo, 0o755)
	if _, err := synth.WriteDemoData(demo, 1); err != nil {
		t.Fatal(err)
	}
	in := func(name string) string { return filepath.Join(demo, name) }
	out := func(name string) string { return filepath.Join(dir, name) }
	table := []string{in("jmh-avgt.json"), in("jmh-sample.json"), in("gobench.txt"), in("uoptime-v1.0.0.csv")}
	runPy := func(t *testing.T, code string) {
		t.Helper()
		cmd := exec.Command(py, "-c", code)
		cmd.Dir = dir
		if b, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%s: %v\n%s", py, err, b)
		}
	}
	t.Run("csv", func(t *testing.T) {
		for _, args := range [][]string{
			append([]string{"ingest", "-o", out("suite.csv")}, table...),
			{"steady", "--steady-window", "30", "--forks-out", out("forks.csv"), in("jmh-avgt.json")},
		} {
			if _, errs, err := runCLI(t, append([]string{"--quiet", "--workers", "2"}, args...)...); err != nil {
				t.Fatalf("%v: %v\n%s", args, err, errs)
			}
		}
		// What the recipe promises, on data that has each case.
		runPy(t, blocks[0]+`
assert t.warmup.dtype == bool, 't.warmup.dtype == bool'
assert t.instance.dtype == "int32", 't.instance.dtype == "int32"'
assert t.ns_per_op.isna().any(), 't.ns_per_op.isna().any()'
assert t.start_ns.dtype == "Int64", 't.start_ns.dtype == "Int64"'
assert t.start_ns.isna().any(), 't.start_ns.isna().any()'
assert (t.version == "").any(), '(t.version == "").any()'
assert not t.version.isna().any(), 'not t.version.isna().any()'
assert setups.single_shot.dtype == bool, 'setups.single_shot.dtype == bool'
assert len(setups) > 0, 'len(setups) > 0'
assert any(len(e) > 0 for e in setups.env), 'any(len(e) > 0 for e in setups.env)'
assert forks.st_s.dtype == "float64", 'forks.st_s.dtype == "float64"'
assert forks.st_s.isna().any(), 'forks.st_s.isna().any()'
assert forks.st_index.isna().any(), 'forks.st_index.isna().any()'
assert any(len(c) > 0 for c in forks.changepoints), 'any(len(c) > 0 for c in forks.changepoints)'
assert all(isinstance(x, int) for c in forks.changepoints for x in c), 'all(isinstance(x, int) for c in forks.changepoints for x in c)'
`)
	})
	t.Run("pyarrow", func(t *testing.T) {
		if pythonWith("pandas, pyarrow") != py {
			testenv.Skip(t, "%s has pandas but no pyarrow: the recipe's Parquet block needs it", py)
		}
		for _, args := range [][]string{
			append([]string{"ingest", "-o", out("suite.parquet")}, table...),
			{"steady", "--steady-window", "30", "--forks-out", out("forks.parquet"), in("jmh-avgt.json")},
		} {
			if _, errs, err := runCLI(t, append([]string{"--quiet", "--workers", "2"}, args...)...); err != nil {
				t.Fatalf("%v: %v\n%s", args, err, errs)
			}
		}
		runPy(t, blocks[1])
	})
}
