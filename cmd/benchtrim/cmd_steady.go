package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/benchtrim/benchtrim/analysis/reconfigure"
	"github.com/benchtrim/benchtrim/analysis/steady"
	"github.com/benchtrim/benchtrim/changepoint"
	"github.com/benchtrim/benchtrim/internal/outpath"
	"github.com/benchtrim/benchtrim/internal/progress"
	"github.com/benchtrim/benchtrim/internal/stats"
	"github.com/benchtrim/benchtrim/reports"
)

const steadyDescription = `For every fork of every benchmark, recorded without warmup iterations (JMH -wi 0, many
iterations), finds where the steady state of performance starts (Traini, Cortellessa, Di Pompeo,
Tucci, EMSE 2022; Barrett et al., OOPSLA 2017):

  1. outliers: outside median ± 3·(p99 − p1) of a sliding window of 200 iterations; removed;
  2. PELT (Normal mean and variance) with the penalty from CROPS + Kneedle (--penalty);
  3. st = start of the earliest segment such that it and all later segments are equivalent
     to the last (--equivalence); the fork is steady when st <= n − --steady-window;
  4. classes: forks steady / no steady state (Barrett: flat, warmup, slowdown, no steady
     state); benchmarks steady / no steady state / inconsistent; forks with fewer than
     --steady-window iterations are "too short".

It then replays configurations on the forks (Traini's Algorithms 1 and 2): the recorded
setup with --wi --w --i --r --f replacing its values, and each criterion of a dynamic
configurations file (--configs, written by dynamic reconfiguration). Per steady fork:
warmup estimation error WEE = |wt − st|, over/underestimated beyond ±5 s, time waste, and
the relative performance deviation RPD of the kept measurements from the steady state;
per benchmark the RPD over its forks. With dynamic configurations the sets are compared
(Wilcoxon rank-sum, Vargha-Delaney Â12).

Iteration values are ns per operation (throughput as time per operation); an iteration
lasts its configured time (rounded up to whole operations) when the setup states one, else
invocations × mean time.`

func steadyCommand() *cli.Command {
	return &cli.Command{
		Name:        "steady",
		Usage:       "steady state per fork and benchmark; evaluate configurations against it",
		ArgsUsage:   "FILES...",
		Description: steadyDescription,
		Flags: append(inputFlags(),
			&cli.StringFlag{Name: "penalty", Value: "crops", Usage: "PELT penalty: crops (CROPS + Kneedle, Traini's protocol), crops-ascending (textbook Kneedle curve), 15log (Barrett) or a number"},
			&cli.StringFlag{Name: "pen-range", Usage: "CROPS penalty range `a,b` (default 4·log n, 1e5·log n per series)"},
			&cli.IntFlag{Name: "steady-window", Value: steady.DefaultOptions.SteadyWindow, Usage: "a fork is steady when its steady part covers at least its last N iterations"},
			&cli.StringFlag{Name: "equivalence", Value: "traini", Usage: "segment equivalence: traini (CI of the ratio of means not wholly beyond ±threshold), traini-strict (CI wholly within), barrett"},
			&cli.Float64Flag{Name: "threshold", Value: steady.DefaultOptions.Threshold, Usage: "relative threshold of the traini rules"},
			&cli.StringFlag{Name: "barrett-delta", Value: steady.DefaultOptions.BarrettDelta.String(), Usage: "δ of the barrett rule: seconds, or a percentage of the fastest segment (1%)"},
			&cli.IntFlag{Name: "resamples", Value: steady.DefaultOptions.Bootstrap.Resamples, Usage: "bootstrap resamples (equivalence and RPD)"},
			&cli.Float64Flag{Name: "confidence", Value: steady.DefaultOptions.Bootstrap.Confidence, Usage: "bootstrap confidence level"},
			&cli.IntFlag{Name: "outlier-window", Value: steady.DefaultOutlierOptions.Window, Usage: "sliding window of the outlier rule"},
			&cli.BoolFlag{Name: "no-outliers", Usage: "do not remove outliers"},
			&cli.IntFlag{Name: "wi", Value: -1, Usage: "warmup iterations of the evaluated configuration (default: the recorded setup's)"},
			&cli.DurationFlag{Name: "w", Usage: "warmup iteration time, e.g. 10s (default: the setup's)"},
			&cli.IntFlag{Name: "i", Value: -1, Usage: "measurement iterations (default: the setup's)"},
			&cli.DurationFlag{Name: "r", Usage: "measurement iteration time (default: the setup's)"},
			&cli.IntFlag{Name: "f", Value: -1, Usage: "forks (default: the setup's)"},
			&cli.StringFlag{Name: "configs", Usage: "dynamic configurations `CSV` (benchtrim reconfigure); one set per criterion"},
			benchFlag(),
			&cli.BoolFlag{Name: "details", Usage: "print the per-benchmark table, the full evaluation and the comparison of configuration sets"},
			&cli.StringFlag{Name: "forks-out", Usage: "per-fork results `FILE` (.csv, .arrow or .parquet)"},
			&cli.StringFlag{Name: "benchmarks-out", Usage: "per-benchmark results `FILE` (.csv, .arrow or .parquet)"},
			&cli.StringFlag{Name: "eval-out", Usage: "per-fork evaluation `FILE` (.csv, .arrow or .parquet; per-benchmark RPDs go to NAME.benchmarks.EXT next to it)"},
			&cli.StringFlag{Name: "plots", Usage: "write plots (series with segments and st; CROPS curves) into `DIR`"},
			&cli.StringFlag{Name: "plot-format", Value: "svg", Usage: "plot format: svg or png"},
			&cli.IntFlag{Name: "plot-max", Value: 20, Usage: "plot at most this many benchmark runs (all their forks)"},
		),
		Action: runSteady,
	}
}

