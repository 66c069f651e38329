package main

import (
	"fmt"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/benchtrim/benchtrim/analysis/duet"
	"github.com/benchtrim/benchtrim/analysis/optimize"
	"github.com/benchtrim/benchtrim/analysis/reconfigure"
	"github.com/benchtrim/benchtrim/analysis/steady"
	"github.com/benchtrim/benchtrim/analysis/trim"
	"github.com/benchtrim/benchtrim/cmd/benchtrim/internal/cliapp"
	"github.com/benchtrim/benchtrim/internal/outpath"
	"github.com/benchtrim/benchtrim/internal/partial"
)

// mergeEntry is a command whose shards benchtrim merge combines: its
// output flags, how to read a partial's report, the analyzer's Merge, and
// the command's own output checks and writer.
type mergeEntry struct {
	command string
	// flags are the command's output flags (merge takes them; a
	// --partial-out run does not).
	flags   []string
	decode  func(*partial.File) (any, error)
	merge   func(parts []any) (any, error)
	outputs func(*cli.Context) []outpath.Output
	write   func(*cli.Context, any) error
}

// entryOf builds the mergeEntry of a command whose report type is R.
func entryOf[R any](command string, flags []string, merge func([]*R) (*R, error),
	outputs func(*cli.Context) []outpath.Output, write func(*cli.Context, *R) error) mergeEntry {
	return mergeEntry{
		command: command, flags: flags, outputs: outputs,
		decode: func(f *partial.File) (any, error) {
			r := new(R)
			return r, f.Decode(r)
		},
		merge: func(parts []any) (any, error) {
			rs := make([]*R, len(parts))
			for i, p := range parts {
				rs[i] = p.(*R)
			}
			return merge(rs)
		},
		write: func(c *cli.Context, r any) error { return write(c, r.(*R)) },
	}
}

// mergeEntries are the commands benchtrim merge combines, in help order.
func mergeEntries() []mergeEntry {
	return []mergeEntry{
		entryOf("optimize", optimizeOutputFlags, optimize.Merge, optimizeOutputs, writeOptimize),
		entryOf("reconfigure", reconfigureOutputFlags, reconfigure.Merge, reconfigureOutputs, writeReconfigure),
		entryOf("steady", steadyOutputFlags, steady.Merge, steadyOutputs, writeSteady),
		entryOf("trim", trimOutputFlags, trim.Merge, trimOutputs, writeTrim),
		entryOf("duet", duetOutputFlags, duet.Merge, duetOutputs, writeDuet),
	}
}

func mergeCommand() *cli.Command {
	return &cli.Command{
		Name:        "merge",
		Usage:       "combine the shards' --partial-out files into the unsharded run's output",
		ArgsUsage:   "PARTIALS...",
		Description: help("merge"),
		Flags:       mergeFlags(),
		Action:      runMerge,
	}
}

// mergeFlags are the output flags of every command merge combines, each
// once: as the command defines it when one command has it, else with a
// usage naming the commands (and --plot-max defaulting to the command's).
func mergeFlags() []cli.Flag {
	byName := map[string]cli.Flag{}
	users := map[string][]string{}
	var order []string
	all := map[string][]cli.Flag{}
	for _, cmd := range []*cli.Command{optimizeCommand(), reconfigureCommand(), steadyCommand(), trimCommand(), duetCommand()} {
		all[cmd.Name] = cmd.Flags
	}
	for _, e := range mergeEntries() {
		for _, name := range e.flags {
			if _, ok := byName[name]; !ok {
				order = append(order, name)
				for _, f := range all[e.command] {
					if f.Names()[0] == name {
						byName[name] = f
					}
				}
			}
			users[name] = append(users[name], e.command)
		}
	}
	var out []cli.Flag
	for _, name := range order {
		f, cmds := byName[name], users[name]
		if len(cmds) > 1 {
			of := "of " + strings.Join(cmds[:len(cmds)-1], ", ") + " and " + cmds[len(cmds)-1]
			switch g := f.(type) {
			case *cli.StringFlag:
				if name == "plot-format" {
					break
				}
				c := *g
				c.Usage = fmt.Sprintf("as the --%s %s (what it writes depends on the partials' command)", name, of)
				if name == "output" {
					c.Usage = "as the -o " + of + " (what it writes depends on the partials' command)"
				}
				f = &c
			case *cli.BoolFlag:
				c := *g
				c.Usage = fmt.Sprintf("as the --%s %s", name, of)
				f = &c
			case *cli.IntFlag:
				c := *g
				c.Value = 0
				c.Usage = fmt.Sprintf("as the --%s %s", name, of)
				c.DefaultText = "the command's"
				f = &c
			}
		}
		out = append(out, f)
	}
	return out
}

