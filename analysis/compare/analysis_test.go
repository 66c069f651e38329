package compare

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/benchtrim/benchtrim/estimate"

	"github.com/benchtrim/benchtrim/format/all"
	"github.com/benchtrim/benchtrim/ingest"
	"github.com/benchtrim/benchtrim/table"
	"github.com/benchtrim/benchtrim/tablefile"
)

// goBench writes go test -bench result lines (ns/op) of the benchmarks
// named in names to a file and reads it labelled project p, version v.
func goBench(t *testing.T, v string, names []string, values map[string][]float64) *table.Table {
	t.Helper()
	var b strings.Builder
	b.WriteString("pkg: example.com/p\n")
	for _, name := range names {
		for _, x := range values[name] {
			b.WriteString(name + "-8\t1000\t" + strconv.FormatFloat(x, 'f', -1, 64) + " ns/op\n")
		}
	}
	path := filepath.Join(t.TempDir(), v+".txt")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	tab, _, _, err := ingest.ReadFiles([]string{path}, ingest.ReadOptions{Formats: all.Formats(), Project: "p", Version: v})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(tab.Release)
	return tab
}

// csvOf is the analysis' data table as CSV.
func csvOf(t *testing.T, a *Report) string {
	t.Helper()
	f, err := a.Frame(FrameResults)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "a.csv")
	if err := f.WriteFile(path); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

var (
	oldValues = map[string][]float64{"BenchmarkA/size=64": {10, 11, 12, 10.5, 11.5}, "BenchmarkA/size=4096": {40, 41, 42, 40.5, 41.5},
		"BenchmarkB": {100, 101, 102, 100.5, 101.5}}
	newValues = map[string][]float64{"BenchmarkA/size=64": {20, 21, 22, 20.5, 21.5}, "BenchmarkA/size=4096": {40.2, 41, 41.9, 40.6, 41.4},
		"BenchmarkB": {100, 101, 102, 100.5, 101.5}}
	allNames = []string{"BenchmarkA/size=64", "BenchmarkA/size=4096", "BenchmarkB"}
)

// TestRun runs the package's entry point in each of its shapes on
// go test output and checks the answers: A/B of two tables (A/size=64
// doubled, the rest unchanged), the description of one, the sides of
// Col /size found in one table, and the A/A test.
func TestRun(t *testing.T) {
	old, nw := goBench(t, "v1", allNames, oldValues), goBench(t, "v2", allNames, newValues)
	opt := testOptions(300)
	opt.Rule = estimate.TestU
	opt.Alpha = 0.05
	opt.Base, opt.Test = Side{Label: "old", Table: old}, Side{Label: "new", Table: nw}
	a, err := Run(old, opt)
	if err != nil {
		t.Fatal(err)
	}
	if len(a.metrics) != 1 || a.described != nil || a.aa != nil || len(a.Rows) != 3 {
		t.Fatalf("A/B: %+v", a)
	}
	for _, r := range a.Rows {
		want := NoChange
		if r.Benchmark == "BenchmarkA" && r.Params == "size=64" {
			want = Slower
		}
		if r.Verdict.Change != want || (want == Slower) != (r.Test.Median == 21 && r.Base.Median == 11) {
			t.Errorf("%s %s: verdict %v, medians %v %v", r.Benchmark, r.Params, r.Verdict, r.Base.Median, r.Test.Median)
		}
	}
	if a.Options.Base.Table != nil || a.Options.Test.Table != nil {
		t.Error("the analysis keeps the tables in its options")
	}

	opt.Base, opt.Test = Side{Label: "old"}, Side{}
	if a, err = Run(old, opt); err != nil || len(a.described) != 1 || len(a.described[0].benchmarks) != 3 ||
		a.described[0].label != "old" || a.described[0].benchmarks[2].median != 101 {
		t.Fatalf("describe: %+v, %v", a, err)
	}

	opt.Base, opt.Col = Side{}, "/size"
	if a, err = Run(old, opt); err != nil || len(a.metrics) != 1 || a.Base != "size=64" || a.Test != "size=4096" ||
		len(a.Rows) != 1 || a.Rows[0].Name != (Name{Benchmark: "BenchmarkA", Mode: "go"}) || len(a.Unmatched) != 0 {
		t.Fatalf("col /size: %+v, %v", a, err)
	}

	opt.Col, opt.AA, opt.Repeats = "", true, 2
	if a, err = Run(old, opt); err != nil || a.aa == nil || len(a.aa.results) != 0 || len(a.aa.skipped) != 3 {
		t.Fatalf("A/A of one-fork runs: %+v, %v", a, err) // go test -count 5 is one fork of 5 iterations
	}
	if a.aa.skipped[0].reason != "1 fork" {
		t.Errorf("skipped: %+v", a.aa.skipped)
	}
}

