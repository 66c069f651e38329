package compare

import (
	"bytes"
	"encoding/csv"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/benchtrim/benchtrim/estimate"
)

// textRows returns the names of the rows of the first table WriteText
// prints (a name on a line of its own counts once), up to geomean.
func textRows(out string) []string {
	var names []string
	in := false
	for _, l := range strings.Split(out, "\n") {
		switch {
		case strings.HasPrefix(l, "benchmark "):
			in = true
		case !in || strings.HasPrefix(l, " "):
		case l == "" || strings.HasPrefix(l, "geomean"):
			return names
		default:
			names = append(names, strings.Fields(l)[0])
		}
	}
	return names
}

// frameColumn is the column name of a's data table, from its CSV.
func frameColumn(t *testing.T, a *Report, name string) []string {
	t.Helper()
	rows, err := csv.NewReader(strings.NewReader(csvOf(t, a))).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	j := slices.Index(rows[0], name)
	if j < 0 {
		t.Fatalf("no column %s in %v", name, rows[0])
	}
	var out []string
	for _, r := range rows[1:] {
		out = append(out, r[j])
	}
	return out
}

// TestRowsInInputOrder: the text table and the data table list the rows
// in the order the input first shows them, as benchstat does, not by
// name: the base file's order, then what only the test file has; names
// carry benchstat's -GOMAXPROCS suffix. Read from one table (label
// selectors), the order is the table's.
func TestRowsInInputOrder(t *testing.T) {
	vals := map[string][]float64{}
	for i, n := range []string{"BenchmarkZip", "BenchmarkAlpha", "BenchmarkOnlyOld", "BenchmarkMid", "BenchmarkOnlyNew"} {
		vals[n] = []float64{float64(10 * (i + 1)), float64(10*(i+1) + 1), float64(10*(i+1) + 2)}
	}
	old := goBench(t, "v1", []string{"BenchmarkZip", "BenchmarkAlpha", "BenchmarkOnlyOld", "BenchmarkMid"}, vals)
	nw := goBench(t, "v2", []string{"BenchmarkOnlyNew", "BenchmarkMid", "BenchmarkAlpha", "BenchmarkZip"}, vals)
	opt := testOptions(100)
	opt.Rule, opt.Alpha = estimate.TestU, 0.05
	opt.Base, opt.Test = Side{Label: "old", Table: old}, Side{Label: "new", Table: nw}
	a, err := Run(old, opt)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := a.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	if got, want := textRows(b.String()), []string{"Zip-8", "Alpha-8", "Mid-8"}; !slices.Equal(got, want) {
		t.Errorf("text rows %v, want %v:\n%s", got, want, b.String())
	}
	if !strings.Contains(b.String(), "only in base (1, not compared): OnlyOld-8\n") || !strings.Contains(b.String(), "only in test (1, not compared): OnlyNew-8\n") {
		t.Errorf("unmatched benchmarks not named as benchstat names them:\n%s", b.String())
	}
	want := []string{"BenchmarkZip", "BenchmarkAlpha", "BenchmarkOnlyOld", "BenchmarkMid", "BenchmarkOnlyNew"}
	if got := frameColumn(t, a, "benchmark"); !slices.Equal(got, want) {
		t.Errorf("data rows %v, want %v", got, want)
	}
	// One input holding both versions (the test's runs first): its order.
	both := goBench(t, "v2", []string{"BenchmarkMid", "BenchmarkZip"}, vals)
	if err := both.Append(goBench(t, "v1", []string{"BenchmarkZip", "BenchmarkMid"}, vals)); err != nil {
		t.Fatal(err)
	}
	opt.Base, opt.Test = Side{Label: "v1", Select: Selector{Version: "v1"}}, Side{Label: "v2", Select: Selector{Version: "v2"}}
	if a, err = Run(both, opt); err != nil {
		t.Fatal(err)
	}
	if got := frameColumn(t, a, "benchmark"); !slices.Equal(got, []string{"BenchmarkMid", "BenchmarkZip"}) {
		t.Errorf("one table: data rows %v, want Mid, Zip", got)
	}
}

