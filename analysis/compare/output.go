package compare

import (
	"errors"
	"math"
	"strings"

	"github.com/benchtrim/benchtrim/estimate"
	"github.com/benchtrim/benchtrim/reports"
	"github.com/benchtrim/benchtrim/table"
)

// comparisonColumns collects the columns shared by A/B and A/A outputs.
type comparisonColumns struct {
	baseIter, testIter                  []int64
	baseMean, baseLo, baseHi, baseMed   []float64
	testMean, testLo, testHi, testMed   []float64
	baseMedLo, baseMedHi                []float64
	testMedLo, testMedHi                []float64
	ratio, ratioLo, ratioHi, changeRate []float64
	u, p, delta                         []float64
	magnitude, verdict, errs            []string
	change                              []int64
	excludesOne, pBelowAlpha            []bool
}

func (cc *comparisonColumns) add(c *Row, err error, alpha float64, time bool) {
	if err != nil {
		nan := math.NaN()
		c = &Row{Base: SideStats{Mean: nanInterval(), Median: nan, MedianCI: nanInterval()},
			Test: SideStats{Mean: nanInterval(), Median: nan, MedianCI: nanInterval()}, Ratio: nanInterval(),
			ChangeRate: nan, U: nan, P: nan, CliffsDelta: nan}
	}
	cc.baseIter = append(cc.baseIter, int64(c.Base.Iterations))
	cc.testIter = append(cc.testIter, int64(c.Test.Iterations))
	cc.baseMean = append(cc.baseMean, c.Base.Mean.Estimate)
	cc.baseLo = append(cc.baseLo, c.Base.Mean.Lower)
	cc.baseHi = append(cc.baseHi, c.Base.Mean.Upper)
	cc.baseMed = append(cc.baseMed, c.Base.Median)
	cc.testMean = append(cc.testMean, c.Test.Mean.Estimate)
	cc.testLo = append(cc.testLo, c.Test.Mean.Lower)
	cc.testHi = append(cc.testHi, c.Test.Mean.Upper)
	cc.testMed = append(cc.testMed, c.Test.Median)
	cc.baseMedLo, cc.baseMedHi = append(cc.baseMedLo, finiteOrNaN(c.Base.MedianCI.Lower)), append(cc.baseMedHi, finiteOrNaN(c.Base.MedianCI.Upper))
	cc.testMedLo, cc.testMedHi = append(cc.testMedLo, finiteOrNaN(c.Test.MedianCI.Lower)), append(cc.testMedHi, finiteOrNaN(c.Test.MedianCI.Upper))
	cc.ratio = append(cc.ratio, c.Ratio.Estimate)
	cc.ratioLo = append(cc.ratioLo, c.Ratio.Lower)
	cc.ratioHi = append(cc.ratioHi, c.Ratio.Upper)
	cc.changeRate = append(cc.changeRate, c.ChangeRate)
	cc.u = append(cc.u, c.U)
	cc.p = append(cc.p, c.P)
	cc.delta = append(cc.delta, c.CliffsDelta)
	mag, verdict, es := "", "", ""
	if err == nil {
		mag, verdict = c.Magnitude.String(), verdictText(c.Verdict, time)
	} else {
		es = err.Error()
	}
	cc.magnitude = append(cc.magnitude, mag)
	cc.verdict = append(cc.verdict, verdict)
	cc.errs = append(cc.errs, es)
	cc.change = append(cc.change, int64(c.Verdict.Change))
	cc.excludesOne = append(cc.excludesOne, err == nil && c.excludesOne())
	cc.pBelowAlpha = append(cc.pBelowAlpha, err == nil && c.P <= alpha)
}

// finiteOrNaN is v, or NaN (null in the data table) for an infinite v:
// the bound of a median's interval that too few values leave open.
func finiteOrNaN(v float64) float64 {
	if math.IsInf(v, 0) {
		return math.NaN()
	}
	return v
}

func nanInterval() estimate.Interval {
	nan := math.NaN()
	return estimate.Interval{Estimate: nan, Lower: nan, Upper: nan}
}

