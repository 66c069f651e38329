package table

import (
	"fmt"
	"maps"
	"slices"
	"sort"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/bitutil"
	"github.com/apache/arrow/go/v15/arrow/memory"
)

// Builder accumulates canonical rows into Arrow records of a fixed number
// of rows, and collects setups. It is not safe for concurrent use. Call
// Finish to obtain the Table; the Builder must be released with Release
// afterwards (or instead, on error paths).
//
// Rows go into plain Go slices, one per column, which become the record's
// buffers without a copy when a batch is full (and come back to the
// Builder for a later batch once the record is released: recycler); a
// column whose rows all
// hold its usual value (index 0, level 1, no timestamp) only counts them
// and shares a read-only buffer of that value (see column). A string column appends one
// int32 index per row: a value equal to the row before costs one string
// comparison, another one map lookup, and a value not seen before is
// copied once into the column's dictionary. The dictionaries grow over the
// Builder's records (each record's dictionary is a prefix of the next
// one's), so the strings of a run are stored once, not once per row.
type Builder struct {
	batchRows int
	pending   int
	records   []arrow.Record
	rows      int64
	runs      *RunIDs
	setups    setupStore
	sink      func(arrow.Record) error
	sinkErr   error

	strs            [len(stringColumns)]dictBuilder
	value, nsPerOp  []float64
	count, line     []int64
	startNs, endNs  column[int64]
	levels          [NumLevels]column[int32]
	warmup          []bool
	timeValid       []bool // nil while every row of the batch has timestamps
	zeros64         []int64
	zeros32, ones32 []int32

	// pool hands the batch slices of released records back (see
	// recycler); spareWarmup and spareValid are the last batch's warmup
	// and timeValid slices, which no record takes.
	pool                    *recycler
	spareWarmup, spareValid []bool
}

// column is one fixed-width column of the batch being built. While every
// value so far is the column's usual one (0 for dictionary indices and
// timestamps, 1 for levels: a table's project, version, mode, instance,
// trial and slice rarely change) it holds only their count, and the
// record shares a read-only buffer of usual values instead of a slice of
// its own.
type column[T int32 | int64] struct {
	v     []T
	n     int // rows held as a count (v is empty)
	usual T
	pool  *recycler // where a whole batch's v comes from
}

// materialize puts the counted rows into v, with room for size rows
// (growing as rows come when size is 0). A batch whose first row is not
// usual gets its room here too: grown from nil, v would be copied a dozen
// times on its way to a batch.
func (c *column[T]) materialize(size int) {
	if c.v == nil {
		if size > 0 && size >= c.n {
			c.v = recycled[T](c.pool, size)
		} else {
			c.v = growIn(c.pool, []T(nil), max(size, c.n))
		}
	}
	if c.n > 0 {
		c.v = repeat(growIn(c.pool, c.v, c.n), c.usual, c.n)
		c.n = 0
	}
}

// addN appends x k times.
func (c *column[T]) addN(x T, k, size int) {
	if len(c.v) == 0 && x == c.usual {
		c.n += k
		return
	}
	c.materialize(size)
	c.v = repeat(growIn(c.pool, c.v, k), x, k)
}

// array returns the batch's values as an array of type dt, with validity
// bitmap valid (nil when nulls is 0), and starts a new batch: usual[:n]
// while they are all usual, else v, which goes back to c.pool once the
// array is released.
func (c *column[T]) array(dt arrow.DataType, usual []T, valid []byte, nulls int) arrow.Array {
	v := c.v
	c.v = nil
	if len(v) == 0 {
		v, c.n = usual[:c.n], 0
		return fixedArray(dt, v, valid, nulls)
	}
	return recycledArray(c.pool, dt, v, valid, nulls)
}

// size is the room a column takes for its batch: a whole batch once the
// Builder has made one (the first batch grows as rows come, so small
// files make small tables).
func (b *Builder) size() int {
	if b.rows >= int64(b.batchRows) {
		return b.batchRows
	}
	return 0
}

// maxDictValues bounds a string column's dictionary: past it, the next
// record starts a new dictionary (so a column of distinct values costs no
// more than plain strings).
const maxDictValues = 1 << 16

// dictBuilder builds one dictionary-encoded string column.
type dictBuilder struct {
	idx     column[int32]
	last    string
	lastIdx int32
	memo    map[string]int32
	offsets []int32 // offsets[j]..offsets[j+1] is value j's bytes in data
	data    []byte
}

