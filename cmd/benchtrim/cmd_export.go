package main

import (
	"fmt"
	"io"

	"github.com/urfave/cli/v2"

	"github.com/benchtrim/benchtrim/export"
	"github.com/benchtrim/benchtrim/internal/atomicfile"
	"github.com/benchtrim/benchtrim/internal/outpath"
	"github.com/benchtrim/benchtrim/table"
)

func exportCommand() *cli.Command {
	return &cli.Command{
		Name:      "export",
		Usage:     "write results in another tool's format: pa/bencher CSV (pa) or go test -bench text (benchstat)",
		ArgsUsage: "FILES...",
		Flags: append(inputFlags(),
			&cli.StringFlag{Name: "to", Required: true, Usage: "pa or gobench"},
			&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Required: true, Usage: "output file"},
		),
		Action: func(c *cli.Context) error {
			var write func(io.Writer, *table.Table) error
			switch to := c.String("to"); to {
			case "pa":
				write = export.WritePA
			case "gobench":
				write = export.WriteGoBench
			default:
				return fmt.Errorf("--to %q: want pa or gobench", to)
			}
			if err := checkOutputs(c.Args().Slice(), output(c, "output", outpath.Text)); err != nil {
				return err
			}
			t, _, _, err := loadInputs(c, c.Args().Slice())
			if err != nil {
				return err
			}
			defer t.Release()
			out := c.String("output")
			if err := atomicfile.Write(out, func(w io.Writer) error { return write(w, t) }); err != nil {
				return err
			}
			fmt.Fprintf(c.App.Writer, "wrote %s\n", out)
			return nil
		},
	}
}
