package main

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/benchtrim/benchtrim/internal/benchstattest"
)

// benchstatVerdicts reads benchstat's -format csv output: per benchmark
// (GOMAXPROCS suffix dropped) of the first unit's table, -1 faster, 0 ~,
// 1 slower.
func benchstatVerdicts(t *testing.T, out []byte) map[string]int {
	t.Helper()
	r := csv.NewReader(bytes.NewReader(out))
	r.FieldsPerRecord = -1
	recs, err := r.ReadAll()
	if err != nil {
		t.Fatalf("benchstat csv: %v", err)
	}
	got := map[string]int{}
	procs := regexp.MustCompile(`-\d+$`)
	inTable := false
	for _, rec := range recs {
		switch {
		case len(rec) >= 7 && rec[0] == "" && rec[len(rec)-2] == "vs base":
			if inTable {
				return got // the next unit's table
			}
			inTable = true
		case inTable && len(rec) >= 7 && rec[0] != "" && rec[0] != "geomean":
			v := 0
			switch d := rec[len(rec)-2]; {
			case d == "~":
			case strings.HasPrefix(d, "+"):
				v = 1
			case strings.HasPrefix(d, "-"):
				v = -1
			default:
				t.Fatalf("benchstat verdict %q of %s", d, rec[0])
			}
			got[procs.ReplaceAllString(rec[0], "")] = v
		}
	}
	return got
}

// TestCompareAgreesWithBenchstat checks that compare --statistic median
// --alpha 0.05 gives benchstat's verdicts (Mann-Whitney U test on the
// result lines, α = 0.05, medians) on two real go test -bench files:
// against the committed output of benchstat (testdata/benchstat/README.md
// has the command) and against benchstat itself when it is on PATH.
func TestCompareAgreesWithBenchstat(t *testing.T) {
	dir := filepath.Join("testdata", "benchstat")
	old, nw := filepath.Join(dir, "old.txt"), filepath.Join(dir, "new.txt")
	out := filepath.Join(t.TempDir(), "r.csv")
	if _, _, err := runCLI(t, "compare", "-q", "--statistic", "median", "--alpha", "0.05", "--resamples", "200", "-o", out, old, nw); err != nil {
		t.Fatal(err)
	}
	ours := map[string]int{}
	rows := compareCSV(t, out)
	metric, change := compareColumn(t, rows, "metric"), compareColumn(t, rows, "change")
	for i, b := range compareColumn(t, rows, "benchmark") {
		if metric[i] == "primary" {
			ours[strings.TrimPrefix(b, "Benchmark")] = map[string]int{"-1": -1, "0": 0, "1": 1}[change[i]]
		}
	}
	ref, err := os.ReadFile(filepath.Join(dir, "benchstat.csv"))
	if err != nil {
		t.Fatal(err)
	}
	refs := map[string][]byte{"committed benchstat.csv": ref}
	if bs, err := exec.LookPath("benchstat"); err == nil {
		if b, err := exec.Command(bs, "-format", "csv", old, nw).Output(); err == nil {
			refs["benchstat on PATH"] = b
		} else {
			t.Logf("benchstat on PATH failed: %v", err)
		}
	} else {
		t.Log("benchstat not on PATH: comparing with the committed output only")
	}
	for what, b := range refs {
		want := benchstatVerdicts(t, b)
		if len(want) != len(ours) || len(want) == 0 {
			t.Errorf("%s: %d benchmarks, benchtrim %d", what, len(want), len(ours))
		}
		agree, changed := 0, 0
		for name, w := range want {
			g, ok := ours[name]
			switch {
			case !ok:
				t.Errorf("%s: %s missing from benchtrim's output", what, name)
			case g != w:
				t.Errorf("%s: %s: benchstat %d, benchtrim %d", what, name, w, g)
			default:
				agree++
			}
			if w != 0 {
				changed++
			}
		}
		t.Logf("%s: %d of %d verdicts agree (%d changed)", what, agree, len(want), changed)
	}
}

