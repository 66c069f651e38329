package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestChunkedRunsEqualTheWholeRun: steady, reconfigure, trim, optimize and duet on an
// input larger than --max-rows (spooled, analysed a chunk of benchmarks
// at a time, then merged) print the same answer and write the same data
// files, byte for byte, as on the whole table in memory (--max-rows 0).
func TestChunkedRunsEqualTheWholeRun(t *testing.T) {
	dir := t.TempDir()
	var long, short []string
	for i, v := range []string{"v1", "v2"} {
		p := filepath.Join(dir, "proj-"+v+".json")
		if _, _, err := runCLI(t, "--seed", strconv.Itoa(11+i), "generate", "--benchmarks", "4", "--forks", "2", "--iterations", "130", "-o", p); err != nil {
			t.Fatal(err)
		}
		long = append(long, p)
	}
	p := filepath.Join(dir, "other-v1.json")
	if _, _, err := runCLI(t, "--seed", "13", "generate", "--benchmarks", "3", "--forks", "3", "--iterations", "40", "-o", p); err != nil {
		t.Fatal(err)
	}
	short = append(short, p)
	all := append(append([]string(nil), long...), short...)
	duetCSV := filepath.Join(dir, "duet.csv")
	if _, _, err := runCLI(t, "generate", "--preset", "duet", "-o", duetCSV); err != nil {
		t.Fatal(err)
	}
	chunked := regexp.MustCompile(`more than --max-rows \d+: analysing (\d+) chunks`)
	for _, tc := range []struct {
		name string
		args []string
		outs []string
	}{
		{"steady", append([]string{"steady", "--steady-window", "100", "--resamples", "500"}, long...), []string{"--forks-out", "--benchmarks-out"}},
		{"reconfigure", append([]string{"reconfigure", "--aa-resamples", "300"}, short...), []string{"-o", "--configs-out"}},
		{"trim", append([]string{"trim", "--steady-window", "100", "--resamples", "500"}, all...), []string{"-o", "--commands-out", "--report"}},
		{"optimize", append([]string{"optimize", "--resamples", "300"}, all...), []string{"-o", "--summary-out", "--versions-out"}},
		{"duet", []string{"duet", "--resamples", "300", duetCSV}, []string{"-o", "--mds-out", "--match-out", "--overlaps-out"}},
		{"compare --aa", append([]string{"compare", "--aa", "--aa-repeats", "3", "--resamples", "300"}, all...), []string{"-o"}},
	} {
		run := func(maxRows string) (string, string, map[string][]byte) {
			files := map[string][]byte{}
			args := append([]string{"--max-rows", maxRows}, tc.args...)
			var paths []string
			for _, o := range tc.outs {
				ext := map[string]string{"--commands-out": ".sh", "--report": ".html"}[o]
				if ext == "" {
					ext = ".csv"
				}
				path := filepath.Join(dir, fmt.Sprintf("%s%s-%s%s", tc.name, maxRows, strings.Trim(o, "-"), ext))
				args = append(args, o, path)
				paths = append(paths, path)
			}
			stdout, stderr, err := runCLI(t, args...)
			if err != nil {
				t.Fatalf("%s --max-rows %s: %v\n%s", tc.name, maxRows, err, stderr)
			}
			for _, p := range paths {
				b, err := os.ReadFile(p)
				if err != nil {
					t.Fatal(err)
				}
				files[filepath.Base(p)[len(tc.name+maxRows):]] = b
			}
			return strings.ReplaceAll(stdout, maxRows+"-", ""), stderr, files
		}
		wantOut, wantErr, wantFiles := run("0")
		// Every benchmark fits (duet's runs hold 800 rows; compare's
		// groups, every metric of a name and params in every project, up
		// to about 4,000; a larger one is refused, TestMaxRowsBoundsOneRun),
		// the input does not.
		maxRows := map[string]string{"duet": "1000", "compare --aa": "5000"}[tc.name]
		if maxRows == "" {
			maxRows = "700"
		}
		gotOut, gotErr, gotFiles := run(maxRows)
		m := chunked.FindStringSubmatch(gotErr)
		if m == nil || m[1] == "1" || chunked.MatchString(wantErr) {
			t.Errorf("%s: the 2500-row run should be chunked and the unbounded one not; stderr:\n%s", tc.name, gotErr)
		}
		if m != nil {
			t.Logf("%s: %s chunks, stdout %d bytes, files %d", tc.name, m[1], len(gotOut), len(gotFiles))
		}
		if gotOut != wantOut {
			t.Errorf("%s: chunked stdout differs:\n%s\nwant:\n%s", tc.name, gotOut, wantOut)
		}
		for name, want := range wantFiles {
			if !bytes.Equal(gotFiles[name], want) {
				t.Errorf("%s: chunked %s differs (%d bytes, want %d)", tc.name, name, len(gotFiles[name]), len(want))
			}
		}
	}
}

