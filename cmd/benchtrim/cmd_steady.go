package main

import (
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/benchtrim/benchtrim/analysis/steady"
	"github.com/benchtrim/benchtrim/changepoint"
	"github.com/benchtrim/benchtrim/cmd/benchtrim/internal/cliapp"
	"github.com/benchtrim/benchtrim/table"
)

func steadyCommand() *cli.Command {
	opt := steady.DefaultOptions
	return command("steady", "FILES...", "steady state per fork and benchmark; evaluate configurations against it", func(c *cli.Context) error { return runSteady(c, opt) },
		cliapp.Group("Steady-state detection",
			&cli.StringFlag{Name: "penalty", Value: "crops", Usage: "PELT penalty: crops (CROPS + Kneedle, Traini's protocol), crops-ascending (textbook Kneedle curve), 15log (Barrett) or a number"},
			&cli.StringFlag{Name: "pen-range", Usage: "CROPS penalty range `a,b` (default 4·log n, 1e5·log n per series)"},
			&cli.StringFlag{Name: "steady-window", Value: "auto", Usage: "a fork is steady when its steady part covers at least its last N iterations; auto: a sixth of each run's longest fork, 5 to 500"},
			&cli.StringFlag{Name: "equivalence", Value: "traini", Usage: "segment equivalence: traini (CI of the ratio of means not wholly beyond ±threshold), traini-strict (CI wholly within), barrett"},
			&cli.Float64Flag{Name: "threshold", Destination: &opt.Threshold, Value: steady.DefaultOptions.Threshold, Usage: "relative threshold of the traini rules"},
			&cli.StringFlag{Name: "barrett-delta", Value: steady.DefaultOptions.BarrettDelta.String(), Usage: "δ of the barrett rule: seconds, or a percentage of the fastest segment (1%)"},
			&cli.IntFlag{Name: "resamples", Destination: &opt.Bootstrap.Resamples, Value: steady.DefaultOptions.Bootstrap.Resamples, Usage: "bootstrap resamples (equivalence and RPD)"},
			&cli.Float64Flag{Name: "confidence", Destination: &opt.Bootstrap.Confidence, Value: steady.DefaultOptions.Bootstrap.Confidence, Usage: "bootstrap confidence level"},
			&cli.IntFlag{Name: "outlier-window", Destination: &opt.Outliers.Window, Value: steady.DefaultOptions.Outliers.Window, Usage: "sliding window of the outlier rule"},
			&cli.BoolFlag{Name: "no-outliers", Destination: &opt.Outliers.Disabled, Usage: "do not remove outliers"},
		),
		cliapp.Group("Evaluated configuration",
			&cli.IntFlag{Name: "wi", Value: -1, Usage: "warmup iterations of the evaluated configuration (default: the recorded setup's)"},
			&cli.DurationFlag{Name: "w", Usage: "warmup iteration time, e.g. 10s (default: the setup's)"},
			&cli.IntFlag{Name: "i", Value: -1, Usage: "measurement iterations (default: the setup's)"},
			&cli.DurationFlag{Name: "r", Usage: "measurement iteration time (default: the setup's)"},
			&cli.IntFlag{Name: "f", Value: -1, Usage: "forks (default: the setup's)"},
			&cli.StringFlag{Name: "configs", Usage: "dynamic configurations `CSV` (benchtrim reconfigure); one set per criterion"},
		),
		cliapp.Group("Selection", cliapp.BenchFlag()),
		cliapp.Group("Input", cliapp.InputFlags()...),
		cliapp.Group("Output",
			&cli.BoolFlag{Name: "details", Usage: "print the per-benchmark table, the full evaluation and the comparison of configuration sets"},
			&cli.StringFlag{Name: "forks-out", Usage: "per-fork results `FILE` (.csv, .arrow or .parquet)"},
			&cli.StringFlag{Name: "benchmarks-out", Usage: "per-benchmark results `FILE` (.csv, .arrow or .parquet)"},
			&cli.StringFlag{Name: "eval-out", Usage: "per-fork evaluation `FILE` (.csv, .arrow or .parquet; per-benchmark RPDs go to NAME.benchmarks.EXT next to it)"},
			&cli.StringFlag{Name: "plots", Usage: "write plots (series with segments and st; CROPS curves) into `DIR`"},
			&cli.StringFlag{Name: "plot-format", Value: "svg", Usage: "plot format: svg or png"},
			&cli.IntFlag{Name: "plot-max", Value: steadyOutputs.PlotMax, Usage: "plot at most this many benchmark runs (all their forks)"},
		),
		cliapp.ScaleOutFlags(),
	)
}

