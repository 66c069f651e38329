package main

import (
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/benchtrim/benchtrim/analysis/reconfigure"
	"github.com/benchtrim/benchtrim/cmd/benchtrim/internal/cliapp"
	"github.com/benchtrim/benchtrim/table"
)

func reconfigureCommand() *cli.Command {
	opt := reconfigure.DefaultOptions
	return command("reconfigure", "FILES...", "replay dynamic reconfiguration: result quality and time saved", func(c *cli.Context) error { return runReconfigure(c, opt) },
		cliapp.Group("Criteria",
			&cli.StringFlag{Name: "criteria", Value: "cv,rciw,kld", Usage: "stoppage criteria to replay, comma-separated"},
			&cli.IntFlag{Name: "wi-min", Destination: &opt.Config.WarmupMin, Value: opt.Config.WarmupMin, Usage: "minimum warmup iterations per fork (wi_min)"},
			&cli.IntFlag{Name: "wi-max", Destination: &opt.Config.WarmupMax, Value: opt.Config.WarmupMax, Usage: "maximum warmup iterations per fork (wi_max)"},
			&cli.IntFlag{Name: "mi", Destination: &opt.Config.Measurement, Value: opt.Config.Measurement, Usage: "measurement iterations per fork (mi)"},
			&cli.IntFlag{Name: "f-min", Destination: &opt.Config.ForksMin, Value: opt.Config.ForksMin, Usage: "minimum forks (f_min)"},
			&cli.IntFlag{Name: "f-max", Destination: &opt.Config.ForksMax, Value: opt.Config.ForksMax, Usage: "maximum forks (f_max)"},
			&cli.IntFlag{Name: "window", Destination: &opt.Window, Value: opt.Window, Usage: "sliding window s_W of cumulative iteration sets"},
			&cli.IntFlag{Name: "fork-window", Destination: &opt.ForkWindow, Value: opt.ForkWindow, Usage: "window of cumulative fork sets (0 = --window; the prototype uses 2)"},
			&cli.Float64Flag{Name: "cv-threshold", Destination: &opt.Thresholds.CV, Value: opt.Thresholds.CV, Usage: "CV criterion: largest range of the window's CVs"},
			&cli.Float64Flag{Name: "rciw-threshold", Destination: &opt.Thresholds.RCIW, Value: opt.Thresholds.RCIW, Usage: "RCIW criterion: largest range of the window's RCIWs"},
			&cli.Float64Flag{Name: "kld-threshold", Destination: &opt.Thresholds.KLD, Value: opt.Thresholds.KLD, Usage: "KLD criterion: the window's mean probability must exceed this"},
			&cli.IntFlag{Name: "invocations", Destination: &opt.InvocationSample, Value: opt.InvocationSample, Usage: "invocations sampled per sample-mode iteration for the criteria"},
			&cli.Float64Flag{Name: "outlier-factor", Destination: &opt.OutlierFactor, Value: opt.OutlierFactor, Usage: "criteria ignore invocations slower than this × the iteration's median"},
			&cli.IntFlag{Name: "rciw-resamples", Destination: &opt.RCIW.Resamples, Value: opt.RCIW.Resamples, Usage: "RCIW criterion: bootstrap resamples"},
			&cli.Float64Flag{Name: "rciw-confidence", Destination: &opt.RCIW.Confidence, Value: opt.RCIW.Confidence, Usage: "RCIW criterion: confidence level"},
			&cli.IntFlag{Name: "rciw-is", Destination: &opt.RCIW.InvocationSamples, Value: opt.RCIW.InvocationSamples, Usage: "RCIW criterion: invocation samples per iteration (0 iteration means, -1 all sampled invocations)"},
		),
		cliapp.Group("Time model",
			&cli.Float64Flag{Name: "overhead-cv", Destination: &opt.Overheads.CV, Value: opt.Overheads.CV, Usage: "CV criterion's overhead per warmup iteration (fraction of the iteration time)"},
			&cli.Float64Flag{Name: "overhead-rciw", Destination: &opt.Overheads.RCIW, Value: opt.Overheads.RCIW, Usage: "RCIW criterion's overhead per warmup iteration"},
			&cli.Float64Flag{Name: "overhead-kld", Destination: &opt.Overheads.KLD, Value: opt.Overheads.KLD, Usage: "KLD criterion's overhead per warmup iteration"},
			&cli.DurationFlag{Name: "iteration-time", Destination: &opt.IterationTime, Usage: "duration of one iteration, e.g. 1s (default: the setup's measurement time, else 1 s)"},
		),
		cliapp.Group("Evaluation",
			&cli.IntFlag{Name: "aa-resamples", Destination: &opt.AA.Resamples, Value: opt.AA.Resamples, Usage: "A/A test: bootstrap resamples"},
			&cli.Float64Flag{Name: "aa-confidence", Destination: &opt.AA.Confidence, Value: opt.AA.Confidence, Usage: "A/A test: confidence level"},
			&cli.IntFlag{Name: "aa-is", Destination: &opt.AA.InvocationSamples, Value: opt.AA.InvocationSamples, Usage: "A/A test: invocation samples per iteration (0 iteration means, -1 all, k)"},
			&cli.IntFlag{Name: "baseline-wi", Destination: &opt.Baseline.Warmup, Value: opt.Baseline.Warmup, Usage: "static baseline: warmup iterations per fork"},
			&cli.IntFlag{Name: "baseline-mi", Destination: &opt.Baseline.Measurement, Value: opt.Baseline.Measurement, Usage: "static baseline: measurement iterations per fork"},
			&cli.IntFlag{Name: "baseline-forks", Destination: &opt.Baseline.Forks, Value: opt.Baseline.Forks, Usage: "static baseline: forks"},
		),
		cliapp.Group("Selection", cliapp.BenchFlag()),
		cliapp.Group("Input", cliapp.InputFlags()...),
		cliapp.Group("Output",
			&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Usage: "per-benchmark results `FILE`: data (.csv, .arrow, .parquet) or a document (.md, .tex, .html)"},
			&cli.BoolFlag{Name: "details", Usage: "print the per-benchmark table and the full Tables 2 and 3 after the summary"},
			&cli.StringFlag{Name: "configs-out", Usage: "dynamic configurations `FILE` (.csv, .arrow or .parquet; one row per benchmark, criterion and fork; read by benchtrim steady --configs)"},
			&cli.StringFlag{Name: "table2", Usage: "write the quality table (Table 2) to `FILE`: a document (.md, .tex, .html) or data (.csv, .arrow, .parquet)"},
			&cli.StringFlag{Name: "table3", Usage: "write the time table (Table 3) to `FILE`: a document (.md, .tex, .html) or data (.csv, .arrow, .parquet)"},
		),
		cliapp.ScaleOutFlags(),
	)
}

