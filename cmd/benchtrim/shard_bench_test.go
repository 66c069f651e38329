package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestBenchWithShards: with --bench, a shard holding none of the selected
// benchmarks writes an empty partial (as a shard without --bench does),
// in memory and with a spooled input (--max-rows), and the merge of all
// shards prints and writes what the unsharded --bench run does.
func TestBenchWithShards(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "suite.csv")
	if _, _, err := runCLI(t, "--seed", "5", "generate", "--preset", "uoptime", "--benchmarks", "12", "-o", in); err != nil {
		t.Fatal(err)
	}
	const n = 4
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"optimize", []string{"optimize", "--metric", "rmad", "--resamples", "200", "--bench", "ParserHash", in}},
		{"trim", []string{"trim", "--resamples", "200", "--bench", "ParserHash|JsonCopy", in}},
	} {
		for _, maxRows := range []string{"0", "300"} {
			name := tc.name + "/max-rows=" + maxRows
			out := filepath.Join(dir, tc.name+maxRows+"-whole.csv")
			want, _, err := runCLI(t, append([]string{"--quiet", "--max-rows", maxRows}, append(tc.args, "-o", out)...)...)
			if err != nil {
				t.Fatalf("%s unsharded: %v", name, err)
			}
			var partials []string
			empty := 0
			for k := 0; k < n; k++ {
				p := filepath.Join(dir, fmt.Sprintf("%s%s-s%d.partial", tc.name, maxRows, k))
				args := append([]string{"--max-rows", maxRows}, append(tc.args, "--shard", fmt.Sprintf("%d/%d", k, n), "--partial-out", p)...)
				stdout, stderr, err := runCLI(t, args...)
				if err != nil {
					t.Fatalf("%s shard %d/%d: %v", name, k, n, err)
				}
				if !strings.Contains(stdout, fmt.Sprintf("wrote %s (%s, shard %d/%d)", p, tc.name, k, n)) {
					t.Errorf("%s shard %d/%d: stdout %q", name, k, n, stdout)
				}
				if strings.Contains(stderr, fmt.Sprintf("shard %d/%d holds none of the", k, n)) && strings.Contains(stderr, "is empty") {
					empty++
				}
				partials = append(partials, p)
			}
			if empty == 0 || empty == n {
				t.Errorf("%s: %d of %d shards empty, want some", name, empty, n)
			}
			merged := filepath.Join(dir, tc.name+maxRows+"-merged.csv")
			got, _, err := runCLI(t, append(append([]string{"--quiet", "merge"}, partials...), "-o", merged)...)
			if err != nil {
				t.Fatalf("%s merge: %v", name, err)
			}
			got = strings.ReplaceAll(got, merged, out)
			if got != want {
				t.Errorf("%s: merged text differs from the unsharded run's:\n%s\nwant\n%s", name, got, want)
			}
			if a, b := readFile(t, merged), readFile(t, out); a != b || len(a) < 100 {
				t.Errorf("%s: merged -o differs from the unsharded run's (%d vs %d bytes)", name, len(a), len(b))
			}
		}
	}
}

// readFile returns the content of path.
func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
