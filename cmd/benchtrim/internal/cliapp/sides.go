package cliapp

import (
	"fmt"
	"math"

	"github.com/urfave/cli/v2"

	"github.com/benchtrim/benchtrim/internal/progress"
	"github.com/benchtrim/benchtrim/table"
)

// RunChunkedSides is runChunked for an analysis of several inputs read
// as tables of their own (compare's base and test files), which relates
// their runs by group (compare: table.NameGroupOf, the benchmark name): it
// reads each list of files (readSpooled); when they hold at most
// --max-rows rows in all, or split is false, it runs run on their tables
// in memory (part false); else it spools them, grouped by group, and runs
// run on a chunk of groups at a time, each chunk's tables read from every
// spool (table.JointChunks; part true), and merges the chunks' results.
// The caller defers release.
func RunChunkedSides[R any](c *cli.Context, label string, inputs [][]string, group func(table.Key) table.Key, split bool,
	run func(tabs []*table.Table, part bool, progress func(total int)) (R, error),
	merge func(parts []R) (R, error)) (rep R, release func(), err error) {
	if n := countStdin(inputs); n > 1 {
		return rep, func() {}, Usagef(label, "standard input (-) given %d times: it can be read once, so it can be one side only", n)
	}
	g := GlobalsOf(c)
	maxRows := g.maxRows
	if maxRows == 0 || !split {
		maxRows = math.MaxInt64
	}
	var in []*spooled
	var tabs []*table.Table
	release = func() {
		for _, t := range tabs {
			t.Release()
		}
		for _, s := range in {
			s.Close()
		}
	}
	rows, spooled := int64(0), false
	for _, files := range inputs {
		s, err := readSpooled(c, files, maxRows, group)
		if err != nil {
			return rep, release, err
		}
		in = append(in, s)
		rows, spooled = rows+s.Rows(), spooled || s.Spool() != nil
	}
	if !spooled && rows <= maxRows {
		for _, s := range in {
			tabs = append(tabs, s.Table(s.setups))
		}
		bar := progress.New(c.App.ErrWriter, g.Quiet, label, 0)
		rep, err = run(tabs, false, bar.Tick)
		bar.Done()
		return rep, release, err
	}
	spools := make([]*table.Spool, len(in))
	for i, s := range in {
		if err := s.Spill(); err != nil {
			return rep, release, err
		}
		spools[i] = s.Spool()
	}
	chunks := table.JointChunks(maxRows, spools...)
	if !g.Quiet {
		fmt.Fprintf(c.App.ErrWriter, "%s: the inputs' %d rows are more than --max-rows %d: analysing %d chunks of benchmarks one at a time (scratch files in $TMPDIR)\n",
			commandName(c), rows, maxRows, len(chunks))
	}
	parts := make([]R, 0, len(chunks))
	for i, ch := range chunks {
		var part []*table.Table
		for j, s := range in {
			t, err := s.Spool().Read(ch[j], s.setups)
			if err != nil {
				for _, t := range part {
					t.Release()
				}
				return rep, release, err
			}
			part = append(part, t)
		}
		bar := progress.New(c.App.ErrWriter, g.Quiet, fmt.Sprintf("%s, chunk %d/%d", label, i+1, len(chunks)), 0)
		r, err := run(part, true, bar.Tick)
		bar.Done()
		// Reports keep copies of the strings they need (table.Collect), so
		// the chunk's buffers can go now.
		for _, t := range part {
			t.Release()
		}
		if err != nil {
			return rep, release, err
		}
		parts = append(parts, r)
	}
	rep, err = merge(parts)
	return rep, release, err
}

// countStdin is how many times "-" (standard input) is among inputs.
func countStdin(inputs [][]string) int {
	n := 0
	for _, files := range inputs {
		for _, f := range files {
			if f == "-" {
				n++
			}
		}
	}
	return n
}
