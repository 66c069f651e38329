package pa

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/benchtrim/benchtrim/ingest"
	"github.com/benchtrim/benchtrim/ingest/ingesttest"
)

// TestInvalidValues checks an unknown mode (row skipped), JMH's long mode
// names (read as the short labels), and names with invalid UTF-8 or a line
// break inside a quoted field (kept cleaned, warned once per name).
func TestInvalidValues(t *testing.T) {
	const doc = "project;commit;benchmark;params;instance;trial;fork;iteration;mode;unit;value_count;value\n" +
		"p;c;b.B.x;;m1;1;1;1;weird;ns/op;1;5\n" + // line 2: unknown mode
		"p;c;b.B.x;;m1;1;1;2;AverageTime;ns/op;1;6\n" + // line 3: long name of avgt
		"p;c;b.B.x;;m1;1;1;3;avgt;ns/op;1;7\n" +
		"p;c;\"b.B.new\nline\";;m1;1;1;1;avgt;ns/op;1;8\n" + // lines 5-6: quoted line break
		"p;c;\"b.B.new\nline\";;m1;1;1;2;avgt;ns/op;1;9\n" + // lines 7-8: same name again
		"p;c\xff;b.B.u\xfe;k=v\xc3;m\x01;1;1;1;avgt;ns/op;1;10\n" // line 9: invalid UTF-8 and a control character
	tab, rep, err := readFrom(t, strings.NewReader(doc), ingest.Source{File: "inv.csv"})
	if err != nil {
		t.Fatal(err)
	}
	ingesttest.CheckSkipped(t, rep, "inv.csv", []ingesttest.Skipped{
		{Kind: ingest.KindUnknownMode, Lines: []int{2}, Msg: `column mode "weird" is not a JMH mode`},
	})
	got := map[string][]float64{}
	for _, r := range rowsOf(t, tab) {
		for _, s := range []string{r.Project, r.Version, r.Benchmark, r.Params, r.Mode} {
			if !utf8.ValidString(s) || strings.ContainsAny(s, "\n\r\x01") {
				t.Errorf("row %+v: %q is not a clean name", r, s)
			}
		}
		got[r.Version+" "+r.Benchmark+" "+r.Params+" "+r.Mode] = append(got[r.Version+" "+r.Benchmark+" "+r.Params+" "+r.Mode], r.Value)
	}
	want := map[string][]float64{
		"c b.B.x  avgt":                      {6, 7},
		`c b.B.new\nline  avgt`:              {8, 9},
		"c\uFFFD b.B.u\uFFFD k=v\uFFFD avgt": {10},
	}
	if len(got) != len(want) {
		t.Errorf("runs %v, want %v", got, want)
	}
	for k, v := range want {
		if g := got[k]; len(g) != len(v) || g[0] != v[0] || g[len(g)-1] != v[len(v)-1] {
			t.Errorf("run %q: values %v, want %v", k, g, v)
		}
	}
	if n := rep.Count(ingest.KindControlName); n != 2 {
		t.Errorf("control character warnings %d, want 2 (benchmark once, instance):\n%s", n, reportText(rep))
	}
	if n := rep.Count(ingest.KindInvalidUTF8Name); n != 3 {
		t.Errorf("invalid UTF-8 warnings %d, want 3 (commit, benchmark, params):\n%s", n, reportText(rep))
	}
	ex := examples(rep, ingest.KindControlName)
	for _, want := range []string{`inv.csv:5: benchmark "b.B.new\nline" holds control characters; stored as "b.B.new\\nline"`, `inv.csv:9: instance "m\x01"`} {
		if !strings.Contains(ex, want) {
			t.Errorf("control character examples lack %q:\n%s", want, ex)
		}
	}
	if tab.Setups[len(tab.Setups)-1].Env["instance.2"] != `m\x01` {
		t.Errorf("setups %+v: want the cleaned instance name", tab.Setups)
	}
}
