package main

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/benchtrim/benchtrim/format/all"
	"github.com/benchtrim/benchtrim/ingest"
	"github.com/benchtrim/benchtrim/internal/arrowio"
	"github.com/benchtrim/benchtrim/internal/cliapp"
	"github.com/benchtrim/benchtrim/internal/outpath"
	"github.com/benchtrim/benchtrim/internal/progress"
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
	if err == nil && !cliapp.GlobalsOf(c).Quiet {
		rep.WriteKinds(c.App.ErrWriter)
	}
	return t, rep, files, err
}

// benchFlag is the --bench filter of the analyzer commands.
func benchFlag() cli.Flag {
	return &cli.StringFlag{Name: "bench", Usage: "only benchmarks whose name matches this regular expression"}
}

// benchFilter is the table filter of --bench.
func benchFilter(c *cli.Context) (table.Filter, error) {
	var f table.Filter
	if b := c.String("bench"); b != "" {
		re, err := regexp.Compile(b)
		if err != nil {
			return f, fmt.Errorf("--bench: %w", err)
		}
		f.Benchmark = re
	}
	return f, nil
}

// benchError names --bench in table.Select's error for a filter that
// matches nothing.
func benchError(c *cli.Context, err error) error {
	if b := c.String("bench"); b != "" && strings.HasPrefix(err.Error(), strconv.Quote(b)+" matches none") {
		return fmt.Errorf("--bench %w", err)
	}
	return err
}

// loadTable reads the command's input files (loadInputs). The caller
// releases the table.
func loadTable(c *cli.Context) (*table.Table, error) {
	t, _, _, err := loadInputs(c, c.Args().Slice())
	return t, err
}

// readInputs reads result or table files named on the command line.
func readInputs(c *cli.Context, paths []string) (*table.Table, *ingest.Report, []ingest.FileResult, error) {
	if len(paths) == 0 {
		return nil, nil, nil, fmt.Errorf("no input files")
	}
	g := cliapp.GlobalsOf(c)
	bar := progress.New(c.App.ErrWriter, g.Quiet, "reading", len(paths))
	t, rep, files, err := ingest.ReadFiles(paths, ingest.ReadOptions{
		Formats: all.Formats(), Format: c.String("format"), Project: c.String("project"), Version: c.String("version"),
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
				return cliapp.Usagef("ingest", "--arrow-compression %q: want none, zstd or lz4", a)
			}
			if err := cliapp.CheckOutputs(c.Args().Slice(), cliapp.Output(c, "output", outpath.Data, cliapp.TableSidecar)); err != nil {
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
			ingest.WriteSummary(w, t, rep)
			if err := table.WriteFileWith(out, t, table.WriteOptions{ArrowCompression: c.String("arrow-compression")}); err != nil {
				return err
			}
			fmt.Fprintf(w, "wrote %s\n", out)
			return nil
		},
	}
}