// TestMergeEqualsWhole: Run on the parts of the input split
// by benchmark name (Options.Part), merged, writes the bytes and the text
// of Run on the whole, for A/B and a description (the A/A test's
// merge: TestChunkedRunsEqualTheWholeRun in cmd/benchtrim); and the checks
// on the whole input are Merge's (a filter that keeps nothing).
func TestMergeEqualsWhole(t *testing.T) {
	parts := [][]string{{"BenchmarkA/size=64", "BenchmarkA/size=4096"}, {"BenchmarkB"}}
	opt := testOptions(200)
	for _, tc := range []struct {
		name string
		set  func(o *Options, base, test *table.Table)
	}{
		{"A/B", func(o *Options, base, test *table.Table) {
			o.Base, o.Test = Side{Label: "old", Table: base}, Side{Label: "new", Table: test}
		}},
		{"describe", func(o *Options, base, _ *table.Table) { o.Base = Side{Label: "old", Table: base} }},
	} {
		t.Run(strings.ReplaceAll(tc.name, "/", ""), func(t *testing.T) {
			w := opt
			tc.set(&w, goBench(t, "v1", allNames, oldValues), goBench(t, "v2", allNames, newValues))
			whole, err := Run(w.Base.Table, w)
			if err != nil {
				t.Fatal(err)
			}
			// The parts as benchtrim compare makes them: the inputs
			// spooled, grouped by name, read a chunk of groups at a time
			// (A/size=4096 and A/size=64, then B).
			var spools []*tablefile.Spool
			wholes := []*table.Table{goBench(t, "v1", allNames, oldValues), goBench(t, "v2", allNames, newValues)}
			for _, whole := range wholes {
				sp, err := tablefile.NewSpool(t.TempDir(), nil)
				if err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { sp.Close() })
				sp.GroupBy(tablefile.NameGroupOf)
				for _, rec := range whole.Records {
					if err := sp.Add(rec); err != nil {
						t.Fatal(err)
					}
				}
				spools = append(spools, sp)
			}
			chunks := tablefile.JointChunks(20, spools...)
			if len(chunks) != len(parts) {
				t.Fatalf("%d chunks, want %d", len(chunks), len(parts))
			}
			var as []*Report
			for _, ch := range chunks {
				p := opt
				p.Part = true
				var tabs []*table.Table
				for j, sp := range spools {
					tab, err := sp.Read(ch[j], wholes[j].Setups)
					if err != nil {
						t.Fatal(err)
					}
					t.Cleanup(tab.Release)
					tabs = append(tabs, tab)
				}
				tc.set(&p, tabs[0], tabs[1])
				a, err := Run(tabs[0], p)
				if err != nil {
					t.Fatal(err)
				}
				as = append(as, a)
			}
			merged, err := Merge(as)
			if err != nil {
				t.Fatal(err)
			}
			if got, want := csvOf(t, merged), csvOf(t, whole); got != want || strings.Count(want, "\n") < 2 {
				t.Errorf("merged:\n%s\nwhole:\n%s", got, want)
			}
			var g, wt bytes.Buffer
			merged.WriteText(&g)
			whole.WriteText(&wt)
			if g.String() != wt.String() {
				t.Errorf("merged text:\n%s\nwhole:\n%s", g.String(), wt.String())
			}
		})
	}
	// A filter that keeps a benchmark of one part only is no error; one
	// that keeps none of any part is, naming the filter.
	for _, expr := range []string{"BenchmarkB", "nothing"} {
		f, err := ParseFilter(expr)
		if err != nil {
			t.Fatal(err)
		}
		var as []*Report
		for _, names := range parts {
			p := opt
			p.Part, p.Filter = true, f
			base := goBench(t, "v1", names, oldValues)
			p.Base, p.Test = Side{Label: "old", Table: base}, Side{Label: "new", Table: goBench(t, "v2", names, newValues)}
			a, err := Run(base, p)
			if err != nil {
				t.Fatalf("%s: part: %v", expr, err)
			}
			as = append(as, a)
		}
		_, err = Merge(as)
		if got := err != nil && strings.Contains(err.Error(), `filter "nothing" matches none of the 3 benchmarks`); got != (expr == "nothing") {
			t.Errorf("filter %s: merge error %v", expr, err)
		}
	}
}

