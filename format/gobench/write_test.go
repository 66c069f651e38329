package gobench_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/benchtrim/benchtrim/format"
	"github.com/benchtrim/benchtrim/format/gobench"
	"github.com/benchtrim/benchtrim/format/internal/formattest"
	"github.com/benchtrim/benchtrim/ingest"
	"github.com/benchtrim/benchtrim/ingest/ingesttest"
	"github.com/benchtrim/benchtrim/internal/testenv"
	"github.com/benchtrim/benchtrim/table"
)

// TestWriteRealUOpTime converts the real µOpTime CSVs to go test -bench
// text (each iteration one result line, its one-second slices merged: N =
// Σ n, ns/op the n-weighted mean) and reads them back: every iteration
// returns with that N and ns/op.
func TestWriteRealUOpTime(t *testing.T) {
	dir := testenv.Shared(t, "data", "uoptime-go")
	files, _ := filepath.Glob(filepath.Join(dir, "*.csv"))
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			tab := formattest.ReadFiles(t, f)
			var buf bytes.Buffer
			if err := writeGoBench(&buf, tab); err != nil {
				t.Fatal(err)
			}
			out := filepath.Join(t.TempDir(), strings.TrimSuffix(filepath.Base(f), ".csv")+".txt")
			os.WriteFile(out, buf.Bytes(), 0o644)
			back := formattest.ReadFiles(t, out)
			formattest.SameObs(t, "gobench", formattest.IterationObs(tab, false), formattest.Observations(back, false), 1e-12)
			// 3 instances × 3 suite runs become 9 runs of the test binary: forks 1..9.
			for _, s := range back.Collect(table.Filter{}) {
				if got := s.Sizes()[table.LevelFork]; got != 9 {
					t.Fatalf("%s: %d forks, want 9", s.Benchmark, got)
				}
			}
		})
	}
}

// TestWriteGeneratedFiles writes a generated JMH sample-mode file and a
// ragged µOpTime file as Go benchmark text: the JMH benchmarks are written
// as BenchmarkClass/method/mode=sample after a "pkg:" line of their
// package, and every µOpTime iteration reads back as one line with Σ n and
// the n-weighted mean ns/op.
func TestWriteGeneratedFiles(t *testing.T) {
	tab := formattest.ReadFiles(t, filepath.Join("..", "..", "testdata", "jmh", "small_sample.json"), filepath.Join("..", "..", "testdata", "uoptime", "small_ragged.csv"))
	var buf bytes.Buffer
	if err := writeGoBench(&buf, tab); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), "pkg: org.example") || !strings.Contains(buf.String(), "/mode=sample") {
		t.Errorf("JMH benchmarks not written under Go names:\n%.600s", buf.String())
	}
	path := filepath.Join(t.TempDir(), "x.txt")
	os.WriteFile(path, buf.Bytes(), 0o644)
	back := formattest.ReadFiles(t, path)
	var goOnly []formattest.Obs
	for _, o := range formattest.IterationObs(tab, false) {
		if strings.HasPrefix(o.Key, "Benchmark") {
			goOnly = append(goOnly, o)
		}
	}
	if len(goOnly) == 0 {
		t.Fatal("no Go benchmark iterations in the input")
	}
	var backGo []formattest.Obs
	for _, o := range formattest.Observations(back, false) {
		if !strings.Contains(o.Key, "mode=sample") {
			backGo = append(backGo, o)
		}
	}
	formattest.SameObs(t, "gobench", goOnly, backGo, 1e-12)
}

