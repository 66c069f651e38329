package main

import (
	"slices"

	"github.com/urfave/cli/v2"

	"github.com/benchtrim/benchtrim/cmd/benchtrim/internal/cliapp"
	"github.com/benchtrim/benchtrim/cmd/benchtrim/internal/outpath"
	"github.com/benchtrim/benchtrim/tablefile"
)

func ingestCommand() *cli.Command {
	return command("ingest", "FILES...", "read result files into the canonical table (.arrow, .parquet or .csv)", runIngest,
		cliapp.Group("Input", cliapp.InputFlags()...),
		cliapp.Group("Output",
			&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Usage: "output table: OUT.arrow, OUT.parquet or OUT.csv (with OUT.setups.csv)", Required: true},
			&cli.StringFlag{Name: "arrow-compression", Value: "none", Usage: "compression of .arrow buffers: none (every Arrow reader), zstd or lz4"},
			&cli.StringFlag{Name: "parquet-compression", Value: "snappy", Usage: "compression of .parquet pages: snappy, zstd (smaller, slower) or none"},
			&cli.BoolFlag{Name: "by-shard", Usage: "order a .parquet table by the key hash --shard splits by, in small row groups, so that an analyzer's --shard K/N reads little more than its part"},
		),
	)
}

func runIngest(c *cli.Context) error {
	out := c.String("output")
	if a := c.String("arrow-compression"); !slices.Contains(tablefile.ArrowCodecs, a) {
		return cliapp.Usagef("ingest", "--arrow-compression %q: want none, zstd or lz4", a)
	}
	if p := c.String("parquet-compression"); !slices.Contains(tablefile.ParquetCodecs, p) {
		return cliapp.Usagef("ingest", "--parquet-compression %q: want snappy, zstd or none", p)
	}
	if err := cliapp.CheckOutputs(c.Args().Slice(), cliapp.Output(c, "output", outpath.Data, cliapp.TableSidecar)); err != nil {
		return err
	}
	return cliapp.IngestTable(c, c.Args().Slice(), out,
		tablefile.WriteOptions{ArrowCompression: c.String("arrow-compression"), ParquetCompression: c.String("parquet-compression"), ByShard: c.Bool("by-shard")})
}
