package cliapp

import (
	"fmt"
	"slices"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/benchtrim/benchtrim/cmd/benchtrim/internal/outpath"
	"github.com/benchtrim/benchtrim/cmd/benchtrim/internal/partial"
)

// Mergeable is the Outputs of any report type, for MergeCommand.
type Mergeable interface{ mergeEntry() mergeEntry }

// mergeEntry is a command whose shards benchtrim merge combines: its
// output flags, how to read a partial's report, the analyzer's Merge, and
// the command's own output checks and writer.
type mergeEntry struct {
	command string
	// flags are the command's output flags (merge takes them; a
	// --partial-out run does not).
	flags   []string
	plotMax int
	decode  func(*partial.File) (any, error)
	merge   func(parts []any) (any, error)
	outputs func(*cli.Context) []outpath.Output
	write   func(*cli.Context, any) error
}

func (a *Outputs[R, P]) mergeEntry() mergeEntry {
	return mergeEntry{
		command: a.Command, flags: a.OutputFlags, plotMax: a.PlotMax, outputs: a.outputs,
		decode: func(f *partial.File) (any, error) {
			r := new(R)
			return r, f.Decode(r)
		},
		merge: func(parts []any) (any, error) {
			rs := make([]*R, len(parts))
			for i, p := range parts {
				rs[i] = p.(*R)
			}
			return a.Merge(rs)
		},
		write: func(c *cli.Context, r any) error { return a.write(c, r.(*R)) },
	}
}

// MergeCommand is benchtrim merge, described by description, combining the
// partials of the analyzers, whose commands are cmds (their flags give
// merge's, mergeFlags).
func MergeCommand(description string, cmds []*cli.Command, analyzers ...Mergeable) *cli.Command {
	entries := make([]mergeEntry, len(analyzers))
	for i, a := range analyzers {
		entries[i] = a.mergeEntry()
	}
	return &cli.Command{
		Name:        "merge",
		Usage:       "combine the shards' --partial-out files into the unsharded run's output",
		ArgsUsage:   "PARTIALS...",
		Description: description,
		Flags:       mergeFlags(entries, cmds),
		Action:      func(c *cli.Context) error { return runMerge(c, entries) },
	}
}

// mergeFlags are the output flags of every command merge combines, each
// once: as the command defines it when one command has it, else with a
// usage naming the commands (and --plot-max defaulting to the command's).
func mergeFlags(entries []mergeEntry, cmds []*cli.Command) []cli.Flag {
	byName := map[string]cli.Flag{}
	users := map[string][]string{}
	var order []string
	all := map[string][]cli.Flag{}
	for _, cmd := range cmds {
		all[cmd.Name] = cmd.Flags
	}
	for _, e := range entries {
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
		f, us := byName[name], users[name]
		if len(us) > 1 {
			f = sharedFlag(f, name, "of "+strings.Join(us[:len(us)-1], ", ")+" and "+us[len(us)-1])
		}
		out = append(out, f)
	}
	return out
}

// sharedFlag is merge's flag name of several commands (of: "of optimize
// and trim"), f as the first of them defines it: with a usage naming them
// (--plot-format as it is) and an int flag defaulting to the command's.
func sharedFlag(f cli.Flag, name, of string) cli.Flag {
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
		return &c
	case *cli.BoolFlag:
		c := *g
		c.Usage = fmt.Sprintf("as the --%s %s", name, of)
		return &c
	case *cli.IntFlag:
		c := *g
		c.Value = 0
		c.Usage = fmt.Sprintf("as the --%s %s", name, of)
		c.DefaultText = "the command's"
		return &c
	}
	return f
}

// runMerge is benchtrim merge PARTIALS...: it opens the partial files,
// checks they are the shards of one run (checkShards) and that the flags
// are outputs of their command, merges the reports and writes the
// command's outputs.
func runMerge(c *cli.Context, entries []mergeEntry) error {
	paths := c.Args().Slice()
	if len(paths) == 0 {
		return Usagef("merge", "no partial files (write them with CMD --shard K/N --partial-out FILE)")
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
	e, err := mergeFlagsOf(c, entries, files)
	if err != nil {
		return err
	}
	if err := CheckOutputs(paths, e.outputs(c)...); err != nil {
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
	h := files[0].Header
	rep, err := e.merge(parts)
	if err != nil {
		return fmt.Errorf("merge %s: %w (part k+1 is shard k/%d)", e.command, err, h.Shards)
	}
	if !GlobalsOf(c).Quiet {
		fmt.Fprintf(c.App.ErrWriter, "merge: %d %s partials (shards 0 … %d of %d)\n", len(files), e.command, h.Shards-1, h.Shards)
	}
	return e.write(c, rep)
}

// mergeFlagsOf returns the entry of the partials' command after checking
// the flags given: outputs of that command, and a --plot-max within the
// plot data the partials kept.
func mergeFlagsOf(c *cli.Context, entries []mergeEntry, files []*partial.File) (*mergeEntry, error) {
	h := files[0].Header
	var e *mergeEntry
	for _, x := range entries {
		if x.command == h.Command {
			e = &x
		}
	}
	if e == nil {
		return nil, fmt.Errorf("%s: benchtrim merge does not combine %q partials", files[0].Path, h.Command)
	}
	for _, f := range c.Command.Flags {
		if name := f.Names()[0]; c.IsSet(name) && !slices.Contains(e.flags, name) {
			return nil, Usagef("merge", "%s is not an output of %s (its partials take %s)", flagList([]string{name}), e.command, flagList(e.flags))
		}
	}
	if c.String("plots") != "" {
		want := intFlag(c, "plot-max", e.plotMax)
		for _, f := range files {
			if pm := f.Header.PlotMax; pm > 0 && want > pm {
				return nil, Usagef("merge", "--plot-max %d: %s keeps plot data for its first %d benchmark runs; run the shards with --plot-max %d", want, f.Path, pm, want)
			}
		}
	}
	return e, nil
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
		names[i] = flagName(f)
	}
	return strings.Join(names, ", ")
}
