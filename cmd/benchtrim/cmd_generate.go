package main

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/benchtrim/benchtrim/cmd/benchtrim/internal/cliapp"
	"github.com/benchtrim/benchtrim/format/synth"
	"github.com/benchtrim/benchtrim/internal/atomicfile"
	"github.com/benchtrim/benchtrim/internal/outpath"
)

func generateCommand() *cli.Command {
	return command("generate", "", "write a synthetic suite with known properties", runGenerate,
		cliapp.Group("Suite",
			&cli.StringFlag{Name: "preset", Value: "default", Usage: "default, uoptime, sample or duet"},
			&cli.IntFlag{Name: "benchmarks", Usage: "benchmark methods (each expanded over the preset's params)"},
			&cli.IntFlag{Name: "forks", Usage: "forks per benchmark"},
			&cli.IntFlag{Name: "iterations", Usage: "iterations per fork (recorded as with -wi 0)"},
			&cli.StringFlag{Name: "mode", Usage: "JMH mode: thrpt, avgt, sample or ss"},
			&cli.StringFlag{Name: "unit", Usage: "JMH score unit, e.g. ns/op, us/op, ops/s"},
			&cli.StringFlag{Name: "version", Usage: "version label written into the data"},
		),
		cliapp.Group("Output",
			&cli.StringFlag{Name: "format", Usage: "jmh (.json), uoptime (.csv), gobench (.txt), pa (.csv), duet (.csv) or truth (.json); default: from -o and --preset"},
			&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Required: true, Usage: "output file"},
		),
	)
}

func runGenerate(c *cli.Context) error {
	if err := cliapp.CheckOutputs(nil, cliapp.Output(c, "output", outpath.Text)); err != nil {
		return err
	}
	r := synth.Request{Format: c.String("format"), Preset: c.String("preset"), Output: c.String("output"),
		Seed: cliapp.GlobalsOf(c).Seed, Benchmarks: c.Int("benchmarks"), Forks: c.Int("forks"), Iterations: c.Int("iterations"),
		Mode: c.String("mode"), Unit: c.String("unit"), Version: c.String("version")}
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
