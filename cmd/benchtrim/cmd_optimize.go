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
	return command("optimize", "FILES...", "µOpTime: the cheapest stable configuration of every benchmark", runOptimize,
		cliapp.Group("Method",
			&cli.StringFlag{Name: "metric", Value: "all", Usage: "stability metrics, comma-separated: cv, rmad, rciw-mean, rciw-mean-t, rciw-median, or all"},
			&cli.Float64Flag{Name: "threshold", Value: optimize.DefaultOptions.Threshold, Usage: "a configuration is stable when its metric is below this"},
			&cli.Float64Flag{Name: "confidence", Value: estimate.DefaultBootstrap.Confidence, Usage: "confidence level of bootstrap CIs"},
			&cli.IntFlag{Name: "resamples", Value: estimate.DefaultBootstrap.Resamples, Usage: "bootstrap resamples"},
			&cli.IntFlag{Name: "min-repetitions", Value: optimize.DefaultOptions.MinRepetitions, Usage: "skip configurations with fewer repetitions (instance × trial × fork × iteration units)"},
			&cli.StringSliceFlag{Name: "fixed", Usage: "keep LEVEL at its full size (instance, trial, fork, iteration, slice; repeatable or comma list)"},
			&cli.StringSliceFlag{Name: "first", Usage: "use only the first unit of LEVEL (the published prototype used --first instance on Go data)"},
			&cli.StringFlag{Name: "parallel", Value: "instance", Usage: "levels that run side by side and add no time (comma list of instance, trial, fork; \"\" for none)"},
			&cli.IntFlag{Name: "discard-warmup", Usage: "drop the first N iterations of every fork and count their time as warmup"},
			&cli.BoolFlag{Name: "all-configs", Usage: "evaluate every configuration (metric and CI) and write them all to -o"},
		),
		cliapp.Group("Versions",
			&cli.StringFlag{Name: "base-version", Usage: "version whose configurations are applied to later versions (default: the first)"},
			&cli.StringFlag{Name: "versions", Usage: "release order of the versions, comma-separated (default: natural order of the labels)"},
			&cli.BoolFlag{Name: "slowdowns-only", Usage: "count only slowdowns as performance changes (as the published prototype)"},
			&cli.Float64Flag{Name: "min-change", Value: optimize.DefaultVersionOptions.MinChange, Usage: "smallest relative change of the average that counts as a performance change"},
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

// optimizeOptions reads the command's flags into optimize options.
func optimizeOptions(c *cli.Context) (optimize.Options, error) {
	opt := optimize.DefaultOptions
	var err error
	if opt.Metrics, err = optimize.ParseMetrics(c.String("metric")); err != nil {
		return opt, err
	}
	opt.Threshold = c.Float64("threshold")
	opt.Bootstrap = estimate.BootstrapOptions{Resamples: c.Int("resamples"), Confidence: c.Float64("confidence")}
	opt.MinRepetitions = c.Int("min-repetitions")
	if opt.Fixed, err = optimize.ParseLevels(strings.Join(c.StringSlice("fixed"), ",")); err != nil {
		return opt, err
	}
	if opt.First, err = optimize.ParseLevels(strings.Join(c.StringSlice("first"), ",")); err != nil {
		return opt, err
	}
	if opt.Parallel, err = optimize.ParseLevels(c.String("parallel")); err != nil {
		return opt, err
	}
	opt.DiscardWarmup = c.Int("discard-warmup")
	opt.AllConfigs = c.Bool("all-configs")
	if opt.Select, opt.Seed, opt.Workers, err = cliapp.Selected(c); err != nil {
		return opt, err
	}
	opt.Versions.Base = c.String("base-version")
	if v := c.String("versions"); v != "" {
		for _, s := range strings.Split(v, ",") {
			opt.Versions.Order = append(opt.Versions.Order, strings.TrimSpace(s))
		}
	}
	opt.Versions.SlowdownsOnly = c.Bool("slowdowns-only")
	opt.Versions.MinChange = c.Float64("min-change")
	return opt, opt.Validate()
}

// optimizeAnalyzer is what optimize writes from its report, for optimize
// and merge.
var optimizeAnalyzer = &cliapp.Analyzer[optimize.Report]{
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

func runOptimize(c *cli.Context) error {
	opt, err := optimizeOptions(c)
	if err != nil {
		return err
	}
	return optimizeAnalyzer.Run(c, opt.Select, c.Args().Slice(), &optimize.Report{Options: opt},
		func(t *table.Table, all []table.Key, progress func(int)) (*optimize.Report, error) {
			opt.Progress, opt.AllRuns = progress, all
			return optimize.Run(t, opt)
		})
}