func runMerge(c *cli.Context) error {
	paths := c.Args().Slice()
	if len(paths) == 0 {
		return cliapp.Usagef("merge", "no partial files (write them with CMD --shard K/N --partial-out FILE)")
	}
	files := make([]*partial.File, 0, len(paths))
	defer func() {
		for _, f := range files {
			f.Close()
		}
	}()
	for _, p := range paths {
		f, err := partial.Open(p)
		if err != nil {
			return err
		}
		files = append(files, f)
	}
	if err := checkShards(files); err != nil {
		return err
	}
	h := files[0].Header
	var e *mergeEntry
	for _, x := range mergeEntries() {
		if x.command == h.Command {
			e = &x
		}
	}
	if e == nil {
		return fmt.Errorf("%s: benchtrim merge does not combine %q partials", files[0].Path, h.Command)
	}
	for _, f := range c.Command.Flags {
		if name := f.Names()[0]; c.IsSet(name) && !contains(e.flags, name) {
			return cliapp.Usagef("merge", "%s is not an output of %s (its partials take %s)", flagList([]string{name}), e.command, flagList(e.flags))
		}
	}
	if c.String("plots") != "" {
		want := intFlag(c, "plot-max", steadyPlotMax)
		for _, f := range files {
			if pm := f.Header.PlotMax; pm > 0 && want > pm {
				return cliapp.Usagef("merge", "--plot-max %d: %s keeps plot data for its first %d benchmark runs; run the shards with --plot-max %d", want, f.Path, pm, want)
			}
		}
	}
	if err := cliapp.CheckOutputs(paths, e.outputs(c)...); err != nil {
		return err
	}
	parts := make([]any, len(files))
	for _, f := range files {
		r, err := e.decode(f)
		if err != nil {
			return err
		}
		parts[f.Header.Shard] = r
	}
	rep, err := e.merge(parts)
	if err != nil {
		return fmt.Errorf("merge %s: %w (part k+1 is shard k/%d)", e.command, err, h.Shards)
	}
	if !cliapp.GlobalsOf(c).Quiet {
		fmt.Fprintf(c.App.ErrWriter, "merge: %d %s partials (shards 0 … %d of %d)\n", len(files), e.command, h.Shards-1, h.Shards)
	}
	return e.write(c, rep)
}

// checkShards checks that the partial files come from one sharded run:
// one command and build, one N, the same inputs read alike, and shards
// 0 … N−1 each exactly once.
func checkShards(files []*partial.File) error {
	first := files[0]
	h := first.Header
	if h.Shards < 1 || h.Shard < 0 || h.Shard >= h.Shards {
		return fmt.Errorf("%s: header: shard %d/%d is not a shard", first.Path, h.Shard, h.Shards)
	}
	owner := make([]string, h.Shards)
	for _, f := range files {
		g := f.Header
		switch {
		case g.Command != h.Command:
			return fmt.Errorf("%s holds a %s report, %s a %s report: merge the partials of one command", first.Path, h.Command, f.Path, g.Command)
		case g.Benchtrim != h.Benchtrim:
			return fmt.Errorf("%s was written by benchtrim %s, %s by %s: run the shards and the merge with one build", first.Path, h.Benchtrim, f.Path, g.Benchtrim)
		case g.Shards != h.Shards:
			return fmt.Errorf("%s is shard %d/%d, %s shard %d/%d: the partials of one run have one N", first.Path, h.Shard, h.Shards, f.Path, g.Shard, g.Shards)
		case g.Shard < 0 || g.Shard >= g.Shards:
			return fmt.Errorf("%s: header: shard %d/%d is not a shard", f.Path, g.Shard, g.Shards)
		case owner[g.Shard] != "":
			return fmt.Errorf("shard %d/%d is in both %s and %s", g.Shard, g.Shards, owner[g.Shard], f.Path)
		}
		if err := partial.SameInputs(first, f); err != nil {
			return err
		}
		owner[g.Shard] = f.Path
	}
	var missing []string
	for k, o := range owner {
		if o == "" {
			missing = append(missing, fmt.Sprintf("%d/%d", k, h.Shards))
		}
	}
	if len(missing) > 0 {
		list := strings.Join(missing, ", ")
		if len(missing) > 10 {
			list = strings.Join(missing[:10], ", ") + fmt.Sprintf(" … and %d more", len(missing)-10)
		}
		return fmt.Errorf("%s partials: missing shard %s (have %d of %d)", h.Command, list, len(files), h.Shards)
	}
	return nil
}

// flagList names flags as a command's help does: -o, --summary-out, ….
func flagList(flags []string) string {
	names := make([]string, len(flags))
	for i, f := range flags {
		names[i] = "--" + f
		if f == "output" {
			names[i] = "-o"
		}
	}
	return strings.Join(names, ", ")
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// intFlag is the value of the int flag name when given, else def (merge's
// flags shared by several commands default to the command's value).
func intFlag(c *cli.Context, name string, def int) int {
	if c.IsSet(name) {
		return c.Int(name)
	}
	return def
}
