package main

import (
	"cmp"
	"fmt"
	"io"
	"path/filepath"

	"github.com/urfave/cli/v2"

	"github.com/benchtrim/benchtrim/analysis/trim"
	"github.com/benchtrim/benchtrim/cmd/benchtrim/internal/cliapp"
	"github.com/benchtrim/benchtrim/cmd/benchtrim/internal/outpath"
	"github.com/benchtrim/benchtrim/estimate"
	"github.com/benchtrim/benchtrim/reports/page"
	"github.com/benchtrim/benchtrim/table"
)

func trimCommand() *cli.Command {
	opt := trim.DefaultOptions
	return command("trim", "FILES...", "one configuration per benchmark: the cheapest that keeps your test's verdicts", func(c *cli.Context) error { return runTrim(c, opt) },
		cliapp.Group("Plan",
			&cli.StringFlag{Name: "test", Aliases: []string{"rule"}, Value: trim.DefaultOptions.Test.String(), Usage: "the `TEST` your verdicts come from: u (benchstat's U test), ratio (bootstrap CI of the ratio of means) or overlap (JMH-style CI overlap)"},
			&cli.Float64Flag{Name: "alpha", Destination: &opt.Alpha, Value: trim.DefaultOptions.Alpha, Usage: "significance level of --test (benchstat's 0.05)"},
			&cli.Float64Flag{Name: "keep", Destination: &opt.Keep, Value: trim.DefaultOptions.Keep, Usage: "per benchmark the cheapest configuration whose detectable slowdown under --test is at most this `FACTOR` × the recorded one's"},
			&cli.StringFlag{Name: "min-effect", Value: "3%", Usage: "the smallest slowdown that matters: a configuration that finds one of this `PCT` in 95 % of A/B runs is enough, even where --keep asks for more (0: off)"},
			&cli.StringFlag{Name: "detect", Usage: "instead of --keep: the cheapest configuration that detects this slowdown (`PCT`, e.g. 5%) in 80 % of A/B runs"},
			&cli.IntFlag{Name: "stated-warmup", Destination: &opt.StatedWarmup, Usage: "JMH files without their warmup iterations (µOpTime's ESE'21 CSVs: 10) were recorded after `N` of them per fork"},
			&cli.StringFlag{Name: "versions", Usage: "the order of the versions, oldest first: `V1,V2,...` (default: the order of the files)"},
			&cli.BoolFlag{Name: "parallel-instances", Destination: &opt.ParallelInstances, Usage: "instances run side by side: an instance costs no wall time"},
			&cli.StringFlag{Name: "overhead", Usage: "time to start one unit of a level or one run of a command, beyond the defaults: `LEVEL=DURATION,...` (instance, trial, fork, command; e.g. fork=1s)"},
			&cli.IntFlag{Name: "splits", Destination: &opt.Splits, Value: trim.DefaultOptions.Splits, Usage: "random halvings of the out-of-sample check (choose on one half, run on the other; 0: off)"},
			&cli.IntFlag{Name: "resamples", Destination: &opt.Optimize.Bootstrap.Resamples, Value: estimate.DefaultBootstrap.Resamples, Usage: "bootstrap resamples (the hierarchical CI and steady-state equivalence)"},
			&cli.Float64Flag{Name: "warmup-quantile", Destination: &opt.WarmupQuantile, Value: trim.DefaultOptions.WarmupQuantile, Usage: "warmup = this quantile of the forks' steady-state starts, rounded up"},
			&cli.StringFlag{Name: "penalty", Value: "15log", Usage: "PELT penalty of the steady-state detection: 15log (Barrett), crops (Traini's CROPS + Kneedle; the report then plots the elbow), crops-ascending, or a number"},
			&cli.IntFlag{Name: "steady-window", Destination: &opt.Steady.SteadyWindow, Value: trim.DefaultOptions.Steady.SteadyWindow, Usage: "a fork is steady when its steady part covers its last N iterations; JMH forks of at most N iterations take the reconfiguration path"},
		),
		cliapp.Group("Selection", cliapp.BenchFlag()),
		cliapp.Group("Input", cliapp.InputFlags()...),
		cliapp.Group("Output",
			&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Usage: "the plan, one row per benchmark: FILE.csv, .arrow or .parquet"},
			&cli.StringFlag{Name: "commands-out", Usage: "shell script with one command line per benchmark (java -jar … / go test …)"},
			&cli.StringFlag{Name: "annotations-out", Usage: "JMH annotations (@Fork, @Warmup, @Measurement) per class"},
			&cli.StringFlag{Name: "report", Usage: "the HTML report `FILE` (self-contained: inline SVG, no network)"},
			&cli.StringFlag{Name: "out-dir", Usage: "write the plan, the analyses' frames, the commands and the report into `DIR` (benchtrim report DIR rebuilds the report)"},
			&cli.BoolFlag{Name: "details", Usage: "print every benchmark's reasons, configurations and warnings"},
		),
		cliapp.ScaleOutFlags(),
	)
}

