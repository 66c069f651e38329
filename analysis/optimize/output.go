package optimize

import (
	"fmt"
	"math"
	"strings"

	"github.com/benchtrim/benchtrim/reports"
	"github.com/benchtrim/benchtrim/table"
)

// colKind is the type of a frame column.
type colKind int

const (
	kString colKind = iota
	kInt
	kFloat
	kBool
)

// frame is a small typed table written as CSV, Arrow IPC or Parquet.
type frame struct {
	names []string
	kinds []colKind
	rows  [][]any
}

func (f *frame) col(name string, k colKind) {
	f.names, f.kinds = append(f.names, name), append(f.kinds, k)
}

func (f *frame) add(cells ...any) {
	if len(cells) != len(f.names) {
		panic(fmt.Sprintf("optimize: frame row has %d cells, want %d", len(cells), len(f.names)))
	}
	f.rows = append(f.rows, cells)
}

// writeFile writes f atomically as CSV (.csv), Arrow IPC (.arrow, .ipc,
// .feather) or Parquet (.parquet, .pq), chosen by the extension.
func (f *frame) writeFile(path string) error { return f.columns().WriteFile(path) }

// columns converts the rows into a column-typed reports.Frame.
func (f *frame) columns() *reports.Frame {
	out := &reports.Frame{}
	n := len(f.rows)
	for j, name := range f.names {
		switch f.kinds[j] {
		case kString:
			col := make([]string, n)
			for i, r := range f.rows {
				col[i] = r[j].(string)
			}
			out.String(name, col)
		case kInt:
			col := make([]int64, n)
			for i, r := range f.rows {
				switch x := r[j].(type) {
				case int:
					col[i] = int64(x)
				case int64:
					col[i] = x
				}
			}
			out.Int(name, col)
		case kFloat:
			col := make([]float64, n)
			for i, r := range f.rows {
				col[i] = r[j].(float64)
			}
			out.Float(name, col)
		default:
			col := make([]bool, n)
			for i, r := range f.rows {
				col[i] = r[j].(bool)
			}
			out.Bool(name, col)
		}
	}
	return out
}

// Column names of Frame(FrameResults), in order. See the package documentation.
var levelCols = [table.NumLevels]string{"instance", "trial", "fork", "iteration", "slice"}

func resultFrame(rep *Report) *frame {
	f := &frame{}
	for _, n := range []string{"project", "version", "benchmark", "params", "mode", "metric", "method", "status"} {
		f.col(n, kString)
	}
	for _, n := range levelCols {
		f.col(n, kInt)
	}
	f.col("observations", kInt)
	f.col("repetitions", kInt)
	for _, n := range []string{"value", "time_s", "average", "ci_lower", "ci_upper"} {
		f.col(n, kFloat)
	}
	for _, n := range levelCols {
		f.col("full_"+n, kInt)
	}
	f.col("full_observations", kInt)
	for _, n := range []string{"full_value", "full_time_s", "full_average", "full_ci_lower", "full_ci_upper",
		"time_saved_s", "time_saved", "change_rate", "ci_lower_diff", "ci_upper_diff"} {
		f.col(n, kFloat)
	}
	for _, n := range []string{"configurations", "candidates", "evaluated", "missing"} {
		f.col(n, kInt)
	}
	f.col("ragged", kBool)
	f.col("assumed_time", kBool)
	f.col("threshold", kFloat)
	f.col("seed", kInt)
	thr := rep.Options.Threshold
	seed := int64(rep.Options.Seed)
	row := func(r *Result, method, status string, e *Evaluation) {
		full := &r.Full
		cells := []any{r.Key.Project, r.Key.Version, r.Key.Benchmark, r.Key.Params, r.Key.Mode, r.Metric.String(), method, status}
		for _, k := range e.Config {
			cells = append(cells, int(k))
		}
		cells = append(cells, e.Observations, e.Repetitions, e.Value, e.seconds(), e.Average, e.Lower, e.Upper)
		for _, k := range full.Config {
			cells = append(cells, int(k))
		}
		saved := full.seconds() - e.seconds()
		cells = append(cells, full.Observations, full.Value, full.seconds(), full.Average, full.Lower, full.Upper,
			saved, saved/full.seconds(),
			math.Abs(e.Average-full.Average)/math.Abs(full.Average),
			(e.Lower-full.Lower)/full.Lower, (e.Upper-full.Upper)/full.Upper,
			r.Configurations, r.Candidates, r.Evaluated, r.Missing, r.Missing > 0, r.AssumedTime, thr, seed)
		f.add(cells...)
	}
	for i := range rep.Results {
		r := &rep.Results[i]
		for m := Method(0); m < numMethods; m++ {
			status := ""
			if m == MethodUOpTime {
				status = r.Status.String()
			}
			row(r, m.String(), status, r.eval(m))
		}
		for j := range r.All {
			st := "unstable"
			if stable(r.All[j].Value, thr) {
				st = "stable"
			}
			row(r, "config", st, &r.All[j])
		}
	}
	return f
}

