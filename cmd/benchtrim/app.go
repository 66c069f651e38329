package main

import (
	"fmt"
	"io"
	"runtime/debug"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/benchtrim/benchtrim/internal/workpool"
	"github.com/benchtrim/benchtrim/reports"
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
		trimCommand(),
		reportCommand(),
		changepointCommand(),
		demoCommand(),
	}
}

func init() {
	// Flag help stays within reports.Width columns: the usage text (the
	// second tabwriter column, which starts at most ~36 columns in) is
	// wrapped, continuation lines starting in the same column.
	stringify := cli.FlagStringer
	cli.FlagStringer = func(f cli.Flag) string {
		s := stringify(f)
		name, usage, ok := strings.Cut(s, "\t")
		if !ok {
			return s
		}
		return name + "\t" + strings.ReplaceAll(reports.Wrap(usage, reports.Width-40, ""), "\n", "\n\t")
	}
}

// extraCommands are added by tests.
var extraCommands []func() *cli.Command

// newApp builds the CLI writing to stdout and stderr; run normalizes the
// arguments and calls its Run.
func newApp(stdout, stderr io.Writer) *cli.App {
	app := &cli.App{
		Name:  "benchtrim",
		Usage: "cut a microbenchmark suite's time without changing its results",
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
	app.Description = fitLines(app.Description, reports.Width-3)
	for _, cmd := range app.Commands {
		cmd.Description = fitLines(cmd.Description, reports.Width-3)
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

// fitLines wraps the lines of text longer than width (help descriptions are
// printed indented by 3), keeping each line's leading spaces.
func fitLines(text string, width int) string {
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		if len([]rune(l)) <= width {
			continue
		}
		indent := l[:len(l)-len(strings.TrimLeft(l, " "))]
		lines[i] = indent + reports.Wrap(l, width, indent)
	}
	return strings.Join(lines, "\n")
}
