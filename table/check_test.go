package table

import (
	"errors"
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/memory"
)

// rawTable builds a one-record table from rows without Builder.Append's
// checks and level clamping, as a file written by another tool could hold;
// it is built as a version 1 record (plain strings) and converted.
func rawTable(mem memory.Allocator, rows []Row) *Table {
	fields := schema.Fields()
	for _, i := range stringColumns {
		fields[i].Type = arrow.BinaryTypes.String
	}
	rb := array.NewRecordBuilder(mem, arrow.NewSchema(fields, nil))
	defer rb.Release()
	for _, r := range rows {
		rb.Field(idxProject).(*array.StringBuilder).Append(r.Project)
		rb.Field(idxVersion).(*array.StringBuilder).Append(r.Version)
		rb.Field(idxBenchmark).(*array.StringBuilder).Append(r.Benchmark)
		rb.Field(idxParams).(*array.StringBuilder).Append(r.Params)
		rb.Field(idxMode).(*array.StringBuilder).Append(r.Mode)
		rb.Field(idxMetric).(*array.StringBuilder).Append(r.Metric)
		rb.Field(idxUnit).(*array.StringBuilder).Append(r.Unit)
		rb.Field(idxValue).(*array.Float64Builder).Append(r.Value)
		rb.Field(idxNsPerOp).(*array.Float64Builder).Append(r.NsPerOp)
		rb.Field(idxCount).(*array.Int64Builder).Append(r.Count)
		rb.Field(idxInstance).(*array.Int32Builder).Append(r.Instance)
		rb.Field(idxTrial).(*array.Int32Builder).Append(r.Trial)
		rb.Field(idxFork).(*array.Int32Builder).Append(r.Fork)
		rb.Field(idxIteration).(*array.Int32Builder).Append(r.Iteration)
		rb.Field(idxSlice).(*array.Int32Builder).Append(r.Slice)
		rb.Field(idxWarmup).(*array.BooleanBuilder).Append(r.Warmup)
		rb.Field(idxStartNs).(*array.Int64Builder).AppendNull()
		rb.Field(idxEndNs).(*array.Int64Builder).AppendNull()
		rb.Field(idxPair).(*array.StringBuilder).Append(r.Pair)
		rb.Field(idxSource).(*array.StringBuilder).Append(r.Source)
		rb.Field(idxLine).(*array.Int64Builder).Append(r.Line)
	}
	v1 := rb.NewRecord()
	defer v1.Release()
	cols := make([]arrow.Array, numColumns)
	for i := range cols {
		cols[i] = v1.Column(i)
		if s, ok := cols[i].(*array.String); ok {
			var d dictBuilder
			d.reset()
			for j := 0; j < s.Len(); j++ {
				d.add(s.Value(j), 1, s.Len())
			}
			d.idx.materialize(s.Len())
			cols[i] = d.array(nil)
			defer cols[i].Release()
		}
	}
	return &Table{Records: []arrow.Record{array.NewRecord(schema, cols, v1.NumRows())}}
}

// goodRow is a valid row of run p@v b.X (avgt) at the given iteration.
func goodRow(it int32) Row {
	return Row{Project: "p", Version: "v", Benchmark: "b.X", Mode: "avgt", Metric: Primary, Unit: "ns/op",
		Value: 1, NsPerOp: 1, Count: 1, Instance: 1, Trial: 1, Fork: 1, Iteration: it, Slice: 1, Source: "x.json", Line: int64(10 + it)}
}

// TestCheckInvalidError: Check reports the row and where it came from.
func TestCheckInvalidError(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	rows := []Row{goodRow(1), goodRow(2), goodRow(1e8)}
	tab := rawTable(mem, rows)
	defer tab.Release()
	err := tab.Check()
	var ie *InvalidError
	if !errors.As(err, &ie) || ie.row != 3 || ie.Source != "x.json" || ie.Line != 10+1e8 {
		t.Fatalf("err = %#v, want row 3 from x.json line 100000010", err)
	}
	if got := maxLevelIndex(3); got != 65536 {
		t.Errorf("MaxLevelIndex(3) = %d, want 65536", got)
	}
	if got := maxLevelIndex(10000); got != 160000 {
		t.Errorf("MaxLevelIndex(10000) = %d, want 160000", got)
	}
}