// writeResults writes the per-benchmark results to path as CSV, Arrow IPC
// or Parquet (by extension): one row per (benchmark run, metric, method),
// and with Options.AllConfigs one row per evaluated configuration (method
// "config"). The columns are documented in the package documentation.
func writeResults(path string, rep *Report) error { return resultFrame(rep).writeFile(path) }

func summaryFrame(sums []summary) *frame {
	f := &frame{}
	for _, n := range []string{"project", "version", "metric", "method"} {
		f.col(n, kString)
	}
	for _, n := range []string{"benchmarks", "reduced", "not_reduced", "too_few_repetitions"} {
		f.col(n, kInt)
	}
	for _, n := range []string{"full_time_s", "time_s", "time_saved", "within_1pct", "within_3pct", "within_5pct", "within_10pct",
		"median_change", "max_change", "worst_ci_lower_diff", "worst_ci_upper_diff"} {
		f.col(n, kFloat)
	}
	for _, s := range sums {
		for m := Method(0); m < numMethods; m++ {
			ms := &s.methods[m]
			f.add(s.project, s.version, s.metric.String(), m.String(), s.benchmarks, s.reduced, s.notReduced, s.tooFewRepetitions,
				float64(s.fullTimeNs)/1e9, float64(ms.timeNs)/1e9, ms.saved, ms.within[0], ms.within[1], ms.within[2], ms.within[3],
				ms.medianChange, ms.maxChange, ms.worstCILower, ms.worstCIUpper)
		}
	}
	return f
}

// writeSummary writes the per-project summaries (one row per project,
// version, metric and method) as CSV, Arrow IPC or Parquet.
func writeSummary(path string, sums []summary) error { return summaryFrame(sums).writeFile(path) }

func versionFrame(vr *VersionReport) *frame {
	f := &frame{}
	for _, n := range []string{"project", "metric", "method", "scope", "from", "to"} {
		f.col(n, kString)
	}
	for _, n := range []string{"benchmarks", "full_changes", "detected", "tp", "fp", "tn", "fn"} {
		f.col(n, kInt)
	}
	f.col("fpr", kFloat)
	f.col("fnr", kFloat)
	add := func(p *VersionPair, scope string) {
		from, to := p.From, p.To
		if scope == "total" {
			vs := vr.Versions[p.Project]
			from, to = vs[0], vs[len(vs)-1]
		}
		f.add(p.Project, p.Metric.String(), p.Method.String(), scope, from, to,
			p.Benchmarks, p.FullChanges, p.Detected, p.TP, p.FP, p.TN, p.FN, p.FPR, p.FNR)
	}
	for i := range vr.Pairs {
		add(&vr.Pairs[i], "pair")
	}
	for i := range vr.Totals {
		add(&vr.Totals[i], "total")
	}
	return f
}

