package jmh

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/benchtrim/benchtrim/ingest"
	"github.com/benchtrim/benchtrim/ingest/ingesttest"
	"github.com/benchtrim/benchtrim/table"
)

// invalidDoc has one record per line (record i on line i+2), each with
// one value JMH never writes.
const invalidDoc = "[\n" +
	`{"benchmark":"b.B.bogus","mode":"bogus","primaryMetric":{"scoreUnit":"ns/op","rawData":[[1,2]]}},` + "\n" +
	`{"benchmark":"b.B.t0","mode":"thrpt","threads":0,"forks":1,"primaryMetric":{"scoreUnit":"ops/s","rawData":[[4]]}},` + "\n" +
	`{"benchmark":"b.B.neg","mode":"thrpt","threads":-2,"forks":-5,"measurementIterations":-1,"primaryMetric":{"scoreUnit":"ops/s","rawData":[[4]]}},` + "\n" +
	"{\"benchmark\":\"b.B.\xff\xfeutf\",\"mode\":\"avgt\",\"params\":{\"k\xc3\":\"v\xe2\x82\"},\"primaryMetric\":{\"scoreUnit\":\"ns/op\",\"rawData\":[[3]]}},\n" +
	`{"benchmark":"b.B.new\nline","mode":"avgt","params":{"p":"a\u001bb"},"primaryMetric":{"scoreUnit":"ns/op","rawData":[[5]]},"secondaryMetrics":{"gc\tx":{"scoreUnit":"B\r/op","rawData":[[7]]}}},` + "\n" +
	`{"benchmark":"b.B.long","mode":"AverageTime","forks":0,"primaryMetric":{"scoreUnit":"ns/op","rawData":[[6]]}}` + "\n" +
	"]\n"

// TestInvalidValues checks what Read does with values no JMH run writes:
// an unknown mode skips its record; threads < 1, forks < 0 and negative
// iteration counts are warned about and become unknown; invalid UTF-8 and
// control characters in names are replaced and escaped with a warning, so
// the table holds only valid, single-line names.
func TestInvalidValues(t *testing.T) {
	res := read(t, "inv.json", strings.NewReader(invalidDoc))
	if res.err != nil {
		t.Fatal(res.err)
	}
	byBench := map[string][]table.Row{}
	for _, r := range res.rows {
		byBench[r.Benchmark] = append(byBench[r.Benchmark], r)
		for _, s := range []string{r.Benchmark, r.Params, r.Mode, r.Metric, r.Unit} {
			if !utf8.ValidString(s) || strings.ContainsAny(s, "\n\r\t\x1b") {
				t.Errorf("row %s: text %q is not a clean name", r.Benchmark, s)
			}
		}
	}
	if _, ok := byBench["b.B.bogus"]; ok {
		t.Error("record with mode bogus was kept")
	}
	if got := res.rep.Count(ingest.KindUnknownMode); got != 2 {
		t.Errorf("unknown mode: %d rows skipped, want the record's 2", got)
	}
	if ex := ingesttest.Examples(res.rep, ingest.KindUnknownMode); !strings.Contains(ex, `inv.json:2: $[0].mode: mode "bogus" is not a JMH mode`) {
		t.Errorf("unknown mode example: %s", ex)
	}

	// threads 0 and −2: warned, unknown in the setup, ops/s read as one thread.
	for _, b := range []string{"b.B.t0", "b.B.neg"} {
		rows := byBench[b]
		if len(rows) != 1 || rows[0].NsPerOp != 1e9/4 {
			t.Errorf("%s: rows %+v, want one of 4 ops/s = 2.5e8 ns/op", b, rows)
		}
	}
	setups := map[string]table.Setup{}
	for _, s := range res.setups {
		setups[s.Benchmark] = s
	}
	if s := setups["b.B.neg"]; s.Threads != 0 || s.Forks != 0 || s.MeasurementIterations != 0 || s.Env["inProcess"] != "" {
		t.Errorf("b.B.neg setup %+v, want threads, forks and iterations unknown (0)", s)
	}
	if s := setups["b.B.t0"]; s.Threads != 0 || s.Forks != 1 {
		t.Errorf("b.B.t0 setup %+v, want threads unknown, forks 1", s)
	}
	if got := res.rep.Count(kindBadSetup); got != 4 {
		t.Errorf("invalid configuration warnings %d, want 4:\n%s", got, reportString(res.rep))
	}
	ex := ingesttest.Examples(res.rep, kindBadSetup)
	for _, want := range []string{"inv.json:3: $[1].threads: threads = 0, want ≥ 1; treated as unknown",
		"inv.json:4: $[2].threads: threads = -2", "inv.json:4: $[2].forks: forks = -5, want ≥ 0", "inv.json:4: $[2].measurementIterations: measurementIterations = -1"} {
		if !strings.Contains(ex, want) {
			t.Errorf("invalid configuration examples lack %q:\n%s", want, ex)
		}
	}

	// Invalid UTF-8 → U+FFFD in the benchmark, param name and value.
	utf := byBench["b.B.\uFFFDutf"]
	if len(utf) != 1 || utf[0].Params != "k\uFFFD=v\uFFFD" {
		t.Errorf("invalid UTF-8 record: rows %+v", utf)
	}
	if got := res.rep.Count(ingest.KindInvalidUTF8Name); got != 3 {
		t.Errorf("invalid UTF-8 warnings %d, want 3 (benchmark, param name, param value):\n%s", got, reportString(res.rep))
	}
	if ex := ingesttest.Examples(res.rep, ingest.KindInvalidUTF8Name); !strings.Contains(ex, `inv.json:5: $[3].benchmark: benchmark "b.B.\xff\xfeutf" is not valid UTF-8`) {
		t.Errorf("invalid UTF-8 examples:\n%s", ex)
	}

	// Control characters → escapes in the benchmark, param, metric and unit.
	nl := byBench[`b.B.new\nline`]
	if len(nl) != 2 || nl[0].Params != `p=a\x1bb` || nl[1].Metric != `gc\tx` || nl[1].Unit != `B\r/op` {
		t.Errorf("control character record: rows %+v", nl)
	}
	if got := res.rep.Count(ingest.KindControlName); got != 4 {
		t.Errorf("control character warnings %d, want 4 (benchmark, param value, metric, unit):\n%s", got, reportString(res.rep))
	}

	// JMH's long mode names are its short labels; forks 0 runs in the host VM.
	if l := byBench["b.B.long"]; len(l) != 1 || l[0].Mode != "avgt" || setups["b.B.long"].Env["inProcess"] != "true" {
		t.Errorf("AverageTime record: rows %+v setup %+v", l, setups["b.B.long"])
	}
}
