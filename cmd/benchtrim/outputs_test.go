package main

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/benchtrim/benchtrim/analysis/reconfigure"
	"github.com/benchtrim/benchtrim/reports"
)

// copyFile copies a repository test file into dir.
func copyFile(t *testing.T, src, dir string) string {
	t.Helper()
	data, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	dst := filepath.Join(dir, filepath.Base(src))
	if err := os.WriteFile(dst, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return dst
}

func TestOutputsAreCheckedBeforeAnyWork(t *testing.T) {
	dir := t.TempDir()
	in := copyFile(t, repoFile("testdata", "uoptime", "small_ragged.csv"), dir)
	orig, _ := os.ReadFile(in)
	ok := filepath.Join(dir, "ok.csv")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"ingest", "-o", in, in}, "-o " + in + ": is the input " + in + "; refusing to overwrite an input"},
		{[]string{"ingest", "-o", filepath.Join(dir, ".", "..", filepath.Base(dir), "small_ragged.csv"), in}, "refusing to overwrite an input"},
		{[]string{"optimize", "--metric", "cv", "-o", in, in}, "refusing to overwrite an input"},
		{[]string{"compare", "--aa", "-o", in, in}, "refusing to overwrite an input"},
		{[]string{"optimize", "--metric", "cv", "-o", ok, "--summary-out", "/missing/s.csv", in}, "--summary-out /missing/s.csv: directory /missing does not exist"},
		{[]string{"optimize", "--metric", "all", "-o", filepath.Join(dir, "out.xlsx"), in}, `unsupported extension ".xlsx"`},
		{[]string{"steady", "--forks-out", filepath.Join(dir, "f.xlsx"), in}, `--forks-out ` + filepath.Join(dir, "f.xlsx") + `: unsupported extension`},
		{[]string{"ingest", "-o", filepath.Join(dir, "t.csv"), in, filepath.Join(dir, "..", filepath.Base(dir), "small_ragged.csv")}, "same file as " + in},
	} {
		_, _, err := runCLI(t, append([]string{"--quiet"}, tc.args...)...)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: err %v, want %q", tc.args, err, tc.want)
		}
	}
	if got, _ := os.ReadFile(in); string(got) != string(orig) {
		t.Errorf("the input was changed")
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		t.Errorf("refused commands left files: %v", names)
	}
}

// TestDataOutputsInEveryFormat: the extension picks the format, and the
// dynamic configurations read back equal from CSV, Arrow and Parquet.
func TestDataOutputsInEveryFormat(t *testing.T) {
	in := repoFile("testdata", "jmh", "small_avgt.json")
	dir := t.TempDir()
	var sets [][]reconfigure.DynamicConfig
	for _, ext := range []string{".csv", ".arrow", ".parquet"} {
		cfg := filepath.Join(dir, "dyn"+ext)
		_, _, err := runCLI(t, "--quiet", "reconfigure", "--aa-resamples", "200", "--wi-min", "1", "--wi-max", "2", "--mi", "1",
			"-o", filepath.Join(dir, "per"+ext), "--table2", filepath.Join(dir, "t2"+ext), "--configs-out", cfg, in)
		if err != nil {
			t.Fatal(err)
		}
		got, err := reconfigure.ReadConfigsFile(cfg)
		if err != nil {
			t.Fatal(err)
		}
		sets = append(sets, got)
		rows, err := reports.ReadRows(filepath.Join(dir, "t2"+ext))
		if err != nil || rows.Header[0] != "project" || rows.Header[2] != "benchmarks" {
			t.Errorf("%s: table2 %v, %v", ext, rows, err)
		}
		_, _, err = runCLI(t, "--quiet", "steady", "--steady-window", "3", "--configs", cfg,
			"--forks-out", filepath.Join(dir, "forks"+ext), "--eval-out", filepath.Join(dir, "eval"+ext), in)
		if err != nil {
			t.Fatalf("steady --configs %s: %v", cfg, err)
		}
		for _, p := range []string{"forks" + ext, "eval" + ext, "eval.benchmarks" + ext} {
			if rows, err := reports.ReadRows(filepath.Join(dir, p)); err != nil || len(rows.Cells) == 0 {
				t.Errorf("%s: %v (%v)", p, err, rows)
			}
		}
	}
	if len(sets[0]) == 0 || !reflect.DeepEqual(sets[0], sets[1]) || !reflect.DeepEqual(sets[0], sets[2]) {
		t.Errorf("configurations differ between CSV, Arrow and Parquet: %d %d %d", len(sets[0]), len(sets[1]), len(sets[2]))
	}
}

// TestOutputFoldersAreCheckedBeforeAnyWork: every file an output folder
// will hold is checked against the inputs and the other outputs as -o is
// (trim --out-dir, and merge writing it), and a --plots folder refuses to
// hold an input of its plots' extension; nothing is written.
func TestOutputFoldersAreCheckedBeforeAnyWork(t *testing.T) {
	dir := t.TempDir()
	res := filepath.Join(dir, "res")
	if err := os.Mkdir(res, 0o755); err != nil {
		t.Fatal(err)
	}
	// An input named as a file of the folder: a plan of a previous run
	// read back as a table, a JMH file named commands.sh.
	plan := filepath.Join(res, "plan.csv")
	if _, _, err := runCLI(t, "--quiet", "ingest", "-o", plan, repoFile("testdata", "uoptime", "small_ragged.csv")); err != nil {
		t.Fatal(err)
	}
	jmh := copyFile(t, repoFile("testdata", "jmh", "small_avgt.json"), res)
	cmds := filepath.Join(res, "commands.sh")
	if err := os.Rename(jmh, cmds); err != nil {
		t.Fatal(err)
	}
	svg := filepath.Join(res, "in.svg")
	if err := os.Rename(copyFile(t, repoFile("testdata", "jmh", "small_avgt.json"), dir), svg); err != nil {
		t.Fatal(err)
	}
	partial := filepath.Join(res, "report.html")
	if _, _, err := runCLI(t, "--quiet", "trim", "--resamples", "100", "--shard", "0/1", "--partial-out", partial, plan); err != nil {
		t.Fatal(err)
	}
	before := snapshot(t, dir) + snapshot(t, res)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"trim", "--out-dir", res, plan}, "--out-dir " + res + ": " + plan + " is the input " + plan + "; refusing to overwrite an input"},
		{[]string{"trim", "--out-dir", filepath.Join(dir, ".", "res"), "--format", "jmh", cmds}, "commands.sh is the input " + cmds + "; refusing to overwrite an input"},
		{[]string{"trim", "-o", filepath.Join(dir, "plan.csv"), "--out-dir", dir, plan}, "--out-dir " + dir + ": " + filepath.Join(dir, "plan.csv") + " is also the output of -o"},
		{[]string{"merge", "--out-dir", res, partial}, "--out-dir " + res + ": " + partial + " is the input " + partial + "; refusing to overwrite an input"},
		{[]string{"steady", "--plots", res, "--plot-format", "svg", "--format", "jmh", svg}, "--plots " + res + ": would hold files like the input " + svg + "; refusing to overwrite an input"},
		{[]string{"duet", "--plots", res, "--format", "duet", svg}, "--plots " + res + ": would hold files like the input " + svg},
	} {
		_, _, err := runCLI(t, append([]string{"--quiet"}, tc.args...)...)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: err %v, want %q", tc.args, err, tc.want)
		}
	}
	if after := snapshot(t, dir) + snapshot(t, res); after != before {
		t.Errorf("refused commands changed the files in %s (%d bytes of snapshot before, %d after)", dir, len(before), len(after))
	}
}
