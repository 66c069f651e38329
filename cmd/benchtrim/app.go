package main

import (
	"embed"
	"io"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/benchtrim/benchtrim/cmd/benchtrim/internal/cliapp"
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

// newApp builds the CLI writing to stdout and stderr (cliapp.NewApp); run
// normalizes the arguments and calls its Run.
func newApp(stdout, stderr io.Writer) *cli.App {
	cmds := commands()
	for _, f := range extraCommands {
		cmds = append(cmds, f())
	}
	return cliapp.NewApp(stdout, stderr, help("benchtrim"), cmds)
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
