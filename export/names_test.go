package export

import (
	"bytes"
	"errors"
	"fmt"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/apache/arrow/go/v15/arrow/memory"

	"github.com/benchtrim/benchtrim/format/gobench"
	"github.com/benchtrim/benchtrim/format/pa"
	"github.com/benchtrim/benchtrim/ingest"
	"github.com/benchtrim/benchtrim/ingest/ingesttest"
	"github.com/benchtrim/benchtrim/table"
)

// run describes one benchmark run of a hand-made table: two instances ×
// two iterations, values 10, 11, 20, 21 (× scale).
type run struct {
	project, version, bench, params, mode string
	procs                                 string // Setup.Env["gomaxprocs"]
}

func (r run) key() table.Key {
	return table.Key{Project: r.project, Version: r.version, Benchmark: r.bench, Params: r.params, Mode: r.mode}
}

// buildRuns builds a table of the runs (params given as maps, made canonical).
func buildRuns(t *testing.T, runs []run) *table.Table {
	t.Helper()
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	b := table.NewBuilder(mem, 7)
	defer b.Release()
	for _, r := range runs {
		unit := "ns/op"
		if r.mode != "go" {
			unit = "us/op"
		}
		for inst := int32(1); inst <= 2; inst++ {
			for it := int32(1); it <= 2; it++ {
				v := float64(10*inst+it-1) + 0.25
				ns := v
				if unit == "us/op" {
					ns = v * 1000
				}
				b.Append(&table.Row{Project: r.project, Version: r.version, Benchmark: r.bench, Params: r.params, Mode: r.mode,
					Metric: table.Primary, Unit: unit, Value: v, NsPerOp: ns, Count: int64(100 * inst),
					Instance: inst, Trial: 1, Fork: 1, Iteration: it, Slice: 1})
			}
		}
		if r.procs != "" {
			if err := b.AddSetup(table.Setup{Key: r.key(), Tool: "go", Env: map[string]string{"gomaxprocs": r.procs}}); err != nil {
				t.Fatal(err)
			}
		}
	}
	tab := b.Finish()
	t.Cleanup(func() { tab.Release(); mem.AssertSize(t, 0) })
	return tab
}

func params(kv ...string) string {
	m := map[string]string{}
	for i := 0; i < len(kv); i += 2 {
		m[kv[i]] = kv[i+1]
	}
	return table.CanonicalParams(m)
}

// rowList lists the primary rows as comparable strings: key, the levels
// when withLevels, count and value.
func rowList(tab *table.Table, withLevels bool) []string {
	var out []string
	for _, s := range table.Collect(tab, table.Filter{}) {
		for i := 0; i < s.Len(); i++ {
			lv := ""
			if withLevels {
				lv = fmt.Sprintf(" i%d t%d f%d it%d", s.Levels[table.LevelInstance][i], s.Levels[table.LevelTrial][i],
					s.Levels[table.LevelFork][i], s.Levels[table.LevelIteration][i])
			}
			out = append(out, fmt.Sprintf("%q %q %q %q%s n=%d v=%v", s.Benchmark, s.Params, s.Mode, s.Version, lv, s.Count[i], s.Value[i]))
		}
	}
	sort.Strings(out)
	return out
}

func sameRowLists(t *testing.T, what string, want, got []string) {
	t.Helper()
	if !reflect.DeepEqual(want, got) {
		t.Errorf("%s: rows after the round trip differ\nwant %d:\n  %s\ngot %d:\n  %s", what, len(want), strings.Join(want, "\n  "), len(got), strings.Join(got, "\n  "))
	}
}