// timeSavingTable is the Markdown-ready time-saving table: per project,
// version and metric the full and µOpTime execution time, the fraction
// saved and the fractions of benchmarks whose change rate is within 1 %,
// 3 % and 5 %.
func timeSavingTable(sums []summary) *reports.Table {
	t := &reports.Table{Title: "µOpTime time saving",
		Columns: []string{"project", "version", "metric", "benchmarks", "not reduced", "full time", "µOpTime time", "saved", "c ≤ 1 %", "c ≤ 3 %", "c ≤ 5 %"}}
	for _, s := range sums {
		m := &s.methods[MethodUOpTime]
		t.AddRow(s.project, s.version, s.metric.String(), s.benchmarks, s.notReduced+s.tooFewRepetitions,
			reports.Seconds(float64(s.fullTimeNs)/1e9), reports.Seconds(float64(m.timeNs)/1e9), reports.Percent(m.saved),
			reports.Percent(m.within[0]), reports.Percent(m.within[1]), reports.Percent(m.within[2]))
	}
	t.Notes = []string{"c is the change rate |r_chosen − r_full| / r_full of the metric's estimator (mean, or median for rmad and rciw-median)."}
	return t
}

// baselineTable compares µOpTime with the minimum and random baselines.
func baselineTable(sums []summary) *reports.Table {
	t := &reports.Table{Title: "µOpTime against the baselines",
		Columns: []string{"project", "version", "metric", "method", "time", "saved", "c ≤ 1 %", "c ≤ 3 %", "c ≤ 5 %", "median c", "max c"}}
	for _, s := range sums {
		for m := Method(0); m < numMethods; m++ {
			ms := &s.methods[m]
			t.AddRow(s.project, s.version, s.metric.String(), m.String(), reports.Seconds(float64(ms.timeNs)/1e9), reports.Percent(ms.saved),
				reports.Percent(ms.within[0]), reports.Percent(ms.within[1]), reports.Percent(ms.within[2]),
				reports.Percent(ms.medianChange), reports.Percent(ms.maxChange))
		}
	}
	return t
}

// metricComparisonTable renders compareMetrics: per project version the
// Kruskal-Wallis test, then Dunn's test and Cliff's δ for every metric pair.
func metricComparisonTable(cmp []metricComparison) *reports.Table {
	t := &reports.Table{Title: "Comparing the metrics' change rates (Kruskal-Wallis, Dunn with Bonferroni, Cliff's δ)",
		Columns: []string{"project", "version", "test", "H or z", "p (adjusted)", "significant", "Cliff's δ", "magnitude"}}
	for _, c := range cmp {
		names := make([]string, len(c.metrics))
		for i, m := range c.metrics {
			names[i] = m.String()
		}
		t.AddRow(c.project, c.version, "Kruskal-Wallis "+strings.Join(names, ", "), c.kruskal.H, c.kruskal.P, c.kruskal.P <= 0.01, nil, nil)
		for _, p := range c.pairs {
			t.AddRow(c.project, c.version, p.a.String()+" vs "+p.b.String(), p.dunn.Z, p.dunn.PAdjusted, p.dunn.Reject, p.delta, p.magnitude.String())
		}
	}
	t.Notes = []string{"Kruskal-Wallis significant at p ≤ 0.01; Dunn p adjusted by Bonferroni, significant at ≤ 0.01; δ > 0: the first metric changes results more."}
	return t
}

// versionTable renders the version comparison: per pair (all methods) and totals.
func versionTable(vr *VersionReport, pairs bool) *reports.Table {
	t := &reports.Table{Title: "Change detection across versions (forward mode; full configuration = ground truth)",
		Columns: []string{"project", "metric", "method", "versions", "benchmarks", "changes (full)", "detected", "TP", "FP", "TN", "FN", "FPR", "FNR"}}
	add := func(p *VersionPair, label string) {
		t.AddRow(p.Project, p.Metric.String(), p.Method.String(), label, p.Benchmarks, p.FullChanges, p.Detected,
			p.TP, p.FP, p.TN, p.FN, reports.Percent(p.FPR), reports.Percent(p.FNR))
	}
	if pairs {
		for i := range vr.Pairs {
			p := &vr.Pairs[i]
			add(p, p.From+" → "+p.To)
		}
	}
	for i := range vr.Totals {
		p := &vr.Totals[i]
		vs := vr.Versions[p.Project]
		add(p, "all "+vs[0]+" … "+vs[len(vs)-1])
	}
	return t
}
