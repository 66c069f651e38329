package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
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
		{[]string{"steady", "--forks-out", filepath.Join(dir, "f.parquet"), in}, `--forks-out`},
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
