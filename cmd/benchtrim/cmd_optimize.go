package main

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/benchtrim/benchtrim/analysis/optimize"
	"github.com/benchtrim/benchtrim/internal/atomicfile"
	"github.com/benchtrim/benchtrim/internal/outpath"
	"github.com/benchtrim/benchtrim/internal/progress"
	"github.com/benchtrim/benchtrim/internal/stats"
	"github.com/benchtrim/benchtrim/reports"
	"github.com/benchtrim/benchtrim/table"
)

func optimizeCommand() *cli.Command {
	return &cli.Command{
		Name:      "optimize",
		Usage:     "µOpTime: the cheapest stable configuration of every benchmark",
		ArgsUsage: "FILES...",
		Description: "Simulates every smaller configuration of each benchmark's recorded run (keeping the first k units of each\n" +
			"repetition level), keeps those whose stability metric is below --threshold and chooses the cheapest\n" +
			"(Japke, Grambow, Laaber, Bermbach, TOSEM 2025). With several versions of a project, the configurations\n" +
			"of the base version are applied to the later ones and their change detection is compared with the full\n" +
			"configurations'. Prints Markdown tables on stdout; see -o, --summary-out, --versions-out, --commands-out.",
		Flags: append(inputFlags(),
			&cli.StringFlag{Name: "metric", Value: "all", Usage: "stability metrics, comma-separated: cv, rmad, rciw-mean, rciw-mean-t, rciw-median, or all"},
			&cli.Float64Flag{Name: "threshold", Value: optimize.DefaultOptions.Threshold, Usage: "a configuration is stable when its metric is below this"},
			&cli.Float64Flag{Name: "confidence", Value: stats.DefaultBootstrap.Confidence, Usage: "confidence level of bootstrap CIs"},
			&cli.IntFlag{Name: "resamples", Value: stats.DefaultBootstrap.Resamples, Usage: "bootstrap resamples"},
			&cli.IntFlag{Name: "min-repetitions", Value: optimize.DefaultOptions.MinRepetitions, Usage: "skip configurations with fewer repetitions (instance × trial × fork × iteration units)"},
			&cli.StringSliceFlag{Name: "fixed", Usage: "keep LEVEL at its full size (instance, trial, fork, iteration, slice; repeatable or comma list)"},
			&cli.StringSliceFlag{Name: "first", Usage: "use only the first unit of LEVEL (the published prototype used --first instance on Go data)"},
			&cli.StringFlag{Name: "parallel", Value: "instance", Usage: "levels that run side by side and add no time (comma list of instance, trial, fork; \"\" for none)"},
			&cli.IntFlag{Name: "discard-warmup", Usage: "drop the first N iterations of every fork and count their time as warmup"},
			&cli.BoolFlag{Name: "all-configs", Usage: "evaluate every configuration (metric and CI) and write them all to -o"},
			benchFlag(),
			&cli.StringFlag{Name: "base-version", Usage: "version whose configurations are applied to later versions (default: the first)"},
			&cli.StringFlag{Name: "versions", Usage: "release order of the versions, comma-separated (default: natural order of the labels)"},
			&cli.BoolFlag{Name: "slowdowns-only", Usage: "count only slowdowns as performance changes (as the published prototype)"},
			&cli.Float64Flag{Name: "min-change", Value: optimize.DefaultVersionOptions.MinChange, Usage: "smallest relative change of the average that counts as a performance change"},
			&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Usage: "per-benchmark results: FILE.csv, FILE.arrow or FILE.parquet"},
			&cli.StringFlag{Name: "summary-out", Usage: "per-project summary: FILE.csv, .arrow or .parquet"},
			&cli.StringFlag{Name: "versions-out", Usage: "version comparison: FILE.csv, .arrow or .parquet"},
			&cli.StringFlag{Name: "commands-out", Usage: "shell script running the reduced configurations (go test / JMH command lines)"},
			&cli.BoolFlag{Name: "details", Usage: "print the per-version tables (time saving, baselines, metric tests, change detection) after the summary"},
		),
		Action: runOptimize,
	}
}

