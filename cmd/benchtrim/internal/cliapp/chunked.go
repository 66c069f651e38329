package cliapp

import (
	"errors"
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/benchtrim/benchtrim/ingest/chunk"
	"github.com/benchtrim/benchtrim/internal/progress"
	"github.com/benchtrim/benchtrim/table"
)

// runChunked is runOnTable for an analyzer whose reports merge (its
// Merge function): it reads the command's inputs as a stream, and while
// they hold at most --max-rows rows it runs run once on the whole table,
// as runOnTable does. A larger input goes to a table.Spool (an unlinked
// scratch file in $TMPDIR) instead of memory, is cut into chunks of whole
// benchmark groups (every version of a benchmark together) of at most
// --max-rows rows among the groups keep accepts, and run is called on each
// chunk in turn, with all naming every benchmark run of the input; the
// chunks' reports are combined by merge. Each benchmark's result depends
// only on its own rows and its key's random streams, so the merged report
// is the one a run on the whole table gives, with the memory of the
// largest chunk. run gets all == nil when it sees the whole input, and
// only the rows of keep's metric (the primary one when unset): every
// analyzer using runChunked reads no other.
func runChunked[R any](c *cli.Context, label string, keep table.Filter,
	run func(t *table.Table, all []table.Key, progress func(total int)) (R, error),
	merge func(parts []R) (R, error)) (rep R, release func(), err error) {
	release = func() {}
	g := GlobalsOf(c)
	if g.maxRows == 0 {
		return runOnTable(c, label, func(t *table.Table, p func(int)) (R, error) { return run(t, nil, p) })
	}
	part := shardPart(keep)
	// A shard holds only its own runs' rows: another shard's would be
	// left out by the analysis anyway, after filling memory or the
	// scratch file (result files are read whole by every shard).
	in := chunk.NewInput(chunk.Options{MaxRows: g.maxRows, Keep: keep.Matches, Select: true, Metric: keep.Metric, Part: part})
	defer in.Close()
	st, err := streamInputs(c, c.Args().Slice(), part, in)
	if err != nil {
		return rep, release, tooLarge(err)
	}
	if !g.Quiet {
		st.Report.WriteKinds(c.App.ErrWriter)
		sayShardRead(c, part)
	}
	// Row groups of other shards skipped: the runs of the whole input.
	inputRuns := part.Runs()
	sp := in.Spool()
	if sp == nil {
		t := in.Table(st.Setups)
		if err := emptyShard(keep, inputRuns); err != nil {
			return rep, t.Release, err
		}
		bar := progress.New(c.App.ErrWriter, g.Quiet, label, 0)
		rep, err = run(t, inputRuns, bar.Tick)
		bar.Done()
		return rep, t.Release, benchError(c, err)
	}
	if inputRuns == nil {
		inputRuns = sp.Runs()
	}
	chunks := sp.Chunks(g.maxRows, keep.Matches)
	if len(chunks) == 0 {
		if err := emptyShard(keep, inputRuns); err != nil {
			return rep, release, err
		}
	}
	if len(chunks) == 0 {
		// Nothing is selected: the analyzer's own error names the filter.
		chunks = sp.Chunks(g.maxRows, nil)[:1]
	}
	if !g.Quiet {
		fmt.Fprintf(c.App.ErrWriter, "%s: the input's %d rows are more than --max-rows %d: analysing %d chunks of benchmarks one at a time (scratch file in $TMPDIR)\n",
			commandName(c), sp.Rows(), g.maxRows, len(chunks))
	}
	all := inputRuns
	parts := make([]R, 0, len(chunks))
	for i, ch := range chunks {
		t, err := sp.Read(ch, st.Setups)
		if err != nil {
			return rep, release, err
		}
		bar := progress.New(c.App.ErrWriter, g.Quiet, fmt.Sprintf("%s, chunk %d/%d", label, i+1, len(chunks)), 0)
		r, err := run(t, all, bar.Tick)
		bar.Done()
		// Reports keep copies of the strings they need (table.Collect), so
		// the chunk's buffers can go now.
		t.Release()
		if err != nil {
			return rep, release, benchError(c, err)
		}
		parts = append(parts, r)
	}
	rep, err = merge(parts)
	return rep, release, err
}

// shardPart is the part of the input a run with filter keep reads: nil
// unless keep selects a shard.
func shardPart(keep table.Filter) *table.ShardPart {
	if keep.Shards <= 1 {
		return nil
	}
	return &table.ShardPart{Shard: keep.Shard, Shards: keep.Shards, Metric: keep.Metric}
}

// emptyShard is the *table.EmptyShardError of a run with filter keep on
// an input whose benchmark runs are runs when keep's shard holds none of
// them and the other shards some (as table.Select says of a table in
// memory); nil otherwise, and when runs is nil.
func emptyShard(keep table.Filter, runs []table.Key) error {
	if keep.Shards <= 1 {
		return nil
	}
	all := keep.Unsharded()
	n := 0
	for _, k := range runs {
		if keep.Matches(k) {
			return nil
		}
		if all.Matches(k) {
			n++
		}
	}
	if n > 0 {
		return &table.EmptyShardError{Shard: keep.Shard, Shards: keep.Shards, Runs: n}
	}
	return nil
}

// sayShardRead says on stderr how many rows of the input's tables written
// by shard part's read skipping other shards' row groups (nothing when
// there were none).
func sayShardRead(c *cli.Context, part *table.ShardPart) {
	if part == nil || part.Rows == 0 {
		return
	}
	fmt.Fprintf(c.App.ErrWriter, "%s: shard %d/%d read %d of the %d rows of the tables written by shard\n",
		commandName(c), part.Shard, part.Shards, part.RowsRead, part.Rows)
}

// tooLarge adds to a *table.GroupTooLargeError (a benchmark group of more
// rows than --max-rows) what the user can do about it.
func tooLarge(err error) error {
	var big *table.GroupTooLargeError
	if !errors.As(err, &big) {
		return err
	}
	return fmt.Errorf("%w: give a --max-rows above its rows (the memory they take), --max-rows 0 to hold the whole input, or select fewer runs (--bench)", err)
}