// steadyOptions reads the command's flags.
func steadyOptions(c *cli.Context) (steady.Options, error) {
	g := globalsOf(c)
	opt := steady.DefaultOptions
	var err error
	pen, err := changepoint.ParsePenalty(c.String("penalty"))
	if err != nil {
		return opt, fmt.Errorf("--penalty: %w", err)
	}
	opt.Penalty, opt.PenaltyValue = pen.Rule, pen.Manual
	if r := c.String("pen-range"); r != "" {
		if opt.Penalty != steady.PenaltyCROPS && opt.Penalty != steady.PenaltyCROPSAscending {
			return opt, fmt.Errorf("--pen-range applies to --penalty crops or crops-ascending, not %s", c.String("penalty"))
		}
		if opt.PenRange, err = changepoint.ParsePenaltyRange(r); err != nil {
			return opt, fmt.Errorf("--pen-range: %w", err)
		}
	}
	opt.SteadyWindow = c.Int("steady-window")
	if opt.Equivalence, err = steady.ParseEquivalence(c.String("equivalence")); err != nil {
		return opt, fmt.Errorf("--equivalence: %w", err)
	}
	opt.Threshold = c.Float64("threshold")
	if opt.BarrettDelta, err = steady.ParseBarrettDelta(c.String("barrett-delta")); err != nil {
		return opt, fmt.Errorf("--barrett-delta: %w", err)
	}
	opt.Bootstrap = stats.BootstrapOptions{Resamples: c.Int("resamples"), Confidence: c.Float64("confidence")}
	opt.Outliers.Window = c.Int("outlier-window")
	opt.Outliers.Disabled = c.Bool("no-outliers")
	opt.Seed, opt.Workers = g.Seed, g.Workers

	var ov steady.Override
	for _, f := range []struct {
		name string
		dst  **int
	}{{"wi", &ov.WarmupIterations}, {"i", &ov.MeasurementIterations}, {"f", &ov.Forks}} {
		if c.IsSet(f.name) {
			v := c.Int(f.name)
			if v < 0 || f.name != "wi" && v == 0 {
				return opt, fmt.Errorf("--%s %d: want a count (at least 1 for -i and -f)", f.name, v)
			}
			*f.dst = &v
		}
	}
	for _, f := range []struct {
		name string
		dst  **int64
	}{{"w", &ov.WarmupTimeNs}, {"r", &ov.MeasurementTimeNs}} {
		if c.IsSet(f.name) {
			v := c.Duration(f.name).Nanoseconds()
			if v <= 0 {
				return opt, fmt.Errorf("--%s %v: want a positive duration such as 10s", f.name, c.Duration(f.name))
			}
			*f.dst = &v
		}
	}
	name := "setup"
	if !ov.Empty() {
		name = "flags"
	}
	opt.Configs = []steady.ConfigSet{steady.SetupConfigs(name, ov)}
	if path := c.String("configs"); path != "" {
		sets, err := dynamicConfigSets(path)
		if err != nil {
			return opt, err
		}
		opt.Configs = append(opt.Configs, sets...)
	}
	if c.String("plots") != "" {
		opt.KeepValues, opt.KeepCROPS = true, true
		switch f := c.String("plot-format"); f {
		case "svg", "png":
		default:
			return opt, fmt.Errorf("--plot-format %q: want svg or png", f)
		}
	}
	return opt, opt.Validate()
}

