package main

import (
	"fmt"
	"math"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/benchtrim/benchtrim/analysis/compare"
	"github.com/benchtrim/benchtrim/estimate"
	"github.com/benchtrim/benchtrim/internal/cliapp"
	"github.com/benchtrim/benchtrim/internal/outpath"
	"github.com/benchtrim/benchtrim/internal/progress"
	"github.com/benchtrim/benchtrim/table"
)

func compareCommand() *cli.Command {
	return &cli.Command{
		Name:        "compare",
		Usage:       "A/B comparison of two result sets, or A/A test of one",
		ArgsUsage:   "[FILES...]",
		Description: help("compare"),
		Flags: groups(
			group("Sides",
				&cli.StringSliceFlag{Name: "base", Usage: "base (control) result `FILE` or quoted glob; repeat for more"},
				&cli.StringSliceFlag{Name: "test", Usage: "test result `FILE` or quoted glob; repeat for more"},
				&cli.StringFlag{Name: "base-version", Usage: "base = runs with this version label"},
				&cli.StringFlag{Name: "test-version", Usage: "test = runs with this version label"},
				&cli.StringFlag{Name: "base-project", Usage: "base = runs with this project label"},
				&cli.StringFlag{Name: "test-project", Usage: "test = runs with this project label"},
				&cli.StringFlag{Name: "base-pair", Usage: "base = rows with this duet pair label"},
				&cli.StringFlag{Name: "test-pair", Usage: "test = rows with this duet pair label"},
				&cli.StringFlag{Name: "col", Value: ".file", Usage: "what the two sides are, as benchstat's -col: .file (the files or label selectors), .config (the two project@version labels in FILES) or /KEY (the two values of parameter KEY, e.g. /size, in FILES)"},
				&cli.StringFlag{Name: "row", Usage: "what names a row, as benchstat's -row: comma-separated .fullname (default), .name, /KEY, .file or .config; runs that agree on them are pooled"},
			),
			group("A/A test",
				&cli.BoolFlag{Name: "aa", Usage: "A/A test: split each run of FILES into two random halves"},
				&cli.StringFlag{Name: "split", Value: "fork", Usage: "A/A split level: fork, trial or instance"},
				&cli.IntFlag{Name: "aa-repeats", Value: 1, Usage: "A/A: random splits per benchmark"},
			),
			group("Statistics",
				&cli.StringFlag{Name: "statistic", Value: compare.StatisticMedian, Usage: "median (medians, verdict by the U test, as benchstat; with --alpha 0.05 benchstat's verdicts) or mean (ratio of means, verdict by its bootstrap interval)"},
				&cli.Float64Flag{Name: "alpha", Value: compare.DefaultOptions.Alpha, Usage: "significance level of the U test"},
				&cli.Float64Flag{Name: "min-effect", Usage: "practical significance: a change under `PCT` % is ~ even when significant"},
				&cli.Float64Flag{Name: "confidence", Value: compare.DefaultOptions.Bootstrap.Confidence, Usage: "confidence level of the bootstrap intervals"},
				&cli.IntFlag{Name: "resamples", Value: compare.DefaultOptions.Bootstrap.Resamples, Usage: "bootstrap resamples"},
				&cli.IntFlag{Name: "is", Value: 0, Usage: "invocation samples per iteration: 0 iteration mean, -1 all, k k samples (pa's -is)"},
				&cli.IntFlag{Name: "discard-warmup", Usage: "drop the first `N` iterations of every fork (data recorded without warmup)"},
			),
			group("Selection",
				&cli.StringFlag{Name: "filter", Usage: "compare only benchmarks this `EXPR` keeps: REGEXP on the full name (BenchmarkSort/n=16), name:REGEXP, KEY:VALUE, -TERM (see below)"},
				&cli.StringFlag{Name: "bench", Usage: "same as --filter (older name)"},
				&cli.StringSliceFlag{Name: "metrics", Usage: "metrics to compare: primary (times) and secondary ones by name (B/op, gc.alloc.rate.norm, …); default all"},
			),
			group("Input", cliapp.InputFlags()...),
			group("Output",
				&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Usage: "also write the results for notebooks: OUT.csv, OUT.arrow or OUT.parquet"},
				&cli.BoolFlag{Name: "wide", Usage: "print benchmark names whole (default: shortened with … to keep tables within 100 columns)"},
			),
		),
		Action: runCompare,
	}
}

