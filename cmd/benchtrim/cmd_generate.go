package main

import (
	"fmt"
	"io"

	"github.com/urfave/cli/v2"

	"github.com/benchtrim/benchtrim/internal/atomicfile"
	"github.com/benchtrim/benchtrim/internal/outpath"
	"github.com/benchtrim/benchtrim/internal/synth"
)

func generateCommand() *cli.Command {
	return &cli.Command{
		Name:  "generate",
		Usage: "write a synthetic suite with known properties (for trying analyzers and measuring speed)",
		Description: "Presets: default (JMH avgt, warmup/slowdown/no-steady-state mix, 3 forks × 100 iterations),\n" +
			"uoptime (Go, 3 instances × 3 suite runs × 5 iterations × 5 slices), sample (JMH sample mode,\n" +
			"5 forks × 50 iterations of up to 1000 samples, ~1.5 MB of JSON per benchmark).\n" +
			"Flags override the preset. --format truth writes what was generated (kinds, warmup lengths, means).",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "format", Value: synth.FormatJMH, Usage: "jmh, uoptime, gobench, pa or truth"},
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
			if err := checkOutputs(nil, output(c, "output", outpath.Text)); err != nil {
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
			cfg.Seed = globalsOf(c).Seed
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
			if err := atomicfile.Write(out, func(w io.Writer) error { return synth.Generate(c.String("format"), w, cfg) }); err != nil {
				return err
			}
			fmt.Fprintf(c.App.Writer, "wrote %s (%s, preset %s, seed %d)\n", out, c.String("format"), c.String("preset"), cfg.Seed)
			return nil
		},
	}
}
