package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestExitStatusAsDocumented: a go test file without benchmarks, and a
// comparison of files without a benchmark in common, are "no result" (1)
// and write no data; a missing required flag or a mistake in naming
// compare's sides is a usage error (2) naming it; a second "-" is refused
// as such before any input is read.
func TestExitStatusAsDocumented(t *testing.T) {
	dir := t.TempDir()
	empty := filepath.Join(dir, "nobench.txt")
	if err := os.WriteFile(empty, []byte("goos: linux\nPASS\nok  \tx\t0.1s\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "t.parquet")
	a, b := filepath.Join(dir, "a.txt"), filepath.Join(dir, "b.txt")
	for p, name := range map[string]string{a: "BenchmarkA", b: "BenchmarkB"} {
		if err := os.WriteFile(p, []byte(name+"-8 1000 5 ns/op\n"+name+"-8 1000 6 ns/op\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"ingest", empty, "-o", out}, 1, "no benchmark result in the input"},
		{[]string{"ingest", empty}, 2, "--output is required"},
		{[]string{"export", empty, "-o", filepath.Join(dir, "x.txt")}, 2, "--to is required"},
		{[]string{"generate"}, 2, "--output is required"},
		{[]string{"ingest", "-", "-", "-o", out}, 2, "standard input (-) given 2 times"},
		{[]string{"trim", "--keep", "0.5", empty}, 2, "--keep 0.5"},
		// compare: nothing in common is no result; a mistake in naming the
		// sides is a usage error, standard input on both sides too.
		{[]string{"compare", a, b}, 1, "no benchmark compared: the two sides have no benchmark in common"},
		{[]string{"compare", "-o", filepath.Join(dir, "c.csv"), a, b}, 1, "no benchmark compared"},
		{[]string{"compare"}, 2, "name the two result sets"},
		{[]string{"compare", "--base", a, b}, 2, "--base and --test must both be given"},
		{[]string{"compare", "-", "-"}, 2, "standard input (-) given 2 times"},
	} {
		_, _, err := runCLI(t, tc.args...)
		var msg strings.Builder
		if code := exitCode(err, &msg); code != tc.code || !strings.Contains(msg.String(), tc.msg) {
			t.Errorf("%v: exit %d (%q), want %d with %q", tc.args, code, msg.String(), tc.code, tc.msg)
		}
	}
	for _, p := range []string{out, filepath.Join(dir, "c.csv")} {
		if _, err := os.Stat(p); !os.IsNotExist(err) {
			t.Errorf("%s was written for a command without a result (%v)", p, err)
		}
	}
}
