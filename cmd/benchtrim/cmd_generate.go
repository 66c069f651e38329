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
			&cli.StringFlag{Name: "format", Usage: "jmh (.json), uoptime (.csv), gobench (.txt), pa (.csv), duet (.csv) or truth (.json); default: from -o and --preset"},
			&cli.StringFlag{Name: "preset", Value: "default", Usage: "default, uoptime, sample or duet"},
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
			if c.String("preset") == "duet" {
				return generateDuet(c, format)
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
				return fmt.Errorf("unknown preset %q (want default, uoptime, sample or duet)", p)
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

// generateDuet writes the duet preset (a duetprocess CSV or its truth).
func generateDuet(c *cli.Context, format string) error {
	if format != synth.FormatDuet && format != synth.FormatTruth {
		return cliapp.Usagef("generate", "--preset duet writes a duetprocess CSV (--format duet, .csv) or its truth (--format truth, .json), not %s", format)
	}
	for _, f := range []string{"mode", "unit", "version"} {
		if c.IsSet(f) {
			return cliapp.Usagef("generate", "--%s does not apply to --preset duet", f)
		}
	}
	cfg := synth.DefaultDuetConfig()
	cfg.Seed = cliapp.GlobalsOf(c).Seed
	if n := c.Int("benchmarks"); n > 0 {
		// Cycle through the preset's benchmarks, numbering repeats.
		base := cfg.Benchmarks
		cfg.Benchmarks = nil
		for i := 0; i < n; i++ {
			b := base[i%len(base)]
			if i >= len(base) {
				b.Name = fmt.Sprintf("%s-%d", b.Name, i/len(base)+1)
			}
			cfg.Benchmarks = append(cfg.Benchmarks, b)
		}
	}
	if n := c.Int("forks"); n > 0 {
		cfg.Runs = n
	}
	if n := c.Int("iterations"); n > 0 {
		cfg.Iterations = n
	}
	out := c.String("output")
	if err := atomicfile.Write(out, func(w io.Writer) error { return synth.GenerateDuetTo(format, w, cfg) }); err != nil {
		return err
	}
	fmt.Fprintf(c.App.Writer, "wrote %s (%s, preset duet, seed %d)\n", out, format, cfg.Seed)
	return nil
}

// generateExtensions are the file extensions of each generated format.
var generateExtensions = map[string]string{
	synth.FormatJMH: ".json", synth.FormatTruth: ".json", synth.FormatUOpTime: ".csv",
	synth.FormatPA: ".csv", synth.FormatGoBench: ".txt", synth.FormatDuet: ".csv",
}

// generateFormat picks the format to generate: --format when given (its
// extension must match the output's), else from the output's extension
// (.json JMH, .txt go test -bench, .csv µOpTime for the uoptime preset and
// duetprocess CSV for the duet preset; pa CSV needs --format pa).
func generateFormat(format, preset, out string) (string, error) {
	ext := strings.ToLower(filepath.Ext(out))
	if format != "" {
		want, ok := generateExtensions[format]
		if !ok {
			return "", cliapp.Usagef("generate", "--format %q: want jmh, uoptime, gobench, pa, duet or truth", format)
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
	case ext == ".csv" && preset == "duet":
		return synth.FormatDuet, nil
	case ext == ".csv":
		return "", cliapp.Usagef("generate", "-o %s: a .csv can be uoptime or pa; give --format (or --preset uoptime)", out)
	}
	return "", cliapp.Usagef("generate", "-o %s: unknown extension %q (want .json, .csv or .txt, or give --format)", out, ext)
}
