package gobench

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/benchtrim/benchtrim/ingest"
	"github.com/benchtrim/benchtrim/table"
)

// TestInvalidNames checks that control characters in benchmark names,
// units and configuration values, and invalid UTF-8 in -json events, are
// cleaned (escaped, U+FFFD) and warned about once per name, so the table's
// names stay valid and on one line.
func TestInvalidNames(t *testing.T) {
	const text = "pkg: ex\x1bmple\n" + // line 1
		"commit: abc\x7f\n" + // line 2
		"BenchmarkCtl\x01-8 100 5 ns/op 3 x\x02/op\n" + // line 3
		"BenchmarkCtl\x01-8 100 6 ns/op 4 x\x02/op\n" // line 4: the same names again
	tab, rep, err := readFrom(t, strings.NewReader(text), ingest.Source{File: "ctl.txt"})
	if err != nil {
		t.Fatal(err)
	}
	rows := rowsOf(t, tab)
	if len(rows) != 4 {
		t.Fatalf("%d rows, want 4", len(rows))
	}
	for _, r := range rows {
		for _, s := range []string{r.Version, r.Benchmark, r.Params, r.Metric, r.Unit} {
			if !utf8.ValidString(s) || strings.ContainsAny(s, "\x01\x02\x1b\x7f") {
				t.Errorf("row %+v: %q is not a clean name", r, s)
			}
		}
	}
	if r := rows[0]; r.Benchmark != `BenchmarkCtl\x01` || r.Version != `abc\x7f` || rows[1].Metric != `x\x02/op` {
		t.Errorf("rows %+v", rows[:2])
	}
	if s := tab.Setups[0]; s.Env["pkg"] != `ex\x1bmple` || s.Env["gomaxprocs"] != "8" {
		t.Errorf("setup env %v", s.Env)
	}
	if n := rep.Count(ingest.KindControlName); n != 4 {
		t.Errorf("control character warnings %d, want 4 (pkg, commit, benchmark, unit):\n%s", n, reportText(rep))
	}
	if ex := examples(rep, ingest.KindControlName); !strings.Contains(ex, `ctl.txt:3: benchmark "BenchmarkCtl\x01-8" holds control characters; stored as "BenchmarkCtl\\x01-8"`) {
		t.Errorf("examples:\n%s", ex)
	}

	// -json: encoding/json reads invalid UTF-8 as U+FFFD; the event is reported.
	const stream = "{\"Action\":\"output\",\"Package\":\"p\",\"Output\":\"BenchmarkU\xff-4 10 7 ns/op\\n\"}\n"
	tab, rep, err = readFrom(t, strings.NewReader(stream), ingest.Source{File: "u.json"})
	if err != nil {
		t.Fatal(err)
	}
	rows = rowsOf(t, tab)
	if len(rows) != 1 || rows[0].Benchmark != "BenchmarkU\uFFFD" || rep.Count(kindInvalidUTF8JSON) != 1 {
		t.Errorf("rows %+v\n%s", rows, reportText(rep))
	}
}

// TestZeroProcsSuffix: GOMAXPROCS is at least 1 and testing prints no
// suffix for 1, so a trailing "-0" is part of the sub-benchmark's name.
func TestZeroProcsSuffix(t *testing.T) {
	tab, _, err := readFrom(t, strings.NewReader("BenchmarkOff/offset-0 100 5 ns/op\nBenchmarkOff/offset-0-8 100 6 ns/op\n"), ingest.Source{File: "z.txt"})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range rowsOf(t, tab) {
		got = append(got, r.Benchmark+" "+r.Params)
	}
	want := []string{"BenchmarkOff/offset-0 gomaxprocs=1", "BenchmarkOff/offset-0 gomaxprocs=8"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("rows %q, want %q", got, want)
	}
	if s := findSetup(tab, "BenchmarkOff/offset-0", "gomaxprocs=1"); s == nil || s.Env["gomaxprocs"] != "" {
		t.Errorf("setup of the unsuffixed line %+v: want no gomaxprocs (not stated)", s)
	}
}

func findSetup(tab *table.Table, bench, params string) *table.Setup {
	for i := range tab.Setups {
		if s := &tab.Setups[i]; s.Benchmark == bench && s.Params == params {
			return s
		}
	}
	return nil
}
