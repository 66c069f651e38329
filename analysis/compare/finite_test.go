package compare

import (
	"bytes"
	"math"
	"strings"
	"testing"

	"github.com/benchtrim/benchtrim/estimate"
	"github.com/benchtrim/benchtrim/table"
)

// TestOverflowIsAFailureNotAResult: finite times near 1.7e308 overflow the
// sums of the means (and times 1e200 apart those of the variances). Before,
// compare printed "+Inf" and "NaN %" as the change; now such a benchmark is
// "not compared" with the reason, in A/B, in a description and in A/A,
// while the others compare as before.
func TestOverflowIsAFailureNotAResult(t *testing.T) {
	its := func(scale float64) []float64 {
		return []float64{1 * scale, 1.02 * scale, 0.99 * scale, 1.01 * scale}
	}
	base := []*table.Series{
		handSeries("Huge", "v1", its(1.5e308), its(1.5e308)),
		handSeries("Ok", "v1", its(1000), its(1000)),
		handSeries("Wide", "v1", []float64{1, 1e200, 3, 4}, its(1)),
	}
	test := []*table.Series{
		handSeries("Huge", "v2", its(1.6e308), its(1.6e308)),
		handSeries("Ok", "v2", its(1100), its(1100)),
		handSeries("Wide", "v2", its(2), its(2)),
	}
	rep, err := compareSets(runSet{Label: "base", Series: base}, runSet{Label: "test", Series: test}, testOptions(200))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"Huge": "test: values up to 1.63e+308 overflow float64 in a sum of up to 64 of them",
		"Ok":   "",
		"Wide": "base: values 1e+200 apart overflow float64 in a sum of up to 64 squared deviations",
	}
	for i := range rep.Results {
		r := &rep.Results[i]
		switch w := want[r.Benchmark]; {
		case w == "" && r.Err != nil:
			t.Errorf("%s: %v", r.Benchmark, r.Err)
		case w != "" && (r.Err == nil || !strings.HasPrefix(r.Err.Error(), w)):
			t.Errorf("%s: error %v, want %q…", r.Benchmark, r.Err, w)
		}
	}
	if ok := resultFor(t, rep, "Ok", ""); ok.Err != nil || math.Abs(ok.Verdict.Percent-10) > 1e-9 {
		t.Errorf("Ok: %v, change %v %%, want +10 %%", ok.Err, ok.Verdict.Percent)
	}
	var out bytes.Buffer
	reportOf(rep).WriteText(&out)
	if text := out.String(); strings.Contains(text, "Inf") || strings.Contains(text, "NaN") || !strings.Contains(text, "Huge: test: values up to 1.63e+308 overflow float64 in a sum of up to 64 of them") {
		t.Errorf("text:\n%s", text)
	}

	desc, err := describeSet(runSet{Label: "base", Series: base}, testOptions(200))
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range desc.benchmarks {
		if (d.err != nil) != (d.Benchmark != "Ok") {
			t.Errorf("describe %s: err %v", d.Benchmark, d.err)
		}
	}

	aa, err := aaSeries([]*table.Series{handSeries("Huge", "v1", its(1.5e308), its(1.5e308), its(1.5e308), its(1.5e308))},
		aaTestOptions(200, 3))
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range aa.results {
		if r.err == nil || !strings.Contains(r.err.Error(), "overflow float64") {
			t.Errorf("A/A split %d: err %v, want an overflow", r.repeat, r.err)
		}
	}
}

// TestComparisonFiniteErr names the first statistic that is not finite.
func TestComparisonFiniteErr(t *testing.T) {
	one := estimate.Interval{Estimate: 1, Lower: 0.9, Upper: 1.1}
	c := Row{Base: SideStats{Mean: one}, Test: SideStats{Mean: one}, Ratio: one, P: 0.5}
	if err := c.finiteErr(); err != nil {
		t.Fatalf("finite comparison: %v", err)
	}
	c.Ratio.Upper = math.Inf(1)
	if err := c.finiteErr(); err == nil || err.Error() != "the ratio test/base is not finite (a base mean of 0 or near it, or values that overflow float64)" {
		t.Errorf("err %v", err)
	}
	c.Ratio.Upper, c.ChangeRate = 1.1, math.NaN()
	if err := c.finiteErr(); err == nil || err.Error() != "the change rate is not finite (a base mean of 0 or near it, or values that overflow float64)" {
		t.Errorf("err %v", err)
	}
}