// TestHostileNames writes Go benchmark names with non-ASCII letters,
// ';' and '"', a part that looks like a GOMAXPROCS suffix, a positional
// part k=v next to a parameter k, params with '=', '%' and ',' in values,
// a recorded GOMAXPROCS and the same name in two packages: format/gobench
// reads every row back unchanged, in the default and the labelled form.
// Names go test could not print are a *format.NameError naming the benchmark.
func TestHostileNames(t *testing.T) {
	ok := []formattest.Run{
		{Bench: "BenchmarkÜber/ünï"},
		{Bench: `BenchmarkSemi;colon"quote`},
		{Bench: "BenchmarkX/n-8"},
		{Bench: "BenchmarkProcs", Procs: "8"},
		{Bench: "BenchmarkK/k=2", Params: formattest.Params("k", "1")},
		{Bench: "BenchmarkP", Params: formattest.Params("v", "a=b", "pct", "50%", "c", "x,y")},
		{Bench: "example.com/a.BenchmarkDup"},
		{Bench: "example.com/b.BenchmarkDup"},
		{Bench: "Benchmark"},
		// Names go test runs and benchfmt reads although the rune after
		// "Benchmark" is not upper case (benchfmt reads even lower case).
		{Bench: "Benchmark_Parse"}, {Bench: "Benchmark1KB"}, {Bench: "Benchmark日本語"}, {Bench: "Benchmarklower"},
	}
	for i := range ok {
		ok[i].Project, ok[i].Version, ok[i].Mode = "p", "v1", "go"
	}
	// A name that is neither a Go benchmark nor a JMH result (JMH results are
	// written under Go names: TestWriteGeneratedFiles) is skipped.
	tab := formattest.BuildRuns(t, append(ok, formattest.Run{Project: "p", Version: "v1", Bench: "org.ex.Jmh", Mode: "go"}))
	for _, labels := range []bool{false, true} {
		t.Run(fmt.Sprintf("labels=%v", labels), func(t *testing.T) {
			var buf bytes.Buffer
			skipped, err := gobench.WriteWith(&buf, tab, gobench.WriteOptions{Labels: labels})
			if err != nil {
				t.Fatal(err)
			}
			if len(resultLines(t, buf.Bytes())) != 4*len(ok) || len(skipped) != 1 || skipped[0].Benchmark != "org.ex.Jmh" {
				t.Errorf("%d result lines, skipped %v; want %d lines (%d runs), org.ex.Jmh skipped", len(resultLines(t, buf.Bytes())), skipped, 4*len(ok), len(ok))
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
			back, rep, err := ingesttest.Read(t, gobench.Format(), bytes.NewReader(buf.Bytes()), src)
			if err != nil || !rep.Empty() {
				t.Fatalf("reading back: %v\n%s\n%s", err, ingesttest.ReportText(rep), buf.String())
			}
			// Without labels the two instances are two runs (forks), so only
			// the labelled form keeps the levels.
			var want []string
			for _, l := range formattest.RowList(tab, "", labels) {
				if !strings.Contains(l, "Jmh") {
					want = append(want, l)
				}
			}
			formattest.SameRowLists(t, "gobench", want, formattest.RowList(back, "", labels))
			if testing.Verbose() {
				t.Logf("text:\n%s", buf.String())
			}
			if s := back.Setup(table.Key{Version: "v1", Benchmark: "BenchmarkProcs", Mode: "go"}); s == nil || s.Env["gomaxprocs"] != "8" {
				t.Errorf("GOMAXPROCS not read back: %+v", s)
			}
		})
	}

	for _, tc := range []struct {
		r          formattest.Run
		field, why string
	}{
		{formattest.Run{Bench: "Benchmark Space"}, "benchmark", "white space"},
		{formattest.Run{Bench: "BenchmarkTab\tx"}, "benchmark", "white space"},
		{formattest.Run{Bench: "BenchmarkNL\nx"}, "benchmark", "white space"},
		{formattest.Run{Bench: "BenchmarkNBSP\u00a0x"}, "benchmark", "white space"},
		{formattest.Run{Bench: "BenchmarkCtl\x01x"}, "benchmark", "non-printable"},
		{formattest.Run{Bench: "BenchmarkBad\xff"}, "benchmark", "not valid UTF-8"},
		{formattest.Run{Bench: "BenchmarkPos/k=v"}, "benchmark", `the part "k=v"`},
		{formattest.Run{Bench: "BenchmarkV", Params: formattest.Params("v", "a/b")}, "params", "holds '/'"},
		{formattest.Run{Bench: "BenchmarkV", Params: formattest.Params("v", "a b")}, "params", "white space"},
		{formattest.Run{Bench: "BenchmarkV", Params: formattest.Params("k/x", "1")}, "params", `key "k/x"`},
	} {
		tc.r.Mode, tc.r.Project = "go", "p"
		_, err := gobench.WriteWith(&bytes.Buffer{}, formattest.BuildRuns(t, []formattest.Run{tc.r}), gobench.WriteOptions{})
		var ne *format.NameError
		if !errors.As(err, &ne) || ne.Field != tc.field || ne.Key.Benchmark != tc.r.Bench || !strings.Contains(err.Error(), tc.why) {
			t.Errorf("%q: err %v, want a NameError for %s mentioning %q", tc.r.Bench, err, tc.field, tc.why)
		}
	}
	var jmh bytes.Buffer
	if err := writeGoBench(&jmh, formattest.BuildRuns(t, []formattest.Run{{Bench: "org.ex.jmh.method", Mode: "thrpt"}})); err != nil ||
		!strings.HasPrefix(jmh.String(), "pkg: org.ex\nBenchmarkjmh/method/mode=thrpt\t") {
		t.Errorf("JMH only: err %v, text %q; want pkg: org.ex and Benchmarkjmh/method/mode=thrpt", err, jmh.String())
	}
	if err := writeGoBench(&bytes.Buffer{}, formattest.BuildRuns(t, []formattest.Run{{Bench: "org.ex.NotGo", Mode: "go"}})); !errors.Is(err, gobench.ErrNoGoBenchmarks) {
		t.Errorf("neither Go nor JMH: err %v, want gobench.ErrNoGoBenchmarks", err)
	}
}

// writeGoBench writes t as Go benchmark text with the default options.
func writeGoBench(w io.Writer, t *table.Table) error {
	_, err := gobench.WriteWith(w, t, gobench.WriteOptions{})
	return err
}