// reconfigureOptions completes opt, which the flags wrote (Destination),
// with the flags that need parsing.
func reconfigureOptions(c *cli.Context, opt reconfigure.Options) (reconfigure.Options, error) {
	var err error
	if opt.Criteria, err = reconfigure.ParseCriteria(c.String("criteria")); err != nil {
		return opt, fmt.Errorf("--criteria: %w", err)
	}
	if opt.Select, opt.Seed, opt.Workers, err = cliapp.Selected(c); err != nil {
		return opt, err
	}
	return opt, opt.Validate()
}

// reconfigureOutputs is what reconfigure writes from its report, for
// reconfigure and merge.
var reconfigureOutputs = &cliapp.Outputs[reconfigure.Report, *reconfigure.Report]{
	Command:     "reconfigure",
	OutputFlags: []string{"output", "details", "configs-out", "table2", "table3"},
	Data: []cliapp.DataOut{{Flag: "output", Frame: reconfigure.FrameBenchmarks, Doc: true},
		{Flag: "table2", Frame: reconfigure.FrameQuality, Doc: true}, {Flag: "table3", Frame: reconfigure.FrameTime, Doc: true},
		{Flag: "configs-out", Frame: reconfigure.FrameConfigs}},
	Details: (*reconfigure.Report).WriteDetails,
	Merge:   reconfigure.Merge,
}

func runReconfigure(c *cli.Context, opt reconfigure.Options) error {
	opt, err := reconfigureOptions(c, opt)
	if err != nil {
		return err
	}
	return reconfigureOutputs.Run(c, opt.Select, c.Args().Slice(), &reconfigure.Report{Options: opt},
		func(t *table.Table, all []table.Key, progress func(int)) (*reconfigure.Report, error) {
			opt.Progress = progress
			return reconfigure.Run(t, opt)
		})
}
