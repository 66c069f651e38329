package main

import (
	"io"
	"os"
	"path/filepath"
	"strings"

	"fmt"
	"github.com/benchtrim/benchtrim/internal/atomicfile"

	"github.com/urfave/cli/v2"

	"github.com/benchtrim/benchtrim/analysis/optimize"
	"github.com/benchtrim/benchtrim/analysis/trim"
	"github.com/benchtrim/benchtrim/changepoint"
	"github.com/benchtrim/benchtrim/estimate"
	"github.com/benchtrim/benchtrim/internal/outpath"
	"github.com/benchtrim/benchtrim/internal/progress"
	"github.com/benchtrim/benchtrim/reports"
	"github.com/benchtrim/benchtrim/reports/report"
)

const trimDescription = `Answers "what do I run instead?": per benchmark, which analyses apply and one recommended
configuration, with the evidence that its result does not change.

  Go data (go test -bench, µOpTime CSV): no warmup phase; µOpTime on all observations.
  JMH recorded with -wi 0, forks longer than --steady-window: steady-state detection per
    fork; warmup W = ⌈Q(--warmup-quantile) of the steady forks' starts⌉; µOpTime on the
    iterations after W. Fewer than half of the forks steady: unreliable, kept.
  JMH with shorter forks: W from dynamic reconfiguration's warmup stop points (same
    quantile), with a warning; µOpTime after W. JMH recorded with warmup: stated warmup kept.
  µOpTime's metric not below --threshold on the full steady part: unreliable, kept.
  Several versions of a project: consecutive versions are also compared (A/B).

Evidence: the estimate of the recommended configuration replayed on the recorded data against
the full steady part's estimate and bootstrap CI. --out-dir saves what benchtrim report reads.`

func trimCommand() *cli.Command {
	return &cli.Command{
		Name:        "trim",
		Usage:       "one configuration per benchmark: steady-state warmup + µOpTime repetitions",
		ArgsUsage:   "FILES...",
		Description: trimDescription,
		Flags: append(inputFlags(),
			&cli.StringFlag{Name: "metric", Value: trim.DefaultOptions.Optimize.Metrics[0].String(), Usage: "µOpTime stability metric: cv, rmad, rciw-mean, rciw-mean-t or rciw-median"},
			&cli.Float64Flag{Name: "threshold", Value: trim.DefaultOptions.Optimize.Threshold, Usage: "a configuration is stable when its metric is below this"},
			&cli.IntFlag{Name: "resamples", Value: estimate.DefaultBootstrap.Resamples, Usage: "bootstrap resamples (µOpTime and steady-state equivalence)"},
			&cli.Float64Flag{Name: "warmup-quantile", Value: trim.DefaultOptions.WarmupQuantile, Usage: "warmup = this quantile of the forks' steady-state starts, rounded up"},
			&cli.StringFlag{Name: "penalty", Value: "15log", Usage: "PELT penalty of the steady-state detection: 15log (Barrett), crops (Traini's CROPS + Kneedle; the report then plots the elbow), crops-ascending, or a number"},
			&cli.IntFlag{Name: "steady-window", Value: trim.DefaultOptions.Steady.SteadyWindow, Usage: "a fork is steady when its steady part covers its last N iterations; JMH forks of at most N iterations take the reconfiguration path"},
			benchFlag(),
			&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Usage: "the plan, one row per benchmark: FILE.csv, .arrow or .parquet"},
			&cli.StringFlag{Name: "commands-out", Usage: "shell script with one command line per benchmark (java -jar … / go test …)"},
			&cli.StringFlag{Name: "annotations-out", Usage: "JMH annotations (@Fork, @Warmup, @Measurement) per class"},
			&cli.StringFlag{Name: "report", Usage: "the HTML report `FILE` (self-contained: inline SVG, no network)"},
			&cli.StringFlag{Name: "out-dir", Usage: "write the plan, the analyses' frames, the commands and the report into `DIR` (benchtrim report DIR rebuilds the report)"},
			&cli.BoolFlag{Name: "details", Usage: "print every benchmark's reasons, configurations and warnings"},
		),
		Action: runTrim,
	}
}

// trimOptions reads the command's flags.
func trimOptions(c *cli.Context) (trim.Options, error) {
	g := globalsOf(c)
	opt := trim.DefaultOptions
	m, err := optimize.ParseMetrics(c.String("metric"))
	if err != nil {
		return opt, err
	}
	if len(m) != 1 {
		return opt, fmt.Errorf("--metric: want one metric, got %d", len(m))
	}
	opt.Optimize.Metrics = m
	opt.Optimize.Threshold = c.Float64("threshold")
	opt.Optimize.Bootstrap.Resamples = c.Int("resamples")
	opt.Steady.Bootstrap.Resamples = c.Int("resamples")
	opt.WarmupQuantile = c.Float64("warmup-quantile")
	opt.Steady.SteadyWindow = c.Int("steady-window")
	pen, err := changepoint.ParsePenalty(c.String("penalty"))
	if err != nil {
		return opt, fmt.Errorf("--penalty: %w", err)
	}
	opt.Steady.Penalty, opt.Steady.PenaltyValue = pen.Rule, pen.Manual
	if opt.Select, err = benchFilter(c); err != nil {
		return opt, err
	}
	opt.Seed, opt.Workers = g.Seed, g.Workers
	return opt, opt.Validate()
}

