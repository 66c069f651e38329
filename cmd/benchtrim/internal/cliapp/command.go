package cliapp

import (
	"io"
	"reflect"
	"slices"
	"strings"
	"sync"

	"github.com/urfave/cli/v2"

	"github.com/benchtrim/benchtrim/internal/atomicfile"
	"github.com/benchtrim/benchtrim/reports"
)

// NewApp builds benchtrim's command line with the commands cmds, writing to
// stdout and stderr: description is its help text; every command's
// Description is a help text whose leading "$ " lines are its EXAMPLES
// (helpParts), its flags are listed by group (Group) and range-checked
// (flagRanges), and its Required flags are checked (requireFlags).
func NewApp(stdout, stderr io.Writer, description string, cmds []*cli.Command) *cli.App {
	atomicfile.Stdout, atomicfile.Stderr = stdout, stderr // outputs named - or /dev/stdout
	wrapFlagHelpOnce()
	helpPrinterOnce.Do(printLazyHelp)
	app := &cli.App{
		Name:           "benchtrim",
		Usage:          "cut a microbenchmark suite's time without changing its results",
		Description:    description,
		Version:        buildVersion(),
		Writer:         stdout,
		ErrWriter:      stderr,
		Flags:          globalFlags(),
		Suggest:        true,
		OnUsageError:   onUsageError,
		ExitErrHandler: func(*cli.Context, error) {}, // errors are returned to run, never os.Exit here
	}
	cli.VersionFlag = &cli.BoolFlag{Name: "version", Usage: "print the version and exit"}
	app.Commands = append(cmds, versionCommand())
	addRangeChecks(app.Flags, flagRanges)
	app.Description = fitLines(app.Description, reports.Width-3)
	for _, cmd := range app.Commands {
		cmd.OnUsageError = onUsageError
		addRangeChecks(cmd.Flags, flagRanges)
		requireFlags(cmd)
		cmd.CustomHelpTemplate = lazyHelp
	}
	return app
}

// Maker makes the command Name.
type Maker struct {
	Name string
	Make func() *cli.Command
}

// Make makes the commands a command line args needs (args[0] is the
// program): when it runs one of them (CommandArg), only that one, as
// making the others and their flags, which urfave/cli then files by help
// group, took 3 ms of every start-up; otherwise (no args, help, no
// command, a misspelled one) all of them, in order.
func Make(makers []Maker, args []string) []*cli.Command {
	name := CommandArg(args)
	for _, m := range makers {
		if m.Name == name {
			return []*cli.Command{m.Make()}
		}
	}
	cmds := make([]*cli.Command, len(makers))
	for i, m := range makers {
		cmds[i] = m.Make()
	}
	return cmds
}

// lazyHelp stands for a command's help template until its help is
// printed: making the templates of every command (commandHelp, and the
// descriptions fitted to the width) took 3–4 ms of every start-up.
const lazyHelp = "{{/* benchtrim: made by helpTemplate when printed */}}"

var helpPrinterOnce sync.Once

// printLazyHelp wraps urfave/cli's HelpPrinter, through which every
// command's help is printed with the command's CustomHelpTemplate, so
// that a command's lazyHelp becomes its template (helpTemplate) first.
func printLazyHelp() {
	print := cli.HelpPrinter
	cli.HelpPrinter = func(w io.Writer, templ string, data any) {
		if cmd, ok := data.(*cli.Command); ok && templ == lazyHelp {
			templ = helpTemplate(cmd)
		}
		print(w, templ, data)
	}
}

// helpTemplate makes cmd's help template (commandHelp) and fits its
// description, once.
func helpTemplate(cmd *cli.Command) string {
	if cmd.CustomHelpTemplate == lazyHelp {
		examples, desc := helpParts(cmd.Description)
		cmd.Description = fitLines(desc, reports.Width-3)
		cmd.CustomHelpTemplate = commandHelp(cmd, fitLines(examples, reports.Width-3))
	}
	return cmd.CustomHelpTemplate
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
// and the flags grouped by purpose (Group): each category under its name,
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
		if f == cli.HelpFlag {
			continue // in Flags once the command ran; listed last, below
		}
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

// Group sets the help category (urfave/cli's Category) of flags, which
// help lists in the order of each category's first flag, flags in their
// order (commandHelp), and returns them.
func Group(category string, flags ...cli.Flag) []cli.Flag {
	for _, f := range flags {
		reflect.ValueOf(f).Elem().FieldByName("Category").SetString(category)
	}
	return flags
}

// Groups concatenates flag groups.
func Groups(gs ...[]cli.Flag) []cli.Flag { return slices.Concat(gs...) }
