package reconfigure

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/benchtrim/benchtrim/reports"
)

// overall is the Project of the summary rows over all projects.
const overall = "all"

// SummaryRow aggregates the replay of one criterion over the benchmarks of
// one project (or of all, Project == overall): the quality columns of the
// paper's Table 2 and the time columns of its Table 3.
type SummaryRow struct {
	Project   string
	Criterion Criterion
	// Benchmarks is the number of replayed benchmarks; Short of them have
	// less data than the configuration or the baseline asks for.
	Benchmarks, Short int

	// Quality (Table 2), over the AATested benchmarks with an A/A test.
	AATested int
	// NotDifferent is the share of A/A tests whose ratio interval contains 1.
	NotDifferent float64
	// ChangeMean and ChangeSD are the mean and sample standard deviation of
	// the change rates |mean_dyn/mean_base − 1|.
	ChangeMean, ChangeSD float64
	// Below1, Below2, Below3 are the shares of change rates below 1, 2 and 3 %.
	Below1, Below2, Below3 float64

	// Time (Table 3).
	StaticHours, DynamicHours float64
	// Saved is 1 − DynamicHours/StaticHours.
	Saved float64
	// WarmupMean and WarmupSD are over the forks run (warmup iterations per
	// fork); ForksMean and ForksSD over benchmarks (forks used).
	WarmupMean, WarmupSD float64
	ForksMean, ForksSD   float64
	// WarmupNeverStable is the share of forks run whose warmup ran to its
	// cap; ForksNeverStable the share of benchmarks whose fork criterion
	// never became stable.
	WarmupNeverStable, ForksNeverStable float64
}

// summaryRows aggregates results per project (sorted by name) and over all
// projects (last), one row per criterion in Options order. Skipped results
// are left out.
func summaryRows(results []Result, criteria []Criterion) []SummaryRow {
	if criteria == nil {
		criteria = AllCriteria
	}
	byProject := map[string][]*Result{}
	var all []*Result
	for i := range results {
		r := &results[i]
		if r.Skipped != "" {
			continue
		}
		byProject[r.Key.Project] = append(byProject[r.Key.Project], r)
		all = append(all, r)
	}
	projects := make([]string, 0, len(byProject))
	for p := range byProject {
		projects = append(projects, p)
	}
	sort.Strings(projects)
	var rows []SummaryRow
	for _, p := range projects {
		for _, c := range criteria {
			rows = append(rows, summarize(p, c, byProject[p]))
		}
	}
	if len(projects) != 1 {
		for _, c := range criteria {
			rows = append(rows, summarize(overall, c, all))
		}
	}
	return rows
}

func summarize(project string, c Criterion, rs []*Result) SummaryRow {
	row := SummaryRow{Project: project, Criterion: c}
	var change, warm, forks []float64
	var notDiff, b1, b2, b3, warmCapped, forksCapped int
	var static, dyn float64
	for _, r := range rs {
		cr := r.Criterion(c)
		if cr == nil {
			continue
		}
		row.Benchmarks++
		if r.Short {
			row.Short++
		}
		static += r.StaticSeconds
		dyn += cr.DynamicSeconds
		forks = append(forks, float64(cr.forksUsed()))
		if !cr.ForksStable {
			forksCapped++
		}
		for _, f := range cr.Forks {
			warm = append(warm, float64(f.WarmupIterations))
			if !f.WarmupStable {
				warmCapped++
			}
		}
		if !cr.AA.Available {
			continue
		}
		row.AATested++
		if cr.AA.NotDifferent {
			notDiff++
		}
		rate := cr.AA.ChangeRate
		change = append(change, rate)
		if rate < 0.01 {
			b1++
		}
		if rate < 0.02 {
			b2++
		}
		if rate < 0.03 {
			b3++
		}
	}
	share := func(k, n int) float64 {
		if n == 0 {
			return math.NaN()
		}
		return float64(k) / float64(n)
	}
	row.NotDifferent = share(notDiff, row.AATested)
	row.Below1, row.Below2, row.Below3 = share(b1, row.AATested), share(b2, row.AATested), share(b3, row.AATested)
	row.ChangeMean, row.ChangeSD = meanSD(change)
	row.StaticHours, row.DynamicHours = static/3600, dyn/3600
	row.Saved = math.NaN()
	if static > 0 {
		row.Saved = 1 - dyn/static
	}
	row.WarmupMean, row.WarmupSD = meanSD(warm)
	row.ForksMean, row.ForksSD = meanSD(forks)
	row.WarmupNeverStable = share(warmCapped, len(warm))
	row.ForksNeverStable = share(forksCapped, row.Benchmarks)
	return row
}

