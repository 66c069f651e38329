package main

import (
	"fmt"
	"io"
	"runtime/debug"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/benchtrim/benchtrim/internal/workpool"
)

// commands are the subcommands, in the order help lists them.
func commands() []*cli.Command {
	return []*cli.Command{
		ingestCommand(),
		exportCommand(),
		generateCommand(),
		optimizeCommand(),
		compareCommand(),
		reconfigureCommand(),
		steadyCommand(),
		changepointCommand(),
		demoCommand(),
	}
}

// extraCommands are added by tests.
var extraCommands []func() *cli.Command

// newApp builds the CLI writing to stdout and stderr; run normalizes the
// arguments and calls its Run.
func newApp(stdout, stderr io.Writer) *cli.App {
	app := &cli.App{
		Name:  "benchtrim",
		Usage: "find how much of a microbenchmark suite's execution time can be cut without changing its results",
		Description: "benchtrim reads recorded results (JMH JSON, µOpTime Go CSV, go test -bench text, pa/bencher CSV)\n" +
			"into one canonical Arrow table and analyses it offline. Flags may stand before or after the files;\n" +
			"-- ends the flags. Exit status: 0 success, 1 failure, 2 usage error.",
		Version:        buildVersion(),
		Writer:         stdout,
		ErrWriter:      stderr,
		Flags:          globalFlags(),
		Suggest:        true,
		OnUsageError:   onUsageError,
		ExitErrHandler: func(*cli.Context, error) {}, // errors are returned to run, never os.Exit here
	}
	cli.VersionFlag = &cli.BoolFlag{Name: "version", Usage: "print the version and exit"}
	app.Commands = commands()
	for _, f := range extraCommands {
		app.Commands = append(app.Commands, f())
	}
	addRangeChecks(app.Flags)
	for _, cmd := range app.Commands {
		cmd.OnUsageError = onUsageError
		addRangeChecks(cmd.Flags)
	}
	return app
}

// onUsageError turns urfave/cli's flag parsing errors into a usageError
// with a did-you-mean suggestion for a misspelled flag.
func onUsageError(c *cli.Context, err error, _ bool) error {
	name := ""
	flags := c.App.Flags
	if c.Command != nil && c.Command.Name != "" && c.Command.Name != c.App.Name {
		name, flags = c.Command.Name, c.Command.Flags
	}
	msg := err.Error()
	if _, bad, ok := strings.Cut(msg, "flag provided but not defined: "); ok {
		bad = strings.TrimLeft(bad, "-")
		msg = fmt.Sprintf("unknown flag --%s", bad)
		if s := suggestFlag(flags, bad); s != "" {
			msg += fmt.Sprintf("; did you mean %s?", s)
		}
	}
	return &usageError{cmd: name, err: fmt.Errorf("%s", msg)}
}

// buildVersion is the module version and VCS revision from the build info,
// e.g. "(devel) 57ebe85a1c2f (modified)".
func buildVersion() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "unknown"
	}
	v := bi.Main.Version
	if v == "" {
		v = "(devel)"
	}
	var rev, modified string
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			if s.Value == "true" {
				modified = " (modified)"
			}
		}
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	if rev != "" && !strings.Contains(v, rev) {
		v += " " + rev
	}
	if !strings.Contains(v, "+dirty") {
		v += modified
	}
	return v + " " + bi.GoVersion
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
		&cli.BoolFlag{Name: "quiet", Aliases: []string{"q"}, Usage: "no progress and no input warnings on stderr"},
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