// TestChangeRateIsTheShownChange: the data table's change_rate is the
// change the text shows, signed (ratio − 1, docs/outputs.md): for the U
// test the ratio of the medians, for the ratio rule the ratio of means.
// The base has an outlier, so the two differ: medians 10 → 9 (−10 %),
// means 18 → 8.6 (−52.2 %); both are faster.
func TestChangeRateIsTheShownChange(t *testing.T) {
	vals := map[string][]float64{"BenchmarkX": {10, 10, 10, 10, 50}}
	old := goBench(t, "v1", []string{"BenchmarkX"}, vals)
	vals["BenchmarkX"] = []float64{8, 8, 9, 9, 9}
	nw := goBench(t, "v2", []string{"BenchmarkX"}, vals)
	for _, tc := range []struct {
		rule  estimate.Test
		rate  float64
		shown string
	}{{estimate.TestU, 9.0/10 - 1, "-10.0 %"}, {estimate.TestRatio, 8.6/18 - 1, "-52.2 "}} {
		opt := testOptions(200)
		opt.Rule = tc.rule
		opt.Base, opt.Test = Side{Label: "old", Table: old}, Side{Label: "new", Table: nw}
		a, err := Run(old, opt)
		if err != nil {
			t.Fatal(err)
		}
		rate, err := strconv.ParseFloat(frameColumn(t, a, "change_rate")[0], 64)
		if err != nil || math.Abs(rate-tc.rate) > 1e-12 {
			t.Errorf("%v: change_rate %v (%v), want %v", tc.rule, rate, err, tc.rate)
		}
		var b bytes.Buffer
		a.WriteText(&b)
		if !strings.Contains(b.String(), "X-8 ") || !strings.Contains(b.String(), tc.shown) {
			t.Errorf("%v: text does not show %q:\n%s", tc.rule, tc.shown, b.String())
		}
	}
}

// TestMedianPlusMinus: under the U test each median is followed by
// benchstat's "± P%", the larger relative distance from the median to a
// bound of its 95 % interval (order statistics 2 and 9 of 10 values:
// median 14.5 of 10 … 19, bounds 11 and 18, max(18/14.5 − 1, 1 −
// 11/14.5) = 24 %); 5 values leave it open, "± ∞ ¹", with benchstat's
// footnote, and equal values get its U test footnote; the data table
// has the bounds (null where open).
func TestMedianPlusMinus(t *testing.T) {
	ten := []float64{10, 11, 12, 13, 14, 15, 16, 17, 18, 19}
	vals := map[string][]float64{"BenchmarkTen": ten, "BenchmarkFive": ten[:5], "BenchmarkSame": {7, 7, 7, 7, 7}}
	names := []string{"BenchmarkTen", "BenchmarkFive", "BenchmarkSame"}
	old, nw := goBench(t, "v1", names, vals), goBench(t, "v2", names, vals)
	opt := testOptions(100)
	opt.Rule, opt.Alpha = estimate.TestU, 0.05
	opt.Base, opt.Test = Side{Label: "old", Table: old}, Side{Label: "new", Table: nw}
	a, err := Run(old, opt)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	a.WriteText(&b)
	out := b.String()
	var flat []string // the lines with runs of spaces as one
	for _, l := range strings.Split(out, "\n") {
		flat = append(flat, strings.Join(strings.Fields(l), " "))
	}
	for _, want := range []string{
		"Ten-8 14.5ns ± 24% 14.5ns ± 24% +0.0 % 1.000 10+10 ~",
		"Five-8 12ns ± ∞ ¹ 12ns ± ∞ ¹ +0.0 % 1.000 5+5 ~",
		"Same-8 7ns ± ∞ ¹ 7ns ± ∞ ¹ all equal 1.000² 5+5 ~",
		"\n¹ need >= 6 samples for confidence interval at level 0.95\n² all samples are equal\n",
	} {
		if !strings.Contains(strings.Join(flat, "\n"), want) {
			t.Errorf("text lacks %q:\n%s", want, out)
		}
	}
	lo, hi := frameColumn(t, a, "base_median_ci_lower_ns"), frameColumn(t, a, "test_median_ci_upper_ns")
	if !slices.Equal(lo, []string{"11", "", ""}) || !slices.Equal(hi, []string{"18", "14", "7"}) {
		t.Errorf("median intervals: base lower %q, test upper %q; want 11, –, – and 18, 14, 7", lo, hi)
	}
}
