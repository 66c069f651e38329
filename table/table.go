package table

import (
	"bytes"
	"fmt"
	"sort"
	"unsafe"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"
)

// Table is the canonical measurement table in memory: Arrow records with
// schema, and the setups of the benchmark runs it holds, sorted by key.
// The Table owns its records; call Release when done.
type Table struct {
	Records []arrow.Record
	Setups  []Setup
	// Offsets, when not nil, holds for each record the input position of
	// its first row: where the row stands among all rows of the input the
	// table is a part of (a Spool chunk's records are slices of the
	// input's). Nil means the records are the input, one after another
	// (the first row is at position 0). Series.First reads it.
	Offsets []int64
}

// offset is the input position of record i's first row, given the rows
// of the records before it (next). Offsets of another length than
// Records (records added after them) are not used.
func (t *Table) offset(i int, next int64) int64 {
	if len(t.Offsets) == len(t.Records) {
		return t.Offsets[i]
	}
	return next
}

// NumRows is the total number of rows over all records.
func (t *Table) NumRows() int64 {
	var n int64
	for _, r := range t.Records {
		n += r.NumRows()
	}
	return n
}

// Release releases the table's records.
func (t *Table) Release() {
	for _, r := range t.Records {
		r.Release()
	}
	t.Records = nil
}

// Setup returns the setup recorded for k, or nil.
func (t *Table) Setup(k Key) *Setup {
	i := sort.Search(len(t.Setups), func(i int) bool { return !t.Setups[i].Key.Less(k) })
	if i < len(t.Setups) && t.Setups[i].Key == k {
		return &t.Setups[i]
	}
	return nil
}

// Append moves o's records and setups into t (o is left empty). Setups for
// keys present in both are merged; a conflict is returned as an error after
// all records were moved.
//
// The result's positions (Offsets) are those of its records one after
// another: t's rows first.
func (t *Table) Append(o *Table) error {
	t.Records = append(t.Records, o.Records...)
	o.Records = nil
	t.Offsets, o.Offsets = nil, nil
	if strictlySorted(t.Setups) && strictlySorted(o.Setups) {
		// The usual case (both sides from Finish): merged in one pass,
		// without a map or a copy of every setup.
		var err error
		t.Setups, err = mergeSetups(t.Setups, o.Setups)
		o.Setups = nil
		return err
	}
	m := map[Key]*Setup{}
	for i := range t.Setups {
		s := t.Setups[i]
		m[s.Key] = &s
	}
	var firstErr error
	for _, s := range o.Setups {
		old, ok := m[s.Key]
		if !ok {
			c := s
			m[s.Key] = &c
			continue
		}
		if why := old.conflicts(&s); why != "" && firstErr == nil {
			firstErr = fmt.Errorf("mixed setups for %s: %s (first from %s, then %s)", s.Key, why, old.Source, s.Source)
			continue
		}
		mergeSetup(old, &s)
	}
	o.Setups = nil
	t.Setups = sortedSetups(m)
	return firstErr
}

// strictlySorted reports whether setups are sorted by key without two of
// one key.
func strictlySorted(setups []Setup) bool {
	for i := 1; i < len(setups); i++ {
		if !setups[i-1].Key.Less(setups[i].Key) {
			return false
		}
	}
	return true
}

// mergeSetups is Append's merge of the setups of a and b, each strictly
// sorted: a when b is empty, b when a is; a setup of a key in both is
// a's, merged with b's but at the first conflict, which is the error.
func mergeSetups(a, b []Setup) ([]Setup, error) {
	switch {
	case len(b) == 0 && a == nil:
		return []Setup{}, nil // as the map path gives
	case len(b) == 0:
		return a, nil
	case len(a) == 0:
		return b, nil
	}
	out := make([]Setup, 0, len(a)+len(b))
	var firstErr error
	for len(a) > 0 || len(b) > 0 {
		switch {
		case len(b) == 0 || len(a) > 0 && a[0].Key.Less(b[0].Key):
			out, a = append(out, a[0]), a[1:]
		case len(a) == 0 || b[0].Key.Less(a[0].Key):
			out, b = append(out, b[0]), b[1:]
		default:
			old, s := a[0], &b[0]
			if why := old.conflicts(s); why != "" && firstErr == nil {
				firstErr = fmt.Errorf("mixed setups for %s: %s (first from %s, then %s)", s.Key, why, old.Source, s.Source)
			} else {
				mergeSetup(&old, s)
			}
			out, a, b = append(out, old), a[1:], b[1:]
		}
	}
	return out, firstErr
}

