package main

import (
	"fmt"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/benchtrim/benchtrim/analysis/duet"
	"github.com/benchtrim/benchtrim/cmd/benchtrim/internal/cliapp"
	"github.com/benchtrim/benchtrim/table"
)

func duetCommand() *cli.Command {
	opt := duet.DefaultOptions()
	return command("duet", "FILES or DIRS...", "duet benchmarking: CI and U tests on paired A/B runs, detectable slowdown", func(c *cli.Context) error { return runDuet(c, opt) },
		cliapp.Group("Method",
			&cli.Float64Flag{Name: "min-overlap", Destination: &opt.MinOverlap, Value: opt.MinOverlap, Usage: "duet pairs must overlap more than this share of both iterations"},
			&cli.StringFlag{Name: "slowdowns", Value: "0:0.15:0.01", Usage: "emulated slowdowns of B: FROM:TO:STEP or a comma list (5%, 0.1); none skips the MDS"},
			&cli.StringFlag{Name: "warmup", Value: string(opt.Warmup), Usage: "warm-up rule: code (iteration ≥ max/2 per run), half (thesis) or none"},
			&cli.StringFlag{Name: "enumeration", Value: string(opt.Enumeration), Usage: "overlaps: sweep (the reference's) or all (every overlapping pair)"},
			&cli.StringFlag{Name: "speedup", Value: string(opt.Speedup), Usage: "runtime speedup: code (per iteration, − 1) or thesis (eq. 5.1 ratio)"},
			&cli.IntFlag{Name: "resamples", Destination: &opt.Resamples, Value: opt.Resamples, Usage: "BCa bootstrap resamples"},
			&cli.Float64Flag{Name: "confidence", Destination: &opt.Confidence, Value: opt.Confidence, Usage: "confidence level of the CI test"},
			&cli.Float64Flag{Name: "alpha", Destination: &opt.Alpha, Value: opt.Alpha, Usage: "U test level: equal when p > alpha"},
		),
		cliapp.Group("Selection",
			&cli.BoolFlag{Name: "keep-unlabelled", Destination: &opt.KeepUnlabelled, Usage: "keep runs on hosts outside the known environments"},
			cliapp.BenchFlag(),
		),
		cliapp.Group("Input", cliapp.InputFlags()...),
		cliapp.Group("Output",
			&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Usage: "per-benchmark results: FILE.csv, .arrow or .parquet"},
			&cli.StringFlag{Name: "mds-out", Usage: "tests per benchmark and slowdown: FILE.csv, .arrow or .parquet"},
			&cli.StringFlag{Name: "match-out", Usage: "A/A match ratios per environment, suite, type and slowdown"},
			&cli.StringFlag{Name: "overlaps-out", Usage: "pairs and relative overlap time per benchmark and minimum overlap"},
			&cli.StringFlag{Name: "plots", Usage: "write plots into `DIR`: MDS curves, relative CI widths, run timelines"},
			&cli.StringFlag{Name: "plot-format", Value: "svg", Usage: "svg or png"},
			&cli.IntFlag{Name: "plot-max", Value: duetOutputs.PlotMax, Usage: "run timelines for at most this many benchmarks"},
		),
		cliapp.ScaleOutFlags(),
	)
}

// duetOptions completes opt, which the flags wrote (Destination), with the
// flags that need parsing.
func duetOptions(c *cli.Context, opt duet.Options) (duet.Options, error) {
	var err error
	if opt.Slowdowns, err = duet.ParseSlowdowns(c.String("slowdowns")); err != nil {
		return opt, fmt.Errorf("--slowdowns: %w", err)
	}
	opt.Warmup, opt.Enumeration = duet.WarmupRule(c.String("warmup")), duet.Enumeration(c.String("enumeration"))
	opt.Speedup = duet.SpeedupDefinition(c.String("speedup"))
	if opt.Select, opt.Seed, opt.Workers, err = cliapp.Selected(c); err != nil {
		return opt, err
	}
	return opt, opt.Validate()
}

// duetOutputs is what duet writes from its report, for duet and merge.
var duetOutputs = &cliapp.Outputs[duet.Report, *duet.Report]{
	Command:     "duet",
	OutputFlags: []string{"output", "mds-out", "match-out", "overlaps-out", "plots", "plot-format", "plot-max"},
	Data: []cliapp.DataOut{{Flag: "output", Frame: duet.FrameBenchmarks}, {Flag: "mds-out", Frame: duet.FrameMDS},
		{Flag: "match-out", Frame: duet.FrameMatch}, {Flag: "overlaps-out", Frame: duet.FrameOverlaps}},
	Plots:   (*duet.Report).WritePlots,
	PlotMax: 6,
	Check: func(r *duet.Report, sel table.Filter) error {
		if len(r.Benchmarks) == 0 {
			return fmt.Errorf("duet: shard %d/%d holds no duet rows (%s)", sel.Shard, sel.Shards, strings.Join(r.Warnings, "; "))
		}
		return nil
	},
	Merge: duet.Merge,
}

func runDuet(c *cli.Context, opt duet.Options) error {
	opt, err := duetOptions(c, opt)
	if err != nil {
		return err
	}
	return duetOutputs.Run(c, opt.Select, c.Args().Slice(), &duet.Report{Options: opt},
		func(t *table.Table, all []table.Key, progress func(int)) (*duet.Report, error) {
			opt.Progress = progress
			return duet.Run(t, opt)
		})
}