// dynamicConfigSets reads a dynamic configurations file into one set per
// criterion ("dynamic-cv", …); its iterations are recorded iterations.
func dynamicConfigSets(path string) ([]steady.ConfigSet, error) {
	rows, err := reconfigure.ReadConfigsFile(path)
	if err != nil {
		return nil, err
	}
	byCrit := map[string][]steady.ForkConfig{}
	for _, r := range rows {
		crit := r.Criterion.String()
		byCrit[crit] = append(byCrit[crit], steady.ForkConfig{Key: r.Key,
			ID:     steady.ForkID{Instance: r.Instance, Trial: r.Trial, Fork: r.Fork},
			Config: steady.Config{WarmupIterations: r.WarmupIterations, MeasurementIterations: r.MeasurementIterations},
			Forks:  r.ForksUsed})
	}
	if len(byCrit) == 0 {
		return nil, fmt.Errorf("%s: no configurations", path)
	}
	crits := make([]string, 0, len(byCrit))
	for k := range byCrit {
		crits = append(crits, k)
	}
	sort.Strings(crits)
	var sets []steady.ConfigSet
	for _, k := range crits {
		sets = append(sets, steady.PerForkConfigs("dynamic-"+k, byCrit[k]))
	}
	return sets, nil
}

// evaluationSidecar is the per-benchmark RPD file written beside --eval-out
// (NAME.benchmarks.EXT, in the same format).
func evaluationSidecar(path string) string {
	ext := filepath.Ext(path)
	return strings.TrimSuffix(path, ext) + ".benchmarks" + ext
}

func runSteady(c *cli.Context) error {
	opt, err := steadyOptions(c)
	if err != nil {
		return err
	}
	inputs := c.Args().Slice()
	if p := c.String("configs"); p != "" {
		inputs = append(inputs, p)
	}
	err = checkOutputs(inputs, output(c, "forks-out", outpath.Data), output(c, "benchmarks-out", outpath.Data),
		output(c, "eval-out", outpath.Data, evaluationSidecar), output(c, "plots", outpath.Dir))
	if err != nil {
		return err
	}
	t, series, err := loadSeries(c)
	if err != nil {
		return err
	}
	defer t.Release()
	w, errw := c.App.Writer, c.App.ErrWriter
	g := globalsOf(c)
	bar := progress.New(errw, g.Quiet, "steady", len(series))
	opt.Progress = func() { bar.Add(1) }
	res, err := steady.Analyze(series, opt)
	bar.Done()
	if err != nil {
		return err
	}
	if err := writeSteadySummary(w, res); err != nil {
		return err
	}
	if c.Bool("details") {
		fmt.Fprintln(w)
		if err := writeSteadyReport(w, res); err != nil {
			return err
		}
	}
	outs := []struct {
		flag  string
		frame func(*steady.Result) *reports.Frame
	}{
		{"forks-out", steady.ForksFrame},
		{"benchmarks-out", steady.BenchmarksFrame},
		{"eval-out", steady.EvaluationFrame},
	}
	for _, o := range outs {
		path := c.String(o.flag)
		if path == "" {
			continue
		}
		if err := o.frame(res).WriteFile(path); err != nil {
			return err
		}
		fmt.Fprintf(w, "wrote %s\n", path)
		if o.flag == "eval-out" {
			side := evaluationSidecar(path)
			if err := steady.BenchmarkEvaluationFrame(res).WriteFile(side); err != nil {
				return err
			}
			fmt.Fprintf(w, "wrote %s\n", side)
		}
	}
	if dir := c.String("plots"); dir != "" {
		n, err := writeSteadyPlots(dir, c.String("plot-format"), c.Int("plot-max"), res)
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "wrote %d plots into %s\n", n, dir)
	}
	return nil
}

