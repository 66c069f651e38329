package table

import (
	"github.com/apache/arrow/go/v15/arrow"
)

// Column names of the canonical table, in schema order.
const (
	colProject   = "project"
	colVersion   = "version"
	colBenchmark = "benchmark"
	colParams    = "params"
	ColMode      = "mode"
	ColMetric    = "metric"
	colUnit      = "unit"
	ColValue     = "value"
	ColNsPerOp   = "ns_per_op"
	ColCount     = "count"
	colInstance  = "instance"
	colTrial     = "trial"
	colFork      = "fork"
	colIteration = "iteration"
	colSlice     = "slice"
	colWarmup    = "warmup"
	colStartNs   = "start_ns"
	colEndNs     = "end_ns"
	colPair      = "pair"
	ColSource    = "source"
	ColLine      = "line"
)

// Column indices in schema.
const (
	idxProject = iota
	idxVersion
	idxBenchmark
	idxParams
	idxMode
	idxMetric
	idxUnit
	idxValue
	idxNsPerOp
	idxCount
	idxInstance
	idxTrial
	idxFork
	idxIteration
	idxSlice
	idxWarmup
	idxStartNs
	idxEndNs
	idxPair
	idxSource
	idxLine
	numColumns
)

// Primary is the Metric value of primary measurement rows (the benchmark's
// own time or throughput, as opposed to profiler or custom metrics).
const Primary = "primary"

// stringType is the type of the table's string columns (project, version,
// benchmark, params, mode, metric, unit, pair, source): dictionary-encoded
// UTF-8 with int32 indices. These columns repeat a few values over
// millions of rows, so each record holds every distinct value once and an
// index per row, as Arrow and Parquet readers expect of such columns
// (pandas reads them as categoricals, DuckDB as VARCHAR).
var stringType = &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int32, ValueType: arrow.BinaryTypes.String}

// schema is the canonical measurement table's Arrow schema (without metadata).
//
//	project, version, benchmark  what was measured (version: commit or release label)
//	params      canonical "k=v" pairs sorted by key, joined with ","; "" when none
//	mode        avgt, thrpt, sample, ss (JMH), go (Go benchmarks), or seqn,
//	            syncduet, duet (how a duet benchmark ran its pairs A and B)
//	metric      Primary, or the name of a secondary metric (gc.alloc.rate, B/op, …)
//	unit        unit exactly as recorded (us/op, ops/s, ns/op, B/op, …)
//	value       value exactly as recorded, in unit
//	ns_per_op   value normalised to nanoseconds per operation (time units
//	            scaled; throughput converted as threads·ns(tu)/value); NaN when
//	            the metric is not a time or throughput
//	count       invocations/ops the row stands for: histogram count, Go N, 1 when unknown
//	instance, trial, fork, iteration, slice
//	            1-based repetition indices; 1 where the source has no such level
//	warmup      true for warmup iterations (when a source records them)
//	start_ns, end_ns  iteration start and end timestamps in ns (null when unknown)
//	pair        duet pair label (A/B), "" when not duet data
//	source      where the row came from: the file, and for JMH the record's JSON
//	            path ("file:$[3]"); the value's JSON path follows from fork and iteration
//	line        1-based line of the value in the file (0 when unknown)
var schema = arrow.NewSchema([]arrow.Field{
	{Name: colProject, Type: stringType},
	{Name: colVersion, Type: stringType},
	{Name: colBenchmark, Type: stringType},
	{Name: colParams, Type: stringType},
	{Name: ColMode, Type: stringType},
	{Name: ColMetric, Type: stringType},
	{Name: colUnit, Type: stringType},
	{Name: ColValue, Type: arrow.PrimitiveTypes.Float64},
	{Name: ColNsPerOp, Type: arrow.PrimitiveTypes.Float64},
	{Name: ColCount, Type: arrow.PrimitiveTypes.Int64},
	{Name: colInstance, Type: arrow.PrimitiveTypes.Int32},
	{Name: colTrial, Type: arrow.PrimitiveTypes.Int32},
	{Name: colFork, Type: arrow.PrimitiveTypes.Int32},
	{Name: colIteration, Type: arrow.PrimitiveTypes.Int32},
	{Name: colSlice, Type: arrow.PrimitiveTypes.Int32},
	{Name: colWarmup, Type: arrow.FixedWidthTypes.Boolean},
	{Name: colStartNs, Type: arrow.PrimitiveTypes.Int64, Nullable: true},
	{Name: colEndNs, Type: arrow.PrimitiveTypes.Int64, Nullable: true},
	{Name: colPair, Type: stringType},
	{Name: ColSource, Type: stringType},
	{Name: ColLine, Type: arrow.PrimitiveTypes.Int64},
}, nil)

// stringColumns are the indices of the string columns, in schema order.
var stringColumns = [...]int{idxProject, idxVersion, idxBenchmark, idxParams, idxMode, idxMetric, idxUnit, idxPair, idxSource}

// Row is one row of the canonical table, used to append to a Builder and in
// tests. Analyzers read columns through Collect rather than Rows.
type Row struct {
	Project, Version, Benchmark, Params, Mode string
	Metric, Unit                              string
	Value, NsPerOp                            float64
	Count                                     int64
	Instance, Trial, Fork, Iteration, Slice   int32
	Warmup                                    bool
	// StartNs and EndNs are iteration timestamps; HasTime says whether they are known.
	StartNs, EndNs int64
	HasTime        bool
	Pair           string
	Source         string
	Line           int64
}

// Key identifies one benchmark run: a benchmark with one parameter combination
// in one mode, of one version of one project.
type Key struct {
	Project, Version, Benchmark, Params, Mode string
}

// String formats the key as "project@version benchmark[params] (mode)",
// leaving out the parts that are empty.
func (k Key) String() string {
	s := k.Benchmark
	switch {
	case k.Version != "":
		s = k.Project + "@" + k.Version + " " + s
	case k.Project != "":
		s = k.Project + " " + s
	}
	if k.Params != "" {
		s += "[" + k.Params + "]"
	}
	if k.Mode != "" {
		s += " (" + k.Mode + ")"
	}
	return s
}

// Less orders keys by project, version, benchmark, params, mode.
func (k Key) Less(o Key) bool {
	if k.Project != o.Project {
		return k.Project < o.Project
	}
	if k.Version != o.Version {
		return k.Version < o.Version
	}
	if k.Benchmark != o.Benchmark {
		return k.Benchmark < o.Benchmark
	}
	if k.Params != o.Params {
		return k.Params < o.Params
	}
	return k.Mode < o.Mode
}
