package main

import (
	"fmt"
	"slices"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/benchtrim/benchtrim/analysis/compare"
	"github.com/benchtrim/benchtrim/cmd/benchtrim/internal/cliapp"
	"github.com/benchtrim/benchtrim/cmd/benchtrim/internal/outpath"
	"github.com/benchtrim/benchtrim/table"
	"github.com/benchtrim/benchtrim/tablefile"
)

func compareCommand() *cli.Command {
	opt := compare.DefaultOptions
	return command("compare", "[FILES...]", "A/B comparison of two result sets, or A/A test of one", func(c *cli.Context) error { return runCompare(c, opt) },
		cliapp.Group("Sides",
			&cli.StringSliceFlag{Name: "base", Usage: "base (control) result `FILE` or quoted glob; repeat for more"},
			&cli.StringSliceFlag{Name: "test", Usage: "test result `FILE` or quoted glob; repeat for more"},
			&cli.StringFlag{Name: "base-version", Destination: &opt.Base.Select.Version, Usage: "base = runs with this version label"},
			&cli.StringFlag{Name: "test-version", Destination: &opt.Test.Select.Version, Usage: "test = runs with this version label"},
			&cli.StringFlag{Name: "base-project", Destination: &opt.Base.Select.Project, Usage: "base = runs with this project label"},
			&cli.StringFlag{Name: "test-project", Destination: &opt.Test.Select.Project, Usage: "test = runs with this project label"},
			&cli.StringFlag{Name: "base-pair", Destination: &opt.Base.Select.Pair, Usage: "base = rows with this duet pair label"},
			&cli.StringFlag{Name: "test-pair", Destination: &opt.Test.Select.Pair, Usage: "test = rows with this duet pair label"},
			&cli.StringFlag{Name: "col", Destination: &opt.Col, Value: ".file", Usage: "what the two sides are, as benchstat's -col: .file (the files or label selectors), .config (the two project@version labels in FILES) or /KEY (the two values of parameter KEY, e.g. /size, in FILES)"},
			&cli.StringFlag{Name: "row", Destination: &opt.Row, Usage: "what names a row, as benchstat's -row: comma-separated .fullname (default), .name, /KEY, .file or .config; runs that agree on them are pooled"},
		),
		cliapp.Group("A/A test",
			&cli.BoolFlag{Name: "aa", Destination: &opt.AA, Usage: "A/A test: split each run of FILES into two random halves"},
			&cli.StringFlag{Name: "split", Value: "fork", Usage: "A/A split level: fork, trial or instance"},
			&cli.IntFlag{Name: "aa-repeats", Destination: &opt.Repeats, Value: 1, Usage: "A/A: random splits per benchmark"},
		),
		cliapp.Group("Statistics",
			&cli.StringFlag{Name: "rule", Value: compare.DefaultOptions.Rule.String(), Usage: "the `TEST` verdicts come from (trim's --test): u (benchstat's U test on the iteration values; medians), ratio (hierarchical bootstrap CI of the ratio of means) or overlap (JMH-style: the t intervals of the means do not overlap)"},
			&cli.StringFlag{Name: "statistic", Usage: "older form of --rule: median (--rule u) or mean (--rule ratio)"},
			&cli.Float64Flag{Name: "alpha", Destination: &opt.Alpha, Value: compare.DefaultOptions.Alpha, Usage: "significance level of --rule (benchstat's 0.05; the ratio and overlap intervals are at 1 − α)"},
			&cli.Float64Flag{Name: "min-effect", Destination: &opt.MinEffect, Usage: "practical significance: a change under `PCT` % is ~ even when significant"},
			&cli.Float64Flag{Name: "confidence", Destination: &opt.Bootstrap.Confidence, Value: compare.DefaultOptions.Bootstrap.Confidence, Usage: "confidence level of the bootstrap intervals"},
			&cli.IntFlag{Name: "resamples", Destination: &opt.Bootstrap.Resamples, Value: compare.DefaultOptions.Bootstrap.Resamples, Usage: "bootstrap resamples"},
			&cli.IntFlag{Name: "is", Destination: &opt.Bootstrap.InvocationSamples, Value: 0, Usage: "invocation samples per iteration: 0 iteration mean, -1 all, k k samples (pa's -is)"},
			&cli.BoolFlag{Name: "pa", Destination: &opt.Bootstrap.PAIndices, Usage: "draw units as pa v0.1.0 does (normal indices, wrapped) to reproduce its intervals; not for verdicts (docs/compare.md)"},
			&cli.IntFlag{Name: "discard-warmup", Destination: &opt.DiscardWarmup, Usage: "drop the first `N` iterations of every fork (data recorded without warmup)"},
		),
		cliapp.Group("Selection",
			&cli.StringFlag{Name: "filter", Usage: "compare only benchmarks this `EXPR` keeps: REGEXP on the full name (BenchmarkSort/n=16), name:REGEXP, KEY:VALUE, -TERM (see below)"},
			&cli.StringFlag{Name: "bench", Usage: "same as --filter (older name)"},
			&cli.StringSliceFlag{Name: "metrics", Usage: "metrics to compare: primary (times) and secondary ones by name (B/op, gc.alloc.rate.norm, …); default all"},
		),
		cliapp.Group("Input", cliapp.InputFlags()...),
		cliapp.Group("Output",
			&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Usage: "also write the results for notebooks: OUT.csv, OUT.arrow or OUT.parquet"},
			&cli.BoolFlag{Name: "wide", Destination: &opt.Wide, Usage: "print each row on one line, however long its name (default: a name too long for a 100-column row stands on a line of its own above the row)"},
		),
	)
}

func runCompare(c *cli.Context, opt compare.Options) error {
	opt, err := cliapp.CompareOptions(c, opt)
	if err != nil {
		return err
	}
	var sides [2][]string
	for i, flag := range []string{"base", "test"} {
		if sides[i], err = cliapp.ExpandGlobs(c.StringSlice(flag)); err != nil {
			return fmt.Errorf("--%s: %w", flag, err)
		}
	}
	inputs, err := compare.Inputs(&opt, c.Args().Slice(), sides[0], sides[1])
	if err != nil {
		return cliapp.Usagef("compare", "%v", err)
	}
	if err := cliapp.CheckOutputs(slices.Concat(inputs...), cliapp.Output(c, "output", outpath.Data)); err != nil {
		return err
	}
	rep, release, err := cliapp.RunChunkedSides(c, "compare", inputs, tablefile.NameGroupOf, opt.SplitByName(),
		func(tabs []*table.Table, part bool, progress func(int)) (*compare.Report, error) {
			o := opt
			o.Progress, o.Part = progress, part
			if len(tabs) == 2 {
				o.Base.Table, o.Test.Table = tabs[0], tabs[1]
			}
			return compare.Run(tabs[0], o)
		}, compare.Merge)
	defer release()
	if err != nil {
		if m, ok := strings.CutPrefix(err.Error(), "metrics "); ok { // name the flag
			return fmt.Errorf("--metrics %s", m)
		}
		return err
	}
	return cliapp.WriteResult(c, rep, nil, []cliapp.DataOut{{Flag: "output", Frame: compare.FrameResults}})
}