// writeSteadyReport prints the Markdown tables: classes, the benchmarks
// (when there are few), the evaluation and the comparisons.
// writeSteadySummary prints the short answer: how many benchmark runs and
// forks reach a steady state and after how long, the class counts, and per
// configuration set how far its warmup is from the steady state. When every
// run is too short it returns an error naming --steady-window.
func writeSteadySummary(w io.Writer, res *steady.Result) error {
	var runs, steadyRuns, forks, steadyForks, tooShort, longest, failed int
	var firstErr string
	var st []float64
	for _, br := range res.Benchmarks {
		runs++
		switch br.Class {
		case steady.BenchmarkSteady:
			steadyRuns++
		case steady.BenchmarkTooShort:
			tooShort++
		}
		for _, f := range br.Forks {
			forks++
			longest = max(longest, f.Points)
			if f.Class == steady.ForkFailed {
				if failed++; failed == 1 {
					firstErr = fmt.Sprintf("%s fork %d: %s", br.Key, f.ID.Fork, f.Err)
				}
			}
			if f.Class == steady.ForkSteady {
				steadyForks++
				st = append(st, f.SteadySeconds)
			}
		}
	}
	if forks > 0 && failed == forks {
		return fmt.Errorf("no result: the analysis of every fork failed (first: %s)", firstErr)
	}
	if runs > 0 && tooShort == runs && longest < res.Options.SteadyWindow {
		return fmt.Errorf("no result: all %d benchmark runs are too short: no fork has --steady-window %d iterations (the longest has %d); lower --steady-window",
			runs, res.Options.SteadyWindow, longest)
	}
	fmt.Fprintf(w, "steady state: %d of %d benchmark runs (%d of %d forks) reach a steady state", steadyRuns, runs, steadyForks, forks)
	if len(st) > 0 {
		fmt.Fprintf(w, ";\nsteady forks settle after a median %s, 90 %% of them within %s (st).\n",
			reports.Human(reports.Seconds(stats.Median(st, nil))), reports.Human(reports.Seconds(stats.Quantile(st, 0.9, nil))))
	} else {
		fmt.Fprintln(w, ".")
	}
	fmt.Fprintln(w)
	if err := res.ClassTable().WriteMarkdown(w); err != nil {
		return err
	}
	if len(res.Options.Configs) > 0 {
		fmt.Fprintln(w)
		short := res.EvaluationTable().Select("set", "steady forks run", "overestimated", "underestimated", "median WEE", "time waste", "runs RPD > 5 %")
		short.Title = ""
		if err := short.WriteMarkdown(w); err != nil {
			return err
		}
		fmt.Fprintln(w, "over/underestimated: warmup longer/shorter than st by more than 5 s; RPD: result change.")
	}
	fmt.Fprintln(w, "--details prints the per-benchmark table and the comparison of configuration sets.")
	return nil
}

func writeSteadyReport(w io.Writer, res *steady.Result) error {
	if len(res.Benchmarks) <= 40 {
		bt := &reports.Table{Title: "Benchmark runs", Columns: []string{"benchmark", "params", "forks", "class", "Barrett classes", "st (iterations)", "st"}}
		for _, br := range res.Benchmarks {
			var barrett, sts []string
			var secs []float64
			for _, f := range br.Forks {
				barrett = append(barrett, f.Barrett.String())
				if f.Class == steady.ForkSteady {
					sts = append(sts, strconv.Itoa(f.SteadyStart))
					secs = append(secs, f.SteadySeconds)
				}
			}
			var st any
			if len(secs) > 0 {
				st = reports.Seconds(stats.Median(secs, nil))
			}
			bt.AddRow(br.Key.Benchmark, br.Key.Params, len(br.Forks), br.Class.String(), strings.Join(barrett, " "), strings.Join(sts, " "), st)
		}
		bt.Notes = []string{"st: the steady forks' steady-state starts; the time column is their median."}
		fmt.Fprintln(w)
		if err := bt.WriteMarkdown(w); err != nil {
			return err
		}
	}
	if len(res.Options.Configs) == 0 {
		return nil
	}
	fmt.Fprintln(w)
	if err := res.EvaluationTable().WriteMarkdown(w); err != nil {
		return err
	}
	var cmp []steady.Comparison
	for b := 1; b < len(res.Options.Configs); b++ {
		c, err := steady.Compare(res, 0, b)
		if err != nil {
			return err
		}
		cmp = append(cmp, c...)
	}
	if len(cmp) > 0 {
		fmt.Fprintln(w)
		return steady.ComparisonTable(cmp).WriteMarkdown(w)
	}
	return nil
}

var unsafeFileChars = regexp.MustCompile(`[^A-Za-z0-9._=-]+`)

