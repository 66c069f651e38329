// Command benchtrim answers, for recorded microbenchmark results, how much
// of a suite's execution time can be cut without changing its results.
//
// It is a thin shell: each subcommand parses flags and calls a package
// (ingest, analysis/..., changepoint, reports); what the commands share is
// in internal/cliapp. See README.md.
//
// Exit status: 0 on success, 1 when the command failed (bad input, no
// result), 2 for a usage error (unknown command or flag, bad flag value).
package main

import (
	"embed"
	"io"
	"os"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/benchtrim/benchtrim/cmd/benchtrim/internal/cliapp"
	_ "github.com/benchtrim/benchtrim/cmd/benchtrim/internal/gcstart"
)

func main() { os.Exit(cliapp.Main(run)) }

// exitCode prints err and returns the process exit status for it.
var exitCode = cliapp.ExitCode

// run executes the command line args (args[0] is the program name).
func run(args []string, stdout, stderr io.Writer) error {
	app := newApp(stdout, stderr, args)
	args, err := cliapp.NormalizeArgs(app, args)
	if err != nil {
		return err
	}
	return app.Run(args)
}

// commandMakers make the subcommands, in the order help lists them, by
// name (TestCommandMakers checks that each makes the command it names).
// (A function, not a variable: demo's action runs commands.)
func commandMakers() []cliapp.Maker {
	return []cliapp.Maker{
		{Name: "ingest", Make: ingestCommand},
		{Name: "export", Make: exportCommand},
		{Name: "generate", Make: generateCommand},
		{Name: "optimize", Make: optimizeCommand},
		{Name: "compare", Make: compareCommand},
		{Name: "reconfigure", Make: reconfigureCommand},
		{Name: "steady", Make: steadyCommand},
		{Name: "trim", Make: trimCommand},
		{Name: "report", Make: reportCommand},
		{Name: "changepoint", Make: changepointCommand},
		{Name: "duet", Make: duetCommand},
		{Name: "merge", Make: mergeCommand},
		{Name: "demo", Make: demoCommand},
	}
}

// commands are the subcommands, in the order help lists them.
func commands() []*cli.Command { return cliapp.Make(commandMakers(), nil) }

// extraCommands are added by tests.
var extraCommands []func() *cli.Command

// newApp builds the CLI for the command line args writing to stdout and
// stderr (cliapp.NewApp) with the commands args needs (cliapp.Make); run
// normalizes the arguments and calls its Run.
func newApp(stdout, stderr io.Writer, args []string) *cli.App {
	cmds := cliapp.Make(commandMakers(), args)
	for _, f := range extraCommands {
		cmds = append(cmds, f())
	}
	return cliapp.NewApp(stdout, stderr, help("benchtrim"), cmds)
}

// mergeCommand combines the partials of the commands that write them, in
// help order.
func mergeCommand() *cli.Command {
	return cliapp.MergeCommand(help("merge"),
		[]*cli.Command{optimizeCommand(), reconfigureCommand(), steadyCommand(), trimCommand(), duetCommand()},
		optimizeOutputs, reconfigureOutputs, steadyOutputs, trimOutputs, duetOutputs)
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

// command is the subcommand name with its arguments, one-line usage,
// action, flags by help group and long help (help/NAME.txt).
func command(name, args, usage string, action cli.ActionFunc, groups ...[]cli.Flag) *cli.Command {
	return &cli.Command{Name: name, Usage: usage, ArgsUsage: args, Description: help(name), Flags: cliapp.Groups(groups...), Action: action}
}
