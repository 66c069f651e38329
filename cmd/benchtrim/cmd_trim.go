package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/benchtrim/benchtrim/cmd/benchtrim/internal/cliapp"
	"github.com/benchtrim/benchtrim/internal/atomicfile"
	"github.com/benchtrim/benchtrim/table"

	"github.com/urfave/cli/v2"

	"github.com/benchtrim/benchtrim/analysis/trim"
	"github.com/benchtrim/benchtrim/changepoint"
	"github.com/benchtrim/benchtrim/estimate"
	"github.com/benchtrim/benchtrim/internal/outpath"
	"github.com/benchtrim/benchtrim/reports/report"
)

func trimCommand() *cli.Command {
	return &cli.Command{
		Name:        "trim",
		Usage:       "one configuration per benchmark: the cheapest that reaches a precision",
		ArgsUsage:   "FILES...",
		Description: help("trim"),
		Flags: groups(
			group("Plan",
				&cli.Float64Flag{Name: "target", Value: trim.DefaultOptions.Target, Usage: "precision to reach: half-width of the 99 % CI of the mean, relative (0.01 = ±1 %)"},
				&cli.BoolFlag{Name: "parallel-instances", Usage: "instances run side by side: an instance costs no wall time"},
				&cli.StringFlag{Name: "overhead", Usage: "time to start one unit of a level, not in the result files: `LEVEL=DURATION,...` (instance, trial, fork; e.g. fork=1s)"},
				&cli.IntFlag{Name: "splits", Value: trim.DefaultOptions.Splits, Usage: "random halvings of the out-of-sample check (choose on one half, run on the other; 0: off)"},
				&cli.IntFlag{Name: "resamples", Value: estimate.DefaultBootstrap.Resamples, Usage: "bootstrap resamples (the hierarchical CI and steady-state equivalence)"},
				&cli.Float64Flag{Name: "warmup-quantile", Value: trim.DefaultOptions.WarmupQuantile, Usage: "warmup = this quantile of the forks' steady-state starts, rounded up"},
				&cli.StringFlag{Name: "penalty", Value: "15log", Usage: "PELT penalty of the steady-state detection: 15log (Barrett), crops (Traini's CROPS + Kneedle; the report then plots the elbow), crops-ascending, or a number"},
				&cli.IntFlag{Name: "steady-window", Value: trim.DefaultOptions.Steady.SteadyWindow, Usage: "a fork is steady when its steady part covers its last N iterations; JMH forks of at most N iterations take the reconfiguration path"},
			),
			group("Selection",
				cliapp.BenchFlag(),
			),
			group("Input", cliapp.InputFlags()...),
			group("Output",
				&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Usage: "the plan, one row per benchmark: FILE.csv, .arrow or .parquet"},
				&cli.StringFlag{Name: "commands-out", Usage: "shell script with one command line per benchmark (java -jar … / go test …)"},
				&cli.StringFlag{Name: "annotations-out", Usage: "JMH annotations (@Fork, @Warmup, @Measurement) per class"},
				&cli.StringFlag{Name: "report", Usage: "the HTML report `FILE` (self-contained: inline SVG, no network)"},
				&cli.StringFlag{Name: "out-dir", Usage: "write the plan, the analyses' frames, the commands and the report into `DIR` (benchtrim report DIR rebuilds the report)"},
				&cli.BoolFlag{Name: "details", Usage: "print every benchmark's reasons, configurations and warnings"},
			),
			group("Scale-out",
				cliapp.ShardFlag(),
				cliapp.PartialFlag(),
			),
		),
		Action: runTrim,
	}
}

// trimOptions reads the command's flags.
func trimOptions(c *cli.Context) (trim.Options, error) {
	g := cliapp.GlobalsOf(c)
	opt := trim.DefaultOptions
	opt.Target = c.Float64("target")
	opt.ParallelInstances = c.Bool("parallel-instances")
	opt.Splits = c.Int("splits")
	var err error
	if opt.Overhead, err = parseOverhead(c.String("overhead")); err != nil {
		return opt, err
	}
	opt.Optimize.Bootstrap.Resamples = c.Int("resamples")
	opt.Steady.Bootstrap.Resamples = c.Int("resamples")
	opt.WarmupQuantile = c.Float64("warmup-quantile")
	opt.Steady.SteadyWindow = c.Int("steady-window")
	pen, err := changepoint.ParsePenalty(c.String("penalty"))
	if err != nil {
		return opt, fmt.Errorf("--penalty: %w", err)
	}
	opt.Steady.Penalty, opt.Steady.PenaltyValue = pen.Rule, pen.Manual
	if opt.Select, err = cliapp.BenchFilter(c); err != nil {
		return opt, err
	}
	opt.Seed, opt.Workers = g.Seed, g.Workers
	return opt, opt.Validate()
}

// trimOutputFlags are trim's output flags (benchtrim merge takes them).
var trimOutputFlags = []string{"output", "commands-out", "annotations-out", "report", "out-dir", "details"}

// trimDirExtras are the text files of --out-dir besides the frames and
// report.html.
var trimDirExtras = []string{"annotations.java", "commands.sh"}

// trimOutputs are the outputs trim's flags name, checked before work:
// --out-dir with every file it will hold.
func trimOutputs(c *cli.Context) []outpath.Output {
	dir := cliapp.Output(c, "out-dir", outpath.Dir, cliapp.DirFiles(report.DirFiles(trimDirExtras...)...)...)
	return []outpath.Output{cliapp.Output(c, "output", outpath.Data), cliapp.Output(c, "commands-out", outpath.Text),
		cliapp.Output(c, "annotations-out", outpath.Text), cliapp.Output(c, "report", outpath.Text), dir}
}