// meanSD returns the mean and the sample standard deviation (n − 1) of x;
// NaN for empty x, sd NaN for one value.
func meanSD(x []float64) (float64, float64) {
	if len(x) == 0 {
		return math.NaN(), math.NaN()
	}
	var s float64
	for _, v := range x {
		s += v
	}
	m := s / float64(len(x))
	if len(x) == 1 {
		return m, math.NaN()
	}
	var ss float64
	for _, v := range x {
		ss += (v - m) * (v - m)
	}
	return m, math.Sqrt(ss / float64(len(x)-1))
}

// pm formats "mean ± sd" with the given formatter.
func pm(mean, sd float64, f func(float64) string) string {
	if math.IsNaN(mean) {
		return ""
	}
	if math.IsNaN(sd) {
		return f(mean)
	}
	return f(mean) + " ± " + f(sd)
}

// percent is a Percent cell, empty when x is NaN (no data).
func percent(x float64) any {
	if math.IsNaN(x) {
		return nil
	}
	return reports.Percent(x)
}

func pct(x float64) string { return strconv.FormatFloat(100*x, 'f', 2, 64) + " %" }
func num(x float64) string { return strconv.FormatFloat(x, 'f', 1, 64) }

// qualityTable renders the rows as the paper's Table 2: per project and
// criterion the share of A/A tests that found no difference, the mean ± sd
// change rate and the shares of change rates below 1, 2 and 3 %.
func qualityTable(rows []SummaryRow) *reports.Table {
	t := &reports.Table{
		Title:   "Result quality: A/A tests of dynamic against static configuration (Laaber et al. 2020, Table 2)",
		Columns: []string{"project", "criterion", "benchmarks", "A/A tested", "not different", "change rate (mean ± sd)", "< 1 %", "< 2 %", "< 3 %"},
	}
	for _, r := range rows {
		t.AddRow(r.Project, r.Criterion.Label(), r.Benchmarks, r.AATested, percent(r.NotDifferent),
			pm(r.ChangeMean, r.ChangeSD, pct), percent(r.Below1), percent(r.Below2), percent(r.Below3))
	}
	t.Notes = append(t.Notes, "not different: the hierarchical bootstrap CI of mean(dynamic)/mean(static) contains 1; change rate |ratio − 1|.")
	return t
}

// timeTable renders the rows as the paper's Table 3: per project and
// criterion the static and dynamic suite time, the time saved, the mean ±
// sd of warmup iterations per fork and of forks, and the shares that never
// became stable.
func timeTable(rows []SummaryRow) *reports.Table {
	t := &reports.Table{
		Title: "Time: dynamic reconfiguration against static configuration (Laaber et al. 2020, Table 3)",
		Columns: []string{"project", "criterion", "benchmarks", "short data", "static", "dynamic", "saved time", "saved",
			"warmup it. (mean ± sd)", "forks (mean ± sd)", "warmup never stable", "forks never stable"},
	}
	for _, r := range rows {
		t.AddRow(r.Project, r.Criterion.Label(), r.Benchmarks, r.Short, reports.Seconds(3600*r.StaticHours), reports.Seconds(3600*r.DynamicHours),
			reports.Seconds(3600*(r.StaticHours-r.DynamicHours)), percent(r.Saved), pm(r.WarmupMean, r.WarmupSD, num),
			pm(r.ForksMean, r.ForksSD, num), percent(r.WarmupNeverStable), percent(r.ForksNeverStable))
	}
	t.Notes = append(t.Notes, "short data: benchmarks with fewer forks or iterations than the configuration or the baseline asks for (replayed as far as the data go). "+
		"warmup never stable: share of forks whose warmup ran to wi_max (or to the end of short data); forks never stable: share of benchmarks that ran f_max forks (or all forks of short data) without the criterion becoming stable.")
	return t
}

