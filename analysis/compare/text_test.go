package compare

import (
	"fmt"
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
	rep, err := compareSets(runSet{Label: "old.json", Series: base}, runSet{Label: "new.json", Series: test}, testOptions(500))
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if err := reportOf(rep).WriteText(&b); err != nil {
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
	// JMH scores are shown in their file's unit, ns/op here.
	for _, col := range []string{"base ns/op", "test ns/op", "Δ % [99 % CI]", "p", "n", "verdict"} {
		if !strings.Contains(header, col) {
			t.Errorf("header %q lacks %q", header, col)
		}
	}
	alpha := rep.Results[0]
	if alpha.Verdict.Change != Slower {
		t.Fatalf("alpha verdict %v, want slower", alpha.Verdict)
	}
	// Δ = 100·(ratio − 1) with its interval, one decimal for an interval this wide.
	delta := fmt.Sprintf("%+.1f [%+.1f, %+.1f]", 100*(alpha.Ratio.Estimate-1), 100*(alpha.Ratio.Lower-1), 100*(alpha.Ratio.Upper-1))
	if l := find("alpha "); !strings.Contains(l, " 11 ±") || !strings.Contains(l, " 21 ±") || !strings.Contains(l, "6+6") ||
		!strings.HasSuffix(l, "slower") || !strings.Contains(l, delta) {
		t.Errorf("alpha row %q, want %s and slower", l, delta)
	}
	if l := find("beta "); !strings.HasSuffix(l, "  ~") || !strings.Contains(l, "1.000") {
		t.Errorf("beta row %q", l)
	}
	// geomean of 11, 100 and 21, 100; ratio √(21/11 · 1) = 1.382.
	if l := find("geomean "); !strings.Contains(l, " 33.17 ") || !strings.Contains(l, " 45.83 ") || !strings.HasSuffix(l, "+38.2 %") {
		t.Errorf("geomean row %q", l)
	}
	if want := "1 of 2 benchmarks changed: 1 slower (up to " + formatPercent(alpha.Verdict.Percent) + "); 1 unchanged; 1 only in base"; lines[0] != want {
		t.Errorf("first line %q, want %q", lines[0], want)
	}
	if !strings.Contains(out, "only in base (1, not compared): gamma") ||
		!strings.Contains(out, "2 compared: 1 slower, 0 faster, 1 no change") {
		t.Errorf("footer:\n%s", out)
	}
	// Columns are aligned: every table row puts the Δ column at the same offset.
	h := strings.Index(header, "Δ")
	for _, p := range []string{"alpha ", "beta ", "geomean "} {
		l := find(p)
		if c := []rune(l)[len([]rune(header[:h]))]; c != '+' && c != '-' {
			t.Errorf("row %q not aligned with the Δ column of %q", l, header)
		}
	}
	checkWidth(t, out)
}

// checkWidth fails when a line of out is wider than width runes.
func checkWidth(t *testing.T, out string) {
	t.Helper()
	for _, l := range strings.Split(out, "\n") {
		if n := len([]rune(l)); n > width {
			t.Errorf("line of %d runes (> %d): %q", n, width, l)
		}
	}
}

// TestMethodLineSaysPA: with --pa the settings line says the intervals are
// pa's, not the bootstrap's.
func TestMethodLineSaysPA(t *testing.T) {
	o := DefaultOptions
	if l := o.methodLine(); !strings.HasPrefix(l, "hierarchical bootstrap: 10000 resamples") {
		t.Errorf("default: %q", l)
	}
	o.Bootstrap.PAIndices = true
	if l := o.methodLine(); !strings.HasPrefix(l, "pa v0.1.0's resampling (--pa:") || !strings.Contains(l, "not the bootstrap's") {
		t.Errorf("--pa: %q", l)
	}
}
