package trim

import (
	"flag"
	"fmt"
	"math"
	"os"
	"sort"
	"strings"
	"testing"

	"github.com/benchtrim/benchtrim/analysis/optimize"
	"github.com/benchtrim/benchtrim/analysis/reconfigure"
	"github.com/benchtrim/benchtrim/internal/synth"
	"github.com/benchtrim/benchtrim/table"
)

var update = flag.Bool("update", false, "rewrite testdata/methods.md")

// methodRow is one method's outcome on a generated suite with known truth.
type methodRow struct {
	name string
	// timeNs sums the method's configuration times over every benchmark.
	timeNs float64
	// errs are |estimate − true steady mean| / true steady mean of the
	// benchmarks with a true steady state.
	errs []float64
	// flagged counts benchmarks without a true steady state that the
	// method flags (only trim flags).
	flagged int
}

func (m *methodRow) within(lim float64) float64 {
	n := 0
	for _, e := range m.errs {
		if e <= lim {
			n++
		}
	}
	return float64(n) / float64(len(m.errs))
}

func median(x []float64) float64 {
	y := append([]float64(nil), x...)
	sort.Float64s(y)
	n := len(y)
	if n%2 == 1 {
		return y[n/2]
	}
	return (y[n/2-1] + y[n/2]) / 2
}

// compareMethods runs trim, µOpTime alone (no warmup discarded), the
// steady-state warmup alone (W from trim's rule, then every remaining
// iteration of every fork), dynamic reconfiguration (CV criterion) and
// the recorded configuration on tab, and scores each against the truth:
// the true steady mean is the level of the fork's final steady segment,
// BenchmarkTruth.FinalMean (μ for flat and warmup series, μ·(1+d) after a
// slowdown); series without a steady state count for time only.
func compareMethods(t *testing.T, tab *table.Table, s *synth.Suite, opt Options) []*methodRow {
	t.Helper()
	truth := truthOf(s)
	rep, err := Run(tab, opt)
	if err != nil {
		t.Fatal(err)
	}
	series, err := table.Select(tab, table.Filter{})
	if err != nil {
		t.Fatal(err)
	}
	oopt := opt.Optimize
	oopt.Seed = opt.Seed
	uopt, err := optimize.Run(tab, oopt)
	if err != nil {
		t.Fatal(err)
	}
	ures := resultsByKey(uopt)
	ropt := opt.Reconfigure
	ropt.Seed = opt.Seed
	rrep, err := reconfigure.Run(tab, ropt)
	if err != nil {
		t.Fatal(err)
	}
	rows := []*methodRow{{name: "recorded"}, {name: "µOpTime alone"}, {name: "steady warmup alone"}, {name: "dynamic reconfiguration (cv)"}, {name: "trim"}}
	rec, uop, stw, dyn, trm := rows[0], rows[1], rows[2], rows[3], rows[4]
	for i, ser := range series {
		tr := truth[[2]string{ser.Benchmark, ser.Params}]
		b := &rep.Benchmarks[i]
		ur := ures[ser.Key]
		dr := rrep.Results[i].Criterion(reconfigure.CriterionCV)
		if b.Key != ser.Key || ur == nil || rrep.Results[i].Key != ser.Key {
			t.Fatalf("series %d: keys differ", i)
		}
		all := meanOf(ser, 0)
		// Estimates: recorded = mean of every iteration; steady warmup
		// alone = mean after trim's warmup (trim's reference when trimmed).
		w := 0
		if b.Status != StatusNoSteady && b.Path == PathSteady {
			w = warmupRule(b.WarmupEnds, opt.WarmupQuantile)
		}
		est := map[*methodRow]float64{rec: all, uop: ur.Chosen.Average, stw: meanOf(ser, w), dyn: dr.AA.Ratio.Test.Estimate, trm: all}
		if b.Status == StatusTrimmed {
			est[trm] = b.Estimate
		}
		rec.timeNs += float64(b.Recorded.TimeNs)
		uop.timeNs += float64(ur.Chosen.TimeNs)
		stw.timeNs += float64(b.Recorded.TimeNs)
		dyn.timeNs += dr.DynamicSeconds * 1e9
		trm.timeNs += float64(b.Recommended.TimeNs)
		if tr.SteadyStart < 0 {
			if b.Status.Unreliable() {
				trm.flagged++
			}
			continue
		}
		for m, e := range est {
			m.errs = append(m.errs, math.Abs(e-tr.FinalMean)/tr.FinalMean)
		}
	}
	return rows
}