func (d *dictBuilder) reset() {
	d.memo = map[string]int32{}
	d.offsets = []int32{0}
	d.data = nil
	d.last, d.lastIdx = "", -1
}

// add appends s k times.
func (d *dictBuilder) add(s string, k, size int) {
	if d.lastIdx >= 0 && s == d.last {
		d.idx.addN(d.lastIdx, k, size)
		return
	}
	j, ok := d.memo[s]
	if !ok {
		j = int32(len(d.offsets) - 1)
		d.data = append(d.data, s...)
		d.offsets = append(d.offsets, int32(len(d.data)))
		s = string(d.data[d.offsets[j]:]) // s may point into the caller's buffer
		d.memo[s] = j
	}
	d.last, d.lastIdx = s, j
	d.idx.addN(j, k, size)
}

// array returns the batch's indices with the dictionary so far as a
// dictionary array and starts a new batch; zeros are read-only zero
// indices for a batch of index 0 only.
func (d *dictBuilder) array(zeros []int32) arrow.Array {
	ind := d.idx.array(arrow.PrimitiveTypes.Int32, zeros, nil, 0)
	k := len(d.offsets) - 1
	data := array.NewData(arrow.BinaryTypes.String, k,
		[]*memory.Buffer{nil, memory.NewBufferBytes(arrow.GetBytes(d.offsets[:k+1])),
			memory.NewBufferBytes(d.data[:d.offsets[k]])}, nil, 0, 0)
	dict := array.NewStringData(data)
	data.Release()
	out := array.NewDictionaryArray(stringType, ind, dict)
	ind.Release()
	dict.Release()
	if k >= maxDictValues {
		d.reset()
	}
	return out
}

// NewBuilder returns a Builder that emits records of batchRows rows
// (DefaultBatchRows when batchRows <= 0). Its buffers are Go memory; mem
// is kept for the API's sake and may be nil.
func NewBuilder(mem memory.Allocator, batchRows int) *Builder {
	if batchRows <= 0 {
		batchRows = DefaultBatchRows
	}
	b := &Builder{batchRows: batchRows, runs: &RunIDs{}, pool: &recycler{rows: batchRows}}
	for i := range b.strs {
		b.strs[i].reset()
		b.strs[i].idx.pool = b.pool
	}
	for l := range b.levels {
		b.levels[l].usual = 1
		b.levels[l].pool = b.pool
	}
	b.startNs.pool, b.endNs.pool = b.pool, b.pool
	return b
}

// Append adds one row, or returns the *InvalidError of Row.Check and adds
// nothing when the row breaks a rule of the table (a string longer than
// MaxStringBytes, an unknown mode, a negative count). Level indices below 1
// are stored as 1.
func (b *Builder) Append(r *Row) error {
	if err := r.Check(); err != nil {
		return err
	}
	if b.pending == 0 && b.rows >= int64(b.batchRows) {
		b.reserve()
	}
	size := b.size()
	metric := r.Metric
	if metric == "" {
		metric = Primary
	}
	for i, v := range [len(stringColumns)]string{r.Project, r.Version, r.Benchmark, r.Params, r.Mode, metric, r.Unit, r.Pair, r.Source} {
		b.strs[i].add(v, 1, size)
	}
	b.value = append(growIn(b.pool, b.value, 1), r.Value)
	b.nsPerOp = append(growIn(b.pool, b.nsPerOp, 1), r.NsPerOp)
	b.count = append(growIn(b.pool, b.count, 1), r.Count)
	for l, v := range [NumLevels]int32{r.Instance, r.Trial, r.Fork, r.Iteration, r.Slice} {
		b.levels[l].addN(atLeast1(v), 1, size)
	}
	b.warmup = append(grow(b.warmup, 1, b.batchRows), r.Warmup)
	if r.HasTime {
		b.startNs.addN(r.StartNs, 1, size)
		b.endNs.addN(r.EndNs, 1, size)
		if b.timeValid != nil {
			b.timeValid = append(grow(b.timeValid, 1, b.batchRows), true)
		}
	} else {
		b.startNs.addN(0, 1, size)
		b.endNs.addN(0, 1, size)
		if b.timeValid == nil {
			b.timeValid = b.newValid()
		}
		b.timeValid = append(grow(b.timeValid, 1, b.batchRows), false)
	}
	b.line = append(growIn(b.pool, b.line, 1), r.Line)
	b.rows++
	b.pending++
	if b.pending >= b.batchRows {
		b.flush()
	}
	return nil
}

