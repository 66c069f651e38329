package main

import (
	"bufio"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/benchtrim/benchtrim/internal/testenv"
	"github.com/benchtrim/benchtrim/synth"
	"github.com/benchtrim/benchtrim/tablefile/tabletest"
)

var dumpColumns = flag.Bool("dump-columns", false, "TestColumnVocabulary: print every data output's columns as dictionary rows")

// vocabEntry is one row of the column dictionary in docs/outputs.md.
type vocabEntry struct {
	typ, unit, writers string
}

// readVocabulary parses the dictionary table of docs/outputs.md (the one
// whose header starts with "| column | type |").
func readVocabulary(t *testing.T) map[string]vocabEntry {
	t.Helper()
	f, err := os.Open(repoFile("docs", "outputs.md"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[string]vocabEntry{}
	in := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		l := strings.TrimSpace(sc.Text())
		if strings.HasPrefix(l, "| column | type |") {
			in = true
			continue
		}
		if !in || strings.HasPrefix(l, "| ---") {
			continue
		}
		if !strings.HasPrefix(l, "|") {
			if len(out) > 0 {
				break
			}
			continue
		}
		cells := strings.Split(strings.Trim(strings.ReplaceAll(l, `\|`, "\x00"), "|"), "|")
		if len(cells) != 5 {
			t.Fatalf("docs/outputs.md: dictionary row %q has %d cells, want 5", l, len(cells))
		}
		for i := range cells {
			cells[i] = strings.Trim(strings.TrimSpace(cells[i]), "`")
		}
		if _, dup := out[cells[0]]; dup {
			t.Errorf("docs/outputs.md: column %s listed twice", cells[0])
		}
		out[cells[0]] = vocabEntry{typ: cells[1], unit: cells[2], writers: cells[4]}
	}
	if len(out) == 0 && !*dumpColumns {
		t.Fatal("docs/outputs.md has no column dictionary (| column | type | unit | meaning | written by |)")
	}
	return out
}

// canonicalInt32 is the dictionary's type cell of the levels, which the
// canonical table (ingest) stores as int32 and every other output as
// int64 (docs/outputs.md says why).
const canonicalInt32 = "int64; int32 in the canonical table"

// typeOK reports whether a column of Arrow type typ written by cmd matches
// the dictionary's type cell: a level column is int32 exactly in the
// canonical table (ingest) and int64 everywhere else.
func typeOK(cell, typ, cmd string) bool {
	if cell == canonicalInt32 {
		return typ == map[bool]string{true: "int32", false: "int64"}[cmd == "ingest"]
	}
	return cell == typ
}

// sameQuantity lists names that must not both exist: one quantity, one name.
var sameQuantity = [][]string{
	{"ratio_lower", "ratio_low", "ratio_ci_lower"},
	{"ratio_upper", "ratio_high", "ratio_ci_upper"},
	{"change_percent", "change_rate"},
	{"min_overlap", "min_overlap_ratio"},
	{"mean_a_ns", "a_mean_ns"},
	{"cv_a", "a_cv"},
	{"p", "u_pvalue"},
	{"u", "u_statistic"},
	{"p_below_alpha", "u_pvalue_below_alpha"},
	{"mean", "base_mean_ns"},
}

// badSuffixes are name endings the vocabulary spells otherwise.
var badSuffixes = map[string]string{
	"_seconds": "_s",
	"_low":     "_ci_lower",
	"_high":    "_ci_upper",
	"_percent": "_rate (a fraction)",
	"_pct":     "_rate (a fraction)",
}

// TestColumnVocabulary runs every data-writing command and flag (the
// "Which flag writes what" table of docs/outputs.md, as .ci/readers/run.sh
// does) on the demo's generated inputs and a generated duet suite, and
// checks every column of every output against the dictionary in
// docs/outputs.md: listed, with the Arrow type it lists, and in the
// command whose outputs it names.
func TestColumnVocabulary(t *testing.T) {
	if testing.Short() {
		testenv.Skip(t, "runs every analyzer")
	}
	dir := t.TempDir()
	demo := filepath.Join(dir, "demo")
	os.Mkdir(demo, 0o755)
	if _, err := synth.WriteDemoData(demo, 1); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out")
	os.Mkdir(out, 0o755)
	d := func(name string) string { return filepath.Join(demo, name) }
	o := func(name string) string { return filepath.Join(out, name) }
	versions := []string{d("uoptime-v1.0.0.csv"), d("uoptime-v1.1.0.csv"), d("uoptime-v1.2.0.csv")}
	runs := []struct {
		cmd  string
		args []string
	}{
		{"generate", []string{"generate", "--preset", "duet", "-o", o("duet-input.csv")}},
		{"ingest", append([]string{"ingest", "-o", o("table.arrow"), d("gobench.txt"), d("jmh-avgt.json"), d("jmh-sample.json"), d("pa.csv")}, versions...)},
		{"optimize", append([]string{"optimize", "--metric", "rmad,cv", "--resamples", "200", "-o", o("optimize.arrow"),
			"--summary-out", o("optimize-summary.arrow"), "--versions-out", o("optimize-versions.arrow")}, versions...)},
		{"optimize", append([]string{"optimize", "--metric", "rmad", "--resamples", "200", "--all-configs", "-o", o("optimize-all.arrow")}, versions[:2]...)},
		{"compare", []string{"compare", "--resamples", "200", "-o", o("compare.arrow"), versions[0], versions[1]}},
		{"compare", []string{"compare", "--aa", "--resamples", "200", "-o", o("compare-aa.arrow"), versions[0]}},
		{"compare", []string{"compare", "--resamples", "200", "-o", o("compare-one.arrow"), versions[0]}},
		{"reconfigure", []string{"reconfigure", "--aa-resamples", "200", "--criteria", "cv,rciw", "-o", o("reconfigure.arrow"),
			"--table2", o("reconfigure-table2.arrow"), "--table3", o("reconfigure-table3.arrow"), "--configs-out", o("dynamic.arrow"), d("jmh-avgt.json")}},
		{"steady", []string{"steady", "--resamples", "200", "--steady-window", "30", "--configs", o("dynamic.arrow"), "--forks-out", o("steady-forks.arrow"),
			"--benchmarks-out", o("steady-benchmarks.arrow"), "--eval-out", o("steady-eval.arrow"), d("jmh-avgt.json")}},
		{"duet", []string{"duet", "--resamples", "200", "--slowdowns", "0:0.05:0.01", "-o", o("duet.arrow"), "--mds-out", o("duet-mds.arrow"),
			"--match-out", o("duet-match.arrow"), "--overlaps-out", o("duet-overlaps.arrow"), o("duet-input.csv")}},
		{"ingest", []string{"ingest", "-o", o("table.csv"), d("jmh-avgt.json"), d("gobench.txt")}},
		{"trim", []string{"trim", "--resamples", "200", "--steady-window", "100", "-o", o("trim-plan.arrow"), "--out-dir", o("trim"),
			d("jmh-avgt.json"), d("gobench.txt"), versions[0], versions[1], o("duet-input.csv")}},
	}
	written := map[string]string{} // output file → command
	for _, r := range runs {
		before := listFiles(t, out)
		if _, errs, err := runCLI(t, append([]string{"--quiet", "--workers", "2"}, r.args...)...); err != nil {
			t.Fatalf("%v: %v\n%s", r.args, err, errs)
		}
		for f := range listFiles(t, out) {
			if _, ok := before[f]; !ok {
				written[f] = r.cmd
			}
		}
	}
	vocab := readVocabulary(t)
	seen := map[string]bool{}
	var files []string
	for f := range written {
		files = append(files, f)
	}
	sort.Strings(files)
	var dump []string
	// levelTypes counts the Arrow types of level columns (instance, trial,
	// fork, iteration, slice) in the canonical table (true) and elsewhere.
	levelTypes := map[bool]map[string]int{true: {}, false: {}}
	for _, f := range files {
		var fields []tabletest.Column
		switch filepath.Ext(f) {
		case ".arrow":
			fields = tabletest.IPCColumns(t, f)
		case ".csv":
			// CSV outputs (the canonical table's .setups.csv sidecar, the
			// frames of trim --out-dir) show names only.
			if strings.HasPrefix(filepath.Base(f), "duet-input") {
				continue
			}
			for _, name := range readCSV(t, f)[0] {
				fields = append(fields, tabletest.Column{Name: name})
			}
		default:
			continue
		}
		rel, _ := filepath.Rel(out, f)
		for _, fl := range fields {
			seen[fl.Name] = true
			typ := "(csv)"
			if fl.Type != "" {
				typ = fl.Type
			}
			dump = append(dump, fmt.Sprintf("%s\t%s\t%s\t%s", fl.Name, typ, written[f], rel))
			if v, ok := vocab[fl.Name]; ok && v.typ == canonicalInt32 && fl.Type != "" {
				levelTypes[written[f] == "ingest"][typ]++
			}
			v, ok := vocab[fl.Name]
			switch {
			case !ok:
				t.Errorf("%s (%s): column %s (%s) is not in the dictionary of docs/outputs.md", rel, written[f], fl.Name, typ)
			case fl.Type != "" && !typeOK(v.typ, typ, written[f]):
				t.Errorf("%s (%s): column %s is %s; the dictionary says %s", rel, written[f], fl.Name, typ, v.typ)
			case !strings.Contains(v.writers, written[f]):
				t.Errorf("%s: column %s is written by %s; the dictionary says %q", rel, fl.Name, written[f], v.writers)
			}
		}
	}
	// One integer type per role: the canonical table's five level columns
	// are int32, every level column of another output int64.
	if c, o := levelTypes[true], levelTypes[false]; c["int32"] != 5 || len(c) != 1 || o["int64"] == 0 || len(o) != 1 {
		t.Errorf("level columns: canonical table %v, other outputs %v; want 5 int32 and only int64", c, o)
	}
	if *dumpColumns {
		sort.Strings(dump)
		fmt.Println(strings.Join(dump, "\n"))
	}
	for name, v := range vocab {
		switch {
		case seen[name]:
		case strings.HasSuffix(v.typ, "(CSV)"):
			// trim --out-dir leaves out the frames without rows.
			t.Logf("docs/outputs.md lists column %s, which these inputs do not produce", name)
		default:
			t.Errorf("docs/outputs.md lists column %s, which no output has", name)
		}
	}
	for name := range seen {
		for suf, want := range badSuffixes {
			if strings.HasSuffix(name, suf) {
				t.Errorf("column %s: the vocabulary ends such names in %s", name, want)
			}
		}
	}
	for _, names := range sameQuantity {
		var both []string
		for _, n := range names {
			if seen[n] {
				both = append(both, n)
			}
		}
		if len(both) > 1 {
			t.Errorf("one quantity, several names: %v", both)
		}
	}
}

// listFiles returns the files below dir.
func listFiles(t *testing.T, dir string) map[string]bool {
	t.Helper()
	out := map[string]bool{}
	filepath.WalkDir(dir, func(p string, e os.DirEntry, err error) error {
		if err == nil && !e.IsDir() {
			out[p] = true
		}
		return nil
	})
	return out
}
