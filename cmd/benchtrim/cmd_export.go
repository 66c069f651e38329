package main

import (
	"fmt"
	"io"

	"github.com/urfave/cli/v2"

	"github.com/benchtrim/benchtrim/cmd/benchtrim/internal/cliapp"
	"github.com/benchtrim/benchtrim/cmd/benchtrim/internal/outpath"
	"github.com/benchtrim/benchtrim/format/gobench"
	"github.com/benchtrim/benchtrim/format/pa"
	"github.com/benchtrim/benchtrim/internal/atomicfile"
	"github.com/benchtrim/benchtrim/table"
)

func exportCommand() *cli.Command {
	return command("export", "FILES...", "write results as pa/bencher CSV or go test -bench text (for benchstat)", runExport,
		cliapp.Group("Format",
			&cli.StringFlag{Name: "to", Required: true, Usage: "pa or gobench"},
			&cli.BoolFlag{Name: "labels", Usage: "gobench: write project:, commit:, instance: and trial: lines before every run (benchstat then needs -ignore project,commit,instance,trial to pool them)"},
		),
		cliapp.Group("Input", cliapp.InputFlags()...),
		cliapp.Group("Output",
			&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Required: true, Usage: "output file"},
		),
	)
}

func runExport(c *cli.Context) error {
	var write func(io.Writer, *table.Table) error
	var skipped []table.Key
	switch to := c.String("to"); to {
	case "pa":
		if c.Bool("labels") {
			return cliapp.Usagef("export", "--labels applies to --to gobench only")
		}
		write = pa.Write
	case "gobench":
		opt := gobench.WriteOptions{Labels: c.Bool("labels")}
		write = func(w io.Writer, t *table.Table) (err error) {
			skipped, err = gobench.WriteWith(w, t, opt)
			return err
		}
	default:
		return fmt.Errorf("--to %q: want pa or gobench", to)
	}
	if err := cliapp.CheckOutputs(c.Args().Slice(), cliapp.Output(c, "output", outpath.Text)); err != nil {
		return err
	}
	t, release, err := cliapp.ReadTable(c, c.Args().Slice())
	defer release()
	if err != nil {
		return err
	}
	out := c.String("output")
	if err := atomicfile.Write(out, func(w io.Writer) error { return write(w, t) }); err != nil {
		return err
	}
	fmt.Fprintf(c.App.Writer, "wrote %s\n", out)
	cliapp.SaySkipped(c.App.Writer, skipped)
	return nil
}