// compareSelectors returns the label selectors of both sides and whether any was given.
func compareSelectors(c *cli.Context) (base, test compare.Selector, any bool) {
	base = compare.Selector{Project: c.String("base-project"), Version: c.String("base-version"), Pair: c.String("base-pair")}
	test = compare.Selector{Project: c.String("test-project"), Version: c.String("test-version"), Pair: c.String("test-pair")}
	return base, test, base != (compare.Selector{}) || test != (compare.Selector{})
}

func runCompare(c *cli.Context) error {
	opt, err := compareOptions(c)
	if err != nil {
		return err
	}
	args := c.Args().Slice()
	inputs := append([]string(nil), args...)
	for _, g := range append(append([]string(nil), c.StringSlice("base")...), c.StringSlice("test")...) {
		m, _ := filepath.Glob(g)
		inputs = append(inputs, m...)
	}
	if err := cliapp.CheckOutputs(inputs, cliapp.Output(c, "output", outpath.Data)); err != nil {
		return err
	}
	bar := progress.New(c.App.ErrWriter, cliapp.GlobalsOf(c).Quiet, "compare", 0)
	opt.Progress = bar.Tick
	defer bar.Done()
	if c.Bool("aa") {
		return runAA(c, opt, args)
	}
	switch col := c.String("col"); {
	case col == compare.ColConfig || strings.HasPrefix(col, "/"):
		return runCompareCol(c, opt, args)
	case c.String("row") != "":
		base, test, release, err := compareSides(c, args)
		defer release()
		if err != nil {
			return err
		}
		return compareAndWrite(c, *base, test, opt)
	}
	if cliapp.GlobalsOf(c).MaxRows > 0 {
		bs, ts, err := compareSpecs(c, args)
		if err != nil {
			return err
		}
		return runCompareChunked(c, opt, bs, ts, bar.Done)
	}
	base, test, release, err := compareSides(c, args)
	defer release()
	if err != nil {
		return err
	}
	var res cliapp.Result
	if test == nil { // one file: describe it
		res, err = compare.Describe(*base, opt)
	} else {
		res, err = compare.Run(*base, *test, opt)
	}
	bar.Done()
	if err != nil {
		return metricsError(err)
	}
	return cliapp.WriteResult(c, res, nil, []cliapp.DataOut{{Flag: "output", Frame: compare.TableResults}})
}

