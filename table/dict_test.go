package table

import (
	"reflect"
	"testing"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/memory"
)

// TestCoderSharesMappedIndices: a record whose dictionary begins the
// column's (the second record's metrics, in the first's order) is coded
// with its own indices, shared, not copied; one whose dictionary does not
// (the second record's benchmarks, new ones) is transposed; decoding gives
// the rows back either way.
func TestCoderSharesMappedIndices(t *testing.T) {
	b := NewBuilder(memory.DefaultAllocator, 4)
	defer b.Release()
	var rows []Row
	for i, bench := range []string{"b.A", "b.A", "b.B", "b.B", "b.C", "b.C", "b.D", "b.D"} {
		r := Row{Project: "p", Version: "v", Benchmark: bench, Mode: "avgt", Metric: []string{"", "gc.alloc.rate"}[i%2],
			Unit: "ns/op", Value: float64(i), NsPerOp: float64(i), Count: 1, Instance: 1, Trial: 1, Fork: 1, Iteration: int32(1 + i/2), Slice: 1}
		if err := b.Append(&r); err != nil {
			t.Fatal(err)
		}
		r.Metric = []string{Primary, "gc.alloc.rate"}[i%2]
		rows = append(rows, r)
	}
	tab := b.Finish()
	defer tab.Release()
	if len(tab.Records) != 2 {
		t.Fatalf("%d records, want 2", len(tab.Records))
	}
	c := &coder{}
	var coded []*array.Int32
	var got []Row
	for _, rec := range tab.Records {
		enc := c.encode(rec)
		defer enc.Release()
		coded = append(coded, enc.Column(idxMetric).(*array.Int32), enc.Column(idxBenchmark).(*array.Int32))
		dicts := c.dictionaries()
		dec, err := decode(enc, dicts, true)
		releaseAll(dicts)
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, rowsOf(t, &Table{Records: []arrow.Record{dec}})...)
		dec.Release()
	}
	second := tab.Records[1]
	if coded[2] != second.Column(idxMetric).(*array.Dictionary).Indices() {
		t.Error("the second record's metric codes were copied, not shared")
	}
	if coded[3] == second.Column(idxBenchmark).(*array.Dictionary).Indices() || coded[3].Value(0) != 2 {
		t.Errorf("the second record's benchmark codes were shared or wrong (first code %d, want 2)", coded[3].Value(0))
	}
	if !reflect.DeepEqual(got, rows) {
		t.Errorf("decoded rows\n%v\nwant\n%v", got, rows)
	}
}
