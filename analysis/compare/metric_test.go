package compare

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/benchtrim/benchtrim/table"
)

// metricSeries is handSeries for a secondary metric: the values are in
// unit, ns_per_op is NaN as the ingesters record it.
func metricSeries(benchmark, version, metric string, forks ...[]float64) *table.Series {
	s := handSeries(benchmark, version, forks...)
	s.Metric, s.Unit = metric, metric
	for i := range s.NsPerOp {
		s.NsPerOp[i] = math.NaN()
	}
	return s
}

// TestCompareSecondaryMetric compares B/op: values are compared as they
// are recorded (ns_per_op is NaN), a doubling is "+100.0 % higher", equal
// constants compare as ratio 1 with p = 1, and an all-zero base is an error.
func TestCompareSecondaryMetric(t *testing.T) {
	base := []*table.Series{
		metricSeries("Alloc", "v1", "B/op", []float64{100, 102, 98}, []float64{101, 99, 100}),
		metricSeries("Same", "v1", "B/op", []float64{64, 64}, []float64{64, 64}),
		metricSeries("Zero", "v1", "B/op", []float64{0, 0}, []float64{0, 0}),
		metricSeries("ZeroBase", "v1", "B/op", []float64{0, 0}, []float64{0, 0}),
	}
	test := []*table.Series{
		metricSeries("Alloc", "v2", "B/op", []float64{200, 204, 196}, []float64{202, 198, 200}),
		metricSeries("Same", "v2", "B/op", []float64{64, 64}, []float64{64, 64}),
		metricSeries("Zero", "v2", "B/op", []float64{0, 0}, []float64{0, 0}),
		metricSeries("ZeroBase", "v2", "B/op", []float64{8, 8}, []float64{8, 8}),
	}
	rep, err := compareSets(runSet{Label: "old", Series: base}, runSet{Label: "new", Series: test}, testOptions(500))
	if err != nil {
		t.Fatal(err)
	}
	if rep.Metric != "B/op" || rep.Unit != "B/op" || rep.isTime() {
		t.Fatalf("report metric %q unit %q", rep.Metric, rep.Unit)
	}
	alloc := resultFor(t, rep, "Alloc", "")
	// Means 100 and 200 exactly: the ratio's estimate is 2.
	if alloc.Err != nil || alloc.Ratio.Estimate != 2 || alloc.Base.Mean.Estimate != 100 || alloc.Verdict.Change != Slower ||
		verdictText(alloc.Verdict, rep.isTime()) != "+100.0 % higher" {
		t.Errorf("Alloc: %+v, verdict %q", *alloc, verdictText(alloc.Verdict, rep.isTime()))
	}
	same := resultFor(t, rep, "Same", "")
	if same.Err != nil || same.Ratio.Lower != 1 || same.Ratio.Upper != 1 || same.P != 1 || same.Verdict.Change != NoChange || same.Base.Mean.Estimate != 64 {
		t.Errorf("Same: %+v", *same)
	}
	if zero := resultFor(t, rep, "Zero", ""); zero.Err != nil || zero.P != 1 || zero.Verdict.Change != NoChange {
		t.Errorf("Zero: %+v, %v", *zero, zero.Err)
	}
	if zb := resultFor(t, rep, "ZeroBase", ""); !errors.Is(zb.Err, errBaseZero) {
		t.Errorf("ZeroBase: err %v, want errBaseZero", zb.Err)
	}
	if h := rep.headline(); h != "B/op: 1 of 3 benchmarks changed: 1 higher (up to +100.0 %); 2 unchanged; 1 not compared" {
		t.Errorf("headline %q", h)
	}
	var b strings.Builder
	if err := reportOf(rep).WriteText(&b); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"base B/op", "all equal", "higher", "every base value is 0"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("text lacks %q:\n%s", want, b.String())
		}
	}
}