// TestCompareMinEffectAndNoise checks --min-effect (a significant change
// under PCT % is ~), that the header names the statistic, and that an A/A
// test of two recordings of one build on a busy machine says the
// measurements are too noisy for verdicts.
func TestCompareMinEffectAndNoise(t *testing.T) {
	dir := filepath.Join("testdata", "benchstat")
	old, nw := filepath.Join(dir, "old.txt"), filepath.Join(dir, "new.txt")
	changed := func(minEffect string) (n int, small int, stdout string) {
		t.Helper()
		out := filepath.Join(t.TempDir(), "r.csv")
		stdout, _, err := runCLI(t, "compare", "-q", "--statistic", "median", "--alpha", "0.05", "--resamples", "200", "--min-effect", minEffect, "-o", out, old, nw)
		if err != nil {
			t.Fatal(err)
		}
		rows := compareCSV(t, out)
		metric, change := compareColumn(t, rows, "metric"), compareColumn(t, rows, "change")
		for i, v := range compareColumn(t, rows, "verdict") {
			if metric[i] != "primary" || change[i] == "0" {
				continue
			}
			n++
			pct, _, _ := strings.Cut(v, " %")
			if p, err := strconv.ParseFloat(strings.TrimPrefix(pct, "+"), 64); err != nil || math.Abs(p) < 50 {
				small++
			}
		}
		return n, small, stdout
	}
	all, _, stdout := changed("0")
	if !strings.Contains(stdout, "statistic: median") {
		t.Errorf("header does not name the statistic:\n%s", stdout)
	}
	big, small, stdout := changed("50")
	if small != 0 || big >= all || big == 0 {
		t.Errorf("--min-effect 50: %d changed (%d under 50 %%), without it %d", big, small, all)
	}
	if !strings.Contains(stdout, "changes under 50 % count as ~") {
		t.Errorf("header does not name --min-effect:\n%s", stdout)
	}
	aa := filepath.Join(t.TempDir(), "aa.txt")
	var both []byte
	for _, f := range []string{old, nw} {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		both = append(both, b...)
	}
	if err := os.WriteFile(aa, both, 0o644); err != nil {
		t.Fatal(err)
	}
	stdout, _, err := runCLI(t, "compare", "-q", "--aa", "--resamples", "200", aa)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stdout, "too noisy for A/B verdicts") {
		t.Errorf("A/A of one build with many false positives does not say it is too noisy:\n%s", stdout)
	}
}

// TestCompareWide checks that benchmark names are printed whole, as
// benchstat prints them (with the -GOMAXPROCS suffix): by default a name
// too long for its row stands on a line of its own above the row's cells,
// so lines stay within 100 columns; with --wide the row is one line.
func TestCompareWide(t *testing.T) {
	dir := t.TempDir()
	long := "BenchmarkBuildString/Builder/with_a_rather_long_sub_benchmark_name_that_does_not_fit/1Write_NoGrow"
	var files []string
	for i, name := range []string{"old.txt", "new.txt"} {
		s := "pkg: strings\n"
		for j := 0; j < 5; j++ {
			s += fmt.Sprintf("%s-2\t1000000\t%d ns/op\nBenchmarkShort-2\t1000000\t%d ns/op\n", long, 100+10*i+j, 50+j)
		}
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, p)
	}
	full := strings.TrimPrefix(long, "Benchmark")
	for _, wide := range []bool{false, true} {
		args := []string{"compare", "-q", "--resamples", "200"}
		if wide {
			args = append(args, "--wide")
		}
		stdout, _, err := runCLI(t, append(args, files...)...)
		if err != nil {
			t.Fatal(err)
		}
		var row string
		for _, l := range strings.Split(stdout, "\n") {
			if strings.HasPrefix(l, full) {
				row = l
			}
		}
		if own := row == full+"-2"; row == "" || own == wide || !strings.Contains(stdout, "\nShort-2  ") {
			t.Errorf("--wide=%v: the name's line is %q, want the full name -2 %s:\n%s", wide, row,
				map[bool]string{true: "and its cells", false: "alone"}[wide], stdout)
		}
		if !wide {
			for _, l := range strings.Split(stdout, "\n") {
				if n := len([]rune(l)); n > 100 {
					t.Errorf("line of %d columns: %s", n, l)
				}
			}
		}
	}
}