// steadyOptions completes opt, which the flags wrote (Destination), with
// the flags that need parsing.
func steadyOptions(c *cli.Context, opt steady.Options) (steady.Options, error) {
	if err := steadyPenalty(c, &opt); err != nil {
		return opt, err
	}
	var err error
	if opt.SteadyWindow, err = steady.ParseWindow(c.String("steady-window")); err != nil {
		return opt, cliapp.Usagef("steady", "--steady-window %v", err)
	}
	if opt.Equivalence, err = steady.ParseEquivalence(c.String("equivalence")); err != nil {
		return opt, fmt.Errorf("--equivalence: %w", err)
	}
	if opt.BarrettDelta, err = steady.ParseBarrettDelta(c.String("barrett-delta")); err != nil {
		return opt, fmt.Errorf("--barrett-delta: %w", err)
	}
	if opt.Select, opt.Seed, opt.Workers, err = cliapp.Selected(c); err != nil {
		return opt, err
	}
	if opt.Configs, err = steadyConfigs(c); err != nil {
		return opt, err
	}
	if c.String("plots") != "" || c.String("partial-out") != "" {
		opt.KeepValues, opt.KeepCROPS = true, true
		if f := c.String("plot-format"); f != "svg" && f != "png" {
			return opt, fmt.Errorf("--plot-format %q: want svg or png", f)
		}
	}
	return opt, opt.Validate()
}

// steadyPenalty reads --penalty and --pen-range (changepoint.ParsePenalty).
func steadyPenalty(c *cli.Context, opt *steady.Options) error {
	pen, err := changepoint.ParsePenalty(c.String("penalty"))
	if err != nil {
		return fmt.Errorf("--penalty: %w", err)
	}
	opt.Penalty, opt.PenaltyValue = pen.Rule, pen.Manual
	if r := c.String("pen-range"); r != "" {
		if opt.Penalty != steady.PenaltyCROPS && opt.Penalty != steady.PenaltyCROPSAscending {
			return fmt.Errorf("--pen-range applies to --penalty crops or crops-ascending, not %s", c.String("penalty"))
		}
		if opt.PenRange, err = changepoint.ParsePenaltyRange(r); err != nil {
			return fmt.Errorf("--pen-range: %w", err)
		}
	}
	return nil
}

// steadyConfigs are the configuration sets to evaluate
// (steady.ConfigSets): the recorded setup with --wi --w --i --r --f
// replacing its values (their ranges are checked as flags), then one set
// per criterion of --configs.
func steadyConfigs(c *cli.Context) ([]steady.ConfigSet, error) {
	var ov steady.Override
	for name, dst := range map[string]**int{"wi": &ov.WarmupIterations, "i": &ov.MeasurementIterations, "f": &ov.Forks} {
		if v := c.Int(name); c.IsSet(name) {
			*dst = &v
		}
	}
	for name, dst := range map[string]**int64{"w": &ov.WarmupTimeNs, "r": &ov.MeasurementTimeNs} {
		if v := c.Duration(name).Nanoseconds(); c.IsSet(name) {
			*dst = &v
		}
	}
	return steady.ConfigSets(ov, c.String("configs"))
}

// steadyOutputs is what steady writes from its report, for steady and
// merge.
var steadyOutputs = &cliapp.Outputs[steady.Report, *steady.Report]{
	Command:     "steady",
	OutputFlags: []string{"details", "forks-out", "benchmarks-out", "eval-out", "plots", "plot-format", "plot-max"},
	Data: []cliapp.DataOut{{Flag: "forks-out", Frame: steady.FrameForks}, {Flag: "benchmarks-out", Frame: steady.FrameBenchmarks},
		{Flag: "eval-out", Frame: steady.FrameEvaluation}, {Flag: "eval-out", Frame: steady.FrameBenchmarkEvaluations, Path: steady.EvaluationSidecar}},
	Details:    (*steady.Report).WriteDetails,
	Plots:      (*steady.Report).WritePlots,
	PlotMax:    20,
	KeepsPlots: true,
	Merge:      steady.Merge,
}

func runSteady(c *cli.Context, opt steady.Options) error {
	opt, err := steadyOptions(c, opt)
	if err != nil {
		return err
	}
	inputs := c.Args().Slice()
	if p := c.String("configs"); p != "" {
		inputs = append(inputs, p)
	}
	return steadyOutputs.Run(c, opt.Select, inputs, &steady.Report{Options: opt},
		func(t *table.Table, all []table.Key, progress func(int)) (*steady.Report, error) {
			opt.Progress = progress
			r, err := steady.Run(t, opt)
			if err == nil {
				r.DropPlotData(c.Int("plot-max"))
			}
			return r, err
		})
}