// writeSteadyPlots writes, for the first max benchmark runs, one series
// plot per fork and one CROPS curve per fork that ran CROPS.
func writeSteadyPlots(dir, format string, max int, res *steady.Result) (int, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return 0, err
	}
	n := 0
	for bi, br := range res.Benchmarks {
		if bi >= max {
			break
		}
		name := br.Key.Benchmark
		if i := strings.LastIndex(name, "."); i >= 0 && i+1 < len(name) {
			if j := strings.LastIndex(name[:i], "."); j >= 0 {
				name = name[j+1:] // Class.method
			}
		}
		if br.Key.Params != "" {
			name += "[" + br.Key.Params + "]"
		}
		slug := strings.Trim(unsafeFileChars.ReplaceAllString(fmt.Sprintf("%03d-%s", bi+1, name), "_"), "_")
		for _, f := range br.Forks {
			if len(f.Values) == 0 {
				continue
			}
			sp := &reports.SeriesPlot{
				Title:  fmt.Sprintf("%s %s: %s", name, f.ID, f.Class),
				XLabel: "iteration", YLabel: "ns/op", Values: f.Values, Outliers: f.Outliers, SteadyStart: f.SteadyStart,
			}
			first := len(f.Segments)
			if f.Class == steady.ForkSteady {
				for k, s := range f.Segments {
					if s.Start == f.SteadyStart {
						first = k
					}
				}
			}
			for k, s := range f.Segments {
				sp.Segments = append(sp.Segments, reports.PlotSegment{Start: s.Start, End: s.End, Mean: s.Mean, Steady: k >= first})
			}
			p, err := sp.Plot()
			if err != nil {
				return n, err
			}
			base := filepath.Join(dir, fmt.Sprintf("%s-f%d", slug, f.ID.Fork))
			if f.ID.Instance > 1 || f.ID.Trial > 1 {
				base = filepath.Join(dir, fmt.Sprintf("%s-i%dt%df%d", slug, f.ID.Instance, f.ID.Trial, f.ID.Fork))
			}
			if err := reports.SavePlot(p, base+"."+format, reports.PlotSize.Width, reports.PlotSize.Height); err != nil {
				return n, err
			}
			n++
			// The curve Kneedle read; when the Traini protocol stopped on
			// R's transpose quirk (counts and penalties of different
			// lengths), the CROPS segmentations themselves.
			var pens []float64
			var counts []int
			var proto string
			switch {
			case f.Knee != nil && len(f.Knee.Penalties) == len(f.Knee.NCpts):
				pens, counts, proto = f.Knee.Penalties, f.Knee.NCpts, f.Knee.Protocol.String()+" protocol"
			case f.CROPS != nil && len(f.CROPS.PenValueFull) > len(f.CROPS.Segmentations):
				counts = f.CROPS.NumChangepoints()
				pens, proto = f.CROPS.PenValueFull[:len(counts)], "lower bounds"
			default:
				continue
			}
			cp := &reports.CurvePlot{Title: fmt.Sprintf("CROPS %s %s (%s)", name, f.ID, proto),
				Penalties: pens, Counts: counts, Chosen: f.Penalty,
				ChosenLabel: fmt.Sprintf("penalty %.4g (%s): %d change points", f.Penalty, f.PenaltyRule, len(f.Changepoints))}
			p, err = cp.Plot()
			if err != nil {
				continue // a curve without positive penalties: nothing to draw
			}
			if err := reports.SavePlot(p, base+"-crops."+format, reports.PlotSize.Width, reports.PlotSize.Height); err != nil {
				return n, err
			}
			n++
		}
	}
	return n, nil
}

// demoSteady runs the steady-state analysis on the generated JMH avgt file
// (4 forks × 150 iterations of 1 s recorded with -wi 0), with a steady
// window of 30 iterations (a fifth of the fork, as 500 of Traini's 3,000),
// evaluating a developer-like configuration and, when the reconfigure step
// ran before, the dynamic configurations it wrote.
func demoSteady(d *demoRun) error {
	in, err := d.File("avgt")
	if err != nil {
		return err
	}
	args := []string{"steady", "--steady-window", "30",
		"--wi", "5", "--w", "1s", "--i", "10", "--r", "1s", "--f", "3",
		"--forks-out", d.Out("steady-forks.csv"), "--benchmarks-out", d.Out("steady-benchmarks.csv"),
		"--eval-out", d.Out("steady-eval.csv"), "--plots", d.Out("steady-plots"), "--plot-format", "png"}
	if dyn := d.Out("dynamic.csv"); fileExists(dyn) {
		args = append(args, "--configs", dyn)
	}
	return d.Run(append(args, in)...)
}

func fileExists(path string) bool {
	st, err := os.Stat(path)
	return err == nil && st.Mode().IsRegular()
}
