package main

import (
	"errors"
	"fmt"
	"slices"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/urfave/cli/v2"

	"github.com/benchtrim/benchtrim/cmd/benchtrim/internal/cliapp"
	"github.com/benchtrim/benchtrim/ingest"
	"github.com/benchtrim/benchtrim/internal/arrowio"
	"github.com/benchtrim/benchtrim/internal/outpath"
	"github.com/benchtrim/benchtrim/table"
)

func ingestCommand() *cli.Command {
	return command("ingest", "FILES...", "read result files into the canonical table (.arrow, .parquet or .csv)", runIngest,
		cliapp.Group("Input", cliapp.InputFlags()...),
		cliapp.Group("Output",
			&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Usage: "output table: OUT.arrow, OUT.parquet or OUT.csv (with OUT.setups.csv)", Required: true},
			&cli.StringFlag{Name: "arrow-compression", Value: "none", Usage: "compression of .arrow buffers: none (every Arrow reader), zstd or lz4"},
			&cli.StringFlag{Name: "parquet-compression", Value: "snappy", Usage: "compression of .parquet pages: snappy, zstd (smaller, slower) or none"},
		),
	)
}

func runIngest(c *cli.Context) error {
	out := c.String("output")
	if a := c.String("arrow-compression"); !slices.Contains(arrowio.Codecs, a) {
		return cliapp.Usagef("ingest", "--arrow-compression %q: want none, zstd or lz4", a)
	}
	if p := c.String("parquet-compression"); !slices.Contains(arrowio.ParquetCodecs, p) {
		return cliapp.Usagef("ingest", "--parquet-compression %q: want snappy, zstd or none", p)
	}
	if err := cliapp.CheckOutputs(c.Args().Slice(), cliapp.Output(c, "output", outpath.Data, cliapp.TableSidecar)); err != nil {
		return err
	}
	// The rows go to the output file as they are read (table.Stream),
	// so memory does not grow with the input.
	w := c.App.Writer
	err := table.Stream(out, table.WriteOptions{ArrowCompression: c.String("arrow-compression"), ParquetCompression: c.String("parquet-compression")},
		func(write func(arrow.Record) error) ([]table.Setup, error) {
			st, err := cliapp.StreamInputs(c, c.Args().Slice(), write)
			if err != nil {
				return nil, err
			}
			for _, f := range st.Files {
				fmt.Fprintf(w, "%s: %s, %d rows\n", f.Path, f.Format, f.Rows)
			}
			ingest.WriteStats(w, st.Stats, st.Report)
			if st.Stats.Rows == 0 {
				return nil, errNoRows
			}
			return st.Setups, nil
		})
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "wrote %s\n", out)
	return nil
}

// errNoRows is ingest's "no result": the inputs hold no benchmark row, so
// no table is written (exit status 1).
var errNoRows = errors.New("no benchmark result in the input; no table written")
