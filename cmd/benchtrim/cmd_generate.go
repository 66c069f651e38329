package main

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/benchtrim/benchtrim/cmd/benchtrim/internal/cliapp"
	"github.com/benchtrim/benchtrim/cmd/benchtrim/internal/outpath"
	"github.com/benchtrim/benchtrim/internal/atomicfile"
	"github.com/benchtrim/benchtrim/synth"
)

func generateCommand() *cli.Command {
	var r synth.Request
	return command("generate", "", "write a synthetic suite with known properties", func(c *cli.Context) error { return runGenerate(c, r) },
		cliapp.Group("Suite",
			&cli.StringFlag{Name: "preset", Destination: &r.Preset, Value: "default", Usage: "default, uoptime, sample or duet"},
			&cli.IntFlag{Name: "benchmarks", Destination: &r.Benchmarks, Usage: "benchmark methods (each expanded over the preset's params)"},
			&cli.IntFlag{Name: "forks", Destination: &r.Forks, Usage: "forks per benchmark"},
			&cli.IntFlag{Name: "iterations", Destination: &r.Iterations, Usage: "iterations per fork (recorded as with -wi 0)"},
			&cli.StringFlag{Name: "mode", Destination: &r.Mode, Usage: "JMH mode: thrpt, avgt, sample or ss"},
			&cli.StringFlag{Name: "unit", Destination: &r.Unit, Usage: "JMH score unit, e.g. ns/op, us/op, ops/s"},
			&cli.StringFlag{Name: "version", Destination: &r.Version, Usage: "version label written into the data"},
		),
		cliapp.Group("Output",
			&cli.StringFlag{Name: "format", Destination: &r.Format, Usage: "jmh (.json), uoptime (.csv), gobench (.txt), pa (.csv), duet (.csv) or truth (.json); default: from -o and --preset"},
			&cli.StringFlag{Name: "output", Destination: &r.Output, Aliases: []string{"o"}, Required: true, Usage: "output file"},
		),
	)
}

// runGenerate writes the suite r, which the flags wrote (Destination).
func runGenerate(c *cli.Context, r synth.Request) error {
	if err := cliapp.CheckOutputs(nil, cliapp.Output(c, "output", outpath.Text)); err != nil {
		return err
	}
	r.Seed = cliapp.GlobalsOf(c).Seed
	format, err := r.ResolveFormat()
	if err == nil {
		err = atomicfile.Write(r.Output, func(w io.Writer) error { return r.Write(w, format) })
	}
	if errors.Is(err, synth.ErrRequest) {
		return cliapp.Usagef("generate", "%s", strings.TrimPrefix(err.Error(), synth.ErrRequest.Error()+": "))
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(c.App.Writer, "wrote %s (%s, preset %s, seed %d)\n", r.Output, format, r.Preset, r.Seed)
	return nil
}