func runTrim(c *cli.Context) error {
	opt, err := trimOptions(c)
	if err != nil {
		return err
	}
	err = checkOutputs(c.Args().Slice(), output(c, "output", outpath.Data), output(c, "commands-out", outpath.Text),
		output(c, "annotations-out", outpath.Text), output(c, "report", outpath.Text), output(c, "out-dir", outpath.Dir))
	if err != nil {
		return err
	}
	t, err := loadTable(c)
	if err != nil {
		return err
	}
	defer t.Release()
	bar := progress.New(c.App.ErrWriter, globalsOf(c).Quiet, "trim", 0)
	opt.Progress = bar.Tick
	rep, err := trim.Run(t, opt)
	bar.Done()
	if err != nil {
		return benchError(c, err)
	}
	if err := writeResult(c, rep, rep.WriteDetails, []dataOut{{flag: "output", frame: trim.FramePlan}},
		textOut{"commands-out", rep.WriteCommands}, textOut{"annotations-out", rep.WriteAnnotations},
		textOut{"report", func(w io.Writer) error { return writeTrimReport(w, rep) }}); err != nil {
		return err
	}
	if dir := c.String("out-dir"); dir != "" {
		return writeTrimDir(c, rep, dir)
	}
	return nil
}

// writeTrimDir writes the plan and the analyses' frames (trimDirFiles),
// commands.sh, annotations.java and report.html into dir.
func writeTrimDir(c *cli.Context, rep *trim.Report, dir string) error {
	w := c.App.Writer
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for _, f := range report.Files {
		fr, err := rep.Frame(f.Frame)
		if err != nil {
			return err
		}
		if err := fr.WriteFile(filepath.Join(dir, f.File)); err != nil {
			return err
		}
	}
	if err := atomicfile.Write(filepath.Join(dir, "commands.sh"), rep.WriteCommands); err != nil {
		return err
	}
	if err := atomicfile.Write(filepath.Join(dir, "annotations.java"), rep.WriteAnnotations); err != nil {
		return err
	}
	page := filepath.Join(dir, "report.html")
	if err := atomicfile.Write(page, func(w io.Writer) error { return writeTrimReport(w, rep) }); err != nil {
		return err
	}
	fmt.Fprintf(w, "wrote %s (plan, frames, commands, annotations, report.html)\n", dir)
	return nil
}

// writeTrimReport renders rep's HTML page from its frames (the data
// benchtrim report reads back from --out-dir).
func writeTrimReport(w io.Writer, rep *trim.Report) error {
	frames := map[string]*reports.Frame{}
	for _, f := range report.Files {
		fr, err := rep.Frame(f.Frame)
		if err != nil {
			return err
		}
		frames[f.Frame] = fr
	}
	d, err := report.FromFrames(frames)
	if err != nil {
		return err
	}
	return report.Write(w, d)
}

func reportCommand() *cli.Command {
	return &cli.Command{
		Name:      "report",
		Usage:     "rebuild the HTML report from a directory written by benchtrim trim --out-dir",
		ArgsUsage: "OUTPUT_DIR",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Usage: "the page `FILE` (default: OUTPUT_DIR/report.html)"},
		},
		Action: func(c *cli.Context) error {
			if c.NArg() != 1 {
				return usagef("report", "want one OUTPUT_DIR, got %d arguments", c.NArg())
			}
			dir := c.Args().First()
			out := c.String("output")
			if out == "" {
				out = filepath.Join(dir, "report.html")
			}
			d, err := report.Load(dir)
			if err != nil {
				return err
			}
			if err := atomicfile.Write(out, func(w io.Writer) error { return report.Write(w, d) }); err != nil {
				return err
			}
			fmt.Fprintf(c.App.Writer, "wrote %s\n", out)
			return nil
		},
	}
}

// demoTrim runs trim last: on the JMH avgt file (steady window 100, so
// its 150-iteration forks take the steady-state path) and the go test
// -bench file, writing the plan, frames and report into $DEMO/trim, and
// prints the report's path and the one-line answer.
func demoTrim(d *demoRun) error {
	jmh, err := d.File("jmh-avgt")
	if err != nil {
		return err
	}
	gob, err := d.File("gobench")
	if err != nil {
		return err
	}
	dir := d.Out("trim")
	if err := d.Run("trim", "--steady-window", "100", "--resamples", "2000", "--out-dir", dir, jmh, gob); err != nil {
		return err
	}
	fmt.Fprintf(d.w, "\nreport: %s\nanswer: %s\n", filepath.Join(dir, "report.html"), strings.TrimSuffix(d.Headline, ";"))
	return nil
}
