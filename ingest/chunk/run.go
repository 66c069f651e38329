package chunk

import (
	"fmt"
	"io"
	"math"

	"github.com/benchtrim/benchtrim/ingest"
	"github.com/benchtrim/benchtrim/table"
	"github.com/benchtrim/benchtrim/tablefile"
)

// Source is one list of input files of a run: one table of Run's
// analysis (compare's base and test files are two).
type Source struct {
	Files []string
	// Read are the options Files are read with (ingest.Stream; the zero
	// value: none); Run sets their Shard to Keep's shard.
	Read ingest.ReadOptions
}

// Inputs are what Run reads and how it cuts them.
type Inputs struct {
	Sources []Source
	// Keep, when set (only with one source), selects the rows the
	// analysis reads: those of Keep.Metric (the primary one when unset)
	// of Keep's shard's runs, a shard reading of tables written by shard
	// only its own row groups (tablefile.ShardPart); chunks then hold only
	// groups with a run Keep matches (tablefile.Spool.Chunks). Without it
	// every row is kept and the sources are cut jointly
	// (tablefile.JointChunks), each chunk a table per source.
	Keep *table.Filter
	// Group is the spools' grouping (tablefile.Spool.GroupBy; nil: every
	// version of a benchmark together).
	Group func(table.Key) table.Key
	// Log, when set, is where Run says what it read and how it cuts it,
	// as it goes (benchtrim's stderr; nil: nothing is said): once a
	// source's files are read, its input summary
	// (ingest.Summary.WriteKinds) and, for Keep's shard of tables written
	// by shard, how many of their rows it read; before the first chunk is
	// run, how many rows were read and in how many chunks they are
	// analysed. Name (the command's) starts these two lines, which call
	// the row bound --max-rows, benchtrim's flag.
	Log  io.Writer
	Name string
}

// Chunk says what part of the input the tables run gets hold.
type Chunk struct {
	// I is the chunk's 1-based position among N chunks; N is 0 when the
	// tables hold the whole input (what the analysis selects of it).
	I, N int
	// All are the benchmark runs of the whole input when the tables may
	// hold fewer (a chunk, or a shard read from tables written by
	// shard); nil otherwise.
	All []table.Key
}

