package pa_test

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/benchtrim/benchtrim/format"
	"github.com/benchtrim/benchtrim/format/internal/formattest"
	"github.com/benchtrim/benchtrim/format/pa"
	"github.com/benchtrim/benchtrim/ingest"
	"github.com/benchtrim/benchtrim/ingest/ingesttest"
	"github.com/benchtrim/benchtrim/internal/testenv"
	"github.com/benchtrim/benchtrim/table"
)

// TestWriteRealJMH converts the real JMH files to pa CSV, as bencher
// does, and reads them back with the pa reader: every primary row returns
// with its levels, count and value.
func TestWriteRealJMH(t *testing.T) {
	dir := testenv.Shared(t, "data", "jmh")
	files, _ := filepath.Glob(filepath.Join(dir, "*.json"))
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			tab := formattest.ReadFiles(t, f)
			var buf bytes.Buffer
			if err := pa.Write(&buf, tab); err != nil {
				if strings.Contains(err.Error(), "pa cannot read") {
					testenv.Skip(t, "%v", err)
				}
				t.Fatal(err)
			}
			out := filepath.Join(t.TempDir(), "x.csv")
			os.WriteFile(out, buf.Bytes(), 0o644)
			back := formattest.ReadFiles(t, out)
			want := formattest.Observations(tab, true)
			if len(want) == 0 {
				t.Fatal("no rows")
			}
			// pa has no thread count: throughput runs with threads > 1 normalise differently.
			if s := tab.Setups; len(s) > 0 && s[0].Threads > 1 && s[0].Mode == "thrpt" {
				testenv.Skip(t, "throughput with threads > 1: pa does not record threads")
			}
			formattest.SameObs(t, "pa", want, formattest.Observations(back, true), 1e-12)
		})
	}
}

// TestWriteGeneratedFiles writes a generated JMH sample-mode file and a
// ragged µOpTime file as pa CSV and reads it back: the JMH rows return
// unchanged; the µOpTime slices return as one row per iteration holding
// Σ n and the n-weighted mean, so the total time Σ n·ns/op is unchanged.
func TestWriteGeneratedFiles(t *testing.T) {
	tab := formattest.ReadFiles(t, filepath.Join("..", "..", "testdata", "jmh", "small_sample.json"), filepath.Join("..", "..", "testdata", "uoptime", "small_ragged.csv"))
	var buf bytes.Buffer
	if err := pa.Write(&buf, tab); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(buf.String(), pa.Header+"\n") {
		t.Fatalf("pa header: %q", buf.String()[:80])
	}
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "x.csv"), buf.Bytes(), 0o644)
	back := formattest.ReadFiles(t, filepath.Join(dir, "x.csv"))
	var jmhOnly []formattest.Obs
	for _, o := range formattest.Observations(tab, true) {
		if !strings.HasPrefix(o.Key, "Benchmark") {
			jmhOnly = append(jmhOnly, o)
		}
	}
	var backJMH, backGo []formattest.Obs
	for _, o := range formattest.Observations(back, true) {
		if strings.HasPrefix(o.Key, "Benchmark") {
			backGo = append(backGo, o)
		} else {
			backJMH = append(backJMH, o)
		}
	}
	formattest.SameObs(t, "pa", jmhOnly, backJMH, 1e-12)
	var iterations int
	var timeBefore, timeAfter float64
	for _, s := range tab.Collect(table.Filter{}) {
		if strings.HasPrefix(s.Benchmark, "Benchmark") {
			iterations += len(s.Units(table.LevelIteration))
			for i := range s.NsPerOp {
				timeBefore += s.NsPerOp[i] * float64(s.Count[i])
			}
		}
	}
	for _, o := range backGo {
		timeAfter += o.Ns * float64(o.Count)
	}
	if len(backGo) != iterations || (timeAfter-timeBefore) > 1e-9*timeBefore || (timeBefore-timeAfter) > 1e-9*timeBefore {
		t.Errorf("µOpTime via pa: %d rows (want %d iterations), total time %v (want %v)", len(backGo), iterations, timeAfter, timeBefore)
	}
}

// TestHostileNames writes labels holding ';', '"', non-ASCII letters and
// params with ',', '%' and '=' in values: the pa reader reads every row back
// unchanged. Labels it could not read back (control characters, which the
// readers escape, invalid UTF-8, …) are a *format.NameError naming the
// benchmark.
func TestHostileNames(t *testing.T) {
	params := formattest.Params
	ok := []formattest.Run{
		{Project: "my;proj", Version: `v1"x`, Bench: "org.ex.B;semi", Mode: "avgt"},
		{Project: "p", Version: "v1", Bench: `org.ex.B"quote`, Mode: "avgt"},
		{Project: "p", Version: "v1", Bench: "org.ex.Bünï, comma", Mode: "avgt", Params: params("k", "a,b", "pct", "50%", "eq", "x=y")},
		{Project: "p", Version: "v1", Bench: "org.ex.P", Mode: "avgt", Params: params("k;", `v"q`, "s", "a b", "n", "1,2,3")},
	}
	tab := formattest.BuildRuns(t, ok)
	var buf bytes.Buffer
	if err := pa.Write(&buf, tab); err != nil {
		t.Fatal(err)
	}
	back, rep, err := ingesttest.Read(t, pa.Format(), bytes.NewReader(buf.Bytes()), ingest.Source{File: "x.csv"})
	if err != nil || !rep.Empty() {
		t.Fatalf("reading back: %v\n%s\n%s", err, ingesttest.ReportText(rep), buf.String())
	}
	formattest.SameRowLists(t, "pa", formattest.RowList(tab, "", true), formattest.RowList(back, "", true))

	for _, tc := range []struct {
		r          formattest.Run
		field, why string
	}{
		{formattest.Run{Bench: "org.ex.B\r\nx"}, "benchmark", "carriage return"},
		{formattest.Run{Bench: "org.ex.B\nnewline"}, "benchmark", "control character"},
		{formattest.Run{Bench: "org.ex.B\ttab\x00nul"}, "benchmark", "control character"},
		{formattest.Run{Bench: "org.ex.\xff"}, "benchmark", "not valid UTF-8"},
		{formattest.Run{Bench: " org.ex.Lead"}, "benchmark", "white space"},
		{formattest.Run{Bench: "org.ex.B", Version: "v1 "}, "version", "white space"},
		{formattest.Run{Bench: "org.ex.B", Params: params("k", "a,b=c")}, "params", `holds ',' followed by "b=c"`},
		{formattest.Run{Bench: "org.ex.B", Params: params("a,b", "1")}, "params", `key "a,b"`},
		{formattest.Run{Bench: "org.ex.B", Params: params("k", "v ")}, "params", "white space"},
		{formattest.Run{Bench: ""}, "benchmark", "is empty"},
	} {
		tc.r.Mode, tc.r.Project = "avgt", "p"
		err := pa.Write(&bytes.Buffer{}, formattest.BuildRuns(t, []formattest.Run{tc.r}))
		var ne *format.NameError
		quoted := fmt.Sprintf("%q", tc.r.Bench)
		if !errors.As(err, &ne) || ne.Field != tc.field || !strings.Contains(err.Error(), tc.why) || !strings.Contains(err.Error(), quoted[1:len(quoted)-1]) {
			t.Errorf("%q: err %v, want a NameError for %s mentioning %q and the name", tc.r.Bench, err, tc.field, tc.why)
		}
	}
}
