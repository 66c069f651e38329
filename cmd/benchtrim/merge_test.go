package main

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/benchtrim/benchtrim/internal/testenv"
)

// TestMergeEqualsUnsharded: every command benchtrim merge combines, run as
// N = 1, 3 and 7 shards with --partial-out and merged with the command's
// output flags, prints the text and writes every data file, the report
// and the plots byte for byte as the unsharded run does.
func TestMergeEqualsUnsharded(t *testing.T) {
	if testing.Short() {
		testenv.Skip(t, "skipping the sharded runs in -short mode")
	}
	dir := t.TempDir()
	gen := func(name string, args ...string) string { return generated(t, dir, name, args...) }
	long1 := gen("proj-v1.json", "--benchmarks", "4", "--forks", "2", "--iterations", "130")
	long2 := gen("proj-v2.json", "--benchmarks", "4", "--forks", "2", "--iterations", "130", "--version", "v2")
	short := gen("other-v1.json", "--benchmarks", "3", "--forks", "3", "--iterations", "40")
	goCSV := gen("go.csv", "--preset", "uoptime", "--benchmarks", "5")
	duetCSV := gen("duet.csv", "--preset", "duet")
	for _, tc := range []struct {
		name string
		args []string
		outs []string // output flags, each followed by a path under the run's directory
	}{
		{"optimize", []string{"optimize", "--resamples", "300", goCSV}, []string{"-o", "--summary-out", "--commands-out", "--details"}},
		{"reconfigure", []string{"reconfigure", "--aa-resamples", "300", short}, []string{"-o", "--configs-out", "--details"}},
		{"steady", []string{"steady", "--steady-window", "100", "--resamples", "500", long1, long2}, []string{"--forks-out", "--benchmarks-out", "--plots"}},
		{"duet", []string{"duet", "--resamples", "300", duetCSV}, []string{"-o", "--mds-out", "--match-out", "--overlaps-out"}},
		{"trim", []string{"trim", "--steady-window", "100", "--resamples", "500", long1, long2, short, duetCSV}, []string{"-o", "--commands-out", "--report", "--details"}},
	} {
		// outputs returns the output arguments writing into d.
		outputs := func(d string) []string {
			var args []string
			for _, o := range tc.outs {
				if o == "--details" {
					args = append(args, o)
					continue
				}
				ext := map[string]string{"--commands-out": ".sh", "--report": ".html", "--plots": ""}[o]
				if _, ok := map[string]bool{"--commands-out": true, "--report": true, "--plots": true}[o]; !ok {
					ext = ".csv"
				}
				args = append(args, o, filepath.Join(d, strings.Trim(o, "-")+ext))
			}
			return args
		}
		whole := filepath.Join(dir, tc.name, "whole")
		if err := os.MkdirAll(whole, 0o755); err != nil {
			t.Fatal(err)
		}
		wantOut, stderr, err := runCLI(t, append(append([]string{}, tc.args...), outputs(whole)...)...)
		if err != nil {
			t.Fatalf("%s: %v\n%s", tc.name, err, stderr)
		}
		want := readTree(t, whole)
		if len(want) < len(tc.outs)-1 {
			t.Fatalf("%s wrote %d files", tc.name, len(want))
		}
		for _, n := range []int{1, 3, 7} {
			d := filepath.Join(dir, tc.name, fmt.Sprint(n))
			if err := os.MkdirAll(d, 0o755); err != nil {
				t.Fatal(err)
			}
			var partials []string
			for k := n - 1; k >= 0; k-- { // merge takes them in any order
				p := filepath.Join(d, fmt.Sprintf("s%d.partial", k))
				args := append(append([]string{}, tc.args...), "--shard", fmt.Sprintf("%d/%d", k, n), "--partial-out", p)
				if _, stderr, err := runCLI(t, args...); err != nil {
					t.Fatalf("%s shard %d/%d: %v\n%s", tc.name, k, n, err, stderr)
				}
				partials = append(partials, p)
			}
			got, stderr, err := runCLI(t, append(append([]string{"merge"}, partials...), outputs(d)...)...)
			if err != nil {
				t.Fatalf("%s: merge of %d shards: %v\n%s", tc.name, n, err, stderr)
			}
			if got = strings.ReplaceAll(got, d, whole); got != wantOut {
				t.Errorf("%s: merge of %d shards prints\n%s\nthe unsharded run\n%s", tc.name, n, got, wantOut)
			}
			files := readTree(t, d)
			for name, w := range want {
				if g, ok := files[name]; !ok {
					t.Errorf("%s: merge of %d shards did not write %s", tc.name, n, name)
				} else if !bytes.Equal(g, w) {
					t.Errorf("%s: merge of %d shards: %s differs from the unsharded run's (%d bytes, want %d)", tc.name, n, name, len(g), len(w))
				}
			}
		}
	}
}