// Values holds the columns that differ from row to row in a run of rows
// otherwise alike (a JMH histogram's buckets, an iteration's values): one
// entry per row in each slice, all of one length.
type Values struct {
	value, nsPerOp  []float64
	count, line     []int64
	fork, iteration []int32
}

// Len is the number of rows.
func (v *Values) Len() int { return len(v.value) }

// Reset empties v, keeping its memory.
func (v *Values) Reset() {
	v.value, v.nsPerOp = v.value[:0], v.nsPerOp[:0]
	v.count, v.line = v.count[:0], v.line[:0]
	v.fork, v.iteration = v.fork[:0], v.iteration[:0]
}

// Add appends one row's values. Within capacity it only reslices (the
// compiler then writes no slice pointer, so no GC write barrier per row).
func (v *Values) Add(value, nsPerOp float64, count, line int64, fork, iteration int32) {
	n := len(v.value)
	if n >= cap(v.value) || n >= cap(v.nsPerOp) || n >= cap(v.count) || n >= cap(v.line) || n >= cap(v.fork) || n >= cap(v.iteration) {
		v.value, v.nsPerOp = append(v.value, value), append(v.nsPerOp, nsPerOp)
		v.count, v.line = append(v.count, count), append(v.line, line)
		v.fork, v.iteration = append(v.fork, fork), append(v.iteration, iteration)
		return
	}
	v.value, v.nsPerOp = v.value[:n+1], v.nsPerOp[:n+1]
	v.count, v.line = v.count[:n+1], v.line[:n+1]
	v.fork, v.iteration = v.fork[:n+1], v.iteration[:n+1]
	v.value[n], v.nsPerOp[n], v.count[n], v.line[n], v.fork[n], v.iteration[n] = value, nsPerOp, count, line, fork, iteration
}

// AppendValues appends v.Len() rows, each r with its Value, NsPerOp,
// Count, Line, Fork and Iteration taken from v: Append for a run of rows,
// which checks r's strings and mode once and adds each string column's
// index once per row without comparing strings. When a row breaks a rule
// (Row.Check), it appends nothing and returns the row's index in v and
// the *InvalidError; otherwise -1 and nil.
func (b *Builder) AppendValues(r *Row, v *Values) (int, error) {
	n := v.Len()
	if len(v.nsPerOp) != n || len(v.count) != n || len(v.line) != n || len(v.fork) != n || len(v.iteration) != n {
		panic("table: Values columns of different lengths")
	}
	if n == 0 {
		return -1, nil
	}
	first := *r
	first.Count, first.Line = v.count[0], v.line[0]
	if err := first.Check(); err != nil {
		return 0, err
	}
	for i, c := range v.count {
		if c < 0 {
			e := invalid(ColCount, fmt.Sprintf("%d is negative", c))
			e.Source, e.Line = r.Source, v.line[i]
			return i, e
		}
	}
	metric := r.Metric
	if metric == "" {
		metric = Primary
	}
	strs := [len(stringColumns)]string{r.Project, r.Version, r.Benchmark, r.Params, r.Mode, metric, r.Unit, r.Pair, r.Source}
	for done := 0; done < n; {
		if b.pending == 0 && b.rows >= int64(b.batchRows) {
			b.reserve()
		}
		k := min(n-done, b.batchRows-b.pending)
		size := b.size()
		for i := range b.strs {
			b.strs[i].add(strs[i], k, size)
		}
		b.value = append(growIn(b.pool, b.value, k), v.value[done:done+k]...)
		b.nsPerOp = append(growIn(b.pool, b.nsPerOp, k), v.nsPerOp[done:done+k]...)
		b.count = append(growIn(b.pool, b.count, k), v.count[done:done+k]...)
		b.line = append(growIn(b.pool, b.line, k), v.line[done:done+k]...)
		b.levels[LevelInstance].addN(atLeast1(r.Instance), k, size)
		b.levels[LevelTrial].addN(atLeast1(r.Trial), k, size)
		b.levels[LevelSlice].addN(atLeast1(r.Slice), k, size)
		addAtLeast1(&b.levels[LevelFork], v.fork[done:done+k], size)
		addAtLeast1(&b.levels[LevelIteration], v.iteration[done:done+k], size)
		b.warmup = repeat(grow(b.warmup, k, b.batchRows), r.Warmup, k)
		if r.HasTime {
			b.startNs.addN(r.StartNs, k, size)
			b.endNs.addN(r.EndNs, k, size)
			if b.timeValid != nil {
				b.timeValid = repeat(grow(b.timeValid, k, b.batchRows), true, k)
			}
		} else {
			b.startNs.addN(0, k, size)
			b.endNs.addN(0, k, size)
			if b.timeValid == nil {
				b.timeValid = b.newValid()
			}
			b.timeValid = repeat(grow(b.timeValid, k, b.batchRows), false, k)
		}
		b.rows += int64(k)
		b.pending += k
		done += k
		if b.pending >= b.batchRows {
			b.flush()
		}
	}
	return -1, nil
}