// Rows calls fn for every row in order. It is meant for tests, small tables
// and exports; analyzers use Collect. fn must not keep r.
func (t *Table) Rows(fn func(r *Row) error) error {
	var row Row
	for _, rec := range t.Records {
		c := columnsOf(rec)
		for i := 0; i < int(rec.NumRows()); i++ {
			c.row(i, &row)
			if err := fn(&row); err != nil {
				return err
			}
		}
	}
	return nil
}

// Columns reads the rows of one record of the canonical schema (Schema):
// a record of a Table or a Builder, or one a table file holds. Its strings
// point into the record's buffers (Key.Clone copies a key).
type Columns struct{ c *columns }

// ColumnsOf gives access to rec's rows; rec has the canonical schema.
func ColumnsOf(rec arrow.Record) Columns { return Columns{columnsOf(rec)} }

// Key is row i's benchmark run.
func (c Columns) Key(i int) Key { return c.c.key(i) }

// Row sets *r to row i.
func (c Columns) Row(i int, r *Row) { c.c.row(i, r) }

// Schema is the canonical table's Arrow schema, without metadata: the
// columns Builder writes, in the order Columns reads them.
func Schema() *arrow.Schema { return schema }

// columns gives typed access to one record's columns.
type columns struct {
	project, version, benchmark, params, mode strCol
	metric, unit, pair, source                strCol
	value, nsPerOp                            *array.Float64
	count, startNs, endNs, line               *array.Int64
	instance, trial, fork, iteration, slice   *array.Int32
	warmup                                    *array.Boolean
}

// strCol reads one string column of a record with schema: row i's value
// is dict[idx[i]].
type strCol struct {
	idx  []int32
	dict *array.String
}

func strColOf(a arrow.Array) strCol {
	d := a.(*array.Dictionary)
	return strCol{idx: d.Indices().(*array.Int32).Int32Values(), dict: d.Dictionary().(*array.String)}
}

// Value is row i's string. It points into the record's buffers.
func (c strCol) Value(i int) string { return c.dict.Value(int(c.idx[i])) }

func columnsOf(rec arrow.Record) *columns {
	return &columns{
		project:   strColOf(rec.Column(idxProject)),
		version:   strColOf(rec.Column(idxVersion)),
		benchmark: strColOf(rec.Column(idxBenchmark)),
		params:    strColOf(rec.Column(idxParams)),
		mode:      strColOf(rec.Column(idxMode)),
		metric:    strColOf(rec.Column(idxMetric)),
		unit:      strColOf(rec.Column(idxUnit)),
		value:     rec.Column(idxValue).(*array.Float64),
		nsPerOp:   rec.Column(idxNsPerOp).(*array.Float64),
		count:     rec.Column(idxCount).(*array.Int64),
		instance:  rec.Column(idxInstance).(*array.Int32),
		trial:     rec.Column(idxTrial).(*array.Int32),
		fork:      rec.Column(idxFork).(*array.Int32),
		iteration: rec.Column(idxIteration).(*array.Int32),
		slice:     rec.Column(idxSlice).(*array.Int32),
		warmup:    rec.Column(idxWarmup).(*array.Boolean),
		startNs:   rec.Column(idxStartNs).(*array.Int64),
		endNs:     rec.Column(idxEndNs).(*array.Int64),
		pair:      strColOf(rec.Column(idxPair)),
		source:    strColOf(rec.Column(idxSource)),
		line:      rec.Column(idxLine).(*array.Int64),
	}
}