// readTree returns the files under dir by their path relative to it,
// without the partial files.
func readTree(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	err := filepath.WalkDir(dir, func(p string, e os.DirEntry, err error) error {
		if err != nil || e.IsDir() || strings.HasSuffix(p, ".partial") {
			return err
		}
		b, err := os.ReadFile(p)
		rel, _ := filepath.Rel(dir, p)
		out[rel] = b
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestMergeErrors: merge refuses, with a message naming the file and what
// to do, partials that are not one complete sharded run of one command,
// a file that is not a partial, a flag the command lacks, more plots than
// the partials keep data for, and an output that is one of its inputs.
func TestMergeErrors(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "proj-v1.json")
	if _, _, err := runCLI(t, "generate", "--benchmarks", "2", "--forks", "2", "--iterations", "120", "-o", in); err != nil {
		t.Fatal(err)
	}
	part := func(cmd string, k, n int, extra ...string) string {
		p := filepath.Join(dir, fmt.Sprintf("%s-%d-%d.partial", cmd, k, n))
		args := append([]string{cmd, "--shard", fmt.Sprintf("%d/%d", k, n), "--partial-out", p}, extra...)
		if cmd == "steady" {
			args = append(args, "--steady-window", "100", "--resamples", "200")
		}
		if _, stderr, err := runCLI(t, append(args, in)...); err != nil {
			t.Fatalf("%v: %v\n%s", args, err, stderr)
		}
		return p
	}
	s0, s1, s2 := part("steady", 0, 3, "--plot-max", "2"), part("steady", 1, 3, "--plot-max", "2"), part("steady", 2, 3, "--plot-max", "2")
	r0 := part("reconfigure", 0, 3)
	if _, _, err := runCLI(t, "steady", "--shard", "0/2", "--partial-out", filepath.Join(dir, "x.partial"), "--forks-out", filepath.Join(dir, "f.csv"), in); err == nil ||
		!strings.Contains(err.Error(), "give --forks-out to benchtrim merge") {
		t.Errorf("--partial-out with --forks-out: %v", err)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{s0, s1}, "missing shard 2/3 (have 2 of 3)"},
		{[]string{s0, s1, s1, s2}, "shard 1/3 is in both"},
		{[]string{s0, s1, r0}, "holds a steady report, " + r0 + " a reconfigure report"},
		{[]string{s0, s1, in}, in + ":1: not a benchtrim partial file"},
		{[]string{s0, s1, s2, "--summary-out", filepath.Join(dir, "s.csv")}, "--summary-out is not an output of steady"},
		{[]string{s0, s1, s2, "--plots", filepath.Join(dir, "plots")}, "keeps plot data for its first 2 benchmark runs; run the shards with --plot-max 20"},
		{[]string{s0, s1, s2, "--forks-out", s0}, s0},
		{nil, "no partial files"},
	} {
		_, _, err := runCLI(t, append([]string{"merge"}, tc.args...)...)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("merge %v: err = %v, want it to contain %q", tc.args, err, tc.want)
		}
	}
	if _, stderr, err := runCLI(t, "merge", s0, s1, s2, "--plots", filepath.Join(dir, "plots"), "--plot-max", "2"); err != nil {
		t.Errorf("merge with --plot-max 2: %v\n%s", err, stderr)
	}
}

