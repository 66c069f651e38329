package main

import (
	"io"
	"sort"

	"github.com/urfave/cli/v2"

	"github.com/benchtrim/benchtrim/internal/workpool"
)

// commandFactories are the subcommands; each cmd_*.go file adds its own from
// init with registerCommand, so commands live in files of their own.
var commandFactories []func() *cli.Command

func registerCommand(f func() *cli.Command) { commandFactories = append(commandFactories, f) }

// newApp builds the CLI writing to stdout and stderr; tests call its Run.
func newApp(stdout, stderr io.Writer) *cli.App {
	app := &cli.App{
		Name:  "benchtrim",
		Usage: "find how much of a microbenchmark suite's execution time can be cut without changing its results",
		Description: "benchtrim reads recorded results (JMH JSON, µOpTime Go CSV, go test -bench text, pa/bencher CSV)\n" +
			"into one canonical Arrow table and analyses it offline.",
		Writer:          stdout,
		ErrWriter:       stderr,
		HideHelpCommand: true,
		Flags:           globalFlags(),
		ExitErrHandler:  func(*cli.Context, error) {}, // errors are returned to run, never os.Exit here
	}
	for _, f := range commandFactories {
		cmd := f()
		// The global flags are accepted after the subcommand too
		// (benchtrim optimize --seed 7 …), as users expect.
		cmd.Flags = append(cmd.Flags, globalFlags()...)
		app.Commands = append(app.Commands, cmd)
	}
	sort.Slice(app.Commands, func(i, j int) bool { return app.Commands[i].Name < app.Commands[j].Name })
	return app
}

// globals are the values of the global flags.
type globals struct {
	Seed    uint64
	Workers int
	Quiet   bool
}

func globalFlags() []cli.Flag {
	return []cli.Flag{
		&cli.Uint64Flag{Name: "seed", Value: 1, Usage: "seed of every random procedure (bootstrap, sampling); same input and seed give the same output"},
		&cli.IntFlag{Name: "workers", Value: 0, Usage: "benchmarks analysed in parallel (0 = GOMAXPROCS)"},
		&cli.BoolFlag{Name: "quiet", Aliases: []string{"q"}, Usage: "no progress on stderr"},
	}
}

// globalsOf reads the global flags from the innermost context that set them
// (subcommand first, then the app), falling back to the defaults.
func globalsOf(c *cli.Context) globals {
	g := globals{Seed: 1}
	for _, ctx := range c.Lineage() {
		if ctx.IsSet("seed") {
			g.Seed = ctx.Uint64("seed")
			break
		}
	}
	for _, ctx := range c.Lineage() {
		if ctx.IsSet("workers") {
			g.Workers = ctx.Int("workers")
			break
		}
	}
	for _, ctx := range c.Lineage() {
		if ctx.IsSet("quiet") {
			g.Quiet = ctx.Bool("quiet")
			break
		}
	}
	g.Workers = workpool.Workers(g.Workers)
	return g
}
