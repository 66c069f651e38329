package compare

import (
	"bytes"
	"math"
	"strings"
	"testing"

	"github.com/benchtrim/benchtrim/estimate"
	"github.com/benchtrim/benchtrim/table"
)

// thrptSeries is a JMH thrpt run of 2 threads in ops/ms: one fork of
// the iteration scores given (ns_per_op = threads·ns(ms)/score, as
// format/jmh normalises them).
func thrptSeries(version string, scores ...float64) *table.Series {
	var ns []float64
	for _, x := range scores {
		ns = append(ns, 2*1e6/x)
	}
	s := handSeries("org.example.Codec.decode", version, ns)
	s.Mode, s.Unit, s.Value = "thrpt", "ops/ms", scores
	s.Setup = &table.Setup{Key: s.Key, Tool: "jmh", Threads: 2}
	return s
}

// flatText is WriteText's output with runs of spaces as one.
func flatText(t *testing.T, rep *metricRows) string {
	t.Helper()
	var b bytes.Buffer
	if err := reportOf(rep).WriteText(&b); err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, l := range strings.Split(b.String(), "\n") {
		lines = append(lines, strings.Join(strings.Fields(l), " "))
	}
	return strings.Join(lines, "\n")
}

// TestThroughputShownAsScores: a thrpt benchmark 50 % faster in
// throughput (scores ×1.5) reads as JMH users read it: scores in the
// file's ops/ms, Δ +50.0 % and "faster"; the median of an even count is
// the mean of the two middle scores (115, where the mean of the two
// middle times, converted, would be their harmonic mean 114.8); the data
// keep times per operation (2·10⁶/115 ns) and the time's change (−1/3).
// Under the ratio rule the means are the scores' harmonic means, which
// the note says.
func TestThroughputShownAsScores(t *testing.T) {
	base := []*table.Series{thrptSeries("v1", 100, 110, 120, 130)}
	test := []*table.Series{thrptSeries("v2", 150, 165, 180, 195)}
	opt := testOptions(500)
	opt.Rule, opt.Alpha = estimate.TestU, 0.05
	rep, err := compareSets(runSet{Label: "old", Series: base}, runSet{Label: "new", Series: test}, opt)
	if err != nil {
		t.Fatal(err)
	}
	out := flatText(t, rep)
	for _, want := range []string{
		"1 of 1 benchmarks changed: 1 faster (up to +50.0 %)",
		"benchmark base ops/ms test ops/ms Δ % p n verdict",
		"\ndecode 115 ± ∞ ¹ 172.5 ± ∞ ¹ +50.0 % 0.029 4+4 faster",
		"geomean 115 172.5 +50.0 %",
		"note: 1 benchmark in thrpt mode: scores in the file's unit (ops per time, higher is faster)",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("text lacks %q:\n%s", want, out)
		}
	}
	res := rep.Results[0]
	if math.Abs(res.Base.Median-2e6/115) > 1e-9 || math.Abs(res.ChangeRate-(115/172.5-1)) > 1e-12 || res.Verdict.Change != Faster {
		t.Errorf("base median %v ns (want %v), change rate %v (want −1/3), %v", res.Base.Median, 2e6/115, res.ChangeRate, res.Verdict)
	}
	opt.Rule = estimate.TestRatio
	if rep, err = compareSets(runSet{Label: "old", Series: base}, runSet{Label: "new", Series: test}, opt); err != nil {
		t.Fatal(err)
	}
	out = flatText(t, rep)
	h := 4 / (1/100.0 + 1/110.0 + 1/120.0 + 1/130.0) // the harmonic mean of the base scores
	for _, want := range []string{
		"\ndecode " + formatValue(h) + " ±", "+50.0 [", "their means are harmonic means of the iteration scores",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("ratio rule: text lacks %q:\n%s", want, out)
		}
	}
}

// TestScoreUnits: an avgt benchmark recorded in us/op shows its medians in
// us/op (the header names the unit every row has); next to a thrpt one
// each cell names its own unit; Go benchmarks keep time per operation.
func TestScoreUnits(t *testing.T) {
	avgt := func(version string, us ...float64) *table.Series {
		var ns []float64
		for _, x := range us {
			ns = append(ns, 1000*x)
		}
		s := handSeries("org.example.Codec.encode", version, ns)
		s.Unit, s.Value = "us/op", us
		return s
	}
	opt := testOptions(200)
	opt.Rule, opt.Alpha = estimate.TestU, 0.05
	rep, err := compareSets(runSet{Label: "old", Series: []*table.Series{avgt("v1", 1.5, 1.6, 1.7)}},
		runSet{Label: "new", Series: []*table.Series{avgt("v2", 1.5, 1.6, 1.7)}}, opt)
	if err != nil {
		t.Fatal(err)
	}
	if out := flatText(t, rep); !strings.Contains(out, "benchmark base us/op test us/op Δ %") || !strings.Contains(out, "\nencode 1.6 ± ∞ ¹ 1.6 ± ∞ ¹ +0.0 %") {
		t.Errorf("us/op not shown:\n%s", out)
	}
	rep, err = compareSets(runSet{Label: "old", Series: []*table.Series{avgt("v1", 1.5, 1.6, 1.7), thrptSeries("v1", 100, 110, 120)}},
		runSet{Label: "new", Series: []*table.Series{avgt("v2", 1.5, 1.6, 1.7), thrptSeries("v2", 100, 110, 120)}}, opt)
	if err != nil {
		t.Fatal(err)
	}
	out := flatText(t, rep)
	for _, want := range []string{"benchmark base test Δ %", "\nencode (avgt) 1.6 us/op ± ∞ ¹ 1.6 us/op ± ∞ ¹", "\ndecode (thrpt) 110 ops/ms ± ∞ ¹ 110 ops/ms ± ∞ ¹"} {
		if !strings.Contains(out, want) {
			t.Errorf("mixed units: text lacks %q:\n%s", want, out)
		}
	}
	vals := map[string][]float64{"BenchmarkX": {1500, 1600, 1700}}
	old, nw := goBench(t, "v1", []string{"BenchmarkX"}, vals), goBench(t, "v2", []string{"BenchmarkX"}, vals)
	opt.Base, opt.Test = Side{Label: "old", Table: old}, Side{Label: "new", Table: nw}
	a, err := Run(old, opt)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	a.WriteText(&b)
	if !strings.Contains(b.String(), "base time/op") || !strings.Contains(b.String(), "1.6µs ± ∞") {
		t.Errorf("go test times not per operation:\n%s", b.String())
	}
}