// runCompareChunked is the A/B comparison of two sides, or the summary
// of one (ts nil), whose inputs may not fit in memory: it reads each side
// (cliapp.ReadSpooled); when they hold at most --max-rows rows in all it
// compares them as compare.Run does (describes as compare.Describe),
// else it spools them, grouped by benchmark name (the unit compare
// matches on, table.NameGroupOf), and runs compare.RunPart
// (compare.DescribePart) on a chunk of names at a time
// (table.JointChunks), merging with compare.MergeParts
// (compare.MergeDescribed). Every result depends only on its benchmark's
// runs and its name's random stream, so the output is the in-memory
// run's byte for byte (TestChunkedCompareEqualsWhole).
func runCompareChunked(c *cli.Context, opt compare.Options, bs, ts *sideSpec, done func()) error {
	g := cliapp.GlobalsOf(c)
	var in []*cliapp.Spooled
	defer func() {
		for _, s := range in {
			s.Close()
		}
	}()
	for _, spec := range []*sideSpec{bs, ts} {
		if spec == nil || spec.files == nil {
			continue // chosen by labels from the base side's input
		}
		s, err := cliapp.ReadSpooled(c, spec.files, g.MaxRows, table.NameGroupOf)
		if err != nil {
			return err
		}
		in = append(in, s)
	}
	rows, spooled := int64(0), false
	for _, s := range in {
		rows, spooled = rows+s.Rows, spooled || s.Spool != nil
	}
	side := func(spec *sideSpec, tabs []*table.Table) compare.Side {
		if spec.files == nil || len(tabs) == 1 {
			return compare.Side{Label: spec.label, Table: tabs[0], Select: spec.sel}
		}
		return compare.Side{Label: spec.label, Table: tabs[1], Select: spec.sel}
	}
	if !spooled && rows <= g.MaxRows {
		var tabs []*table.Table
		for _, s := range in {
			t := s.Table()
			defer t.Release()
			tabs = append(tabs, t)
		}
		var res cliapp.Result
		var err error
		if base := side(bs, tabs[:1]); ts == nil {
			res, err = compare.Describe(base, opt)
		} else {
			test := side(ts, tabs)
			if err := compare.CheckSides(base, test); err != nil {
				return err
			}
			res, err = compare.Run(base, test, opt)
		}
		done()
		if err != nil {
			return metricsError(err)
		}
		return cliapp.WriteResult(c, res, nil, []cliapp.DataOut{{Flag: "output", Frame: compare.TableResults}})
	}
	spools := make([]*table.Spool, len(in))
	for i, s := range in {
		if err := s.ToSpool(); err != nil {
			return err
		}
		spools[i] = s.Spool
	}
	chunks := table.JointChunks(g.MaxRows, spools...)
	if !g.Quiet {
		verb := "comparing"
		if ts == nil {
			verb = "describing"
		}
		fmt.Fprintf(c.App.ErrWriter, "compare: the inputs' %d rows are more than --max-rows %d: %s %d chunks of benchmarks one at a time (scratch files in $TMPDIR)\n",
			rows, g.MaxRows, verb, len(chunks))
	}
	parts := make([]*compare.Part, 0, len(chunks))
	for _, ch := range chunks {
		var tabs []*table.Table
		release := func() {
			for _, t := range tabs {
				t.Release()
			}
		}
		for i, s := range in {
			t, err := s.Spool.Read(ch[i], s.Setups)
			if err != nil {
				release()
				return err
			}
			tabs = append(tabs, t)
		}
		var p *compare.Part
		var err error
		if ts == nil {
			p, err = compare.DescribePart(side(bs, tabs[:1]), opt)
		} else {
			p, err = compare.RunPart(side(bs, tabs[:1]), side(ts, tabs), opt)
		}
		release()
		if err != nil {
			return metricsError(err)
		}
		parts = append(parts, p)
	}
	var res cliapp.Result
	var err error
	if ts == nil {
		res, err = compare.MergeDescribed(parts, opt)
	} else {
		res, err = compare.MergeParts(parts, bs.sel, ts.sel, ts.files == nil, opt)
	}
	done()
	if err != nil {
		return metricsError(err)
	}
	return cliapp.WriteResult(c, res, nil, []cliapp.DataOut{{Flag: "output", Frame: compare.TableResults}})
}

// metricsError names the --metrics flag in an error about metrics.
func metricsError(err error) error {
	if strings.HasPrefix(err.Error(), "metrics ") {
		return fmt.Errorf("--%w", err)
	}
	return err
}

