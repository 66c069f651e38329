package main

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/benchtrim/benchtrim/internal/atomicfile"
	"github.com/benchtrim/benchtrim/internal/cliapp"
	"github.com/benchtrim/benchtrim/internal/outpath"
	"github.com/benchtrim/benchtrim/internal/synth"
)

func generateCommand() *cli.Command {
	return &cli.Command{
		Name:        "generate",
		Usage:       "write a synthetic suite with known properties",
		Description: help("generate"),
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "format", Usage: "jmh (.json), uoptime (.csv), gobench (.txt), pa (.csv) or truth (.json); default: from -o and --preset"},
			&cli.StringFlag{Name: "preset", Value: "default", Usage: "default, uoptime or sample"},
			&cli.IntFlag{Name: "benchmarks", Usage: "benchmark methods (each expanded over the preset's params)"},
			&cli.IntFlag{Name: "forks", Usage: "forks per benchmark"},
			&cli.IntFlag{Name: "iterations", Usage: "iterations per fork (recorded as with -wi 0)"},
			&cli.StringFlag{Name: "mode", Usage: "JMH mode: thrpt, avgt, sample or ss"},
			&cli.StringFlag{Name: "unit", Usage: "JMH score unit, e.g. ns/op, us/op, ops/s"},
			&cli.StringFlag{Name: "version", Usage: "version label written into the data"},
			&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Required: true, Usage: "output file"},
		},
		Action: func(c *cli.Context) error {
			if err := cliapp.CheckOutputs(nil, cliapp.Output(c, "output", outpath.Text)); err != nil {
				return err
			}
			format, err := generateFormat(c.String("format"), c.String("preset"), c.String("output"))
			if err != nil {
				return err
			}
			var cfg synth.SuiteConfig
			switch p := c.String("preset"); p {
			case "default":
				cfg = synth.DefaultSuiteConfig()
			case "uoptime":
				cfg = synth.UOpTimeSuiteConfig()
			case "sample":
				cfg = synth.SampleSuiteConfig(10)
			default:
				return fmt.Errorf("unknown preset %q (want default, uoptime or sample)", p)
			}
			cfg.Seed = cliapp.GlobalsOf(c).Seed
			if n := c.Int("benchmarks"); n > 0 {
				cfg.Benchmarks = n
			}
			if n := c.Int("forks"); n > 0 {
				cfg.Forks = n
			}
			if n := c.Int("iterations"); n > 0 {
				cfg.Iterations = n
			}
			if m := c.String("mode"); m != "" {
				cfg.Mode = synth.Mode(m)
			}
			if u := c.String("unit"); u != "" {
				cfg.Unit = u
			}
			if v := c.String("version"); v != "" {
				cfg.Version = v
			}
			out := c.String("output")
			if err := atomicfile.Write(out, func(w io.Writer) error { return synth.Generate(format, w, cfg) }); err != nil {
				return err
			}
			fmt.Fprintf(c.App.Writer, "wrote %s (%s, preset %s, seed %d)\n", out, format, c.String("preset"), cfg.Seed)
			return nil
		},
	}
}

// generateExtensions are the file extensions of each generated format.
var generateExtensions = map[string]string{
	synth.FormatJMH: ".json", synth.FormatTruth: ".json", synth.FormatUOpTime: ".csv",
	synth.FormatPA: ".csv", synth.FormatGoBench: ".txt",
}

// generateFormat picks the format to generate: --format when given (its
// extension must match the output's), else from the output's extension
// (.json JMH, .txt go test -bench, .csv µOpTime for the uoptime preset; pa
// CSV needs --format pa).
func generateFormat(format, preset, out string) (string, error) {
	ext := strings.ToLower(filepath.Ext(out))
	if format != "" {
		want, ok := generateExtensions[format]
		if !ok {
			return "", cliapp.Usagef("generate", "--format %q: want jmh, uoptime, gobench, pa or truth", format)
		}
		if ext != want {
			return "", cliapp.Usagef("generate", "-o %s: a %s file ends in %s", out, format, want)
		}
		return format, nil
	}
	switch {
	case ext == ".json":
		return synth.FormatJMH, nil
	case ext == ".txt":
		return synth.FormatGoBench, nil
	case ext == ".csv" && preset == "uoptime":
		return synth.FormatUOpTime, nil
	case ext == ".csv":
		return "", cliapp.Usagef("generate", "-o %s: a .csv can be uoptime or pa; give --format (or --preset uoptime)", out)
	}
	return "", cliapp.Usagef("generate", "-o %s: unknown extension %q (want .json, .csv or .txt, or give --format)", out, ext)
}