// meanOf is the mean of s's iteration values after the first w iterations
// of every fork.
func meanOf(s *table.Series, w int) float64 {
	sum, n := 0.0, 0
	for _, sp := range s.Units(table.LevelIteration) {
		if int(s.Levels[table.LevelIteration][sp.Start]) <= w {
			continue
		}
		sum += s.WeightedMean(sp)
		n++
	}
	return sum / float64(n)
}

func methodsTable(rows []*methodRow, benchmarks, steadyTruth int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d benchmark runs, %d with a true steady state (accuracy columns)\n\n", benchmarks, steadyTruth)
	b.WriteString("| method | suite time | saved | median error | within 1 % | within 3 % | within 5 % | no-steady flagged |\n")
	b.WriteString("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n")
	base := rows[0].timeNs
	for _, r := range rows {
		fmt.Fprintf(&b, "| %s | %.1f h | %.1f %% | %.2f %% | %.0f %% | %.0f %% | %.0f %% | %d |\n", r.name, r.timeNs/3.6e12,
			100*(1-r.timeNs/base), 100*median(r.errs), 100*r.within(0.01), 100*r.within(0.03), 100*r.within(0.05), r.flagged)
	}
	return b.String()
}

// TestMethodsOnKnownTruth measures item 5 of issue 12 on a generated JMH
// suite (16 methods, 5 forks × 800 iterations of 1 s, -wi 0, seed 3,
// no instance or trial factor,
// default mix: 40 % warming up, 10 % late slowdowns, 10 % without a
// steady state): time saved and |estimate − true steady mean| / true mean
// of trim, µOpTime alone, the steady-state warmup alone, dynamic
// reconfiguration and the recorded configuration. The table is
// testdata/methods.md (and docs/trim.md); -update rewrites it.
func TestMethodsOnKnownTruth(t *testing.T) {
	if testing.Short() {
		t.Skip("generates and analyses a 16-benchmark suite")
	}
	cfg := jmhSuite(16, 5, 800, 3)
	cfg.InstanceSD, cfg.TrialSD = 0, 0 // one instance and trial: no factor a method could not see
	tab, s := suiteTable(t, cfg, synth.FormatJMH)
	opt := fastOptions()
	opt.Optimize.Bootstrap.Resamples = 1000
	rows := compareMethods(t, tab, s, opt)
	steadyTruth := 0
	for _, tr := range s.Truth() {
		if tr.SteadyStart >= 0 {
			steadyTruth++
		}
	}
	got := methodsTable(rows, s.Len(), steadyTruth)
	const golden = "testdata/methods.md"
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		t.Errorf("methods table differs from %s (-update rewrites it):\n%s", golden, got)
	}
	rec, uop, stw, dyn, trm := rows[0], rows[1], rows[2], rows[3], rows[4]
	t.Logf("\n%s", got)
	// Directions: trim saves time against the recorded configuration and
	// the steady warmup alone (which saves nothing), and is more accurate
	// than µOpTime alone, which measures the warmup.
	if !(trm.timeNs < rec.timeNs && stw.timeNs == rec.timeNs) {
		t.Errorf("time: trim %.0f, recorded %.0f, steady alone %.0f", trm.timeNs, rec.timeNs, stw.timeNs)
	}
	if !(median(trm.errs) < median(uop.errs)) {
		t.Errorf("median error: trim %.4f, µOpTime alone %.4f", median(trm.errs), median(uop.errs))
	}
	if !(median(stw.errs) <= median(rec.errs)) {
		t.Errorf("median error: steady warmup alone %.4f, recorded %.4f", median(stw.errs), median(rec.errs))
	}
	if trm.flagged != s.Len()-steadyTruth || rec.flagged+uop.flagged+stw.flagged+dyn.flagged != 0 {
		t.Errorf("no-steady benchmarks flagged: trim %d of %d, others %d", trm.flagged, s.Len()-steadyTruth, rec.flagged+uop.flagged+stw.flagged+dyn.flagged)
	}
	docs, err := os.ReadFile("../../docs/trim.md")
	if err == nil && !strings.Contains(string(docs), got) {
		t.Errorf("docs/trim.md does not show the table of %s", golden)
	}
}
