package uoptime

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/benchtrim/benchtrim/ingest"
	"github.com/benchtrim/benchtrim/ingest/ingesttest"
)

// TestInvalidNames checks that b_name values with a quoted line break or
// invalid UTF-8 are stored cleaned (escaped, U+FFFD) and warned about once
// per name, so no table name spans two lines or breaks an Arrow string.
func TestInvalidNames(t *testing.T) {
	const header = "m_id,n,ns_per_op,bed_setup,it_setup,sr_setup,ir_setup,bed_pos,it_pos,sr_pos,ir_pos,b_name\n"
	doc := header +
		"1,10,5.5,1,2,1,1,1,1,1,1,\"BenchmarkA/new\nline\"\n" + // lines 2-3
		"2,10,5.6,1,2,1,1,1,2,1,1,\"BenchmarkA/new\nline\"\n" + // lines 4-5
		"3,10,7.5,1,2,1,1,1,1,1,1,BenchmarkB/\xff\xfe\n" + // line 6
		"4,10,7.6,1,2,1,1,1,2,1,1,BenchmarkB/\xff\xfe\n" // line 7
	tab, rep, err := readFrom(t, strings.NewReader(doc), "inv.csv")
	if err != nil {
		t.Fatal(err)
	}
	count := map[string]int{}
	for _, r := range ingesttest.Rows(t, tab) {
		if !utf8.ValidString(r.Benchmark) || strings.ContainsAny(r.Benchmark, "\n\r") {
			t.Errorf("benchmark %q is not a clean name", r.Benchmark)
		}
		count[r.Benchmark]++
	}
	if count[`BenchmarkA/new\nline`] != 2 || count["BenchmarkB/\uFFFD"] != 2 || len(count) != 2 {
		t.Errorf("rows per benchmark %v", count)
	}
	if rep.SkippedRows() != 0 || rep.Count(ingest.KindControlName) != 1 || rep.Count(ingest.KindInvalidUTF8Name) != 1 {
		t.Errorf("report:\n%s", ingesttest.ReportText(rep))
	}
	for kind, want := range map[string]string{
		ingest.KindControlName:     `inv.csv:2: b_name "BenchmarkA/new\nline" holds control characters; stored as "BenchmarkA/new\\nline"`,
		ingest.KindInvalidUTF8Name: `inv.csv:6: b_name "BenchmarkB/\xff\xfe" is not valid UTF-8`,
	} {
		if ex := ingesttest.Examples(rep, kind); !strings.Contains(ex, want) {
			t.Errorf("%s: examples lack %q:\n%s", kind, want, ex)
		}
	}
}