func (cc *comparisonColumns) addTo(f *reports.Frame, baseName, testName string) {
	f.Int(baseName+"_iterations", cc.baseIter)
	f.Int(testName+"_iterations", cc.testIter)
	f.Float(baseName+"_mean_ns", cc.baseMean)
	f.Float(baseName+"_ci_lower_ns", cc.baseLo)
	f.Float(baseName+"_ci_upper_ns", cc.baseHi)
	f.Float(baseName+"_median_ns", cc.baseMed)
	f.Float(baseName+"_median_ci_lower_ns", cc.baseMedLo)
	f.Float(baseName+"_median_ci_upper_ns", cc.baseMedHi)
	f.Float(testName+"_mean_ns", cc.testMean)
	f.Float(testName+"_ci_lower_ns", cc.testLo)
	f.Float(testName+"_ci_upper_ns", cc.testHi)
	f.Float(testName+"_median_ns", cc.testMed)
	f.Float(testName+"_median_ci_lower_ns", cc.testMedLo)
	f.Float(testName+"_median_ci_upper_ns", cc.testMedHi)
	f.Float("ratio", cc.ratio)
	f.Float("ratio_ci_lower", cc.ratioLo)
	f.Float("ratio_ci_upper", cc.ratioHi)
	f.Bool("ci_excludes_1", cc.excludesOne)
	f.Float("change_rate", cc.changeRate)
	f.Float("u_statistic", cc.u)
	f.Float("u_pvalue", cc.p)
	f.Bool("u_pvalue_below_alpha", cc.pBelowAlpha)
	f.Float("cliffs_delta", cc.delta)
	f.String("cliff_magnitude", cc.magnitude)
	f.Int("change", cc.change)
	f.String("verdict", cc.verdict)
	f.String("error", cc.errs)
}

func constF64(n int, v float64) []float64 {
	out := make([]float64, n)
	for i := range out {
		out[i] = v
	}
	return out
}

func constI64(n int, v int64) []int64 {
	out := make([]int64, n)
	for i := range out {
		out[i] = v
	}
	return out
}

func constStr(n int, v string) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = v
	}
	return out
}

func (o *Options) addSettings(f *reports.Frame, n int) {
	f.Float("confidence", constF64(n, o.Bootstrap.Confidence))
	f.Float("median_confidence", constF64(n, MedianConfidence))
	f.Int("resamples", constI64(n, int64(o.Bootstrap.Resamples)))
	f.Int("invocation_samples", constI64(n, int64(o.Bootstrap.InvocationSamples)))
	f.Float("alpha", constF64(n, o.Alpha))
	f.String("statistic", constStr(n, o.statistic()))
	f.String("rule", constStr(n, o.Rule.String()))
	f.Float("min_effect", constF64(n, o.MinEffect/100))
	f.Int("discard_warmup", constI64(n, int64(o.DiscardWarmup)))
	f.Int("seed", constI64(n, int64(o.Seed)))
}

