package main

import (
	"fmt"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/benchtrim/benchtrim/analysis/duet"
	"github.com/benchtrim/benchtrim/cmd/benchtrim/internal/cliapp"
	"github.com/benchtrim/benchtrim/internal/outpath"
	"github.com/benchtrim/benchtrim/table"
)

func duetCommand() *cli.Command {
	d := duet.DefaultOptions()
	return &cli.Command{
		Name:        "duet",
		Usage:       "duet benchmarking: CI and U tests on paired A/B runs, detectable slowdown",
		ArgsUsage:   "FILES or DIRS...",
		Description: help("duet"),
		Flags: groups(
			group("Method",
				&cli.Float64Flag{Name: "min-overlap", Value: d.MinOverlap, Usage: "duet pairs must overlap more than this share of both iterations"},
				&cli.StringFlag{Name: "slowdowns", Value: "0:0.15:0.01", Usage: "emulated slowdowns of B: FROM:TO:STEP or a comma list (5%, 0.1); none skips the MDS"},
				&cli.StringFlag{Name: "warmup", Value: string(d.Warmup), Usage: "warm-up rule: code (iteration ≥ max/2 per run), half (thesis) or none"},
				&cli.StringFlag{Name: "enumeration", Value: string(d.Enumeration), Usage: "overlaps: sweep (the reference's) or all (every overlapping pair)"},
				&cli.StringFlag{Name: "speedup", Value: string(d.Speedup), Usage: "runtime speedup: code (per iteration, − 1) or thesis (eq. 5.1 ratio)"},
				&cli.IntFlag{Name: "resamples", Value: d.Resamples, Usage: "BCa bootstrap resamples"},
				&cli.Float64Flag{Name: "confidence", Value: d.Confidence, Usage: "confidence level of the CI test"},
				&cli.Float64Flag{Name: "alpha", Value: d.Alpha, Usage: "U test level: equal when p > alpha"},
			),
			group("Selection",
				&cli.BoolFlag{Name: "keep-unlabelled", Usage: "keep runs on hosts outside the known environments"},
				cliapp.BenchFlag(),
			),
			group("Input", cliapp.InputFlags()...),
			group("Output",
				&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Usage: "per-benchmark results: FILE.csv, .arrow or .parquet"},
				&cli.StringFlag{Name: "mds-out", Usage: "tests per benchmark and slowdown: FILE.csv, .arrow or .parquet"},
				&cli.StringFlag{Name: "match-out", Usage: "A/A match ratios per environment, suite, type and slowdown"},
				&cli.StringFlag{Name: "overlaps-out", Usage: "pairs and relative overlap time per benchmark and minimum overlap"},
				&cli.StringFlag{Name: "plots", Usage: "write plots into `DIR`: MDS curves, relative CI widths, run timelines"},
				&cli.StringFlag{Name: "plot-format", Value: "svg", Usage: "svg or png"},
				&cli.IntFlag{Name: "plot-max", Value: duetPlotMax, Usage: "run timelines for at most this many benchmarks"},
			),
			group("Scale-out",
				cliapp.ShardFlag(),
				cliapp.PartialFlag(),
			),
		),
		Action: runDuet,
	}
}

// duetOptions reads the command's flags into duet options.
func duetOptions(c *cli.Context) (duet.Options, error) {
	g := cliapp.GlobalsOf(c)
	opt := duet.DefaultOptions()
	var err error
	if opt.Slowdowns, err = duet.ParseSlowdowns(c.String("slowdowns")); err != nil {
		return opt, fmt.Errorf("--slowdowns: %w", err)
	}
	opt.MinOverlap, opt.Resamples, opt.Confidence, opt.Alpha = c.Float64("min-overlap"), c.Int("resamples"), c.Float64("confidence"), c.Float64("alpha")
	opt.Warmup, opt.Enumeration = duet.WarmupRule(c.String("warmup")), duet.Enumeration(c.String("enumeration"))
	opt.Speedup, opt.KeepUnlabelled = duet.SpeedupDefinition(c.String("speedup")), c.Bool("keep-unlabelled")
	if opt.Select, err = cliapp.BenchFilter(c); err != nil {
		return opt, err
	}
	opt.Seed, opt.Workers = g.Seed, g.Workers
	return opt, opt.Validate()
}

// duetOutputFlags are duet's output flags (benchtrim merge takes them).
var duetOutputFlags = []string{"output", "mds-out", "match-out", "overlaps-out", "plots", "plot-format", "plot-max"}

// duetPlotMax is duet's default --plot-max.
const duetPlotMax = 6

// duetOutputs are the outputs duet's flags name, checked before work.
func duetOutputs(c *cli.Context) []outpath.Output {
	return []outpath.Output{cliapp.Output(c, "output", outpath.Data), cliapp.Output(c, "mds-out", outpath.Data),
		cliapp.Output(c, "match-out", outpath.Data), cliapp.Output(c, "overlaps-out", outpath.Data), cliapp.PlotDir(c, "plots", "plot-format")}
}

func runDuet(c *cli.Context) error {
	opt, err := duetOptions(c)
	if err != nil {
		return err
	}
	partialOut, err := cliapp.CheckPartial(c, duetOutputFlags)
	if err != nil {
		return err
	}
	if err = cliapp.CheckOutputs(c.Args().Slice(), duetOutputs(c)...); err != nil {
		return err
	}
	rep, release, err := cliapp.RunChunked(c, "duet", opt.Select, func(t *table.Table, all []table.Key, progress func(int)) (*duet.Report, error) {
		opt.Progress = progress
		return duet.Run(t, opt)
	}, duet.Merge)
	defer release()
	if partialOut != "" {
		return cliapp.WritePartial(c, partialOut, "duet", opt.Select, rep, err, &duet.Report{Options: opt}, 0)
	}
	if err != nil {
		return err
	}
	if len(rep.Benchmarks) == 0 {
		return fmt.Errorf("duet: shard %d/%d holds no duet rows (%s)", opt.Select.Shard, opt.Select.Shards, strings.Join(rep.Warnings, "; "))
	}
	return writeDuet(c, rep)
}

// writeDuet writes what duet writes from its report: the text and every
// output whose flag is given (also for benchtrim merge).
func writeDuet(c *cli.Context, rep *duet.Report) error {
	outs, _ := cliapp.BeginOutputs(c)
	defer outs.Abort()
	err := cliapp.WriteResult(c, rep, nil, []cliapp.DataOut{{Flag: "output", Frame: duet.TableBenchmarks}, {Flag: "mds-out", Frame: duet.TableMDS},
		{Flag: "match-out", Frame: duet.TableMatch}, {Flag: "overlaps-out", Frame: duet.TableOverlaps}})
	if dir := c.String("plots"); dir != "" && err == nil {
		var tmp string
		var n int
		if tmp, err = outs.Set.Dir(dir, false); err == nil {
			n, err = rep.WritePlots(tmp, c.String("plot-format"), intFlag(c, "plot-max", duetPlotMax))
		}
		if err != nil {
			return fmt.Errorf("--plots %s: %w", dir, err)
		}
		outs.Say("wrote %d plots into %s", n, dir)
	}
	if err != nil {
		return err
	}
	return outs.Commit()
}