// TestChunkedCompareEqualsWhole: compare on inputs larger than
// --max-rows (both sides spooled, grouped by benchmark name, compared a
// chunk of names at a time and merged) prints the same text, writes the
// same -o file and fails with the same errors as on the tables in memory
// (--max-rows 0): two files of different projects with benchmarks only in
// one of them, label selection from one input, a filter, a metrics list,
// a filter that keeps nothing, an unknown metric and a selector that
// matches nothing; and the summary of one file (compare FILE) alike.
func TestChunkedCompareEqualsWhole(t *testing.T) {
	dir := t.TempDir()
	gen := func(name string, args ...string) string {
		return generated(t, dir, name, append([]string{"--forks", "2", "--iterations", "60"}, args...)...)
	}
	a := gen("a-v1.json", "--benchmarks", "4")
	b := gen("b-v2.json", "--benchmarks", "5", "--version", "v2")
	p1 := gen("p-v1.json", "--benchmarks", "3")
	p2 := gen("p-v2.json", "--benchmarks", "3", "--version", "v2")
	chunked := regexp.MustCompile(`more than --max-rows 1300: analysing (\d+) chunks`)
	for _, tc := range []struct {
		name string
		args []string
		fail bool
	}{
		{"files", []string{a, b}, false},
		{"labels", []string{"--base-version", "v1", "--test-version", "v2", p1, p2}, false},
		{"filter and metrics", []string{"--filter", "size:1024", "--metrics", "primary,gc.alloc.rate.norm", a, b}, false},
		{"unknown metric", []string{"--metrics", "ns/op", a, b}, true},
		{"filter keeps nothing", []string{"--filter", "nosuchbenchmark", a, b}, true},
		{"selector matches nothing", []string{"--base-version", "v9", "--test-version", "v2", p1, p2}, true},
		{"describe one file", []string{b}, false},
		{"describe with filter and metrics", []string{"--filter", "size:1024", "--metrics", "gc.alloc.rate.norm,primary", b}, false},
		{"describe unknown metric", []string{"--metrics", "ns/op", b}, true},
		{"describe filter keeps nothing", []string{"--filter", "nosuchbenchmark", b}, true},
	} {
		run := func(maxRows string) (string, string, []byte, error) {
			out := filepath.Join(dir, strings.ReplaceAll(tc.name, " ", "-")+maxRows+".csv")
			args := append([]string{"--max-rows", maxRows, "compare", "--resamples", "300", "-o", out}, tc.args...)
			stdout, stderr, err := runCLI(t, args...)
			b, _ := os.ReadFile(out)
			return strings.ReplaceAll(stdout, out, "OUT"), stderr, b, err
		}
		wantOut, _, wantFile, wantErr := run("0")
		gotOut, gotErr, gotFile, err := run("1300") // every benchmark (600 rows a version) fits, the input does not
		if (wantErr != nil) != tc.fail {
			t.Fatalf("%s: in memory: err = %v", tc.name, wantErr)
		}
		if fmt.Sprint(err) != fmt.Sprint(wantErr) {
			t.Errorf("%s: chunked error %v, in memory %v", tc.name, err, wantErr)
		}
		if tc.fail {
			continue
		}
		m := chunked.FindStringSubmatch(gotErr)
		if m == nil || m[1] == "1" {
			t.Errorf("%s: the run should be chunked; stderr:\n%s", tc.name, gotErr)
		} else {
			t.Logf("%s: %s chunks, stdout %d bytes, -o %d bytes", tc.name, m[1], len(gotOut), len(gotFile))
		}
		if gotOut != wantOut {
			t.Errorf("%s: chunked stdout differs:\n%s\nwant:\n%s", tc.name, gotOut, wantOut)
		}
		if !bytes.Equal(gotFile, wantFile) || len(wantFile) == 0 {
			t.Errorf("%s: chunked -o file differs (%d bytes, want %d)", tc.name, len(gotFile), len(wantFile))
		}
	}
}