// trimOptions completes opt, which the flags wrote (Destination), with the
// flags that need parsing.
func trimOptions(c *cli.Context, opt trim.Options) (trim.Options, error) {
	opt, err := cliapp.TrimTarget(c, opt)
	if err != nil {
		return opt, err
	}
	if opt.Overhead, opt.CommandOverhead, err = trim.ParseOverhead(c.String("overhead")); err != nil {
		return opt, cliapp.Usagef("trim", "--overhead: %v", err)
	}
	opt.Steady.Bootstrap.Resamples = opt.Optimize.Bootstrap.Resamples
	if err := steadyPenalty(c, &opt.Steady); err != nil {
		return opt, err
	}
	if opt.Select, opt.Seed, opt.Workers, err = cliapp.Selected(c); err != nil {
		return opt, err
	}
	return opt, opt.Validate()
}

// trimDirExtras are the text files of --out-dir besides the frames and
// report.html.
var trimDirExtras = []string{"annotations.java", "commands.sh"}

// trimOutputs is what trim writes from its report, for trim and merge.
var trimOutputs = &cliapp.Outputs[trim.Report, *trim.Report]{
	Command:     "trim",
	OutputFlags: []string{"output", "commands-out", "annotations-out", "report", "out-dir", "details"},
	Data:        []cliapp.DataOut{{Flag: "output", Frame: trim.FramePlan}},
	Text: []cliapp.TextOf[trim.Report]{{Flag: "commands-out", Write: (*trim.Report).WriteCommands},
		{Flag: "annotations-out", Write: (*trim.Report).WriteAnnotations},
		{Flag: "report", Write: func(r *trim.Report, w io.Writer) error { return page.Write(w, r) }}},
	Details: (*trim.Report).WriteDetails,
	Dir: &cliapp.DirOut[trim.Report]{Flag: "out-dir", Files: page.DirFiles(trimDirExtras...), Says: "plan, frames, commands, annotations, report.html",
		Write: func(dir string, r *trim.Report) error {
			return page.WriteDir(dir, r, map[string]func(io.Writer) error{trimDirExtras[1]: r.WriteCommands, trimDirExtras[0]: r.WriteAnnotations})
		}},
	Merge: trim.Merge,
}

func runTrim(c *cli.Context, opt trim.Options) error {
	opt, err := trimOptions(c, opt)
	if err != nil {
		return err
	}
	return trimOutputs.Run(c, opt.Select, c.Args().Slice(), &trim.Report{Options: opt},
		func(t *table.Table, all []table.Key, progress func(int)) (*trim.Report, error) {
			opt.Progress, opt.AllRuns = progress, all
			return trim.Run(t, opt)
		})
}

func reportCommand() *cli.Command {
	return command("report", "OUTPUT_DIR", "rebuild the HTML report from a directory written by benchtrim trim --out-dir", runReport,
		cliapp.Group("Output",
			&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Usage: "the page `FILE` (default: OUTPUT_DIR/report.html)"},
		),
	)
}

func runReport(c *cli.Context) error {
	if c.NArg() != 1 {
		return cliapp.Usagef("report", "want one OUTPUT_DIR, got %d arguments", c.NArg())
	}
	dir := c.Args().First()
	out := cmp.Or(c.String("output"), filepath.Join(dir, "report.html"))
	// The page may replace the folder's report.html, no other file of it.
	if err := cliapp.CheckOutputs(page.RebuildInputs(dir, trimDirExtras...), cliapp.Output(c, "output", outpath.Text)); err != nil {
		return err
	}
	if err := page.Rebuild(dir, out); err != nil {
		return err
	}
	fmt.Fprintf(c.App.Writer, "wrote %s\n", out)
	return nil
}