// optimizeOptions reads the command's flags into optimize options.
func optimizeOptions(c *cli.Context) (optimize.Options, optimize.VersionOptions, error) {
	g := globalsOf(c)
	opt := optimize.DefaultOptions
	vopt := optimize.DefaultVersionOptions
	var err error
	if opt.Metrics, err = optimize.ParseMetrics(c.String("metric")); err != nil {
		return opt, vopt, err
	}
	opt.Threshold = c.Float64("threshold")
	opt.Bootstrap = stats.BootstrapOptions{Resamples: c.Int("resamples"), Confidence: c.Float64("confidence")}
	opt.MinRepetitions = c.Int("min-repetitions")
	if opt.Fixed, err = optimize.ParseLevels(strings.Join(c.StringSlice("fixed"), ",")); err != nil {
		return opt, vopt, err
	}
	if opt.First, err = optimize.ParseLevels(strings.Join(c.StringSlice("first"), ",")); err != nil {
		return opt, vopt, err
	}
	if opt.Parallel, err = optimize.ParseLevels(c.String("parallel")); err != nil {
		return opt, vopt, err
	}
	opt.DiscardWarmup = c.Int("discard-warmup")
	opt.AllConfigs = c.Bool("all-configs")
	opt.Seed = g.Seed
	opt.Workers = g.Workers
	if err := opt.Validate(); err != nil {
		return opt, vopt, err
	}
	vopt.Base = c.String("base-version")
	if v := c.String("versions"); v != "" {
		for _, s := range strings.Split(v, ",") {
			vopt.Order = append(vopt.Order, strings.TrimSpace(s))
		}
	}
	vopt.SlowdownsOnly = c.Bool("slowdowns-only")
	vopt.MinChange = c.Float64("min-change")
	return opt, vopt, nil
}

func runOptimize(c *cli.Context) error {
	opt, vopt, err := optimizeOptions(c)
	if err != nil {
		return err
	}
	err = checkOutputs(c.Args().Slice(), output(c, "output", outpath.Data), output(c, "summary-out", outpath.Data),
		output(c, "versions-out", outpath.Data), output(c, "commands-out", outpath.Text))
	if err != nil {
		return err
	}
	t, series, err := loadSeries(c)
	if err != nil {
		return err
	}
	defer t.Release()
	w, errw := c.App.Writer, c.App.ErrWriter
	g := globalsOf(c)
	bar := progress.New(errw, g.Quiet, "optimize", len(series)*len(opt.Metrics))
	opt.Progress = bar.Add
	res, err := optimize.Optimize(series, opt)
	bar.Done()
	if err != nil {
		return err
	}
	var vr *optimize.VersionReport
	if multipleVersions(series) {
		if vr, err = optimize.CompareVersions(series, res, vopt); err != nil {
			return err
		}
	} else if vopt.Base != "" {
		return fmt.Errorf("--base-version %s: the input holds one version per project; nothing to compare", vopt.Base)
	}
	if len(res.Results) == 0 {
		return noOptimizeResult(res, opt)
	}
	writeOptimizeSummary(w, res, vr, opt)
	if c.Bool("details") {
		fmt.Fprintln(w)
		if err := writeOptimizeReport(w, res, vr, opt); err != nil {
			return err
		}
	}
	sums := optimize.Summarize(res.Results)
	if out := c.String("output"); out != "" {
		if err := optimize.WriteResults(out, res); err != nil {
			return err
		}
		fmt.Fprintf(w, "\nwrote %s\n", out)
	}
	if out := c.String("summary-out"); out != "" {
		if err := optimize.WriteSummary(out, sums); err != nil {
			return err
		}
		fmt.Fprintf(w, "wrote %s\n", out)
	}
	if out := c.String("versions-out"); out != "" {
		if vr == nil {
			return fmt.Errorf("--versions-out: the input holds one version per project; nothing to compare")
		}
		if err := optimize.WriteVersions(out, vr); err != nil {
			return err
		}
		fmt.Fprintf(w, "wrote %s\n", out)
	}
	if out := c.String("commands-out"); out != "" {
		chosen := res.Results
		if vr != nil { // forward mode: the base version's configurations are the ones to run
			chosen = nil
			for _, r := range res.Results {
				if vs := vr.Versions[r.Key.Project]; len(vs) > 0 && vs[0] == r.Key.Version {
					chosen = append(chosen, r)
				}
			}
		}
		err := atomicfile.Write(out, func(f io.Writer) error { return optimize.WriteScript(f, chosen, opt.Metrics) })
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "wrote %s\n", out)
	}
	return nil
}

// multipleVersions reports whether some project has more than one version.
func multipleVersions(series []*table.Series) bool {
	seen := map[string]string{}
	for _, s := range series {
		if v, ok := seen[s.Project]; ok && v != s.Version {
			return true
		}
		seen[s.Project] = s.Version
	}
	return false
}

