package main

import (
	"embed"
	"io"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/benchtrim/benchtrim/cmd/benchtrim/internal/cliapp"
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
		examples, desc := helpParts(cmd.Description)
		cmd.Description = cliapp.FitLines(desc, reports.Width-3)
		cmd.OnUsageError = cliapp.OnUsageError
		cliapp.AddRangeChecks(cmd.Flags, flagRanges)
		cliapp.RequireFlags(cmd)
		cmd.CustomHelpTemplate = commandHelp(cmd, cliapp.FitLines(examples, reports.Width-3))
	}
	return app
}

// helpParts splits a help text into its examples (the leading lines from
// the first "$ " line to the first blank one) and the rest.
func helpParts(text string) (examples, rest string) {
	if !strings.HasPrefix(text, "$ ") {
		return "", text
	}
	examples, rest, _ = strings.Cut(text, "\n\n")
	return examples, strings.TrimLeft(rest, "\n")
}

// commandHelp is a command's help template: NAME and USAGE as urfave/cli
// prints them, then EXAMPLES (the help file's first block: two or three
// command lines of real use, as go help and git show them), DESCRIPTION,
// and the flags grouped by purpose (group): each category under its name,
// in the order of its first flag, its flags in their order.
func commandHelp(cmd *cli.Command, examples string) string {
	var b strings.Builder
	b.WriteString("NAME:\n   {{template \"helpNameTemplate\" .}}\n\nUSAGE:\n   {{template \"usageTemplate\" .}}")
	if examples != "" {
		b.WriteString("\n\nEXAMPLES:\n")
		for _, l := range strings.Split(examples, "\n") {
			b.WriteString(strings.TrimRight("   "+l, " ") + "\n")
		}
		b.WriteString("{{if .Description}}\nDESCRIPTION:\n   {{template \"descriptionTemplate\" .}}\n{{end}}")
	} else {
		b.WriteString("{{if .Description}}\n\nDESCRIPTION:\n   {{template \"descriptionTemplate\" .}}{{end}}\n")
	}
	var cats []string
	byCat := map[string][]cli.Flag{}
	for _, f := range cmd.Flags {
		c := ""
		if cf, ok := f.(cli.CategorizableFlag); ok {
			c = cf.GetCategory()
		}
		if _, ok := byCat[c]; !ok {
			cats = append(cats, c)
		}
		byCat[c] = append(byCat[c], f)
	}
	b.WriteString("\nOPTIONS:\n")
	for _, c := range cats {
		if c != "" {
			b.WriteString("   " + c + "\n\n")
		}
		for _, f := range byCat[c] {
			b.WriteString("   " + cli.FlagStringer(f) + "\n")
		}
		b.WriteString("\n")
	}
	b.WriteString("   " + cli.FlagStringer(cli.HelpFlag) + "\n")
	return b.String()
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