// compareOptions reads the bootstrap, test, filter, metrics and seed flags.
func compareOptions(c *cli.Context) (compare.Options, error) {
	g := cliapp.GlobalsOf(c)
	opt := compare.DefaultOptions
	opt.Bootstrap = estimate.HierarchicalOptions{
		BootstrapOptions:  estimate.BootstrapOptions{Resamples: c.Int("resamples"), Confidence: c.Float64("confidence")},
		InvocationSamples: c.Int("is"),
	}
	opt.Alpha = c.Float64("alpha")
	opt.Statistic, opt.MinEffect, opt.Wide = c.String("statistic"), c.Float64("min-effect"), c.Bool("wide")
	if opt.Statistic != compare.StatisticMean && opt.Statistic != compare.StatisticMedian {
		return opt, cliapp.Usagef("compare", "--statistic %q: want mean or median", opt.Statistic)
	}
	if !(opt.MinEffect >= 0) || math.IsInf(opt.MinEffect, 0) {
		return opt, cliapp.Usagef("compare", "--min-effect %v: want a percentage >= 0", opt.MinEffect)
	}
	opt.Row, opt.Col = c.String("row"), c.String("col")
	if err := compare.CheckProjections(opt.Row, opt.Col); err != nil {
		return opt, cliapp.Usagef("compare", "--%v", err)
	}
	opt.DiscardWarmup = c.Int("discard-warmup")
	opt.Seed, opt.Workers = g.Seed, g.Workers
	for _, x := range c.StringSlice("metrics") {
		for _, y := range strings.Split(x, ",") {
			if y = strings.TrimSpace(y); y != "" {
				opt.Metrics = append(opt.Metrics, y)
			}
		}
	}
	flag, expr := "--filter", c.String("filter")
	if b := c.String("bench"); b != "" {
		if expr != "" {
			return opt, cliapp.Usagef("compare", "--bench is the older name of --filter: give one of them")
		}
		flag, expr = "--bench", b
	}
	if expr != "" {
		f, err := compare.ParseFilter(expr)
		if err != nil {
			return opt, cliapp.Usagef("compare", "%s: %v", flag, err)
		}
		opt.Filter = f
	}
	return opt, opt.Validate()
}

// runAA splits every run of the positional files into two halves and
// compares them (compare --aa).
func runAA(c *cli.Context, opt compare.Options, args []string) error {
	_, _, anySel := compareSelectors(c)
	if len(c.StringSlice("base"))+len(c.StringSlice("test")) > 0 || anySel {
		return fmt.Errorf("--aa takes the files of one recording as positional arguments, not --base/--test or label selectors")
	}
	level, ok := table.ParseLevel(c.String("split"))
	if !ok || level > table.LevelFork {
		return fmt.Errorf("--split %q: want fork, trial or instance", c.String("split"))
	}
	aopt := compare.AAOptions{Options: opt, Split: level, Repeats: c.Int("aa-repeats")}
	if err := aopt.Validate(); err != nil {
		return err
	}
	// Each run is split and compared on its own, so an input larger than
	// --max-rows is compared a chunk of benchmarks at a time.
	rep, release, err := cliapp.RunChunked(c, "compare", table.Filter{}, func(t *table.Table, _ []table.Key, progress func(int)) (*compare.AAReport, error) {
		o := aopt
		o.Progress = progress
		return compare.AA(t, o)
	}, compare.MergeAA)
	defer release()
	if err != nil {
		return err
	}
	return cliapp.WriteResult(c, rep, nil, []cliapp.DataOut{{Flag: "output", Frame: compare.TableResults}})
}

// compareSides reads the two sides named in one of the ways help/compare.txt
// lists; with one positional file, test is nil and base is the file to
// describe. release frees the tables read, also on error.
func compareSides(c *cli.Context, args []string) (base, test *compare.Side, release func(), err error) {
	var tabs []*table.Table
	release = func() {
		for _, t := range tabs {
			t.Release()
		}
	}
	bs, ts, err := compareSpecs(c, args)
	if err != nil {
		return nil, nil, release, err
	}
	read := func(s *sideSpec) (*compare.Side, error) {
		t, err := readCompareInputs(c, s.files)
		if err != nil {
			return nil, err
		}
		tabs = append(tabs, t)
		return &compare.Side{Label: s.label, Table: t, Select: s.sel}, nil
	}
	if base, err = read(bs); err != nil || ts == nil {
		return base, nil, release, err
	}
	if ts.files == nil {
		test = &compare.Side{Label: ts.label, Table: base.Table, Select: ts.sel}
	} else if test, err = read(ts); err != nil {
		return nil, nil, release, err
	}
	return base, test, release, compare.CheckSides(*base, *test)
}

// sideSpec is one side of a comparison as the arguments name it: its
// label, selector and files (nil files: the base side's table, chosen
// by labels).
type sideSpec struct {
	label string
	sel   compare.Selector
	files []string
}

