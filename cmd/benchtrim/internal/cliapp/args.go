package cliapp

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/urfave/cli/v2"

	"github.com/benchtrim/benchtrim/internal/atomicfile"
)

// usageError is a mistake in the command line itself (unknown command or
// flag, missing or malformed value). main prints it with a pointer to the
// command's help and exits with status 2.
type usageError struct {
	cmd string // "" for the program itself
	err error
}

func (e *usageError) Error() string { return e.err.Error() }
func (e *usageError) Unwrap() error { return e.err }

// Usagef returns a usageError for command cmd.
func Usagef(cmd, format string, a ...any) error {
	return &usageError{cmd: cmd, err: fmt.Errorf(format, a...)}
}

// helpHint is the line printed after a usage error.
func (e *usageError) helpHint() string {
	if e.cmd == "" {
		return "see 'benchtrim --help'"
	}
	return fmt.Sprintf("see 'benchtrim %s --help'", e.cmd)
}

// isUsage reports whether err is a usage error.
func isUsage(err error) (*usageError, bool) {
	var u *usageError
	return u, errors.As(err, &u)
}

// flagTakesValue reports whether f consumes the next argument as its value.
func flagTakesValue(f cli.Flag) bool {
	if df, ok := f.(cli.DocGenerationFlag); ok {
		return df.TakesValue()
	}
	return true
}

// findFlag returns the flag of flags called name (without dashes).
func findFlag(flags []cli.Flag, name string) cli.Flag {
	for _, f := range flags {
		for _, n := range f.Names() {
			if n == name {
				return f
			}
		}
	}
	return nil
}

// commandIndex returns the index in args (args[0] is the program) of the
// command, the first argument after the global flags and their values,
// or len(args).
func commandIndex(globals []cli.Flag, args []string) int {
	i := 1
	for ; i < len(args); i++ {
		a := args[i]
		if a == "--" || !strings.HasPrefix(a, "-") || a == "-" {
			break
		}
		name, _, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if f := findFlag(globals, name); f != nil && !hasValue && flagTakesValue(f) && i+1 < len(args) {
			i++
		}
	}
	return i
}

// CommandArg returns the command a command line names (args[0] is the
// program): the first argument after the global flags and their values,
// as NormalizeArgs finds it; "" when there is none.
func CommandArg(args []string) string {
	if i := commandIndex(globalFlags(), args); i < len(args) {
		return args[i]
	}
	return ""
}

// NormalizeArgs rewrites a command line so that urfave/cli, which stops
// reading flags at the first positional argument, sees every flag:
//
//	benchtrim [GLOBAL...] CMD [ARG|FLAG...] [-- ARG...]
//
// becomes
//
//	benchtrim [GLOBAL...] CMD [FLAG...] -- [ARG...]
//
// Global flags (--seed, --workers, --quiet) found after CMD move before it.
// "--" still ends the flags; "-" is an argument (standard input). An
// unknown command is a usage error with a did-you-mean suggestion; unknown
// flags are left for urfave/cli to report.
func NormalizeArgs(app *cli.App, args []string) ([]string, error) {
	if len(args) < 2 {
		return args, nil
	}
	var rest []string
	i := commandIndex(app.Flags, args)
	global := append([]string(nil), args[1:min(i, len(args))]...)
	if i >= len(args) || args[i] == "--" || args[i] == "-" {
		return args, nil
	}
	name := args[i]
	if name == "help" || name == "h" {
		if i+1 < len(args) && app.Command(args[i+1]) == nil {
			return nil, unknownCommand(app, args[i+1])
		}
		return args, nil
	}
	cmd := app.Command(name)
	if cmd == nil {
		return nil, unknownCommand(app, name)
	}
	var flags, positional []string
	for j := i + 1; j < len(args); j++ {
		a := args[j]
		if a == "--" {
			positional = append(positional, args[j+1:]...)
			break
		}
		if !strings.HasPrefix(a, "-") || a == "-" {
			positional = append(positional, a)
			continue
		}
		fname, _, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		target := &flags
		f := findFlag(cmd.Flags, fname)
		if f == nil {
			if g := findFlag(app.Flags, fname); g != nil && fname != "version" && fname != "v" {
				f, target = g, &global
			}
		}
		*target = append(*target, a)
		if f != nil && !hasValue && flagTakesValue(f) && j+1 < len(args) {
			j++
			*target = append(*target, args[j])
		}
	}
	rest = append(rest, args[0])
	rest = append(rest, global...)
	rest = append(rest, name)
	rest = append(rest, flags...)
	if len(positional) > 0 {
		rest = append(rest, "--")
		rest = append(rest, positional...)
	}
	return rest, nil
}

// unknownCommand is the usage error for a command name that does not
// exist, with a did-you-mean suggestion.
func unknownCommand(app *cli.App, name string) error {
	msg := fmt.Sprintf("unknown command %q", name)
	if s := suggestCommand(app.Commands, name); s != "" {
		msg += fmt.Sprintf("; did you mean %q?", s)
	}
	return &usageError{err: errors.New(msg)}
}

// suggestCommand returns the command name closest to name by edit
// distance, when it is at most a third of the name's length (at least 1).
func suggestCommand(cmds []*cli.Command, name string) string {
	best, bestD := "", len(name)/3+1
	for _, c := range cmds {
		if c.Hidden {
			continue
		}
		for _, n := range c.Names() {
			if d := editDistance(n, name); d <= bestD && (best == "" || d < bestD) {
				best, bestD = c.Name, d
			}
		}
	}
	return best
}

// editDistance is the Levenshtein distance between a and b (in bytes).
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// suggestFlag returns the flag (with dashes) closest to name by edit
// distance, as suggestCommand.
func suggestFlag(flags []cli.Flag, name string) string {
	best, bestD := "", len(name)/3+1
	for _, f := range flags {
		for _, n := range f.Names() {
			if d := editDistance(n, name); d <= bestD && (best == "" || d < bestD) {
				best, bestD = n, d
			}
		}
	}
	if best == "" {
		return ""
	}
	if len(best) == 1 {
		return "-" + best
	}
	return "--" + best
}

// Main runs the benchtrim process: run on the command line, with the
// temporary files of unfinished writes removed on SIGINT or SIGTERM, and
// standard output that a reader closing it does not stop. It
// returns the exit status (ExitCode). (The start heap is set earlier, as
// packages are initialised: cmd/benchtrim/internal/gcstart.)
func Main(run func(args []string, stdout, stderr io.Writer) error) int {
	signal.Ignore(syscall.SIGPIPE) // a closed standard output ends the printing only (closedStdout)
	stop := atomicfile.RemoveOnSignal()
	err := run(os.Args, &closedStdout{w: os.Stdout}, os.Stderr)
	stop()
	return ExitCode(err, os.Stderr)
}

// ExitCode prints err (a usage error with the help hint) on stderr and
// returns benchtrim's exit status for it: 0 without an error, 2 for a
// usage error, 1 for any other.
func ExitCode(err error, stderr io.Writer) int {
	if err == nil {
		return 0
	}
	if u, ok := isUsage(err); ok {
		prefix := "benchtrim"
		if u.cmd != "" {
			prefix += " " + u.cmd
		}
		fmt.Fprintf(stderr, "%s: %v\n%s\n", prefix, err, u.helpHint())
		return 2
	}
	fmt.Fprintln(stderr, "benchtrim:", err)
	return 1
}
