// Command benchtrim answers, for recorded microbenchmark results, how much
// of a suite's execution time can be cut without changing its results.
//
// It is a thin shell: each subcommand parses flags and calls a package
// (ingest, analysis/..., changepoint, reports). See README.md.
package main

import (
	"fmt"
	"io"
	"os"
)

func main() {
	if err := run(os.Args, os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "benchtrim:", err)
		os.Exit(1)
	}
}

// run executes the command line args (args[0] is the program name).
func run(args []string, stdout, stderr io.Writer) error {
	return newApp(stdout, stderr).Run(args)
}
