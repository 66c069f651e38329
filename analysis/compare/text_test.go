package compare

import (
	"strings"
	"testing"

	"github.com/benchtrim/benchtrim/table"
)

func TestFormatNs(t *testing.T) {
	for _, tc := range []struct {
		ns   float64
		want string
	}{{12.114, "12.11ns"}, {1718.4, "1.718µs"}, {3066000, "3.066ms"}, {1.2345e9, "1.234s"}, {0.5, "0.5ns"}, {108000, "108µs"}} {
		if got := formatNs(tc.ns); got != tc.want {
			t.Errorf("formatNs(%v) = %q, want %q", tc.ns, got, tc.want)
		}
	}
	if got := formatSpread(100, 99.6, 100.3); got != "±0.4%" {
		t.Errorf("spread %q", got)
	}
	if got := formatSpread(100, 88, 105); got != "±12%" {
		t.Errorf("spread %q", got)
	}
}

func TestReportText(t *testing.T) {
	base := []*table.Series{
		handSeries("org.ex.Bench.alpha", "v1", []float64{10, 11, 12}, []float64{11, 12, 10}),
		handSeries("org.ex.Bench.beta", "v1", []float64{100, 101, 99}, []float64{100, 102, 98}),
		handSeries("org.ex.Bench.gamma", "v1", []float64{5, 5}),
	}
	test := []*table.Series{
		handSeries("org.ex.Bench.alpha", "v2", []float64{20, 21, 22}, []float64{21, 22, 20}),
		handSeries("org.ex.Bench.beta", "v2", []float64{100, 99, 101}, []float64{98, 102, 100}),
	}
	rep, err := Compare(Set{Label: "old.json", Series: base}, Set{Label: "new.json", Series: test}, testOptions(500))
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if err := rep.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	lines := strings.Split(out, "\n")
	find := func(prefix string) string {
		for _, l := range lines {
			if strings.HasPrefix(l, prefix) {
				return l
			}
		}
		t.Errorf("no line starting with %q in\n%s", prefix, out)
		return ""
	}
	for _, want := range []string{"base: old.json", "test: new.json", "benchmarks: org.ex.Bench.…",
		"levels resampled: fork > iteration", "500 resamples, 99 % percentile intervals, iteration means, seed 1"} {
		if !strings.Contains(out, want) {
			t.Errorf("text lacks %q:\n%s", want, out)
		}
	}
	header := find("benchmark ")
	for _, col := range []string{"base time/op", "test time/op", "ratio", "99 % CI", "p", "Cliff's δ", "n", "verdict"} {
		if !strings.Contains(header, col) {
			t.Errorf("header %q lacks %q", header, col)
		}
	}
	alpha := rep.Results[0]
	if l := find("alpha "); !strings.Contains(l, "11ns ±") || !strings.Contains(l, "21ns ±") || !strings.Contains(l, "6+6") ||
		!strings.HasSuffix(l, alpha.Verdict.String()) || !strings.Contains(l, "1.00  large") {
		t.Errorf("alpha row %q (verdict %v)", l, alpha.Verdict)
	}
	if l := find("beta "); !strings.HasSuffix(l, "no change") || !strings.Contains(l, "1.000") {
		t.Errorf("beta row %q", l)
	}
	// geomean of 11, 100 and 21, 100; ratio √(21/11 · 1) = 1.382.
	if l := find("geomean "); !strings.Contains(l, "33.17ns") || !strings.Contains(l, "45.83ns") || !strings.HasSuffix(l, "+38.2 %") {
		t.Errorf("geomean row %q", l)
	}
	if !strings.Contains(out, "only in base (1, not compared): gamma") ||
		!strings.Contains(out, "2 compared: 1 slower, 0 faster, 1 no change") {
		t.Errorf("footer:\n%s", out)
	}
	// Columns are aligned: every table row puts the ratio column at the same offset.
	h := strings.Index(header, "ratio")
	for _, p := range []string{"alpha ", "beta ", "geomean "} {
		l := find(p)
		if len([]rune(l)) < h || !strings.Contains(string([]rune(l)[h-2:h+5]), ".") {
			t.Errorf("row %q not aligned with the ratio column of %q", l, header)
		}
	}
}