// TestCompareCol checks --col /KEY (benchstat's -col /size): the runs with
// one value of the parameter are compared with those with the other,
// matched by the rest of the name; a --col that is neither .file nor /KEY
// is a usage error, and more than two values an error naming them.
func TestCompareCol(t *testing.T) {
	in := filepath.Join("..", "..", "testdata", "gobench", "small.txt")
	out := filepath.Join(t.TempDir(), "r.csv")
	stdout, _, err := runCLI(t, "compare", "-q", "--col", "/size", "--resamples", "200", "--metrics", "primary", "-o", out, in)
	if err != nil {
		t.Fatal(err)
	}
	rows := compareCSV(t, out)
	names, params := compareColumn(t, rows, "benchmark"), compareColumn(t, rows, "params")
	status, base := compareColumn(t, rows, "status"), compareColumn(t, rows, "base_label")
	if len(names) != 2 || names[0] != "BenchmarkJsonEncodeSmall" || names[1] != "BenchmarkJsonReadLarge" {
		t.Errorf("benchmarks %v, want JsonEncodeSmall and JsonReadLarge", names)
	}
	for i := range names {
		if params[i] != "" || status[i] != "compared" || base[i] != "size=64" {
			t.Errorf("%s: params %q status %q base %q, want no params, compared, size=64", names[i], params[i], status[i], base[i])
		}
	}
	if !strings.Contains(stdout, "base: size=64\ntest: size=4096\n") {
		t.Errorf("sides not named by the values:\n%s", stdout)
	}
	if _, _, err := runCLI(t, "compare", "--col", "size", in); err == nil || !strings.Contains(err.Error(), "--col") {
		t.Errorf("--col size: err %v, want a usage error naming --col", err)
	}
}

// benchstatRow is one row of the first table of benchstat -format csv:
// the row name, the medians of its columns in the table's unit (sec/op)
// and, with two columns, the verdict (-1, 0, 1) and the p-value.
type benchstatRow struct {
	medians []float64
	change  int
	p       float64
}

// benchstatFirstTable reads the first table of benchstat's -format csv
// output, by row name (the -GOMAXPROCS suffix dropped).
func benchstatFirstTable(t *testing.T, out string) map[string]benchstatRow {
	t.Helper()
	rows := map[string]benchstatRow{}
	procs := regexp.MustCompile(`-\d+$`)
	pval := regexp.MustCompile(`^p=(\d\.\d+) n=`)
	var recs [][]string
	for _, l := range strings.Split(out, "\n") {
		if strings.Contains(l, ",") {
			r := csv.NewReader(strings.NewReader(l))
			rec, err := r.Read()
			if err != nil {
				t.Fatalf("benchstat csv line %q: %v", l, err)
			}
			recs = append(recs, rec)
		} else if len(recs) > 0 {
			break // the end of the first table
		}
	}
	if len(recs) < 3 {
		t.Fatalf("benchstat printed no table:\n%s", out)
	}
	for _, rec := range recs[2:] {
		if rec[0] == "geomean" {
			continue
		}
		var row benchstatRow
		for j := 1; j < len(rec); j += 2 {
			if v, err := strconv.ParseFloat(rec[j], 64); err == nil {
				row.medians = append(row.medians, v)
			}
		}
		if len(rec) >= 7 {
			switch d := rec[5]; {
			case strings.HasPrefix(d, "+"):
				row.change = 1
			case strings.HasPrefix(d, "-"):
				row.change = -1
			}
			m := pval.FindStringSubmatch(rec[6])
			if m == nil {
				t.Fatalf("benchstat row %v: no p-value", rec)
			}
			row.p, _ = strconv.ParseFloat(m[1], 64)
		}
		rows[procs.ReplaceAllString(rec[0], "")] = row
	}
	return rows
}

