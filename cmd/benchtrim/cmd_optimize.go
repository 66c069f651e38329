package main

import (
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/benchtrim/benchtrim/analysis/optimize"
	"github.com/benchtrim/benchtrim/cmd/benchtrim/internal/cliapp"
	"github.com/benchtrim/benchtrim/estimate"
	"github.com/benchtrim/benchtrim/table"
)

func optimizeCommand() *cli.Command {
	opt := optimize.DefaultOptions
	return command("optimize", "FILES...", "µOpTime: the cheapest stable configuration of every benchmark", func(c *cli.Context) error { return runOptimize(c, opt) },
		cliapp.Group("Method",
			&cli.StringFlag{Name: "metric", Value: "all", Usage: "stability metrics, comma-separated: cv, rmad, rciw-mean, rciw-mean-t, rciw-median, or all"},
			&cli.Float64Flag{Name: "threshold", Destination: &opt.Threshold, Value: optimize.DefaultOptions.Threshold, Usage: "a configuration is stable when its metric is below this"},
			&cli.Float64Flag{Name: "confidence", Destination: &opt.Bootstrap.Confidence, Value: estimate.DefaultBootstrap.Confidence, Usage: "confidence level of bootstrap CIs"},
			&cli.IntFlag{Name: "resamples", Destination: &opt.Bootstrap.Resamples, Value: estimate.DefaultBootstrap.Resamples, Usage: "bootstrap resamples"},
			&cli.IntFlag{Name: "min-repetitions", Destination: &opt.MinRepetitions, Value: optimize.DefaultOptions.MinRepetitions, Usage: "skip configurations with fewer repetitions (instance × trial × fork × iteration units)"},
			&cli.StringSliceFlag{Name: "fixed", Usage: "keep LEVEL at its full size (instance, trial, fork, iteration, slice; repeatable or comma list)"},
			&cli.StringSliceFlag{Name: "first", Usage: "use only the first unit of LEVEL (the published prototype used --first instance on Go data)"},
			&cli.StringFlag{Name: "parallel", Value: "instance", Usage: "levels that run side by side and add no time (comma list of instance, trial, fork; \"\" for none)"},
			&cli.IntFlag{Name: "discard-warmup", Destination: &opt.DiscardWarmup, Usage: "drop the first N iterations of every fork and count their time as warmup"},
			&cli.BoolFlag{Name: "no-warmup-time", Destination: &opt.NoWarmupTime, Usage: "count no time for warmup in the execution time (the published prototype's JMH optimizer)"},
			&cli.BoolFlag{Name: "all-configs", Destination: &opt.AllConfigs, Usage: "evaluate every configuration (metric and CI) and write them all to -o"},
		),
		cliapp.Group("Versions",
			&cli.StringFlag{Name: "base-version", Destination: &opt.Versions.Base, Usage: "version whose configurations are applied to later versions (default: the first)"},
			&cli.StringFlag{Name: "versions", Usage: "release order of the versions, comma-separated (default: natural order of the labels)"},
			&cli.BoolFlag{Name: "slowdowns-only", Destination: &opt.Versions.SlowdownsOnly, Usage: "count only slowdowns as performance changes (as the published prototype)"},
			&cli.Float64Flag{Name: "min-change", Destination: &opt.Versions.MinChange, Value: optimize.DefaultOptions.Versions.MinChange, Usage: "smallest relative change of the average that counts as a performance change"},
		),
		cliapp.Group("Selection", cliapp.BenchFlag()),
		cliapp.Group("Input", cliapp.InputFlags()...),
		cliapp.Group("Output",
			&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Usage: "per-benchmark results: FILE.csv, FILE.arrow or FILE.parquet"},
			&cli.StringFlag{Name: "summary-out", Usage: "per-project summary: FILE.csv, .arrow or .parquet"},
			&cli.StringFlag{Name: "versions-out", Usage: "version comparison: FILE.csv, .arrow or .parquet"},
			&cli.StringFlag{Name: "commands-out", Usage: "shell script running the reduced configurations (go test / JMH command lines)"},
			&cli.BoolFlag{Name: "details", Usage: "print the per-version tables (time saving, baselines, metric tests, change detection) after the summary"},
		),
		cliapp.ScaleOutFlags(),
	)
}

// optimizeOptions completes opt, which the flags wrote (Destination),
// with the flags that need parsing.
func optimizeOptions(c *cli.Context, opt optimize.Options) (optimize.Options, error) {
	var err error
	if opt.Metrics, err = optimize.ParseMetrics(c.String("metric")); err != nil {
		return opt, err
	}
	if opt.Fixed, err = optimize.ParseLevels(strings.Join(c.StringSlice("fixed"), ",")); err != nil {
		return opt, err
	}
	if opt.First, err = optimize.ParseLevels(strings.Join(c.StringSlice("first"), ",")); err != nil {
		return opt, err
	}
	if opt.Parallel, err = optimize.ParseLevels(c.String("parallel")); err != nil {
		return opt, err
	}
	if opt.Select, opt.Seed, opt.Workers, err = cliapp.Selected(c); err != nil {
		return opt, err
	}
	opt.Versions.Order = optimize.ParseVersions(c.String("versions"))
	return opt, opt.Validate()
}

// optimizeOutputs is what optimize writes from its report, for optimize
// and merge.
var optimizeOutputs = &cliapp.Outputs[optimize.Report, *optimize.Report]{
	Command:     "optimize",
	OutputFlags: []string{"output", "summary-out", "versions-out", "commands-out", "details"},
	Data: []cliapp.DataOut{{Flag: "output", Frame: optimize.FrameResults}, {Flag: "summary-out", Frame: optimize.FrameSummary},
		{Flag: "versions-out", Frame: optimize.FrameVersions}},
	Text:    []cliapp.TextOf[optimize.Report]{{Flag: "commands-out", Write: (*optimize.Report).WriteScript}},
	Details: (*optimize.Report).WriteDetails,
	Check: func(r *optimize.Report, _ table.Filter) error {
		if len(r.Results) == 0 {
			return r.NoResult() // a shard whose benchmark runs were all skipped
		}
		return nil
	},
	Merge: optimize.Merge,
}

func runOptimize(c *cli.Context, opt optimize.Options) error {
	opt, err := optimizeOptions(c, opt)
	if err != nil {
		return err
	}
	// Of the outputs only these (and a partial merged into them) show the reported CIs.
	opt.NoReportedCIs = !cliapp.AnySet(c, "output", "summary-out", "versions-out", "partial-out")
	return optimizeOutputs.Run(c, opt.Select, c.Args().Slice(), &optimize.Report{Options: opt},
		func(t *table.Table, all []table.Key, progress func(int)) (*optimize.Report, error) {
			opt.Progress, opt.AllRuns = progress, all
			return optimize.Run(t, opt)
		})
}