// frame is the A/B comparison's data table for notebooks (FrameResults:
// CSV, Arrow IPC or Parquet by the extension), one row per metric and
// benchmark (per metric, in input order: inputOrder).
// Columns:
//
//	benchmark, params, mode       the matched name
//	metric, unit                  "primary" and ns/op for times; a secondary
//	                              metric (B/op, gc.alloc.rate.norm, …) and its unit
//	status                        compared, failed, only in base, only in test
//	base_label, test_label        the sets' labels
//	base_runs, test_runs          pooled runs as project@version;…
//	base_iterations, test_iterations
//	base_mean_ns, base_ci_lower_ns, base_ci_upper_ns, base_median_ns,
//	base_median_ci_lower_ns, base_median_ci_upper_ns   and test_…:
//	                              means with intervals and medians of the
//	                              iteration values with their intervals at
//	                              median_confidence (null where too few
//	                              values leave a bound open: benchstat's
//	                              ± ∞), in ns per operation for the primary
//	                              metric and in unit for the others
//	ratio, ratio_ci_lower, ratio_ci_upper, ci_excludes_1
//	change_rate                   the change the verdict reads, signed:
//	                              median_test/median_base − 1 for the U
//	                              test, ratio − 1 for the others
//	u_statistic, u_pvalue, u_pvalue_below_alpha   Mann-Whitney U on
//	                              iteration values (duet's names)
//	cliffs_delta, cliff_magnitude
//	change, verdict               −1 faster (lower), 0 no change, 1 slower
//	                              (higher); the text
//	error                         why a benchmark was not compared
//	confidence, median_confidence, resamples, invocation_samples, alpha,
//	statistic (mean or median), rule (u, ratio, overlap), min_effect (a
//	fraction), discard_warmup, seed
//
// Numbers that do not exist (unmatched, failed) are empty in CSV and null
// in Arrow and Parquet.
func (r *Report) frame() *reports.Frame {
	var bench, params, mode, metric, unit, status, baseRuns, testRuns, baseLabel, testLabel []string
	var cc comparisonColumns
	for _, g := range r.byMetric() {
		order, unmatched := g.inputOrder(), g.unmatchedOrder()
		for len(order) > 0 || len(unmatched) > 0 {
			var res *Row
			st, err := "compared", error(nil)
			if len(unmatched) > 0 && (len(order) == 0 || g.Unmatched[unmatched[0]].pos.less(g.Results[order[0]].pos)) {
				res, unmatched = &g.Unmatched[unmatched[0]], unmatched[1:]
				st = "only in " + res.only()
				err = errors.New(st)
			} else {
				res, order = &g.Results[order[0]], order[1:]
				if err = res.Err; err != nil {
					st = "failed"
				}
			}
			bench, params, mode = append(bench, res.Benchmark), append(params, res.Params), append(mode, res.Mode)
			baseRuns, testRuns = append(baseRuns, runsString(res.BaseRuns, r.Options.Row)), append(testRuns, runsString(res.TestRuns, r.Options.Row))
			metric, unit = append(metric, g.Metric), append(unit, g.Unit)
			baseLabel, testLabel = append(baseLabel, g.Base), append(testLabel, g.Test)
			status = append(status, st)
			cc.add(res, err, r.Options.Alpha, g.isTime())
		}
	}
	n := len(bench)
	f := &reports.Frame{}
	f.String("benchmark", bench)
	f.String("params", params)
	f.String("mode", mode)
	f.String("metric", metric)
	f.String("unit", unit)
	f.String("status", status)
	f.String("base_label", baseLabel)
	f.String("test_label", testLabel)
	f.String("base_runs", baseRuns)
	f.String("test_runs", testRuns)
	cc.addTo(f, "base", "test")
	if len(r.metrics) > 0 {
		r.Options.addSettings(f, n)
	}
	return f
}

// runsString lists run keys as "project@version" separated by ";"; with
// a row projection (Options.Row), which pools runs of different
// benchmarks, as "project@version benchmark[params] (mode)".
func runsString(ks []table.Key, row string) string {
	parts := make([]string, len(ks))
	for i, k := range ks {
		parts[i] = k.Project + "@" + k.Version
		if row != "" {
			parts[i] += " " + nameOf(k).String()
		}
	}
	return strings.Join(parts, ";")
}

// frame is the A/A test's data table, one row per comparison (run and
// split). Columns: project, version, benchmark, params, mode, split (the
// level), repeat, units_a, units_b, then the comparison columns of the A/B
// table (Report.frame) with "a" for base and "b" for test (a_iterations,
// a_mean_ns, …, ratio is B/A), then the settings. Skipped runs are not
// rows; see aaReport.skipped.
func (r *aaReport) frame() *reports.Frame {
	var proj, ver, bench, params, mode []string
	var repeat, ua, ub []int64
	var cc comparisonColumns
	for i := range r.results {
		res := &r.results[i]
		proj, ver = append(proj, res.key.Project), append(ver, res.key.Version)
		bench, params, mode = append(bench, res.key.Benchmark), append(params, res.key.Params), append(mode, res.key.Mode)
		repeat = append(repeat, int64(res.repeat))
		ua, ub = append(ua, int64(res.unitsA)), append(ub, int64(res.unitsB))
		cc.add(&res.Row, res.err, r.options.Alpha, true)
	}
	n := len(bench)
	f := &reports.Frame{}
	f.String("project", proj)
	f.String("version", ver)
	f.String("benchmark", bench)
	f.String("params", params)
	f.String("mode", mode)
	f.String("split", constStr(n, r.options.Split.String()))
	f.Int("repeat", repeat)
	f.Int("units_a", ua)
	f.Int("units_b", ub)
	cc.addTo(f, "a", "b")
	r.options.addSettings(f, n)
	return f
}