// benchmarkTable renders one row per benchmark and criterion: warmup
// iterations per fork, forks used, stable or capped, the A/A ratio with its
// interval and the times.
func benchmarkTable(results []Result) *reports.Table {
	t := &reports.Table{
		Title: "Dynamic reconfiguration per benchmark",
		Columns: []string{"project", "version", "benchmark", "params", "mode", "iterations per fork (data)", "criterion", "warmup per fork", "warmup capped forks",
			"forks used", "forks", "ratio", "ratio low", "ratio high", "A/A", "change rate", "dynamic time", "static time", "short", "notes"},
	}
	for _, r := range results {
		k := r.Key
		if r.Skipped != "" {
			t.AddRow(k.Project, k.Version, k.Benchmark, k.Params, k.Mode, "", "", "", nil, nil, "skipped", nil, nil, nil, "", nil, nil, nil, nil,
				strings.Join(append([]string{"skipped: " + r.Skipped}, r.Warnings...), "; "))
			continue
		}
		data := make([]string, len(r.IterationsInData))
		for i, n := range r.IterationsInData {
			data[i] = strconv.Itoa(n)
		}
		for _, cr := range r.Criteria {
			warm := make([]string, len(cr.Forks))
			for i, f := range cr.Forks {
				warm[i] = strconv.Itoa(f.WarmupIterations)
				if !f.WarmupStable {
					warm[i] += "*"
				}
			}
			forks := "stable"
			if !cr.ForksStable {
				forks = "capped"
			}
			var ratio, lo, hi, change any
			aa := cr.AA.Reason
			if cr.AA.Available {
				ratio, lo, hi, change = cr.AA.Ratio.Ratio.Estimate, cr.AA.Ratio.Ratio.Lower, cr.AA.Ratio.Ratio.Upper, reports.Percent(cr.AA.ChangeRate)
				aa = "different"
				if cr.AA.NotDifferent {
					aa = "not different"
				}
			}
			t.AddRow(k.Project, k.Version, k.Benchmark, k.Params, k.Mode, strings.Join(data, " "), cr.Criterion.Label(), strings.Join(warm, " "), cr.WarmupCapped(),
				cr.forksUsed(), forks, ratio, lo, hi, aa, change, reports.Seconds(cr.DynamicSeconds), reports.Seconds(r.StaticSeconds),
				r.Short, strings.Join(r.Warnings, "; "))
		}
	}
	t.Notes = append(t.Notes, "warmup per fork: warmup iterations of each fork run; * marks a fork whose warmup never became stable (capped).")
	return t
}

// describe returns a one-line description of the options for table notes.
func describe(opt *Options) string {
	crit := make([]string, 0, 3)
	for _, c := range opt.criteria() {
		crit = append(crit, fmt.Sprintf("%s %g (overhead %g %%)", c.Label(), opt.Thresholds.of(c), 100*opt.Overheads.of(c)))
	}
	return fmt.Sprintf("configuration %s, s_W %d, fork window %d; %s; baseline %d+%d iterations × %d forks; seed %d",
		opt.Config, opt.Window, opt.forkWindow(), strings.Join(crit, ", "), opt.Baseline.Warmup, opt.Baseline.Measurement, opt.Baseline.Forks, opt.Seed)
}