// TestPAHostileNames writes labels holding ';', '"', non-ASCII letters and
// params with ',', '%' and '=' in values: the pa reader reads every row back
// unchanged. Labels it could not read back (control characters, which the
// readers escape, invalid UTF-8, …) are a *NameError naming the benchmark.
func TestPAHostileNames(t *testing.T) {
	ok := []run{
		{project: "my;proj", version: `v1"x`, bench: "org.ex.B;semi", mode: "avgt"},
		{project: "p", version: "v1", bench: `org.ex.B"quote`, mode: "avgt"},
		{project: "p", version: "v1", bench: "org.ex.Bünï, comma", mode: "avgt", params: params("k", "a,b", "pct", "50%", "eq", "x=y")},
		{project: "p", version: "v1", bench: "org.ex.P", mode: "avgt", params: params("k;", `v"q`, "s", "a b", "n", "1,2,3")},
	}
	tab := buildRuns(t, ok)
	var buf bytes.Buffer
	if err := WritePA(&buf, tab); err != nil {
		t.Fatal(err)
	}
	back, rep, err := ingesttest.Read(t, pa.Format{}, bytes.NewReader(buf.Bytes()), ingest.Source{File: "x.csv"})
	if err != nil || !rep.Empty() {
		t.Fatalf("reading back: %v\n%s\n%s", err, ingesttest.ReportText(rep), buf.String())
	}
	sameRowLists(t, "pa", rowList(tab, true), rowList(back, true))

	for _, tc := range []struct {
		r          run
		field, why string
	}{
		{run{bench: "org.ex.B\r\nx"}, "benchmark", "carriage return"},
		{run{bench: "org.ex.B\nnewline"}, "benchmark", "control character"},
		{run{bench: "org.ex.B\ttab\x00nul"}, "benchmark", "control character"},
		{run{bench: "org.ex.\xff"}, "benchmark", "not valid UTF-8"},
		{run{bench: " org.ex.Lead"}, "benchmark", "white space"},
		{run{bench: "org.ex.B", version: "v1 "}, "version", "white space"},
		{run{bench: "org.ex.B", params: params("k", "a,b=c")}, "params", `holds ',' followed by "b=c"`},
		{run{bench: "org.ex.B", params: params("a,b", "1")}, "params", `key "a,b"`},
		{run{bench: "org.ex.B", params: params("k", "v ")}, "params", "white space"},
		{run{bench: ""}, "benchmark", "is empty"},
	} {
		tc.r.mode, tc.r.project = "avgt", "p"
		err := WritePA(&bytes.Buffer{}, buildRuns(t, []run{tc.r}))
		var ne *NameError
		if !errors.As(err, &ne) || ne.Field != tc.field || !strings.Contains(err.Error(), tc.why) || !strings.Contains(err.Error(), fmt.Sprintf("%q", tc.r.bench)[1:len(fmt.Sprintf("%q", tc.r.bench))-1]) {
			t.Errorf("%q: err %v, want a NameError for %s mentioning %q and the name", tc.r.bench, err, tc.field, tc.why)
		}
	}
}

