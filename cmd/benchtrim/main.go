// Command benchtrim answers, for recorded microbenchmark results, how much
// of a suite's execution time can be cut without changing its results.
//
// It is a thin shell: each subcommand parses flags and calls a package
// (ingest, analysis/..., changepoint, reports). See README.md.
//
// Exit status: 0 on success, 1 when the command failed (bad input, no
// result), 2 for a usage error (unknown command or flag, bad flag value).
package main

import (
	"fmt"
	"io"
	"os"

	"github.com/benchtrim/benchtrim/cmd/benchtrim/internal/cliapp"
	"github.com/benchtrim/benchtrim/internal/atomicfile"
)

func main() {
	stop := atomicfile.RemoveOnSignal()
	err := run(os.Args, os.Stdout, os.Stderr)
	stop()
	os.Exit(exitCode(err, os.Stderr))
}

// exitCode prints err and returns the process exit status for it.
func exitCode(err error, stderr io.Writer) int {
	if err == nil {
		return 0
	}
	if u, ok := cliapp.IsUsage(err); ok {
		prefix := "benchtrim"
		if u.Cmd != "" {
			prefix += " " + u.Cmd
		}
		fmt.Fprintf(stderr, "%s: %v\n%s\n", prefix, err, u.HelpHint())
		return 2
	}
	fmt.Fprintln(stderr, "benchtrim:", err)
	return 1
}

// run executes the command line args (args[0] is the program name).
func run(args []string, stdout, stderr io.Writer) error {
	app := newApp(stdout, stderr)
	args, err := cliapp.NormalizeArgs(app, args)
	if err != nil {
		return err
	}
	return app.Run(args)
}
