package cliapp

import (
	"errors"
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/benchtrim/benchtrim/cmd/benchtrim/internal/progress"
	"github.com/benchtrim/benchtrim/ingest"
	"github.com/benchtrim/benchtrim/ingest/chunk"
	"github.com/benchtrim/benchtrim/table"
	"github.com/benchtrim/benchtrim/tablefile"
)

// runChunked is runOnTable for an analyzer whose reports merge (its
// Merge function): with --max-rows set it reads the command's inputs with
// chunk.Run, which runs run once on the whole table while it holds at
// most --max-rows rows and otherwise on chunks of whole benchmark groups
// (every version of a benchmark together) of at most --max-rows rows
// among the groups keep accepts, with all naming every benchmark run of
// the input, merging the chunks' reports with merge. run gets all == nil
// when it sees the whole input, and only the rows of keep's metric (the
// primary one when unset): every analyzer using runChunked reads no
// other. A shard reads only its own runs' rows: another shard's would be
// left out by the analysis anyway, after filling memory or the scratch
// file (result files are read whole by every shard).
func runChunked[R any](c *cli.Context, label string, keep table.Filter,
	run func(t *table.Table, all []table.Key, progress func(total int)) (R, error),
	merge func(parts []R) (R, error)) (rep R, release func(), err error) {
	g := GlobalsOf(c)
	if g.maxRows == 0 {
		return runOnTable(c, label, func(t *table.Table, p func(int)) (R, error) { return run(t, nil, p) })
	}
	src, end := source(c, c.Args().Slice())
	in := chunk.Inputs{Sources: []chunk.Source{src}, Keep: &keep, Chunking: func(rows int64, n int) {
		if !g.Quiet {
			fmt.Fprintf(c.App.ErrWriter, "%s: the input's %d rows are more than --max-rows %d: analysing %d chunks of benchmarks one at a time (scratch file in $TMPDIR)\n",
				commandName(c), rows, g.maxRows, n)
		}
	}}
	rep, release, err = chunk.Run(in, g.maxRows, func(tabs []*table.Table, ch chunk.Chunk) (R, error) {
		bar := progress.New(c.App.ErrWriter, g.Quiet, chunkLabel(label, ch), 0)
		r, err := run(tabs[0], ch.All, bar.Tick)
		bar.Done()
		return r, benchError(c, err)
	}, merge)
	end()
	return rep, release, tooLarge(err)
}

// RunChunkedSides is runChunked for an analysis of several inputs read
// as tables of their own (compare's base and test files), which relates
// their runs by group (compare: tablefile.NameGroupOf, the benchmark name):
// chunk.Run reads each list of files; when they hold at most --max-rows
// rows in all, or split is false, run gets their tables in memory (part
// false); else a chunk of groups at a time, each chunk's tables read from
// every input's spool (tablefile.JointChunks; part true), and the chunks'
// results are merged. The caller defers release.
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
	in := chunk.Inputs{Group: group, Chunking: func(rows int64, n int) {
		if !g.Quiet {
			fmt.Fprintf(c.App.ErrWriter, "%s: the inputs' %d rows are more than --max-rows %d: analysing %d chunks of benchmarks one at a time (scratch files in $TMPDIR)\n",
				commandName(c), rows, maxRows, n)
		}
	}}
	var ends []func()
	for _, files := range inputs {
		src, end := source(c, files)
		in.Sources, ends = append(in.Sources, src), append(ends, end)
	}
	rep, release, err = chunk.Run(in, maxRows, func(tabs []*table.Table, ch chunk.Chunk) (R, error) {
		bar := progress.New(c.App.ErrWriter, g.Quiet, chunkLabel(label, ch), 0)
		r, err := run(tabs, ch.N > 0, bar.Tick)
		bar.Done()
		return r, err
	}, merge)
	for _, end := range ends {
		end()
	}
	return rep, release, tooLarge(err)
}

// source is the chunk.Source of files: read with the command's options
// (readOptions) and a progress bar of the files read, which end ends if
// Done has not; its Done prints the input summary on stderr unless
// --quiet, as LoadInputs does, and what a shard read (sayShardRead).
func source(c *cli.Context, files []string) (src chunk.Source, end func()) {
	var done func()
	end = func() {
		if done != nil {
			done()
		}
	}
	return chunk.Source{
		Files: files,
		Options: func() (ingest.ReadOptions, error) {
			opt, d, err := streamOptions(c, files, nil)
			done = d
			return opt, err
		},
		Done: func(st *ingest.Streamed, part *tablefile.ShardPart) {
			end()
			if !GlobalsOf(c).Quiet {
				st.Report.WriteKinds(c.App.ErrWriter)
				sayShardRead(c, part)
			}
		},
	}, end
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

// sayShardRead says on stderr how many rows of the input's tables written
// by shard part's read skipping other shards' row groups (nothing when
// there were none).
func sayShardRead(c *cli.Context, part *tablefile.ShardPart) {
	if part == nil || part.Rows == 0 {
		return
	}
	fmt.Fprintf(c.App.ErrWriter, "%s: shard %d/%d read %d of the %d rows of the tables written by shard\n",
		commandName(c), part.Shard, part.Shards, part.RowsRead, part.Rows)
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
