package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestExitStatusAsDocumented: a go test file without benchmarks is "no
// result" (1) and writes no table; a missing required flag is a usage
// error (2) naming the flag; a second "-" is refused as such before any
// input is read.
func TestExitStatusAsDocumented(t *testing.T) {
	dir := t.TempDir()
	empty := filepath.Join(dir, "nobench.txt")
	if err := os.WriteFile(empty, []byte("goos: linux\nPASS\nok  \tx\t0.1s\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "t.parquet")
	for _, tc := range []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"ingest", empty, "-o", out}, 1, "no benchmark result in the input"},
		{[]string{"ingest", empty}, 2, "--output is required"},
		{[]string{"export", empty, "-o", filepath.Join(dir, "x.txt")}, 2, "--to is required"},
		{[]string{"generate"}, 2, "--output is required"},
		{[]string{"ingest", "-", "-", "-o", out}, 1, "standard input (-) given twice"},
		{[]string{"trim", "--target", "1.5", empty}, 2, "--target 1.5"},
	} {
		_, _, err := runCLI(t, tc.args...)
		var msg strings.Builder
		if code := exitCode(err, &msg); code != tc.code || !strings.Contains(msg.String(), tc.msg) {
			t.Errorf("%v: exit %d (%q), want %d with %q", tc.args, code, msg.String(), tc.code, tc.msg)
		}
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("a table was written for an input without rows (%v)", err)
	}
}