// newValid returns the batch's timeValid once a row without timestamps
// comes: true for the rows so far, with room for a batch.
func (b *Builder) newValid() []bool {
	v := b.spareValid[:0]
	if cap(v) < b.batchRows {
		v = make([]bool, 0, b.batchRows)
	}
	return repeat(v, true, b.pending)
}

// repeat appends k copies of x to s, which has room for them.
func repeat[T comparable](s []T, x T, k int) []T {
	n := len(s)
	s = s[:n+k]
	tail := s[n:]
	var zero T
	if x == zero {
		clear(tail)
		return s
	}
	for i := range tail {
		tail[i] = x
	}
	return s
}

// grow returns s with room for k more values. When it has too little, the
// new capacity is twice the old (at least firstRoom, and at least len+k),
// but no more than limit (a batch's rows; 0: no bound) unless len+k
// needs it: a batch that grows from empty to limit rows copies its values
// about once on the way. append grows a large slice by a quarter (Go's
// runtime.nextslicecap), which copies about four times the final size
// before a 64 Ki-row batch is full: while a process collects no garbage
// (internal/startheap), every copy is fresh memory and page faults.
func grow[T any](s []T, k, limit int) []T {
	if len(s)+k <= cap(s) {
		return s
	}
	t := make([]T, len(s), newCap(len(s), k, cap(s), limit))
	copy(t, s)
	return t
}

// growIn is grow for a batch column whose batch is r.rows rows, with the
// new room from r (recycled: a freed batch buffer, or a slab's memory).
func growIn[T int32 | int64 | float64](r *recycler, s []T, k int) []T {
	if len(s)+k <= cap(s) {
		return s
	}
	limit := 0
	if r != nil {
		limit = r.rows
	}
	t := recycled[T](r, newCap(len(s), k, cap(s), limit))[:len(s)]
	copy(t, s)
	return t
}

// newCap is the capacity grow gives a slice of n values and capacity c
// that needs room for k more.
func newCap(n, k, c, limit int) int {
	c = max(2*c, firstRoom)
	if limit > 0 {
		c = min(c, limit)
	}
	return max(c, n+k)
}

// firstRoom is the capacity grow gives a slice that has none.
const firstRoom = 256

// addAtLeast1 appends each of v, values below 1 as 1, to level column c
// (whose usual value is 1).
func addAtLeast1(c *column[int32], v []int32, size int) {
	if len(c.v) == 0 {
		usual := true
		for _, x := range v {
			if x > 1 {
				usual = false
				break
			}
		}
		if usual {
			c.n += len(v)
			return
		}
	}
	c.materialize(size)
	n := len(c.v)
	c.v = growIn(c.pool, c.v, len(v))[:n+len(v)]
	tail := c.v[n:]
	for i, x := range v {
		tail[i] = max(x, 1)
	}
}

func atLeast1(v int32) int32 {
	if v < 1 {
		return 1
	}
	return v
}

// reserve gives the columns that hold a value per row room for a whole
// batch (the others take it when they leave their usual value, see
// column). The first batch grows as rows come instead, so small files
// make small tables.
func (b *Builder) reserve() {
	n := b.batchRows
	b.pool.batchFull()
	b.value, b.nsPerOp = recycled[float64](b.pool, n), recycled[float64](b.pool, n)
	b.count, b.line = recycled[int64](b.pool, n), recycled[int64](b.pool, n)
	b.warmup = b.spareWarmup[:0]
	if cap(b.warmup) < n {
		b.warmup = make([]bool, 0, n)
	}
}