// TestGoBenchHostileNames writes Go benchmark names with non-ASCII letters,
// ';' and '"', a part that looks like a GOMAXPROCS suffix, a positional
// part k=v next to a parameter k, params with '=', '%' and ',' in values,
// a recorded GOMAXPROCS and the same name in two packages: format/gobench
// reads every row back unchanged, in the default and the labelled form.
// Names go test could not print are a *NameError naming the benchmark.
func TestGoBenchHostileNames(t *testing.T) {
	ok := []run{
		{bench: "BenchmarkÜber/ünï"},
		{bench: `BenchmarkSemi;colon"quote`},
		{bench: "BenchmarkX/n-8"},
		{bench: "BenchmarkProcs", procs: "8"},
		{bench: "BenchmarkK/k=2", params: params("k", "1")},
		{bench: "BenchmarkP", params: params("v", "a=b", "pct", "50%", "c", "x,y")},
		{bench: "example.com/a.BenchmarkDup"},
		{bench: "example.com/b.BenchmarkDup"},
		{bench: "Benchmark"},
	}
	for i := range ok {
		ok[i].project, ok[i].version, ok[i].mode = "p", "v1", "go"
	}
	tab := buildRuns(t, append(ok, run{project: "p", version: "v1", bench: "org.ex.Jmh", mode: "avgt"}))
	for _, labels := range []bool{false, true} {
		t.Run(fmt.Sprintf("labels=%v", labels), func(t *testing.T) {
			var buf bytes.Buffer
			sum, err := WriteGoBenchWith(&buf, tab, GoBenchOptions{Labels: labels})
			if err != nil {
				t.Fatal(err)
			}
			if sum.Benchmarks != len(ok) || sum.Lines != 4*len(ok) || len(sum.Skipped) != 1 || sum.Skipped[0].Benchmark != "org.ex.Jmh" {
				t.Errorf("summary %+v", sum)
			}
			for _, want := range []string{"\nBenchmarkX/n-8-1\t100\t", "\nBenchmarkProcs-8\t", "\nBenchmarkK/k=1/k=2\t", "\nBenchmarkP/c=x,y/pct=50%/v=a=b\t", "\npkg: example.com/b\nBenchmarkDup\t"} {
				if !strings.Contains(buf.String(), want) {
					t.Errorf("text lacks %q:\n%s", want, buf.String())
				}
			}
			src := ingest.Source{File: "x.txt", Version: "v1", Instance: 1, Trial: 1}
			if labels {
				src.Version = ""
			}
			back, rep, err := ingesttest.Read(t, gobench.Format{}, bytes.NewReader(buf.Bytes()), src)
			if err != nil || !rep.Empty() {
				t.Fatalf("reading back: %v\n%s\n%s", err, ingesttest.ReportText(rep), buf.String())
			}
			// Without labels the two instances are two runs (forks), so only
			// the labelled form keeps the levels.
			var want []string
			for _, l := range rowList(tab, labels) {
				if !strings.Contains(l, "Jmh") {
					want = append(want, l)
				}
			}
			sameRowLists(t, "gobench", want, rowList(back, labels))
			if testing.Verbose() {
				t.Logf("text:\n%s", buf.String())
			}
			if s := back.Setup(table.Key{Version: "v1", Benchmark: "BenchmarkProcs", Mode: "go"}); s == nil || s.Env["gomaxprocs"] != "8" {
				t.Errorf("GOMAXPROCS not read back: %+v", s)
			}
		})
	}

	for _, tc := range []struct {
		r          run
		field, why string
	}{
		{run{bench: "Benchmark Space"}, "benchmark", "white space"},
		{run{bench: "BenchmarkTab\tx"}, "benchmark", "white space"},
		{run{bench: "BenchmarkNL\nx"}, "benchmark", "white space"},
		{run{bench: "BenchmarkNBSP\u00a0x"}, "benchmark", "white space"},
		{run{bench: "BenchmarkCtl\x01x"}, "benchmark", "non-printable"},
		{run{bench: "BenchmarkBad\xff"}, "benchmark", "not valid UTF-8"},
		{run{bench: "Benchmarklower"}, "benchmark", "no upper-case letter after Benchmark"},
		{run{bench: "BenchmarkPos/k=v"}, "benchmark", `the part "k=v"`},
		{run{bench: "BenchmarkV", params: params("v", "a/b")}, "params", "holds '/'"},
		{run{bench: "BenchmarkV", params: params("v", "a b")}, "params", "white space"},
		{run{bench: "BenchmarkV", params: params("k/x", "1")}, "params", `key "k/x"`},
	} {
		tc.r.mode, tc.r.project = "go", "p"
		_, err := WriteGoBenchWith(&bytes.Buffer{}, buildRuns(t, []run{tc.r}), GoBenchOptions{})
		var ne *NameError
		if !errors.As(err, &ne) || ne.Field != tc.field || ne.Key.Benchmark != tc.r.bench || !strings.Contains(err.Error(), tc.why) {
			t.Errorf("%q: err %v, want a NameError for %s mentioning %q", tc.r.bench, err, tc.field, tc.why)
		}
	}
	if err := WriteGoBench(&bytes.Buffer{}, buildRuns(t, []run{{bench: "org.ex.Jmh", mode: "avgt"}})); !errors.Is(err, ErrNoGoBenchmarks) {
		t.Errorf("JMH only: err %v, want ErrNoGoBenchmarks", err)
	}
}
