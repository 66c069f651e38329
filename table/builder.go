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

	"github.com/benchtrim/benchtrim/internal/arrowio"
)

// DefaultBatchRows is the number of rows per Arrow record a Builder emits.
const DefaultBatchRows = 1 << 16

// Builder accumulates canonical rows into Arrow records of a fixed number
// of rows, and collects setups. It is not safe for concurrent use. Call
// Finish to obtain the Table; the Builder must be released with Release
// afterwards (or instead, on error paths).
//
// Rows go into plain Go slices, one per column, which become the record's
// buffers without a copy when a batch is full. A string column appends one
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

	strs                        [len(stringColumns)]dictBuilder
	value, nsPerOp              []float64
	count, startNs, endNs, line []int64
	levels                      [NumLevels][]int32
	warmup                      []bool
	timeValid                   []bool // nil while every row of the batch has timestamps
}

// maxDictValues bounds a string column's dictionary: past it, the next
// record starts a new dictionary (so a column of distinct values costs no
// more than plain strings).
const maxDictValues = 1 << 16

// dictBuilder builds one dictionary-encoded string column.
type dictBuilder struct {
	idx     []int32
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

// add appends s.
func (d *dictBuilder) add(s string) {
	if d.lastIdx >= 0 && s == d.last {
		d.idx = append(d.idx, d.lastIdx)
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
	d.idx = append(d.idx, j)
}

// addN appends s k times.
func (d *dictBuilder) addN(s string, k int) {
	d.add(s)
	d.idx = repeat(d.idx, d.lastIdx, k-1)
}

// array returns the batch's indices with the dictionary so far as a
// dictionary array and starts a new batch.
func (d *dictBuilder) array() arrow.Array {
	ind := arrowio.Int32Array(d.idx)
	k := len(d.offsets) - 1
	data := array.NewData(arrow.BinaryTypes.String, k,
		[]*memory.Buffer{nil, memory.NewBufferBytes(arrow.GetBytes(d.offsets[:k+1])),
			memory.NewBufferBytes(d.data[:d.offsets[k]])}, nil, 0, 0)
	dict := array.NewStringData(data)
	data.Release()
	out := array.NewDictionaryArray(StringType, ind, dict)
	ind.Release()
	dict.Release()
	d.idx = nil
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
	b := &Builder{batchRows: batchRows, runs: &RunIDs{}}
	for i := range b.strs {
		b.strs[i].reset()
	}
	return b
}

// Append adds one row, or returns the *RowError of CheckRow and adds
// nothing when the row breaks a rule of the table (a string longer than
// MaxStringBytes, an unknown mode, a negative count). Level indices below 1
// are stored as 1.
func (b *Builder) Append(r *Row) error {
	if err := CheckRow(r); err != nil {
		return err
	}
	if b.pending == 0 && b.rows >= int64(b.batchRows) {
		b.reserve()
	}
	b.strs[0].add(r.Project)
	b.strs[1].add(r.Version)
	b.strs[2].add(r.Benchmark)
	b.strs[3].add(r.Params)
	b.strs[4].add(r.Mode)
	metric := r.Metric
	if metric == "" {
		metric = Primary
	}
	b.strs[5].add(metric)
	b.strs[6].add(r.Unit)
	b.strs[7].add(r.Pair)
	b.strs[8].add(r.Source)
	b.value = append(b.value, r.Value)
	b.nsPerOp = append(b.nsPerOp, r.NsPerOp)
	b.count = append(b.count, r.Count)
	b.levels[LevelInstance] = append(b.levels[LevelInstance], atLeast1(r.Instance))
	b.levels[LevelTrial] = append(b.levels[LevelTrial], atLeast1(r.Trial))
	b.levels[LevelFork] = append(b.levels[LevelFork], atLeast1(r.Fork))
	b.levels[LevelIteration] = append(b.levels[LevelIteration], atLeast1(r.Iteration))
	b.levels[LevelSlice] = append(b.levels[LevelSlice], atLeast1(r.Slice))
	b.warmup = append(b.warmup, r.Warmup)
	if r.HasTime {
		b.startNs = append(b.startNs, r.StartNs)
		b.endNs = append(b.endNs, r.EndNs)
		if b.timeValid != nil {
			b.timeValid = append(b.timeValid, true)
		}
	} else {
		b.startNs = append(b.startNs, 0)
		b.endNs = append(b.endNs, 0)
		if b.timeValid == nil {
			b.timeValid = make([]bool, b.pending, b.batchRows)
			for i := range b.timeValid {
				b.timeValid[i] = true
			}
		}
		b.timeValid = append(b.timeValid, false)
	}
	b.line = append(b.line, r.Line)
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
	Value, NsPerOp  []float64
	Count, Line     []int64
	Fork, Iteration []int32
}

// Len is the number of rows.
func (v *Values) Len() int { return len(v.Value) }

// Reset empties v, keeping its memory.
func (v *Values) Reset() {
	v.Value, v.NsPerOp = v.Value[:0], v.NsPerOp[:0]
	v.Count, v.Line = v.Count[:0], v.Line[:0]
	v.Fork, v.Iteration = v.Fork[:0], v.Iteration[:0]
}

// Add appends one row's values. Within capacity it only reslices (the
// compiler then writes no slice pointer, so no GC write barrier per row).
func (v *Values) Add(value, nsPerOp float64, count, line int64, fork, iteration int32) {
	n := len(v.Value)
	if n >= cap(v.Value) || n >= cap(v.NsPerOp) || n >= cap(v.Count) || n >= cap(v.Line) || n >= cap(v.Fork) || n >= cap(v.Iteration) {
		v.Value, v.NsPerOp = append(v.Value, value), append(v.NsPerOp, nsPerOp)
		v.Count, v.Line = append(v.Count, count), append(v.Line, line)
		v.Fork, v.Iteration = append(v.Fork, fork), append(v.Iteration, iteration)
		return
	}
	v.Value, v.NsPerOp = v.Value[:n+1], v.NsPerOp[:n+1]
	v.Count, v.Line = v.Count[:n+1], v.Line[:n+1]
	v.Fork, v.Iteration = v.Fork[:n+1], v.Iteration[:n+1]
	v.Value[n], v.NsPerOp[n], v.Count[n], v.Line[n], v.Fork[n], v.Iteration[n] = value, nsPerOp, count, line, fork, iteration
}

// AppendValues appends v.Len() rows, each r with its Value, NsPerOp,
// Count, Line, Fork and Iteration taken from v: Append for a run of rows,
// which checks r's strings and mode once and adds each string column's
// index once per row without comparing strings. When a row breaks a rule
// (CheckRow), it appends nothing and returns the row's index in v and
// the *RowError; otherwise -1 and nil.
func (b *Builder) AppendValues(r *Row, v *Values) (int, error) {
	n := v.Len()
	if len(v.NsPerOp) != n || len(v.Count) != n || len(v.Line) != n || len(v.Fork) != n || len(v.Iteration) != n {
		panic("table: Values columns of different lengths")
	}
	if n == 0 {
		return -1, nil
	}
	first := *r
	first.Count = v.Count[0]
	if err := CheckRow(&first); err != nil {
		return 0, err
	}
	for i, c := range v.Count {
		if c < 0 {
			return i, &RowError{Column: ColCount, Msg: fmt.Sprintf("%d is negative", c)}
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
		for i := range b.strs {
			b.strs[i].addN(strs[i], k)
		}
		b.value = append(b.value, v.Value[done:done+k]...)
		b.nsPerOp = append(b.nsPerOp, v.NsPerOp[done:done+k]...)
		b.count = append(b.count, v.Count[done:done+k]...)
		b.line = append(b.line, v.Line[done:done+k]...)
		b.levels[LevelInstance] = repeat(b.levels[LevelInstance], atLeast1(r.Instance), k)
		b.levels[LevelTrial] = repeat(b.levels[LevelTrial], atLeast1(r.Trial), k)
		b.levels[LevelSlice] = repeat(b.levels[LevelSlice], atLeast1(r.Slice), k)
		b.levels[LevelFork] = appendAtLeast1(b.levels[LevelFork], v.Fork[done:done+k])
		b.levels[LevelIteration] = appendAtLeast1(b.levels[LevelIteration], v.Iteration[done:done+k])
		b.warmup = repeat(b.warmup, r.Warmup, k)
		if r.HasTime {
			b.startNs, b.endNs = repeat(b.startNs, r.StartNs, k), repeat(b.endNs, r.EndNs, k)
			if b.timeValid != nil {
				b.timeValid = repeat(b.timeValid, true, k)
			}
		} else {
			b.startNs, b.endNs = repeat(b.startNs, 0, k), repeat(b.endNs, 0, k)
			if b.timeValid == nil {
				b.timeValid = repeat(make([]bool, 0, b.batchRows), true, b.pending)
			}
			b.timeValid = repeat(b.timeValid, false, k)
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

// repeat appends k copies of x to s.
func repeat[T comparable](s []T, x T, k int) []T {
	n := len(s)
	s = slices.Grow(s, k)[:n+k]
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

// appendAtLeast1 appends each of v to s, values below 1 as 1.
func appendAtLeast1(s, v []int32) []int32 {
	n := len(s)
	s = slices.Grow(s, len(v))[:n+len(v)]
	tail := s[n:]
	for i, x := range v {
		tail[i] = max(x, 1)
	}
	return s
}

func atLeast1(v int32) int32 {
	if v < 1 {
		return 1
	}
	return v
}

// reserve gives every column room for a whole batch. The first batch grows
// as rows come instead, so small files make small tables.
func (b *Builder) reserve() {
	n := b.batchRows
	for i := range b.strs {
		b.strs[i].idx = make([]int32, 0, n)
	}
	b.value, b.nsPerOp = make([]float64, 0, n), make([]float64, 0, n)
	b.count, b.startNs, b.endNs, b.line = make([]int64, 0, n), make([]int64, 0, n), make([]int64, 0, n), make([]int64, 0, n)
	for l := range b.levels {
		b.levels[l] = make([]int32, 0, n)
	}
	b.warmup = make([]bool, 0, n)
}

// flush emits the pending rows as a record: the columns' slices become its
// buffers, and the next batch starts with new slices.
func (b *Builder) flush() {
	n := b.pending
	if n == 0 {
		return
	}
	cols := make([]arrow.Array, numColumns)
	for i, c := range stringColumns {
		cols[c] = b.strs[i].array()
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
	cols[idxValue], cols[idxNsPerOp] = arrowio.FixedArray(f64, b.value, nil, 0), arrowio.FixedArray(f64, b.nsPerOp, nil, 0)
	cols[idxCount], cols[idxLine] = arrowio.FixedArray(i64, b.count, nil, 0), arrowio.FixedArray(i64, b.line, nil, 0)
	cols[idxStartNs], cols[idxEndNs] = arrowio.FixedArray(i64, b.startNs, valid, nulls), arrowio.FixedArray(i64, b.endNs, valid, nulls)
	for l, c := range [NumLevels]int{idxInstance, idxTrial, idxFork, idxIteration, idxSlice} {
		cols[c] = arrowio.Int32Array(b.levels[l])
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
	rec := array.NewRecord(Schema, cols, int64(n))
	for _, c := range cols {
		c.Release()
	}
	b.value, b.nsPerOp, b.count, b.startNs, b.endNs, b.line = nil, nil, nil, nil, nil, nil
	b.levels = [NumLevels][]int32{}
	b.warmup, b.timeValid = nil, nil
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

// Err returns the first error of the sink set by SetSink, or nil.
func (b *Builder) Err() error { return b.sinkErr }

// Rows is the number of rows appended so far.
func (b *Builder) Rows() int64 { return b.rows }

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
// fills and which a Checker, a Stats and a reader that keep something per
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