// flush emits the pending rows as a record: the columns' slices become its
// buffers, and the next batch starts with slices of released records'
// memory where there are some (recycler).
func (b *Builder) flush() {
	n := b.pending
	if n == 0 {
		return
	}
	if b.zeros32 == nil {
		b.zeros32, b.ones32, b.zeros64 = make([]int32, b.batchRows), repeat(make([]int32, 0, b.batchRows), 1, b.batchRows), make([]int64, b.batchRows)
	}
	cols := make([]arrow.Array, numColumns)
	for i, c := range stringColumns {
		cols[c] = b.strs[i].array(b.zeros32)
	}
	var valid []byte // the timestamps' validity
	nulls := 0
	if b.timeValid != nil {
		valid = make([]byte, bitutil.BytesForBits(int64(n)))
		if i := slices.Index(b.timeValid, true); i < 0 {
			nulls = n // no row has timestamps: every bit stays 0
		} else {
			for ; i < len(b.timeValid); i++ {
				if b.timeValid[i] {
					bitutil.SetBit(valid, i)
				}
			}
			nulls = n - bitutil.CountSetBits(valid, 0, n)
		}
	}
	f64, i64 := arrow.PrimitiveTypes.Float64, arrow.PrimitiveTypes.Int64
	cols[idxValue], cols[idxNsPerOp] = recycledArray(b.pool, f64, b.value, nil, 0), recycledArray(b.pool, f64, b.nsPerOp, nil, 0)
	cols[idxCount], cols[idxLine] = recycledArray(b.pool, i64, b.count, nil, 0), recycledArray(b.pool, i64, b.line, nil, 0)
	cols[idxStartNs], cols[idxEndNs] = b.startNs.array(i64, b.zeros64, valid, nulls), b.endNs.array(i64, b.zeros64, valid, nulls)
	for l, c := range [NumLevels]int{idxInstance, idxTrial, idxFork, idxIteration, idxSlice} {
		cols[c] = b.levels[l].array(arrow.PrimitiveTypes.Int32, b.ones32, nil, 0)
	}
	warm := make([]byte, bitutil.BytesForBits(int64(n)))
	for i := slices.Index(b.warmup, true); i >= 0 && i < len(b.warmup); i++ {
		if b.warmup[i] {
			bitutil.SetBit(warm, i)
		}
	}
	data := array.NewData(arrow.FixedWidthTypes.Boolean, n, []*memory.Buffer{nil, memory.NewBufferBytes(warm)}, nil, 0, 0)
	cols[idxWarmup] = array.NewBooleanData(data)
	data.Release()
	rec := array.NewRecord(schema, cols, int64(n))
	for _, c := range cols {
		c.Release()
	}
	b.value, b.nsPerOp, b.count, b.line = nil, nil, nil, nil
	b.spareWarmup, b.warmup = b.warmup, nil
	if b.timeValid != nil {
		b.spareValid = b.timeValid
	}
	b.timeValid = nil
	b.pending = 0
	if b.sink == nil {
		b.records = append(b.records, rec)
		return
	}
	if b.sinkErr == nil {
		b.sinkErr = b.sink(rec)
	}
	rec.Release()
}

// SetSink makes the Builder hand each record to sink as soon as it is
// built (a full batch, and the rest at Finish), and release it then,
// instead of keeping it for Finish's table: the table then has only the
// setups, and memory stays at one batch. sink does not keep the record
// beyond the call unless it retains it. Once sink fails, later records are
// dropped; Err returns its error. Call SetSink before the first Append.
func (b *Builder) SetSink(sink func(arrow.Record) error) { b.sink = sink }

// SetCheckedSink is SetSink with each record checked (as Check does,
// record by record) before sink gets it, for tables that are written as
// they are read and never held whole. The returned finish checks, after
// Finish, the rule that needs every row of a run. Errors are
// *InvalidError; the one of finish has the line of the offending row and
// the source of the run's first row. Memory is kept per run, not per row.
// Call it after UseRunIDs, if at all, and before the first Append.
func (b *Builder) SetCheckedSink(sink func(arrow.Record) error) (finish func() error) {
	ch := &checker{runIDs: b.RunIDs()}
	b.SetSink(func(rec arrow.Record) error {
		if err := ch.add(rec); err != nil {
			return err
		}
		return sink(rec)
	})
	return ch.finish
}

