package main

import (
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/benchtrim/benchtrim/analysis/reconfigure"
	"github.com/benchtrim/benchtrim/cmd/benchtrim/internal/cliapp"
	"github.com/benchtrim/benchtrim/table"
)

func reconfigureCommand() *cli.Command {
	d := reconfigure.DefaultOptions
	return command("reconfigure", "FILES...", "replay dynamic reconfiguration: result quality and time saved", runReconfigure,
		cliapp.Group("Criteria",
			&cli.StringFlag{Name: "criteria", Value: "cv,rciw,kld", Usage: "stoppage criteria to replay, comma-separated"},
			&cli.IntFlag{Name: "wi-min", Value: d.Config.WarmupMin, Usage: "minimum warmup iterations per fork (wi_min)"},
			&cli.IntFlag{Name: "wi-max", Value: d.Config.WarmupMax, Usage: "maximum warmup iterations per fork (wi_max)"},
			&cli.IntFlag{Name: "mi", Value: d.Config.Measurement, Usage: "measurement iterations per fork (mi)"},
			&cli.IntFlag{Name: "f-min", Value: d.Config.ForksMin, Usage: "minimum forks (f_min)"},
			&cli.IntFlag{Name: "f-max", Value: d.Config.ForksMax, Usage: "maximum forks (f_max)"},
			&cli.IntFlag{Name: "window", Value: d.Window, Usage: "sliding window s_W of cumulative iteration sets"},
			&cli.IntFlag{Name: "fork-window", Value: d.ForkWindow, Usage: "window of cumulative fork sets (0 = --window; the prototype uses 2)"},
			&cli.Float64Flag{Name: "cv-threshold", Value: d.Thresholds.CV, Usage: "CV criterion: largest range of the window's CVs"},
			&cli.Float64Flag{Name: "rciw-threshold", Value: d.Thresholds.RCIW, Usage: "RCIW criterion: largest range of the window's RCIWs"},
			&cli.Float64Flag{Name: "kld-threshold", Value: d.Thresholds.KLD, Usage: "KLD criterion: the window's mean probability must exceed this"},
			&cli.IntFlag{Name: "invocations", Value: d.InvocationSample, Usage: "invocations sampled per sample-mode iteration for the criteria"},
			&cli.Float64Flag{Name: "outlier-factor", Value: d.OutlierFactor, Usage: "criteria ignore invocations slower than this × the iteration's median"},
			&cli.IntFlag{Name: "rciw-resamples", Value: d.RCIW.Resamples, Usage: "RCIW criterion: bootstrap resamples"},
			&cli.Float64Flag{Name: "rciw-confidence", Value: d.RCIW.Confidence, Usage: "RCIW criterion: confidence level"},
			&cli.IntFlag{Name: "rciw-is", Value: d.RCIW.InvocationSamples, Usage: "RCIW criterion: invocation samples per iteration (0 iteration means, -1 all sampled invocations)"},
		),
		cliapp.Group("Time model",
			&cli.Float64Flag{Name: "overhead-cv", Value: d.Overheads.CV, Usage: "CV criterion's overhead per warmup iteration (fraction of the iteration time)"},
			&cli.Float64Flag{Name: "overhead-rciw", Value: d.Overheads.RCIW, Usage: "RCIW criterion's overhead per warmup iteration"},
			&cli.Float64Flag{Name: "overhead-kld", Value: d.Overheads.KLD, Usage: "KLD criterion's overhead per warmup iteration"},
			&cli.DurationFlag{Name: "iteration-time", Usage: "duration of one iteration, e.g. 1s (default: the setup's measurement time, else 1 s)"},
		),
		cliapp.Group("Evaluation",
			&cli.IntFlag{Name: "aa-resamples", Value: d.AA.Resamples, Usage: "A/A test: bootstrap resamples"},
			&cli.Float64Flag{Name: "aa-confidence", Value: d.AA.Confidence, Usage: "A/A test: confidence level"},
			&cli.IntFlag{Name: "aa-is", Value: d.AA.InvocationSamples, Usage: "A/A test: invocation samples per iteration (0 iteration means, -1 all, k)"},
			&cli.IntFlag{Name: "baseline-wi", Value: d.Baseline.Warmup, Usage: "static baseline: warmup iterations per fork"},
			&cli.IntFlag{Name: "baseline-mi", Value: d.Baseline.Measurement, Usage: "static baseline: measurement iterations per fork"},
			&cli.IntFlag{Name: "baseline-forks", Value: d.Baseline.Forks, Usage: "static baseline: forks"},
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

// reconfigureOptions reads the command's flags.
func reconfigureOptions(c *cli.Context) (reconfigure.Options, error) {
	opt := reconfigure.DefaultOptions
	var err error
	if opt.Criteria, err = reconfigure.ParseCriteria(c.String("criteria")); err != nil {
		return opt, fmt.Errorf("--criteria: %w", err)
	}
	opt.Config = reconfigure.Config{WarmupMin: c.Int("wi-min"), WarmupMax: c.Int("wi-max"), Measurement: c.Int("mi"),
		ForksMin: c.Int("f-min"), ForksMax: c.Int("f-max")}
	opt.Window, opt.ForkWindow = c.Int("window"), c.Int("fork-window")
	opt.Thresholds = reconfigure.Thresholds{CV: c.Float64("cv-threshold"), RCIW: c.Float64("rciw-threshold"), KLD: c.Float64("kld-threshold")}
	opt.Overheads = reconfigure.Overheads{CV: c.Float64("overhead-cv"), RCIW: c.Float64("overhead-rciw"), KLD: c.Float64("overhead-kld")}
	opt.InvocationSample, opt.OutlierFactor = c.Int("invocations"), c.Float64("outlier-factor")
	opt.RCIW.Resamples, opt.RCIW.Confidence, opt.RCIW.InvocationSamples = c.Int("rciw-resamples"), c.Float64("rciw-confidence"), c.Int("rciw-is")
	opt.AA.Resamples, opt.AA.Confidence, opt.AA.InvocationSamples = c.Int("aa-resamples"), c.Float64("aa-confidence"), c.Int("aa-is")
	opt.Baseline = reconfigure.Baseline{Warmup: c.Int("baseline-wi"), Measurement: c.Int("baseline-mi"), Forks: c.Int("baseline-forks")}
	opt.IterationTime = c.Duration("iteration-time") // positive when given (flagRanges)
	if opt.Select, opt.Seed, opt.Workers, err = cliapp.Selected(c); err != nil {
		return opt, err
	}
	return opt, opt.Validate()
}

// reconfigureAnalyzer is what reconfigure writes from its report, for
// reconfigure and merge.
var reconfigureAnalyzer = &cliapp.Analyzer[reconfigure.Report]{
	Command:     "reconfigure",
	OutputFlags: []string{"output", "details", "configs-out", "table2", "table3"},
	Data: []cliapp.DataOut{{Flag: "output", Frame: reconfigure.TableBenchmarks, Doc: true},
		{Flag: "table2", Frame: reconfigure.TableQuality, Doc: true}, {Flag: "table3", Frame: reconfigure.TableTime, Doc: true},
		{Flag: "configs-out", Frame: reconfigure.TableConfigs}},
	Details: (*reconfigure.Report).WriteDetails,
	Merge:   reconfigure.Merge,
}

func runReconfigure(c *cli.Context) error {
	opt, err := reconfigureOptions(c)
	if err != nil {
		return err
	}
	return reconfigureAnalyzer.Run(c, opt.Select, c.Args().Slice(), &reconfigure.Report{Options: opt},
		func(t *table.Table, all []table.Key, progress func(int)) (*reconfigure.Report, error) {
			opt.Progress = progress
			return reconfigure.Run(t, opt)
		})
}