// TestCompareRowsAndConfigAgreeWithBenchstat runs compare's benchstat
// projections and benchstat (golang.org/x/perf, benchstattest.Version) on
// the same go test -bench text and checks that every row of benchstat's
// sec/op table is a row of compare's -o file with the same medians (ns,
// equal to 9 significant digits), and for two columns the same U test
// p-value (benchstat prints 3 decimals) and verdict at --alpha 0.05:
// --col /size --row .name, --col /size --row .file (a row pooling every
// benchmark of the file, which benchstat notes as varying .fullname),
// --row /size of one file (no comparison), --col .config of one file with
// two commit: sections (benchstat -col commit), and --col .config of
// old.txt new.txt read together (benchstat old.txt new.txt: the first
// file is the base). The default statistic is the median.
func TestCompareRowsAndConfigAgreeWithBenchstat(t *testing.T) {
	bs := benchstattest.Path(t)
	dir := t.TempDir()
	small := repoFile("testdata", "gobench", "small.txt")
	old, nw := filepath.Join("testdata", "benchstat", "old.txt"), filepath.Join("testdata", "benchstat", "new.txt")
	both := filepath.Join(dir, "both.txt")
	var b []byte
	for i, f := range []string{old, nw} {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		b = append(append(b, fmt.Sprintf("commit: c%d\n", i+1)...), data...)
	}
	if err := os.WriteFile(both, b, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name      string
		ours, bst []string
		// row maps a row of compare's -o (benchmark, params, base_runs)
		// to benchstat's row name.
		row  func(bench, params, runs string) string
		rows int
		note string // what the text says of pooled rows
	}{
		{"col /size row .name", []string{"--col", "/size", "--row", ".name", small}, []string{"-col", "/size", "-row", ".name", small},
			func(b, _, _ string) string { return strings.TrimPrefix(b, "Benchmark") }, 2, ""},
		{"col /size row .file", []string{"--col", "/size", "--row", ".file", small}, []string{"-col", "/size", "-row", ".file", small},
			func(_, _, _ string) string { return small }, 1, "1 row pools runs of different benchmarks"},
		{"row /size", []string{"--row", "/size", small}, []string{"-row", "/size", small},
			func(_, p, _ string) string { return strings.TrimPrefix(p, "size=") }, 2, "2 rows pool runs of different benchmarks"},
		{"col .config of commit sections", []string{"--col", ".config", both}, []string{"-col", "commit", both},
			func(b, _, _ string) string { return strings.TrimPrefix(b, "Benchmark") }, 104, ""},
		{"col .config of two files", []string{"--col", ".config", old, nw}, []string{old, nw},
			func(b, _, _ string) string { return strings.TrimPrefix(b, "Benchmark") }, 104, ""},
	} {
		t.Run(strings.ReplaceAll(tc.name, " ", "_"), func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "r.csv")
			stdout, _, err := runCLI(t, append([]string{"compare", "-q", "--alpha", "0.05", "--resamples", "200", "--metrics", "primary", "-o", out}, tc.ours...)...)
			if err != nil {
				t.Fatal(err)
			}
			if len(tc.bst) > 2 && tc.bst[0] == "-row" && tc.bst[1] == "/size" {
				// one file, no comparison
			} else if !strings.Contains(stdout, "statistic: median") {
				t.Errorf("the default statistic is not the median:\n%s", stdout)
			}
			if got := strings.Contains(stdout, "pool runs of different benchmarks") || strings.Contains(stdout, "pools runs of different benchmarks"); got != (tc.note != "") ||
				tc.note != "" && !strings.Contains(stdout, tc.note) {
				t.Errorf("note on pooled rows: want %q:\n%s", tc.note, stdout)
			}
			cmd := exec.Command(bs, append([]string{"-format", "csv"}, tc.bst...)...)
			bout, err := cmd.Output()
			if err != nil {
				t.Fatalf("benchstat %v: %v", tc.bst, err)
			}
			want := benchstatFirstTable(t, string(bout))
			rows := compareCSV(t, out)
			bench, params, runs := compareColumn(t, rows, "benchmark"), compareColumn(t, rows, "params"), compareColumn(t, rows, "base_runs")
			col := func(name string) []string {
				for _, n := range rows[0] {
					if n == name {
						return compareColumn(t, rows, name)
					}
				}
				return nil
			}
			baseMed, testMed, p, change := col("base_median_ns"), col("test_median_ns"), col("u_pvalue"), col("change")
			if len(want) != tc.rows || len(bench) != tc.rows {
				t.Fatalf("benchstat %d rows, compare %d; want %d\n%s", len(want), len(bench), tc.rows, stdout)
			}
			ties := 0
			defer func() {
				if ties > len(bench)/10 {
					t.Errorf("%d of %d p-values differ from benchstat's", ties, len(bench))
				}
			}()
			for i := range bench {
				name := tc.row(bench[i], params[i], runs[i])
				w, ok := want[name]
				if !ok {
					t.Errorf("compare row %s (%s %s) is not a row of benchstat's: %v", name, bench[i], params[i], want)
					continue
				}
				meds := []string{baseMed[i]}
				if testMed != nil {
					meds = append(meds, testMed[i])
				}
				for j, m := range meds {
					v, _ := strconv.ParseFloat(m, 64)
					if j >= len(w.medians) || math.Abs(v*1e-9-w.medians[j]) > 1e-9*math.Abs(w.medians[j]) {
						t.Errorf("%s: median %d is %s ns, benchstat %v s", name, j, m, w.medians)
					}
				}
				if p == nil {
					continue
				}
				// benchstat's U test is exact also with tied values, compare's
				// (scipy's default) uses the normal approximation then: the
				// p-values of tied samples differ a little.
				if pv, _ := strconv.ParseFloat(p[i], 64); math.Abs(pv-w.p) > 0.0005+1e-12 {
					ties++
					t.Logf("%s: p %.4f, benchstat %v (tied values?)", name, pv, w.p)
				}
				if got := map[string]int{"-1": -1, "0": 0, "1": 1}[change[i]]; got != w.change {
					t.Errorf("%s: verdict %d, benchstat %d", name, got, w.change)
				}
			}
		})
	}
}
