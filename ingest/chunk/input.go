// Package chunk runs an analysis on inputs larger than memory allows,
// with one runner, Run: it reads each list of input files
// (ingest.Stream), holds the rows in memory while they total at most a
// row bound, and past it moves them to a tablefile.Spool (an unlinked scratch
// file in $TMPDIR) and runs the analysis on chunks of whole groups of
// benchmark runs one at a time, merging the chunks' reports. The Arrow
// records' lifetimes (Retain, Release) are this package's business, not
// its callers'.
package chunk

import (
	"math"

	"github.com/apache/arrow/go/v15/arrow"

	"github.com/benchtrim/benchtrim/table"
	"github.com/benchtrim/benchtrim/tablefile"
)

// inputOptions say what an input keeps and where it spills.
type inputOptions struct {
	// MaxRows is how many rows are held in memory before the input
	// spills to a spool, and the most rows a spooled group may have
	// (tablefile.Spool.LimitGroups; math.MaxInt64: no bound, never spilled).
	MaxRows int64
	// Group is the spool's grouping (tablefile.Spool.GroupBy); nil: the
	// spool's own, every version of a benchmark together.
	Group func(table.Key) table.Key
	// Keep is LimitGroups' keep: only groups with a run it accepts are
	// bounded (nil: every group).
	Keep func(table.Key) bool
	// Select, when set, keeps only the rows of Metric ("" for
	// table.Primary) and, with Part set, of Part's own runs
	// (tablefile.MetricRows); records held in memory are then compacted
	// copies (tablefile.Compact), not slices pinning the other rows.
	Select bool
	Metric string
	// Part, when set, notes every record (tablefile.ShardPart.Note).
	Part *tablefile.ShardPart
}

// An input is the records of one list of input files as they are read.
// Its zero value is not usable: make one with newInput.
type input struct {
	opt   inputOptions
	in    func(table.Key) bool
	held  []arrow.Record
	rows  int64
	spool *tablefile.Spool
}

// newInput returns an empty input with options opt.
func newInput(opt inputOptions) *input {
	in := &input{opt: opt}
	if opt.Part != nil {
		in.in = opt.Part.OwnRuns()
	}
	return in
}

// Add takes rec (the caller keeps its own reference): its selected rows
// are held in memory while the input totals at most MaxRows rows, else
// they go, with everything held so far, to the spool. It is the sink of
// ingest.Stream.
func (in *input) Add(rec arrow.Record) error {
	if in.opt.Part != nil {
		in.opt.Part.Note(rec)
	}
	if !in.opt.Select {
		return in.add(rec)
	}
	var err error
	for _, r := range tablefile.MetricRows(rec, in.opt.Metric, in.in) {
		if err == nil && in.spool == nil && r.NumRows() < rec.NumRows() {
			// A slice held in memory would keep its record's rows of
			// every other metric alive: keep a copy of its own.
			var c arrow.Record
			if c, err = tablefile.Compact(r, nil); err == nil {
				r.Release()
				r = c
			}
		}
		if err == nil {
			err = in.add(r)
		}
		r.Release()
	}
	return err
}

// add holds or spools rec, retaining it when held.
func (in *input) add(rec arrow.Record) error {
	if in.spool == nil && in.rows+rec.NumRows() <= in.opt.MaxRows {
		rec.Retain()
		in.held = append(in.held, rec)
		in.rows += rec.NumRows()
		return nil
	}
	if err := in.Spill(); err != nil {
		return err
	}
	in.rows += rec.NumRows()
	return in.spool.Add(rec)
}

// Rows is how many rows the input took (held or spooled).
func (in *input) Rows() int64 { return in.rows }

// Spool is the input's spool, nil while its rows are held in memory.
func (in *input) Spool() *tablefile.Spool { return in.spool }

// Spill moves the held records to a new spool (a no-op once spooled).
func (in *input) Spill() error {
	if in.spool != nil {
		return nil
	}
	sp, err := tablefile.NewSpool("", nil)
	if err != nil {
		return err
	}
	if in.opt.Group != nil {
		sp.GroupBy(in.opt.Group)
	}
	if in.opt.MaxRows < math.MaxInt64 {
		sp.LimitGroups(in.opt.MaxRows, in.opt.Keep)
	}
	for _, r := range in.held {
		if err := sp.Add(r); err != nil {
			sp.Close()
			return err
		}
	}
	in.spool = sp
	for _, r := range in.held {
		r.Release()
	}
	in.held = nil
	return nil
}

// Table returns the held records as a table of setups (the caller
// releases it; the input gives them up). Only before Spill.
func (in *input) Table(setups []table.Setup) *table.Table {
	t := &table.Table{Records: in.held, Setups: setups}
	in.held = nil
	return t
}

// Close releases the held records and the spool.
func (in *input) Close() {
	for _, r := range in.held {
		r.Release()
	}
	in.held = nil
	if in.spool != nil {
		in.spool.Close()
	}
}