// Run reads the sources in order (ingest.Stream), saying on Log what it
// read, and runs run on their tables. While they total at most maxRows rows (maxRows <= 0:
// no bound) run is called once, on the tables in memory. A larger input
// is spooled (tablefile.Spool, a scratch file in $TMPDIR), cut into chunks of
// whole groups of at most maxRows rows (a group of more is a
// *tablefile.GroupTooLargeError), and run is called on each chunk in turn,
// its tables read back from the spools; merge combines the chunks'
// reports. Each group's result depends only on its own rows and its
// key's random streams, so the merged report is the one a run on the
// whole input gives, with the memory of the largest chunk. The caller
// calls release once done with the report (a report of tables in memory
// may point into them); reports of chunks keep copies of what they need
// (table.Table.Collect), so each chunk is released after its run.
//
// With Keep selecting shard i/n, the shard holding none of the input's
// runs while other shards hold some is a *table.EmptyShardError.
func Run[R any](inputs Inputs, maxRows int64,
	run func(tabs []*table.Table, ch Chunk) (R, error),
	merge func(parts []R) (R, error)) (rep R, release func(), err error) {
	if maxRows <= 0 {
		maxRows = math.MaxInt64
	}
	var part *tablefile.ShardPart
	iopt := inputOptions{MaxRows: maxRows, Group: inputs.Group}
	if k := inputs.Keep; k != nil {
		if len(inputs.Sources) != 1 {
			return rep, func() {}, fmt.Errorf("chunk.Run: Keep with %d sources, want 1", len(inputs.Sources))
		}
		part = shardPart(*k)
		iopt.Keep, iopt.Select, iopt.Metric, iopt.Part = k.Matches, true, k.Metric, part
	}
	var in []*input
	var setups [][]table.Setup
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
	for _, src := range inputs.Sources {
		s := newInput(iopt)
		in = append(in, s)
		read := src.Read
		if part != nil {
			read.Shard = part
		}
		st, err := ingest.Stream(src.Files, read, s.Add)
		if err != nil {
			return rep, release, err
		}
		inputs.sayRead(st.Report, part)
		setups = append(setups, st.Setups)
		rows, spooled = rows+s.Rows(), spooled || s.Spool() != nil
	}
	// Row groups of other shards skipped: the runs of the whole input.
	all := part.Runs()
	if !spooled && rows <= maxRows {
		for i, s := range in {
			tabs = append(tabs, s.Table(setups[i]))
		}
		if inputs.Keep != nil {
			if err := emptyShard(*inputs.Keep, all); err != nil {
				return rep, release, err
			}
		}
		rep, err = run(tabs, Chunk{All: all})
		return rep, release, err
	}
	spools := make([]*tablefile.Spool, len(in))
	for i, s := range in {
		if err := s.Spill(); err != nil {
			return rep, release, err
		}
		spools[i] = s.Spool()
	}
	var chunks [][][]int
	if k := inputs.Keep; k != nil {
		sp := spools[0]
		if all == nil {
			all = sp.Runs()
		}
		one := sp.Chunks(maxRows, k.Matches)
		if len(one) == 0 {
			if err := emptyShard(*k, all); err != nil {
				return rep, release, err
			}
			// Nothing is selected: the analyzer's own error names the filter.
			one = sp.Chunks(maxRows, nil)[:1]
		}
		for _, ch := range one {
			chunks = append(chunks, [][]int{ch})
		}
	} else {
		chunks = tablefile.JointChunks(maxRows, spools...)
	}
	inputs.sayChunks(rows, maxRows, len(chunks))
	parts := make([]R, 0, len(chunks))
	for i, ch := range chunks {
		var part []*table.Table
		for j, sp := range spools {
			t, err := sp.Read(ch[j], setups[j])
			if err != nil {
				for _, t := range part {
					t.Release()
				}
				return rep, release, err
			}
			part = append(part, t)
		}
		r, err := run(part, Chunk{I: i + 1, N: len(chunks), All: all})
		for _, t := range part {
			t.Release()
		}
		if err != nil {
			return rep, release, err
		}
		parts = append(parts, r)
	}
	// The chunks' reports hold copies: the spools can go now.
	for _, s := range in {
		s.Close()
	}
	in = nil
	rep, err = merge(parts)
	return rep, release, err
}

// sayRead writes to Log (when set) the input summary of a source read
// with summary rep and, when part's shard skipped rows of tables written
// by shard, how many of their rows it read.
func (in *Inputs) sayRead(rep *ingest.Summary, part *tablefile.ShardPart) {
	if in.Log == nil {
		return
	}
	rep.WriteKinds(in.Log)
	if part != nil && part.Rows > 0 {
		fmt.Fprintf(in.Log, "%s: shard %d/%d read %d of the %d rows of the tables written by shard\n",
			in.Name, part.Shard, part.Shards, part.RowsRead, part.Rows)
	}
}

// sayChunks writes to Log (when set) that the inputs' rows are more than
// maxRows and are analysed in n chunks: the input's of one source selected
// by Keep (one scratch file), the inputs' of sources cut jointly.
func (in *Inputs) sayChunks(rows, maxRows int64, n int) {
	if in.Log == nil {
		return
	}
	whose, files := "the inputs'", "scratch files"
	if in.Keep != nil {
		whose, files = "the input's", "scratch file"
	}
	fmt.Fprintf(in.Log, "%s: %s %d rows are more than --max-rows %d: analysing %d chunks of benchmarks one at a time (%s in $TMPDIR)\n",
		in.Name, whose, rows, maxRows, n, files)
}

// shardPart is the part of the input a run with filter keep reads: nil
// unless keep selects a shard.
func shardPart(keep table.Filter) *tablefile.ShardPart {
	if keep.Shards <= 1 {
		return nil
	}
	return &tablefile.ShardPart{Shard: keep.Shard, Shards: keep.Shards, Metric: keep.Metric}
}

// emptyShard is the *table.EmptyShardError of a run with filter keep on
// an input whose benchmark runs are runs when keep's shard holds none of
// them and the other shards some (as table.Table.Select says of a table in
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
