package table

import (
	"fmt"
	"sort"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/memory"
)

// DefaultBatchRows is the number of rows per Arrow record a Builder emits.
const DefaultBatchRows = 1 << 16

// Builder accumulates canonical rows into fixed-size Arrow records using one
// reused array.RecordBuilder, and collects setups. It is not safe for
// concurrent use. Call Finish to obtain the Table; the Builder must be
// released with Release afterwards (or instead, on error paths).
type Builder struct {
	rb        *array.RecordBuilder
	batchRows int
	pending   int
	records   []arrow.Record
	rows      int64
	setups    map[Key]*Setup
	sink      func(arrow.Record) error
	sinkErr   error

	project, version, benchmark, params, mode *array.StringBuilder
	metric, unit, pair, source                *array.StringBuilder
	value, nsPerOp                            *array.Float64Builder
	count, startNs, endNs, line               *array.Int64Builder
	instance, trial, fork, iteration, slice   *array.Int32Builder
	warmup                                    *array.BooleanBuilder
}

// NewBuilder returns a Builder allocating from mem that emits records of
// batchRows rows (DefaultBatchRows when batchRows <= 0).
func NewBuilder(mem memory.Allocator, batchRows int) *Builder {
	if batchRows <= 0 {
		batchRows = DefaultBatchRows
	}
	rb := array.NewRecordBuilder(mem, Schema)
	// Start small so small files make small tables; after the first full
	// batch, flush reserves whole batches.
	rb.Reserve(min(batchRows, 1024))
	// Fields returned by rb.Field are borrowed: they are released with rb.
	return &Builder{
		rb:        rb,
		batchRows: batchRows,
		setups:    map[Key]*Setup{},
		project:   rb.Field(idxProject).(*array.StringBuilder),
		version:   rb.Field(idxVersion).(*array.StringBuilder),
		benchmark: rb.Field(idxBenchmark).(*array.StringBuilder),
		params:    rb.Field(idxParams).(*array.StringBuilder),
		mode:      rb.Field(idxMode).(*array.StringBuilder),
		metric:    rb.Field(idxMetric).(*array.StringBuilder),
		unit:      rb.Field(idxUnit).(*array.StringBuilder),
		value:     rb.Field(idxValue).(*array.Float64Builder),
		nsPerOp:   rb.Field(idxNsPerOp).(*array.Float64Builder),
		count:     rb.Field(idxCount).(*array.Int64Builder),
		instance:  rb.Field(idxInstance).(*array.Int32Builder),
		trial:     rb.Field(idxTrial).(*array.Int32Builder),
		fork:      rb.Field(idxFork).(*array.Int32Builder),
		iteration: rb.Field(idxIteration).(*array.Int32Builder),
		slice:     rb.Field(idxSlice).(*array.Int32Builder),
		warmup:    rb.Field(idxWarmup).(*array.BooleanBuilder),
		startNs:   rb.Field(idxStartNs).(*array.Int64Builder),
		endNs:     rb.Field(idxEndNs).(*array.Int64Builder),
		pair:      rb.Field(idxPair).(*array.StringBuilder),
		source:    rb.Field(idxSource).(*array.StringBuilder),
		line:      rb.Field(idxLine).(*array.Int64Builder),
	}
}