// sameKey reports whether rows i and j hold the same dictionary indices in
// the key columns (project, version, benchmark, params, mode), and so the
// same Key, without reading a string. Rows of one key may still differ in
// indices when a dictionary holds a value twice: false means "compare the
// strings".
func (c *columns) sameKey(i, j int) bool {
	return c.benchmark.idx[i] == c.benchmark.idx[j] && c.params.idx[i] == c.params.idx[j] &&
		c.version.idx[i] == c.version.idx[j] && c.project.idx[i] == c.project.idx[j] &&
		c.mode.idx[i] == c.mode.idx[j]
}

// stretchEnd returns the end of the stretch of rows from i on that hold
// row i's key indices (as sameKey compares them) and levels, and, when
// metric is set, its metric index: typically the rows a reader appended
// with one Builder.AppendValues call (a histogram's buckets, an
// iteration's values). Each column is scanned only as far as the
// stretch still reaches.
func (c *columns) stretchEnd(i, n int, metric bool) int {
	cols := [...][]int32{c.iteration.Int32Values(), c.fork.Int32Values(), c.instance.Int32Values(),
		c.trial.Int32Values(), c.slice.Int32Values(),
		c.benchmark.idx, c.params.idx, c.version.idx, c.project.idx, c.mode.idx, c.metric.idx}
	k := len(cols)
	if !metric {
		k--
	}
	end := n
	for ci, col := range cols[:k] {
		// After the first column has bounded the stretch, a column
		// usually holds one value over it: memequal (vectorised) of the
		// stretch against itself shifted by one row says so at a glance.
		if ci > 0 && constantInt32s(col[i:end]) {
			continue
		}
		x := col[i]
		for j, v := range col[i+1 : end] {
			if v != x {
				end = i + 1 + j
				break
			}
		}
	}
	return end
}

// constantInt32s reports whether v holds one value: v[1:] equals v[:len-1]
// exactly when every element equals the one before it.
func constantInt32s(v []int32) bool {
	if len(v) < 2 {
		return true
	}
	b := unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(v))), 4*len(v))
	return bytes.Equal(b[4:], b[:len(b)-4])
}

// sameLevels reports whether rows i and j have the same level indices.
func (c *columns) sameLevels(i, j int) bool {
	return c.iteration.Value(i) == c.iteration.Value(j) && c.fork.Value(i) == c.fork.Value(j) &&
		c.instance.Value(i) == c.instance.Value(j) && c.trial.Value(i) == c.trial.Value(j) &&
		c.slice.Value(i) == c.slice.Value(j)
}

func (c *columns) key(i int) Key {
	return Key{c.project.Value(i), c.version.Value(i), c.benchmark.Value(i), c.params.Value(i), c.mode.Value(i)}
}

func (c *columns) row(i int, r *Row) {
	*r = Row{
		Project: c.project.Value(i), Version: c.version.Value(i), Benchmark: c.benchmark.Value(i),
		Params: c.params.Value(i), Mode: c.mode.Value(i), Metric: c.metric.Value(i), Unit: c.unit.Value(i),
		Value: c.value.Value(i), NsPerOp: c.nsPerOp.Value(i), Count: c.count.Value(i),
		Instance: c.instance.Value(i), Trial: c.trial.Value(i), Fork: c.fork.Value(i),
		Iteration: c.iteration.Value(i), Slice: c.slice.Value(i), Warmup: c.warmup.Value(i),
		Pair: c.pair.Value(i), Source: c.source.Value(i), Line: c.line.Value(i),
	}
	if c.startNs.IsValid(i) && c.endNs.IsValid(i) {
		r.StartNs, r.EndNs, r.HasTime = c.startNs.Value(i), c.endNs.Value(i), true
	}
}