// noOptimizeResult explains why no benchmark run could be optimised and
// names the flag that changes it.
func noOptimizeResult(res *optimize.Report, opt optimize.Options) error {
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

// writeOptimizeSummary prints the short answer: the suite-wide time cut by
// the recommended metric (optimize.Best) and how many benchmark runs keep
// their result, one line per metric, change detection across versions,
// and what was skipped.
func writeOptimizeSummary(w io.Writer, res *optimize.Report, vr *optimize.VersionReport, opt optimize.Options) {
	sums := optimize.Summarize(res.Results)
	totals := optimize.Totals(sums)
	b := totals[optimize.Best(totals)]
	sec := func(ns int64) string { return reports.Human(reports.Seconds(float64(ns) / 1e9)) }
	pct := func(x float64) string { return fmt.Sprintf("%.0f %%", 100*x) }
	fmt.Fprintf(w, "µOpTime: %s cuts %s of the suite's time (%s → %s);\n", b.Metric, reports.Human(reports.Percent(b.Saved)),
		sec(b.FullTimeNs), sec(b.TimeNs))
	fmt.Fprintf(w, "%s / %s / %s of %d benchmark runs keep their result within 1 / 3 / 5 %%.\n",
		pct(b.Within[0]), pct(b.Within[1]), pct(b.Within[2]), b.Benchmarks)
	fmt.Fprintf(w, "(threshold %g, %d resamples at %g, seed %d)\n", opt.Threshold, opt.Bootstrap.Resamples, opt.Bootstrap.Confidence, opt.Seed)
	if len(totals) > 1 {
		fmt.Fprintln(w)
		optimize.TotalsTable(totals).WriteMarkdown(w)
		fmt.Fprintf(w, "%s is recommended: the largest saving with ≥ %.0f %% of runs within 5 %%.\n", b.Metric, 100*optimize.GoodShare)
	}
	if vr != nil {
		for _, p := range vr.Totals {
			if p.Metric != b.Metric || p.Method != optimize.MethodUOpTime {
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

// writeOptimizeReport prints the Markdown report: time saving, baselines,
// the metric comparison, the version comparison, ragged and skipped series.
func writeOptimizeReport(w io.Writer, res *optimize.Report, vr *optimize.VersionReport, opt optimize.Options) error {
	names := make([]string, len(opt.Metrics))
	for i, m := range opt.Metrics {
		names[i] = m.String()
	}
	fmt.Fprintf(w, "# µOpTime: %d benchmark runs, metrics %s, threshold %g, %d resamples at %g, seed %d\n\n",
		len(res.Results)/len(opt.Metrics), strings.Join(names, ", "), opt.Threshold, opt.Bootstrap.Resamples, opt.Bootstrap.Confidence, opt.Seed)
	sums := optimize.Summarize(res.Results)
	if err := optimize.TimeSavingTable(sums).WriteMarkdown(w); err != nil {
		return err
	}
	fmt.Fprintln(w)
	if err := optimize.BaselineTable(sums).WriteMarkdown(w); err != nil {
		return err
	}
	if len(opt.Metrics) > 1 {
		cmp, err := optimize.CompareMetrics(res.Results, 0)
		if err != nil {
			return err
		}
		if len(cmp) > 0 {
			fmt.Fprintln(w)
			if err := optimize.MetricComparisonTable(cmp).WriteMarkdown(w); err != nil {
				return err
			}
		}
	}
	if vr != nil {
		fmt.Fprintln(w)
		if err := optimize.VersionTable(vr, len(vr.Pairs) <= 60).WriteMarkdown(w); err != nil {
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

// demoOptimize runs µOpTime on the demo's three µOpTime Go versions (all
// metrics, change detection across versions, reduced commands) and on the
// JMH avgt file recorded with -wi 0 (discarding the first 50 iterations).
func demoOptimize(d *demoRun) error {
	files := d.FilesMatching("uoptime-")
	if len(files) == 0 {
		return fmt.Errorf("demo: no µOpTime files")
	}
	args := []string{"optimize", "--metric", "all",
		"-o", d.Out("optimize.csv"), "--summary-out", d.Out("optimize-summary.csv"),
		"--versions-out", d.Out("optimize-versions.csv"), "--commands-out", d.Out("optimize-go.sh")}
	if err := d.Run(append(args, files...)...); err != nil {
		return err
	}
	jmh, err := d.File("jmh-avgt")
	if err != nil {
		return err
	}
	return d.Run("optimize", "--metric", "rmad,rciw-mean", "--discard-warmup", "50",
		"--commands-out", d.Out("optimize-jmh.sh"), jmh)
}

// plural is "1 thing" or "n things".
func plural(n int, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	return fmt.Sprintf("%d %ss", n, thing)
}
