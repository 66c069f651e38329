package cliapp

import (
	"errors"
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/benchtrim/benchtrim/cmd/benchtrim/internal/progress"
	"github.com/benchtrim/benchtrim/ingest/chunk"
	"github.com/benchtrim/benchtrim/table"
	"github.com/benchtrim/benchtrim/tablefile"
)

// runChunked runs the analysis of an analyzer whose reports merge (its
// Merge function) on the command's inputs (runInputs): once on the whole
// table while it holds at most --max-rows rows (0: no bound), otherwise
// on chunks of whole benchmark groups (every version of a benchmark
// together) of at most --max-rows rows among the groups keep accepts,
// with all naming every benchmark run of the input, merging the chunks'
// reports with merge. run gets all == nil when it sees the whole input,
// and only the rows of keep's metric (the primary one when unset): every
// analyzer using runChunked reads no other. A shard reads only its own
// runs' rows: another shard's would be left out by the analysis anyway,
// after filling memory or the scratch file (result files are read whole
// by every shard).
func runChunked[R any](c *cli.Context, label string, keep table.Filter,
	run func(t *table.Table, all []table.Key, progress func(total int)) (R, error),
	merge func(parts []R) (R, error)) (rep R, release func(), err error) {
	g := GlobalsOf(c)
	return runInputs(c, [][]string{c.Args().Slice()}, chunk.Inputs{Keep: &keep}, g.maxRows, func(tabs []*table.Table, ch chunk.Chunk) (R, error) {
		bar := progress.New(c.App.ErrWriter, g.Quiet, chunkLabel(label, ch), 0)
		r, err := run(tabs[0], ch.All, bar.Tick)
		bar.Done()
		return r, benchError(c, err)
	}, merge)
}

// RunChunkedSides is runChunked for an analysis of several inputs read
// as tables of their own (compare's base and test files), which relates
// their runs by group (compare: tablefile.NameGroupOf, the benchmark name):
// when they hold at most --max-rows rows in all, or split is false, run
// gets their tables in memory (part false); else a chunk of groups at a
// time, each chunk's tables read from every input's spool
// (tablefile.JointChunks; part true), and the chunks' results are merged.
// The caller defers release.
func RunChunkedSides[R any](c *cli.Context, label string, inputs [][]string, group func(table.Key) table.Key, split bool,
	run func(tabs []*table.Table, part bool, progress func(total int)) (R, error),
	merge func(parts []R) (R, error)) (rep R, release func(), err error) {
	if n := countStdin(inputs); n > 1 {
		return rep, func() {}, Usagef(label, "standard input (-) given %d times: it can be read once, so it can be one side only", n)
	}
	g := GlobalsOf(c)
	maxRows := g.maxRows
	if !split {
		maxRows = 0 // no bound
	}
	return runInputs(c, inputs, chunk.Inputs{Group: group}, maxRows, func(tabs []*table.Table, ch chunk.Chunk) (R, error) {
		bar := progress.New(c.App.ErrWriter, g.Quiet, chunkLabel(label, ch), 0)
		r, err := run(tabs, ch.N > 0, bar.Tick)
		bar.Done()
		return r, err
	}, merge)
}

// ReadTable reads the files of paths whole (runInputs without a row
// bound) for a command that writes them out again (export); the caller
// calls release once done with the table.
func ReadTable(c *cli.Context, paths []string) (t *table.Table, release func(), err error) {
	return runInputs(c, [][]string{paths}, chunk.Inputs{}, 0, func(tabs []*table.Table, _ chunk.Chunk) (*table.Table, error) {
		return tabs[0], nil
	}, nil)
}

// runInputs is every command's read of its result files: chunk.Run on
// in with a source per list of files, each read with the input flags'
// options (readOptions, with a progress bar of the files read), saying
// on stderr what it read and how it cuts it unless --quiet, with row
// bound maxRows (<= 0: none).
func runInputs[R any](c *cli.Context, lists [][]string, in chunk.Inputs, maxRows int64,
	run func(tabs []*table.Table, ch chunk.Chunk) (R, error),
	merge func(parts []R) (R, error)) (rep R, release func(), err error) {
	opts, done, err := readOptions(c, lists...)
	if err != nil {
		return rep, func() {}, err
	}
	for i, files := range lists {
		in.Sources = append(in.Sources, chunk.Source{Files: files, Read: opts[i]})
	}
	if !GlobalsOf(c).Quiet {
		in.Log, in.Name = c.App.ErrWriter, commandName(c)
	}
	rep, release, err = chunk.Run(in, maxRows, run, merge)
	done()
	return rep, release, tooLarge(err)
}

// chunkLabel is the progress label of a run on chunk ch: label, with
// ", chunk I/N" for a chunk of a larger input.
func chunkLabel(label string, ch chunk.Chunk) string {
	if ch.N == 0 {
		return label
	}
	return fmt.Sprintf("%s, chunk %d/%d", label, ch.I, ch.N)
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

// tooLarge adds to a *tablefile.GroupTooLargeError (a benchmark group of more
// rows than --max-rows) what the user can do about it.
func tooLarge(err error) error {
	var big *tablefile.GroupTooLargeError
	if !errors.As(err, &big) {
		return err
	}
	return fmt.Errorf("%w: give a --max-rows above its rows (the memory they take), --max-rows 0 to hold the whole input, or select fewer runs (--bench)", err)
}