// compareSpecs reads which sides the arguments name, in one of the ways
// help/compare.txt lists (test is nil for one file to describe).
func compareSpecs(c *cli.Context, args []string) (base, test *sideSpec, err error) {
	baseFiles, testFiles := c.StringSlice("base"), c.StringSlice("test")
	baseSel, testSel, anySel := compareSelectors(c)
	switch {
	case len(baseFiles) > 0 || len(testFiles) > 0:
		if baseFiles, testFiles, err = sideFiles(baseFiles, testFiles, args); err != nil {
			return nil, nil, err
		}
		return &sideSpec{compare.FilesLabel(baseFiles, baseSel), baseSel, baseFiles}, &sideSpec{compare.FilesLabel(testFiles, testSel), testSel, testFiles}, nil
	case anySel:
		if baseSel == (compare.Selector{}) || testSel == (compare.Selector{}) {
			return nil, nil, fmt.Errorf("label selection needs a selector for each side (e.g. --base-version V1 --test-version V2)")
		}
		return &sideSpec{baseSel.String(), baseSel, args}, &sideSpec{testSel.String(), testSel, nil}, nil
	case len(args) == 2:
		return &sideSpec{args[0], compare.Selector{}, args[:1]}, &sideSpec{args[1], compare.Selector{}, args[1:]}, nil
	case len(args) == 1:
		return &sideSpec{args[0], compare.Selector{}, args}, nil, nil
	}
	return nil, nil, fmt.Errorf("name the two result sets: OLD NEW, --base FILE --test FILE, FILES with --base-version V1 --test-version V2, or --aa FILES; or one FILE to summarise it (see benchtrim compare --help)")
}

// sideFiles checks --base and --test and expands their globs.
func sideFiles(baseFiles, testFiles, args []string) ([]string, []string, error) {
	if len(baseFiles) == 0 || len(testFiles) == 0 {
		return nil, nil, fmt.Errorf("--base and --test must both be given")
	}
	if len(args) > 0 {
		return nil, nil, fmt.Errorf("positional file %s given with --base/--test: repeat the flag for every file (--base a --base b) or quote a glob (--base 'dir/*.json')", args[0])
	}
	b, err := cliapp.ExpandGlobs(baseFiles)
	if err != nil {
		return nil, nil, fmt.Errorf("--base: %w", err)
	}
	t, err := cliapp.ExpandGlobs(testFiles)
	if err != nil {
		return nil, nil, fmt.Errorf("--test: %w", err)
	}
	return b, t, nil
}

// readCompareInputs reads files into one table (see LoadInputs).
func readCompareInputs(c *cli.Context, paths []string) (*table.Table, error) {
	t, _, _, err := cliapp.LoadInputs(c, paths)
	return t, err
}

// runCompareCol compares, in the files of args, the two configurations
// (--col .config) or the runs with one value of a parameter against those
// with the other (--col /KEY): compare.ColSides finds the sides.
func runCompareCol(c *cli.Context, opt compare.Options, args []string) error {
	col := c.String("col")
	if len(args) == 0 || len(c.StringSlice("base")) > 0 || len(c.StringSlice("test")) > 0 {
		return cliapp.Usagef("compare", "--col %s takes FILES as positional arguments, not --base/--test", col)
	}
	if _, _, any := compareSelectors(c); any {
		return cliapp.Usagef("compare", "--col %s: label selectors (--base-version, …) choose the sides of --col .file", col)
	}
	t, err := cliapp.LoadTable(c)
	if err != nil {
		return err
	}
	defer t.Release()
	base, test, err := compare.ColSides(t, opt)
	if err != nil {
		return fmt.Errorf("--%w", err)
	}
	return compareAndWrite(c, base, &test, opt)
}

// compareAndWrite compares test with base (describes base when test is
// nil) in memory and writes the result.
func compareAndWrite(c *cli.Context, base compare.Side, test *compare.Side, opt compare.Options) error {
	var res cliapp.Result
	var err error
	if test == nil {
		res, err = compare.Describe(base, opt)
	} else {
		res, err = compare.Run(base, *test, opt)
	}
	if err != nil {
		return metricsError(err)
	}
	return cliapp.WriteResult(c, res, nil, []cliapp.DataOut{{Flag: "output", Frame: compare.TableResults}})
}
