package cliapp

import (
	"fmt"
	"io"
	"slices"

	"github.com/urfave/cli/v2"

	"github.com/benchtrim/benchtrim/cmd/benchtrim/internal/outpath"
	"github.com/benchtrim/benchtrim/table"
)

// Outputs describes the outputs of a command whose shards benchtrim merge
// combines (optimize, reconfigure, steady, trim, duet), by its report R
// (P is *R, which prints itself: the compiler checks that it is a
// Result): the output flags and what each writes from the report, and the
// analyzer's Merge. Its Run is the command's body after the flags are
// read; merge writes a merged report with the same outputs.
type Outputs[R any, P interface {
	*R
	Result
}] struct {
	Command string
	// OutputFlags are the command's output flags: merge takes them, a
	// --partial-out run refuses them (but --plot-format and --plot-max
	// when KeepsPlots).
	OutputFlags []string
	// Data are the data tables output flags write, in the order they are
	// checked and written.
	Data []DataOut
	// Text are the text files output flags write, after Data.
	Text []TextOf[R]
	// Details prints the report's details under --details (nil: none).
	Details func(*R, io.Writer) error
	// Plots, when set, writes at most max plots in format into dir
	// (--plots DIR, --plot-format, --plot-max; PlotMax is --plot-max's
	// default) and returns how many it wrote.
	Plots   func(r *R, dir, format string, max int) (int, error)
	PlotMax int
	// KeepsPlots: a shard's partial keeps the plot data of its first
	// --plot-max benchmark runs (a superset of those the merged report
	// plots from that shard), so --partial-out takes --plot-format and
	// --plot-max.
	KeepsPlots bool
	// Dir, when set, is a folder output replaced as a whole (trim's
	// --out-dir).
	Dir *DirOut[R]
	// Check, when set, checks the report of a run (not of a merge)
	// before it is written.
	Check func(r *R, sel table.Filter) error
	Merge func(parts []*R) (*R, error)
}

// TextOf names a text file an output flag writes from a report R.
type TextOf[R any] struct {
	Flag  string
	Write func(*R, io.Writer) error
}

// DirOut is a folder output of a report R: Flag names it, Files are the
// files it will hold (checked as outputs), Write fills the staged folder
// and Says tells what it holds ("wrote DIR (Says)").
type DirOut[R any] struct {
	Flag  string
	Files []string
	Write func(dir string, r *R) error
	Says  string
}

// Run is the body of the command once its flags are read into the
// options that select sel: it checks --partial-out and the outputs (with
// inputs, the files the command reads) before any work, runs run on the
// inputs (runChunked, the chunks' reports merged by Merge), then writes
// the shard's partial file (empty, from the options' report, when the
// shard holds no benchmark run) or, without --partial-out, the text and
// outputs (Check first).
func (a *Outputs[R, P]) Run(c *cli.Context, sel table.Filter, inputs []string, empty *R,
	run func(t *table.Table, all []table.Key, progress func(total int)) (*R, error)) error {
	flags := a.OutputFlags
	if a.KeepsPlots {
		flags = slices.DeleteFunc(slices.Clone(flags), func(f string) bool { return f == "plot-format" || f == "plot-max" })
	}
	partialOut, err := checkPartial(c, flags)
	if err != nil {
		return err
	}
	if err = CheckOutputs(inputs, a.outputs(c)...); err != nil {
		return err
	}
	rep, release, err := runChunked(c, a.Command, sel, run, a.Merge)
	defer release()
	if partialOut != "" {
		plotMax := 0
		if a.KeepsPlots {
			plotMax = max(c.Int("plot-max"), 1)
		}
		return writePartial(c, partialOut, a.Command, sel, rep, err, empty, plotMax)
	}
	if err != nil {
		return err
	}
	if a.Check != nil {
		if err := a.Check(rep, sel); err != nil {
			return err
		}
	}
	return a.write(c, rep)
}

// outputs are the outputs the command's flags name, checked before work.
func (a *Outputs[R, P]) outputs(c *cli.Context) []outpath.Output {
	var outs []outpath.Output
	at := map[string]int{}
	for _, d := range a.Data {
		kind := outpath.Data
		if d.Doc {
			kind = outpath.Report
		}
		if i, ok := at[d.Flag]; ok {
			if p := outs[i].Path; d.Path != nil && p != "" && d.Path(p) != "" {
				outs[i].Also = append(outs[i].Also, d.Path(p))
			}
			continue
		}
		at[d.Flag] = len(outs)
		if d.Path != nil {
			outs = append(outs, Output(c, d.Flag, kind, d.Path))
		} else {
			outs = append(outs, Output(c, d.Flag, kind))
		}
	}
	for _, t := range a.Text {
		outs = append(outs, Output(c, t.Flag, outpath.Text))
	}
	if a.Plots != nil {
		outs = append(outs, plotDir(c, "plots", "plot-format"))
	}
	if a.Dir != nil {
		outs = append(outs, Output(c, a.Dir.Flag, outpath.Dir, dirFiles(a.Dir.Files...)...))
	}
	return outs
}

// write writes what the command writes from its report: the text, the
// details and every output whose flag is given, as one set: nothing is in
// place until every output was written, and a folder replaces its old
// content as a whole.
func (a *Outputs[R, P]) write(c *cli.Context, rep *R) error {
	res := P(rep)
	outs, _ := beginOutputs(c)
	defer outs.abort()
	var details func(io.Writer) error
	if a.Details != nil {
		details = func(w io.Writer) error { return a.Details(rep, w) }
	}
	text := make([]textOut, len(a.Text))
	for i, t := range a.Text {
		text[i] = textOut{flag: t.Flag, write: func(w io.Writer) error { return t.Write(rep, w) }}
	}
	err := writeResult(c, res, details, a.Data, text)
	if dir := c.String("plots"); a.Plots != nil && dir != "" && err == nil {
		var tmp string
		var n int
		// One output set, as --out-dir: the folder is replaced as a whole,
		// so no plot of an earlier run stays beside the new ones.
		if tmp, err = outs.set.Dir(dir, true); err == nil {
			n, err = a.Plots(rep, tmp, c.String("plot-format"), intFlag(c, "plot-max", a.PlotMax))
		}
		if err != nil {
			return fmt.Errorf("--plots %s: %w", dir, err)
		}
		outs.say("wrote %d plots into %s", n, dir)
	}
	if err != nil {
		return err
	}
	if d := a.Dir; d != nil && c.String(d.Flag) != "" {
		dir := c.String(d.Flag)
		tmp, err := outs.set.Dir(dir, true)
		if err == nil {
			err = d.Write(tmp, rep)
		}
		if err != nil {
			return fmt.Errorf("--%s %s: %w", d.Flag, dir, err)
		}
		outs.say("wrote %s (%s)", dir, d.Says)
	}
	return outs.Commit()
}

// intFlag is the value of the int flag name when given, else def (merge's
// flags shared by several commands default to the command's value).
func intFlag(c *cli.Context, name string, def int) int {
	if c.IsSet(name) {
		return c.Int(name)
	}
	return def
}