func runTrim(c *cli.Context) error {
	opt, err := trimOptions(c)
	if err != nil {
		return err
	}
	partialOut, err := cliapp.CheckPartial(c, trimOutputFlags)
	if err != nil {
		return err
	}
	if err = cliapp.CheckOutputs(c.Args().Slice(), trimOutputs(c)...); err != nil {
		return err
	}
	rep, release, err := cliapp.RunChunked(c, "trim", opt.Select, func(t *table.Table, all []table.Key, progress func(int)) (*trim.Report, error) {
		opt.Progress = progress
		opt.AllRuns = all
		return trim.Run(t, opt)
	}, trim.Merge)
	defer release()
	if partialOut != "" {
		return cliapp.WritePartial(c, partialOut, "trim", opt.Select, rep, err, &trim.Report{Options: opt}, 0)
	}
	if err != nil {
		return err
	}
	return writeTrim(c, rep)
}

// writeTrim writes what trim writes from its report: the text, the
// details, every output whose flag is given and the --out-dir directory
// (also for benchtrim merge), as one set: nothing is in place until every
// output was written, and the folder replaces its old content as a whole.
func writeTrim(c *cli.Context, rep *trim.Report) error {
	outs, _ := cliapp.BeginOutputs(c)
	defer outs.Abort()
	if err := cliapp.WriteResult(c, rep, rep.WriteDetails, []cliapp.DataOut{{Flag: "output", Frame: trim.FramePlan}},
		cliapp.TextOut{Flag: "commands-out", Write: rep.WriteCommands}, cliapp.TextOut{Flag: "annotations-out", Write: rep.WriteAnnotations},
		cliapp.TextOut{Flag: "report", Write: func(w io.Writer) error { return report.WritePage(w, rep) }}); err != nil {
		return err
	}
	if dir := c.String("out-dir"); dir != "" {
		tmp, err := outs.Set.Dir(dir, true)
		if err == nil {
			err = report.WriteDir(tmp, rep, map[string]func(io.Writer) error{trimDirExtras[1]: rep.WriteCommands, trimDirExtras[0]: rep.WriteAnnotations})
		}
		if err != nil {
			return fmt.Errorf("--out-dir %s: %w", dir, err)
		}
		outs.Say("wrote %s (plan, frames, commands, annotations, report.html)", dir)
	}
	return outs.Commit()
}

func reportCommand() *cli.Command {
	return &cli.Command{
		Name:        "report",
		Usage:       "rebuild the HTML report from a directory written by benchtrim trim --out-dir",
		Description: help("report"),
		ArgsUsage:   "OUTPUT_DIR",
		Flags: groups(
			group("Output",
				&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Usage: "the page `FILE` (default: OUTPUT_DIR/report.html)"},
			),
		),
		Action: func(c *cli.Context) error {
			if c.NArg() != 1 {
				return cliapp.Usagef("report", "want one OUTPUT_DIR, got %d arguments", c.NArg())
			}
			dir := c.Args().First()
			out := c.String("output")
			if out == "" {
				out = filepath.Join(dir, "report.html")
			}
			// The page may replace the folder's report.html, no other
			// file of it.
			var ins []string
			for _, f := range report.DirFiles(trimDirExtras...) {
				if f != "report.html" {
					ins = append(ins, filepath.Join(dir, f))
				}
			}
			if err := cliapp.CheckOutputs(ins, cliapp.Output(c, "output", outpath.Text)); err != nil {
				return err
			}
			d, err := report.Load(dir)
			if err != nil {
				return err
			}
			var page bytes.Buffer
			if err := report.Write(&page, d); err != nil {
				return err
			}
			// The page and, when it is the folder's, the manifest listing
			// it are one set.
			var set atomicfile.Set
			defer set.Abort()
			if err := set.WriteFile(out, page.Bytes()); err != nil {
				return err
			}
			if sameFile(out, filepath.Join(dir, "report.html")) {
				m, err := report.ManifestWith(dir, "report.html", page.Bytes())
				if err == nil {
					err = set.WriteFile(filepath.Join(dir, report.Manifest), m)
				}
				if err != nil {
					return err
				}
			}
			if err := set.Commit(); err != nil {
				return err
			}
			fmt.Fprintf(c.App.Writer, "wrote %s\n", out)
			return nil
		},
	}
}

// parseOverhead reads --overhead: comma-separated LEVEL=DURATION pairs for
// the levels instance, trial and fork.
func parseOverhead(s string) ([table.NumLevels]time.Duration, error) {
	var o [table.NumLevels]time.Duration
	if s == "" {
		return o, nil
	}
	for _, kv := range strings.Split(s, ",") {
		k, v, ok := strings.Cut(kv, "=")
		l, known := table.ParseLevel(strings.TrimSpace(k))
		if !ok || !known || l > table.LevelFork {
			return o, cliapp.Usagef("trim", "--overhead: want LEVEL=DURATION with LEVEL instance, trial or fork, got %q", kv)
		}
		d, err := time.ParseDuration(strings.TrimSpace(v))
		if err != nil || d < 0 {
			return o, cliapp.Usagef("trim", "--overhead: %s: want a duration such as 1s or 2m, got %q", k, v)
		}
		o[l] = d
	}
	return o, nil
}

// sameFile reports whether the paths a and b name one file (b may not
// exist yet: then they are compared as absolute paths).
func sameFile(a, b string) bool {
	fa, errA := os.Stat(a)
	fb, errB := os.Stat(b)
	if errA == nil && errB == nil {
		return os.SameFile(fa, fb)
	}
	pa, _ := filepath.Abs(a)
	pb, _ := filepath.Abs(b)
	return pa == pb
}