// TestAppendRejects: Builder.Append refuses rows that break a rule and
// adds nothing.
func TestAppendRejects(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	b := NewBuilder(mem, 0)
	defer b.Release()
	for _, c := range []struct {
		row Row
		col string
	}{
		{Row{Benchmark: strings.Repeat("b", MaxStringBytes+1), Mode: "avgt"}, colBenchmark},
		{Row{Benchmark: "b", Params: "p=" + strings.Repeat("v", MaxStringBytes), Mode: "avgt"}, colParams},
		{Row{Benchmark: "b", Mode: "Throughput"}, ColMode},
		{Row{Benchmark: "b", Mode: "go", Count: -1}, ColCount},
	} {
		err := b.Append(&c.row)
		var re *InvalidError
		if !errors.As(err, &re) || re.Column != c.col {
			t.Errorf("Append: err = %.200v, want an InvalidError for column %s", err, c.col)
		}
	}
	ok := Row{Benchmark: strings.Repeat("b", MaxStringBytes), Mode: "sample", Count: 0}
	if err := b.Append(&ok); err != nil {
		t.Errorf("Append of a row at the limits: %v", err)
	}
	tab := b.Finish()
	defer tab.Release()
	if tab.NumRows() != 1 {
		t.Errorf("%d rows, want only the valid one", tab.NumRows())
	}
}

// TestBuilderMemoryProportional: a few rows with long names cost memory in
// proportion to their bytes. Finish used to reserve a full batch
// (DefaultBatchRows rows) of string bytes at the last batch's per-row
// rate: 16 KiB names cost 1.1 GB.
func TestBuilderMemoryProportional(t *testing.T) {
	for _, nameLen := range []int{16 << 10, MaxStringBytes} {
		t.Run(fmt.Sprint(nameLen), func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			defer mem.AssertSize(t, 0)
			var before runtime.MemStats
			runtime.ReadMemStats(&before)
			b := NewBuilder(mem, 0)
			name := strings.Repeat("n", nameLen)
			const rows = 6
			for i := 0; i < rows; i++ {
				r := goodRow(int32(i + 1))
				r.Benchmark = name
				if err := b.Append(&r); err != nil {
					t.Fatal(err)
				}
			}
			tab := b.Finish()
			b.Release()
			var after runtime.MemStats
			runtime.ReadMemStats(&after)
			data := rows * nameLen
			if got := after.TotalAlloc - before.TotalAlloc; got > uint64(8*data+4<<20) {
				t.Errorf("allocated %d bytes for %d bytes of names, want at most 8× + 4 MiB", got, data)
			}
			if got := mem.CurrentAlloc(); got > 4*data+1<<20 {
				t.Errorf("table holds %d bytes for %d bytes of names", got, data)
			}
			tab.Release()
		})
	}
}

// TestKnownMode: every mode of modes is known, including the duet types,
// and nothing else.
func TestKnownMode(t *testing.T) {
	for _, m := range modes {
		if !knownMode(m) {
			t.Errorf("knownMode(%q) = false", m)
		}
	}
	for _, m := range []string{"seqn", "syncduet", "duet"} {
		if err := (&Row{Mode: m}).Check(); err != nil {
			t.Errorf("mode %s: %v", m, err)
		}
	}
	for _, m := range []string{"sequential", "aduet", "Duet", "AverageTime"} {
		if knownMode(m) {
			t.Errorf("knownMode(%q) = true", m)
		}
	}
}

// TestRepeatedDictionaryValues: a dictionary may hold a value more than
// once (files of other writers may), so rows of one key can have
// different indices. Stats and checker, which compare indices before
// strings, still count them as one run.
func TestRepeatedDictionaryValues(t *testing.T) {
	mem := memory.NewGoAllocator()
	tab := rawTable(mem, []Row{goodRow(1), goodRow(2), goodRow(3), goodRow(4)})
	defer tab.Release()
	v1 := tab.Records[0]
	// Each string column becomes a dictionary array whose dictionary is
	// the column itself: row j has index j, every value repeated.
	cols := make([]arrow.Array, numColumns)
	for i, c := range v1.Columns() {
		if s, ok := c.(*array.String); ok {
			idx := make([]int32, s.Len())
			for j := range idx {
				idx[j] = int32(j)
			}
			ind := fixedArray(arrow.PrimitiveTypes.Int32, idx, nil, 0)
			cols[i] = array.NewDictionaryArray(stringType, ind, s)
			ind.Release()
			continue
		}
		c.Retain()
		cols[i] = c
	}
	rec := array.NewRecord(schema, cols, v1.NumRows())
	for _, c := range cols {
		c.Release()
	}
	defer rec.Release()

	var st Stats
	st.Add(rec)
	if st.NumRuns() != 1 || st.MetricRows[Primary] != 4 {
		t.Fatalf("Stats: %d runs, %d primary rows; want 1 run of 4 rows", st.NumRuns(), st.MetricRows[Primary])
	}
	st.Each(func(_ Key, r *RunStats) {
		if r.Sizes != [NumLevels]int32{1, 1, 1, 4, 1} || r.numUnits() != 1 {
			t.Errorf("Stats run: sizes %v, %d units; want [1 1 1 4 1], 1 unit", r.Sizes, r.numUnits())
		}
	})
	var ch checker
	if err := ch.add(rec); err != nil {
		t.Fatal(err)
	}
	if err := ch.finish(); err != nil {
		t.Fatal(err)
	}
	if len(ch.runs.runs) != 1 || ch.runs.runs[0].rows != 4 || ch.runs.runs[0].max[LevelIteration] != 4 {
		t.Errorf("checker: %d runs; want 1 run of 4 rows up to iteration 4", len(ch.runs.runs))
	}
}

