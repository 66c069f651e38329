package main

import (
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/benchtrim/benchtrim/internal/benchstattest"
)

// compareNs lists "name n" for the rows of compare's first table: names
// with "Benchmark" (the shared prefix the table leaves out) put back; a
// name too long for its row stands on a line of its own above it.
func compareNs(t *testing.T, out string) []string {
	t.Helper()
	var rows []string
	in, name := false, ""
	nField := regexp.MustCompile(`^\d+\+\d+$`)
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "geomean") {
			break // the first table only
		}
		switch {
		case strings.HasPrefix(l, "benchmark "):
			in = true
		case in:
			f := strings.Fields(l)
			if len(f) == 1 && !strings.HasPrefix(l, " ") {
				name = f[0]
				continue
			}
			if !strings.HasPrefix(l, " ") {
				name = f[0]
			}
			for _, x := range f {
				if nField.MatchString(x) {
					rows = append(rows, "Benchmark"+name+" "+x)
				}
			}
		}
	}
	sort.Strings(rows)
	return rows
}

var benchstatN = regexp.MustCompile(`^(\S+)\s.*n=(\d+)(?:\+(\d+))?\)`)

// benchstatNs lists "name n" for the rows of benchstat's first table
// (sec/op), names as benchstat prints them (with the -GOMAXPROCS suffix,
// as compare's), n as "a+b".
func benchstatNs(out string) []string {
	var rows []string
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "geomean") {
			break
		}
		if m := benchstatN.FindStringSubmatch(l); m != nil {
			b := m[3]
			if b == "" {
				b = m[2]
			}
			rows = append(rows, "Benchmark"+m[1]+" "+m[2]+"+"+b)
		}
	}
	sort.Strings(rows)
	return rows
}

// TestCompareNMatchesBenchstat compares go test -bench text as benchstat
// does: every result line is one iteration, so compare's n is benchstat's
// n, for go test -count 3 output, -count 10 output of the demo and Go text
// exported from µOpTime CSVs (one line per iteration: 45). Reading the text
// warns about nothing (no mixed configuration).
func TestCompareNMatchesBenchstat(t *testing.T) {
	benchstattest.Path(t)
	dir, _, _ := demoFiles(t)
	small, err := os.ReadFile(repoFile("testdata", "gobench", "small.txt"))
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	// A second run of the same benchmarks: one line less for one of them.
	lines := strings.Split(string(small), "\n")
	os.WriteFile("small-old.txt", small, 0o644)
	os.WriteFile("small-new.txt", []byte(strings.Join(append(lines[:5:5], lines[6:]...), "\n")), 0o644)
	for _, v := range []string{"v1.0.0", "v1.1.0"} {
		if _, _, err := runCLI(t, "--quiet", "export", "--to", "gobench", "-o", "exported-"+v+".txt", "uoptime-"+v+".csv"); err != nil {
			t.Fatal(err)
		}
	}
	for _, pair := range [][2]string{{"small-old.txt", "small-new.txt"}, {"gobench.txt", "gobench.txt"}, {"exported-v1.0.0.txt", "exported-v1.1.0.txt"}} {
		out, stderr, err := runCLI(t, "--quiet", "compare", "--resamples", "200", pair[0], pair[1])
		if err != nil {
			t.Fatal(err)
		}
		if stderr != "" {
			t.Errorf("%v: reading warned:\n%s", pair, stderr)
		}
		want := benchstatNs(benchstattest.Run(t, pair[0], pair[1]))
		got := compareNs(t, out)
		if len(want) == 0 || strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("%v: compare's n\n  %s\nbenchstat's n\n  %s\n%s", pair, strings.Join(got, "\n  "), strings.Join(want, "\n  "), out)
		}
		t.Logf("%v: n as benchstat: %s", pair, strings.Join(got, "; "))
	}
}