// Err returns the first error of the sink set by SetSink, or nil.
func (b *Builder) Err() error { return b.sinkErr }

// AddSetup records the setup of one benchmark run. A second setup for the
// same key is merged when it agrees (fields unknown in one side are filled
// from the other); when both state different values for a field it returns
// an error naming the field, and the first setup is kept.
func (b *Builder) AddSetup(s Setup) error {
	id, _ := b.runs.add(s.Key, false) // the setup's strings are its own
	i := b.setups.index(id)
	if i == 0 {
		b.setups.put(id, &s)
		return nil
	}
	old := b.setups.setup(&b.setups.recs[i-1], &b.runs.keyIndex)
	if why := old.conflicts(&s); why != "" {
		return fmt.Errorf("mixed setups for %s: %s (first from %s, then %s)", s.Key, why, old.Source, s.Source)
	}
	mergeSetup(&old, &s)
	b.setups.put(id, &old)
	return nil
}

// RunIDs is the Builder's numbering of benchmark runs, which AddSetup
// fills and which a checked sink, a Stats and a reader that keep something per
// run may share (see RunIDs).
func (b *Builder) RunIDs() *RunIDs { return b.runs }

// UseRunIDs makes the Builder number runs in r, shared with a Stats (see
// RunIDs). Call it before the first AddSetup.
func (b *Builder) UseRunIDs(r *RunIDs) { b.runs = r }

func mergeSetup(dst, src *Setup) {
	fillS := func(d *string, s string) {
		if *d == "" {
			*d = s
		}
	}
	fillI := func(d *int, s int) {
		if *d == 0 {
			*d = s
		}
	}
	fillL := func(d *int64, s int64) {
		if *d == 0 {
			*d = s
		}
	}
	fillS(&dst.Name, src.Name)
	fillS(&dst.Tool, src.Tool)
	fillS(&dst.ToolVersion, src.ToolVersion)
	fillI(&dst.Forks, src.Forks)
	fillI(&dst.WarmupIterations, src.WarmupIterations)
	fillL(&dst.WarmupTimeNs, src.WarmupTimeNs)
	fillI(&dst.MeasurementIterations, src.MeasurementIterations)
	fillL(&dst.MeasurementTimeNs, src.MeasurementTimeNs)
	fillI(&dst.Threads, src.Threads)
	fillI(&dst.BatchSize, src.BatchSize)
	fillI(&dst.Instances, src.Instances)
	fillI(&dst.Trials, src.Trials)
	fillI(&dst.Slices, src.Slices)
	fillL(&dst.SliceTimeNs, src.SliceTimeNs)
	dst.SingleShot = dst.SingleShot || src.SingleShot
	// dst.Env may be shared (the Builder keeps one map for all setups
	// alike): it is copied before it changes.
	copied := false
	for k, v := range src.Env {
		if _, ok := dst.Env[k]; ok {
			continue
		}
		if !copied {
			copied = true
			env := make(map[string]string, len(dst.Env)+len(src.Env))
			maps.Copy(env, dst.Env)
			dst.Env = env
		}
		dst.Env[k] = v
	}
}

// Finish returns the table of everything appended so far and resets the
// Builder's rows and setups. The caller owns the Table and must Release it.
func (b *Builder) Finish() *Table {
	b.flush()
	// Sorted in place (readers mostly add them in key order already), not
	// copied: a million setups take 232 MB.
	setups := b.setups.all(&b.runs.keyIndex)
	if !strictlySorted(setups) {
		sort.Slice(setups, func(i, j int) bool { return setups[i].Key.Less(setups[j].Key) })
	}
	t := &Table{Records: b.records, Setups: setups}
	b.records = nil
	b.setups = setupStore{}
	b.rows = 0
	return t
}

// Release frees the builder's buffers and any records not handed out by Finish.
func (b *Builder) Release() {
	for _, r := range b.records {
		r.Release()
	}
	b.records = nil
}

func sortedSetups(m map[Key]*Setup) []Setup {
	out := make([]Setup, 0, len(m))
	for _, s := range m {
		out = append(out, *s)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Key.Less(out[j].Key) })
	return out
}
