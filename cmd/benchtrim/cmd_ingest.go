package main

import (
	"fmt"
	"io"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/benchtrim/benchtrim/ingest"
	"github.com/benchtrim/benchtrim/internal/arrowio"
	"github.com/benchtrim/benchtrim/internal/outpath"
	"github.com/benchtrim/benchtrim/internal/progress"
	"github.com/benchtrim/benchtrim/reports"
	"github.com/benchtrim/benchtrim/table"
)

// inputFlags are the flags of every command that reads result files.
func inputFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "format", Usage: "force the input format (jmh, uoptime, gobench, pa, duet); default: detect per file"},
		&cli.StringFlag{Name: "project", Usage: "project label of every row (default: from file names PROJECT-VERSION.ext)"},
		&cli.StringFlag{Name: "version", Usage: "version label of every row (default: from file names)"},
	}
}

// loadInputs reads result or table files named on the command line for an
// analyzer and prints one line per kind of skipped or suspicious input on
// stderr (benchtrim ingest prints the examples).
func loadInputs(c *cli.Context, paths []string) (*table.Table, *ingest.Report, []ingest.FileResult, error) {
	t, rep, files, err := readInputs(c, paths)
	if err == nil && !globalsOf(c).Quiet {
		printInputReport(c.App.ErrWriter, rep)
	}
	return t, rep, files, err
}

// benchFlag is the --bench filter of the analyzer commands.
func benchFlag() cli.Flag {
	return &cli.StringFlag{Name: "bench", Usage: "only benchmarks whose name matches this regular expression"}
}

// loadSeries reads the command's input files (loadInputs) and collects the
// primary measurements of the benchmarks --bench selects. The caller
// releases the table once done with the series.
func loadSeries(c *cli.Context) (*table.Table, []*table.Series, error) {
	filter := table.Filter{}
	if b := c.String("bench"); b != "" {
		re, err := regexp.Compile(b)
		if err != nil {
			return nil, nil, fmt.Errorf("--bench: %w", err)
		}
		filter.Benchmark = re
	}
	t, _, _, err := loadInputs(c, c.Args().Slice())
	if err != nil {
		return nil, nil, err
	}
	series := table.Collect(t, filter)
	if len(series) == 0 {
		defer t.Release()
		if filter.Benchmark != nil {
			all := table.Collect(t, table.Filter{})
			if len(all) > 0 {
				return nil, nil, fmt.Errorf("--bench %q matches none of the %d benchmarks (%s); the regular expression is matched against the benchmark name without params",
					c.String("bench"), len(distinctBenchmarks(all)), reports.ListSummary(distinctBenchmarks(all), 3))
			}
		}
		return nil, nil, fmt.Errorf("no benchmark with primary time measurements in the input")
	}
	return t, series, nil
}

// printInputReport prints one line per kind of skipped or suspicious input.
func printInputReport(w io.Writer, rep *ingest.Report) {
	if rep == nil {
		return
	}
	for _, k := range rep.Kinds() {
		what := "warning"
		if k.Skipped {
			what = "skipped"
		}
		fmt.Fprintf(w, "input: %s %d: %s (benchtrim ingest lists examples)\n", what, k.Count, k.Kind)
	}
}

// readInputs reads result or table files named on the command line.
func readInputs(c *cli.Context, paths []string) (*table.Table, *ingest.Report, []ingest.FileResult, error) {
	if len(paths) == 0 {
		return nil, nil, nil, fmt.Errorf("no input files")
	}
	g := globalsOf(c)
	bar := progress.New(c.App.ErrWriter, g.Quiet, "reading", len(paths))
	t, rep, files, err := ingest.ReadFiles(paths, ingest.ReadOptions{
		Format: c.String("format"), Project: c.String("project"), Version: c.String("version"),
		OnFile: func(string, int64) { bar.Add(1) },
	})
	bar.Done()
	return t, rep, files, err
}

