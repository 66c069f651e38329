package cliapp

import (
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/benchtrim/benchtrim/cmd/benchtrim/internal/outpath"
	"github.com/benchtrim/benchtrim/internal/atomicfile"
	"github.com/benchtrim/benchtrim/reports"
	"github.com/benchtrim/benchtrim/tablefile"
)

// Output describes the path given to flag (empty when the flag is not set)
// as an outpath.Output; also names further files written beside it. When
// the path is standard output ("-", /dev/stdout: atomicfile.Stream), the
// command's own text goes to standard error from here on, so that
// standard output holds the file's bytes only.
func Output(c *cli.Context, flag string, kind outpath.Kind, also ...func(string) string) outpath.Output {
	o := outpath.Output{Flag: "--" + flag, Path: c.String(flag), Kind: kind}
	if o.Path != "" && atomicfile.Stream(o.Path) == 1 {
		c.App.Writer = c.App.ErrWriter
	}
	if flag == "output" {
		o.Flag = "-o"
	}
	if o.Path != "" {
		for _, f := range also {
			if p := f(o.Path); p != "" {
				o.Also = append(o.Also, p)
			}
		}
	}
	return o
}

// dirFiles returns, for names, functions giving the path of each name in
// a directory output (Output's also), so the files a directory will hold
// are checked as outputs.
func dirFiles(names ...string) []func(string) string {
	out := make([]func(string) string, len(names))
	for i, n := range names {
		out[i] = func(dir string) string { return filepath.Join(dir, n) }
	}
	return out
}

// plotDir is Output for the --plots DIR of a command whose plots are
// files named NAME.FORMAT (FORMAT the value of formatFlag) listed in
// reports.PlotIndexFile: their names come from the data, so an input in
// DIR with that extension or name is refused, and the folder, replaced as
// a whole, may hold no other file.
func plotDir(c *cli.Context, flag, formatFlag string) outpath.Output {
	o := Output(c, flag, outpath.Dir)
	ext := "." + strings.ToLower(c.String(formatFlag))
	o.Holds = func(name string) bool {
		return strings.ToLower(filepath.Ext(name)) == ext || name == reports.PlotIndexFile
	}
	return o
}

// TableSidecar is the setups sidecar a CSV table output gets (a stream
// without an extension, "-", would be CSV and need one too, which the
// output check refuses).
func TableSidecar(p string) string {
	if filepath.Ext(p) == "" && atomicfile.Stream(p) != 0 {
		return tablefile.SetupsSidecar(p + ".csv")
	}
	if strings.EqualFold(filepath.Ext(p), ".csv") {
		return tablefile.SetupsSidecar(p)
	}
	return ""
}

// CheckOutputs validates the outputs before any work: extensions, writable
// directories, no output that is an input (or the setups sidecar of a CSV
// table input), no two outputs on one file. On failure nothing is written.
func CheckOutputs(inputs []string, outs ...outpath.Output) error {
	return outpath.Check(outs, outpath.Inputs(inputs, tablefile.SetupsSidecar))
}