// TestAppendValues: AppendValues gives the rows, records and errors that
// Append gives row by row, across batch boundaries, with and without
// timestamps, and appends nothing for a run with a negative count.
func TestAppendValues(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	one, many := NewBuilder(mem, 7), NewBuilder(mem, 7)
	defer one.Release()
	defer many.Release()
	var v Values
	for run := 0; run < 6; run++ {
		r := goodRow(1)
		r.Benchmark = fmt.Sprintf("b.R%d", run%4)
		r.Instance, r.Trial, r.Slice, r.Warmup = int32(run%2), 2, 3, run == 1
		if run%3 == 2 {
			r.StartNs, r.EndNs, r.HasTime = 100, 200, true
		}
		v.Reset()
		for i := 0; i < 3*run+1; i++ { // 1 to 16 rows: runs across batches of 7
			v.Add(float64(run)+float64(i)/8, float64(i), int64(i+1), int64(10*run+i), int32(i/5), int32(i%5))
		}
		for i := 0; i < v.Len(); i++ {
			row := r
			row.Value, row.NsPerOp, row.Count, row.Line, row.Fork, row.Iteration = v.value[i], v.nsPerOp[i], v.count[i], v.line[i], v.fork[i], v.iteration[i]
			if err := one.Append(&row); err != nil {
				t.Fatal(err)
			}
		}
		if i, err := many.AppendValues(&r, &v); i != -1 || err != nil {
			t.Fatalf("run %d: AppendValues = %d, %v", run, i, err)
		}
	}
	bad := goodRow(1)
	v.Reset()
	v.Add(1, 1, 1, 1, 1, 1)
	v.Add(2, 2, -3, 2, 1, 2)
	if i, err := many.AppendValues(&bad, &v); i != 1 || err == nil || err.Error() != "column count: -3 is negative" {
		t.Errorf("negative count: AppendValues = %d, %v; want 1, column count: -3 is negative", i, err)
	}
	bad.Mode = "fast"
	if i, err := many.AppendValues(&bad, &v); i != 0 || err == nil {
		t.Errorf("unknown mode: AppendValues = %d, %v; want 0 and an error", i, err)
	}
	a, b := one.Finish(), many.Finish()
	defer a.Release()
	defer b.Release()
	if len(a.Records) != len(b.Records) || a.NumRows() != 51 {
		t.Fatalf("%d and %d records, %d rows; want equal records and 51 rows", len(a.Records), len(b.Records), a.NumRows())
	}
	for i := range a.Records {
		if !array.RecordEqual(a.Records[i], b.Records[i]) {
			t.Errorf("record %d differs:\n%v\n%v", i, a.Records[i], b.Records[i])
		}
	}
}

// TestCheckStretch: rows of one run at the same levels (histogram buckets)
// are checked as a stretch; a negative count inside it is still reported
// at its own row, and Stats counts every row of it.
func TestCheckStretch(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	rows := make([]Row, 6)
	for i := range rows {
		rows[i] = goodRow(1)
		rows[i].Line = int64(20 + i)
	}
	rows[5].Iteration = 2
	good := rawTable(mem, rows)
	defer good.Release()
	if err := good.Check(); err != nil {
		t.Fatal(err)
	}
	var st Stats
	for _, rec := range good.Records {
		st.Add(rec)
	}
	if st.Rows != 6 || st.MetricRows[Primary] != 6 {
		t.Errorf("stats: %d rows, %d primary", st.Rows, st.MetricRows[Primary])
	}
	rows[3].Count = -2
	bad := rawTable(mem, rows)
	defer bad.Release()
	var ie *InvalidError
	if err := bad.Check(); !errors.As(err, &ie) || ie.row != 4 || ie.Line != 23 || ie.Msg != "column count: -2 is negative" {
		t.Errorf("err = %v (%+v), want row 4, line 23: column count: -2 is negative", err, ie)
	}
}