// Append adds one row, or returns the *RowError of CheckRow and adds
// nothing when the row breaks a rule of the table (a string longer than
// MaxStringBytes, an unknown mode, a negative count). Level indices below 1
// are stored as 1.
func (b *Builder) Append(r *Row) error {
	if err := CheckRow(r); err != nil {
		return err
	}
	b.project.Append(r.Project)
	b.version.Append(r.Version)
	b.benchmark.Append(r.Benchmark)
	b.params.Append(r.Params)
	b.mode.Append(r.Mode)
	metric := r.Metric
	if metric == "" {
		metric = Primary
	}
	b.metric.Append(metric)
	b.unit.Append(r.Unit)
	b.value.Append(r.Value)
	b.nsPerOp.Append(r.NsPerOp)
	b.count.Append(r.Count)
	b.instance.Append(atLeast1(r.Instance))
	b.trial.Append(atLeast1(r.Trial))
	b.fork.Append(atLeast1(r.Fork))
	b.iteration.Append(atLeast1(r.Iteration))
	b.slice.Append(atLeast1(r.Slice))
	b.warmup.Append(r.Warmup)
	if r.HasTime {
		b.startNs.Append(r.StartNs)
		b.endNs.Append(r.EndNs)
	} else {
		b.startNs.AppendNull()
		b.endNs.AppendNull()
	}
	b.pair.Append(r.Pair)
	b.source.Append(r.Source)
	b.line.Append(r.Line)
	b.rows++
	b.pending++
	if b.pending >= b.batchRows {
		b.flush(true)
	}
	return nil
}

func atLeast1(v int32) int32 {
	if v < 1 {
		return 1
	}
	return v
}

// flush emits the pending rows as a record. When more rows will follow
// (more is true: flushing a full batch), it reserves room for the next
// batch: its rows, and for each string column the bytes the batch just
// emitted held, plus 5%, so appending does not regrow the data buffers
// (string appends dominate ingest time otherwise). The reservation is the
// size of data already seen, so memory stays within about twice the
// table's size; Finish reserves nothing.
func (b *Builder) flush(more bool) {
	if b.pending == 0 {
		return
	}
	rec := b.rb.NewRecord()
	full := b.pending >= b.batchRows
	b.pending = 0
	if more && full {
		b.rb.Reserve(b.batchRows)
		for i, sb := range b.stringBuilders() {
			arr := rec.Column(stringColumns[i]).(*array.String)
			sb.ReserveData(len(arr.ValueBytes()) + len(arr.ValueBytes())/20 + 64)
		}
	}
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

// stringColumns are the indices of the string columns, in the order of
// stringBuilders.
var stringColumns = [...]int{idxProject, idxVersion, idxBenchmark, idxParams, idxMode, idxMetric, idxUnit, idxPair, idxSource}

func (b *Builder) stringBuilders() [len(stringColumns)]*array.StringBuilder {
	return [...]*array.StringBuilder{b.project, b.version, b.benchmark, b.params, b.mode, b.metric, b.unit, b.pair, b.source}
}

// Rows is the number of rows appended so far.
func (b *Builder) Rows() int64 { return b.rows }

// AddSetup records the setup of one benchmark run. A second setup for the
// same key is merged when it agrees (fields unknown in one side are filled
// from the other); when both state different values for a field it returns
// an error naming the field, and the first setup is kept.
func (b *Builder) AddSetup(s Setup) error {
	old, ok := b.setups[s.Key]
	if !ok {
		c := s
		b.setups[s.Key] = &c
		return nil
	}
	if why := old.conflicts(&s); why != "" {
		return fmt.Errorf("mixed setups for %s: %s (first from %s, then %s)", s.Key, why, old.Source, s.Source)
	}
	mergeSetup(old, &s)
	return nil
}

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
	for k, v := range src.Env {
		if dst.Env == nil {
			dst.Env = map[string]string{}
		}
		if _, ok := dst.Env[k]; !ok {
			dst.Env[k] = v
		}
	}
}

// Finish returns the table of everything appended so far and resets the
// Builder's rows and setups. The caller owns the Table and must Release it.
func (b *Builder) Finish() *Table {
	b.flush(false)
	t := &Table{Records: b.records, Setups: sortedSetups(b.setups)}
	b.records = nil
	b.setups = map[Key]*Setup{}
	b.rows = 0
	return t
}

// Release frees the builder's buffers and any records not handed out by Finish.
func (b *Builder) Release() {
	for _, r := range b.records {
		r.Release()
	}
	b.records = nil
	b.rb.Release()
}

func sortedSetups(m map[Key]*Setup) []Setup {
	out := make([]Setup, 0, len(m))
	for _, s := range m {
		out = append(out, *s)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Key.Less(out[j].Key) })
	return out
}
