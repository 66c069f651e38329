package optimize

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/benchtrim/benchtrim/reports"
)

// NoResult explains why no benchmark run could be optimised and names the
// flag that changes it.
func (res *Report) NoResult() error {
	opt := res.Options
	if len(res.Skipped) == 0 {
		return fmt.Errorf("no benchmark run to optimise")
	}
	first := res.Skipped[0]
	msg := fmt.Sprintf("no result: all %d benchmark runs were skipped (first: %s: %s)", len(res.Skipped), first.Key, first.Reason)
	switch {
	case strings.Contains(first.Reason, "--discard-warmup") && opt.DiscardWarmup > 0:
		msg += fmt.Sprintf("; --discard-warmup %d drops every iteration: lower it", opt.DiscardWarmup)
	case strings.Contains(first.Reason, "--first"):
		msg += "; drop --first"
	}
	return errors.New(msg)
}

// writeText prints the short answer: the suite-wide time cut by
// the recommended metric (best) and how many benchmark runs keep
// their result, one line per metric, change detection across versions,
// and what was skipped.
func writeText(w io.Writer, res *Report, vr *VersionReport) {
	opt := res.Options
	sums := summarize(res.Results)
	totals := totals(sums)
	b := totals[best(totals)]
	sec := func(ns int64) string { return reports.Human(reports.Seconds(float64(ns) / 1e9)) }
	pct := func(x float64) string { return fmt.Sprintf("%.0f %%", 100*x) }
	fmt.Fprintf(w, "µOpTime: %s cuts %s of the suite's time (%s → %s);\n", b.metric, reports.Human(reports.Percent(b.saved)),
		sec(b.fullTimeNs), sec(b.timeNs))
	fmt.Fprintf(w, "%s / %s / %s of %d benchmark runs keep their result within 1 / 3 / 5 %%.\n",
		pct(b.within[0]), pct(b.within[1]), pct(b.within[2]), b.benchmarks)
	untimed := ""
	if opt.NoWarmupTime {
		untimed = "; warmup not timed"
	}
	fmt.Fprintf(w, "(threshold %g, %d resamples at %g, seed %d%s)\n", opt.Threshold, opt.Bootstrap.Resamples, opt.Bootstrap.Confidence, opt.Seed, untimed)
	fmt.Fprintln(w, "(trim saves less: these metrics pool every observation, blind to fork and instance variance)")
	if len(totals) > 1 {
		fmt.Fprintln(w)
		totalsTable(totals).WriteMarkdown(w)
		if b.within[2] >= goodShare {
			fmt.Fprintf(w, "%s is recommended: the largest saving with ≥ %.0f %% of runs within 5 %%.\n", b.metric, 100*goodShare)
		} else {
			fmt.Fprintf(w, "%s is recommended: no metric keeps %.0f %% of runs within 5 %%; it keeps the most.\n", b.metric, 100*goodShare)
		}
	}
	if vr != nil {
		for _, p := range vr.Totals {
			if p.Metric != b.metric || p.Method != MethodUOpTime {
				continue
			}
			vs := vr.Versions[p.Project]
			fmt.Fprintf(w, "%s %s … %s (%s): %d of %d changes found, %s in %d comparisons.\n",
				p.Project, vs[0], vs[len(vs)-1], p.Metric, p.TP, p.FullChanges, plural(p.FP, "false alarm"), p.Benchmarks)
		}
	}
	if n := len(res.Skipped); n > 0 {
		fmt.Fprintf(w, "skipped %d benchmark runs (first: %s: %s)\n", n, res.Skipped[0].Key, res.Skipped[0].Reason)
	}
	if n := len(res.Ragged); n > 0 {
		fmt.Fprintf(w, "%d benchmark runs miss observations (configurations use the values that exist)\n", n)
	}
	fmt.Fprintln(w, "--details prints the per-version tables; -o, --summary-out and --versions-out write the data.")
}

// writeDetails prints the Markdown report: time saving, baselines,
// the metric comparison, the version comparison, ragged and skipped series.
func writeDetails(w io.Writer, res *Report, vr *VersionReport) error {
	opt := res.Options
	names := make([]string, len(opt.Metrics))
	for i, m := range opt.Metrics {
		names[i] = m.String()
	}
	fmt.Fprintf(w, "# µOpTime: %d benchmark runs, metrics %s, threshold %g, %d resamples at %g, seed %d\n\n",
		len(res.Results)/len(opt.Metrics), strings.Join(names, ", "), opt.Threshold, opt.Bootstrap.Resamples, opt.Bootstrap.Confidence, opt.Seed)
	sums := summarize(res.Results)
	if err := timeSavingTable(sums).WriteMarkdown(w); err != nil {
		return err
	}
	fmt.Fprintln(w)
	if err := baselineTable(sums).WriteMarkdown(w); err != nil {
		return err
	}
	if len(opt.Metrics) > 1 {
		cmp, err := compareMetrics(res.Results, 0)
		if err != nil {
			return err
		}
		if len(cmp) > 0 {
			fmt.Fprintln(w)
			if err := metricComparisonTable(cmp).WriteMarkdown(w); err != nil {
				return err
			}
		}
	}
	if vr != nil {
		fmt.Fprintln(w)
		if err := versionTable(vr, len(vr.Pairs) <= 60).WriteMarkdown(w); err != nil {
			return err
		}
		for _, n := range vr.Notes {
			fmt.Fprintf(w, "- %s\n", n)
		}
	}
	if len(res.Ragged) > 0 {
		fmt.Fprintf(w, "\nRagged data (configurations use the values that exist): %d benchmark runs\n", len(res.Ragged))
		for _, r := range res.Ragged {
			fmt.Fprintf(w, "- %s: %d of %d observations missing\n", r.Key, r.Missing, r.Expected)
		}
	}
	if len(res.Skipped) > 0 {
		fmt.Fprintf(w, "\nSkipped benchmark runs: %d\n", len(res.Skipped))
		for _, s := range res.Skipped {
			fmt.Fprintf(w, "- %s (%d rows): %s\n", s.Key, s.Rows, s.Reason)
		}
	}
	if res.Excluded > 0 {
		fmt.Fprintf(w, "\n%d observations excluded on purpose by --first / --discard-warmup.\n", res.Excluded)
	}
	for _, wn := range res.Warnings {
		fmt.Fprintf(w, "\nwarning: %s\n", wn)
	}
	return nil
}

// toRun returns the results whose configurations a CI should run: all of
// them, or in forward mode (vr not nil) those of each project's base
// version, whose configurations are applied to the later versions.
func toRun(res *Report, vr *VersionReport) []Result {
	if vr == nil {
		return res.Results
	}
	var chosen []Result
	for _, r := range res.Results {
		if vs := vr.Versions[r.Key.Project]; len(vs) > 0 && vs[0] == r.Key.Version {
			chosen = append(chosen, r)
		}
	}
	return chosen
}

// plural is "1 thing" or "n things".
func plural(n int, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	return fmt.Sprintf("%d %ss", n, thing)
}