func ingestCommand() *cli.Command {
	return &cli.Command{
		Name:      "ingest",
		Usage:     "read result files into the canonical table (.arrow, .parquet or .csv)",
		ArgsUsage: "FILES...",
		Flags: append(inputFlags(),
			&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Usage: "output table: OUT.arrow, OUT.parquet or OUT.csv (with OUT.setups.csv)", Required: true},
			&cli.StringFlag{Name: "arrow-compression", Value: "none", Usage: "compression of .arrow buffers: none (every Arrow reader), zstd or lz4"},
		),
		Action: func(c *cli.Context) error {
			out := c.String("output")
			if a := c.String("arrow-compression"); !slices.Contains(arrowio.Codecs, a) {
				return usagef("ingest", "--arrow-compression %q: want none, zstd or lz4", a)
			}
			if err := checkOutputs(c.Args().Slice(), output(c, "output", outpath.Data, tableSidecar)); err != nil {
				return err
			}
			t, rep, files, err := readInputs(c, c.Args().Slice())
			if err != nil {
				return err
			}
			defer t.Release()
			w := c.App.Writer
			for _, f := range files {
				fmt.Fprintf(w, "%s: %s, %d rows\n", f.Path, f.Format, f.Rows)
			}
			writeSummary(w, t, rep)
			if err := table.WriteFileWith(out, t, table.WriteOptions{ArrowCompression: c.String("arrow-compression")}); err != nil {
				return err
			}
			fmt.Fprintf(w, "wrote %s\n", out)
			return nil
		},
	}
}

// writeSummary prints benchmarks, rows by metric, the levels seen and the
// report of skipped and suspicious items.
func writeSummary(w io.Writer, t *table.Table, rep *ingest.Report) {
	primary := table.Collect(t, table.Filter{IncludeWarmup: true})
	benchmarks := map[string]bool{}
	modes := map[string]int{}
	var sizes [table.NumLevels]int32
	for _, s := range primary {
		benchmarks[s.Benchmark] = true
		modes[s.Mode]++
		for l, n := range s.Sizes() {
			if n > sizes[l] {
				sizes[l] = n
			}
		}
	}
	metricRows := map[string]int64{}
	t.Rows(func(r *table.Row) error { metricRows[r.Metric]++; return nil })
	fmt.Fprintf(w, "benchmarks: %d (%d runs: benchmark × params × mode × version)\n", len(benchmarks), len(primary))
	var ms []string
	for m, n := range modes {
		ms = append(ms, fmt.Sprintf("%s %d", m, n))
	}
	sort.Strings(ms)
	fmt.Fprintf(w, "modes: %s\n", strings.Join(ms, ", "))
	var secondary []string
	for m, n := range metricRows {
		if m != table.Primary {
			secondary = append(secondary, fmt.Sprintf("%s %d", m, n))
		}
	}
	sort.Strings(secondary)
	fmt.Fprintf(w, "rows: %d (primary %d)\n", t.NumRows(), metricRows[table.Primary])
	if len(secondary) > 0 {
		fmt.Fprintln(w, reports.Wrap("secondary metrics (rows): "+strings.Join(secondary, ", "), reports.Width, "  "))
	}
	var lv []string
	for l := table.Level(0); l < table.NumLevels; l++ {
		lv = append(lv, fmt.Sprintf("%s %d", l, sizes[l]))
	}
	fmt.Fprintf(w, "levels seen (largest index): %s\n", strings.Join(lv, ", "))
	if rep == nil || rep.Empty() {
		fmt.Fprintln(w, "nothing skipped, nothing suspicious")
		return
	}
	fmt.Fprintf(w, "skipped rows: %d\n", rep.SkippedRows())
	rep.WriteTo(w)
}

// distinctBenchmarks lists the benchmark names of series once each, in order.
func distinctBenchmarks(series []*table.Series) []string {
	seen := map[string]bool{}
	var out []string
	for _, s := range series {
		if !seen[s.Benchmark] {
			seen[s.Benchmark] = true
			out = append(out, s.Benchmark)
		}
	}
	return out
}