// TestMergeRefusesOtherInputs: partials of two input files with the same
// name and version but other content (every time × 1.5) are refused,
// naming both partials and the input; so are partials run with another
// option (named, with both values) or another --version. The same content
// read from standard input merges to the unsharded run's bytes.
func TestMergeRefusesOtherInputs(t *testing.T) {
	dir := t.TempDir()
	a := filepath.Join(dir, "a", "proj-v1.csv")
	b := filepath.Join(dir, "b", "proj-v1.csv")
	for _, d := range []string{filepath.Dir(a), filepath.Dir(b)} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if _, _, err := runCLI(t, "--seed", "3", "generate", "--preset", "uoptime", "--benchmarks", "6", "-o", a); err != nil {
		t.Fatal(err)
	}
	rows := readCSV(t, a)
	col := slices.Index(rows[0], "ns_per_op")
	if col < 0 {
		t.Fatalf("no ns_per_op column in %v", rows[0])
	}
	for _, r := range rows[1:] {
		v, err := strconv.ParseFloat(r[col], 64)
		if err != nil {
			t.Fatal(err)
		}
		r[col] = strconv.FormatFloat(v*1.5, 'g', -1, 64)
	}
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	w.WriteAll(rows)
	if err := os.WriteFile(b, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	part := func(k int, in string, extra ...string) string {
		p := filepath.Join(dir, fmt.Sprintf("s%d-%s-%s.partial", k, filepath.Base(filepath.Dir(in)), strings.Join(extra, "")))
		args := append([]string{"--quiet", "optimize", "--metric", "rmad", "--resamples", "300", "--shard", fmt.Sprintf("%d/2", k), "--partial-out", p, in}, extra...)
		if _, stderr, err := runCLI(t, args...); err != nil {
			t.Fatalf("%v: %v\n%s", args, err, stderr)
		}
		return p
	}
	s0, s1b := part(0, a), part(1, b)
	s1opt := part(1, a, "--resamples", "200")
	s1ver := part(1, a, "--version", "v1")
	for _, tc := range []struct {
		parts []string
		want  string
	}{
		{[]string{s0, s1b}, s0 + " read input 1 " + a + " (" + fmt.Sprint(fileSize(t, a)) + " bytes, sha256 "},
		{[]string{s0, s1b}, "…), " + s1b + " read " + b + " (" + fmt.Sprint(fileSize(t, b)) + " bytes, sha256 "},
		{[]string{s0, s1opt}, "merge optimize: optimize: part 2 was run with other options than part 1: Bootstrap.Resamples is 200 in part 2, 300 in part 1"},
		{[]string{s0, s1ver}, s0 + ` was run without --version, ` + s1ver + ` with --version "v1"`},
	} {
		_, _, err := runCLI(t, append([]string{"merge", "-o", filepath.Join(dir, "m.csv")}, tc.parts...)...)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("merge %v: err = %v, want it to contain %q", tc.parts, err, tc.want)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "m.csv")); err == nil {
		t.Error("a refused merge wrote its output")
	}
	// The same bytes from standard input are the same input.
	f, err := os.Open(a)
	if err != nil {
		t.Fatal(err)
	}
	saved := os.Stdin
	os.Stdin = f
	s1stdin := filepath.Join(dir, "s1-stdin.partial")
	_, _, err = runCLI(t, "--quiet", "optimize", "--metric", "rmad", "--resamples", "300", "--shard", "1/2", "--partial-out", s1stdin, "--project", "proj", "--version", "v1", "-")
	os.Stdin = saved
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	s0named := part(0, a, "--project", "proj", "--version", "v1")
	merged, whole := filepath.Join(dir, "merged.csv"), filepath.Join(dir, "whole.csv")
	if _, _, err := runCLI(t, "--quiet", "merge", "-o", merged, s0named, s1stdin); err != nil {
		t.Fatalf("merge of a file and the same bytes on stdin: %v", err)
	}
	if _, _, err := runCLI(t, "--quiet", "optimize", "--metric", "rmad", "--resamples", "300", "-o", whole, a); err != nil {
		t.Fatal(err)
	}
	if m, w := readFile(t, merged), readFile(t, whole); m != w || len(m) < 100 {
		t.Errorf("merged -o differs from the unsharded run's (%d vs %d bytes)", len(m), len(w))
	}
}

// fileSize is the size of path in bytes.
func fileSize(t *testing.T, path string) int64 {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return fi.Size()
}