// TestInputs checks how a command line's arguments become sides and the
// files read per table.
func TestInputs(t *testing.T) {
	for _, tc := range []struct {
		name             string
		opt              func(o *Options)
		args, base, test []string
		want             string // files per table, ";" between tables
		baseL, testL     string
		err              string
	}{
		{"OLD NEW", nil, []string{"a.txt", "b.txt"}, nil, nil, "a.txt;b.txt", "a.txt", "b.txt", ""},
		{"FILE", nil, []string{"a.txt"}, nil, nil, "a.txt", "a.txt", "", ""},
		{"files", nil, nil, []string{"a", "b", "c", "d"}, []string{"e"}, "a,b,c,d;e", "a, b, c and 1 more files", "e", ""},
		{"labels", func(o *Options) { o.Base.Select.Version, o.Test.Select.Version = "v1", "v2" }, []string{"a", "b"}, nil, nil, "a,b", "version v1", "version v2", ""},
		{"one label", func(o *Options) { o.Base.Select.Version = "v1" }, []string{"a", "b"}, nil, nil, "", "", "", "a selector for each side"},
		{"aa", func(o *Options) { o.AA = true }, []string{"a", "b", "c"}, nil, nil, "a,b,c", "", "", ""},
		{"aa with base", func(o *Options) { o.AA = true }, nil, []string{"a"}, []string{"b"}, "", "", "", "--aa takes the files"},
		{"col", func(o *Options) { o.Col = colConfig }, []string{"a", "b"}, nil, nil, "a,b", "", "", ""},
		{"col with base", func(o *Options) { o.Col = "/size" }, nil, []string{"a"}, []string{"b"}, "", "", "", "--col /size takes FILES"},
		{"base alone", nil, nil, []string{"a"}, nil, "", "", "", "--base and --test must both be given"},
		{"three", nil, []string{"a", "b", "c"}, nil, nil, "", "", "", "name the two result sets"},
	} {
		o := DefaultOptions
		if tc.opt != nil {
			tc.opt(&o)
		}
		files, err := Inputs(&o, tc.args, tc.base, tc.test)
		var parts []string
		for _, f := range files {
			parts = append(parts, strings.Join(f, ","))
		}
		if got := strings.Join(parts, ";"); tc.err == "" && (err != nil || got != tc.want || o.Base.Label != tc.baseL || o.Test.Label != tc.testL) ||
			tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)) {
			t.Errorf("%s: files %q labels %q %q err %v", tc.name, got, o.Base.Label, o.Test.Label, err)
		}
	}
}
