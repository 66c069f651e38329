package main

import (
	"embed"
	"io"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/benchtrim/benchtrim/internal/cliapp"
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
		duetCommand(),
		mergeCommand(),
		demoCommand(),
	}
}

// extraCommands are added by tests.
var extraCommands []func() *cli.Command

// newApp builds the CLI writing to stdout and stderr; run normalizes the
// arguments and calls its Run.
func newApp(stdout, stderr io.Writer) *cli.App {
	cliapp.WrapFlagHelp()
	app := &cli.App{
		Name:           "benchtrim",
		Usage:          "cut a microbenchmark suite's time without changing its results",
		Description:    help("benchtrim"),
		Version:        cliapp.BuildVersion(),
		Writer:         stdout,
		ErrWriter:      stderr,
		Flags:          cliapp.GlobalFlags(),
		Suggest:        true,
		OnUsageError:   cliapp.OnUsageError,
		ExitErrHandler: func(*cli.Context, error) {}, // errors are returned to run, never os.Exit here
	}
	cli.VersionFlag = &cli.BoolFlag{Name: "version", Usage: "print the version and exit"}
	app.Commands = commands()
	for _, f := range extraCommands {
		app.Commands = append(app.Commands, f())
	}
	cliapp.AddRangeChecks(app.Flags, flagRanges)
	app.Description = cliapp.FitLines(app.Description, reports.Width-3)
	for _, cmd := range app.Commands {
		cmd.Description = cliapp.FitLines(cmd.Description, reports.Width-3)
		cmd.OnUsageError = cliapp.OnUsageError
		cliapp.AddRangeChecks(cmd.Flags, flagRanges)
		cliapp.RequireFlags(cmd)
	}
	return app
}

// helpFiles hold the commands' long descriptions (help/NAME.txt), shown by
// benchtrim NAME --help.
//
//go:embed help/*.txt
var helpFiles embed.FS

// help returns the description of command name ("" when it has none;
// TestHelpTexts checks that every command has one).
func help(name string) string {
	b, _ := helpFiles.ReadFile("help/" + name + ".txt")
	return strings.TrimRight(string(b), "\n")
}