// TestCompareSecondaryMetricsCLI doubles B/op of one benchmark: compare
// reports it in the B/op table and in -o rows with metric and unit, as
// benchstat does in its B/op table; times and allocs/op are unchanged.
// The verdict is the mean's interval: with 3+3 lines the U test cannot
// reach p < 0.01.
func TestCompareSecondaryMetricsCLI(t *testing.T) {
	dir := t.TempDir()
	small, err := os.ReadFile(repoFile("testdata", "gobench", "small.txt"))
	if err != nil {
		t.Fatal(err)
	}
	old, new := filepath.Join(dir, "old.txt"), filepath.Join(dir, "new.txt")
	os.WriteFile(old, small, 0o644)
	os.WriteFile(new, []byte(strings.ReplaceAll(string(small), "7120 B/op", "14240 B/op")), 0o644)
	csv := filepath.Join(dir, "out.csv")
	out, _, err := runCLI(t, "--quiet", "compare", "--statistic", "mean", "--resamples", "500", "-o", csv, old, new)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"\nB/op: 1 of 4 benchmarks changed: 1 higher (up to +100.0 %)", "\nallocs/op: no change in 4 benchmarks",
		"\np99-ns: no change in 4 benchmarks", "base B/op", "JsonEncodeSmall/size=64-8  "} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if first := strings.SplitN(out, "\n", 2)[0]; !strings.HasPrefix(first, "no change in 4 benchmarks") {
		t.Errorf("first line %q: the answer for times", first)
	}
	rows := compareCSV(t, csv)
	metric, unit, verdict, bench, params := compareColumn(t, rows, "metric"), compareColumn(t, rows, "unit"),
		compareColumn(t, rows, "verdict"), compareColumn(t, rows, "benchmark"), compareColumn(t, rows, "params")
	if len(metric) != 16 || metric[0] != "primary" || unit[0] != "ns/op" {
		t.Fatalf("%d rows, first metric %q unit %q; want 4 benchmarks × (primary, B/op, allocs/op, p99-ns)", len(metric), metric[0], unit[0])
	}
	found := false
	for i := range metric {
		if metric[i] == "B/op" && bench[i] == "BenchmarkJsonEncodeSmall" && params[i] == "size=64" {
			found = true
			if unit[i] != "B/op" || verdict[i] != "+100.0 % higher" {
				t.Errorf("B/op row: unit %q verdict %q", unit[i], verdict[i])
			}
		}
	}
	if !found {
		t.Errorf("no B/op row for JsonEncodeSmall/size=64 in %v", rows)
	}
}

// TestCompareOneFile summarises one file: the first line says how many
// benchmarks and how precisely their means are known; the table has the
// mean ± CI, median, CV, n and units; -o writes one row per benchmark.
func TestCompareOneFile(t *testing.T) {
	dir, uopt, _ := demoFiles(t)
	t.Chdir(dir)
	csv, in := "one.csv", filepath.Base(uopt[0])
	out, _, err := runCLI(t, "--quiet", "compare", "--resamples", "500", "-o", csv, in)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(out, "\n")
	if !strings.HasPrefix(lines[0], in+": 12 benchmarks; 99 % CI of the mean ±") {
		t.Errorf("first line %q", lines[0])
	}
	var row string
	for _, l := range lines {
		if strings.HasPrefix(l, "JsonCopyAscii ") {
			row = l
		}
	}
	if !regexp.MustCompile(`^JsonCopyAscii\s+3\.\d+ns ±\d+%\s+3\.\d+ns\s+\d+(\.\d+)?%\s+45\s+3 instances$`).MatchString(row) {
		t.Errorf("row %q\n%s", row, out)
	}
	rows := compareCSV(t, csv)
	if len(rows) != 13 || compareColumn(t, rows, "base_iterations")[0] != "45" || compareColumn(t, rows, "status")[0] != "described" {
		t.Errorf("%d CSV rows: %v", len(rows), rows[:2])
	}
	for _, l := range lines {
		if n := len([]rune(l)); n > 100 {
			t.Errorf("line of %d runes: %q", n, l)
		}
	}
}

// TestCompareFilterOnGoNames filters go test -bench text by the name as go
// test prints it, params included, and by a parameter.
func TestCompareFilterOnGoNames(t *testing.T) {
	small := repoFile("testdata", "gobench", "small.txt")
	for _, tc := range []struct {
		filter string
		want   int
	}{{"JsonEncodeSmall/size=64$", 1}, {"BenchmarkJsonReadLarge/size=4096", 1}, {"size:4096", 2}, {"Json -size:64", 2}} {
		out, _, err := runCLI(t, "--quiet", "compare", "--resamples", "200", "--metrics", "primary", "--filter", tc.filter, small, small)
		if err != nil {
			t.Fatal(err)
		}
		if n := len(compareNs(t, out)); n != tc.want {
			t.Errorf("--filter %q compared %d benchmarks, want %d:\n%s", tc.filter, n, tc.want, out)
		}
	}
}
