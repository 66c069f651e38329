package cliapp

import (
	"fmt"
	"io"

	"github.com/urfave/cli/v2"

	"github.com/benchtrim/benchtrim/internal/atomicfile"
)

// outputs is the set of files and folders one command writes, all or
// nothing (atomicfile.Set), and the lines that say what it wrote, printed
// once the set is in place.
type outputs struct {
	set   atomicfile.Set
	w     io.Writer
	lines []string
	c     *cli.Context
}

const outputsKey = "benchtrim/outputs"

// beginOutputs opens the output set of the command run by c: WriteResult
// and the command's own writers stage into it, and nothing is in place
// until the owner commits it. When a set is already open (a command that
// adds folders to WriteResult's files), it is returned with owner false:
// only the owner calls Commit; every caller may call Abort, which does
// nothing once the set is committed.
func beginOutputs(c *cli.Context) (o *outputs, owner bool) {
	if c.App.Metadata == nil {
		c.App.Metadata = map[string]any{}
	}
	if o, ok := c.App.Metadata[outputsKey].(*outputs); ok {
		return o, false
	}
	o = &outputs{w: c.App.Writer, c: c}
	c.App.Metadata[outputsKey] = o
	return o, true
}

// say queues a line for stdout, printed by Commit.
func (o *outputs) say(format string, args ...any) {
	o.lines = append(o.lines, fmt.Sprintf(format, args...))
}

// Commit puts the set in place (atomicfile.Set.Commit), then prints the
// queued lines.
func (o *outputs) Commit() error {
	delete(o.c.App.Metadata, outputsKey)
	if err := o.set.Commit(); err != nil {
		return err
	}
	for _, l := range o.lines {
		fmt.Fprintln(o.w, l)
	}
	return nil
}

// abort removes what the set staged, unless it was committed.
func (o *outputs) abort() {
	delete(o.c.App.Metadata, outputsKey)
	o.set.Abort()
}
