package cliapp

import (
	"errors"
	"fmt"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/benchtrim/benchtrim/cmd/benchtrim/internal/outpath"
	"github.com/benchtrim/benchtrim/cmd/benchtrim/internal/partial"
	"github.com/benchtrim/benchtrim/table"
)

// ScaleOutFlags are the help group "Scale-out" of the commands benchtrim
// merge combines: --shard K/N and --partial-out FILE.
func ScaleOutFlags() []cli.Flag { return Group("Scale-out", shardFlag(), partialFlag()) }

// partialFlag is the --partial-out FILE of the commands benchtrim merge
// combines.
func partialFlag() cli.Flag {
	return &cli.StringFlag{Name: "partial-out", Usage: "write this shard's whole report to `FILE` for benchtrim merge (instead of the text and the other outputs)"}
}

// checkPartial checks, before any work, the --partial-out of a command
// whose output flags are outputs: with it, none of them may be given (the
// shard's report goes to benchtrim merge, which writes them), and its path
// must be writable and not an input. It returns the --partial-out path,
// "" when the flag is not given.
func checkPartial(c *cli.Context, outputs []string) (string, error) {
	path := c.String("partial-out")
	if path == "" {
		return "", nil
	}
	var given []string
	for _, f := range outputs {
		if c.IsSet(f) {
			given = append(given, flagName(f))
		}
	}
	if len(given) > 0 {
		return "", Usagef(commandName(c), "--partial-out writes the shard's whole report; give %s to benchtrim merge instead", strings.Join(given, ", "))
	}
	return path, CheckOutputs(c.Args().Slice(), Output(c, "partial-out", outpath.Text))
}

// flagName is how messages name flag: -o for output, --name otherwise.
func flagName(f string) string {
	if f == "output" {
		return "-o"
	}
	return "--" + f
}

// writePartial writes the partial file path (see cmd/benchtrim/internal/partial) of
// command from the outcome of its run on the shard of sel: rep when runErr
// is nil, empty (the report holding only the options) with a note on
// stderr when the shard holds no benchmark run (*table.EmptyShardError),
// and runErr otherwise. The header fingerprints the inputs (their
// SHA-256, standard input as it was read) and records the options that
// read them, so merge refuses parts of different inputs. It says on
// stdout what it wrote.
//
// plotMax is partial.Header.PlotMax (0 when the report keeps all its plot
// data or has none).
func writePartial(c *cli.Context, path, command string, sel table.Filter, rep any, runErr error, empty any, plotMax int) error {
	h := partial.Header{Command: command, Benchtrim: buildVersion(), Shard: sel.Shard, Shards: max(sel.Shards, 1), PlotMax: plotMax}
	for _, f := range []string{"format", "project", "version"} {
		h.ReadFlags = append(h.ReadFlags, partial.ReadFlag{Name: "--" + f, Value: c.String(f)})
	}
	if runErr == nil || errors.As(runErr, new(*table.EmptyShardError)) {
		for _, p := range c.Args().Slice() {
			in := stdinInput(c)
			if p != "-" {
				var err error
				if in, err = partial.HashFile(p); err != nil {
					return err
				}
			}
			h.Inputs = append(h.Inputs, in)
		}
	}
	var es *table.EmptyShardError
	switch {
	case errors.As(runErr, &es):
		h.Empty, rep = true, empty
		fmt.Fprintf(c.App.ErrWriter, "%s: %v: the partial %s is empty\n", command, es, path)
	case runErr != nil:
		return runErr
	}
	if err := partial.Write(path, h, rep); err != nil {
		return err
	}
	fmt.Fprintf(c.App.Writer, "wrote %s (%s, shard %d/%d)\n", path, command, h.Shard, h.Shards)
	return nil
}
